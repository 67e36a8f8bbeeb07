import pino from 'pino';
import { Registry } from 'prom-client';
import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { applyPersonModel, person } from '../../test/support/person';
import { sharedRedisUrl, uniqueKeyPrefix } from '../../test/support/redis';
import { waitFor } from '../../test/support/wait-for';
import type { RunningApiServer } from '../server/app';
import { ApiClient } from '../client/api-client';
import { isConflict } from '../client/errors';
import type { ResourceRef } from '../client/resource';
import { controller } from './builder';
import type { Controller } from './controller';
import { LeaderElector } from './leader-election';
import { LEASES, type Lease } from './lease-model';
import { LeadershipLostError, Manager } from './manager';
import { reconcilerFn } from './reconciler';

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons' };
const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });
const TIMING = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };

/** Two apiservers on one store, so that one candidate can lose its server while the other keeps its own. */
let store: string;
let server: RunningApiServer;
const extraServers: RunningApiServer[] = [];
const managers: Manager[] = [];

const startServer = (): Promise<RunningApiServer> => startTestApiServer({ store });

beforeAll(async () => {
  store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('lease')}`;
  server = await startServer();
  await applyPersonModel(rawClient(server.url));
  await new ApiClient({ server: server.url }).create(PERSONS, person('le-a', {}, { suite: 'le' }));
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop().catch(() => undefined)));
  await Promise.all(extraServers.splice(0).map((s) => s.stop()));
});
afterAll(() => server.stop());

/** A candidate: a manager with one controller that records what it reconciles. */
function candidate(identity: string, leaseName: string, url = server.url, metrics = new Registry()) {
  const client = new ApiClient({ server: url, requestTimeoutMs: 2000 });
  const manager = new Manager({ client, log, metrics, leaderElection: { leaseName, identity, ...TIMING } });
  managers.push(manager);
  const reconciled: string[] = [];
  const ctrl: Controller = controller('persons', manager)
    .for(PERSONS, { labelSelector: 'suite=le' })
    .complete(
      reconcilerFn(async ({ name }) => {
        reconciled.push(name);
      }),
    );
  return { identity, manager, reconciled, ctrl, metrics };
}

const readLease = (name: string) => new ApiClient({ server: server.url }).get<Lease>(LEASES, name);

describe('leader election through a Lease, against a real apiserver', () => {
  it('lets one candidate lead and run the controllers; when it stops, the other takes over', async () => {
    const one = candidate('one', 'le-handover');
    const two = candidate('two', 'le-handover');
    await one.manager.start();
    await waitFor(() => one.manager.isLeader(), { what: 'the first candidate to lead' });
    await two.manager.start();
    await waitFor(() => one.reconciled.includes('le-a'), { what: 'the leader to reconcile' });
    expect((await readLease('le-handover')).spec?.holderIdentity).toBe('one');
    expect(two.manager.isLeader()).toBe(false);
    expect(two.reconciled).toEqual([]);
    expect(await one.metrics.metrics()).toContain('svc_controller_leader{lease="le-handover"} 1');
    expect(await two.metrics.metrics()).toContain('svc_controller_leader{lease="le-handover"} 0');

    await one.manager.stop();
    await waitFor(() => two.manager.isLeader(), {
      what: 'the standby to take over',
      timeoutMs: TIMING.leaseDurationMs,
    });
    await waitFor(() => two.reconciled.includes('le-a'), { what: 'the new leader to reconcile' });
    const lease = await readLease('le-handover');
    expect(lease.spec).toMatchObject({ holderIdentity: 'two', leaseTransitions: 1 });
  });

  it('lets exactly one of several candidates racing for a new lease lead', async () => {
    const candidates = ['a', 'b', 'c'].map((id) => candidate(id, 'le-race'));
    await Promise.all(candidates.map((c) => c.manager.start()));
    const leader = await waitFor(() => candidates.find((c) => c.manager.isLeader()), { what: 'a leader' });
    await waitFor(() => candidates.every((c) => c.manager.leaderIdentity() === leader.identity), {
      what: 'every candidate to have seen the same holder',
    });
    expect(candidates.filter((c) => c.manager.isLeader())).toEqual([leader]);
    await waitFor(() => leader.reconciled.includes('le-a'), { what: 'the leader to reconcile' });
    expect(candidates.filter((c) => c !== leader).flatMap((c) => c.reconciled)).toEqual([]);
  });

  it('replaces a leader that dies without giving the lease up, once the lease expired', async () => {
    const doomedServer = await startServer();
    extraServers.push(doomedServer);
    const one = candidate('one', 'le-death', doomedServer.url);
    const two = candidate('two', 'le-death');
    await one.manager.start();
    await waitFor(() => one.manager.isLeader(), { what: 'the first candidate to lead' });
    await two.manager.start();

    await doomedServer.stop(); // the leader can no longer renew
    await waitFor(() => !one.manager.isLeader(), {
      what: 'the leader to give up at its renew deadline',
      timeoutMs: TIMING.leaseDurationMs * 2,
    });
    await expect(one.manager.done).rejects.toBeInstanceOf(LeadershipLostError);
    expect(one.ctrl.queue.shuttingDown).toBe(true);
    await waitFor(() => two.manager.isLeader(), {
      what: 'the standby to take over',
      timeoutMs: TIMING.leaseDurationMs * 3,
    });
    await waitFor(() => two.reconciled.includes('le-a'), { what: 'the new leader to reconcile' });
  });

  it('stops a leader at once when it sees another holder, and ends its manager with LeadershipLostError', async () => {
    const one = candidate('one', 'le-stolen');
    await one.manager.start();
    await waitFor(() => one.manager.isLeader() && one.reconciled.length > 0, { what: 'the candidate to lead' });
    const client = new ApiClient({ server: server.url });
    await waitFor(
      async () => {
        const lease = await readLease('le-stolen');
        const spec = {
          ...lease.spec,
          holderIdentity: 'thief',
          renewTime: new Date().toISOString(),
          leaseDurationSeconds: 60,
        };
        try {
          await client.update(LEASES, { ...lease, spec });
          return true;
        } catch (err) {
          if (isConflict(err)) return false; // the leader renewed meanwhile
          throw err;
        }
      },
      { what: 'the lease to be taken by someone else' },
    );
    await expect(one.manager.done).rejects.toBeInstanceOf(LeadershipLostError);
    expect(one.manager.isLeader()).toBe(false);
    expect(one.ctrl.queue.shuttingDown).toBe(true);
    expect((await readLease('le-stolen')).spec?.holderIdentity).toBe('thief');
  });

  it('refuses timings where the renew deadline is not shorter than the lease duration', () => {
    const client = new ApiClient({ server: server.url });
    const make = () =>
      new LeaderElector(
        {
          client,
          log,
          leaseName: 'x',
          identity: 'i',
          leaseDurationMs: 1000,
          renewDeadlineMs: 1000,
          retryPeriodMs: 100,
        },
        { onStartedLeading: () => undefined, onStoppedLeading: () => undefined },
      );
    expect(make).toThrow('leaseDuration > renewDeadline > retryPeriod');
  });
});
