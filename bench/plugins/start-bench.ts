import { withKeyPrefix } from '../support/session';
import { stopPluginApiserver, type PluginApiserver, type PluginApiserverLauncher } from './apiserver';
import { NO_INDEXES, type IndexVariant } from './index-variants';
import { createItems } from './items';
import { writeBenchPlugin } from './plugin-folder';
import type { MeasuredStart } from './report';
import { waitForPluginStart } from './start-wait';

/** The plugin's version before it declared its indexes, and once it does (the start measured is an upgrade). */
const FIRST_VERSION = '1.0.0';
export const INDEXED_VERSION = '1.1.0';

/** One variant's start over the objects, beside its start over none. */
export interface VariantStart {
  variant: IndexVariant;
  baseline: MeasuredStart;
  measured: MeasuredStart;
  /** The apiserver of the measured start, still running (the route benchmark uses it). */
  server: PluginApiserver;
}

/**
 * The baseline: the same plugin, at the same version with the same indexes,
 * started on an empty store of its own (a key prefix under the session's,
 * removed with it), so that its start has no object to index.
 */
async function emptyStart(launcher: PluginApiserverLauncher, variant: IndexVariant): Promise<MeasuredStart> {
  writeBenchPlugin(launcher.pluginsDir, INDEXED_VERSION, variant);
  const storeUrl = withKeyPrefix(launcher.session.redis.url, `${launcher.session.keyPrefix}:empty-${variant.name}`);
  const server = await launcher.start(`apiserver-empty-${variant.name}`, storeUrl);
  const times = await waitForPluginStart(server, 0);
  await stopPluginApiserver(server);
  return { objects: 0, times };
}

/**
 * Runs the plugin's first version (no indexes of its own) until it serves:
 * with `objects`, creates them through its API (a progress bar) and answers
 * the creation rate (creates/s); without, it only drops the indexes a
 * variant left, so that the next variant builds them again.
 */
export async function runFirstVersion(launcher: PluginApiserverLauncher, objects: number): Promise<number | undefined> {
  writeBenchPlugin(launcher.pluginsDir, FIRST_VERSION, NO_INDEXES);
  const server = await launcher.start('apiserver-first-version', launcher.session.storeUrl);
  try {
    await waitForPluginStart(server, 0);
    return objects > 0 ? (await createItems(server.url, objects)).perSecond : undefined;
  } finally {
    await stopPluginApiserver(server);
  }
}

/**
 * The start benchmark for `variant`: the plugin's version declaring the
 * variant's indexes starts, with the apiserver, over `objects` Items the
 * first version left unindexed; timed from spawning the apiserver until the
 * Plugin is STARTED and until its model's API serves. Leaves that apiserver
 * running.
 */
export async function measureStart(
  launcher: PluginApiserverLauncher,
  variant: IndexVariant,
  objects: number,
): Promise<VariantStart> {
  const baseline = await emptyStart(launcher, variant);
  writeBenchPlugin(launcher.pluginsDir, INDEXED_VERSION, variant);
  const server = await launcher.start(`apiserver-${variant.name}`, launcher.session.storeUrl);
  const times = await waitForPluginStart(server, objects * variant.indexCount);
  return { variant, baseline, measured: { objects, times }, server };
}
