import { formatMs, formatRate, formatRatio, renderTable, type Verdict } from '../support/report';
import {
  LIST_GROWTH_GOAL,
  LIST_GROWTH_SPAN,
  LIST_SPEEDUP_AT,
  LIST_SPEEDUP_GOAL,
  WRITE_SHARE_GOAL,
  listGrowthVerdict,
  listSpeedupVerdict,
  writeShareVerdict,
} from './goals';
import { LIST_VARIANTS, type ListFigures } from './list-bench';
import type { LoadFigures } from './load';
import type { WriteFigures } from './write-bench';

/** A rendered table and the verdicts in it. */
export interface ReportSection {
  text: string;
  verdicts: Verdict[];
}

const labelOf = (variant: ListFigures['variant']): string =>
  LIST_VARIANTS.find((v) => v.id === variant)?.label ?? variant;

/**
 * The list table: per variant and size, svc's median time (and the part of it
 * Redis spent in the list script), the baseline's, and svc's speed-up.
 */
export function listReport(figures: readonly ListFigures[]): ReportSection {
  const verdicts: Verdict[] = [];
  const rows = figures.map((f) => {
    const speedup = f.baselineMs / f.svcMs;
    const result = listSpeedupVerdict(f.objects, speedup);
    verdicts.push(result);
    return [
      labelOf(f.variant),
      String(f.objects),
      formatMs(f.svcMs),
      formatMs(f.svcRedisMs),
      formatMs(f.baselineMs),
      formatRatio(speedup),
      `≥ ${LIST_SPEEDUP_GOAL}× at ${LIST_SPEEDUP_AT}`,
      result,
    ];
  });
  const text = renderTable(
    ['operation', 'objects', 'svc (median)', 'of it in Redis', 'baseline (median)', 'svc faster by', 'goal', 'result'],
    rows,
  );
  return { text, verdicts };
}

/**
 * The growth table: each list variant's svc time at the largest size over
 * the smallest (the goal), and the same for the time in Redis alone (for
 * information: it leaves out the client's constant share and its noise).
 */
export function growthReport(figures: readonly ListFigures[]): ReportSection | undefined {
  const sizes = [...new Set(figures.map((f) => f.objects))].sort((a, b) => a - b);
  if (sizes.length < 2) return undefined;
  const smaller = sizes[0];
  const larger = sizes[sizes.length - 1];
  const verdicts: Verdict[] = [];
  const rows = LIST_VARIANTS.flatMap((variant) => {
    const at = (objects: number) => figures.find((f) => f.variant === variant.id && f.objects === objects);
    const small = at(smaller);
    const large = at(larger);
    if (small === undefined || large === undefined) return [];
    const growth = large.svcMs / small.svcMs;
    const result = listGrowthVerdict(smaller, larger, growth);
    verdicts.push(result);
    return [
      [
        variant.label,
        formatMs(small.svcMs),
        formatMs(large.svcMs),
        formatRatio(growth),
        `≤ ${LIST_GROWTH_GOAL}× for ${LIST_GROWTH_SPAN}× the objects`,
        result,
        formatRatio(large.svcRedisMs / small.svcRedisMs),
      ],
    ];
  });
  const text = renderTable(
    ['operation', `svc at ${smaller}`, `svc at ${larger}`, 'growth', 'goal', 'result', 'growth in Redis'],
    rows,
  );
  return { text, verdicts };
}

/**
 * The write table: svc's and the baseline's median throughput, svc's share
 * of it, and the CPU time Redis spent per write for each.
 */
export function writeReport(figures: readonly WriteFigures[], concurrency: number): ReportSection {
  const verdicts: Verdict[] = [];
  const rows = figures.map((f) => {
    const share = f.svcOpsPerSecond / f.baselineOpsPerSecond;
    const result = writeShareVerdict(share);
    verdicts.push(result);
    return [
      f.operation,
      String(f.ops),
      String(concurrency),
      formatRate(f.svcOpsPerSecond),
      formatRate(f.baselineOpsPerSecond),
      `${(share * 100).toFixed(0)}%`,
      `≥ ${(WRITE_SHARE_GOAL * 100).toFixed(0)}% of baseline`,
      result,
      `${f.svcRedisMicrosPerOp.toFixed(0)} µs / ${f.baselineRedisMicrosPerOp.toFixed(0)} µs`,
    ];
  });
  const text = renderTable(
    [
      'operation',
      'ops',
      'in flight',
      'svc (median)',
      'baseline (median)',
      'svc / baseline',
      'goal',
      'result',
      'Redis CPU per write, svc / baseline',
    ],
    rows,
  );
  return { text, verdicts };
}

/** One line per load: how the list data was written. */
export function loadReport(loads: readonly LoadFigures[], concurrency: number): string {
  return loads
    .map(
      (l) =>
        `loaded objects ${l.from}…${l.to} through Storage.create, ${concurrency} in flight: ` +
        `${(l.ms / 1000).toFixed(1)} s (${formatRate((l.to - l.from) / (l.ms / 1000))})`,
    )
    .join('\n');
}
