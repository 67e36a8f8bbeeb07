import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, startTestApiServer } from '../support/apiserver';
import { kubectlOk, writeKubeconfig } from '../support/kubectl';
import { applyPersonModel } from '../support/person';
import type { RunningApiServer } from '../../pkg/apiserver/app';

let server: RunningApiServer;
let dir: string;
const kubectl = (...args: string[]) => kubectlOk(join(dir, 'config'), ...args);

beforeAll(async () => {
  server = await startTestApiServer();
  await applyPersonModel(client(server.url));
  dir = mkdtempSync(join(tmpdir(), 'svc-kubectl-'));
  writeKubeconfig(join(dir, 'config'), { server: server.url });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('applies, gets, patches and deletes a Person with kubectl unchanged', async () => {
  expect(await kubectl('apply', '-f', join(__dirname, '..', '..', 'manifests', 'examples', 'person.yaml'))).toContain(
    'person.example.com/ada created',
  );
  const table = await kubectl('get', 'persons');
  expect(table.split('\n')[0]).toMatch(/^NAME\s+FULL NAME\s+YEARS\s+AGE/);
  expect(table).toMatch(/ada\s+Ada Lovelace\s+36/);
  await kubectl('patch', 'person', 'ada', '--type', 'merge', '-p', '{"spec":{"age":37}}');
  expect(await kubectl('get', 'ps', 'ada', '-o', 'jsonpath={.spec.age}')).toBe('37');
  expect(await kubectl('api-resources', '--api-group', 'example.com')).toMatch(
    /persons\s+ps\s+example.com\/v1alpha1\s+false\s+Person/,
  );
  await kubectl('delete', 'person', 'ada', '--wait=false');
  expect(await kubectl('get', 'ps', 'ada', '-o', 'jsonpath={.metadata.deletionTimestamp}')).not.toBe('');
});
