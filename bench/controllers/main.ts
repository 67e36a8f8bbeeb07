#!/usr/bin/env node
/**
 * The controllers benchmark (bench/README.md): how long the gc controller takes
 * from a DELETE to the object's removal, alone on an idle system and for
 * 10k objects marked at once, beside a bare client doing the same removals.
 *
 * @example npm run build && node dist/bench/controllers/main.js --objects 1000 --singles 10
 */
import { Command } from 'commander';
import { ApiClient } from '../../pkg/client';
import { startApiserver } from '../apiserver/servers';
import type { LatencySummary } from '../support/latency-stats';
import { describeMachine, machineInfo } from '../support/machine-info';
import { parseCommandLine, positiveInt } from '../support/options';
import { formatMs, renderTable, say, verdict } from '../support/report';
import { runBench } from '../support/run-bench';
import { openBenchSession, withBenchSession, type BenchSession } from '../support/session';
import { startControllerManagerProcess } from '../support/svc-processes';
import { bareRemover, massDeletion, singleDeletions, type MassResult } from './controllers-bench';

interface ControllersBenchOptions {
  objects: number;
  singles: number;
}

runBench('controllers', async () => {
  const program = new Command('bench-controllers')
    .option('--objects <n>', 'objects marked at once', positiveInt, 10_000)
    .option('--singles <n>', 'single deletions on an idle system', positiveInt, 50);
  const options = parseCommandLine<ControllersBenchOptions>(program, process.argv.slice(2));
  await withBenchSession(await openBenchSession('controllers'), (session) => run(session, options));
});

async function run(session: BenchSession, { objects, singles }: ControllersBenchOptions): Promise<void> {
  say(`svc controllers benchmark, ${new Date().toISOString()}`);
  for (const line of describeMachine(await machineInfo(session.client), session.redis.origin)) say(line);
  say(`  Run:    ${singles} single deletions; ${objects} objects marked at once; logs in ${session.dir}`);
  const apiserver = await startApiserver(session);
  const client = new ApiClient({ server: apiserver.url });

  const baseline = await massDeletion(client, apiserver.url, 'baseline', objects, bareRemover(client));
  await startControllerManagerProcess(session, apiserver.url, 'gc');
  const single = await singleDeletions(client, singles);
  const mass = await massDeletion(client, apiserver.url, 'gc', objects);
  report(single, mass, baseline);
}

function report(s: LatencySummary, mass: MassResult, baseline: MassResult): void {
  say(
    '\nDeletion → removal by the gc controller (baseline: a bare client removing the same marked objects, 8 in flight)',
  );
  say(
    renderTable(
      ['measurement', 'objects', 'p50', 'p99', 'max', 'total', 'removals/s', 'baseline', 'goal', 'result'],
      [
        [
          'single deletion, idle system (DELETE → DELETED event)',
          String(s.count),
          formatMs(s.p50),
          formatMs(s.p99),
          formatMs(s.max),
          '',
          '',
          '',
          'p99 < 1 s',
          verdict(s.p99 < 1000),
        ],
        [
          'objects marked at once (mark seen → DELETED event)',
          String(mass.count),
          formatMs(mass.markToRemoval.p50),
          formatMs(mass.markToRemoval.p99),
          formatMs(mass.markToRemoval.max),
          formatMs(mass.totalMs),
          mass.perSecond.toFixed(0),
          `${baseline.perSecond.toFixed(0)}/s, ${formatMs(baseline.totalMs)}`,
          `all in < 30 s${mass.count === 10_000 ? '' : ' (stated for 10000)'}`,
          verdict(mass.totalMs < 30_000),
        ],
      ],
    ),
  );
}
