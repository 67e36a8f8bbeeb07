import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalRules, observedDefinitionOf, type Role } from '../../pkg/auth/rbac';
import type { RunningApiServer } from '../../pkg/server/app';
import { ApiClient, isNotFound } from '../../pkg/client';
import { ROLES } from '../../controllers/rbac-aggregation';
import { client as rawClient, startTestApiServer, TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import { getRule, testRole } from '../support/roles';
import { waitFor } from '../support/wait-for';

// The rbac-aggregation controller in a controller-manager against a real
// apiserver: a role's status follows the roles it depends on and the roles
// aggregated into it, as a user changes them.

const ROLES_PATH = '/api/v1alpha1/roles';

afterEach(() => stopTestControllerManagers());

/** The resources of a status's rules, e.g. `['a', 'b']`. */
const resourcesOf = (role: Role | undefined) => (role?.status?.rules ?? []).map((r) => r.resources?.[0]).sort();

/** Whether the role's status was computed for the role as it is, with rules in it. */
const isComputed = (role: Role) =>
  role.status?.observedGeneration === role.metadata.generation && (role.status?.rules.length ?? 0) > 0;

describe('role aggregation (AlwaysAllow)', () => {
  let server: RunningApiServer;
  let client: ApiClient;
  beforeAll(async () => {
    server = await startTestApiServer();
    client = new ApiClient({ server: server.url });
  });
  afterAll(() => server.stop());

  const get = (name: string) => client.get<Role>(ROLES, name);

  it("lists a role's own, dependencies' and aggregated roles' rules in its status, and follows their changes and removal", async () => {
    await startTestControllerManager(server.url, { leaderElection: false });
    await client.create(
      ROLES,
      testRole('agg-a', { rules: [getRule('a')], dependencies: ['agg-c'], uiPermissions: ['ui:a'] }),
    );
    await client.create(
      ROLES,
      testRole('agg-b', { rules: [getRule('b')], aggregateTo: ['agg-a'], uiPermissions: ['ui:b'] }),
    );
    await client.create(ROLES, testRole('agg-c', { rules: [getRule('c')] }));

    const a = await waitFor(
      async () => {
        const role = await get('agg-a');
        return resourcesOf(role).join() === 'a,b,c' ? role : undefined;
      },
      { what: "agg-a's status to list the rules of agg-a, agg-b and agg-c" },
    );
    expect(a.status).toEqual({
      observedGeneration: a.metadata.generation,
      observedDefinition: observedDefinitionOf(a),
      rules: canonicalRules(['a', 'b', 'c'].map(getRule)),
      uiPermissions: ['ui:a', 'ui:b'],
      contributors: [
        { name: 'agg-b', via: 'aggregation', through: 'agg-a' },
        { name: 'agg-c', via: 'dependency', through: 'agg-a' },
      ],
    });

    await client.patch(ROLES, 'agg-b', { rules: [getRule('b2')] });
    await waitFor(async () => resourcesOf(await get('agg-a')).join() === 'a,b2,c', {
      what: "agg-a's status to follow agg-b's rules",
    });

    await client.delete(ROLES, 'agg-b');
    await waitFor(
      async () =>
        get('agg-b').then(
          () => false,
          (err: unknown) => isNotFound(err),
        ),
      { what: 'agg-b to be removed' },
    );
    const without = await waitFor(
      async () => {
        const role = await get('agg-a');
        return resourcesOf(role).join() === 'a,c' ? role : undefined;
      },
      { what: 'agg-b to leave the status of agg-a' },
    );
    expect(without.status?.contributors).toEqual([{ name: 'agg-c', via: 'dependency', through: 'agg-a' }]);
    expect(without.status?.uiPermissions).toEqual(['ui:a']);
    // Without RBAC the controller-manager may run without a token, as the anonymous visitor: super-role's status
    // is still its to write.
    await waitFor(async () => isComputed(await get('super-role')), { what: "super-role's status" });
  });
});

describe('role aggregation under RBAC, as system:controller-manager', () => {
  let server: RunningApiServer;
  let tokenDir: string;
  const admin = { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` };
  const token = 'controller-manager-token-for-the-aggregation-test';

  beforeAll(async () => {
    tokenDir = mkdtempSync(join(tmpdir(), 'svc-cm-token-'));
    const tokenFile = join(tokenDir, 'token');
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    server = await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: tokenFile });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(tokenDir, { recursive: true, force: true });
  });

  it('does its job with the built-in system-controller-manager role only', async () => {
    const api = rawClient(server.url);
    const anonymousList = await api('GET', ROLES_PATH);
    expect(anonymousList.status).toBe(401); // the apiserver does enforce RBAC
    const cm = await startTestControllerManager(server.url, { token });
    await waitFor(() => cm.manager.isLeader(), { what: 'the controller-manager to lead (it writes its Lease)' });

    for (const role of [
      testRole('rbac-a', { rules: [getRule('a')] }),
      testRole('rbac-b', { rules: [getRule('b')], aggregateTo: ['rbac-a'] }),
    ]) {
      const created = await api('POST', ROLES_PATH, role, admin);
      expect(created.status).toBe(201);
    }
    const read = async (name: string) => (await api<Role>('GET', `${ROLES_PATH}/${name}`, undefined, admin)).body;
    await waitFor(async () => resourcesOf(await read('rbac-a')).join() === 'a,b', {
      what: "rbac-a's status to include rbac-b's rules",
    });
    // The built-in roles are computed too: guest depends on anonymous and authenticated.
    const guest = await waitFor(
      async () => {
        const role = await read('guest');
        return role.status?.observedGeneration === role.metadata.generation ? role : undefined;
      },
      { what: "guest's status" },
    );
    expect(guest.status?.contributors.map((c) => c.name)).toEqual(['anonymous', 'authenticated']);
    // super-role cannot be edited, but its status is the controller's to write.
    await waitFor(async () => isComputed(await read('super-role')), { what: "super-role's status" });

    expect((await api('DELETE', `${ROLES_PATH}/rbac-b`, undefined, admin)).status).toBe(200);
    await waitFor(async () => resourcesOf(await read('rbac-a')).join() === 'a', {
      what: 'rbac-b to leave rbac-a (the gc controller removes it)',
    });
  });
  it("reports in a role's status a conditional rule whose model is not served, until it is served with the field", async () => {
    const api = rawClient(server.url);
    await startTestControllerManager(server.url, { token });
    const ownWidgets = {
      apiGroups: ['example.com'],
      resources: ['widgets'],
      verbs: ['list'],
      where: { fieldSelector: 'spec.owner=${user.name}' },
    };
    const created = await api('POST', ROLES_PATH, { metadata: { name: 'own-widgets' }, rules: [ownWidgets] }, admin);
    expect(created.status).toBe(201);
    const read = async () => (await api<Role>('GET', `${ROLES_PATH}/own-widgets`, undefined, admin)).body;
    const reported = await waitFor(async () => (await read()).status?.unusableConditions, {
      what: "own-widgets' status to report its condition",
    });
    expect(reported).toEqual([
      {
        rule: ownWidgets,
        resource: 'widgets.example.com',
        reason: 'ModelNotServed',
        message: 'widgets.example.com is not served: the condition grants nothing until its model is',
      },
    ]);

    const model = {
      apiVersion: 'apiextensions.svc.run/v1alpha1',
      kind: 'Model',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        version: 'v1alpha1',
        names: { kind: 'Widget', singular: 'widget', plural: 'widgets' },
        indexes: [{ name: 'spec.owner', path: 'spec.owner' }],
      },
    };
    expect((await api('POST', '/apis/apiextensions.svc.run/v1alpha1/models', model, admin)).status).toBe(201);
    const usable = await waitFor(
      async () => {
        const role = await read();
        return role.status && role.status.unusableConditions === undefined ? role : undefined;
      },
      { what: "own-widgets' report to go once widgets are served", timeoutMs: 30_000 },
    );
    expect(usable.status?.rules).toEqual([ownWidgets]);
  });
});
