import { LEASES, type Lease } from '../../pkg/controller';
import type { RunningControllerManager } from '../../pkg/controllermanager';
import {
  countPersons,
  markPersons,
  seedPersons,
  startTestControllerManager,
  TEST_LEASE,
  usePersonsApiServer,
} from '../support/controller-manager';
import { waitFor } from '../support/wait-for';

// Many objects marked at once, and controller-managers that die mid-way:
// whatever happens, every marked object is collected in the end. The
// deadlines are there so that a broken gc fails instead of hanging; how fast
// the gc is belongs to bench/controllers.

const ALL_COLLECTED_MS = 120_000;

const shared = usePersonsApiServer();

const leaseHolder = async (leaseName: string) =>
  (await shared.client.get<Lease>(LEASES, leaseName)).spec?.holderIdentity;

/** Waits until the gc has removed some of a batch, but (checked) not all of it. */
async function waitUntilPartlyCollected(batch: string, total: number): Promise<void> {
  await waitFor(async () => (await countPersons(shared.server, batch)) < total, {
    what: `the gc to start removing ${batch}`,
    intervalMs: 5,
  });
}

/** Stops a controller-manager the way a crash would leave things: its lease stays held (it was started with `releaseOnStop: false`). */
const kill = (cm: RunningControllerManager) => cm.stop();

describe('the gc controller at scale', () => {
  it(
    'collects 10k objects marked at once',
    async () => {
      const names = await seedPersons(shared.server, 'big', 10_000);
      await startTestControllerManager(shared.server.url, { leaderElection: { leaseName: 'gc-big' } });
      await markPersons(shared.server, names);
      await waitFor(async () => (await countPersons(shared.server, 'big')) === 0, {
        what: 'every marked object to be removed',
        timeoutMs: ALL_COLLECTED_MS,
        intervalMs: 250,
      });
    },
    ALL_COLLECTED_MS + 60_000,
  );

  it(
    'collects the rest after the controller-manager is killed mid-way and started again',
    async () => {
      const leaseName = 'gc-restart';
      const names = await seedPersons(shared.server, 'restart', 4000);
      const first = await startTestControllerManager(shared.server.url, {
        leaderElection: { leaseName, releaseOnStop: false },
      });
      await waitFor(() => first.manager.isLeader(), { what: 'the first controller-manager to lead' });
      await markPersons(shared.server, names);
      await waitUntilPartlyCollected('restart', names.length);
      await kill(first);
      const left = await countPersons(shared.server, 'restart');
      expect(left).toBeGreaterThan(0);
      expect(await leaseHolder(leaseName)).toBe(first.identity);

      const second = await startTestControllerManager(shared.server.url, { leaderElection: { leaseName } });
      await waitFor(async () => (await countPersons(shared.server, 'restart')) === 0, {
        what: 'the restarted controller-manager to remove the rest',
        timeoutMs: ALL_COLLECTED_MS,
        intervalMs: 250,
      });
      expect(await leaseHolder(leaseName)).toBe(second.identity);
    },
    ALL_COLLECTED_MS + 60_000,
  );

  it(
    'lets exactly one of two controller-managers lead; when it dies, the other takes over and finishes',
    async () => {
      const leaseName = 'gc-pair';
      const names = await seedPersons(shared.server, 'pair', 4000);
      const pair = await Promise.all(
        [1, 2].map(() =>
          startTestControllerManager(shared.server.url, { leaderElection: { leaseName, releaseOnStop: false } }),
        ),
      );
      const leader = await waitFor(() => pair.find((cm) => cm.manager.isLeader()), {
        what: 'one controller-manager to lead',
      });
      const standby = pair.find((cm) => cm !== leader)!;
      expect(await leaseHolder(leaseName)).toBe(leader.identity);
      await waitFor(() => standby.manager.leaderIdentity() === leader.identity, {
        what: 'the standby to see the leader',
      });
      expect(standby.manager.isLeader()).toBe(false);
      expect(standby.manager.has('gc/persons.example.com')).toBe(false);

      await markPersons(shared.server, names);
      await waitUntilPartlyCollected('pair', names.length);
      await kill(leader);
      expect(await countPersons(shared.server, 'pair')).toBeGreaterThan(0);
      await waitFor(() => standby.manager.isLeader(), {
        what: 'the standby to take over',
        timeoutMs: TEST_LEASE.leaseDurationMs * 4,
      });
      expect(await leaseHolder(leaseName)).toBe(standby.identity);
      await waitFor(async () => (await countPersons(shared.server, 'pair')) === 0, {
        what: 'the new leader to remove the rest',
        timeoutMs: ALL_COLLECTED_MS,
        intervalMs: 250,
      });
    },
    ALL_COLLECTED_MS + 60_000,
  );
});
