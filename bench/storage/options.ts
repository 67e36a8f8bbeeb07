import { Command, InvalidArgumentError } from 'commander';
import type { IndexLayout } from '../../pkg/storage/redis/keys';
import { commaList, integerAtLeast, parseCommandLine, positiveInt } from '../support/options';

/** What a benchmark run measures. */
export interface BenchOptions {
  /** Object counts the lists are measured at, ascending, e.g. `[10000, 100000]`. */
  sizes: number[];
  /** Creates (and then updates) per write round. */
  ops: number;
  /** Timed runs per measurement; figures are their medians. */
  runs: number;
  /** How svc's Redis storage keeps its index sets (ADR 0025). */
  indexLayout: IndexLayout;
}

/** The smallest `--ops`: the write benchmark keeps 32 writes of distinct objects in flight. */
const MIN_OPS = 32;

/**
 * Parses the command line (without `node` and the script).
 *
 * @example parseBenchOptions(['--sizes', '2000', '--ops', '2000']) // { sizes: [2000], ops: 2000, runs: 7 }
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const program = new Command('bench-storage')
    .description('The storage benchmark: lists and writes of the Redis backend against their baselines.')
    .option('--sizes <list>', 'object counts to measure lists at, comma-separated', parseSizes, [10_000, 100_000])
    .option('--ops <n>', 'creates and updates per write round', integerAtLeast(MIN_OPS), 20_000)
    .option('--runs <n>', 'timed runs per measurement (the figure is their median)', positiveInt, 7)
    .option('--index-layout <layout>', "svc's index layout: plain or bucketed", indexLayout, 'plain' as IndexLayout);
  return parseCommandLine<BenchOptions>(program, argv);
}

/** An index layout named on the command line (ADR 0025). */
export function indexLayout(text: string): IndexLayout {
  if (text !== 'plain' && text !== 'bucketed') throw new InvalidArgumentError('expected plain or bucketed');
  return text;
}

/** `10000,100000` → `[10000, 100000]`: positive integers, de-duplicated, ascending. */
export function parseSizes(text: string): number[] {
  const sizes = commaList(positiveInt, 'object counts such as 10000,100000')(text);
  return [...new Set(sizes)].sort((a, b) => a - b);
}
