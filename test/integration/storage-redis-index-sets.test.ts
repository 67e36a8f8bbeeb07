import { isDeepStrictEqual } from 'node:util';
import Redis, { type ChainableCommander } from 'ioredis';
import { readLua } from '../../pkg/storage/redis/scripts/lua-files';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';

/**
 * The bucketed sets (ADR 0025) against Redis's own sorted sets: the same
 * random adds and removes on both, then every read compared. Members are
 * drawn from a small alphabet so that ranges, prefixes and ties are common,
 * and sets grow past many bucket splits and shrink through merges.
 */

// A test-only script: the library, and one call of it named by ARGV[1].
const DISPATCH = `${readLua('bytes')}
${readLua('index-sets-bucketed')}
local dir, op = KEYS[1], ARGV[1]
COUNTED[dir] = string.sub(dir, -8) == ':counted'
if op == 'add' then
  local n = 0
  for i = 2, #ARGV do n = n + set_add(dir, ARGV[i]) end
  return n
elseif op == 'rem' then
  local n = 0
  for i = 2, #ARGV do n = n + set_rem(dir, ARGV[i]) end
  return n
elseif op == 'has' then
  return set_has(dir, ARGV[2]) and 1 or 0
elseif op == 'range' then
  return set_range(dir, ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1')
elseif op == 'count' then
  return set_count(dir, ARGV[2], ARGV[3])
elseif op == 'drop' then
  set_drop(dir)
  return 0
end
error('unknown op ' .. op)
`;

type Bucketed = Redis & { bucketed(dir: string, ...args: (string | number)[]): Promise<unknown> };
interface BucketedPipeline extends ChainableCommander {
  bucketed(dir: string, ...args: (string | number)[]): BucketedPipeline;
}

let redis: Bucketed;

beforeAll(() => {
  redis = new Redis(sharedRedisUrl()) as Bucketed;
  redis.defineCommand('bucketed', { numberOfKeys: 1, lua: DISPATCH });
});

afterAll(async () => {
  await redis.quit();
});

/** A deterministic generator, so that a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ALPHABET = ['a', 'b', 'c', 'ab', 'z', '\u00e9', 'm\u0000', 'q'];

function member(next: () => number): string {
  const parts = 1 + Math.floor(next() * 4);
  let m = '';
  for (let i = 0; i < parts; i++) m += ALPHABET[Math.floor(next() * ALPHABET.length)];
  // Every index member holds a NUL after its value.
  return `${m}\0${Math.floor(next() * 40)}`;
}

function spec(next: () => number, side: '-' | '+'): string {
  const roll = next();
  if (roll < 0.15) return side;
  const prefix = roll < 0.55 ? '[' : '(';
  return prefix + member(next).slice(0, 1 + Math.floor(next() * 3));
}

/**
 * The commands `queue` puts in one pipeline, sent at once (Redis runs them in order, as if awaited one by one),
 * and their replies; a command Redis refused throws. Thousands of steps awaited one at a time spent the case's
 * time in round trips.
 */
async function pipelined(queue: (p: BucketedPipeline) => void): Promise<unknown[]> {
  const p = redis.pipeline() as BucketedPipeline;
  queue(p);
  return ((await p.exec()) ?? []).map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

/**
 * A check made thousands of times: each pair of replies (the bucketed set's, then the sorted set's) that differ is
 * told in `problems`, with what was asked, rather than in an `expect()` each (docs/adr/0044-a-short-test-loop.md).
 */
function compareInPairs(replies: unknown[], asked: unknown[], problems: string[]): void {
  asked.forEach((what, i) => {
    const [got, want] = [replies[2 * i], replies[2 * i + 1]];
    if (!isDeepStrictEqual(got, want)) problems.push(JSON.stringify({ ...(what as object), got, want }));
  });
}

/** Every read of both sets, compared. */
async function compareReads(dir: string, native: string, next: () => number, problems: string[]): Promise<void> {
  const asked: unknown[] = [];
  const replies = await pipelined((p) => {
    for (let i = 0; i < 40; i++) {
      const min = spec(next, '-');
      const max = spec(next, '+');
      const offset = Math.floor(next() * 3) === 0 ? Math.floor(next() * 200) : 0;
      const count = next() < 0.3 ? -1 : Math.floor(next() * 150);
      const ctx = { min, max, offset, count };
      p.bucketed(dir, 'range', min, max, offset, count, '0').zrangebylex(native, min, max, 'LIMIT', offset, count);
      p.bucketed(dir, 'range', min, max, offset, count, '1').zrevrangebylex(native, max, min, 'LIMIT', offset, count);
      p.bucketed(dir, 'count', min, max).zlexcount(native, min, max);
      // One value's range, which a counted set answers from its counts.
      const value = member(next).split('\0')[0];
      const [vmin, vmax] = [`[${value}\0`, `(${value}\u0001`];
      p.bucketed(dir, 'count', vmin, vmax).zlexcount(native, vmin, vmax);
      asked.push({ range: ctx }, { desc: ctx }, { count: ctx }, { value });
    }
  });
  compareInPairs(replies, asked, problems);
}

/** `ops` random adds and removes on both sets (the same on each); their answers must agree. */
async function compareSteps(
  dir: string,
  native: string,
  held: Set<string>,
  next: () => number,
  { ops, growing }: { ops: number; growing: boolean },
  problems: string[],
): Promise<void> {
  const asked: unknown[] = [];
  const replies = await pipelined((p) => {
    for (let i = 0; i < ops; i++) {
      const m = member(next);
      const add = growing ? next() < 0.8 : next() < 0.25;
      if (add) {
        p.bucketed(dir, 'add', m).zadd(native, 0, m);
        asked.push({ add: m });
        held.add(m);
        continue;
      }
      const target = held.size > 0 && next() < 0.9 ? [...held][Math.floor(next() * held.size)] : m;
      p.bucketed(dir, 'rem', target).zrem(native, target);
      asked.push({ rem: target });
      held.delete(target);
    }
  });
  compareInPairs(replies, asked, problems);
}

/** Whether each probe is in the bucketed set exactly when `held` has it. */
async function compareMembership(dir: string, held: Set<string>, probes: string[], problems: string[]): Promise<void> {
  const replies = await pipelined((p) => probes.forEach((probe) => p.bucketed(dir, 'has', probe)));
  probes.forEach((probe, i) => {
    if (replies[i] !== (held.has(probe) ? 1 : 0)) problems.push(JSON.stringify({ has: probe, got: replies[i] }));
  });
}

/** Every bucket stays a listpack (at most 127 members) and none is empty but the first. */
async function compareBucketSizes(dir: string, problems: string[]): Promise<void> {
  const bounds = await redis.zrange(dir, 0, -1);
  const sizes = await pipelined((p) => bounds.forEach((bound) => p.zcard(`${dir}\0${bound}`)));
  bounds.forEach((bound, i) => {
    const size = sizes[i] as number;
    if (size > 127 || (bound !== '' && size === 0)) problems.push(JSON.stringify({ bucket: bound, size }));
  });
}

describe('bucketed sets', () => {
  it.each([
    [1, ''],
    [2, ''],
    [3, ':counted'],
    [4, ':counted'],
  ])('answer every range, count and test as one sorted set does (seed %i%s)', async (seed, counted) => {
    const next = random(seed);
    const prefix = uniqueKeyPrefix('bucketed');
    const dir = `${prefix}:dir${counted}`;
    const native = `${prefix}:native`;
    const held = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const problems: string[] = [];
      const ops = 150 + Math.floor(next() * 150);
      await compareSteps(dir, native, held, next, { ops, growing: round < 6 }, problems);
      await compareReads(dir, native, next, problems);
      await compareMembership(dir, held, [member(next), ...[...held].slice(0, 5)], problems);
      await compareBucketSizes(dir, problems);
      expect({ round, problems }).toEqual({ round, problems: [] });
    }
    await redis.bucketed(dir, 'drop');
    expect(await redis.keys(`${prefix}:dir*`)).toEqual([]);
  });

  it('splits a growing set into listpack buckets and leaves no key when emptied', async () => {
    const dir = `${uniqueKeyPrefix('bucketed')}:dir`;
    const members = Array.from({ length: 1000 }, (_, i) => `v\0${String(i).padStart(4, '0')}`);
    expect(await redis.bucketed(dir, 'add', ...members)).toBe(1000);
    const bounds = await redis.zrange(dir, 0, -1);
    expect(bounds.length).toBeGreaterThan(8);
    for (const bound of bounds) expect(await redis.object('ENCODING', `${dir}\0${bound}`)).toBe('listpack');
    expect(await redis.bucketed(dir, 'count', '[v\0', '(v\u0001')).toBe(1000);
    expect(await redis.bucketed(dir, 'range', '-', '+', 998, 5, '0')).toEqual(members.slice(998));
    expect(await redis.bucketed(dir, 'rem', ...members)).toBe(1000);
    expect(await redis.exists(dir)).toBe(0);
  });
});
