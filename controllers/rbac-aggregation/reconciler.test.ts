import pino from 'pino';
import { canonicalRules, observedDefinitionOf, SimpleRoleGraph, type PolicyRule, type Role } from '../../pkg/auth/rbac';
import type { RunningApiServer } from '../../pkg/server/app';
import { ApiClient, isConflict } from '../../pkg/client';
import { Informer, type ReconcileContext } from '../../pkg/controller';
import { FakeListerWatcher } from '../../pkg/controller/testing/fake-source';
import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { applyPersonModel } from '../../test/support/person';
import { getRule, testRole, type TestRoleSpec } from '../../test/support/roles';
import { RoleAggregationReconciler, UNUSABLE_RECHECK_MS } from './reconciler';
import { ServedIndexes } from './served-indexes';
import { ROLES } from './roles';

// The reconciler against a real apiserver, reading from an informer cache
// whose contents each test sets exactly (the runtime's fake source): each
// write, and each write left out, is checked on the server.

const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });
const ctx: ReconcileContext = { signal: new AbortController().signal, log };

let server: RunningApiServer;
let client: ApiClient;
const informers: Informer<Role>[] = [];

beforeAll(async () => {
  server = await startTestApiServer();
  client = new ApiClient({ server: server.url });
});
afterEach(async () => {
  await Promise.all(informers.splice(0).map((i) => i.stop()));
});
afterAll(() => server.stop());

const create = (name: string, spec: TestRoleSpec = {}) => client.create<Role>(ROLES, testRole(name, spec));
const get = (name: string) => client.get<Role>(ROLES, name);

/** A reconciler whose cache (and graph) hold exactly `cached`, frozen as an informer's are. */
async function reconcilerSeeing(...cached: Role[]): Promise<RoleAggregationReconciler> {
  return reconcilerWith(new ServedIndexes(client), ...cached);
}

/** `reconcilerSeeing`, reading served models through `served`. */
async function reconcilerWith(served: ServedIndexes, ...cached: Role[]): Promise<RoleAggregationReconciler> {
  const informer = new Informer<Role>(new FakeListerWatcher(cached), { name: 'roles', log });
  informers.push(informer);
  informer.start();
  await informer.waitForSync();
  const graph = new SimpleRoleGraph(informer.cache.list() as Role[]);
  return new RoleAggregationReconciler(client, informer.cache, graph, served);
}

/** Reconciles `name` once, with the cache holding the server's current copy of every role named. */
async function reconcileFresh(name: string, ...others: string[]): Promise<void> {
  const roles = await Promise.all([name, ...others].map(get));
  await (await reconcilerSeeing(...roles)).reconcile({ name }, ctx);
}

describe('RoleAggregationReconciler', () => {
  it('writes the effective rules through dependencies and aggregation, transitively, with their contributors', async () => {
    await create('e-a', { rules: [getRule('a')], dependencies: ['e-c'], uiPermissions: ['ui:a'] });
    await create('e-b', { rules: [getRule('b')], aggregateTo: ['e-a'] });
    await create('e-c', { rules: [getRule('c')], dependencies: ['e-e'] });
    await create('e-d', { rules: [getRule('d'), getRule('b')], aggregateTo: ['e-b'], uiPermissions: ['ui:d'] });
    await create('e-e', { rules: [getRule('e')] });
    await create('e-other', { rules: [getRule('other')], aggregateTo: ['e-elsewhere'] });

    await reconcileFresh('e-a', 'e-b', 'e-c', 'e-d', 'e-e', 'e-other');
    const stored = await get('e-a');
    expect(stored.status).toEqual({
      observedGeneration: stored.metadata.generation,
      observedDefinition: observedDefinitionOf(stored),
      rules: canonicalRules(['a', 'b', 'c', 'd', 'e'].map(getRule)),
      uiPermissions: ['ui:a', 'ui:d'],
      contributors: [
        { name: 'e-b', via: 'aggregation', through: 'e-a' },
        { name: 'e-c', via: 'dependency', through: 'e-a' },
        { name: 'e-d', via: 'aggregation', through: 'e-b' },
        { name: 'e-e', via: 'dependency', through: 'e-c' },
      ],
    });
    expect(stored.rules).toEqual([getRule('a')]); // its own rules stay as written
  });

  it('writes nothing once the status is current, and again when a contributor changes', async () => {
    await create('w-a', { rules: [getRule('a')] });
    await create('w-b', { rules: [getRule('b')], aggregateTo: ['w-a'] });
    await reconcileFresh('w-a', 'w-b');
    const converged = await get('w-a');
    expect(converged.status?.rules).toEqual(canonicalRules([getRule('a'), getRule('b')]));

    await reconcileFresh('w-a', 'w-b');
    expect((await get('w-a')).metadata.resourceVersion).toBe(converged.metadata.resourceVersion);

    await client.patch(ROLES, 'w-b', { rules: [getRule('b2')] });
    await reconcileFresh('w-a', 'w-b');
    const followed = await get('w-a');
    expect(followed.status?.rules).toEqual(canonicalRules([getRule('a'), getRule('b2')]));
    expect(followed.metadata.generation).toBe(converged.metadata.generation); // a status write is no new generation
  });

  it('stamps the generation it computed for, so a changed role gets a fresh status even with the same rules', async () => {
    await create('g-a', { rules: [getRule('a')] });
    await reconcileFresh('g-a');
    const before = await get('g-a');
    // The same rule twice: a new generation whose effective rules are unchanged.
    await client.patch(ROLES, 'g-a', { rules: [getRule('a'), getRule('a')] });
    const changed = await get('g-a');
    expect(changed.metadata.generation).not.toBe(before.metadata.generation);
    await reconcileFresh('g-a');
    const after = await get('g-a');
    expect(after.status?.observedGeneration).toBe(changed.metadata.generation);
    expect(after.status?.rules).toEqual(before.status?.rules);
  });

  it('leaves the cached role as it was', async () => {
    const created = await create('f-a', { rules: [getRule('a')] });
    const reconciler = await reconcilerSeeing(created);
    await reconciler.reconcile({ name: 'f-a' }, ctx);
    expect((await get('f-a')).status?.rules).toEqual([getRule('a')]);
    expect(informers[0].cache.get('f-a')?.status).toBeUndefined();
  });

  it('is done when the role is not in its cache (removed)', async () => {
    await expect((await reconcilerSeeing()).reconcile({ name: 'n-gone' }, ctx)).resolves.toBeUndefined();
  });

  it('writes nothing for a role marked for deletion', async () => {
    const held = testRole('m-a', { rules: [getRule('a')] });
    held.metadata.finalizers = ['test.example/hold'];
    await client.create(ROLES, held);
    await client.delete(ROLES, 'm-a');
    const marked = await get('m-a');
    await reconcileFresh('m-a');
    const after = await get('m-a');
    expect(after.metadata.resourceVersion).toBe(marked.metadata.resourceVersion);
    expect(after.status).toBeUndefined();
  });

  it('reports conditional rules on a model not served, or on a field it does not index, and looks again later', async () => {
    const rule = (field: string): PolicyRule => ({
      apiGroups: ['example.com'],
      resources: ['persons'],
      verbs: ['list'],
      where: { fieldSelector: `${field}=\${user.name}` },
    });
    // Written while persons are not served: kept, granting nothing.
    await create('c-nick', { rules: [rule('spec.nickname')] });
    await create('c-name', { rules: [rule('spec.name')] });
    const before = await (await reconcilerSeeing(await get('c-nick'))).reconcile({ name: 'c-nick' }, ctx);
    expect(before).toEqual({ requeueAfterMs: UNUSABLE_RECHECK_MS });
    expect((await get('c-nick')).status?.unusableConditions).toEqual([
      {
        rule: rule('spec.nickname'),
        resource: 'persons.example.com',
        reason: 'ModelNotServed',
        message: expect.stringContaining('not served'),
      },
    ]);

    await applyPersonModel(rawClient(server.url));
    const reconciler = await reconcilerWith(new ServedIndexes(client, 0), await get('c-nick'), await get('c-name'));
    await reconciler.reconcile({ name: 'c-nick' }, ctx);
    expect((await get('c-nick')).status?.unusableConditions).toEqual([
      expect.objectContaining({ reason: 'FieldNotIndexed', message: expect.stringContaining('"spec.nickname"') }),
    ]);
    await expect(reconciler.reconcile({ name: 'c-name' }, ctx)).resolves.toBeUndefined();
    expect((await get('c-name')).status?.unusableConditions).toBeUndefined();
  });

  it('fails with Conflict, writing nothing, when its cache is behind the server', async () => {
    const stale = await create('s-a', { rules: [getRule('a')] });
    await client.patch(ROLES, 's-a', { metadata: { labels: { moved: 'on' } } });
    const reconciling = (await reconcilerSeeing(stale)).reconcile({ name: 's-a' }, ctx);
    await expect(reconciling.catch((err: unknown) => isConflict(err))).resolves.toBe(true);
    expect((await get('s-a')).status).toBeUndefined();
  });
});
