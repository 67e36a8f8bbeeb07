import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnControllerManager, type SpawnedControllerManager } from '../support/controller-manager';
import { person, PERSONS } from '../support/person';
import { expectStatus, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// The built controller-manager (`npm run build` first) against an RBAC apiserver serving HTTPS only, with its
// self-signed certificate. It trusts the CA through --certificate-authority and authenticates with its token.
const dir = mkdtempSync(join(tmpdir(), 'svc-cm-tls-'));
const tokenFile = join(dir, 'controller-manager.token');
const api = useRbacApi({ tlsSelfSignedDir: join(dir, 'tls'), controllerManagerTokenFile: tokenFile });
let cm: SpawnedControllerManager | undefined;

afterEach(async () => {
  if (cm && cm.child.exitCode === null && cm.child.signalCode === null) cm.child.kill('SIGKILL');
  await cm?.exited;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reaches an https:// apiserver through --certificate-authority, and collects as system:controller-manager', async () => {
  expectStatus(await api.admin('POST', PERSONS, person('over-tls')), 201, 'creating over-tls');
  expectStatus(await api.admin('DELETE', `${PERSONS}/over-tls`), 200, 'deleting over-tls');
  expect((await api.admin('GET', `${PERSONS}/over-tls`)).body.metadata.deletionTimestamp).toBeDefined(); // marked: the gc removes it
  cm = spawnControllerManager([
    '--server',
    api.server.url,
    '--certificate-authority',
    api.server.caFile!,
    '--token-file',
    tokenFile,
    '--leader-elect=false',
    '--metrics-listen',
    'off',
  ]);
  await waitFor(async () => (await api.admin('GET', `${PERSONS}/over-tls`)).status === 404, {
    what: 'the gc to remove over-tls',
    timeoutMs: 15_000,
  });
  cm.child.kill('SIGTERM');
  expect(await cm.exited).toBe(0);
  expect(cm.output()).not.toContain('certificate');
});

it('names a certificate authority file it cannot read, and exits 1', async () => {
  cm = spawnControllerManager([
    '--server',
    api.server.url,
    '--certificate-authority',
    join(dir, 'missing.crt'),
    '--metrics-listen',
    'off',
  ]);
  expect(await cm.exited).toBe(1);
  expect(cm.output()).toContain(`cannot read the certificate authority file ${join(dir, 'missing.crt')}`);
});
