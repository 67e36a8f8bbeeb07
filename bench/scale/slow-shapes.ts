import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import type { ListOptions, Storage } from '../../pkg/storage';
import { commandStats } from '../support/redis-command-time';
import { renderTable } from '../support/report';
import { GROUP_LABEL } from '../storage/bench-model';

const CALLS = 3;
const TIER = 'bench.svc.run/tier';
const byAge: ListOptions['sort'] = [{ index: 'spec.age', direction: 'desc' }];

/** Selectors that are not O(page) (docs/storage.md), each read as a page of 20. */
const SHAPES: [string, ListOptions][] = [
  ['group!=g42 (one negative term, 99%)', { labelSelector: [{ key: GROUP_LABEL, op: 'notin', values: ['g42'] }] }],
  [
    'group=g42,tier=gold (two terms, 1% ∩ 33%)',
    {
      labelSelector: [
        { key: GROUP_LABEL, op: 'in', values: ['g42'] },
        { key: TIER, op: 'in', values: ['gold'] },
      ],
    },
  ],
  [
    'group in (g1,g2,g3) by spec.age desc (3%)',
    { labelSelector: [{ key: GROUP_LABEL, op: 'in', values: ['g1', 'g2', 'g3'] }], sort: byAge },
  ],
  [
    'group=g42 by spec.age (not paired, 1%)',
    {
      labelSelector: [{ key: GROUP_LABEL, op: 'in', values: ['g42'] }],
      sort: [{ index: 'spec.age', direction: 'asc' }],
    },
  ],
  [
    'group!=g42,tier!=gold (two negative terms, 66%)',
    {
      labelSelector: [
        { key: GROUP_LABEL, op: 'notin', values: ['g42'] },
        { key: TIER, op: 'notin', values: ['gold'] },
      ],
    },
  ],
];

/** One shape's figures at one size. */
interface ShapeFigures {
  shape: string;
  total: number;
  ms: number;
  scriptsPerCall: number;
  longestScriptMs: number;
  medianScriptMs: number;
}

/**
 * The slow shapes at one size: the median time of a page of 20 end to end,
 * how many list scripts one page took (a shape read in slices takes several),
 * and the longest single script among them, from Redis' `SLOWLOG` (every
 * command logged while this runs: the threshold is set to 0 and restored).
 */
export async function measureSlowShapes(storage: Storage, client: Redis, type: string): Promise<ShapeFigures[]> {
  const config = (await client.config('GET', 'slowlog-*')) as string[];
  await client.config('SET', 'slowlog-log-slower-than', '0');
  await client.config('SET', 'slowlog-max-len', '100000');
  try {
    const figures: ShapeFigures[] = [];
    for (const [shape, options] of SHAPES) figures.push(await measureShape(storage, client, type, shape, options));
    return figures;
  } finally {
    for (let i = 0; i < config.length; i += 2) await client.config('SET', config[i], config[i + 1]);
  }
}

async function measureShape(
  storage: Storage,
  client: Redis,
  type: string,
  shape: string,
  options: ListOptions,
): Promise<ShapeFigures> {
  await storage.list(type, { ...options, limit: 20 });
  await client.slowlog('RESET');
  const before = commandStats(await client.info('commandstats'), 'evalsha').calls;
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    total = (await storage.list(type, { ...options, limit: 20 })).total;
    times.push(performance.now() - start);
  }
  // The INFO call itself is a command, not a script: only evalsha counts.
  const scripts = commandStats(await client.info('commandstats'), 'evalsha').calls - before;
  const log = (await client.slowlog('GET', 100000)) as [number, number, number, string[]][];
  const durations = log
    .filter((e) => String(e[3][0]).toLowerCase() === 'evalsha')
    .map((e) => e[2])
    .sort((a, b) => a - b);
  return {
    shape,
    total,
    ms: times.sort((a, b) => a - b)[times.length >> 1],
    scriptsPerCall: scripts / CALLS,
    longestScriptMs: (durations[durations.length - 1] ?? 0) / 1000,
    medianScriptMs: (durations[durations.length >> 1] ?? 0) / 1000,
  };
}

/** The slow shapes' table for one size. */
export function slowShapesTable(objects: number, figures: readonly ShapeFigures[]): string {
  return (
    `Slow shapes at ${objects.toLocaleString('en-US')} objects (page of 20; median of ${CALLS}; longest script from SLOWLOG):\n` +
    renderTable(
      ['shape', 'matches', 'page end to end', 'list scripts per page', 'median script', 'longest script'],
      figures.map((f) => [
        f.shape,
        f.total.toLocaleString('en-US'),
        `${f.ms.toPrecision(3)} ms`,
        f.scriptsPerCall.toFixed(1),
        `${f.medianScriptMs.toPrecision(3)} ms`,
        `${f.longestScriptMs.toPrecision(3)} ms`,
      ]),
    )
  );
}
