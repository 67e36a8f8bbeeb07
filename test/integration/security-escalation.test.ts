import { ADMITTED_ANNOTATION, DEPENDENCIES_ANNOTATION, type Role } from '../../pkg/auth/rbac';
import {
  controllerManagerTokenFile,
  startTestControllerManager,
  stopTestControllerManagers,
} from '../support/controller-manager';
import {
  bind,
  BINDINGS,
  createRole,
  createUser,
  expectStatus,
  ROLES,
  USERS,
  useRbacApi,
  type RbacApi,
} from '../support/security';
import { waitFor } from '../support/wait-for';
import type { ApiClient } from '../support/apiserver';

// The ways around RBAC a probe found through the role model's own features (dependencies, aggregation labels,
// templates), tried as a user with ordinary grants against the real guard: each must be refused and leave
// nothing behind. The controller-manager runs, so that anything let through would be materialised and used.

const cmToken = controllerManagerTokenFile('controller-manager-token-for-the-escalation-test');

const api: RbacApi = useRbacApi({ controllerManagerTokenFile: cmToken.file });

const roleWriting = [
  { apiGroups: [''], resources: ['roles'], verbs: ['get', 'list', 'create', 'update', 'patch'] },
  { apiGroups: [''], resources: ['rolebindings'], verbs: ['create'] },
];
const readPersons = { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list'] };
const everything = { apiGroups: ['*'], resources: ['*'], verbs: ['*'] };

let mallory: ApiClient;
/** How long to wait for the controller-manager on a machine busy with other suites. */
const LOADED = 30_000;

/** A PUT of a role as `as`, carrying the stored resourceVersion (a PUT must carry one). */
async function putRole(as: ApiClient, name: string, body: ReturnType<typeof role>) {
  const stored = (await api.admin('GET', `${ROLES}/${name}`)).body as Role;
  const metadata = { ...body.metadata, resourceVersion: stored.metadata.resourceVersion };
  return as('PUT', `${ROLES}/${name}`, { ...body, metadata });
}

beforeAll(async () => {
  const cm = await startTestControllerManager(api.server.url, { token: cmToken.token });
  await waitFor(() => cm.manager.isLeader(), { what: 'the controller-manager to lead', timeoutMs: LOADED });
  await createRole(api, 'role-writer', [...roleWriting, readPersons]);
  mallory = await createUser(api, 'mallory');
  await bind(api, 'mallory', 'role-writer');
});
afterAll(async () => {
  await stopTestControllerManagers();
  cmToken.remove();
});

const role = (name: string, extra: Partial<Role['metadata']> = {}, rules: unknown[] = []) => ({
  metadata: { name, ...extra },
  rules,
});
const dependsOn = (...names: string[]) => ({ [DEPENDENCIES_ANNOTATION]: JSON.stringify(names) });
const aggregateTo = (target: string) => ({ [`rbac.authorization.svc.run/aggregate-to-${target}`]: 'true' });
const merge = 'application/merge-patch+json';

/** Whether the role-aggregation controller has computed `name`'s status for what it is now. */
async function settled(name: string): Promise<Role> {
  return waitFor(
    async () => {
      const res = await api.admin('GET', `${ROLES}/${name}`);
      const stored = res.body as Role;
      return stored.status?.observedGeneration === stored.metadata.generation ? stored : undefined;
    },
    { what: `role ${name}'s status`, timeoutMs: LOADED },
  );
}

describe('role writes are checked on their effect (escalation through dependencies and aggregation)', () => {
  it('refuses adding a dependency on super-role to a role the writer holds, and leaves the role as it was', async () => {
    expectStatus(await mallory('POST', ROLES, role('m-empty')), 201, 'an empty role');
    expectStatus(
      await mallory('POST', BINDINGS, {
        metadata: { name: 'mallory-m-empty' },
        roleRef: { apiGroup: '', kind: 'Role', name: 'm-empty' },
        subjects: [{ kind: 'User', apiGroup: '', name: 'mallory' }],
      }),
      201,
      'binding the empty role to herself',
    );
    // The controller writes the new role's status first: a PUT carrying the version read before would be a 409.
    await settled('m-empty');
    const patch = await mallory(
      'PATCH',
      `${ROLES}/m-empty`,
      { metadata: { annotations: dependsOn('super-role') } },
      {
        'Content-Type': merge,
      },
    );
    expect(patch.status).toBe(403);
    expect(patch.body.message).toMatch(/cannot update resource "roles".*it grants what they do not hold themselves/);
    const put = await putRole(mallory, 'm-empty', role('m-empty', { annotations: dependsOn('super-role') }));
    expect(put.status).toBe(403);
    const stored = (await api.admin('GET', `${ROLES}/m-empty`)).body as Role;
    expect(stored.metadata.annotations?.[DEPENDENCIES_ANNOTATION]).toBeUndefined();
    expect((await mallory('GET', USERS)).status).toBe(403);
  });

  it('refuses a role that depends on super-role and aggregates into anonymous: nobody becomes super administrator', async () => {
    const res = await mallory(
      'POST',
      ROLES,
      role('m-public', { annotations: dependsOn('super-role'), labels: aggregateTo('anonymous') }),
    );
    expect(res.status).toBe(403);
    expect((await api.admin('GET', `${ROLES}/m-public`)).status).toBe(404);
    expect((await api.anonymous('GET', USERS)).status).toBe(401);
  });

  it('needs bind on the target to aggregate into it, even rules the writer holds', async () => {
    const res = await mallory('POST', ROLES, role('m-share', { labels: aggregateTo('anonymous') }, [readPersons]));
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/aggregate-to-anonymous .* needs bind on role "anonymous"/);
    // Adding the label later is the same write.
    expectStatus(await mallory('POST', ROLES, role('m-share', {}, [readPersons])), 201, 'the role alone');
    const labelled = await mallory(
      'PATCH',
      `${ROLES}/m-share`,
      { metadata: { labels: aggregateTo('anonymous') } },
      {
        'Content-Type': merge,
      },
    );
    expect(labelled.status).toBe(403);
    expect((await api.anonymous('GET', '/apis/example.com/v1alpha1/persons')).status).toBe(401);
  });

  it('allows making what the writer holds public once bind on the target is granted', async () => {
    await createRole(api, 'm-publisher', [
      { apiGroups: [''], resources: ['roles'], verbs: ['bind'], resourceNames: ['anonymous'] },
    ]);
    await createUser(api, 'polly');
    await bind(api, 'polly', 'role-writer');
    await bind(api, 'polly', 'm-publisher');
    const polly = api.as({ Authorization: `Basic ${Buffer.from('polly:polly-password').toString('base64')}` });
    expectStatus(
      await polly('POST', ROLES, role('p-public-read', { labels: aggregateTo('anonymous') }, [readPersons])),
      201,
      'a public template of rules she holds',
    );
    await waitFor(async () => (await api.anonymous('GET', '/apis/example.com/v1alpha1/persons')).status === 200, {
      what: 'persons to become public',
      timeoutMs: LOADED,
    });
    // …but not with a dependency she does not hold.
    const widened = await polly(
      'PATCH',
      `${ROLES}/p-public-read`,
      { metadata: { annotations: dependsOn('super-role') } },
      {
        'Content-Type': merge,
      },
    );
    expect(widened.status).toBe(403);
  });

  it('refuses a template that aggregates into a role the writer holds and depends on super-role', async () => {
    const res = await mallory(
      'POST',
      ROLES,
      role('m-tpl', {
        labels: { ...aggregateTo('role-writer'), 'svc.run/role-template': 'true' },
        annotations: dependsOn('super-role'),
      }),
    );
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/needs bind on role "role-writer"|grant what they do not hold/);
  });

  it('judges a change to a role by every role that includes it', async () => {
    // mallory may edit m-base (she holds its rules); team-role, held by others, depends on it and grants more.
    expectStatus(await mallory('POST', ROLES, role('m-base', {}, [readPersons])), 201, 'm-base');
    await createRole(api, 'team-role', [everything], { annotations: dependsOn('m-base') });
    const res = await putRole(mallory, 'm-base', role('m-base', {}, []));
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/role "team-role" would then grant what they do not hold/);
  });

  it('replaces an admission stamp a client sends', async () => {
    expectStatus(
      await mallory('POST', ROLES, role('m-forged', { annotations: { [ADMITTED_ANNOTATION]: 'v1:forged' } })),
      201,
      'a role with a forged stamp',
    );
    const stored = (await api.admin('GET', `${ROLES}/m-forged`)).body as Role;
    expect(stored.metadata.annotations?.[ADMITTED_ANNOTATION]).not.toBe('v1:forged');
  });

  it('refuses binding a role whose status has not caught up with a dependency the binder does not hold', async () => {
    await createRole(api, 'secret-reader', [{ apiGroups: [''], resources: ['users'], verbs: ['list'] }]);
    await createRole(api, 'lazy', [readPersons], { annotations: dependsOn('secret-reader') });
    const res = await mallory('POST', BINDINGS, {
      metadata: { name: 'mallory-lazy' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'lazy' },
      subjects: [{ kind: 'User', apiGroup: '', name: 'mallory' }],
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/role "lazy" grants what they do not hold/);
  });

  it('refuses binding a role whose UI permissions the binder does not hold', async () => {
    await createRole(api, 'ui-only', [], {
      annotations: { 'rbac.authorization.svc.run/ui-permissions': '["system:users:manage"]' },
    });
    const res = await mallory('POST', BINDINGS, {
      metadata: { name: 'mallory-ui-only' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'ui-only' },
      subjects: [{ kind: 'User', apiGroup: '', name: 'mallory' }],
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/role "ui-only" grants UI permissions they do not hold themselves/);
  });

  it('lets the super administrator write any of it', async () => {
    await createRole(api, 'a-public', [readPersons], {
      labels: aggregateTo('anonymous'),
      annotations: dependsOn('m-base'),
    });
    expect((await settled('a-public')).status?.refused).toBeUndefined();
  });
});

describe('rules, roleRef and subjects refuse unknown fields whatever the field validation', () => {
  it('answers 422 for a misspelled resourceNames instead of granting the whole type', async () => {
    const rule = { ...readPersons, resourceNamess: ['only-this'] };
    for (const validation of ['Ignore', 'Warn']) {
      const res = await api.admin('POST', `${ROLES}?fieldValidation=${validation}`, role('typo', {}, [rule]));
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body.details.causes)).toContain('rules[0].resourceNamess');
    }
  });

  it('answers 422 for an unknown field in a binding subject or roleRef', async () => {
    const res = await api.admin('POST', `${BINDINGS}?fieldValidation=Ignore`, {
      metadata: { name: 'typo-binding' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'role-writer', namespace: 'x' },
      subjects: [{ kind: 'User', apiGroup: '', name: 'mallory', group: 'admins' }],
    });
    expect(res.status).toBe(422);
  });
});

describe('the aggregation controller materialises only what the check admitted', () => {
  it('leaves out, and names in status, the edges of a role stored behind the apiserver', async () => {
    await createRole(api, 'planted-target', [readPersons]);
    await bind(api, 'mallory', 'planted-target');
    // Written straight to storage: no check, no stamp (as a role stored before the check existed).
    await api.server.storage.create('roles', {
      apiVersion: 'v1alpha1',
      kind: 'Role',
      metadata: { name: 'planted', labels: aggregateTo('planted-target'), annotations: dependsOn('super-role') },
      rules: [everything],
    });
    const target = await waitFor(
      async () => {
        const stored = (await api.admin('GET', `${ROLES}/planted-target`)).body as Role;
        return stored.status?.refused?.length ? stored : undefined;
      },
      { what: "planted-target's status to name the refused edge", timeoutMs: LOADED },
    );
    expect(target.status?.refused).toEqual([
      expect.objectContaining({ name: 'planted', via: 'aggregation', through: 'planted-target' }),
    ]);
    expect(target.status?.rules).toEqual([
      { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['persons'] },
    ]);
    expect((await mallory('GET', USERS)).status).toBe(403);
  });
});

describe('setting a password is acting as that user', () => {
  it('lets a holder of users/password set the password only of users who hold no more than they do', async () => {
    const setter = await createUser(api, 'pam');
    await createRole(api, 'password-setter', [
      { apiGroups: [''], resources: ['users/password'], verbs: ['update'] },
      readPersons,
    ]);
    await bind(api, 'pam', 'password-setter');
    await createUser(api, 'reader-rita');
    await createRole(api, 'rita-reads', [readPersons]);
    await bind(api, 'reader-rita', 'rita-reads');
    await createUser(api, 'plain-paul');

    const toAdmin = await setter('PUT', `${USERS}/admin/password`, { password: 'a-password-pam-chose' });
    expect(toAdmin.status).toBe(403);
    expect(toAdmin.body.message).toContain('cannot set the password of "admin"');
    expect((await api.admin('GET', USERS)).status).toBe(200);
    const toMallory = await setter('PUT', `${USERS}/mallory/password`, { password: 'a-password-pam-chose' });
    expect(toMallory.status).toBe(403);
    expect((await setter('PUT', `${USERS}/reader-rita/password`, { password: 'a-password-pam-chose' })).status).toBe(
      200,
    );
    expect((await setter('PUT', `${USERS}/plain-paul/password`, { password: 'a-password-pam-chose' })).status).toBe(
      200,
    );
  });
});
