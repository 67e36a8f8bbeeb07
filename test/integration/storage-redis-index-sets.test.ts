import Redis from 'ioredis';
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

/** Every read of both sets, compared. */
async function expectSame(dir: string, native: string, next: () => number): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const min = spec(next, '-');
    const max = spec(next, '+');
    const offset = Math.floor(next() * 3) === 0 ? Math.floor(next() * 200) : 0;
    const count = next() < 0.3 ? -1 : Math.floor(next() * 150);
    const ctx = { min, max, offset, count };
    expect({ ...ctx, got: await redis.bucketed(dir, 'range', min, max, offset, count, '0') }).toEqual({
      ...ctx,
      got: await redis.zrangebylex(native, min, max, 'LIMIT', offset, count),
    });
    expect({ ...ctx, desc: await redis.bucketed(dir, 'range', min, max, offset, count, '1') }).toEqual({
      ...ctx,
      desc: await redis.zrevrangebylex(native, max, min, 'LIMIT', offset, count),
    });
    expect({ ...ctx, n: await redis.bucketed(dir, 'count', min, max) }).toEqual({
      ...ctx,
      n: await redis.zlexcount(native, min, max),
    });
    // One value's range, which a counted set answers from its counts.
    const value = member(next).split('\0')[0];
    const [vmin, vmax] = [`[${value}\0`, `(${value}\u0001`];
    expect({ value, n: await redis.bucketed(dir, 'count', vmin, vmax) }).toEqual({
      value,
      n: await redis.zlexcount(native, vmin, vmax),
    });
  }
}

/** One random add or remove on both sets; their answers must agree. */
async function step(dir: string, native: string, held: Set<string>, next: () => number, growing: boolean) {
  const m = member(next);
  const add = growing ? next() < 0.8 : next() < 0.25;
  if (add) {
    expect({ add: m, result: await redis.bucketed(dir, 'add', m) }).toEqual({
      add: m,
      result: await redis.zadd(native, 0, m),
    });
    held.add(m);
    return;
  }
  const target = held.size > 0 && next() < 0.9 ? [...held][Math.floor(next() * held.size)] : m;
  expect({ rem: target, result: await redis.bucketed(dir, 'rem', target) }).toEqual({
    rem: target,
    result: await redis.zrem(native, target),
  });
  held.delete(target);
}

/** Every bucket stays a listpack (at most 127 members) and none is empty but the first. */
async function expectCompactBuckets(dir: string): Promise<void> {
  for (const bound of await redis.zrange(dir, 0, -1)) {
    const size = await redis.zcard(`${dir}\0${bound}`);
    expect(size).toBeLessThanOrEqual(127);
    if (bound !== '') expect(size).toBeGreaterThan(0);
  }
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
      const ops = 150 + Math.floor(next() * 150);
      for (let i = 0; i < ops; i++) await step(dir, native, held, next, round < 6);
      await expectSame(dir, native, next);
      for (const probe of [member(next), ...[...held].slice(0, 5)]) {
        expect(await redis.bucketed(dir, 'has', probe)).toBe(held.has(probe) ? 1 : 0);
      }
      await expectCompactBuckets(dir);
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
