#!/usr/bin/env node
import { throughputDetailTable } from '../apiserver/report';
import { describeMachine, machineInfo } from '../support/machine-info';
import { goalsLine, rate, say } from '../support/report';
import { runBench } from '../support/run-bench';
import { openBenchSession, withBenchSession, type BenchSession } from '../support/session';
import { resolve } from 'node:path';
import { pluginApiserverLauncher, stopPluginApiserver } from './apiserver';
import { INDEX_VARIANTS } from './index-variants';
import { LOAD_CONCURRENCY } from './items';
import { parsePluginBenchOptions, type PluginBenchOptions } from './options';
import { cpuShareLine, indexRate, READ_ROUTE_GOAL_RATIO, routeTable, routeVerdict, startTable } from './report';
import { compareReadRouteWithGet, compareRouteWithGet } from './route-bench';
import { INDEXED_VERSION, measureStart, runFirstVersion, type VariantStart } from './start-bench';

/**
 * The plugins benchmark (see bench/README.md, "plugins"):
 * - start: a plugin's new version declaring indexes starts with the
 *   apiserver over objects its first version created, timed to STARTED and
 *   to its API serving, beside the same start over no object;
 * - route: the plugin's custom route against a generated GET, on the same
 *   apiserver (AlwaysAllow), same load and concurrency; then a route reading
 *   the item through `ctx.client` against the generated GET of that item.
 *
 * @example npm run build && node dist/bench/plugins/main.js --quick
 */
runBench('plugins', async () => {
  const options = parsePluginBenchOptions(process.argv.slice(2));
  await withBenchSession(await openBenchSession('plugins'), (session) => run(session, options));
});

async function run(session: BenchSession, options: PluginBenchOptions): Promise<void> {
  say(`svc plugins benchmark, ${new Date().toISOString()}`);
  for (const line of describeMachine(await machineInfo(session.client), session.redis.origin)) say(`  ${line}`);
  say(`  Settings: ${JSON.stringify(options)}`);
  say('  Apiservers: dist/cmd/apiserver/main.js, one process at a time, --authorization-mode AlwaysAllow');

  const launcher = pluginApiserverLauncher(
    session,
    options.profile === undefined ? undefined : resolve(options.profile),
  );
  const createRate = await runFirstVersion(launcher, options.objects);
  say(
    `\nCreated ${options.objects} items with the plugin's first version (no indexes of its own), ${LOAD_CONCURRENCY} in flight: ` +
      `${rate(createRate ?? 0)} creates/s`,
  );
  let last: VariantStart | undefined;
  for (const [at, variant] of INDEX_VARIANTS.entries()) {
    if (last) await stopPluginApiserver(last.server);
    // The first version drops the indexes the previous variant built, so that this one builds them anew.
    if (at > 0) await runFirstVersion(launcher, 0);
    last = await measureStart(launcher, variant, options.objects);
    reportStart(last);
  }
  if (!last) return;
  const comparison = await compareRouteWithGet(session, last.server, options);
  say(
    `\nRoute vs generated GET: ${options.objects} items, median of ${options.runs} runs of ${options.requests} ` +
      `requests, ${options.concurrency} in flight, on the apiserver of the last start`,
  );
  say(routeTable(comparison));
  say(cpuShareLine(comparison));
  const reading = await compareReadRouteWithGet(session, last.server, options);
  say('\nRoute reading the item through ctx.client vs generated GET of that item, measured the same way');
  say(routeTable(reading, READ_ROUTE_GOAL_RATIO));
  say(cpuShareLine(reading));
  say('\nPer side (CPU per request from /proc over the median run):');
  say(throughputDetailTable([comparison, reading]));
  say(`\n${goalsLine([routeVerdict(comparison.ratio), routeVerdict(reading.ratio, READ_ROUTE_GOAL_RATIO)])}`);
}

function reportStart(start: VariantStart): void {
  say(
    `\nPlugin start, version ${INDEXED_VERSION} declaring ${start.variant.description}, with the apiserver; seconds from spawning ` +
      'the apiserver (baseline: the same start on an empty store; no goal is stated)',
  );
  say(startTable(start.baseline, start.measured));
  say(`Index builds: ${indexRate(start.baseline, start.measured, start.variant.indexCount)}`);
}
