/**
 * `make drill`: the failover drill through processes (see process-drill.ts
 * and bench/README.md): a Sentinel set, three apiservers, two
 * controller-managers; the primary and then the leading controller-manager
 * killed with SIGKILL under load. Prints what it measured; the processes'
 * logs stay in the directory it names when it fails.
 *
 * @example node dist/bench/drill/processes-main.js --seconds 5
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../support/run-bench';
import { loadFor } from './load-for';
import { runProcessDrill, type ProcessDrillResult } from './process-drill';

/** `--seconds N`: how long the load runs before, between and after the kills (default 5). */
function seconds(argv: string[]): number {
  const at = argv.indexOf('--seconds');
  const value = at < 0 ? 5 : Number(argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error('--seconds takes a positive number');
  return value;
}

function print(result: ProcessDrillResult): void {
  const { verdict, outages, gc } = result;
  const lines = [
    `time to the new primary (down-after 1 s): ${result.promotedMs} ms`,
    `requests failed (503 or no answer): ${result.failedRequests}, of which 500: ${result.internalErrors}`,
    `loops without an answer, first failure to next success: p50 ${outages.p50} ms, max ${outages.max} ms (${outages.count} outages)`,
    `writes acknowledged (ack=replica): ${verdict.acknowledged}; acknowledged writes lost: ${verdict.lost.length}`,
    `watch events skipped: ${verdict.skipped}, repeated: ${verdict.repeated}, lost and not followed by 410: ${verdict.wrongEvents}${verdict.breaks.map((b) => `\n  ${b}`).join('')}`,
    `watches ended with 410: ${verdict.expiredWatches}; watches opened again after a break: ${result.watchResumes}`,
    `gc: ${gc.released} objects released, ${gc.releasedAfterPrimaryKill} after the primary's kill, ${gc.releasedAfterLeaderKill} after the leader's; all removed ${gc.drainMs} ms after the load ended`,
    `time for the other controller-manager to take the lease: ${result.takeoverMs} ms`,
    `leader samples: ${result.leaderSamples}, with two leaders at once: ${result.leaderOverlaps}`,
    `controller-managers that lost their lease on their own and were started again: ${result.leaseLosses}`,
  ];
  for (const line of lines) console.log(line);
}

runBench('drill', async () => {
  const ms = seconds(process.argv.slice(2)) * 1000;
  const logDir = mkdtempSync(join(tmpdir(), 'svc-drill-'));
  console.log(
    `== failover drill through processes: primary + 2 replicas + 3 Sentinels, 3 apiservers (ack=replica), 2 controller-managers ==`,
  );
  try {
    const result = await runProcessDrill({
      loadMs: ms,
      counters: 24,
      watchersPerApiserver: 2,
      logDir,
      lease: ['15s', '10s', '2s'],
      wait: loadFor,
      say: (line) => console.log(`- ${line}`),
    });
    print(result);
    rmSync(logDir, { recursive: true, force: true });
  } catch (err) {
    console.error(`the processes' logs are in ${logDir}`);
    throw err;
  }
});
