import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import {
  kubectlOk,
  NEWEST_KUBECTL,
  runKubectl,
  runKubectlWith,
  startKubectl,
  writeKubeconfig,
} from '../support/kubectl';
import { person, PERSONS, usePersonsApi } from '../support/person';
import { holdsFor, waitFor } from '../support/wait-for';

// kubectl's waits and watches with the real binaries, against a plain-HTTP apiserver (AlwaysAllow)
// and a controller-manager whose gc removes deleted objects. The newest kubectl on the machine runs
// with client-go's streaming list turned on (it is the default from kubectl 1.35).
const suite = usePersonsApi();
const dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-watch-'));
const kubeconfig = join(dir, 'config');
const WATCH_LIST = { binary: NEWEST_KUBECTL, env: { KUBE_FEATURE_WatchListClient: 'true' } };
const merge = { 'Content-Type': 'application/merge-patch+json' };

beforeAll(async () => {
  writeKubeconfig(kubeconfig, { server: suite.server.url });
  await startTestControllerManager(suite.server.url, { leaderElection: false });
});
afterAll(async () => {
  await stopTestControllerManagers();
  rmSync(dir, { recursive: true, force: true });
});

it('kubectl delete waits through a streaming list until the object is gone (WatchListClient)', async () => {
  const held = { ...person('wl-held'), metadata: { name: 'wl-held', finalizers: ['example.com/hold'] } };
  expect((await suite.api('POST', PERSONS, held)).status).toBe(201);
  const deleting = startKubectl(WATCH_LIST, kubeconfig, 'delete', 'person', 'wl-held', '--timeout=60s', '-v=6');
  let exited = false;
  void deleting.done.then(() => (exited = true));
  try {
    await waitFor(() => deleting.output.stderr.includes('sendInitialEvents=true'), {
      what: 'kubectl to start its streaming list',
    });
    await waitFor(() => deleting.output.stderr.includes('Caches populated'), {
      what: 'kubectl to read the streaming list to its end',
    });
    expect((await suite.api('GET', `${PERSONS}/wl-held`)).body.metadata?.deletionTimestamp).toBeDefined();
    // It waits while the finalizer holds the object. kubectl looks at its cache every 100 ms once the list is
    // in (client-go's WaitForCacheSync); one that took the object for gone would stop its reflector (logged)
    // and exit within one look: a second is ten of them. It gives no sign of having looked, hence the window.
    await holdsFor(() => !exited && !deleting.output.stderr.includes('Stopping reflector'), {
      forMs: 1000,
      what: 'kubectl waiting for the held object',
    });
    await suite.api('PATCH', `${PERSONS}/wl-held`, { metadata: { finalizers: null } }, merge);
    expect(await deleting.done).toBe(0);
  } finally {
    await deleting.stop();
  }
  expect(deleting.output.stdout).toContain('person.example.com "wl-held" deleted');
  expect(deleting.output.stderr).toContain('end of initial events');
  expect((await suite.api('GET', `${PERSONS}/wl-held`)).status).toBe(404);
});

it('kubectl delete with the streaming list returns at once for an object the gc removes', async () => {
  expect((await suite.api('POST', PERSONS, person('wl-plain'))).status).toBe(201);
  const run = await runKubectlWith(WATCH_LIST, kubeconfig, 'delete', 'person', 'wl-plain', '--timeout=60s');
  expect(run).toMatchObject({ code: 0, stdout: 'person.example.com "wl-plain" deleted\n' });
  expect((await suite.api('GET', `${PERSONS}/wl-plain`)).status).toBe(404);
});

it.each([
  ['kubectl 1.32', {}],
  ['the newest kubectl with WatchListClient', WATCH_LIST],
])('%s get -w prints the printer columns for the listed objects and every change', async (_what, options) => {
  const name = `gw-${Object.keys(options).length}`;
  await suite.api('POST', PERSONS, person(name, { name: 'Watched Person', age: 50 }, { suite: name }));
  const watch = startKubectl(options, kubeconfig, 'get', 'persons', '-w', '-l', `suite=${name}`);
  try {
    await waitFor(() => /^NAME\s+FULL NAME\s+YEARS\s+AGE\n/.test(watch.output.stdout), { what: 'the header' });
    await waitFor(() => new RegExp(`${name}\\s+Watched Person\\s+50\\s`).test(watch.output.stdout), {
      what: 'the listed row',
    });
    await suite.api('PATCH', `${PERSONS}/${name}`, { spec: { age: 51 } }, merge);
    await waitFor(() => new RegExp(`${name}\\s+Watched Person\\s+51\\s`).test(watch.output.stdout), {
      what: 'the changed row',
    });
  } finally {
    await watch.stop();
  }
});

it('kubectl get reads a long list in chunks (limit and continue) and prints every object', async () => {
  // kubectl asks for 500 at a time by default; --chunk-size makes the pages smaller, so that three of them need
  // 120 objects rather than 1,001 (what is tested is the continue token across pages, not the page size).
  const names = Array.from({ length: 120 }, (_, i) => `many-${String(i).padStart(3, '0')}`);
  for (let i = 0; i < names.length; i += 32) {
    await Promise.all(
      names.slice(i, i + 32).map((name) => suite.api('POST', PERSONS, person(name, {}, { suite: 'many' }))),
    );
  }
  const byDefault = await runKubectl(kubeconfig, 'get', 'persons', '-l', 'suite=many', '--no-headers', '-v=6');
  expect(byDefault.code).toBe(0);
  expect(byDefault.stderr).toMatch(/\/persons\?[^\s"]*limit=500\b/);

  const chunked = await runKubectl(
    kubeconfig,
    'get',
    'persons',
    '-l',
    'suite=many',
    '--no-headers',
    '--chunk-size=50',
    '-v=6',
  );
  expect(chunked.code).toBe(0);
  // Each request kubectl made, as its log names it: `GET <url> 200 OK`.
  const pages = chunked.stderr.match(/\/persons\?[^\s"]*limit=50\b[^\s"]*/g) ?? [];
  expect(pages).toHaveLength(3);
  expect(pages.filter((page) => page.includes('continue='))).toHaveLength(2);
  const printed = chunked.stdout
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/)[0]);
  expect(printed.sort()).toEqual(names);
});

it('kubectl get -l lists the selected objects, and delete -l removes those, waiting until they are gone', async () => {
  for (const [name, team] of [
    ['sel-a', 'drop'],
    ['sel-b', 'drop'],
    ['sel-c', 'keep'],
  ])
    expect((await suite.api('POST', PERSONS, person(name, {}, { suite: 'sel', team }))).status).toBe(201);
  const listed = await kubectlOk(kubeconfig, 'get', 'persons', '-l', 'suite=sel,team=drop', '-o', 'name');
  expect(listed.trim().split('\n').sort()).toEqual(['person.example.com/sel-a', 'person.example.com/sel-b']);

  const deleted = await kubectlOk(kubeconfig, 'delete', 'persons', '-l', 'suite=sel,team=drop', '--timeout=60s');
  expect(deleted.trim().split('\n').sort()).toEqual([
    'person.example.com "sel-a" deleted',
    'person.example.com "sel-b" deleted',
  ]);
  expect(await kubectlOk(kubeconfig, 'get', 'persons', '-l', 'suite=sel', '-o', 'name')).toBe(
    'person.example.com/sel-c\n',
  );
});
