import type { ApiObject } from '../../api/object';
import { isStorageError } from '../errors';
import type { WatchEvent } from '../watch';
import { ChangeLog } from './change-log';
import type { WatcherQueue } from '../watcher-queue';

const event = (revision: number): WatchEvent => ({
  type: 'ADDED',
  object: {
    apiVersion: 'v1',
    kind: 'Thing',
    metadata: { name: `o${revision}`, resourceVersion: String(revision) },
  } as ApiObject,
});

/** A log with revisions 1..count appended. */
function logWith(count: number, retention: number, watchBuffer = 100): ChangeLog {
  const log = new ChangeLog('things', { retention, watchBuffer });
  for (let r = 1; r <= count; r++) log.append(r, event(r));
  return log;
}

async function revisions(watcher: WatcherQueue<WatchEvent>, count: number): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const r = await watcher.next();
    if (r.done) break;
    out.push(r.value.object.metadata.resourceVersion ?? '');
  }
  return out;
}

async function firstError(watcher: WatcherQueue<WatchEvent>): Promise<unknown> {
  try {
    await watcher.next();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('ChangeLog', () => {
  it('replays the retained events after a revision, then continues with live ones, none twice', async () => {
    const log = logWith(5, 10);
    const watcher = log.watch('2', 5);
    log.append(6, event(6));
    expect(await revisions(watcher, 4)).toEqual(['3', '4', '5', '6']);
  });

  it('without a revision sees only what is appended after the call', async () => {
    const log = logWith(3, 10);
    const watcher = log.watch(undefined, 3);
    log.append(4, event(4));
    expect(await revisions(watcher, 1)).toEqual(['4']);
  });

  it('resumes from one before the oldest retained event, and expires one older', async () => {
    const log = logWith(10, 4); // retains 7..10
    expect(await revisions(log.watch('6', 10), 4)).toEqual(['7', '8', '9', '10']);
    const err = await firstError(log.watch('5', 10));
    expect(isStorageError(err, 'Expired')).toBe(true);
  });

  it('with nothing retained, accepts only the current revision', async () => {
    const log = logWith(3, 0);
    const current = log.watch('3', 3);
    log.append(4, event(4));
    expect(await revisions(current, 1)).toEqual(['4']);
    expect(isStorageError(await firstError(log.watch('2', 4)), 'Expired')).toBe(true);
  });

  it('rejects a revision that is not a decimal integer as Invalid', async () => {
    const log = logWith(1, 10);
    for (const bad of ['abc', '-1', '1.5', '', '01']) {
      expect([bad, isStorageError(await firstError(log.watch(bad, 1)), 'Invalid')]).toEqual([bad, true]);
    }
  });

  it('ends a watcher that falls more than its buffer behind with Expired and forgets it', async () => {
    const log = logWith(0, 100, 2);
    const slow = log.watch(undefined, 0);
    const fast = log.watch(undefined, 0);
    for (let r = 1; r <= 3; r++) {
      log.append(r, event(r));
      await fast.next();
    }
    expect(log.watcherCount).toBe(1);
    expect(isStorageError(await firstError(slow), 'Expired')).toBe(true);
    log.append(4, event(4));
    expect(await revisions(fast, 1)).toEqual(['4']);
  });

  it('shares one event object among all watchers', async () => {
    const log = logWith(0, 10);
    const a = log.watch(undefined, 0);
    const b = log.watch(undefined, 0);
    log.append(1, event(1));
    const [ea, eb] = await Promise.all([a.next(), b.next()]);
    expect(ea.value).toBe(eb.value);
  });

  it('stopAll ends every watcher', async () => {
    const log = logWith(0, 10);
    const watchers = [log.watch(undefined, 0), log.watch(undefined, 0)];
    const pending = watchers.map((w) => w.next());
    log.stopAll();
    expect(await Promise.all(pending)).toEqual([
      { value: undefined, done: true },
      { value: undefined, done: true },
    ]);
    expect(log.watcherCount).toBe(0);
  });
});
