/**
 * The backends benchmark (bench/README.md): `memory://`, `file://` and `redis://`
 * side by side in one run, on the storage benchmark's model: write
 * throughput, a page of a list at `--objects` objects, and how long the
 * `file://` store takes to reopen at that size (see bench/README.md).
 *
 * @example node dist/bench/backends/main.js --objects 20000 --ops 5000
 */
import { readdirSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { FileStorage, openStorage, type Storage } from '../../pkg/storage';
import { BENCH_INDEXES, ONE_PERCENT_FILTER, benchObject, updatedObject } from '../storage/bench-model';
import { runConcurrently } from '../support/concurrency';
import { collectGarbage } from '../support/garbage';
import { parseCommandLine, positiveInt } from '../support/options';
import { formatMs, formatRate, renderTable, say } from '../support/report';
import { runBench } from '../support/run-bench';
import { openBenchSession, withBenchSession, type BenchSession } from '../support/session';
import { median } from '../support/stats';
import { timeCalls, warmUp } from '../support/timing';

const TYPE = 'benchpersons.bench.svc.run';
const WRITE_CONCURRENCY = 32;
const LOAD_CONCURRENCY = 64;

interface BackendFigures {
  name: string;
  createsPerSecond: number;
  updatesPerSecond: number;
  loadPerSecond: number;
  listMs: number;
  filteredListMs: number;
}

interface BackendsBenchOptions {
  objects: number;
  ops: number;
}

runBench('backends', async () => {
  const program = new Command('bench-backends')
    .option('--objects <n>', 'objects the lists and the reopen are measured at', positiveInt, 100_000)
    .option('--ops <n>', 'creates, then as many updates, per write round', positiveInt, 10_000);
  const options = parseCommandLine<BackendsBenchOptions>(program, process.argv.slice(2));
  await withBenchSession(await openBenchSession('backends'), (session) => run(session, options));
});

async function run(session: BenchSession, options: BackendsBenchOptions): Promise<void> {
  const backends: [string, () => Promise<Storage>][] = [
    ['memory://', () => openStorage('memory://')],
    ['file://', () => openStorage(`file://${join(session.dir, 'writes')}`)],
    ['redis://', () => openStorage(session.storeUrl)],
  ];
  const figures: BackendFigures[] = [];
  for (const [name, open] of backends) figures.push(await measureBackend(name, open, options));
  const reopen = await measureReopen(join(session.dir, 'reopen'), options.objects);

  say(
    `\nBackends benchmark: ${options.ops} creates then updates (${WRITE_CONCURRENCY} in flight), ` +
      `lists at ${options.objects} objects; ${cpus()[0]?.model.trim()}, ${cpus().length} cores, Node ${process.version}, ` +
      `Redis ${session.redis.origin}\n`,
  );
  say(
    renderTable(
      ['backend', 'creates/s', 'updates/s', `load to ${options.objects}/s`, 'list 20', 'list 20, 1% label'],
      figures.map((f) => [
        f.name,
        formatRate(f.createsPerSecond),
        formatRate(f.updatesPerSecond),
        formatRate(f.loadPerSecond),
        formatMs(f.listMs),
        formatMs(f.filteredListMs),
      ]),
    ) + '\n',
  );
  say(
    renderTable(
      ['file:// reopen at ' + options.objects + ' objects', 'files', 'open', 'open + defineType + first list'],
      reopen.map((r) => [r.what, `${r.mib.toFixed(1)} MiB`, formatMs(r.openMs), formatMs(r.readyMs)]),
    ),
  );
}

/** Writes, then loads to `objects` and times two lists, on one backend. */
async function measureBackend(
  name: string,
  open: () => Promise<Storage>,
  { objects, ops }: { objects: number; ops: number },
): Promise<BackendFigures> {
  process.stderr.write(`${name}: writes\n`);
  const storage = await open();
  try {
    await storage.defineType(TYPE, BENCH_INDEXES);
    collectGarbage();
    const createMs = await runConcurrently(ops, WRITE_CONCURRENCY, (i) => storage.create(TYPE, benchObject(i)));
    const updateMs = await runConcurrently(ops, WRITE_CONCURRENCY, (i) =>
      storage.update(TYPE, benchObject(i).metadata.name ?? '', (current) => updatedObject(current, i)),
    );
    process.stderr.write(`${name}: loading to ${objects}\n`);
    const load = Math.max(0, objects - ops);
    const loadMs = await runConcurrently(load, LOAD_CONCURRENCY, (i) => storage.create(TYPE, benchObject(ops + i)));
    const list = () => storage.list(TYPE, { limit: 20 });
    const filtered = () => storage.list(TYPE, { limit: 20, labelSelector: [ONE_PERCENT_FILTER] });
    await warmUp(list, 10);
    const listMs = median(await timeCalls(list, 35));
    await warmUp(filtered, 10);
    const filteredListMs = median(await timeCalls(filtered, 35));
    return {
      name,
      createsPerSecond: ops / (createMs / 1000),
      updatesPerSecond: ops / (updateMs / 1000),
      loadPerSecond: load / (loadMs / 1000),
      listMs,
      filteredListMs,
    };
  } finally {
    await storage.close();
  }
}

/** Fills a `file://` store to `objects`, then times reopening it from the journal alone and from a snapshot. */
async function measureReopen(dir: string, objects: number) {
  process.stderr.write(`file://: reopen at ${objects}\n`);
  const noSnapshots = { snapshotBytes: Number.MAX_SAFE_INTEGER };
  const filling = await FileStorage.open(dir, noSnapshots);
  await filling.defineType(TYPE, BENCH_INDEXES);
  await runConcurrently(objects, LOAD_CONCURRENCY, (i) => filling.create(TYPE, benchObject(i)));
  await filling.close();
  const journalOnly = await timeReopen(dir, 'journal only', noSnapshots);
  const snapshotting = await FileStorage.open(dir, noSnapshots);
  await snapshotting.snapshot();
  await snapshotting.close();
  const fromSnapshot = await timeReopen(dir, 'snapshot, empty journal', noSnapshots);
  return [journalOnly, fromSnapshot];
}

async function timeReopen(dir: string, what: string, options: { snapshotBytes: number }) {
  collectGarbage();
  const started = performance.now();
  const storage = await FileStorage.open(dir, options);
  const openMs = performance.now() - started;
  await storage.defineType(TYPE, BENCH_INDEXES);
  const page = await storage.list(TYPE, { limit: 20 });
  const readyMs = performance.now() - started;
  if (page.total !== storage.openStats.objects)
    throw new Error(`reopened with ${page.total} objects, expected ${storage.openStats.objects}`);
  await storage.close();
  const mib = readdirSync(dir).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0) / 2 ** 20;
  return { what, mib, openMs, readyMs };
}
