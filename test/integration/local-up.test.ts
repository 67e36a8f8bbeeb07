import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandArgs } from '../support/commands';
import { trustingFetch } from '../../pkg/client/trusting-fetch';
import { freePort } from '../../pkg/util/free-port';
import { kubectlOk, writeKubeconfig } from '../support/kubectl';
import { waitFor } from '../support/wait-for';

const EXAMPLES = join(__dirname, '..', '..', 'manifests', 'examples');
const ADMIN_PASSWORD = 'local-up-admin-password';

interface LocalUp {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Every line the three processes wrote, parsed where JSON. */
  lines: () => Record<string, any>[];
}

const running: LocalUp[] = [];
const dirs: string[] = [];

/** A throwaway folder, removed after the test. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-local-up-'));
  dirs.push(dir);
  return dir;
}

/**
 * Starts `make run`'s process (cmd/local-up, from its sources) on a memory store and a throwaway data directory, unless
 * `args` name others; no HTTPS listener unless `args` ask for one (its default port is fixed).
 */
function localUp(args: string[], dataDir = tempDir()): LocalUp {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SVC_LOG_LEVEL: 'info',
    SVC_LOG_FORMAT: 'json',
    SVC_ADMIN_PASSWORD: ADMIN_PASSWORD,
  };
  for (const name of ['SVC_METRICS_LISTEN', 'SVC_TLS_LISTEN', 'SVC_LISTEN', 'SVC_STORE']) delete env[name];
  const defaults = ['--store', 'memory://', '--tls-listen', 'off', '--data-dir', dataDir];
  const child = spawn(process.execPath, commandArgs('local-up', [...defaults, ...args]), {
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

/** What local-up printed about its HTTPS listener, once it has. */
const httpsLine = (up: LocalUp) =>
  up.lines().find((l) => l.msg === 'serving HTTPS for kubectl and svcctl (docs/kubectl.md)') as
    { server: string; certificateAuthority: string; login: string } | undefined;

/** Runs svcctl with its own config file; rejects with its stderr when it exits non-zero. */
function svcctl(configFile: string, args: string[], stdin = ''): Promise<string> {
  const { SVC_SERVER: _server, SVC_TOKEN: _token, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      commandArgs('svcctl', args),
      { env: { ...env, SVC_CONFIG: configFile } },
      (err, stdout, stderr) => (err ? reject(new Error(`svcctl ${args.join(' ')}: ${stderr}`)) : resolve(stdout)),
    );
    child.stdin?.end(stdin);
  });
}

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

  // One start for two flags (each start is three processes): --tls-listen off is also localUp's default.
  it('--metrics-listen fixes the metrics address; --tls-listen off serves plain HTTP only, and says nothing about HTTPS', async () => {
    const port = await freePort();
    const up = localUp([
      '--listen',
      `127.0.0.1:${await freePort()}`,
      '--metrics-listen',
      `127.0.0.1:${port}`,
      '--tls-listen',
      'off',
    ]);
    const url = await waitFor(() => metricsUrl(up), {
      timeoutMs: 20_000,
      what: 'the controller-manager to serve metrics',
    });
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(httpsLine(up)).toBeUndefined();
    expect(up.lines().find((l) => l.msg === 'apiserver listening')?.secureUrl).toBeUndefined();
  });

  describe('HTTPS beside plain HTTP (the default of make run)', () => {
    it('serves both, says where the CA is, and kubectl with the kubeconfig svcctl writes is the logged-in user', async () => {
      const dataDir = tempDir();
      const [http, https] = [`127.0.0.1:${await freePort()}`, `127.0.0.1:${await freePort()}`];
      const args = ['--listen', http, '--tls-listen', https, '--store', `file://${join(dataDir, 'store')}`];
      const first = localUp(args, dataDir);
      const printed = await waitFor(() => httpsLine(first), { timeoutMs: 20_000, what: 'the HTTPS address' });
      const caFile = join(dataDir, 'tls', 'ca.crt');
      expect(printed).toMatchObject({ server: `https://${https}`, certificateAuthority: caFile });
      expect(printed.login).toBe(
        `svcctl login --server https://${https} --certificate-authority ${caFile} --username admin`,
      );
      expect(first.lines().some((l) => l.msg === 'made a self-signed certificate')).toBe(true);
      const ca = readFileSync(caFile);
      expect((await fetch(`http://${http}/healthz`)).status).toBe(200);
      expect((await trustingFetch(ca)(`https://${https}/healthz`, {})).status).toBe(200);

      const config = join(dataDir, 'svcctl-config');
      const kubeconfig = join(dataDir, 'kubeconfig');
      const login = ['login', '--server', printed.server, '--certificate-authority', caFile, '--username', 'admin'];
      await svcctl(config, [...login, '--password-stdin'], ADMIN_PASSWORD);
      await svcctl(config, ['apply', '-f', join(EXAMPLES, 'person-model.yaml'), '-f', join(EXAMPLES, 'person.yaml')]);
      // Written into a kubeconfig that already names another cluster: that one is kept.
      writeKubeconfig(kubeconfig, { server: 'https://elsewhere.example:6443', token: 'other' });
      expect(await svcctl(config, ['config', 'kubeconfig', '-o', kubeconfig])).toBe(
        `Context "admin@${https}" written to ${kubeconfig} and made current.\n`,
      );
      expect((await kubectlOk(kubeconfig, 'config', 'get-contexts', '-o', 'name')).split('\n').sort()).toEqual([
        '',
        `admin@${https}`,
        'svc',
      ]);
      expect(await kubectlOk(kubeconfig, 'auth', 'whoami')).toMatch(/^Username\s+admin$/m);
      expect(await kubectlOk(kubeconfig, 'get', 'persons')).toMatch(/^ada\s+Ada Lovelace\s+36\s/m);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      const second = localUp(args, dataDir);
      await waitFor(() => httpsLine(second), { timeoutMs: 20_000, what: 'the HTTPS address after the restart' });
      expect(readFileSync(caFile).equals(ca)).toBe(true);
      expect(second.lines().some((l) => l.msg === 'made a self-signed certificate')).toBe(false);
      expect(await kubectlOk(kubeconfig, 'get', 'person', 'ada', '-o', 'jsonpath={.spec.name}')).toBe('Ada Lovelace');
    });
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
