import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yaml from 'js-yaml';
import { runSvcctl } from '../../pkg/cli';
import { person, PERSONS, usePersonsApi } from '../support/person';

// `svcctl apply` refuses a field the schema does not know unless told otherwise (--validate), and prints
// every Warning the server answers with on stderr.
const suite = usePersonsApi();
const dir = mkdtempSync(join(tmpdir(), 'svcctl-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function svcctl(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runSvcctl(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: Readable.from([]),
    env: { SVC_SERVER: suite.server.url },
    home: dir,
  });
  return { code, stdout, stderr };
}

/** A manifest of a valid Person and one whose spec has a misspelled field. */
function manifest(prefix: string): string {
  const file = join(dir, `${prefix}.yaml`);
  const typo = { ...person(`${prefix}-typo`), spec: { nmae: 'Ada', name: 'ADA', age: 30 } };
  writeFileSync(file, [yaml.dump(typo), yaml.dump(person(`${prefix}-ok`))].join('---\n'));
  return file;
}

const stored = async (name: string) => suite.api('GET', `${PERSONS}/${name}`);

it('fails a document with an unknown field by default, naming the field and storing nothing; applies the others', async () => {
  const run = await svcctl('apply', '-f', manifest('strict'));
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('document 1 (Person strict-typo)');
  expect(run.stderr).toContain('spec.nmae');
  expect(run.stdout).toBe('persons/strict-ok created\n');
  expect((await stored('strict-typo')).status).toBe(404);
  expect((await stored('strict-ok')).status).toBe(200);
});

it('fails an update with an unknown field too, leaving the object as it was', async () => {
  await svcctl('apply', '-f', manifest('update'), '--validate=ignore');
  const before = (await stored('update-typo')).body as { metadata: { resourceVersion: string } };
  expect(before.metadata.resourceVersion).toBeTruthy();
  const run = await svcctl('apply', '-f', manifest('update'));
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('spec.nmae');
  expect((await stored('update-typo')).body).toEqual(before);
});

it('--validate=warn stores the object without the field and prints the warning on stderr, once', async () => {
  const run = await svcctl('apply', '-f', manifest('warn'), '--validate=warn');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('persons/warn-typo created\npersons/warn-ok created\n');
  expect(run.stderr).toBe('Warning: unknown field "spec.nmae"\n');
  const typo = await stored('warn-typo');
  expect(typo.status).toBe(200);
  expect((typo.body as { spec: unknown }).spec).toEqual({ name: 'ADA', age: 30 });
});

it('--validate=ignore stores the object and prints nothing', async () => {
  const run = await svcctl('apply', '-f', manifest('ignore'), '--validate=ignore');
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect((await stored('ignore-typo')).status).toBe(200);
});

it('refuses an unknown --validate mode as a usage error', async () => {
  const run = await svcctl('apply', '-f', manifest('usage'), '--validate=maybe');
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--validate=maybe: use strict, warn or ignore');
  expect((await stored('usage-ok')).status).toBe(404);
});

it('applies an unchanged object again under strict validation when its schema declares no status', async () => {
  const file = join(dir, 'cats.yaml');
  const model = {
    apiVersion: 'apiextensions.svc.run/v1alpha1',
    kind: 'Model',
    metadata: { name: 'cats.validate.svc.test' },
    spec: {
      group: 'validate.svc.test',
      version: 'v1alpha1',
      names: { kind: 'Cat', singular: 'cat', plural: 'cats' },
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { lives: { type: 'integer' } } } } },
    },
  };
  const cat = { apiVersion: 'validate.svc.test/v1alpha1', kind: 'Cat', metadata: { name: 'tom' }, spec: { lives: 9 } };
  writeFileSync(file, [yaml.dump(model), yaml.dump(cat)].join('---\n'));
  expect(await svcctl('apply', '-f', file)).toMatchObject({ code: 0, stderr: '' });
  expect(await svcctl('apply', '-f', file)).toMatchObject({
    code: 0,
    stderr: '',
    stdout: 'models/cats.validate.svc.test unchanged\ncats/tom unchanged\n',
  });
});
