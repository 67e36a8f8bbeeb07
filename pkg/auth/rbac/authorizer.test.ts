import type { RequestAttributes } from '../attributes';
import type { UserInfo } from '../user';
import { withAdmissionStamp } from './admission';
import { RbacAuthorizer } from './authorizer';
import { computeEffective, SimpleRoleGraph } from './effective';
import { enforcedRole, type EnforcedRole, type RbacSource } from './held-roles';
import { observedDefinitionOf, type PolicyRule, type Role } from './types';

function role(name: string, rules: PolicyRule[], extra: { deps?: string[]; aggregateTo?: string[] } = {}): Role {
  const annotations: Record<string, string> = {};
  if (extra.deps) annotations['rbac.authorization.svc.run/dependencies'] = JSON.stringify(extra.deps);
  const labels = Object.fromEntries(
    (extra.aggregateTo ?? []).map((t) => [`rbac.authorization.svc.run/aggregate-to-${t}`, 'true']),
  );
  // Stamped as the apiserver stamps what its role-write check admitted.
  return withAdmissionStamp({
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name, generation: 1, annotations, labels },
    rules,
  });
}

/** A source over roles whose status the aggregation controller has computed (unless `stale` names them). */
function source(
  roles: Role[],
  bindings: Record<string, { binding: string; role: string }[]>,
  stale: string[] = [],
): RbacSource {
  const graph = new SimpleRoleGraph(roles);
  const enforced = new Map<string, EnforcedRole>();
  for (const r of roles) {
    const name = r.metadata.name!;
    const status = {
      observedGeneration: stale.includes(name) ? 0 : 1,
      observedDefinition: observedDefinitionOf(r),
      ...computeEffective(graph, name),
    };
    enforced.set(name, enforcedRole({ ...r, status }));
  }
  return { bindingsOf: (user) => bindings[user] ?? [], role: (name) => enforced.get(name) };
}

const res = (verb: string, apiGroup: string, resource: string, name = '', subresource = ''): RequestAttributes => ({
  isResourceRequest: true,
  path: '/apis/x',
  verb,
  apiGroup,
  resource,
  subresource,
  name,
});
const url = (verb: string, path: string): RequestAttributes => ({
  isResourceRequest: false,
  path,
  verb,
  apiGroup: '',
  resource: '',
  subresource: '',
  name: '',
});

const ada: UserInfo = { name: 'ada', groups: ['authenticated', 'anonymous'] };
const anonymous: UserInfo = { name: 'anonymous', groups: ['anonymous'] };
const getPersons: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['persons'] };
const updatePersons: PolicyRule = { verbs: ['update'], apiGroups: ['example.com'], resources: ['persons'] };
const roles = [
  role('super-role', [{ apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*'], verbs: ['*'] }]),
  role('anonymous', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/healthz/*'] }]),
  role('authenticated', [{ verbs: ['get'], apiGroups: [''], resources: ['users'], resourceNames: ['-'] }]),
  role(
    'public-posts',
    [{ verbs: ['get', 'list', 'watch'], apiGroups: ['api.content.svc.run'], resources: ['posts'] }],
    { aggregateTo: ['anonymous'] },
  ),
  role('editor', [updatePersons], { deps: ['viewer'] }),
  role('viewer', [], { deps: ['view-persons'] }),
  role('view-persons', [getPersons]),
  role('watcher', [
    { verbs: ['watch', 'get'], apiGroups: ['example.com'], resources: ['persons'], resourceNames: ['a', 'b'] },
  ]),
];
const bindings = {
  ada: [
    { binding: 'ada-editor', role: 'editor' },
    { binding: 'ada-watcher', role: 'watcher' },
    { binding: 'ada-ghost', role: 'ghost' },
  ],
  root: [{ binding: 'root-super', role: 'super-role' }],
};
const authorizer = new RbacAuthorizer(source(roles, bindings));

describe('RbacAuthorizer.authorize', () => {
  it.each([
    [
      'own rule of a bound role',
      ada,
      res('update', 'example.com', 'persons', 'x'),
      'allowed by RoleBinding "ada-editor" to Role "editor"',
    ],
    [
      'rule of a transitive dependency',
      ada,
      res('get', 'example.com', 'persons', 'x'),
      'allowed by RoleBinding "ada-editor" to Role "editor"',
    ],
    [
      'a resourceNames rule',
      ada,
      res('get', 'example.com', 'persons', 'b'),
      'allowed by RoleBinding "ada-editor" to Role "editor"',
    ],
    ['a group role', ada, res('get', '', 'users', '-'), 'allowed by Role "authenticated"'],
    [
      'a role aggregated into a group role',
      anonymous,
      res('list', 'api.content.svc.run', 'posts'),
      'allowed by Role "anonymous"',
    ],
    ['a non-resource rule', anonymous, url('get', '/healthz/ready'), 'allowed by Role "anonymous"'],
    [
      'super-role',
      { name: 'root', groups: [] },
      res('delete', 'x.io', 'things', 'n'),
      'allowed by RoleBinding "root-super" to Role "super-role"',
    ],
  ])('allows by %s', async (_title, user, info, reason) => {
    await expect(authorizer.authorize({ user, info })).resolves.toEqual({ decision: 'Allow', reason });
  });

  it.each([
    [
      'a verb no rule grants',
      ada,
      res('delete', 'example.com', 'persons', 'x'),
      'no role of user "ada" allows delete persons.example.com "x"',
    ],
    [
      'the anonymous visitor',
      anonymous,
      res('get', '', 'users', '-'),
      'no role of user "anonymous" allows get users "-"',
    ],
    [
      'a subresource of a granted plural',
      ada,
      res('update', 'example.com', 'persons', 'x', 'status'),
      'no role of user "ada" allows update persons/status.example.com "x"',
    ],
    ['a path', ada, url('post', '/healthz'), 'no role of user "ada" allows post /healthz'],
  ])('does not allow %s', async (_title, user, info, reason) => {
    await expect(authorizer.authorize({ user, info })).resolves.toEqual({ decision: 'NoOpinion', reason });
  });

  it('counts only the bound roles a role-limited token names (group roles still count)', () => {
    const limited: UserInfo = { ...ada, roleLimit: ['watcher'] };
    expect(authorizer.decide(limited, res('update', 'example.com', 'persons', 'x')).decision).toBe('NoOpinion');
    expect(authorizer.decide(limited, res('get', 'example.com', 'persons', 'a')).decision).toBe('Allow');
    expect(authorizer.decide(limited, res('get', '', 'users', '-')).decision).toBe('Allow');
  });

  it("enforces only a role's own rules while its status is stale", () => {
    const stale = new RbacAuthorizer(source(roles, bindings, ['editor']));
    expect(stale.decide(ada, res('update', 'example.com', 'persons', 'x')).decision).toBe('Allow');
    expect(stale.decide(ada, res('get', 'example.com', 'persons', 'x')).decision).toBe('NoOpinion');
  });
});

describe('RbacAuthorizer.explain', () => {
  it('traces binding → role → dependency path → rule', () => {
    expect(authorizer.explain(ada, res('get', 'example.com', 'persons', 'x'))).toEqual({
      allowed: true,
      reason: 'allowed by RoleBinding "ada-editor" to Role "editor"',
      trace: [
        { kind: 'RoleBinding', name: 'ada-editor', message: 'binds Role "editor"' },
        { kind: 'Role', name: 'editor', message: 'bound by RoleBinding "ada-editor"' },
        { kind: 'Role', name: 'viewer', message: 'a dependency of Role "editor"' },
        { kind: 'Role', name: 'view-persons', message: 'a dependency of Role "viewer"' },
        { kind: 'Rule', name: 'get,list persons in group example.com', message: 'allows get persons.example.com "x"' },
      ],
    });
  });

  it('traces an aggregation into a group role', () => {
    expect(authorizer.explain(anonymous, res('get', 'api.content.svc.run', 'posts', 'p')).trace).toEqual([
      { kind: 'Role', name: 'anonymous', message: 'held by every request of the user' },
      { kind: 'Role', name: 'public-posts', message: 'aggregated into Role "anonymous"' },
      {
        kind: 'Rule',
        name: 'get,list,watch posts in group api.content.svc.run',
        message: 'allows get posts.api.content.svc.run "p"',
      },
    ]);
  });

  it('lists the roles considered and why the closest rules fail', () => {
    const explanation = authorizer.explain(
      { ...ada, roleLimit: ['editor', 'ghost'] },
      res('delete', 'example.com', 'persons', 'c'),
    );
    expect(explanation.allowed).toBe(false);
    expect(explanation.reason).toBe('no role of user "ada" allows delete persons.example.com "c"');
    expect(explanation.trace).toEqual([
      {
        kind: 'Role',
        name: 'editor',
        message: 'bound by RoleBinding "ada-editor"; none of its 2 rules allows delete persons.example.com "c"',
      },
      {
        kind: 'Role',
        name: 'watcher',
        message: 'bound by RoleBinding "ada-watcher", but left out by the token\'s role limit',
      },
      { kind: 'Role', name: 'ghost', message: 'bound by RoleBinding "ada-ghost", but no such role exists' },
      {
        kind: 'Role',
        name: 'authenticated',
        message: 'held by every request of the user; none of its 1 rules allows delete persons.example.com "c"',
      },
      {
        kind: 'Role',
        name: 'anonymous',
        message: 'held by every request of the user; none of its 2 rules allows delete persons.example.com "c"',
      },
      {
        kind: 'Rule',
        name: 'get,list persons in group example.com',
        message: 'in Role "editor": verb "delete" not in [get, list]',
      },
      {
        kind: 'Rule',
        name: 'update persons in group example.com',
        message: 'in Role "editor": verb "delete" not in [update]',
      },
      {
        kind: 'Rule',
        name: 'get,list,watch posts in group api.content.svc.run',
        message:
          'in Role "anonymous": verb "delete" not in [get, list, watch]; group "example.com" not in [api.content.svc.run]; resource "persons" not in [posts]',
      },
    ]);
  });
});

describe('RbacAuthorizer.namesAllowed', () => {
  it('filters a collection watch to the names of resourceNames rules', () => {
    expect(authorizer.namesAllowed(ada, res('watch', 'example.com', 'persons'))).toEqual(new Set(['a', 'b']));
  });
  it('allows every name when some rule has no resourceNames', () => {
    expect(authorizer.namesAllowed(anonymous, res('watch', 'api.content.svc.run', 'posts'))).toBe('all');
    expect(authorizer.namesAllowed({ name: 'root', groups: [] }, res('watch', 'example.com', 'persons'))).toBe('all');
  });
  it('gives nothing to a user without watch rules', () => {
    expect(authorizer.namesAllowed(anonymous, res('watch', 'example.com', 'persons'))).toEqual(new Set());
  });
});

describe('RbacAuthorizer.uncoveredRules', () => {
  const owner = new RbacAuthorizer(
    source(
      [
        role('owner', [
          { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['persons', '*/status'] },
          { verbs: ['update'], apiGroups: ['example.com'], resources: ['posts'], resourceNames: ['a', 'b'] },
          { verbs: ['*'], apiGroups: ['g'], resources: ['things'] },
          { verbs: ['get'], nonResourceURLs: ['/healthz/*', '/version'] },
        ]),
      ],
      { bo: [{ binding: 'bo-owner', role: 'owner' }] },
    ),
  );
  const bo: UserInfo = { name: 'bo', groups: [] };

  it.each<[string, PolicyRule, boolean]>([
    ['the same rule', { verbs: ['get'], apiGroups: ['example.com'], resources: ['persons'] }, true],
    [
      'a subset of verbs and names',
      { verbs: ['get'], apiGroups: ['example.com'], resources: ['persons'], resourceNames: ['x'] },
      true,
    ],
    [
      'a subresource through */status',
      { verbs: ['list'], apiGroups: ['example.com'], resources: ['persons/status', '*/status'] },
      true,
    ],
    ['a verb not held', { verbs: ['get', 'delete'], apiGroups: ['example.com'], resources: ['persons'] }, false],
    ['verb * not held as *', { verbs: ['*'], apiGroups: ['example.com'], resources: ['persons'] }, false],
    ['verb * held as *', { verbs: ['*'], apiGroups: ['g'], resources: ['things'] }, true],
    ['group * not held', { verbs: ['get'], apiGroups: ['*'], resources: ['persons'] }, false],
    ['resource * not held', { verbs: ['get'], apiGroups: ['example.com'], resources: ['*'] }, false],
    ['a plural not held', { verbs: ['get'], apiGroups: ['example.com'], resources: ['persons', 'secrets'] }, false],
    ['names held', { verbs: ['update'], apiGroups: ['example.com'], resources: ['posts'], resourceNames: ['b'] }, true],
    [
      'a name not held',
      { verbs: ['update'], apiGroups: ['example.com'], resources: ['posts'], resourceNames: ['a', 'c'] },
      false,
    ],
    [
      'all names when the owner holds some',
      { verbs: ['update'], apiGroups: ['example.com'], resources: ['posts'] },
      false,
    ],
    [
      'a URL under a held prefix',
      { verbs: ['get'], nonResourceURLs: ['/healthz/ready', '/healthz/*', '/version'] },
      true,
    ],
    ['a URL not held', { verbs: ['get'], nonResourceURLs: ['/metrics'] }, false],
    ['URL * not held', { verbs: ['get'], nonResourceURLs: ['*'] }, false],
    ['a URL verb not held', { verbs: ['post'], nonResourceURLs: ['/version'] }, false],
  ])('%s', (_title, rule, covered) => {
    expect(owner.uncoveredRules(bo, [rule])).toEqual(covered ? [] : [rule]);
  });

  it('returns only the uncovered rules', () => {
    const held: PolicyRule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['persons'] };
    const notHeld: PolicyRule = { verbs: ['delete'], apiGroups: ['example.com'], resources: ['persons'] };
    expect(owner.uncoveredRules(bo, [held, notHeld, held])).toEqual([notHeld]);
  });

  it('lets super-role cover everything', () => {
    expect(
      authorizer.uncoveredRules({ name: 'root', groups: [] }, [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*'] },
      ]),
    ).toEqual([]);
  });
});

describe('RbacAuthorizer.isSuperAdmin', () => {
  it('is true only for a super-role binding within the role limit', () => {
    expect(authorizer.isSuperAdmin({ name: 'root', groups: [] })).toBe(true);
    expect(authorizer.isSuperAdmin({ name: 'root', groups: [], roleLimit: ['editor'] })).toBe(false);
    expect(authorizer.isSuperAdmin(ada)).toBe(false);
    expect(authorizer.isSuperAdmin({ name: 'x', groups: ['super-role'] })).toBe(false);
  });
});
