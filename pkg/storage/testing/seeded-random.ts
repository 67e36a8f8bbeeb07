/**
 * A seeded pseudo-random source for the randomized tests of this folder, so
 * that a failure reproduces exactly (mulberry32).
 *
 * @example const rnd = seededRandom(42); rnd.pick(['a', 'b']);
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    /** A float in [0, 1). */
    next,
    /** An integer in [0, n). */
    int,
    /** One element of a non-empty list. */
    pick: <T>(list: readonly T[]): T => list[int(list.length)],
    /** A random subset of a list (each element kept with probability `p`). */
    some: <T>(list: readonly T[], p = 0.5): T[] => list.filter(() => next() < p),
  };
}

/** UTF-8 byte order, computed the slow obvious way: the reference the tests check against. */
export const utf8Order = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
