import { performance } from 'node:perf_hooks';
import { withPhaseProgress } from '../apiserver/phase-progress';
import type { PluginApiserver } from './apiserver';
import { IndexProgressReader } from './index-progress';
import { ITEMS_PATH, ITEMS_TYPE, PLUGIN_PATH } from './plugin-folder';

/** How long a start may take before the benchmark gives up. */
const START_DEADLINE_MS = 10 * 60_000;
/** How often the Plugin object and the model's API are asked: the resolution of the times below. */
const POLL_INTERVAL_MS = 25;

/** When a start reached each point, in milliseconds from spawning the apiserver. */
export interface StartTimes {
  /** `/healthz` answers 200. */
  healthy: number;
  /** The Plugin's `status.phase` is STARTED (written by this start). */
  started: number;
  /** The model's list answers 200: its indexes are built (503 until then). */
  served: number;
}

/** The plugin's phase as this start wrote it: undefined while the stored status is an earlier start's. */
interface PluginState {
  phase?: string;
  message?: string;
}

interface PluginObject {
  status?: { phase?: string; message?: string; conditions?: { type?: string; lastTransitionTime?: string }[] };
}

/** The phase, when the Ready condition was written after `sinceWallMs` (else the status is left from an earlier run). */
export function freshPhase(object: PluginObject | undefined, sinceWallMs: number): PluginState {
  const status = object?.status ?? {};
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready');
  const written = Date.parse(ready?.lastTransitionTime ?? '');
  return written >= sinceWallMs ? { phase: status.phase, message: status.message } : {};
}

/**
 * Waits until the benchmark plugin of `server` is STARTED and its model's
 * API serves (indexes built), showing on stderr the phase, the time so far
 * and the index builds' progress (objects indexed, over every index); throws
 * when the plugin is FAILED or the deadline passes.
 */
export async function waitForPluginStart(server: PluginApiserver, expectedIndexWork: number): Promise<StartTimes> {
  const progress = new IndexProgressReader(server.process.logFile, ITEMS_TYPE);
  const label = expectedIndexWork > 0 ? 'starting the plugin, indexing' : 'starting the plugin';
  return withPhaseProgress(label, Math.max(expectedIndexWork, 1), async (update) => {
    const times: Partial<StartTimes> = { healthy: server.healthyAfterMs };
    for (;;) {
      const elapsed = performance.now() - server.spawnedAt;
      if (elapsed > START_DEADLINE_MS) throw new Error(`the plugin did not start within ${START_DEADLINE_MS} ms`);
      const state = times.started === undefined ? await pluginState(server) : { phase: 'STARTED' };
      if (state.phase === 'FAILED') throw new Error(`the plugin FAILED: ${state.message}`);
      if (state.phase === 'STARTED') times.started ??= performance.now() - server.spawnedAt;
      if (times.started !== undefined && (await served(server))) {
        update(Math.max(expectedIndexWork, 1), `${state.phase}, API serving`);
        return { ...times, served: performance.now() - server.spawnedAt } as StartTimes;
      }
      const built = progress.read();
      update(built.done, `${state.phase ?? 'PENDING'}, ${(elapsed / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  });
}

async function pluginState(server: PluginApiserver): Promise<PluginState> {
  const answer = await server.api.call({ method: 'GET', path: PLUGIN_PATH });
  return answer.status === 200 ? freshPhase(answer.json as PluginObject, server.spawnedAtWallMs) : {};
}

async function served(server: PluginApiserver): Promise<boolean> {
  return (await server.api.call({ method: 'GET', path: `${ITEMS_PATH}?limit=1` })).status === 200;
}
