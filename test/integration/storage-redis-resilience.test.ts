import Redis from 'ioredis';
import '../../pkg/storage/redis';
import type { ApiObject } from '../../pkg/api/object';
import { openStorage } from '../../pkg/storage/backends';
import { SET_MEMBERS_SCRIPT } from '../../pkg/storage/redis/bucketed-set-members';
import { isStorageError } from '../../pkg/storage/errors';
import type { Storage } from '../../pkg/storage/interface';
import type { ListResult } from '../../pkg/storage/query';
import { summarize, WatchReader } from '../../pkg/storage/testing/watch-reader';
import { freePort } from '../../pkg/util/free-port';
import { startRedis, sharedRedisUrl, uniqueKeyPrefix, type RedisInstance } from '../support/redis';
import { waitFor } from '../support/wait-for';
import { captureLog, LEVEL } from '../support/log-capture';

const TYPE = 'widgets.resilience.svc.run';

const widget = (name: string, labels: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'resilience.svc.run/v1',
  kind: 'Widget',
  metadata: { name, labels },
  spec: {},
});

/** What a call that should fail settles with: its StorageError code, or the fact that it succeeded. */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'succeeded';
  } catch (err) {
    return isStorageError(err) ? err.code : `threw ${String(err)}`;
  }
}

describe('Redis storage: a Redis restart', () => {
  let redis: RedisInstance;
  let storage: Storage;

  beforeEach(async () => {
    redis = await startRedis({ persistent: true });
    storage = await openStorage(redis.url, { keyPrefix: uniqueKeyPrefix('restart') });
    await storage.defineType(TYPE, []);
  });

  afterEach(async () => {
    await storage.close();
    await redis.destroy();
  });

  it('a watch gets every change once and in order across it; calls meanwhile fail with Unavailable', async () => {
    const live = new WatchReader(storage.watch(TYPE));
    await storage.create(TYPE, widget('a1'));
    await storage.create(TYPE, widget('a2'));
    expect(summarize(await live.take(2))).toEqual([
      ['ADDED', 'a1', '1'],
      ['ADDED', 'a2', '2'],
    ]);

    await redis.stop();
    // Fail fast rather than hang (a hang would trip the test's deadline).
    expect(
      await Promise.all([
        outcome(storage.get(TYPE, 'a1')),
        outcome(storage.create(TYPE, widget('lost'))),
        outcome(storage.list(TYPE)),
        outcome(storage.currentRevision(TYPE)),
      ]),
    ).toEqual(['Unavailable', 'Unavailable', 'Unavailable', 'Unavailable']);
    expect(await storage.ping()).toBe(false);

    await redis.start();
    await waitFor(() => storage.ping(), { what: 'the storage to reconnect' });
    await storage.create(TYPE, widget('a3'));
    await storage.update(TYPE, 'a1', (o) => ({ ...o, spec: { note: 'after the restart' } }));
    await storage.delete(TYPE, 'a2');
    expect(summarize(await live.take(3))).toEqual([
      ['ADDED', 'a3', '3'],
      ['MODIFIED', 'a1', '4'],
      ['DELETED', 'a2', '5'],
    ]);

    // Nothing is repeated: the next event is the marker's.
    const marker = await storage.create(TYPE, widget('marker'));
    expect(summarize(await live.take(1))).toEqual([['ADDED', 'marker', marker.metadata.resourceVersion]]);

    // The change stream survived too: a watch from revision 0 replays everything.
    const replay = new WatchReader(storage.watch(TYPE, { fromRevision: '0' }));
    expect(summarize(await replay.take(6)).map(([type, name]) => `${type} ${name}`)).toEqual([
      'ADDED a1',
      'ADDED a2',
      'ADDED a3',
      'MODIFIED a1',
      'DELETED a2',
      'ADDED marker',
    ]);
    live.stop();
    replay.stop();
  });

  it('a watch whose consumer reads during the outage resumes without loss once Redis is back', async () => {
    const live = new WatchReader(storage.watch(TYPE));
    await storage.create(TYPE, widget('b1'));
    expect(summarize(await live.take(1))).toEqual([['ADDED', 'b1', '1']]);
    const pending = live.take(2);
    await redis.restart();
    await waitFor(() => storage.ping(), { what: 'the storage to reconnect' });
    await storage.create(TYPE, widget('b2'));
    await storage.create(TYPE, widget('b3'));
    expect(summarize(await pending)).toEqual([
      ['ADDED', 'b2', '2'],
      ['ADDED', 'b3', '3'],
    ]);
    live.stop();
  });
});

describe('Redis storage: logs of a Redis restart', () => {
  it('logs the outage once, a warn when Redis is lost and an info when it is back, however often it retried', async () => {
    const redis = await startRedis({ persistent: true });
    const captured = captureLog('debug');
    const storage = await openStorage(redis.url, { keyPrefix: uniqueKeyPrefix('outage-log'), log: captured.log });
    try {
      await storage.defineType(TYPE, []);
      const live = new WatchReader(storage.watch(TYPE));
      await storage.create(TYPE, widget('c1'));
      await live.take(1);
      await redis.stop();
      expect(await outcome(storage.get(TYPE, 'c1'))).toBe('Unavailable');
      await waitFor(() => captured.lines.some((l) => l.level === LEVEL.warn), { what: 'the outage to be logged' });
      await redis.start();
      await waitFor(() => storage.ping(), { what: 'the storage to reconnect' });
      await storage.create(TYPE, widget('c2'));
      expect(summarize(await live.take(1))).toEqual([['ADDED', 'c2', '2']]);
      await waitFor(() => captured.lines.some((l) => l.msg === 'Redis back'), {
        what: 'the end of the outage to be logged',
      });
      const said = captured.lines.filter((l) => l.level >= LEVEL.info).map((l) => [l.level, l.msg]);
      expect(said).toEqual([
        [LEVEL.warn, 'Redis lost; retrying'],
        [LEVEL.info, 'Redis back'],
      ]);
      live.stop();
    } finally {
      await storage.close();
      await redis.destroy();
    }
    expect(captured.lines.filter((l) => l.level >= LEVEL.warn)).toHaveLength(1);
  });
});

describe('Redis storage: a Redis restart that loses the data', () => {
  it('ends live watches with Expired instead of missing changes silently', async () => {
    const redis = await startRedis({ persistent: false });
    const storage = await openStorage(redis.url, { keyPrefix: uniqueKeyPrefix('amnesia') });
    try {
      const live = new WatchReader(storage.watch(TYPE));
      await storage.create(TYPE, widget('c1'));
      await storage.create(TYPE, widget('c2'));
      expect(summarize(await live.take(2))).toEqual([
        ['ADDED', 'c1', '1'],
        ['ADDED', 'c2', '2'],
      ]);
      await redis.restart();
      await waitFor(() => storage.ping(), { what: 'the storage to reconnect' });
      await storage.create(TYPE, widget('c3'));
      const { events, error } = await live.readUntilError(1);
      expect(events).toEqual([]);
      expect(isStorageError(error, 'Expired')).toBe(true);
    } finally {
      await storage.close();
      await redis.destroy();
    }
  });
});

describe('Redis storage: an unreachable Redis', () => {
  it('makes opening the storage fail with Unavailable, naming where it looked and why', async () => {
    const port = await freePort();
    const failure = await openStorage(`redis://127.0.0.1:${port}/0`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isStorageError(failure, 'Unavailable')).toBe(true);
    expect((failure as Error).message).toContain(`127.0.0.1:${port}`);
    expect((failure as Error).message).toContain('ECONNREFUSED');
  });
});

/** The objects and the members of the labels and name indexes of one type, read atomically, in either layout. */
async function snapshot(raw: Redis, base: string, layout: 'plain' | 'bucketed') {
  const multi = raw.multi().hgetall(`${base}:objects`);
  if (layout === 'plain') {
    multi.zrangeBuffer(`${base}:ix:metadata.labels`, 0, -1).zrangeBuffer(`${base}:ix:metadata.name`, 0, -1);
  } else {
    multi.callBuffer('EVAL', SET_MEMBERS_SCRIPT, 2, `${base}:index:metadata.labels`, `${base}:index:metadata.name`);
  }
  const [objects, ...sets] = ((await multi.exec()) ?? []).map(([, value]) => value) as [
    Record<string, string>,
    ...unknown[],
  ];
  const [labelMembers, nameMembers] = (layout === 'plain' ? sets : sets[0]) as [Buffer[], Buffer[]];
  return { objects, labelMembers, nameMembers };
}

describe.each(['plain', 'bucketed'] as const)(
  'Redis storage: readers during a burst of writes (%s indexes)',
  (layout) => {
    let storage: Storage;
    let raw: Redis;
    let prefix: string;

    beforeEach(async () => {
      prefix = uniqueKeyPrefix('burst');
      storage = await openStorage(sharedRedisUrl(), { keyPrefix: prefix, indexLayout: layout });
      raw = new Redis(sharedRedisUrl());
      await storage.defineType(TYPE, []);
    });

    afterEach(async () => {
      await storage.close();
      raw.disconnect();
    });

    it('never see an object without its index entries, or index entries without the object', async () => {
      const names = Array.from({ length: 12 }, (_, i) => `w${i}`);
      for (const name of names) await storage.create(TYPE, widget(name, { phase: 'a' }));

      let writing = true;
      const writer = async (name: string) => {
        for (let round = 0; round < 25; round++) {
          await storage.update(TYPE, name, (o) => ({
            ...o,
            metadata: { ...o.metadata, labels: { phase: o.metadata.labels?.phase === 'a' ? 'b' : 'a' } },
          }));
          if (round % 5 === 4) {
            await storage.delete(TYPE, name);
            await storage.create(TYPE, widget(name, { phase: round % 2 ? 'a' : 'b' }));
          }
        }
      };
      const violations: string[] = [];
      const reader = async () => {
        let reads = 0;
        while (writing || reads < 5) {
          reads++;
          const inA = await storage.list(TYPE, { labelSelector: [{ key: 'phase', op: 'in', values: ['a'] }] });
          const notA = await storage.list(TYPE, { labelSelector: [{ key: 'phase', op: 'notin', values: ['a'] }] });
          violations.push(...listViolations(inA, notA), ...(await getViolations(inA.items)));
          violations.push(...(await snapshotViolations()));
        }
        return reads;
      };
      // Each list holds only what its selector matches, and counts what it holds.
      const listViolations = (inA: ListResult, notA: ListResult): string[] => [
        ...inA.items
          .filter((o) => o.metadata.labels?.phase !== 'a')
          .map((o) => `phase=a listed ${o.metadata.name} as ${o.metadata.labels?.phase}`),
        ...notA.items.filter((o) => o.metadata.labels?.phase === 'a').map((o) => `phase!=a listed ${o.metadata.name}`),
        ...(inA.total === inA.items.length ? [] : [`phase=a: total ${inA.total}, ${inA.items.length} items`]),
      ];
      // A get after a list never answers an older version of a listed object.
      const getViolations = async (listed: ApiObject[]): Promise<string[]> => {
        const found: string[] = [];
        for (const o of listed) {
          const got = await storage.get(TYPE, o.metadata.name ?? '').catch(() => undefined);
          if (got && BigInt(got.metadata.resourceVersion ?? 0) < BigInt(o.metadata.resourceVersion ?? 0)) {
            found.push(`get of ${o.metadata.name} went back in time`);
          }
        }
        return found;
      };
      // One atomic snapshot of objects, stored index values and the labels index: they must agree.
      const snapshotViolations = async (): Promise<string[]> => {
        const base = `${prefix}:{${TYPE}}`;
        const { objects, labelMembers, nameMembers } = await snapshot(raw, base, layout);
        const found: string[] = [];
        const expected = new Set<string>();
        for (const [name, json] of Object.entries(objects)) {
          const labels = (JSON.parse(json) as ApiObject).metadata.labels ?? {};
          for (const [k, v] of Object.entries(labels)) expected.add(`${k}=${v}\0${name}`);
        }
        // The labels index is ordered (ADR 0017): a member is the value, NUL, an order key ending in 0xFF, the name.
        const actual = new Set(
          labelMembers.map(
            (m) => `${m.subarray(0, m.indexOf(0)).toString()}\0${m.subarray(m.lastIndexOf(0xff) + 1).toString()}`,
          ),
        );
        for (const member of expected) if (!actual.has(member)) found.push(`no index entry ${member}`);
        for (const member of actual) if (!expected.has(member)) found.push(`index entry without object: ${member}`);
        if (nameMembers.length !== Object.keys(objects).length) found.push('name index and objects differ');
        return found;
      };

      const readers = [reader(), reader()];
      await Promise.all(names.map(writer));
      writing = false;
      const reads = await Promise.all(readers);
      expect(violations).toEqual([]);
      expect(Math.min(...reads)).toBeGreaterThanOrEqual(5);
      expect((await storage.list(TYPE)).total).toBe(names.length);
    });
  },
);

describe('Redis storage: key layout', () => {
  it('puts every key of a type under one hash tag, the type, below the key prefix', async () => {
    const prefix = uniqueKeyPrefix('layout');
    const storage = await openStorage(sharedRedisUrl(), { keyPrefix: prefix });
    const raw = new Redis(sharedRedisUrl());
    try {
      const other = 'gadgets.resilience.svc.run';
      await storage.defineType(TYPE, [
        { name: 'spec.size', unique: true, indexFunc: (o) => (o.spec as { size?: string }).size },
      ]);
      await storage.create(TYPE, { ...widget('w1', { env: 'prod' }), spec: { size: 'L' } });
      await storage.create(other, widget('g1'));
      const watcher = new WatchReader(storage.watch(TYPE, { fromRevision: '0' }));
      await watcher.take(1);
      watcher.stop();

      const keys = await raw.keys(`${prefix}:*`);
      const tags = new Map<string, string[]>();
      for (const key of keys) {
        const tag = /^[^{]*\{([^}]*)\}/.exec(key)?.[1] ?? '(none)';
        tags.set(tag, [...(tags.get(tag) ?? []), key]);
      }
      expect([...tags.keys()].sort()).toEqual([other, TYPE].sort());
      const typeKeys = (tags.get(TYPE) ?? []).map((k) => k.slice(`${prefix}:{${TYPE}}:`.length)).sort();
      expect(typeKeys).toEqual(
        expect.arrayContaining([
          'objects',
          'ixv',
          'rev',
          'stream',
          'indexes',
          'ix:metadata.name',
          'ix:metadata.labels',
          'ix:spec.size',
        ]),
      );
      for (const key of keys) expect(key.startsWith(`${prefix}:{`)).toBe(true);
    } finally {
      raw.disconnect();
      await storage.close();
    }
  });
});
