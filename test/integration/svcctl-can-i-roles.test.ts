import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yaml from 'js-yaml';
import { runSvcctl } from '../../pkg/cli';
import { PERSONS } from '../support/person';
import { bearer, bind, createRole, createToken, createUser, useRbacApi, type RbacApi } from '../support/security';

// `svcctl auth can-i` answers what the server then does, for a user holding each bootstrap role (and one
// holding none): every verb on a table of resources, and a few paths. The server's own answer is the real
// request, made so that it changes nothing once allowed (a missing name, an empty body, a selector that
// matches nothing): 403 is "no", anything else "yes".
const api = useRbacApi();
const POSTS = '/apis/content.svc.run/v1alpha1/posts';
const NOTHING = 'labelSelector=none-such%3Dx';

/** Every bootstrap role a binding can name (anonymous and authenticated are every user's anyway). */
const BOOTSTRAP_ROLES = (
  yaml.loadAll(readFileSync(join(__dirname, '..', '..', 'manifests', 'bootstrap', 'roles.yaml'), 'utf8')) as {
    kind?: string;
    metadata?: { name?: string };
  }[]
)
  .filter((doc) => doc?.kind === 'Role')
  .map((doc) => doc.metadata?.name ?? '')
  .filter((name) => name !== 'anonymous' && name !== 'authenticated');

const RESOURCES: [string, string][] = [
  ['persons', PERSONS],
  ['posts', POSTS],
  ['roles', '/api/v1alpha1/roles'],
  ['users', '/api/v1alpha1/users'],
  ['rolebindings', '/api/v1alpha1/rolebindings'],
];

/** The request that exercises `verb` on a collection without changing anything if allowed. */
const REQUESTS: Record<string, (collection: string) => [string, string, unknown?]> = {
  get: (c) => ['GET', `${c}/nobody`],
  list: (c) => ['GET', `${c}?${NOTHING}`],
  watch: (c) => ['HEAD', `${c}?watch=true&${NOTHING}`],
  create: (c) => ['POST', c, { metadata: {} }],
  update: (c) => ['PUT', `${c}/nobody`, { metadata: { name: 'nobody' } }],
  patch: (c) => ['PATCH', `${c}/nobody`, {}],
  delete: (c) => ['DELETE', `${c}/nobody`],
  deletecollection: (c) => ['DELETE', `${c}?${NOTHING}`],
};
const PATHS = ['/healthz', '/version', '/metrics', '/openapi/v3'];

const tokens = new Map<string, string>();

beforeAll(async () => {
  await api.server.schemes.register(
    {
      group: 'content.svc.run',
      version: 'v1alpha1',
      kind: 'Post',
      singular: 'post',
      plural: 'posts',
      // The index the built-in roles' read conditions ("own posts") name; the content module's others (spec.publish,
      // status.phase) are left out, so the conditions naming them grant nothing here, as svcctl must say too.
      indexes: [{ name: 'spec.owner', indexFunc: (o) => (o.spec as { owner?: string } | undefined)?.owner }],
    },
    undefined,
    { platform: true },
  );
  for (const role of [...BOOTSTRAP_ROLES, '']) {
    const user = `holder-${role || 'nothing'}`;
    const client = await createUser(api, user);
    if (role) await bind(api, user, role);
    tokens.set(role, (await createToken(client)).token);
  }
});

async function canI(token: string, verb: string, resource: string): Promise<boolean> {
  const code = await runSvcctl(['auth', 'can-i', verb, resource], {
    stdout: () => undefined,
    stderr: (t) => {
      throw new Error(`svcctl auth can-i ${verb} ${resource}: ${t}`);
    },
    stdin: Readable.from([]),
    env: { SVC_SERVER: api.server.url, SVC_TOKEN: token },
    home: '/nonexistent',
  });
  if (code > 1) throw new Error(`svcctl auth can-i ${verb} ${resource} exited ${code}`);
  return code === 0;
}

async function serverAllows(client: RbacApi['admin'], method: string, path: string, body?: unknown): Promise<boolean> {
  const res = await client(method, path, body);
  if (res.status === 401) throw new Error(`${method} ${path}: 401, the token was not accepted`);
  return res.status !== 403;
}

it('knows every bootstrap role', () => {
  expect(BOOTSTRAP_ROLES).toEqual(
    expect.arrayContaining(['super-role', 'guest', 'post-contributor', 'post-author', 'post-editor']),
  );
});

describe.each([...BOOTSTRAP_ROLES.map((r) => [r, r]), ['no role', '']])('a user holding %s', (_label, role) => {
  it('gets from svcctl auth can-i what the server does, for every verb and resource and a few paths', async () => {
    const token = tokens.get(role) ?? '';
    const client = api.as(bearer(token));
    const disagreements: string[] = [];
    const answers: string[] = [];
    for (const [resource, collection] of RESOURCES) {
      for (const [verb, request] of Object.entries(REQUESTS)) {
        const said = await canI(token, verb, resource);
        const did = await serverAllows(client, ...request(collection));
        answers.push(`${verb} ${resource}: ${said ? 'yes' : 'no'}`);
        if (said !== did) disagreements.push(`${verb} ${resource}: svcctl says ${said}, the server ${did}`);
      }
    }
    for (const path of PATHS) {
      const said = await canI(token, 'get', path);
      if (said !== (await serverAllows(client, 'GET', path))) disagreements.push(`get ${path}: svcctl says ${said}`);
    }
    expect(disagreements).toEqual([]);
    // The table is not trivially all-yes or all-no, except for the roles that allow everything or nothing here.
    if (role === 'super-role') expect(answers.every((a) => a.endsWith('yes'))).toBe(true);
    if (role === 'post-editor') expect(answers).toEqual(expect.arrayContaining(['get posts: yes', 'create posts: no']));
  });
});

describe('a resource type discovery does not list (a plugin route)', () => {
  /** Runs svcctl auth with this token, capturing its output. */
  async function auth(token: string, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runSvcctl(['auth', ...argv], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      stdin: Readable.from([]),
      env: { SVC_SERVER: api.server.url, SVC_TOKEN: token },
      home: '/nonexistent',
    });
    return { code, stdout, stderr };
  }

  it('is asked about anyway, as kubectl does: <resource>.<group> split at the first dot, with a warning', async () => {
    await createRole(api, 'greeter', [
      { apiGroups: ['api.hello.example.com'], resources: ['greetings'], verbs: ['get'] },
    ]);
    const client = await createUser(api, 'greeted');
    await bind(api, 'greeted', 'greeter');
    const token = (await createToken(client)).token;
    expect(await auth(token, 'can-i', 'get', 'greetings.api.hello.example.com')).toEqual({
      code: 0,
      stdout: 'yes\n',
      stderr: "Warning: the server doesn't have a resource type 'greetings' in group 'api.hello.example.com'\n",
    });
    expect(await auth(token, 'can-i', 'create', 'greetings.api.hello.example.com', 'ada')).toMatchObject({
      code: 1,
      stdout: 'no\n',
    });
    // A bare resource is in the core group, where the role grants nothing.
    expect(await auth(token, 'can-i', 'get', 'greetings')).toEqual({
      code: 1,
      stdout: 'no\n',
      stderr: "Warning: the server doesn't have a resource type 'greetings'\n",
    });
    const explained = await auth(token, 'explain', 'get', 'greetings.api.hello.example.com');
    expect(explained).toMatchObject({ code: 0, stderr: expect.stringContaining('Warning: ') });
    expect(explained.stdout).toMatch(/^yes: .*\n {2}.*greeter/s);
  });
});
