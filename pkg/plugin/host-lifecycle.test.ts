import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../storage';
import type { Storage } from '../storage/interface';
import { SchemeManager } from '../registry/scheme';
import type { ResourceStore } from '../registry/resource-store';
import { RouteTable } from '../apiserver/routes';
import { captureLog, type CapturedLog } from '../../test/support/log-capture';
import { waitFor } from '../../test/support/wait-for';
import { PLUGIN_KIND } from './plugin-kind';
import { PluginHost } from './host';
import { writePlugin } from '../../test/support/plugin-folder';

// The plugin lifecycle as a reconciler on the controller runtime's loop: a reconcile that fails is retried with the
// loop's backoff, and a plugin's changes are reconciled one at a time, converging on its Plugin object's last word.
const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-lifecycle-'));
const pluginsDir = join(dir, 'plugins');
mkdirSync(pluginsDir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writePlugin(pluginsDir, 'steady', {
  code: `module.exports = { async start() { await new Promise((r) => setTimeout(r, 50)); } };`,
});

let storage: Storage;
let host: PluginHost;
let plugins: ResourceStore;
let captured: CapturedLog;
let failCreates = 2;

beforeAll(async () => {
  captured = captureLog('debug');
  storage = await openStorage('memory://');
  const schemes = new SchemeManager(storage, captured.log);
  await schemes.register(PLUGIN_KIND, undefined, { platform: true });
  plugins = schemes.lookup(PLUGIN_KIND.group, PLUGIN_KIND.version, PLUGIN_KIND.plural)!.store;
  // The first stores of a Plugin object fail, as when storage is briefly unavailable.
  const create = plugins.create.bind(plugins);
  plugins.create = (...args: Parameters<ResourceStore['create']>) =>
    failCreates-- > 0 ? Promise.reject(new Error('storage unavailable')) : create(...args);
  host = new PluginHost(schemes, new RouteTable(), storage, captured.log, {
    pluginsDir,
    platformVersion: '1.0.0',
    startTimeoutMs: 10_000,
    routeTimeoutMs: 5_000,
    maxBodyBytes: 1024 * 1024,
    rescanIntervalMs: 60_000,
  });
  await host.start();
});

afterAll(async () => {
  await host.stop();
  await storage.close();
});

const phaseOf = async (name: string) => ((await plugins.get(name)).status as { phase?: string } | undefined)?.phase;

describe('the plugin lifecycle on the reconcile loop', () => {
  it('retries a plugin whose Plugin object could not be stored, with backoff, until it is stored and STARTED', async () => {
    await waitFor(async () => (await phaseOf('steady')) === 'STARTED', { timeoutMs: 10_000, what: 'steady STARTED' });
    const retries = captured.lines
      .filter((line) => line.msg === 'reconcile failed; retrying with backoff' && line.key === 'steady')
      .map((line) => line.retries as number);
    expect(retries).toEqual([1, 2]);
    expect(failCreates).toBeLessThan(0);
  });

  it('reconciles a burst of enabled/disabled changes one at a time and ends as the last one says', async () => {
    await waitFor(async () => (await phaseOf('steady')) === 'STARTED', { timeoutMs: 10_000, what: 'steady STARTED' });
    const stoppedBefore = captured.lines.filter((l) => l.msg === 'plugin stopped' && l.plugin === 'steady').length;
    for (const enabled of [false, true, false, true, false]) {
      await plugins.patch('steady', (current) => ({
        ...current,
        spec: { ...(current.spec as Record<string, unknown>), enabled },
      }));
    }
    await waitFor(async () => (await phaseOf('steady')) === 'STOPPED', { timeoutMs: 10_000, what: 'steady STOPPED' });
    const started = captured.lines.filter((l) => l.msg === 'plugin started' && l.plugin === 'steady').length;
    const stopped = captured.lines.filter((l) => l.msg === 'plugin stopped' && l.plugin === 'steady').length;
    // Every start was followed by its stop: no worker is left running for a plugin that is disabled.
    expect(stopped - stoppedBefore).toBeGreaterThanOrEqual(1);
    expect(started).toBe(stopped);

    await plugins.patch('steady', (current) => ({
      ...current,
      spec: { ...(current.spec as Record<string, unknown>), enabled: true },
    }));
    await waitFor(async () => (await phaseOf('steady')) === 'STARTED', { timeoutMs: 10_000, what: 'steady again' });
  });
});
