/**
 * The storage benchmark's goals (bench/README.md) and how a figure is judged
 * against them.
 */
import { verdict, type Verdict } from '../support/report';

/** At LIST_SPEEDUP_AT objects, a list must be at least this many times faster than the baseline. */
export const LIST_SPEEDUP_GOAL = 50;
/** The number of objects the list speed-up goal is stated for. */
export const LIST_SPEEDUP_AT = 100_000;
/** From N to 10·N objects, a list may take at most this many times longer. */
export const LIST_GROWTH_GOAL = 2;
/** The growth goal compares sizes this far apart (10k → 100k). */
export const LIST_GROWTH_SPAN = 10;
/** Creates and updates must reach at least this share of the baseline's throughput. */
export const WRITE_SHARE_GOAL = 0.5;

/** The list speed-up at `objects` objects, judged only at LIST_SPEEDUP_AT. */
export function listSpeedupVerdict(objects: number, speedup: number): Verdict {
  return objects === LIST_SPEEDUP_AT ? verdict(speedup >= LIST_SPEEDUP_GOAL) : '—';
}

/** A list's growth from `smaller` to `larger` objects, judged only when they are LIST_GROWTH_SPAN apart. */
export function listGrowthVerdict(smaller: number, larger: number, growth: number): Verdict {
  return larger === smaller * LIST_GROWTH_SPAN ? verdict(growth <= LIST_GROWTH_GOAL) : '—';
}

/** A write's share of the baseline's throughput. */
export const writeShareVerdict = (share: number): Verdict => verdict(share >= WRITE_SHARE_GOAL);
