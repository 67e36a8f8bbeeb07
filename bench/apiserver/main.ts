/**
 * The apiserver benchmark (see bench/README.md, "apiserver"):
 * the real apiserver and a bare Node http baseline, each its own process on
 * the same Redis; GET, list and create throughput against the baseline, and
 * watch delivery latency with many watchers and with fast writes.
 *
 * @example npm run build && node dist/bench/apiserver/main.js --quick
 */
import { resolve } from 'node:path';
import { describeMachine, machineInfo } from '../support/machine-info';
import { goalsMet, say } from '../support/report';
import { runBench } from '../support/run-bench';
import { withBenchSession } from '../support/session';
import { parseBenchOptions, type BenchOptions } from './options';
import { compareOperations, loadPersons } from './phases';
import { comparisonPasses, hasGoal, throughputDetailTable, throughputTable, watchPasses, watchTable } from './report';
import { openApiBenchSession, type ApiBenchSession } from './session';
import { runWatchCase, type WatchCaseResult } from './watch-latency';
import { baselineWatchTarget, svcWatchTarget } from './watch-targets';

runBench('apiserver', async () => {
  const options = parseBenchOptions(process.argv.slice(2));
  const profileDir = options.profile === undefined ? undefined : resolve(options.profile);
  await withBenchSession(await openApiBenchSession(profileDir), (session) => run(session, options));
});

async function run(session: ApiBenchSession, options: BenchOptions): Promise<void> {
  say(`apiserver benchmark, ${new Date().toISOString()}`);
  for (const line of describeMachine(await machineInfo(session.client), session.redis.origin)) say(line);
  say(`Settings: ${JSON.stringify(options)}`);

  const loadRate = await loadPersons(session, options.objects);
  say(`\nLoaded ${options.objects} persons through the apiserver at ${Math.round(loadRate)} creates/s.`);

  const comparisons = await compareOperations(session, options.objects, {
    concurrency: options.concurrency,
    requests: options.requests,
    warmup: options.warmup,
    runs: options.runs,
    redisPid: session.redisPid,
  });
  const targets = [svcWatchTarget(session), baselineWatchTarget(session)];
  const cases: WatchCaseResult[] = [];
  for (const [name, spec] of [
    [
      'many watchers',
      {
        watchers: options.watchers,
        rate: options.watchRate,
        seconds: options.seconds,
        warmupSeconds: options.watchWarmup,
      },
    ],
    [
      'fast writes',
      {
        watchers: options.fastWatchers,
        rate: options.fastRate,
        seconds: options.seconds,
        warmupSeconds: options.watchWarmup,
      },
    ],
  ] as const) {
    for (const target of targets) cases.push(await runWatchCase(target, spec, name));
  }

  say(`\nThroughput: median of ${options.runs} runs of ${options.requests} requests, ${options.concurrency} in flight`);
  say(throughputTable(comparisons));
  say('\nPer server (CPU per request as measured from /proc over the median run):');
  say(throughputDetailTable(comparisons));
  say(
    `\nWatch delivery (write sent → event received), ${options.seconds} s of creates per case after ${options.watchWarmup} s unmeasured:`,
  );
  say(watchTable(cases));
  for (const w of cases.filter((c) => c.firstFailure !== undefined)) {
    say(`  ${w.server}, ${w.watchers} watchers: ${w.failedWatchers} watchers failed; first: ${w.firstFailure}`);
  }
  for (const w of cases.filter((c) => c.writer.firstError !== undefined)) {
    say(`  ${w.server}, ${w.watchers} watchers: a create failed: ${w.writer.firstError}`);
  }
  const svcCases = cases.filter((c) => c.server === 'svc');
  const all = [...comparisons.filter(hasGoal).map(comparisonPasses), ...svcCases.map(watchPasses)];
  say(`\n${goalsMet(all)}`);
}
