import { Command, InvalidArgumentError } from 'commander';
import type { IndexLayout } from '../../pkg/storage/redis/keys';
import type { ObjectCompression } from '../../pkg/storage/redis/stored-objects';
import { indexLayout } from '../storage/options';

/** The settings of one scale benchmark run. */
export interface ScaleOptions {
  /** Which parts run. */
  only: ('http' | 'storage' | 'unions')[];
  /** Object counts the storage part measures at, ascending (the last is the big one: memory, rebuild). */
  sizes: number[];
  /** Persons the HTTP part loads (1% gold). */
  httpObjects: number;
  /** Requests per measured HTTP run. */
  requests: number;
  /** Measured HTTP runs per server, alternating. */
  runs: number;
  /** How the storage part keeps index sets (ADR 0025). */
  indexLayout: IndexLayout;
  /** How the storage part keeps objects (ADR 0026). */
  compression: ObjectCompression;
  /** Whether the storage part declares the pair index (ADR 0023) beside the model's own indexes. */
  pair: boolean;
}

const positive = (text: string): number => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};

/** Parses the command line (see bench/README.md, "scale"). */
export function parseScaleOptions(argv: readonly string[]): ScaleOptions {
  const program = new Command('bench-scale')
    .description('Label pages at scale: over HTTP against a bare server, growth to 1M, memory, rebuild')
    .option('--only <parts>', 'parts to run, comma-separated: http, storage, unions', 'http,storage')
    .option('--sizes <list>', 'object counts for the storage part, ascending', '10000,1000000')
    .option('--http-objects <n>', 'persons loaded for the HTTP part', positive, 20_000)
    .option('--requests <n>', 'requests per measured HTTP run', positive, 5_000)
    .option('--runs <n>', 'measured HTTP runs per server', positive, 3)
    .option('--index-layout <layout>', 'index layout of the storage part: plain or bucketed', indexLayout, 'plain')
    .option('--compression <codec>', 'object compression of the storage part: none or deflate', compression, 'none')
    .option('--no-pair', "the storage part declares only the model's own indexes, without the pair index")
    .parse(argv, { from: 'node' });
  // commander hands --only and --sizes over as written; every other option is parsed already.
  const raw = program.opts<Omit<ScaleOptions, 'only' | 'sizes'> & { only: string; sizes: string }>();
  const sizes = raw.sizes.split(',').map(positive);
  if (sizes.some((n, i) => i > 0 && n <= sizes[i - 1])) throw new Error('--sizes must be ascending');
  const only = raw.only.split(',').map((part) => {
    if (part !== 'http' && part !== 'storage' && part !== 'unions') throw new Error(`--only: unknown part "${part}"`);
    return part;
  });
  return { ...raw, only, sizes };
}

function compression(text: string): ObjectCompression {
  if (text !== 'none' && text !== 'deflate') throw new InvalidArgumentError('expected none or deflate');
  return text;
}
