import pino from 'pino';
import type { ApiObject } from '../api/object';
import { Backoff } from '../util/backoff';
import { waitFor } from '../util/wait-for';
import type { StoreChange } from './object-store';
import { Reflector, type ReflectorSource, type SourceEvent } from './reflector';

const log = pino({ level: 'silent' });

const thing = (name: string, resourceVersion: string): ApiObject => ({
  apiVersion: 'test.example/v1',
  kind: 'Thing',
  metadata: { name, resourceVersion },
});

class Expired extends Error {}

/** A source in memory: lists answer `items`, and a test drives the open watch. */
class FakeSource implements ReflectorSource<ApiObject> {
  lists = 0;
  watches: string[] = [];
  failLists = 0;
  /** Every watch fails at once with this, while set. */
  watchFailure: Error | undefined;
  private open:
    { emit: (event: SourceEvent<ApiObject>) => void; end: () => void; fail: (err: Error) => void } | undefined;

  constructor(
    public items: ApiObject[],
    public revision: string,
  ) {}

  async list() {
    this.lists++;
    if (this.failLists > 0) {
      this.failLists--;
      throw new Error('injected: list failed');
    }
    return { items: this.items, revision: this.revision };
  }

  watch(revision: string, onEvent: (event: SourceEvent<ApiObject>) => void, signal: AbortSignal): Promise<void> {
    this.watches.push(revision);
    if (this.watchFailure) return Promise.reject(this.watchFailure);
    return new Promise((resolve, reject) => {
      const end = () => {
        this.open = undefined;
        resolve();
      };
      const fail = (err: Error) => {
        this.open = undefined;
        reject(err);
      };
      this.open = { emit: onEvent, end, fail };
      signal.addEventListener('abort', end, { once: true });
    });
  }

  isExpired = (err: unknown) => err instanceof Expired;

  get watching() {
    return this.open !== undefined;
  }

  emit(type: SourceEvent<ApiObject>['type'], object: ApiObject) {
    this.open!.emit({ type, object });
  }

  /** The open watch's event callback, kept past its end. */
  get emitter() {
    return this.open!.emit;
  }

  end() {
    this.open!.end();
  }

  fail(err: Error) {
    this.open!.fail(err);
  }
}

const reflectors: Reflector<ApiObject>[] = [];
afterEach(async () => {
  await Promise.all(reflectors.splice(0).map((r) => r.stop()));
  jest.useRealTimers();
});

function start(source: FakeSource, backoff = new Backoff(5, 20)) {
  const reflector = new Reflector(source, { log, backoff });
  reflectors.push(reflector);
  const changes: string[] = [];
  reflector.subscribe((c: StoreChange<ApiObject>) => changes.push(`${c.type} ${c.name}`));
  reflector.start();
  return { reflector, changes };
}

describe('Reflector', () => {
  it('retries a failing list with backoff and syncs once it answers', async () => {
    const source = new FakeSource([thing('a', '3')], '3');
    source.failLists = 2;
    const { reflector, changes } = start(source);
    expect(await reflector.waitForSync()).toBe(true);
    expect(source.lists).toBe(3);
    expect(changes).toEqual(['added a']);
    expect(reflector.revision).toBe('3');
    await waitFor(() => source.watching, { what: 'the watch' });
    expect(source.watches).toEqual(['3']);
  });

  it('applies watch events in order and moves its revision with each, bookmarks included', async () => {
    const source = new FakeSource([thing('a', '3')], '3');
    const { reflector, changes } = start(source);
    await waitFor(() => source.watching, { what: 'the watch' });
    source.emit('MODIFIED', thing('a', '4'));
    source.emit('ADDED', thing('b', '5'));
    source.emit('DELETED', thing('a', '6'));
    source.emit('BOOKMARK', { apiVersion: 'v1', kind: 'Thing', metadata: { resourceVersion: '9' } });
    expect(changes).toEqual(['added a', 'updated a', 'added b', 'deleted a']);
    expect(reflector.revision).toBe('9');
    expect([...reflector.store.values()].map((o) => o.metadata.name)).toEqual(['b']);
  });

  it('resumes a watch the source ended from the last revision, without listing again', async () => {
    const source = new FakeSource([], '3');
    start(source);
    await waitFor(() => source.watching, { what: 'the watch' });
    source.emit('ADDED', thing('a', '4'));
    source.end();
    await waitFor(() => source.watches.length === 2, { what: 'a second watch' });
    expect(source.watches).toEqual(['3', '4']);
    expect(source.lists).toBe(1);
  });

  it('relists when the watch expires and reports what changed meanwhile', async () => {
    const source = new FakeSource([thing('keep', '1'), thing('change', '2'), thing('remove', '3')], '3');
    const { reflector, changes } = start(source);
    await waitFor(() => source.watching, { what: 'the watch' });
    changes.length = 0;
    source.items = [thing('keep', '1'), thing('change', '7'), thing('new', '8')];
    source.revision = '9';
    source.fail(new Expired('410'));
    await waitFor(() => source.lists === 2 && source.watching, { what: 'a relist and a new watch' });
    expect(changes.sort()).toEqual(['added new', 'deleted remove', 'updated change']);
    expect(reflector.revision).toBe('9');
    expect(source.watches).toEqual(['3', '9']);
  });

  it('after an error, waits its backoff before the next try rather than looping', async () => {
    jest.useFakeTimers();
    const source = new FakeSource([], '3');
    source.watchFailure = new Error('injected: connection refused');
    start(source, new Backoff(100, 100, 2, 0));
    await jest.advanceTimersByTimeAsync(1000);
    // One try at once, then one per 100 ms: a tight loop would have made thousands.
    expect(source.watches.length).toBeGreaterThanOrEqual(9);
    expect(source.watches.length).toBeLessThanOrEqual(12);
    // It resumes from where it was; only an expiry lists again.
    expect(source.lists).toBe(1);
  });

  it('backs off after a watch that ended at once with nothing, too', async () => {
    jest.useFakeTimers();
    const source = new FakeSource([], '3');
    start(source, new Backoff(100, 100, 2, 0));
    for (let i = 0; i < 50; i++) {
      await jest.advanceTimersByTimeAsync(20);
      if (source.watching) source.end();
    }
    expect(source.watches.length).toBeLessThanOrEqual(12);
  });

  it('ignores events that arrive after stop', async () => {
    const source = new FakeSource([thing('a', '3')], '3');
    const { reflector, changes } = start(source);
    await waitFor(() => source.watching, { what: 'the watch' });
    const emit = source.emitter;
    await reflector.stop();
    emit({ type: 'MODIFIED', object: thing('a', '4') });
    emit({ type: 'ADDED', object: thing('late', '5') });
    expect(changes).toEqual(['added a']);
    expect(reflector.store.get('a')?.metadata.resourceVersion).toBe('3');
    expect(reflector.store.get('late')).toBeUndefined();
    expect(reflector.isRunning()).toBe(false);
  });

  it('waitForRevision resolves once the revision is applied, and false after its deadline or a stop', async () => {
    const source = new FakeSource([], '3');
    const { reflector } = start(source);
    await waitFor(() => source.watching, { what: 'the watch' });
    await expect(reflector.waitForRevision('3', 1000)).resolves.toBe(true);
    await expect(reflector.waitForRevision(undefined, 1000)).resolves.toBe(true);
    const later = reflector.waitForRevision('5', 5000);
    source.emit('ADDED', thing('a', '5'));
    await expect(later).resolves.toBe(true);
    await expect(reflector.waitForRevision('99', 30)).resolves.toBe(false);
    const pending = reflector.waitForRevision('100', 60_000);
    await reflector.stop();
    await expect(pending).resolves.toBe(false);
  });

  it('answers waitForSync with false when stopped before it synced', async () => {
    const source = new FakeSource([], '3');
    source.failLists = 1000;
    const { reflector } = start(source);
    const waiting = reflector.waitForSync();
    await reflector.stop();
    await expect(waiting).resolves.toBe(false);
  });

  it('listNow throws what the list throws; start then only watches', async () => {
    const source = new FakeSource([thing('a', '3')], '3');
    source.failLists = 1;
    const reflector = new Reflector(source, { log });
    reflectors.push(reflector);
    await expect(reflector.listNow()).rejects.toThrow('injected: list failed');
    await reflector.listNow();
    reflector.start();
    await waitFor(() => source.watching, { what: 'the watch' });
    expect(source.lists).toBe(2);
  });

  it('resyncs on its period: every held object as an update with previous === object', async () => {
    jest.useFakeTimers();
    const source = new FakeSource([thing('a', '1'), thing('b', '2')], '2');
    const reflector = new Reflector(source, { log, resyncPeriodMs: 1000 });
    reflectors.push(reflector);
    const updates: StoreChange<ApiObject>[] = [];
    reflector.subscribe((c) => c.type === 'updated' && updates.push(c));
    reflector.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(reflector.hasSynced()).toBe(true);
    await jest.advanceTimersByTimeAsync(1000);
    expect(updates.map((c) => c.name)).toEqual(['a', 'b']);
    expect(updates.every((c) => c.type === 'updated' && c.previous === c.object)).toBe(true);
  });

  it('keeps telling the other subscribers when one throws', async () => {
    const source = new FakeSource([], '3');
    const { reflector, changes } = start(source);
    reflector.subscribe(() => {
      throw new Error('subscriber bug');
    });
    await waitFor(() => source.watching, { what: 'the watch' });
    source.emit('ADDED', thing('a', '4'));
    source.emit('ADDED', thing('b', '5'));
    expect(changes).toEqual(['added a', 'added b']);
  });
});
