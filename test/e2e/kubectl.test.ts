import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { client, startTestApiServer } from '../support/apiserver';
import { applyPersonModel } from '../support/person';
import type { RunningApiServer } from '../../pkg/apiserver/app';

const run = promisify(execFile);
/** kubectl 1.32 (API.md §10): the Google Cloud SDK's pinned binary when present, else the one on the PATH. */
const KUBECTL = existsSync('/usr/lib/google-cloud-sdk/bin/kubectl.1.32') ? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32' : 'kubectl';

let server: RunningApiServer;
let dir: string;

async function kubectl(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(KUBECTL, ['--kubeconfig', join(dir, 'config'), ...args]);
    return stdout;
  } catch (err) {
    const e = err as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT') throw new Error('kubectl is needed for this test: install kubectl 1.32 and put it on the PATH');
    throw new Error(`kubectl ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
}

beforeAll(async () => {
  server = await startTestApiServer();
  await applyPersonModel(client(server.url));
  dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-'));
  writeFileSync(join(dir, 'config'), [
    'apiVersion: v1', 'kind: Config', 'current-context: svc',
    `clusters: [{name: svc, cluster: {server: "${server.url}"}}]`,
    'contexts: [{name: svc, context: {cluster: svc}}]', '',
  ].join('\n'));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('applies, gets, patches and deletes a Person with kubectl unchanged', async () => {
  expect(await kubectl('apply', '-f', join(__dirname, '..', '..', 'manifests', 'examples', 'person.yaml'))).toContain('person.example.com/ada created');
  const table = await kubectl('get', 'persons');
  expect(table.split('\n')[0]).toMatch(/^NAME\s+FULL NAME\s+YEARS\s+AGE/);
  expect(table).toMatch(/ada\s+Ada Lovelace\s+36/);
  await kubectl('patch', 'person', 'ada', '--type', 'merge', '-p', '{"spec":{"age":37}}');
  expect(await kubectl('get', 'ps', 'ada', '-o', 'jsonpath={.spec.age}')).toBe('37');
  expect(await kubectl('api-resources', '--api-group', 'example.com')).toMatch(/persons\s+ps\s+example.com\/v1alpha1\s+false\s+Person/);
  await kubectl('delete', 'person', 'ada', '--wait=false');
  expect(await kubectl('get', 'ps', 'ada', '-o', 'jsonpath={.metadata.deletionTimestamp}')).not.toBe('');
});
