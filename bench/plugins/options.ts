import { Command } from 'commander';
import { parseCommandLine, positiveInt } from '../support/options';

/** Everything the plugins benchmark can be told; see `--help`. */
export interface PluginBenchOptions {
  /** Objects of the plugin's model that exist before the measured start (and that the GET cycles through). */
  objects: number;
  /** Requests per measured run of the route and of the GET. */
  requests: number;
  /** Requests sent to each side before its runs are measured. */
  warmup: number;
  /** Requests in flight (closed loop), the same for both sides. */
  concurrency: number;
  /** Measured runs per side; the median run is reported. */
  runs: number;
  /** When set, every apiserver runs with `--cpu-prof` and leaves its CPU profiles (one per thread) in this directory. */
  profile?: string;
}

/** The full benchmark's sizes (bench/README.md). */
export const FULL: PluginBenchOptions = {
  objects: 10_000,
  requests: 20_000,
  warmup: 3_000,
  concurrency: 32,
  runs: 3,
};

/** `--quick`: the same phases, small enough for a check that everything works. */
export const QUICK: Partial<PluginBenchOptions> = { objects: 1_000, requests: 2_000, warmup: 500 };

/**
 * Parses the command line (without `node` and the script): the full settings, `--quick` for the small ones,
 * and any single setting overridden by its flag.
 *
 * @example parsePluginBenchOptions(['--quick', '--runs', '1'])
 */
export function parsePluginBenchOptions(argv: readonly string[]): PluginBenchOptions {
  const program = new Command('bench-plugins')
    .description(
      'Benchmarks a plugin route against a generated GET, and a plugin start over existing objects. ' +
        'Redis: REDIS_URL, or a private redis-server on a free port. Build first: npm run build.',
    )
    .option('--quick', `small settings: ${JSON.stringify(QUICK)}`)
    .option('--objects <n>', `objects existing before the measured start (default ${FULL.objects})`, positiveInt)
    .option('--requests <n>', `requests per measured run (default ${FULL.requests})`, positiveInt)
    .option('--warmup <n>', `warm-up requests per side (default ${FULL.warmup})`, positiveInt)
    .option('--concurrency <n>', `requests in flight (default ${FULL.concurrency})`, positiveInt)
    .option('--runs <n>', `measured runs per side, the median is reported (default ${FULL.runs})`, positiveInt)
    .option('--profile <dir>', 'run the apiservers with node --cpu-prof, leaving their CPU profiles in <dir>');
  const { quick, ...given } = parseCommandLine<Partial<PluginBenchOptions> & { quick?: boolean }>(program, argv);
  return { ...FULL, ...(quick ? QUICK : {}), ...given };
}
