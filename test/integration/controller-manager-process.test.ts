import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningApiServer } from '../../pkg/server/app';
import type { ApiObject } from '../../pkg/api/object';
import { ApiClient, isNotFound, type ResourceRef } from '../../pkg/client';
import { LEASES, type Lease } from '../../pkg/controller';
import { client as rawClient, startTestApiServer } from '../support/apiserver';
import {
  countPersons,
  markPersons,
  seedPersons,
  spawnControllerManager,
  type SpawnedControllerManager,
} from '../support/controller-manager';
import { freePort } from '../../pkg/util/free-port';
import { applyPersonModel, person } from '../support/person';
import { waitFor } from '../support/wait-for';

// The built binary (`npm run build` first; `make test` does): flags and
// environment, credentials on the wire, /healthz and /metrics, signals and
// exit codes. It talks to the in-process apiserver through a proxy that
// records the Authorization header of every request.

const PERSON_RES: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' };
/**
 * Leases short enough that a second process takes over a killed one's within seconds, with a renew deadline long
 * enough that a leader busy collecting on a loaded machine (two test files at a time on two cores) does not lose its
 * lease and exit before the test is done with it. As flags and as environment variables.
 */
const LEASE_FLAGS = [
  '--leader-elect-lease-duration',
  '6s',
  '--leader-elect-renew-deadline',
  '5s',
  '--leader-elect-retry-period',
  '250ms',
];
const LEASE_ENV = {
  SVC_LEADER_ELECT_LEASE_DURATION: '6s',
  SVC_LEADER_ELECT_RENEW_DEADLINE: '5s',
  SVC_LEADER_ELECT_RETRY_PERIOD: '250ms',
};

let server: RunningApiServer;
let client: ApiClient;
let proxy: RecordingProxy;
let dir: string;
const spawned: SpawnedControllerManager[] = [];

beforeAll(async () => {
  server = await startTestApiServer();
  client = new ApiClient({ server: server.url });
  await applyPersonModel(rawClient(server.url));
  proxy = await startRecordingProxy(server.url);
  dir = mkdtempSync(join(tmpdir(), 'svc-cm-process-'));
});
afterEach(async () => {
  for (const cm of spawned.splice(0)) {
    if (cm.child.exitCode === null && cm.child.signalCode === null) cm.child.kill('SIGKILL');
    await cm.exited;
  }
  proxy.authorizations.length = 0;
});
afterAll(async () => {
  await proxy.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * An HTTP proxy to the apiserver (watch streams included) that records each
 * request's Authorization header and forwards the request without it: the
 * apiserver (AlwaysAllow) knows none of these tokens, and would refuse them.
 */
interface RecordingProxy {
  url: string;
  authorizations: string[];
  close(): Promise<void>;
}

async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const authorizations: string[] = [];
  const proxyServer: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? '(none)');
    const { authorization: _recorded, ...headers } = req.headers;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        proxyServer.close(() => resolve());
        proxyServer.closeAllConnections();
      }),
  };
}

function start(args: string[], env: Record<string, string> = {}): SpawnedControllerManager {
  const cm = spawnControllerManager(args, env);
  spawned.push(cm);
  return cm;
}

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const holderOf = async (leaseName: string) => {
  try {
    return (await client.get<Lease>(LEASES, leaseName)).spec?.holderIdentity;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
};
/** Waits until the process of `cm` holds the lease (its identity is `<host>_<pid>_<random>`). */
const waitForLeader = (cm: SpawnedControllerManager, leaseName: string) =>
  waitFor(async () => (await holderOf(leaseName))?.includes(`_${cm.child.pid}_`), {
    what: `process ${cm.child.pid} to lead`,
    timeoutMs: 15_000,
  });
const gone = async (name: string) => {
  try {
    await client.get(PERSON_RES, name);
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
};
async function markAndWaitGone(name: string): Promise<void> {
  await client.create(PERSON_RES, person(name) as ApiObject);
  await client.delete(PERSON_RES, name);
  await waitFor(() => gone(name), { what: `${name} to be removed`, timeoutMs: 15_000 });
}

describe('svc-controller-manager, the process', () => {
  it('sends the --token-file token, serves /healthz and /metrics, collects, and on SIGTERM releases the lease and exits 0', async () => {
    const metricsPort = await freePort();
    const cm = start([
      '--server',
      proxy.url,
      '--token-file',
      file('token', 'proc-token-1\n'),
      '--metrics-listen',
      `127.0.0.1:${metricsPort}`,
      '--leader-elect-resource-name',
      'cm-term',
      ...LEASE_FLAGS,
    ]);
    const metricsUrl = `http://127.0.0.1:${metricsPort}`;
    await waitFor(async () => (await fetch(`${metricsUrl}/healthz`)).status === 200, {
      what: '/healthz',
      timeoutMs: 15_000,
    });
    await waitForLeader(cm, 'cm-term');
    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(`${metricsUrl}/metrics`)).text();
        return text.includes('controller="gc/persons.example.com"') ? text : undefined;
      },
      { what: 'metrics of the persons gc', timeoutMs: 15_000 },
    );
    expect(metrics).toContain('svc_controller_leader{lease="cm-term"} 1');
    expect(metrics).toContain('process_cpu_user_seconds_total');

    await markAndWaitGone('proc-term');
    expect(proxy.authorizations.length).toBeGreaterThan(0);
    expect(new Set(proxy.authorizations)).toEqual(new Set(['Bearer proc-token-1']));

    cm.child.kill('SIGTERM');
    expect(await cm.exited).toBe(0);
    expect(await holderOf('cm-term')).toBe('');
  });

  it('reads a kubeconfig and the environment; killed mid-way (SIGKILL) and started again, it collects the rest', async () => {
    file('kube-token', 'kube-token-2\n');
    const kubeconfig = file(
      'kubeconfig',
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: svc, cluster: {server: "${proxy.url}"}}]`,
        'users: [{name: cm, user: {tokenFile: kube-token}}]',
        'contexts: [{name: cm@svc, context: {cluster: svc, user: cm}}]',
        'current-context: cm@svc',
        '',
      ].join('\n'),
    );
    const env = {
      ...LEASE_ENV,
      SVC_KUBECONFIG: kubeconfig,
      SVC_METRICS_LISTEN: 'off',
      SVC_LEADER_ELECT_RESOURCE_NAME: 'cm-kill',
    };
    const names = await seedPersons(server, 'proc-kill', 600);
    const first = start([], env);
    await waitForLeader(first, 'cm-kill');
    await markPersons(server, names);
    await waitFor(async () => (await countPersons(server, 'proc-kill')) < names.length, {
      what: 'the gc to start removing',
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    expect(await countPersons(server, 'proc-kill')).toBeGreaterThan(0);

    const second = start([], env);
    await waitForLeader(second, 'cm-kill');
    await waitFor(async () => (await countPersons(server, 'proc-kill')) === 0, {
      what: 'the rest to be removed',
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    expect(new Set(proxy.authorizations)).toEqual(new Set(['Bearer kube-token-2']));
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);

  it('exits 1 when another holder takes its lease', async () => {
    const cm = start([
      '--server',
      server.url,
      '--metrics-listen',
      'off',
      '--leader-elect-resource-name',
      'cm-lost',
      ...LEASE_FLAGS,
    ]);
    await waitForLeader(cm, 'cm-lost');
    const lease = await client.get<Lease>(LEASES, 'cm-lost');
    await client.update<Lease>(LEASES, {
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'intruder', leaseDurationSeconds: 60 },
    });
    expect(await cm.exited).toBe(1);
    expect(cm.output()).toContain('LeadershipLostError');
  });

  it('runs without a Lease with --leader-elect=false', async () => {
    const cm = start([
      '--server',
      server.url,
      '--metrics-listen',
      'off',
      '--leader-elect=false',
      '--leader-elect-resource-name',
      'cm-never',
    ]);
    await markAndWaitGone('proc-alone');
    expect(await holderOf('cm-never')).toBeUndefined();
    cm.child.kill('SIGINT');
    expect(await cm.exited).toBe(0);
  });

  it('refuses an unknown controller at start-up, naming the known ones, with exit 1', async () => {
    const cm = start(['--server', server.url, '--metrics-listen', 'off', '--controllers', 'gc,nope']);
    expect(await cm.exited).toBe(1);
    expect(cm.output()).toContain('unknown controller(s) \\"nope\\"; known: gc');
  });
});
