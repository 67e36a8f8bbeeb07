import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PluginWorker, type PluginWorkerHost } from './plugin-worker';

// A plugin's worker, from outside: a thread that keeps running code with no request under way is stopped, whether
// it spins through timers (so it still answers messages) or blocks in a loop; an idle one started with it is not.
const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BUSY_LIMIT_MS = 2000;

/** A worker of a plugin whose `index.js` is `code`; `crashed` resolves with the reason it was stopped. */
function startWorker(name: string, code: string) {
  const main = join(dir, `${name}.js`);
  writeFileSync(main, code);
  let crashed: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    crashed = resolve;
  });
  const host: PluginWorkerHost = {
    log: () => undefined,
    registerModel: async () => undefined,
    registerRoute: () => undefined,
    warn: () => undefined,
    crashed: (reason) => crashed(reason),
  };
  const worker = new PluginWorker({ name, version: '1.0.0', settings: {}, main }, host, {
    startTimeoutMs: 30_000,
    memoryMb: 128,
    busyLimitMs: BUSY_LIMIT_MS,
  });
  return { worker, stopped, started: worker.start() };
}

const BUSY =
  /^the plugin kept its thread busy \(over 80% of the time\) for \ds with no request under way; its worker was stopped$/;

describe('a plugin worker watched from outside', () => {
  it('is stopped when it spins through timers with no request, and an idle one is not', async () => {
    const idle = startWorker('idle', 'module.exports = { start() { setInterval(() => {}, 1000); } };');
    const spinner = startWorker(
      'spinner',
      `module.exports = { start() {
  const spin = () => { const until = Date.now() + 2; while (Date.now() < until); setImmediate(spin); };
  setImmediate(spin);
} };`,
    );
    await Promise.all([idle.started, spinner.started]);
    let idleStopped: string | undefined;
    void idle.stopped.then((reason) => (idleStopped = reason));
    expect(await spinner.stopped).toMatch(BUSY);
    expect(idleStopped).toBeUndefined();
    await idle.worker.terminate();
  });

  it('is stopped when its thread blocks in a loop with no request', async () => {
    const blocked = startWorker('blocked', 'module.exports = { start() { setTimeout(() => { for (;;); }, 10); } };');
    await blocked.started;
    expect(await blocked.stopped).toMatch(BUSY);
  });
});
