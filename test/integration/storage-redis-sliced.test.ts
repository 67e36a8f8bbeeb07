import Redis from 'ioredis';
import '../../pkg/storage/redis';
import '../../pkg/storage/memory';
import { openStorage } from '../../pkg/storage/backends';
import type { IndexSpec } from '../../pkg/storage/indexes';
import type { Storage } from '../../pkg/storage/interface';
import type { ListOptions } from '../../pkg/storage/query';
import { runStorageConformance } from '../../pkg/storage/testing/suite';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';

// The whole conformance suite again with lists allowed to read only 4 index members per script: every shape that
// is not O(page) is then read in slices (several scripts), and must answer exactly as in one script.
runStorageConformance('redis, lists in slices of 4', (options) =>
  openStorage(sharedRedisUrl(), { ...options, keyPrefix: uniqueKeyPrefix(), listSlice: 4 }),
);

const TYPE = 'widgets.sliced.svc.run';
const INDEXES: IndexSpec[] = [
  { name: 'spec.rank', indexFunc: (o) => (o.spec as { rank?: string }).rank },
  { name: 'spec.tags', indexFunc: (o) => (o.spec as { tags?: string[] }).tags },
];

/** The `evalsha` calls Redis has served so far (other suites sharing it add theirs). */
async function scriptCalls(client: Redis): Promise<number> {
  const stats = await client.info('commandstats');
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

/** Every name of a list followed through continue tokens, and the first page's total. */
async function walk(storage: Storage, options: ListOptions): Promise<{ names: string[]; total: number }> {
  const names: string[] = [];
  let token: string | undefined;
  let total = -1;
  do {
    const page = await storage.list(TYPE, { ...options, limit: 150, continue: token });
    if (total < 0) total = page.total;
    names.push(...page.items.map((o) => o.metadata.name ?? ''));
    token = page.continue;
  } while (token !== undefined);
  return { names, total };
}

describe('a large list of a slow shape (read in slices)', () => {
  let redis: Storage;
  let memory: Storage;
  let client: Redis;

  beforeAll(async () => {
    redis = await openStorage(sharedRedisUrl(), { keyPrefix: uniqueKeyPrefix(), listSlice: 100 });
    memory = await openStorage('memory://');
    client = new Redis(sharedRedisUrl());
    for (const storage of [redis, memory]) await storage.defineType(TYPE, INDEXES);
    for (let i = 0; i < 1500; i++) {
      const labels: Record<string, string> = { tier: ['gold', 'silver', 'bronze'][i % 3] };
      if (i % 4 === 0) labels.env = 'prod';
      const spec = {
        rank: i % 11 === 0 ? undefined : String((i * 7) % 50).padStart(2, '0'),
        tags: [`t${i % 5}`, `t${i % 7}`],
      };
      const object = { apiVersion: 'sliced.svc.run/v1', kind: 'Widget', metadata: { name: `w${i}`, labels }, spec };
      await Promise.all([redis.create(TYPE, object), memory.create(TYPE, object)]);
    }
  });

  afterAll(async () => {
    await Promise.all([redis.close(), memory.close()]);
    client.disconnect();
  });

  const rank = (direction: 'asc' | 'desc'): ListOptions['sort'] => [{ index: 'spec.rank', direction }];
  const shapes: [string, ListOptions][] = [
    [
      'tier!=gold,env!=prod (negative only) by rank',
      {
        labelSelector: [
          { key: 'tier', op: 'notin', values: ['gold'] },
          { key: 'env', op: 'notin', values: ['prod'] },
        ],
        sort: rank('asc'),
      },
    ],
    [
      'tier in (gold,silver),env notin (prod) by rank',
      {
        labelSelector: [
          { key: 'tier', op: 'in', values: ['gold', 'silver'] },
          { key: 'env', op: 'notin', values: ['prod'] },
        ],
        sort: rank('asc'),
      },
    ],
    [
      'tier=silver,env (several terms) by rank desc',
      {
        labelSelector: [
          { key: 'tier', op: 'in', values: ['silver'] },
          { key: 'env', op: 'exists', values: [] },
        ],
        sort: rank('desc'),
      },
    ],
    [
      'tags in (t1,t2) (multi-valued), !env, by tags desc',
      {
        fieldSelector: [{ field: 'spec.tags', op: 'in', values: ['t1', 't2'] }],
        labelSelector: [{ key: 'env', op: '!exists', values: [] }],
        sort: [
          { index: 'spec.tags', direction: 'desc' },
          { index: 'spec.rank', direction: 'asc' },
        ],
      },
    ],
  ];

  it.each(shapes)(
    '%s: the same pages, totals and continue walks as the memory backend, in several scripts',
    async (_, options) => {
      const before = await scriptCalls(client);
      const sliced = await redis.list(TYPE, { ...options, offset: 40, limit: 25 });
      // At most 100 members a script: the shape's 500 or more candidates took several.
      expect((await scriptCalls(client)) - before).toBeGreaterThanOrEqual(5);
      const expected = await memory.list(TYPE, { ...options, offset: 40, limit: 25 });
      expect({ names: sliced.items.map((o) => o.metadata.name), total: sliced.total }).toEqual({
        names: expected.items.map((o) => o.metadata.name),
        total: expected.total,
      });
      expect(await walk(redis, options)).toEqual(await walk(memory, options));
    },
  );
});
