#!/usr/bin/env node
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Command, InvalidArgumentError } from 'commander';
import Redis from 'ioredis';
import { ApiClient } from '../../pkg/client';
import { benchRedis } from '../support/redis-server';
import { describeMachine, machineInfo } from '../support/machine-info';
import { startNodeProcess, type NodeProcess } from '../support/node-process';
import { freePort } from '../../pkg/util/free-port';
import { renderTable } from '../support/table';
import { formatMs } from '../support/stats';
import type { LatencySummary } from '../support/latency-stats';
import { startApiserver } from '../apiserver/servers';
import { bareRemover, massDeletion, singleDeletions, type MassResult } from './controllers-bench';

/**
 * The controllers benchmark (issue 3 §5): how long the gc controller takes
 * from a DELETE to the object's removal, alone on an idle system and for
 * 10k objects marked at once, beside a bare client doing the same removals.
 */
const count = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
};
const program = new Command('bench-controllers')
  .option('--objects <n>', 'objects marked at once', count, 10_000)
  .option('--singles <n>', 'single deletions on an idle system', count, 50)
  .parse();
const { objects, singles } = program.opts<{ objects: number; singles: number }>();
const CONTROLLER_MANAGER = resolve(__dirname, '../../cmd/controller-manager/main.js');

async function main(): Promise<void> {
  const redis = await benchRedis();
  const logDir = mkdtempSync(join(tmpdir(), 'svc-bench-controllers-'));
  const admin = new Redis(redis.url);
  const processes: NodeProcess[] = [];
  try {
    console.log(`svc controllers benchmark, ${new Date().toISOString()}`);
    for (const line of describeMachine(await machineInfo(admin), redis.origin)) console.log(line);
    console.log(`  Run:    ${singles} single deletions; ${objects} objects marked at once; logs in ${logDir}`);
    const apiserver = await startApiserver(
      { redisUrl: redis.url, keyPrefix: `bench-${randomBytes(4).toString('hex')}` },
      { logDir },
    );
    processes.push(apiserver.process);
    const client = new ApiClient({ server: apiserver.url });

    const baseline = await massDeletion(client, apiserver.url, 'baseline', objects, bareRemover(client));
    const metricsPort = await freePort();
    const cm = await startNodeProcess({
      script: CONTROLLER_MANAGER,
      args: [
        '--server',
        apiserver.url,
        '--leader-elect=false',
        '--controllers',
        'gc',
        '--metrics-listen',
        `127.0.0.1:${metricsPort}`,
      ],
      readyUrl: `http://127.0.0.1:${metricsPort}/healthz`,
      logFile: join(logDir, 'controller-manager.log'),
    });
    processes.push(cm);
    const single = await singleDeletions(client, singles);
    const mass = await massDeletion(client, apiserver.url, 'gc', objects);
    report(single, mass, baseline);
  } finally {
    for (const p of processes.reverse()) await p.stop();
    admin.disconnect();
    await redis.stop();
  }
}

function report(s: LatencySummary, mass: MassResult, baseline: MassResult): void {
  const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  console.log(
    '\nDeletion → removal by the gc controller (baseline: a bare client removing the same marked objects, 8 in flight)',
  );
  console.log(
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
          pass(s.p99 < 1000),
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
          pass(mass.totalMs < 30_000),
        ],
      ],
    ),
  );
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`benchmark failed: ${err.stack ?? err.message}`);
    process.exit(1);
  },
);
