import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runSvcctl } from '../../pkg/cli';
import { person, PERSONS } from '../support/person';
import { bind, createRole, createToken, createUser, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// svcctl's access insight and audit commands against a real apiserver.
const api = useRbacApi();
const dir = mkdtempSync(join(tmpdir(), 'svcctl-insight-'));
let adminToken = '';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function svcctl(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSvcctl(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdin: Readable.from([]),
    env: { SVC_SERVER: api.server.url, SVC_TOKEN: adminToken },
    home: dir,
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  adminToken = (await createToken(api.admin)).token;
  await createRole(api, 'person-editor', [
    { verbs: ['update', 'get'], apiGroups: ['example.com'], resources: ['persons'] },
  ]);
  const ada = await createUser(api, 'ada');
  await bind(api, 'ada', 'person-editor');
  expect((await ada('DELETE', `${PERSONS}/nobody`)).status).toBe(403);
  expect((await api.admin('POST', PERSONS, person('p1'))).status).toBe(201);
});

describe('svcctl access insight', () => {
  it('auth who-can lists the users, bindings, roles and rules', async () => {
    const { code, stdout } = await svcctl('auth', 'who-can', 'update', 'persons', 'p1');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^USER +BINDING +ROLE +RULE/m);
    expect(stdout).toMatch(/^ada +ada-person-editor +person-editor +update,get persons\.example\.com/m);
    expect(stdout).toMatch(/^admin +/m);
  });

  it('auth rules --as lists what a user may do, and where it comes from', async () => {
    const { code, stdout } = await svcctl('auth', 'rules', '--as', 'ada');
    expect(code).toBe(0);
    expect(stdout).toMatch(/update,get persons\.example\.com +ada-person-editor: person-editor/);
    expect(stdout).toContain('UI permissions: <none>');
  });

  it('roles impact -f shows who gains and loses what, and writes nothing (exit 0)', async () => {
    const file = join(dir, 'role.yaml');
    writeFileSync(
      file,
      'apiVersion: v1alpha1\nkind: Role\nmetadata:\n  name: person-editor\nrules:\n' +
        '  - {apiGroups: [example.com], resources: [persons], verbs: [get, delete]}\n',
    );
    const { code, stdout } = await svcctl('roles', 'impact', '-f', file);
    expect(code).toBe(0);
    expect(stdout).toContain('Role/person-editor (update): 1 users affected');
    expect(stdout).toMatch(/^ada +delete persons\.example\.com +update persons\.example\.com/m);
    const stored = await api.admin('GET', '/api/v1alpha1/roles/person-editor');
    expect(stored.body.rules[0].verbs).toEqual(['update', 'get']);
  });

  it('audit lists the records of a user, newest first', async () => {
    const { stdout } = await waitFor(async () => {
      const run = await svcctl('audit', '--user', 'ada', '--since', '1h');
      return run.stdout.includes('deny') ? run : undefined;
    });
    expect(stdout).toMatch(/^TIME +USER +VERB +RESOURCE +NAME +CODE +DECISION +REASON/m);
    expect(stdout).toMatch(/ada +delete +persons\.example\.com +nobody +403 +deny +no role of user "ada"/);
  });
});
