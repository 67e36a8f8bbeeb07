import { typeKeys } from '../../pkg/storage/redis';
import { describeMachine, machineInfo } from '../support/machine-info';
import { goalsLine, say } from '../support/report';
import { BENCH_INDEXES } from './bench-model';
import { benchLists, PAGE_SIZE, SVC_CALLS_PER_RUN, type ListFigures } from './list-bench';
import { LOAD_CONCURRENCY, loadObjects, type LoadFigures } from './load';
import type { BenchOptions } from './options';
import { growthReport, listReport, loadReport, writeReport, type ReportSection } from './report';
import type { StorageBenchSession } from './session';
import { benchWrites, WRITE_CONCURRENCY } from './write-bench';

/** The type the list benchmark fills and lists. */
const LIST_TYPE = 'benchpeople.bench.svc.run';
/** Untimed calls before every timed list measurement (times SVC_CALLS_PER_RUN for svc's cheap calls). */
const WARMUPS = 2;
/** Operations of the untimed warm-up round of the write benchmark. */
const WRITE_WARMUP_OPS = 2_000;

/**
 * Runs the whole storage benchmark in one session and prints its report on
 * stdout (progress goes to stderr): the machine, then the list benchmark at
 * each size (loading the list type up to it first), then the write
 * benchmark, and a count of goals met and missed.
 */
export async function runStorageBench(session: StorageBenchSession, options: BenchOptions): Promise<void> {
  const { storage, client: redis, keyPrefix } = session;

  say(`svc storage benchmark, ${new Date().toISOString()}`);
  for (const line of describeMachine(await machineInfo(redis), session.redis.origin)) say(`  ${line}`);
  say(
    `  Run:    sizes ${options.sizes.join(', ')}; ${options.ops} writes per round; ` +
      `${options.indexLayout} index sets; each figure the median of ${options.runs} runs (svc lists: ${options.runs * SVC_CALLS_PER_RUN} calls), ` +
      `after warm-up calls (lists) or a warm-up round of ${WRITE_WARMUP_OPS} (writes)`,
  );
  say();

  await storage.defineType(LIST_TYPE, BENCH_INDEXES);
  const target = { storage, redis, type: LIST_TYPE, keys: typeKeys(keyPrefix, LIST_TYPE, options.indexLayout) };
  const loads: LoadFigures[] = [];
  const lists: ListFigures[] = [];
  let loaded = 0;
  for (const size of options.sizes) {
    loads.push(await loadObjects(storage, LIST_TYPE, loaded, size));
    loaded = size;
    process.stderr.write(`measuring lists at ${size} objects…\n`);
    lists.push(...(await benchLists(target, size, WARMUPS, options.runs)));
  }
  const sections: ReportSection[] = [];
  const show = (section: ReportSection) => {
    sections.push(section);
    say(section.text);
    say();
  };
  say(`List, page of ${PAGE_SIZE} (baseline: HVALS of every object, JSON.parse, filter and sort in JS)`);
  say(loadReport(loads, LOAD_CONCURRENCY));
  say();
  show(listReport(lists));
  const growth = growthReport(lists);
  if (growth !== undefined) show(growth);

  const writes = await benchWrites(
    { storage, redis, keyPrefix, indexLayout: options.indexLayout },
    options.ops,
    WRITE_WARMUP_OPS,
    options.runs,
  );
  say(
    `Writes, ${WRITE_CONCURRENCY} in flight (baseline: the same Redis commands as bare pipelines, no Lua, no checks)`,
  );
  show(writeReport(writes, WRITE_CONCURRENCY));

  say(goalsLine(sections.flatMap((s) => s.verdicts)));
}
