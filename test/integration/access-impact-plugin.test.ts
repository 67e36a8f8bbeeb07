import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ruleAllows, type PolicyRule } from '../../pkg/auth/rbac';
import type { RunningApiServer } from '../../pkg/server/app';
import { client as rawClient, startTestApiServer, TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import { waitFor } from '../support/wait-for';
import { writePlugin } from '../support/plugin-folder';

// The impact review of a Plugin (its role templates), checked against applying the change: the plugin is enabled
// (and later disabled) for real, the controller-manager applies (and removes) its templates, and every decision
// that flips for a user or for anonymous must be one the review announced, and every announced rule must flip one.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const ROLES = '/api/v1alpha1/roles';
const BINDINGS = '/api/v1alpha1/rolebindings';
const USERS = '/api/v1alpha1/users';
const IMPACT = '/apis/authorization.svc.run/v1alpha1/accessimpactreviews';
const ACCESS_REVIEWS = '/apis/authorization.svc.run/v1alpha1/accessreviews';
const admin = { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` };
const token = 'controller-manager-token-for-the-plugin-impact-test';
const GROUP = 'shop.example.com';

const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-impact-'));
const pluginsDir = join(dir, 'plugins');
// A public template, one aggregated into the role `team` (bound to ada), and one the platform refuses (its name is
// not the plugin's): the review must count the first two only, as the controller applies them.
writePlugin(pluginsDir, 'shop', {
  spec: '  enabled: false\n',
  code: `module.exports = { start(ctx) { ctx.routes.get('/apis/${GROUP}/v1alpha1/pings', () => ({ pong: true })); } };`,
  extensions: {
    'roles.yaml': `apiVersion: v1alpha1
kind: Role
metadata:
  name: shop-viewer
  labels: {svc.run/role-template: "true", rbac.authorization.svc.run/aggregate-to-anonymous: "true"}
rules:
  - {apiGroups: [${GROUP}], resources: [pings], verbs: [list]}
---
apiVersion: v1alpha1
kind: Role
metadata:
  name: shop-editor
  labels: {svc.run/role-template: "true", rbac.authorization.svc.run/aggregate-to-team: "true"}
rules:
  - {apiGroups: [${GROUP}], resources: [orders], verbs: [get, create, delete]}
---
apiVersion: v1alpha1
kind: Role
metadata:
  name: everything
  labels: {svc.run/role-template: "true", rbac.authorization.svc.run/aggregate-to-team: "true"}
rules:
  - {apiGroups: ["*"], resources: ["*"], verbs: ["*"]}
`,
  },
});

let server: RunningApiServer;
const api = () => rawClient(server.url);
const asAdmin = (method: string, path: string, body?: unknown) => api()(method, path, body, admin);
const setEnabled = (enabled: boolean) =>
  api()(
    'PATCH',
    `${PLUGINS}/shop`,
    { spec: { enabled } },
    { ...admin, 'Content-Type': 'application/merge-patch+json' },
  );

beforeAll(async () => {
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  server = await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: tokenFile, pluginsDir });
  await startTestControllerManager(server.url, { token, leaderElection: false });
  await asAdmin('POST', USERS, { metadata: { name: 'ada' }, spec: {} });
  await asAdmin('POST', ROLES, {
    metadata: { name: 'team' },
    rules: [{ apiGroups: [GROUP], resources: ['orders'], verbs: ['get'] }],
  });
  await asAdmin('POST', BINDINGS, {
    metadata: { name: 'ada-team' },
    roleRef: { apiGroup: '', kind: 'Role', name: 'team' },
    subjects: [{ kind: 'User', apiGroup: '', name: 'ada' }],
  });
});
afterAll(async () => {
  await stopTestControllerManagers();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const plugin = (enabled: boolean) => ({
  apiVersion: 'plugin.svc.run/v1alpha1',
  kind: 'Plugin',
  metadata: { name: 'shop' },
  spec: { version: '1.0.0', enabled },
});

const REQUESTS = ['get', 'list', 'create', 'update', 'delete'].flatMap((verb) =>
  ['pings', 'orders'].map((resource) => ({ verb, group: GROUP, resource })),
);
type Request = (typeof REQUESTS)[number];

/** Each request's decision for `user`, as the apiserver decides it now. */
async function decisions(user: string): Promise<boolean[]> {
  const answers = [];
  for (const request of REQUESTS) {
    const res = await asAdmin('POST', ACCESS_REVIEWS, { spec: { user, ...request } });
    expect(res.status).toBe(201);
    answers.push(res.body.status.allowed === true);
  }
  return answers;
}

const allowedBy = (rules: PolicyRule[], r: Request) =>
  rules.some((rule) =>
    ruleAllows(rule, {
      isResourceRequest: true,
      path: '',
      verb: r.verb,
      apiGroup: r.group,
      resource: r.resource,
      subresource: '',
      name: '',
    }),
  );

/** Every flipped decision is explained by the announced rules, and every announced rule flips one. */
function expectFlipsExplained(was: boolean[], now: boolean[], gained: PolicyRule[], lost: PolicyRule[]): number {
  let flips = 0;
  REQUESTS.forEach((request, i) => {
    if (was[i] === now[i]) {
      expect(allowedBy(now[i] ? [] : gained, request)).toBe(false);
      return;
    }
    flips++;
    expect(allowedBy(now[i] ? gained : lost, request)).toBe(true);
  });
  for (const rule of [...gained, ...lost])
    expect(REQUESTS.some((request, i) => was[i] !== now[i] && allowedBy([rule], request))).toBe(true);
  return flips;
}

const review = async (spec: unknown) => {
  const res = await asAdmin('POST', IMPACT, { spec });
  expect(res.status).toBe(201);
  return res.body.status as {
    changes: { user: string; gained: PolicyRule[]; lost: PolicyRule[] }[];
    anonymousGained: PolicyRule[];
    anonymousLost: PolicyRule[];
  };
};

const teamHas = (resource: string, has: boolean) =>
  waitFor(
    async () => {
      const team = await asAdmin('GET', `${ROLES}/team`);
      const rules = (team.body.status?.rules ?? []) as PolicyRule[];
      return rules.some((r) => r.resources?.includes(resource) && r.verbs.includes('delete')) === has;
    },
    { timeoutMs: 20_000, what: `role team's materialised rules ${has ? 'with' : 'without'} the template's` },
  );

describe('accessimpactreviews of a Plugin', () => {
  it('announces what enabling the plugin grants, which applying it then grants, and disabling it takes back', async () => {
    await waitFor(async () => (await asAdmin('GET', `${PLUGINS}/shop`)).body.status?.phase === 'STOPPED', {
      timeoutMs: 20_000,
      what: 'the shop plugin to be STOPPED',
    });
    const adaBefore = await decisions('ada');
    const anonymousBefore = await decisions('anonymous');

    const enabling = await review({ operation: 'update', object: plugin(true) });
    expect(enabling.changes.map((c) => c.user)).toEqual(['ada']);
    // ada, otherwise affected, is told all she gains, the public rule included.
    expect(enabling.changes[0].gained).toEqual(
      expect.arrayContaining([
        { apiGroups: [GROUP], resources: ['orders'], verbs: ['create', 'delete'] },
        { apiGroups: [GROUP], resources: ['pings'], verbs: ['list'] },
      ]),
    );
    expect(enabling.changes[0].gained).toHaveLength(2);
    expect(enabling.anonymousGained).toEqual([{ apiGroups: [GROUP], resources: ['pings'], verbs: ['list'] }]);
    // Nothing was written or started.
    expect((await asAdmin('GET', `${ROLES}/shop-editor`)).status).toBe(404);
    expect((await asAdmin('GET', `${PLUGINS}/shop`)).body.status.phase).toBe('STOPPED');

    expect((await setEnabled(true)).status).toBe(200);
    await teamHas('orders', true);
    await waitFor(async () => (await asAdmin('GET', `${ROLES}/shop-viewer`)).status === 200, {
      timeoutMs: 20_000,
      what: 'the public template',
    });
    const adaEnabled = await decisions('ada');
    const anonymousEnabled = await decisions('anonymous');
    expect(expectFlipsExplained(adaBefore, adaEnabled, enabling.changes[0].gained, [])).toBe(3);
    expect(expectFlipsExplained(anonymousBefore, anonymousEnabled, enabling.anonymousGained, [])).toBe(1);

    const disabling = await review({ operation: 'update', object: plugin(false) });
    const deleting = await review({ operation: 'delete', object: { kind: 'Plugin', metadata: { name: 'shop' } } });
    expect(deleting).toEqual(disabling);
    expect(disabling.changes.map((c) => [c.user, c.gained])).toEqual([['ada', []]]);
    expect((await review({ operation: 'update', object: plugin(true) })).changes).toEqual([]);

    expect((await setEnabled(false)).status).toBe(200);
    await teamHas('orders', false);
    await waitFor(async () => (await asAdmin('GET', `${ROLES}/shop-viewer`)).status === 404, {
      timeoutMs: 20_000,
      what: 'the public template to be deleted',
    });
    expect(expectFlipsExplained(adaEnabled, await decisions('ada'), [], disabling.changes[0].lost)).toBe(3);
    expect(expectFlipsExplained(anonymousEnabled, await decisions('anonymous'), [], disabling.anonymousLost)).toBe(1);
  });

  it('answers 422 for a plugin not installed here, or a spec.enabled that is not a boolean', async () => {
    const unknown = await asAdmin('POST', IMPACT, {
      spec: { operation: 'create', object: { ...plugin(true), metadata: { name: 'nowhere' } } },
    });
    expect([unknown.status, unknown.body.details.causes[0].field]).toEqual([422, 'spec.object.metadata.name']);
    const bad = await asAdmin('POST', IMPACT, {
      spec: { operation: 'update', object: { ...plugin(true), spec: { enabled: 'yes' } } },
    });
    expect([bad.status, bad.body.details.causes[0].field]).toEqual([422, 'spec.object.spec.enabled']);
  });
});
