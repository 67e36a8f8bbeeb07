import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandArgs } from '../support/commands';
import { Readable } from 'node:stream';
import yaml from 'js-yaml';
import { runSvcctl } from '../../pkg/cli';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import { bind, createRole, createUser, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { writePlugin } from '../support/plugin-folder';

// svcctl against an in-process RBAC apiserver serving HTTPS with a self-signed CA, and a
// controller-manager (its gc removes deleted objects), with two plugins (one starts, one fails);
// each test with a config file of its own. Most cases run svcctl's entry function in this process (the
// binary only adds the process's streams, argv and signals to it); the built binary (`npm run build`
// first; `make test` does) runs where the process is the subject: a closed pipe, and `get -w` ended by signals.

const EXAMPLES = join(__dirname, '..', '..', 'manifests', 'examples');

const serverDir = mkdtempSync(join(tmpdir(), 'svcctl-e2e-server-'));
const tokenFile = join(serverDir, 'controller-manager.token');
const pluginsDir = join(serverDir, 'plugins');
writePlugin(pluginsDir, 'hello', {
  version: '0.1.0',
  code: 'module.exports = { start(ctx) { ctx.log.info("hello"); } };',
});
writePlugin(pluginsDir, 'broken', {
  version: '0.1.0',
  code: 'module.exports = { async start() { throw new Error("no database configured"); } };',
});
const api = useRbacApi({ tlsSelfSignedDir: join(serverDir, 'tls'), controllerManagerTokenFile: tokenFile, pluginsDir });
let dir: string;
let configFile: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running svcctl: its process, the output so far, and its end. */
interface Started {
  child: ChildProcessWithoutNullStreams;
  output: Run;
  done: Promise<Run>;
}

/** The environment svcctl sees: this test's home and config file, and no SVC_SERVER/SVC_TOKEN from the outside. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const { SVC_SERVER: _server, SVC_TOKEN: _token, ...outside } = process.env;
  return { ...outside, HOME: dir, SVC_CONFIG: configFile, ...env };
}

/** Starts svcctl in a process of its own. */
function start(args: string[], stdin = '', env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, commandArgs('svcctl', args), {
    env: environment(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString('utf8');
  });
  child.stdin.end(stdin);
  const done = new Promise<Run>((resolve) => child.once('close', (code) => resolve({ ...output, code })));
  return { child, output, done };
}

/** Runs svcctl's entry function to its end, in this process. */
async function svcctl(args: string[], stdin = '', env: Record<string, string> = {}): Promise<Run> {
  const run: Run = { code: null, stdout: '', stderr: '' };
  run.code = await runSvcctl(args, {
    stdout: (text) => (run.stdout += text),
    stderr: (text) => (run.stderr += text),
    stdin: Readable.from(stdin ? [stdin] : []),
    env: environment(env),
    home: dir,
  });
  return run;
}

const login = (user: string, password: string) =>
  svcctl(
    [
      'login',
      '--server',
      api.server.url,
      '--certificate-authority',
      api.server.caFile ?? '',
      '--username',
      user,
      '--password-stdin',
    ],
    password,
  );
const loginAsAdmin = () => login('admin', `${TEST_ADMIN_PASSWORD}\n`);

beforeAll(async () => {
  const ca = readFileSync(api.server.caFile ?? '', 'utf8');
  await startTestControllerManager(api.server.url, {
    token: readFileSync(tokenFile, 'utf8').trim(),
    ca,
    leaderElection: false,
  });
});
afterAll(async () => {
  await stopTestControllerManagers();
  rmSync(serverDir, { recursive: true, force: true });
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svcctl-e2e-'));
  configFile = join(dir, 'svc', 'config');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a reader that closes the pipe early (svcctl … | head) ends svcctl quietly, with exit code 0', async () => {
  const started = start(['--help']);
  // The read end closes before the new process has written anything, so its first write meets a closed pipe.
  started.child.stdout.destroy();
  const run = await started.done;
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
});

test("login with a wrong password fails with the server's reason and writes no config", async () => {
  const run = await login('admin', 'wrong\n');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^Error from server \(Unauthorized\): /);
  expect(existsSync(configFile)).toBe(false);
});

test('login stores a current context with a token (mode 0600) that config view redacts and kubeconfig carries', async () => {
  const login = await loginAsAdmin();
  expect(login).toMatchObject({ code: 0, stderr: '' });
  const host = new URL(api.server.url).host;
  const config = yaml.load(readFileSync(configFile, 'utf8')) as {
    'current-context': string;
    contexts: { token: string }[];
  };
  expect(config['current-context']).toBe(`admin@${host}`);
  const token = config.contexts[0]?.token ?? '';
  expect(token).not.toBe('');
  expect(statSync(configFile).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, 'svc')).mode & 0o777).toBe(0o700);

  const view = await svcctl(['config', 'view']);
  expect(view.code).toBe(0);
  expect(view.stdout).toContain('token: REDACTED');
  expect(view.stdout).not.toContain(token);

  const kubeconfig = await svcctl(['config', 'kubeconfig']);
  const ca = Buffer.from(readFileSync(api.server.caFile ?? '')).toString('base64');
  expect(yaml.load(kubeconfig.stdout)).toMatchObject({
    kind: 'Config',
    'current-context': `admin@${host}`,
    users: [{ user: { token } }],
    clusters: [{ cluster: { server: api.server.url, 'certificate-authority-data': ca } }],
  });
  expect((await svcctl(['auth', 'whoami'])).stdout).toMatch(/Username: admin\nRoles: +.*super-role/);
});

test("logout revokes the context's token and forgets it; a revoked or mistyped token says which, and to log in", async () => {
  expect((await loginAsAdmin()).code).toBe(0);
  const contextOf = () =>
    (yaml.load(readFileSync(configFile, 'utf8')) as { contexts: { token?: string; 'token-name'?: string }[] })
      .contexts[0];
  const { token, 'token-name': name } = contextOf();
  expect(name).toMatch(/^pat-/);
  expect((await svcctl(['--token', token ?? '', 'auth', 'whoami'])).code).toBe(0);

  const logout = await svcctl(['logout']);
  expect(logout).toMatchObject({
    code: 0,
    stderr: '',
    stdout: `Logged out of ${api.server.url}: token ${name} revoked.\n`,
  });
  expect(contextOf()).not.toHaveProperty('token');
  expect(contextOf()).not.toHaveProperty('token-name');

  const revoked = await svcctl(['--token', token ?? '', 'get', 'persons']);
  expect(revoked.code).toBe(1);
  expect(revoked.stderr).toBe(
    'Error from server (Unauthorized): invalid bearer token: the token was revoked\n' +
      '  run `svcctl login --server URL --username NAME` to log in (again); `svcctl config view` shows the current context\n',
  );
  const mistyped = await svcctl(['--token', `${token}x`, 'get', 'persons']);
  expect(mistyped.stderr).toMatch(
    /^Error from server \(Unauthorized\): invalid bearer token: this server knows no such token/,
  );
  expect(mistyped.stderr).toContain('run `svcctl login');
  expect(await svcctl(['logout'])).toMatchObject({ code: 0, stdout: expect.stringContaining('holds no token') });
});

test('a second login says the token it replaces still works; logout of a token already revoked says so', async () => {
  await loginAsAdmin();
  const again = await loginAsAdmin();
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/^note: the token this context held before \(pat-\w+\) still works/);
  const { 'token-name': name } = (
    yaml.load(readFileSync(configFile, 'utf8')) as { contexts: { 'token-name'?: string }[] }
  ).contexts[0];
  // Not waiting: the token deleted is the one svcctl would wait with.
  const deleted = await svcctl(['delete', 'personalaccesstokens', name ?? '', '--wait=false']);
  expect(deleted).toMatchObject({ code: 0, stderr: '' });
  const logout = await svcctl(['logout']);
  expect(logout).toMatchObject({
    code: 0,
    stdout: `Logged out of ${api.server.url}: token ${name} no longer worked there (revoked or expired).\n`,
  });
});

test("version prints svcctl's version and the server's", async () => {
  await loginAsAdmin();
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const run = await svcctl(['version']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toBe(`Client Version: ${version}\nServer Version: v1.32.0+svc.${version} (${api.server.url})\n`);
  expect((await svcctl(['version', '--client'])).stdout).toBe(`Client Version: ${version}\n`);
});

test('login over http:// to the HTTPS port says the port may serve HTTPS', async () => {
  const run = await svcctl(
    ['login', '--server', api.server.url.replace(/^https:/, 'http:'), '--username', 'admin', '--password-stdin'],
    `${TEST_ADMIN_PASSWORD}\n`,
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /other side closed\n {2}the server hung up without answering: that port may serve HTTPS .*use an https:\/\/ URL\n$/,
  );
  expect(existsSync(configFile)).toBe(false);
});

test('apply creates, then reports unchanged; get prints names, a List and the printer-column table; delete waits', async () => {
  await loginAsAdmin();
  const files = ['-f', join(EXAMPLES, 'person-model.yaml'), '-f', join(EXAMPLES, 'person.yaml')];
  const first = await svcctl(['apply', ...files]);
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^models\/persons\.example\.com (unchanged|configured)\npersons\/ada created\n$/);
  const again = await svcctl(['apply', ...files]);
  expect(again).toMatchObject({ code: 0, stdout: 'models/persons.example.com unchanged\npersons/ada unchanged\n' });

  writeFileSync(
    join(dir, 'grace.yaml'),
    'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: grace}\nspec: {name: Grace Hopper}\n',
  );
  expect((await svcctl(['apply', '-f', join(dir, 'grace.yaml')])).stdout).toBe('persons/grace created\n');

  expect((await svcctl(['get', 'ps', 'ada', 'grace', '-o', 'name'])).stdout).toBe('persons/ada\npersons/grace\n');
  const list = JSON.parse((await svcctl(['get', 'person', 'ada', 'grace', '-o', 'json'])).stdout);
  expect(list).toMatchObject({
    apiVersion: 'v1',
    kind: 'List',
    items: [{ metadata: { name: 'ada' } }, { metadata: { name: 'grace' } }],
  });
  const one = JSON.parse((await svcctl(['get', 'persons.example.com', 'ada', '-o', 'json'])).stdout);
  expect(one).toMatchObject({ kind: 'Person', spec: { name: 'Ada Lovelace' } });
  const table = await svcctl(['get', 'Person', '--sort-by', 'spec.name,asc']);
  expect(table.stdout.split('\n')[0]).toMatch(/^NAME +FULL NAME +YEARS +AGE$/);
  expect(table.stdout).toMatch(/\nada +Ada Lovelace +36 +\S+\ngrace +Grace Hopper +<none> +\S+\n$/);
  const jsonpath = await svcctl([
    'get',
    'persons',
    '--sort-by',
    'spec.name,asc',
    '-o',
    'jsonpath={.items[*].metadata.name}',
  ]);
  expect(jsonpath.stdout).toBe('ada grace\n');
  const ranged = await svcctl([
    'get',
    'persons',
    '--sort-by',
    'spec.name,asc',
    '-o',
    'jsonpath={range .items[-1:]}{.metadata.name}{"\\n"}{end}',
  ]);
  expect(ranged).toMatchObject({ code: 0, stdout: 'grace\n' });
  expect(await svcctl(['get', 'persons', '-o', 'jsonpath={.items[?(@.spec.age>3)]}'])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('the filter [?(@.spec.age>3)] is not supported'),
  });

  const deleted = await svcctl(['delete', 'persons', 'ada']);
  expect(deleted).toMatchObject({ code: 0, stdout: 'persons/ada deleted\n' });
  expect(await svcctl(['delete', '-f', join(dir, 'grace.yaml')])).toMatchObject({
    code: 0,
    stdout: 'persons/grace deleted\n',
  });
  const gone = await svcctl(['get', 'persons', 'ada']);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toMatch(/^Error from server \(NotFound\): .*ada/);
});

test('apply -R of manifests/examples/ (as docs/svcctl.md shows it, without --dry-run) makes only the Person example', async () => {
  await loginAsAdmin();
  const run = await svcctl(['apply', '-R', '-f', EXAMPLES]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toMatch(
    /^models\/persons\.example\.com (created|unchanged|configured)\npersons\/ada (created|unchanged|configured)\n$/,
  );
});

test('apply -R of a folder applies a new Model before its objects, waiting for the kind to be served', async () => {
  await loginAsAdmin();
  const folder = join(dir, 'manifests');
  mkdirSync(join(folder, 'models'), { recursive: true });
  writeFileSync(
    join(folder, 'a-cat.yaml'),
    'apiVersion: e2e.svcctl.test/v1alpha1\nkind: Cat\nmetadata: {name: tom}\nspec: {}\n',
  );
  writeFileSync(
    join(folder, 'models', 'cat-model.json'),
    JSON.stringify({
      apiVersion: 'apiextensions.svc.run/v1alpha1',
      kind: 'Model',
      metadata: { name: 'cats.e2e.svcctl.test' },
      spec: {
        group: 'e2e.svcctl.test',
        version: 'v1alpha1',
        names: { kind: 'Cat', singular: 'cat', plural: 'cats' },
        schema: { type: 'object', properties: { spec: { type: 'object' } } },
      },
    }),
  );
  const run = await svcctl(['apply', '-R', '-f', folder]);
  expect(run).toMatchObject({ code: 0, stderr: '', stdout: 'models/cats.e2e.svcctl.test created\ncats/tom created\n' });
  expect(await svcctl(['apply', '-f', folder])).toMatchObject({ stdout: 'cats/tom unchanged\n', stderr: '' });
});

test('a failing document is reported with its file, index and field; the rest are applied; exit 1', async () => {
  await loginAsAdmin();
  const file = join(dir, 'people.yaml');
  writeFileSync(
    file,
    [
      'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: old}\nspec: {name: Too Old, age: 200}',
      'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: young}\nspec: {name: Young, age: 20}',
    ].join('\n---\n'),
  );
  const dryRun = await svcctl(['apply', '-f', file, '--dry-run=server']);
  expect(dryRun.stdout).toBe('persons/young created (server dry run)\n');
  expect((await svcctl(['get', 'persons', 'young'])).code).toBe(1);

  const run = await svcctl(['apply', '-f', file]);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('persons/young created\n');
  expect(run.stderr).toContain(`${file} document 1`);
  expect(run.stderr).toContain('Error from server (Invalid)');
  expect(run.stderr).toContain('spec.age');
});

test('apply refuses a misspelled field by default; --validate=warn prints the warning on stderr, ignore nothing', async () => {
  await loginAsAdmin();
  const file = join(dir, 'typo.yaml');
  writeFileSync(
    file,
    'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: typo}\nspec: {nmae: Ada, age: 30}\n',
  );
  const strict = await svcctl(['apply', '-f', file]);
  expect(strict.code).toBe(1);
  expect(strict.stderr).toContain('unknown field "spec.nmae"');
  expect((await svcctl(['get', 'persons', 'typo'])).code).toBe(1);

  const warn = await svcctl(['apply', '-f', file, '--validate=warn']);
  expect(warn).toMatchObject({
    code: 0,
    stdout: 'persons/typo created\n',
    stderr: 'Warning: unknown field "spec.nmae"\n',
  });
  const ignore = await svcctl(['apply', '-f', file, '--validate=ignore']);
  expect(ignore).toMatchObject({ code: 0, stdout: 'persons/typo unchanged\n', stderr: '' });
});

test('auth can-i answers yes or no for a user holding a role (exit 0 or 1)', async () => {
  await createUser(api, 'bob', 'bob-password');
  await createRole(api, 'person-reader-e2e', [
    { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list', 'watch'] },
  ]);
  await bind(api, 'bob', 'person-reader-e2e');
  expect((await login('bob', 'bob-password')).code).toBe(0);
  expect(await svcctl(['auth', 'can-i', 'get', 'persons'])).toMatchObject({ code: 0, stdout: 'yes\n' });
  expect(await svcctl(['auth', 'can-i', 'delete', 'persons', 'ada'])).toMatchObject({ code: 1, stdout: 'no\n' });
  const explained = await svcctl(['auth', 'explain', 'delete', 'persons']);
  expect(explained.stdout).toMatch(/^no: /);
});

test('roles assign gives a user roles; roles list shows display names and modules; can-i --as asks about them', async () => {
  await createUser(api, 'carol');
  await createRole(api, 'person-viewer-e2e', [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] }], {
    annotations: {
      'rbac.authorization.svc.run/display-name': 'Person viewer',
      'rbac.authorization.svc.run/module': 'People',
    },
  });
  await loginAsAdmin();
  expect(await svcctl(['auth', 'can-i', 'get', 'persons', '--as', 'carol'])).toMatchObject({ code: 1, stdout: 'no\n' });
  expect((await svcctl(['roles', 'assign', 'carol', 'person-viewer-e2e'])).code).toBe(0);
  expect(await svcctl(['auth', 'can-i', 'get', 'persons', '--as', 'carol'])).toMatchObject({
    code: 0,
    stdout: 'yes\n',
  });
  const list = await svcctl(['roles', 'list']);
  expect(list.stdout).toMatch(/\nperson-viewer-e2e +Person viewer +People\n/);
  expect(list.stdout).not.toMatch(/^anonymous /m);
});

test('explain describes a type and its fields from the OpenAPI documents', async () => {
  await loginAsAdmin();
  const type = await svcctl(['explain', 'persons']);
  expect(type.code).toBe(0);
  expect(type.stdout).toMatch(/^KIND: +Person\nVERSION: +example\.com\/v1alpha1\n/);
  expect(type.stdout).toContain('  spec\t<object> -required-');
  expect(type.stdout).toContain('  metadata\t<object>');
  const field = await svcctl(['explain', 'ps.spec.tags']);
  expect(field.stdout).toContain('FIELD: tags <[]string>');
  const grouped = await svcctl(['explain', 'persons.example.com.spec.tags']);
  expect(grouped.stdout).toMatch(/^KIND: +Person\nVERSION: +example\.com\/v1alpha1\n\nFIELD: tags <\[\]string>/);
  expect((await svcctl(['explain', 'persons.example.com'])).stdout).toMatch(/^KIND: +Person\n/);
  // As kubectl: a field or a type the server does not have is exit 1, not a usage error.
  expect(await svcctl(['explain', 'person.spec.nope'])).toMatchObject({
    code: 1,
    stderr: 'error: field "nope" does not exist in Person.spec\n',
  });
  expect((await svcctl(['explain', 'nosuchthings.spec'])).code).toBe(1);
});

test('--insecure-skip-tls-verify reaches the https:// server without its CA; without either, the certificate is refused', async () => {
  const untrusted = await svcctl(['get', 'persons', '--server', api.server.url]);
  expect(untrusted.code).toBe(1);
  expect(untrusted.stderr).toMatch(/^error: cannot reach the server: .*certificate/);
  const skipped = await svcctl(['get', 'persons', '--server', api.server.url, '--insecure-skip-tls-verify']);
  expect(skipped.stderr).toMatch(/^Error from server \(Unauthorized\)/);
});

test('usage errors exit 2, a resource type the server does not have 1; flags beat the config file', async () => {
  expect((await svcctl(['get'])).code).toBe(2);
  expect(
    await svcctl([
      'get',
      'nosuchthings',
      '--server',
      api.server.url,
      '--certificate-authority',
      api.server.caFile ?? '',
    ]),
  ).toMatchObject({ code: 1, stderr: 'error: the server doesn\'t have a resource type "nosuchthings"\n' });
  await loginAsAdmin();
  const asAnonymous = await svcctl(['get', 'persons', '--token', 'not-a-token']);
  expect(asAnonymous.code).toBe(1);
  expect(asAnonymous.stderr).toMatch(/^Error from server \(Unauthorized\)/);
});

/** A Person manifest of these labels and age. */
const person = (name: string, labels: string, age: number) =>
  `apiVersion: example.com/v1alpha1\nkind: Person\nmetadata: {name: ${name}, labels: {${labels}}}\nspec: {name: ${name} Doe, age: ${age}}\n`;

test('get -w prints the list, then the row of each change as the watch carries it, deletions too; SIGINT ends it with exit 0', async () => {
  await loginAsAdmin();
  expect((await svcctl(['apply', '-f', join(EXAMPLES, 'person-model.yaml')])).code).toBe(0);
  const file = join(dir, 'linus.yaml');
  writeFileSync(file, person('linus', 'e2e: watch', 30));
  expect((await svcctl(['apply', '-f', file])).code).toBe(0);

  const watch = start(['get', 'persons', '-l', 'e2e=watch', '-w']);
  const names = start(['get', 'persons', 'linus', '-w', '-o', 'name']);
  await waitFor(() => /^NAME +FULL NAME +YEARS +AGE\nlinus +linus Doe +30 +\S+\n$/.test(watch.output.stdout), {
    what: 'the list',
  });
  await waitFor(() => names.output.stdout === 'persons/linus\n', { what: 'the name' });

  writeFileSync(file, person('linus', 'e2e: watch', 31));
  expect((await svcctl(['apply', '-f', file])).stdout).toBe('persons/linus configured\n');
  writeFileSync(join(dir, 'other.yaml'), person('linda', 'e2e: elsewhere', 40));
  expect((await svcctl(['apply', '-f', join(dir, 'other.yaml')])).code).toBe(0);
  writeFileSync(file, person('linus', 'e2e: watch', 32));
  expect((await svcctl(['apply', '-f', file])).stdout).toBe('persons/linus configured\n');
  // Each change has its own row, with the values of that change (the watch carries the rows).
  await waitFor(() => /\nlinus +linus Doe +31 +\S+\nlinus +linus Doe +32 +\S+\n$/.test(watch.output.stdout), {
    what: 'a row per change',
  });
  await waitFor(() => names.output.stdout === 'persons/linus\n'.repeat(3), { what: 'the name of each change' });

  // Deleting marks the object, then the gc removes it: a row for each, in the last state.
  expect((await svcctl(['delete', 'persons', 'linus'])).code).toBe(0);
  await waitFor(() => watch.output.stdout.match(/^linus +linus Doe +32 +\S+$/gm)?.length === 3, {
    what: 'the rows of the deletion',
  });

  watch.child.kill('SIGINT');
  names.child.kill('SIGTERM');
  const ended = await watch.done;
  expect(ended).toMatchObject({ code: 0, stderr: '' });
  expect(ended.stdout).not.toContain('linda');
  expect((await names.done).code).toBe(0);
});

test('get -l and --field-selector list the selected objects; delete -l removes those and waits until they are gone', async () => {
  await loginAsAdmin();
  expect((await svcctl(['apply', '-f', join(EXAMPLES, 'person-model.yaml')])).code).toBe(0);
  const file = join(dir, 'selected.yaml');
  writeFileSync(
    file,
    [
      person('sel-a', 'e2e: sel, team: drop', 1),
      person('sel-b', 'e2e: sel, team: drop', 2),
      person('sel-c', 'e2e: sel, team: keep', 3),
    ].join('---\n'),
  );
  expect((await svcctl(['apply', '-f', file])).code).toBe(0);
  const selected = await svcctl(['get', 'persons', '-l', 'e2e=sel,team=drop', '--sort-by', 'spec.name,asc']);
  expect(selected.stdout).toMatch(
    /^NAME +FULL NAME +YEARS +AGE\nsel-a +sel-a Doe +1 +\S+\nsel-b +sel-b Doe +2 +\S+\n$/,
  );
  expect((await svcctl(['get', 'persons', '--field-selector', 'spec.name=sel-c Doe', '-o', 'name'])).stdout).toBe(
    'persons/sel-c\n',
  );

  const deleted = await svcctl(['delete', 'persons', '-l', 'e2e=sel,team=drop']);
  expect(deleted.code).toBe(0);
  expect(deleted.stdout.split('\n').filter(Boolean).sort()).toEqual(['persons/sel-a deleted', 'persons/sel-b deleted']);
  expect((await svcctl(['get', 'persons', '-l', 'e2e=sel', '-o', 'name'])).stdout).toBe('persons/sel-c\n');
  expect(await svcctl(['delete', 'persons', '-l', 'e2e=nothing'])).toMatchObject({
    code: 0,
    stdout: '',
    stderr: 'No resources found.\n',
  });
});

test('apply --prune -l deletes the selected objects that left the files, and only those; a dry run deletes nothing', async () => {
  await loginAsAdmin();
  expect((await svcctl(['apply', '-f', join(EXAMPLES, 'person-model.yaml')])).code).toBe(0);
  const folder = join(dir, 'people');
  mkdirSync(folder);
  writeFileSync(join(folder, 'kept.yaml'), person('kept', 'e2e: prune', 1));
  writeFileSync(join(folder, 'dropped.yaml'), person('dropped', 'e2e: prune', 2));
  writeFileSync(join(dir, 'bystander.yaml'), person('bystander', 'e2e: bystander', 3));
  expect((await svcctl(['apply', '-f', join(dir, 'bystander.yaml')])).code).toBe(0);
  const prune = ['apply', '-f', folder, '--prune', '-l', 'e2e=prune'];
  expect(await svcctl(prune)).toMatchObject({
    code: 0,
    stderr: '',
    stdout: 'persons/dropped created\npersons/kept created\n',
  });

  rmSync(join(folder, 'dropped.yaml'));
  const dryRun = await svcctl([...prune, '--dry-run=server']);
  expect(dryRun).toMatchObject({
    code: 0,
    stdout: 'persons/kept unchanged (server dry run)\npersons/dropped pruned (server dry run)\n',
  });
  expect((await svcctl(['get', 'persons', 'dropped'])).code).toBe(0);

  expect(await svcctl(prune)).toMatchObject({
    code: 0,
    stderr: '',
    stdout: 'persons/kept unchanged\npersons/dropped pruned\n',
  });
  await waitFor(async () => (await svcctl(['get', 'persons', 'dropped'])).code === 1, { what: 'dropped to be gone' });
  expect((await svcctl(['get', 'persons', 'kept', 'bystander', '-o', 'name'])).stdout).toBe(
    'persons/kept\npersons/bystander\n',
  );
  expect((await svcctl(['apply', '-f', folder, '--prune'])).code).toBe(2);
});

test('plugin list, status and disable', async () => {
  await loginAsAdmin();
  const status = await waitFor(
    async () => {
      const run = await svcctl(['plugin', 'status', 'hello']);
      return run.stdout.includes('Phase:       STARTED') ? run : undefined;
    },
    { timeoutMs: 20_000, what: 'the hello plugin to start' },
  );
  expect(status.stdout).toMatch(/^Name: +hello\nVersion: +0\.1\.0\nEnabled: +true\nPhase: +STARTED\n/);
  expect(status.stdout).toMatch(/\nConditions:\n {2}TYPE +STATUS +REASON +MESSAGE\n {2}Ready +True +/);
  expect(status.stdout).toMatch(/\nExtensions:\n {2}<none>\n$/);

  const list = await waitFor(
    async () => {
      const run = await svcctl(['plugin', 'list']);
      return run.stdout.includes('FAILED') ? run : undefined;
    },
    { timeoutMs: 20_000, what: 'the broken plugin to fail' },
  );
  expect(list.stdout).toMatch(/^NAME +VERSION +PHASE +MESSAGE\n/);
  expect(list.stdout).toMatch(/\nbroken +0\.1\.0 +FAILED +.*no database configured/);
  expect(list.stdout).toMatch(/\nhello +0\.1\.0 +STARTED/);

  expect(await svcctl(['plugin', 'disable', 'hello'])).toMatchObject({ code: 0, stdout: 'plugins/hello disabled\n' });
  expect(JSON.parse((await svcctl(['get', 'plugins', 'hello', '-o', 'json'])).stdout).spec.enabled).toBe(false);
  expect((await svcctl(['plugin', 'status', 'nosuch'])).stderr).toMatch(/^Error from server \(NotFound\)/);
});
