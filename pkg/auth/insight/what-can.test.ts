import { RbacAuthorizer, ruleAllows, withAdmissionStamp, type Role } from '../rbac';
import { LOGGED_IN_GROUPS } from '../user';
import { everyRequest, randomWorld, TestWorld, USERS } from '../../../test/support/rbac-insight-world';
import { whatCan } from './what-can';

const role = (name: string, rules: Role['rules'], annotations: Record<string, string> = {}): Role =>
  withAdmissionStamp({ apiVersion: 'v1alpha1', kind: 'Role', metadata: { name, generation: 1, annotations }, rules });

describe('whatCan', () => {
  it('lists rules that allow exactly what the authoriser allows the user, over random worlds', () => {
    // Every request of every user of every world: the differences are collected and each world expects none, one
    // expect() per world rather than per request (jest's expect() costs more per call than the check).
    const requests = everyRequest();
    for (let seed = 1; seed <= 10; seed++) {
      const { world } = randomWorld(seed);
      const authorizer = new RbacAuthorizer(world);
      const wrong: string[] = [];
      for (const name of USERS) {
        const user = { name, groups: [...LOGGED_IN_GROUPS] };
        const answer = whatCan(world, user);
        if (answer.incomplete) wrong.push(`${name}: incomplete`);
        for (const attrs of requests) {
          const rules = attrs.isResourceRequest ? answer.resourceRules : answer.nonResourceRules;
          const listed = rules.some((rule) => ruleAllows(rule, attrs));
          const allowed = authorizer.decide(user, attrs).decision === 'Allow';
          if (listed !== allowed) wrong.push(`${name} ${JSON.stringify(attrs)}: listed ${listed}, allowed ${allowed}`);
        }
      }
      expect({ seed, wrong }).toEqual({ seed, wrong: [] });
    }
  });

  it('says where each rule comes from: binding, role, and the path to the role that holds it', () => {
    const world = new TestWorld();
    world.graph.set(role('anonymous', []));
    world.graph.set(role('authenticated', []));
    world.graph.set(role('viewer', [{ verbs: ['get'], apiGroups: [''], resources: ['posts'] }]));
    world.graph.set(
      role('editor', [{ verbs: ['update'], apiGroups: [''], resources: ['posts'] }], {
        'rbac.authorization.svc.run/dependencies': '["viewer"]',
        'rbac.authorization.svc.run/ui-permissions': '["posts:edit"]',
      }),
    );
    world.bindings.set('ada-editor', { role: 'editor', subjects: ['ada'] });
    world.bindings.set('ada-viewer', { role: 'viewer', subjects: ['ada'] });
    world.materialise();
    const answer = whatCan(world, { name: 'ada', groups: [...LOGGED_IN_GROUPS] });
    expect(answer.resourceRules).toEqual([
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['posts'],
        via: [
          { binding: 'ada-editor', role: 'editor', path: ['editor', 'viewer'] },
          { binding: 'ada-viewer', role: 'viewer', path: ['viewer'] },
        ],
      },
      {
        verbs: ['update'],
        apiGroups: [''],
        resources: ['posts'],
        via: [{ binding: 'ada-editor', role: 'editor', path: ['editor'] }],
      },
    ]);
    expect(answer.uiPermissions).toEqual(['posts:edit']);
    expect(whatCan(world, { name: 'ada', groups: [...LOGGED_IN_GROUPS], roleLimit: ['viewer'] }).uiPermissions).toEqual(
      [],
    );
  });
});
