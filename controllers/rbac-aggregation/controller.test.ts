import pino from 'pino';
import type { Role } from '../../pkg/auth/rbac';
import type { ApiClient } from '../../pkg/client';
import { Informer, Manager } from '../../pkg/controller';
import { FakeListerWatcher } from '../../pkg/controller/testing/fake-source';
import { getRule, testRole, type TestRoleSpec } from '../../test/support/roles';
import { waitFor } from '../../test/support/wait-for';
import { register } from './index';

// The controller as register() wires it, on a Manager whose roles informer is
// fed by an in-memory source: a tiny fake apiserver that stores each status
// write and echoes it back as a watch event, as the real one does.

const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });

/** Roles held in memory, served to an informer, written to through a fake client's `updateStatus`. */
class FakeRoles {
  readonly source: FakeListerWatcher<Role>;
  readonly writes: Role[] = [];
  private readonly roles = new Map<string, Role>();
  private revision = 1;

  constructor(initial: Role[]) {
    for (const role of initial) this.roles.set(role.metadata.name!, this.stamp(role));
    this.source = new FakeListerWatcher<Role>([...this.roles.values()], String(this.revision));
  }

  /** What the reconciler writes through: stored, then echoed to the watch as MODIFIED. */
  readonly client = {
    updateStatus: async (_res: unknown, role: Role): Promise<Role> => {
      const stored = this.roles.get(role.metadata.name!);
      if (!stored) throw new Error(`no role ${role.metadata.name}`);
      const written = this.stamp({ ...stored, status: structuredClone(role.status) });
      this.writes.push(structuredClone(written));
      this.source.emit({ type: 'MODIFIED', object: written });
      return written;
    },
  } as unknown as ApiClient;

  /** A user's change (or creation) of a role: its status is kept. */
  put(role: Role): void {
    const old = this.roles.get(role.metadata.name!);
    const stored = this.stamp({ ...role, status: old?.status });
    this.source.emit({ type: old ? 'MODIFIED' : 'ADDED', object: stored });
  }

  remove(name: string): void {
    const old = this.roles.get(name)!;
    this.roles.delete(name);
    this.source.emit({ type: 'DELETED', object: old });
  }

  status(name: string): Role['status'] {
    return this.roles.get(name)?.status;
  }

  private stamp(role: Role): Role {
    const stamped = structuredClone(role);
    stamped.metadata.resourceVersion = String(++this.revision);
    stamped.metadata.generation = 1;
    this.roles.set(stamped.metadata.name!, stamped);
    return structuredClone(stamped);
  }
}

const stopping: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stopping.splice(0)) await stop();
});

async function startController(roles: FakeRoles): Promise<void> {
  const manager = new Manager({ client: roles.client, log });
  const informer = new Informer<Role>(roles.source, { name: 'roles', log });
  jest.spyOn(manager.informers, 'informerFor').mockReturnValue(informer as never);
  register(manager);
  informer.start();
  await manager.start();
  await waitFor(() => roles.source.watching, { what: 'the roles watch' });
  stopping.push(async () => {
    await manager.stop();
    await informer.stop();
  });
}

const role = (name: string, spec: TestRoleSpec) => testRole(name, spec);
const contributorsOf = (roles: FakeRoles, name: string) =>
  (roles.status(name)?.contributors ?? []).map((c) => `${c.name} ${c.via}`);
const resourcesOf = (roles: FakeRoles, name: string) => (roles.status(name)?.rules ?? []).map((r) => r.resources?.[0]);

describe('the rbac-aggregation controller', () => {
  it('computes every role at start, and requeues a target when a role aggregated into it (even transitively) changes', async () => {
    const roles = new FakeRoles([
      role('a', { rules: [getRule('a')], dependencies: ['c'] }),
      role('b', { rules: [getRule('b')], aggregateTo: ['a'] }),
      role('c', { rules: [getRule('c')] }),
      role('d', { rules: [getRule('d')], aggregateTo: ['b'] }),
    ]);
    await startController(roles);
    await waitFor(() => resourcesOf(roles, 'a').join() === 'a,b,c,d', { what: "a's effective rules" });
    expect(contributorsOf(roles, 'a')).toEqual(['b aggregation', 'c dependency', 'd aggregation']);
    expect(resourcesOf(roles, 'b')).toEqual(['b', 'd']);
    expect(resourcesOf(roles, 'c')).toEqual(['c']);

    roles.put(role('d', { rules: [getRule('d2')], aggregateTo: ['b'] }));
    await waitFor(() => resourcesOf(roles, 'a').join() === 'a,b,c,d2', { what: "a's rules to follow d's through b" });
    expect(resourcesOf(roles, 'b')).toEqual(['b', 'd2']);

    roles.put(role('b', { rules: [getRule('b2')], aggregateTo: ['a'] }));
    await waitFor(() => resourcesOf(roles, 'a').join() === 'a,b2,c,d2', { what: "a's rules to follow b's" });
  });

  it('requeues the former target of a role that leaves it, and the dependents of a removed role', async () => {
    const roles = new FakeRoles([
      role('a', { rules: [getRule('a')], dependencies: ['c'] }),
      role('b', { rules: [getRule('b')], aggregateTo: ['a'] }),
      role('c', { rules: [getRule('c')] }),
    ]);
    await startController(roles);
    await waitFor(() => contributorsOf(roles, 'a').length === 2, { what: "a's contributors" });

    roles.put(role('b', { rules: [getRule('b')] })); // no longer aggregated into a
    await waitFor(() => contributorsOf(roles, 'a').join() === 'c dependency', { what: 'b to leave a' });
    roles.remove('c');
    await waitFor(() => contributorsOf(roles, 'a').length === 0, { what: 'c to leave a' });
    expect(resourcesOf(roles, 'a')).toEqual(['a']);

    roles.put(role('c', { rules: [getRule('c3')] })); // a dependency that appears (again)
    await waitFor(() => resourcesOf(roles, 'a').join() === 'a,c3', { what: 'the new c to join a' });
  });
});
