import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlOk, runKubectl, writeKubeconfig } from '../support/kubectl';
import { person, PERSONS } from '../support/person';
import { bind, createRole, createToken, createUser, expectStatus, useRbacApi } from '../support/security';

// kubectl sends a token only to an https:// server: the apiserver serves a self-signed certificate, the kubeconfig names its CA.
const dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-tls-'));
const api = useRbacApi({ tlsSelfSignedDir: join(dir, 'tls') });
const kubeconfig = join(dir, 'config');
const asAda = (...args: string[]) => runKubectl(kubeconfig, ...args);

beforeAll(async () => {
  const ada = await createUser(api, 'ada');
  await createRole(api, 'person-reader', [
    { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list', 'watch'] },
  ]);
  await bind(api, 'ada', 'person-reader');
  const { token } = await createToken(ada, { displayName: 'kubectl' });
  expectStatus(
    await api.admin('POST', PERSONS, person('grace', { name: 'Grace Hopper', age: 85 })),
    201,
    'creating grace',
  );
  writeKubeconfig(kubeconfig, { server: api.server.url, certificateAuthority: api.server.caFile, token });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("answers kubectl auth can-i for a resource as the token's user: yes (exit 0) and no (exit 1)", async () => {
  expect(await asAda('auth', 'can-i', 'get', 'persons')).toMatchObject({ code: 0, stdout: 'yes\n' });
  const denied = await asAda('auth', 'can-i', 'delete', 'persons');
  expect(denied.code).toBe(1);
  expect(denied.stdout).toMatch(/^no - no role of user "ada" allows delete/); // kubectl adds the server's reason
});

it('answers kubectl auth can-i for a non-resource URL', async () => {
  expect(await asAda('auth', 'can-i', 'get', '/healthz')).toMatchObject({ code: 0, stdout: 'yes\n' });
  expect(await asAda('auth', 'can-i', 'get', '/metrics')).toMatchObject({
    code: 1,
    stdout: 'no - no role of user "ada" allows get /metrics\n',
  });
});

it("lists persons with kubectl as the token's user, and is refused what the user may not do", async () => {
  expect(await kubectlOk(kubeconfig, 'get', 'persons')).toMatch(/grace\s+Grace Hopper\s+85/);
  const refused = await asAda('delete', 'person', 'grace');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('User "ada" cannot delete resource "persons" in API group "example.com"');
});

it('answers kubectl cluster-info: the control plane, and no cluster services', async () => {
  const info = await asAda('cluster-info');
  expect(info.code).toBe(0);
  expect(info.stdout).toContain(`Kubernetes control plane is running at ${api.server.url}`);
  expect(info.stdout.match(/is running at/g)).toHaveLength(1);
});

it('answers kubectl auth whoami (SelfSubjectReview) with the name, groups and roles', async () => {
  const whoami = await kubectlOk(kubeconfig, 'auth', 'whoami');
  expect(whoami).toMatch(/^Username\s+ada$/m);
  expect(whoami).toMatch(/^Groups\s+\[authenticated anonymous\]$/m);
  expect(whoami).toMatch(/^Extra: svc\.run\/roles\s+\[person-reader\]$/m);
  const json = JSON.parse(await kubectlOk(kubeconfig, 'auth', 'whoami', '-o', 'json'));
  expect(json).toMatchObject({ kind: 'SelfSubjectReview', status: { userInfo: { username: 'ada' } } });
});

it('answers kubectl auth can-i --list (SelfSubjectRulesReview) with the rules of every role held', async () => {
  const list = await kubectlOk(kubeconfig, 'auth', 'can-i', '--list');
  expect(list.split('\n')[0]).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
  expect(list).toMatch(/^persons\.example\.com\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  expect(list).toMatch(/^\s+\[\/healthz\]\s+\[\]\s+\[get\]$/m); // from the anonymous role
  expect(list).not.toMatch(/^\*\.\*/m);
});
