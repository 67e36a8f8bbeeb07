import pino from 'pino';
import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { captureLog, LEVEL } from '../../test/support/log-capture';
import { applyPersonModel, person } from '../../test/support/person';
import { waitFor } from '../../test/support/wait-for';
import type { RunningApiServer } from '../server/app';
import type { ApiObject } from '../api/object';
import { ApiClient } from '../client/api-client';
import { NetworkError } from '../client/errors';
import type { ResourceRef } from '../client/resource';
import type { WatchStream } from '../client/watch-stream';
import { Backoff } from '../util/backoff';
import { onEvent, type ObjectEvent } from './event-handler';
import { Informer } from './informer';
import { listerWatcherFor, type ListerWatcher, type WatchSettings } from './lister-watcher';

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons' };
const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });

let server: RunningApiServer;
let client: ApiClient;
const informers: Informer[] = [];

beforeAll(async () => {
  server = await startTestApiServer({ watchRetention: 20 });
  await applyPersonModel(rawClient(server.url));
  client = new ApiClient({ server: server.url });
});
afterEach(async () => {
  await Promise.all(informers.splice(0).map((i) => i.stop()));
});
afterAll(() => server.stop());

/** A ListerWatcher over the API that counts calls and lets a test hold back or break watches. */
class ProbedSource implements ListerWatcher {
  lists = 0;
  watches = 0;
  failNextLists = 0;
  /** Added to the revision of every watch while set: the informer then holds a revision the server never reached. */
  watchSkew = 0;
  current: WatchStream | undefined;
  private gate: Promise<void> = Promise.resolve();
  private openGate: () => void = () => undefined;
  private readonly inner: ListerWatcher;

  constructor(suite: string, settings: WatchSettings = {}) {
    this.inner = listerWatcherFor(client, PERSONS, { labelSelector: `suite=${suite}` }, settings);
  }

  async list(signal: AbortSignal) {
    this.lists++;
    if (this.failNextLists > 0) {
      this.failNextLists--;
      throw new NetworkError('injected: connection refused');
    }
    return this.inner.list(signal);
  }

  async watch(resourceVersion: string, signal: AbortSignal) {
    this.watches++;
    await Promise.race([
      this.gate,
      new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
    ]);
    const from = this.watchSkew ? String(Number(resourceVersion) + this.watchSkew) : resourceVersion;
    this.current = await this.inner.watch(from, signal);
    return this.current;
  }

  /** Later watches wait until `release()`. */
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  release(): void {
    this.openGate();
  }
}

function startInformer(source: ListerWatcher): { informer: Informer; events: string[] } {
  const informer = new Informer(source, { name: 'persons', log, backoff: new Backoff(10, 100) });
  informers.push(informer);
  const events: string[] = [];
  informer.addEventHandler(onEvent((e: ObjectEvent) => events.push(`${e.type} ${e.object.metadata.name}`)));
  informer.start();
  return { informer, events };
}

const create = (name: string, suite: string) => client.create<ApiObject>(PERSONS, person(name, {}, { suite }));

describe('Informer against a real apiserver', () => {
  it('syncs every existing object once, as an add, into a frozen cache', async () => {
    await create('i-sync-a', 'i-sync');
    await create('i-sync-b', 'i-sync');
    const { informer, events } = startInformer(new ProbedSource('i-sync'));
    expect(await informer.waitForSync()).toBe(true);
    expect(informer.hasSynced()).toBe(true);
    expect(events.sort()).toEqual(['add i-sync-a', 'add i-sync-b']);
    const cached = informer.cache.get('i-sync-a')!;
    expect(cached.metadata.name).toBe('i-sync-a');
    expect(Object.isFrozen(cached.metadata)).toBe(true);
    expect(() => {
      (cached.metadata as { name?: string }).name = 'changed';
    }).toThrow(TypeError);
    expect(informer.cache.list().map((p) => p.metadata.name)).toEqual(['i-sync-a', 'i-sync-b']);
  });

  it('turns later changes into add, update and delete events and keeps the cache current', async () => {
    const { informer, events } = startInformer(new ProbedSource('i-live'));
    await informer.waitForSync();
    await create('i-live-a', 'i-live');
    await client.patch(PERSONS, 'i-live-a', { spec: { age: 50 } });
    await client.delete(PERSONS, 'i-live-a');
    await client.delete(PERSONS, 'i-live-a');
    await waitFor(() => events.length === 4, { what: 'four events' });
    expect(events).toEqual(['add i-live-a', 'update i-live-a', 'update i-live-a', 'delete i-live-a']);
    expect(informer.cache.get('i-live-a')).toBeUndefined();
  });

  it('resumes from its last resourceVersion when the server ends the watch, without listing again', async () => {
    const source = new ProbedSource('i-resume', { timeoutSeconds: 1 });
    const { informer, events } = startInformer(source);
    await informer.waitForSync();
    await waitFor(() => source.watches >= 2, { what: 'a second watch after the server ended the first' });
    await create('i-resume-a', 'i-resume');
    await waitFor(() => events.includes('add i-resume-a'), { what: 'the add after resuming' });
    expect(source.lists).toBe(1);
    expect(events).toEqual(['add i-resume-a']);
  });

  it('renews a watch the server ends without a word above debug', async () => {
    const captured = captureLog('debug');
    const source = new ProbedSource('i-quiet', { timeoutSeconds: 1 });
    const informer = new Informer(source, { name: 'persons', log: captured.log, backoff: new Backoff(10, 100) });
    informers.push(informer);
    informer.start();
    await waitFor(() => source.watches >= 3, { what: 'two renewals of the watch' });
    expect(captured.lines.filter((line) => line.level >= LEVEL.info)).toEqual([]);
  });

  it('relists after 410 Expired and reports what changed while it was away', async () => {
    await create('i-gone-keep', 'i-gone');
    await create('i-gone-change', 'i-gone');
    await create('i-gone-remove', 'i-gone');
    const source = new ProbedSource('i-gone');
    const { informer, events } = startInformer(source);
    await informer.waitForSync();
    events.length = 0;
    const first = await waitFor(() => source.current, { what: 'the first watch' });
    source.hold();
    first.stop(); // the connection drops; the next watch waits at the gate
    await waitFor(() => source.watches === 2, { what: 'the informer to try to resume' });
    await client.patch(PERSONS, 'i-gone-change', { spec: { age: 77 } });
    await client.delete(PERSONS, 'i-gone-remove');
    await client.delete(PERSONS, 'i-gone-remove');
    await create('i-gone-new', 'i-gone');
    await create('i-gone-churn', 'other');
    for (let i = 0; i < 30; i++) await client.patch(PERSONS, 'i-gone-churn', { spec: { age: i } });
    source.release();
    await waitFor(() => source.lists === 2 && events.length === 3, { what: 'a relist and its three events' });
    expect(events.sort()).toEqual(['add i-gone-new', 'delete i-gone-remove', 'update i-gone-change']);
    expect(informer.cache.list().map((p) => p.metadata.name)).toEqual(['i-gone-change', 'i-gone-keep', 'i-gone-new']);
    expect((informer.cache.get('i-gone-change')!.spec as { age: number }).age).toBe(77);
  });

  it('relists when the server has not reached its revision (the server was reset), instead of waiting for it', async () => {
    await create('i-reset-a', 'i-reset');
    const source = new ProbedSource('i-reset');
    source.watchSkew = 1_000_000;
    const { informer, events } = startInformer(source);
    await informer.waitForSync();
    await waitFor(() => source.lists >= 2, { what: 'a relist after "Too large resource version"' });
    source.watchSkew = 0;
    await create('i-reset-b', 'i-reset');
    await waitFor(() => events.includes('add i-reset-b'), { what: 'the informer to follow the server again' });
  });

  it('keeps retrying with backoff after errors, and syncs once the server answers', async () => {
    await create('i-retry-a', 'i-retry');
    const source = new ProbedSource('i-retry');
    source.failNextLists = 3;
    const { informer, events } = startInformer(source);
    expect(await informer.waitForSync()).toBe(true);
    expect(source.lists).toBe(4);
    expect(events).toEqual(['add i-retry-a']);
  });

  it('replays the cache as adds to a handler added after sync', async () => {
    await create('i-late-a', 'i-late');
    const { informer } = startInformer(new ProbedSource('i-late'));
    await informer.waitForSync();
    const late: string[] = [];
    informer.addEventHandler({ onAdd: (o) => late.push(o.metadata.name!) });
    expect(late).toEqual(['i-late-a']);
  });

  it('keeps delivering to other handlers when one throws', async () => {
    const { informer, events } = startInformer(new ProbedSource('i-throw'));
    informer.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    await informer.waitForSync();
    await create('i-throw-a', 'i-throw');
    await create('i-throw-b', 'i-throw');
    await waitFor(() => events.length === 2, { what: 'both adds' });
  });

  it('answers waitForSync with false when stopped before it synced', async () => {
    const source = new ProbedSource('i-stop');
    source.failNextLists = 1000;
    const { informer } = startInformer(source);
    const waiting = informer.waitForSync();
    await informer.stop();
    expect(await waiting).toBe(false);
    expect(informer.isRunning()).toBe(false);
  });
});
