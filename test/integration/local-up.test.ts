import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../pkg/util/free-port';
import { waitFor } from '../support/wait-for';

const LOCAL_UP_BIN = join(__dirname, '..', '..', 'dist', 'cmd', 'local-up', 'main.js');

interface LocalUp {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Every line the three processes wrote, parsed where JSON. */
  lines: () => Record<string, any>[];
}

const running: LocalUp[] = [];
const dirs: string[] = [];

/** Starts `make run`'s process (dist/cmd/local-up) on a throwaway store and data directory. */
function localUp(args: string[]): LocalUp {
  if (!existsSync(LOCAL_UP_BIN))
    throw new Error(`${LOCAL_UP_BIN} is missing: run \`npm run build\` (make test does) before this test`);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-local-up-'));
  dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_LOG_LEVEL: 'info', SVC_LOG_FORMAT: 'json' };
  delete env.SVC_METRICS_LISTEN;
  const child = spawn(process.execPath, [LOCAL_UP_BIN, '--store', 'memory://', '--data-dir', dataDir, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, any>;
        } catch {
          return { msg: l };
        }
      });
  const up = { child, exited, lines };
  running.push(up);
  return up;
}

const metricsUrl = (up: LocalUp) =>
  up.lines().find((l) => l.msg === 'serving /metrics and /healthz')?.url as string | undefined;

afterEach(async () => {
  for (const up of running.splice(0)) {
    if (up.child.exitCode === null) up.child.kill('SIGTERM');
    await up.exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('local-up (make run)', () => {
  it("two side by side both run: the controller-manager's metrics port is a free one by default", async () => {
    const first = localUp(['--listen', `127.0.0.1:${await freePort()}`]);
    const second = localUp(['--listen', `127.0.0.1:${await freePort()}`]);
    const urls = await waitFor(
      () => {
        const [a, b] = [metricsUrl(first), metricsUrl(second)];
        return a && b && [a, b];
      },
      { timeoutMs: 20_000, what: 'both controller-managers to serve metrics' },
    );
    expect(urls[0]).not.toBe(urls[1]);
    for (const url of urls) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect([first.child.exitCode, second.child.exitCode]).toEqual([null, null]);
  });

  it('--metrics-listen fixes the metrics address', async () => {
    const port = await freePort();
    const up = localUp(['--listen', `127.0.0.1:${await freePort()}`, '--metrics-listen', `127.0.0.1:${port}`]);
    const url = await waitFor(() => metricsUrl(up), {
      timeoutMs: 20_000,
      what: 'the controller-manager to serve metrics',
    });
    expect(url).toBe(`http://127.0.0.1:${port}`);
  });

  describe("when something else holds the apiserver's port", () => {
    let other: Server;
    const asked: string[] = [];

    beforeEach(async () => {
      // It even answers /readyz: only the apiserver child's own word says the apiserver is up.
      other = createServer((req, res) => {
        asked.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    });

    afterEach(() => new Promise<void>((resolve) => other.close(() => resolve())));

    it('stops with an error before starting the controller-manager, which never talks to the other server', async () => {
      const port = (other.address() as { port: number }).port;
      const up = localUp(['--listen', `127.0.0.1:${port}`]);
      expect(await up.exited).toBe(1);
      expect(up.lines().some((l) => /EADDRINUSE/.test(JSON.stringify(l)))).toBe(true);
      expect(up.lines().filter((l) => l.msg === 'serving /metrics and /healthz')).toEqual([]);
      expect(asked).toEqual([]);
    });
  });
});
