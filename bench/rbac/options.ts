import { Command, InvalidArgumentError } from 'commander';
import { commaList, parseCommandLine, positiveInt } from '../support/options';

/** The parts of the RBAC benchmark, in the order they run. */
export const PARTS = ['decisions', 'insight', 'get', 'conditions', 'condition-watch', 'propagation', 'audit'] as const;
/**
 * One part: in-process decisions, access insight in process, end-to-end GET against AlwaysAllow, conditional rules
 * against unconditional ones, 1,000 conditional watchers, role-change propagation, or audit levels end to end.
 */
export type Part = (typeof PARTS)[number];

/** Everything the RBAC benchmark can be told; see `--help`. */
export interface RbacBenchOptions {
  /** The parts to run (`--only`), in PARTS order. */
  parts: Part[];
  /** The world (the decisions' roles, and the noise of the end-to-end parts). */
  roles: number;
  rules: number;
  users: number;
  bindings: number;
  /** Timed decisions per contender. */
  decisions: number;
  /** GET: persons stored, requests per measured run, warm-up requests per server, requests in flight, measured runs. */
  objects: number;
  requests: number;
  warmup: number;
  concurrency: number;
  runs: number;
  /** Propagation: apiserver replicas, and how many times the template changes. */
  replicas: number;
  changes: number;
  /** Insight: users bound, through one binding, to a role depending on a template (the impact review's reach). */
  staff: number;
  /** When set, the apiservers run with `--cpu-prof` and leave `<name>.cpuprofile` in this directory. */
  profile?: string;
}

/** The defaults: the sizes bench/README.md records. */
export const DEFAULTS: Omit<RbacBenchOptions, 'parts'> = {
  roles: 1_000,
  rules: 100,
  users: 2_000,
  bindings: 10_000,
  decisions: 200_000,
  objects: 1_000,
  requests: 20_000,
  warmup: 3_000,
  concurrency: 32,
  runs: 3,
  replicas: 3,
  changes: 100,
  staff: 10_000,
};

const PART_LIST = `a comma list of ${PARTS.join(', ')}`;

/** One part's name; an unknown name is refused. */
const partName = (name: string): Part => {
  if (!(PARTS as readonly string[]).includes(name)) throw new InvalidArgumentError(`expected ${PART_LIST}`);
  return name as Part;
};

/** `decisions,get` → those parts in PARTS order. */
const partList = (value: string): Part[] => {
  const names = commaList(partName, PART_LIST)(value);
  return PARTS.filter((p) => names.includes(p));
};

/**
 * Parses the command line (without `node` and the script): every part by default, `--only` to pick some,
 * and each size overridden by its flag.
 *
 * @example parseRbacBenchOptions(['--only', 'get', '--runs', '1'])
 */
export function parseRbacBenchOptions(argv: readonly string[]): RbacBenchOptions {
  const d = DEFAULTS;
  const program = new Command('bench-rbac')
    .description(
      'Benchmarks RBAC: in-process decisions against a linear scan; end to end, GET with RBAC ' +
        "against AlwaysAllow, and how fast a role template's change is enforced on every apiserver replica. " +
        'Redis: REDIS_URL, or a private redis-server on a free port. Build first: npm run build.',
    )
    .option('--only <parts>', `comma list of the parts to run: ${PARTS.join(', ')} (default: all)`, partList)
    .option('--roles <n>', `roles (default ${d.roles})`, positiveInt)
    .option('--rules <n>', `rules per role (default ${d.rules})`, positiveInt)
    .option('--users <n>', `users (default ${d.users})`, positiveInt)
    .option('--bindings <n>', `role bindings (default ${d.bindings})`, positiveInt)
    .option('--decisions <n>', `timed decisions per contender (default ${d.decisions})`, positiveInt)
    .option('--objects <n>', `get: persons stored (default ${d.objects})`, positiveInt)
    .option('--requests <n>', `get: requests per measured run (default ${d.requests})`, positiveInt)
    .option('--warmup <n>', `get: warm-up requests per server (default ${d.warmup})`, positiveInt)
    .option('--concurrency <n>', `get: requests in flight (default ${d.concurrency})`, positiveInt)
    .option('--runs <n>', `get: measured runs per server, the median is reported (default ${d.runs})`, positiveInt)
    .option('--replicas <n>', `propagation: apiserver replicas on the same Redis (default ${d.replicas})`, positiveInt)
    .option('--staff <n>', `insight: users a template change reaches (default ${d.staff})`, positiveInt)
    .option('--changes <n>', `propagation: changes of the role template (default ${d.changes})`, positiveInt)
    .option(
      '--profile <dir>',
      'run the apiservers with --cpu-prof; each leaves <name>.cpuprofile in <dir> (open in Chrome DevTools)',
    );
  const { only, ...given } = parseCommandLine<Partial<RbacBenchOptions> & { only?: Part[] }>(program, argv);
  return { ...DEFAULTS, ...given, parts: only ?? [...PARTS] };
}
