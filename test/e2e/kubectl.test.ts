import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { client, startTestApiServer } from '../support/apiserver';
import { kubectlOk, runKubectl, writeKubeconfig } from '../support/kubectl';
import { applyPersonModel } from '../support/person';
import type { RunningApiServer } from '../../pkg/server/app';

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

it('kubectl apply --server-side creates, then changes the applied fields; get -o yaml prints the object', async () => {
  const file = join(dir, 'ssa.yaml');
  const manifest = (age: number) =>
    `apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: ssa}\nspec: {name: Server Side, age: ${age}}\n`;
  writeFileSync(file, manifest(5));
  expect(await kubectl('apply', '--server-side', '-f', file)).toBe('person.example.com/ssa serverside-applied\n');
  writeFileSync(file, manifest(6));
  expect(await kubectl('apply', '--server-side', '-f', file)).toBe('person.example.com/ssa serverside-applied\n');
  const printed = yaml.load(await kubectl('get', 'person', 'ssa', '-o', 'yaml'));
  expect(printed).toMatchObject({
    apiVersion: 'example.com/v1alpha1',
    kind: 'Person',
    metadata: { name: 'ssa' },
    spec: { name: 'Server Side', age: 6 },
  });
});

it('kubectl explain describes a type and a field; api-versions lists every group-version', async () => {
  const type = await kubectl('explain', 'persons');
  expect(type).toMatch(/^GROUP:\s+example\.com\nKIND:\s+Person\nVERSION:\s+v1alpha1\n/);
  expect(type).toMatch(/^ {2}spec\t<Object> -required-$/m);
  expect(await kubectl('explain', 'persons.spec.age')).toMatch(/^FIELD: age <integer>$/m);
  const versions = (await kubectl('api-versions')).trim().split('\n');
  expect(versions).toEqual(
    expect.arrayContaining(['example.com/v1alpha1', 'apiextensions.svc.run/v1alpha1', 'v1alpha1']),
  );
});

it('kubectl apply of an invalid object names its kind, its name and the failing field, exit 1', async () => {
  const file = join(dir, 'invalid.yaml');
  writeFileSync(
    file,
    'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: old}\nspec: {name: Old, age: 500}\n',
  );
  const run = await runKubectl(join(dir, 'config'), 'apply', '-f', file);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^The Person "old" is invalid: spec\.age: Invalid value: 500: /);
});
