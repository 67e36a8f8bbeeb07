import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../pkg/util/free-port';
import { measureCpu, threadCpuMillis } from '../support/process-cpu';
import { createMany } from './load';
import { MODELS, person, writeBenchPlugins, type Variant } from './plugins';

// Writes to a plugin model with two index functions (run in a V8 isolate of the model's own, ADR 0030) against the
// same model with the same two indexes declared as paths (the apiserver's own code), in one apiserver, alternating
// runs. Goal: function indexes reach at least 90% of the path indexes' write throughput.
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
    const rates: Record<Variant, number[]> = { paths: [], functions: [] };
    // The apiserver's CPU time per write (all its threads, index isolates included), in µs: steadier than writes/s
    // on a machine whose other work comes and goes.
    const cpu: Record<Variant, number[]> = { paths: [], functions: [] };
    // Of which on its main thread: the rest is its other threads (GC helpers, isolated-vm's timer thread, workers).
    const mainCpu: Record<Variant, number[]> = { paths: [], functions: [] };
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
    await round('paths', 0); // warm-up, not counted
    await round('functions', 0);
    rates.paths = [];
    rates.functions = [];
    cpu.paths = [];
    cpu.functions = [];
    mainCpu.paths = [];
    mainCpu.functions = [];
    for (let run = 1; run <= options.runs; run++) {
      // Alternate which goes first, so that neither always meets a fuller store.
      const order: Variant[] = run % 2 ? ['paths', 'functions'] : ['functions', 'paths'];
      for (const variant of order) await round(variant, run);
    }
    const [paths, functions] = [median(rates.paths), median(rates.functions)];
    const ratio = functions / paths;
    // Each run's two rounds ran back to back: their ratio is less exposed to a machine whose load changes.
    const paired = median(rates.functions.map((f, i) => f / rates.paths[i]));
    console.log(
      `Plugin index functions: ${options.writes} creates per run, ${options.inFlight} in flight, median of ${options.runs} runs, store ${options.store}`,
    );
    console.log(`  path indexes (baseline)   ${paths.toFixed(0).padStart(7)} writes/s`);
    console.log(`  function indexes          ${functions.toFixed(0).padStart(7)} writes/s`);
    console.log(
      `  ratio                     ${(ratio * 100).toFixed(0).padStart(6)}%   goal >= ${GOAL * 100}%  ${ratio >= GOAL ? 'OK' : 'MISS'}`,
    );
    console.log(`  median of per-run ratios  ${(paired * 100).toFixed(0).padStart(6)}%`);
    const [cpuPaths, cpuFunctions] = [median(cpu.paths), median(cpu.functions)];
    console.log(
      `  server CPU per write       paths ${cpuPaths.toFixed(0)} µs, functions ${cpuFunctions.toFixed(0)} µs: a CPU-bound server would reach ${((cpuPaths / cpuFunctions) * 100).toFixed(0)}%`,
    );
    console.log(
      `  of which the main thread   paths ${median(mainCpu.paths).toFixed(0)} µs, functions ${median(mainCpu.functions).toFixed(0)} µs`,
    );
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
