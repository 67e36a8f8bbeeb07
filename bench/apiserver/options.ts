import { Command } from 'commander';
import { nonNegativeInt, parseCommandLine, positiveInt } from '../support/options';

/** Everything the apiserver benchmark can be told; see `--help`. */
export interface BenchOptions {
  /** Persons loaded before measuring (the list reads a page of 20 from these). */
  objects: number;
  /** Requests per measured run of GET, list and create. */
  requests: number;
  /** Requests sent to each server before its runs are measured. */
  warmup: number;
  /** Requests in flight during GET, list and create. */
  concurrency: number;
  /** Measured runs per server; the median run is reported. */
  runs: number;
  /** The many-watchers case: watchers, and creates per second. */
  watchers: number;
  watchRate: number;
  /** The fast-writes case: watchers, and creates per second. */
  fastWatchers: number;
  fastRate: number;
  /** Length of each watch case's measured writing, in seconds. */
  seconds: number;
  /** Seconds of writing before each watch case is measured (delivered, not counted). */
  watchWarmup: number;
  /** When set, the servers run with `--cpu-prof` and leave their CPU profiles in this directory. */
  profile?: string;
}

/** The full benchmark's sizes (bench/README.md). */
export const FULL: BenchOptions = {
  objects: 10_000,
  requests: 20_000,
  warmup: 3_000,
  concurrency: 32,
  runs: 3,
  watchers: 1_000,
  watchRate: 100,
  fastWatchers: 10,
  fastRate: 1_000,
  seconds: 10,
  watchWarmup: 2,
};

/** `--quick`: the same phases, small enough for a check that everything works. */
export const QUICK: Partial<BenchOptions> = {
  objects: 1_000,
  requests: 2_000,
  warmup: 500,
  watchers: 100,
  seconds: 3,
  watchWarmup: 1,
};

/**
 * Parses the command line (without `node` and the script): the full benchmark's settings, `--quick` for the
 * small ones, and any single setting overridden by its flag.
 *
 * @example parseBenchOptions(['--quick', '--runs', '1'])
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const program = new Command('bench-apiserver')
    .description(
      'Benchmarks the apiserver against bare Node http servers on the same Redis. ' +
        'Redis: REDIS_URL, or a private redis-server on a free port. Build first: npm run build.',
    )
    .option('--quick', `small settings: ${JSON.stringify(QUICK)}`)
    .option('--objects <n>', `persons loaded before measuring (default ${FULL.objects})`, positiveInt)
    .option('--requests <n>', `requests per measured run (default ${FULL.requests})`, positiveInt)
    .option('--warmup <n>', `warm-up requests per server (default ${FULL.warmup})`, positiveInt)
    .option('--concurrency <n>', `requests in flight (default ${FULL.concurrency})`, positiveInt)
    .option('--runs <n>', `measured runs per server, the median is reported (default ${FULL.runs})`, positiveInt)
    .option('--watchers <n>', `watchers in the many-watchers case (default ${FULL.watchers})`, positiveInt)
    .option('--watch-rate <n>', `creates/s in the many-watchers case (default ${FULL.watchRate})`, positiveInt)
    .option('--fast-watchers <n>', `watchers in the fast-writes case (default ${FULL.fastWatchers})`, positiveInt)
    .option('--fast-rate <n>', `creates/s in the fast-writes case (default ${FULL.fastRate})`, positiveInt)
    .option('--seconds <n>', `seconds of measured writing per watch case (default ${FULL.seconds})`, positiveInt)
    .option(
      '--watch-warmup <n>',
      `seconds of writing before each watch case is measured (default ${FULL.watchWarmup}; 0: none)`,
      nonNegativeInt,
    )
    .option(
      '--profile <dir>',
      'run both servers with --cpu-prof; their profiles land in <dir> (open in Chrome DevTools)',
    );
  const { quick, ...given } = parseCommandLine<Partial<BenchOptions> & { quick?: boolean }>(program, argv);
  return { ...FULL, ...(quick ? QUICK : {}), ...given };
}
