import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../pkg/util/free-port';
import { measureCpu, threadCpuMillis } from '../support/process-cpu';
import { createMany } from './load';
import { MODELS, VARIANTS, person, writeBenchPlugins, type Variant } from './plugins';

// Writes to a plugin model with two index functions against the same model with the same two indexes declared as
// paths (the apiserver's own code), in one apiserver, in runs whose order rotates. The functions come in two shapes:
// reading a path (answered in the apiserver, ADR 0065) and doing more (run in a V8 isolate of the model's own,
// ADR 0030). Goal: function indexes reach at least 90% of the path indexes' write throughput.
const GOAL = 0.9;

interface Options {
  store: string;
  writes: number;
  runs: number;
  inFlight: number;
  /** A folder for the apiserver's CPU profile (`node --cpu-prof`), written when it stops; none when unset. */
  profileDir?: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { store: 'memory://', writes: 4000, runs: 5, inFlight: 16 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--store') options.store = value;
    else if (flag === '--writes') options.writes = Number(value);
    else if (flag === '--runs') options.runs = Number(value);
    else if (flag === '--in-flight') options.inFlight = Number(value);
    else if (flag === '--cpu-prof-dir') options.profileDir = value;
    else
      throw new Error(
        `unknown flag ${flag}; flags: --store <url> --writes <n> --runs <n> --in-flight <n> --cpu-prof-dir <dir>`,
      );
  }
  return options;
}

async function startApiserver(
  pluginsDir: string,
  store: string,
  profileDir: string | undefined,
): Promise<{ url: string; pid?: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
      join(__dirname, '..', '..', 'cmd', 'apiserver', 'main.js'),
      ...['--listen', `127.0.0.1:${port}`, '--store', store, '--authorization-mode', 'AlwaysAllow'],
      ...['--plugins-dir', pluginsDir],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, SVC_LOG_LEVEL: 'warn' } },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await Promise.all(
      Object.values(MODELS).map((m) =>
        fetch(`${url}/apis/${m.group}/v1/${m.plural}?limit=1`).then(
          (r) => r.status === 200,
          () => false,
        ),
      ),
    );
    if (ready.every(Boolean)) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error('the apiserver or its bench plugins did not start within 30s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-plugin-index-'));
  writeBenchPlugins(dir);
  const server = await startApiserver(dir, options.store, options.profileDir);
  try {
    const series = () => Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
    let rates = series();
    // The apiserver's CPU time per write (all its threads, index isolates included), in µs: steadier than writes/s
    // on a machine whose other work comes and goes.
    let cpu = series();
    // Of which on its main thread: the rest is its other threads (GC helpers, isolated-vm's timer thread, workers).
    let mainCpu = series();
    const mainThread = () => (server.pid === undefined ? undefined : threadCpuMillis(server.pid, server.pid));
    const round = async (variant: Variant, run: number) => {
      const { group, plural } = MODELS[variant];
      const url = `${server.url}/apis/${group}/v1/${plural}`;
      const mainBefore = mainThread();
      const measured = await measureCpu({ apiserver: server.pid }, () =>
        createMany(url, options.writes, options.inFlight, (i) => person(variant, run, i)),
      );
      const mainAfter = mainThread();
      rates[variant].push(measured.result);
      cpu[variant].push(((measured.cpu.apiserver ?? NaN) * 1000) / options.writes);
      mainCpu[variant].push((((mainAfter ?? NaN) - (mainBefore ?? NaN)) * 1000) / options.writes);
      process.stderr.write(
        `run ${run} ${variant}: ${measured.result.toFixed(0)} writes/s, ${cpu[variant].at(-1)!.toFixed(0)} µs CPU/write ` +
          `(main thread ${mainCpu[variant].at(-1)!.toFixed(0)})\n`,
      );
    };
    for (const variant of VARIANTS) await round(variant, 0); // warm-up, not counted
    [rates, cpu, mainCpu] = [series(), series(), series()];
    for (let run = 1; run <= options.runs; run++) {
      // Rotate which goes first, so that none always meets a fuller store or a warmer process.
      const order = VARIANTS.map((_, i) => VARIANTS[(i + run) % VARIANTS.length]);
      for (const variant of order) await round(variant, run);
    }
    console.log(
      `Plugin index functions: ${options.writes} creates per run, ${options.inFlight} in flight, median of ${options.runs} runs, store ${options.store}`,
    );
    const paths = median(rates.paths);
    const cpuPaths = median(cpu.paths);
    console.log(
      `  path indexes (baseline)       ${paths.toFixed(0).padStart(7)} writes/s, ${cpuPaths.toFixed(0)} µs CPU/write (main thread ${median(mainCpu.paths).toFixed(0)})`,
    );
    const labels: Record<Exclude<Variant, 'paths'>, string> = {
      pathFunctions: 'functions reading a path',
      isolateFunctions: 'functions run in the isolate',
    };
    for (const variant of ['pathFunctions', 'isolateFunctions'] as const) {
      const rate = median(rates[variant]);
      const ratio = rate / paths;
      // Each run's rounds ran back to back: their ratio is less exposed to a machine whose load changes.
      const paired = median(rates[variant].map((r, i) => r / rates.paths[i]));
      const cpuShare = cpuPaths / median(cpu[variant]);
      console.log(
        `  ${labels[variant].padEnd(29)} ${rate.toFixed(0).padStart(7)} writes/s, ${median(cpu[variant]).toFixed(0)} µs CPU/write (main thread ${median(mainCpu[variant]).toFixed(0)})`,
      );
      console.log(
        `    ratio ${(ratio * 100).toFixed(0)}% (per-run median ${(paired * 100).toFixed(0)}%, CPU-bound share ${(cpuShare * 100).toFixed(0)}%)` +
          `   goal >= ${GOAL * 100}%  ${ratio >= GOAL ? 'OK' : 'MISS'}`,
      );
    }
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
