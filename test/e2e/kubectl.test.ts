import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { Root } from 'protobufjs';
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

it('kubectl apply of a wrong kind or apiVersion names the real cause first, not the OpenAPI download', async () => {
  for (const [apiVersion, kind] of [
    ['example.com/v1alpha1', 'Persn'],
    ['example.com/v9', 'Person'],
  ]) {
    const file = join(dir, 'wrong-type.yaml');
    writeFileSync(file, `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: wrong}\nspec: {name: Wrong}\n`);
    const run = await runKubectl(join(dir, 'config'), 'apply', '-f', file);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/openapi|--validate=false/);
    expect(run.stderr).toContain(`no matches for kind "${kind}" in version "${apiVersion}"`);
  }
});

it('serves /openapi/v2 as kubectl reads it (protobuf) and as JSON, defining no types', async () => {
  const pb = await fetch(`${server.url}/openapi/v2`, {
    headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
  });
  expect(pb.status).toBe(200);
  expect(pb.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  // As gnostic's openapi_v2.Document numbers them: swagger 1, info 2 (title 1, version 2), definitions 9.
  const document = Root.fromJSON({
    nested: {
      Info: { fields: { title: { id: 1, type: 'string' }, version: { id: 2, type: 'string' } } },
      Definitions: { fields: { additionalProperties: { id: 1, type: 'bytes', rule: 'repeated' } } },
      Document: {
        fields: {
          swagger: { id: 1, type: 'string' },
          info: { id: 2, type: 'Info' },
          definitions: { id: 9, type: 'Definitions' },
        },
      },
    },
  }).lookupType('Document');
  const decoded = document.toObject(document.decode(Buffer.from(await pb.arrayBuffer())));
  expect(decoded).toEqual({ swagger: '2.0', info: { title: 'svc', version: expect.any(String) } });
  const json = await fetch(`${server.url}/openapi/v2`);
  expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await json.json()).toMatchObject({ swagger: '2.0', info: { title: 'svc' }, paths: {}, definitions: {} });
});
