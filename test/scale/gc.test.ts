import { LEASES, type Lease } from '../../pkg/controller';
import type { RunningControllerManager } from '../../pkg/controllermanager';
import {
  countPersons,
  markPersons,
  seedPersons,
  startTestControllerManager,
  usePersonsApiServer,
} from '../support/controller-manager';
import { waitFor, waitForDrain } from '../support/wait-for';

// Many objects marked at once, and controller-managers that die mid-way:
// whatever happens, every marked object is collected in the end. A gc that
// stops removing fails after STALL_MS without progress; how fast it removes
// belongs to bench/controllers (here it shares one event loop with the
// apiserver and the test, on a machine running other suites).

const STALL_MS = 60_000;
/**
 * Lease timings for these tests. The apiserver, the controller-managers and
 * the marking all share this process's event loop, which thousands of writes
 * keep busy for seconds at a time: TEST_LEASE's 2 s renew deadline would make
 * a leader give up its lease mid-test (and an in-process controller-manager
 * has no supervisor to start it again), so the deadline here is 10 s.
 */
const SCALE_LEASE = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 500 };
/** Jest's bound on one test: far above a slow but progressing run, so that only a stall (STALL_MS) fails. */
const TEST_MS = 15 * 60_000;

const shared = usePersonsApiServer();

const leaseHolder = async (leaseName: string) =>
  (await shared.client.get<Lease>(LEASES, leaseName)).spec?.holderIdentity;

/** Waits until the gc has removed some of a batch, but (checked) not all of it. */
async function waitUntilPartlyCollected(batch: string, total: number): Promise<void> {
  await waitFor(async () => (await countPersons(shared.server, batch)) < total, {
    what: `the gc to start removing ${batch}`,
    intervalMs: 5,
    timeoutMs: STALL_MS,
  });
}

/** Stops a controller-manager the way a crash would leave things: its lease stays held (it was started with `releaseOnStop: false`). */
const kill = (cm: RunningControllerManager) => cm.stop();

describe('the gc controller at scale', () => {
  it(
    'collects 10k objects marked at once',
    async () => {
      const names = await seedPersons(shared.server, 'big', 10_000);
      // Leadership is the other tests' subject: this one runs without it, so that no lease can be lost.
      await startTestControllerManager(shared.server.url, { leaderElection: false });
      await markPersons(shared.server, names);
      await waitForDrain(() => countPersons(shared.server, 'big'), {
        what: 'every marked object to be removed',
        stallMs: STALL_MS,
      });
    },
    TEST_MS,
  );

  it(
    'collects the rest after the controller-manager is killed mid-way and started again',
    async () => {
      const leaseName = 'gc-restart';
      const names = await seedPersons(shared.server, 'restart', 4000);
      const first = await startTestControllerManager(shared.server.url, {
        leaderElection: { ...SCALE_LEASE, leaseName, releaseOnStop: false },
      });
      await waitFor(() => first.manager.isLeader(), {
        what: 'the first controller-manager to lead',
        timeoutMs: SCALE_LEASE.leaseDurationMs,
      });
      await markPersons(shared.server, names);
      await waitUntilPartlyCollected('restart', names.length);
      await kill(first);
      const left = await countPersons(shared.server, 'restart');
      expect(left).toBeGreaterThan(0);
      expect(await leaseHolder(leaseName)).toBe(first.identity);

      const second = await startTestControllerManager(shared.server.url, {
        leaderElection: { ...SCALE_LEASE, leaseName },
      });
      await waitForDrain(() => countPersons(shared.server, 'restart'), {
        what: 'the restarted controller-manager to remove the rest',
        stallMs: STALL_MS,
      });
      expect(await leaseHolder(leaseName)).toBe(second.identity);
    },
    TEST_MS,
  );

  it(
    'lets exactly one of two controller-managers lead; when it dies, the other takes over and finishes',
    async () => {
      const leaseName = 'gc-pair';
      const names = await seedPersons(shared.server, 'pair', 4000);
      const pair = await Promise.all(
        [1, 2].map(() =>
          startTestControllerManager(shared.server.url, {
            leaderElection: { ...SCALE_LEASE, leaseName, releaseOnStop: false },
          }),
        ),
      );
      const leader = await waitFor(() => pair.find((cm) => cm.manager.isLeader()), {
        what: 'one controller-manager to lead',
        timeoutMs: SCALE_LEASE.leaseDurationMs,
      });
      const standby = pair.find((cm) => cm !== leader)!;
      expect(await leaseHolder(leaseName)).toBe(leader.identity);
      await waitFor(() => standby.manager.leaderIdentity() === leader.identity, {
        what: 'the standby to see the leader',
        timeoutMs: SCALE_LEASE.leaseDurationMs,
      });
      expect(standby.manager.isLeader()).toBe(false);
      expect(standby.manager.has('gc/persons.example.com')).toBe(false);

      await markPersons(shared.server, names);
      await waitUntilPartlyCollected('pair', names.length);
      await kill(leader);
      expect(await countPersons(shared.server, 'pair')).toBeGreaterThan(0);
      await waitFor(() => standby.manager.isLeader(), {
        what: 'the standby to take over',
        timeoutMs: SCALE_LEASE.leaseDurationMs * 4,
      });
      expect(await leaseHolder(leaseName)).toBe(standby.identity);
      await waitForDrain(() => countPersons(shared.server, 'pair'), {
        what: 'the new leader to remove the rest',
        stallMs: STALL_MS,
      });
    },
    TEST_MS,
  );
});
