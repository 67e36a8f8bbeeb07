import type { ApiObject } from '../../pkg/api/object';
import { retryOnConflict } from '../../pkg/client/retry';
import { controller, LeadershipLostError, LEASES, reconcilerFn, type Lease } from '../../pkg/controller';
import { builtinControllers, type ControllerRegistration } from '../../pkg/controllermanager';
import { startTestControllerManager, usePersonsApiServer } from '../support/controller-manager';
import { person, PERSON_RES } from '../support/person';
import { waitFor } from '../support/wait-for';

// The controller-manager's wiring, in this process: controllers plugged in
// by name, graceful stop, and the end of a lost lease.

const shared = usePersonsApiServer();

/** A controller of Persons labelled `suite=<suite>` that hands each reconcile to `onReconcile`. */
function personWatcher(
  name: string,
  suite: string,
  onReconcile: (person: string) => Promise<void>,
  enabledByDefault?: boolean,
): ControllerRegistration {
  return {
    name,
    description: `watches the ${suite} Persons`,
    enabledByDefault,
    setup: ({ manager }) => {
      controller(name, manager)
        .for(PERSON_RES, { labelSelector: `suite=${suite}` })
        .complete(reconcilerFn(({ name: key }) => onReconcile(key)));
    },
  };
}

/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('startControllerManager', () => {
  it('runs the controllers a registry plugs in, by name; one off by default runs only when named', async () => {
    const seen = { always: [] as string[], optional: [] as string[] };
    const registry = () =>
      builtinControllers()
        .register(
          personWatcher('always', 'plug', async (p) => {
            seen.always.push(p);
          }),
        )
        .register(
          personWatcher(
            'optional',
            'plug',
            async (p) => {
              seen.optional.push(p);
            },
            false,
          ),
        );
    await shared.client.create(PERSON_RES, person('plugged', {}, { suite: 'plug' }) as ApiObject);

    const everything = await startTestControllerManager(shared.server.url, {
      registry: registry(),
      leaderElection: false,
    });
    expect(everything.controllers).toEqual(['gc', 'rbac-aggregation', 'plugins', 'user-cleanup', 'always']);
    await waitFor(() => seen.always.includes('plugged'), { what: 'the plugged-in controller to reconcile' });
    await everything.stop();
    expect(seen.optional).toEqual([]);

    const named = await startTestControllerManager(shared.server.url, {
      registry: registry(),
      controllers: ['optional'],
      leaderElection: false,
    });
    expect(named.controllers).toEqual(['optional']);
    await waitFor(() => seen.optional.includes('plugged'), { what: 'the named controller to reconcile' });
    expect(named.manager.has('gc')).toBe(false);
  });

  it('stops gracefully: an in-flight reconcile finishes before stop() resolves, then the lease is released', async () => {
    let began = false;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const finished: string[] = [];
    const slow = personWatcher('slow', 'drain', async (p) => {
      began = true;
      await gate;
      finished.push(p);
    });
    const cm = await startTestControllerManager(shared.server.url, {
      registry: builtinControllers().register(slow),
      controllers: ['slow'],
      leaderElection: { leaseName: 'cm-drain' },
    });
    await waitFor(() => cm.manager.isLeader(), { what: 'the controller-manager to lead' });
    expect((await shared.client.get<Lease>(LEASES, 'cm-drain')).spec?.holderIdentity).toBe(cm.identity);
    await shared.client.create(PERSON_RES, person('draining', {}, { suite: 'drain' }) as ApiObject);
    await waitFor(() => began, { what: 'the reconcile to begin' });

    const stopping = cm.stop();
    expect(await settled(stopping)).toBe(false);
    release();
    await stopping;
    expect(finished).toEqual(['draining']);
    expect((await shared.client.get<Lease>(LEASES, 'cm-drain')).spec?.holderIdentity).toBe('');
    await expect(cm.done).resolves.toBeUndefined();
  });

  it('ends with LeadershipLostError when another holder takes the lease, and closes its metrics endpoint', async () => {
    const cm = await startTestControllerManager(shared.server.url, {
      leaderElection: { leaseName: 'cm-lost' },
      metricsListen: '127.0.0.1:0',
    });
    await waitFor(() => cm.manager.isLeader(), { what: 'the controller-manager to lead' });
    expect(await (await fetch(`${cm.metricsUrl}/metrics`)).text()).toContain(
      'svc_controller_leader{lease="cm-lost"} 1',
    );
    // The holder renews the lease meanwhile: read it again on a conflict.
    await retryOnConflict(async () => {
      const lease = await shared.client.get<Lease>(LEASES, 'cm-lost');
      await shared.client.update<Lease>(LEASES, {
        ...lease,
        spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60 },
      });
    });
    await expect(cm.done).rejects.toBeInstanceOf(LeadershipLostError);
    expect(cm.manager.has('gc/persons.example.com')).toBe(false);
    await expect(fetch(`${cm.metricsUrl}/healthz`)).rejects.toThrow();
  });

  it('refuses, before anything starts, an unknown controller and leader-election timings that cannot work', async () => {
    await expect(startTestControllerManager(shared.server.url, { controllers: ['gc', 'nope'] })).rejects.toThrow(
      /unknown controller\(s\) "nope"/,
    );
    await expect(
      startTestControllerManager(shared.server.url, {
        leaderElection: { leaseDurationMs: 1000, renewDeadlineMs: 2000 },
      }),
    ).rejects.toThrow(/leaseDuration > renewDeadline > retryPeriod/);
  });
});
