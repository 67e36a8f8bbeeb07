import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSigned } from '../../pkg/apiserver/tls/self-signed';
import { ApiClient } from '../../pkg/client';
import { client, startTestApiServer } from '../support/apiserver';
import { applyPersonModel, person, PERSON_RES, PERSONS } from '../support/person';
import { bearer, bind, createRole, createToken, createUser, rbacApi, type RbacApi } from '../support/security';
import { wsWatch } from '../support/watch-client';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-api-tls-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--tls-cert-file and --tls-private-key-file', () => {
  let api: RbacApi;
  let ca: Buffer;
  let token: string;

  beforeAll(async () => {
    // A certificate of the test's own, from a CA of its own: what an operator hands the apiserver.
    const made = await ensureSelfSigned(join(dir, 'operator'));
    ca = readFileSync(made.caFile);
    const server = await startTestApiServer({
      authorizationMode: 'RBAC',
      tlsCertFile: join(dir, 'operator', 'server.crt'),
      tlsPrivateKeyFile: join(dir, 'operator', 'server.key'),
    });
    api = rbacApi(server, ca);
    await applyPersonModel(api.admin);
    const ada = await createUser(api, 'ada');
    await createRole(api, 'person-reader', [
      { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list', 'watch'] },
    ]);
    await bind(api, 'ada', 'person-reader');
    ({ token } = await createToken(ada));
  });
  afterAll(() => api.server.stop());

  it('serves HTTPS on --listen, and its url says so', () => {
    expect(api.server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(api.server.caFile).toBeUndefined();
  });

  it("answers a GET with a user's bearer token as that user, verified against the CA", async () => {
    expect((await api.admin('POST', PERSONS, person('bob'))).status).toBe(201);
    const res = await api.as(bearer(token))('GET', PERSONS);
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['bob']);
    expect((await api.as(bearer(token))('DELETE', `${PERSONS}/bob`)).body.message).toBe(
      'persons.example.com "bob" is forbidden: User "ada" cannot delete resource "persons" in API group "example.com" at the cluster scope',
    );
  });

  it('is refused by a client that does not trust the CA, and does not answer plain HTTP', async () => {
    const untrusting = await fetch(`${api.server.url}/healthz`).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    expect(untrusting).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    const plain = await fetch(`${api.server.url.replace('https:', 'http:')}/healthz`).then(
      (r) => r.status,
      () => 'no answer',
    );
    expect(plain).toBe('no answer');
  });

  it('serves WebSocket watches over wss:// with the token', async () => {
    const watch = await wsWatch(`${api.server.url}${PERSONS}?watch=true&resourceVersion=0`, {
      headers: bearer(token),
      ca,
    });
    try {
      expect((await api.admin('POST', PERSONS, person('carl'))).status).toBe(201);
      const names = async () => (await watch.events.take(2)).map((e) => `${e.type} ${e.object.metadata.name}`);
      expect((await names()).sort()).toEqual(['ADDED bob', 'ADDED carl']);
    } finally {
      watch.close();
    }
  });

  it("lets pkg/client (the controller-manager's client) reach it when given the CA", async () => {
    const list = await new ApiClient({ server: api.server.url, token, ca }).list(PERSON_RES);
    expect(list.items.map((p) => p.metadata.name).sort()).toEqual(['bob', 'carl']);
    await expect(new ApiClient({ server: api.server.url, token }).list(PERSON_RES)).rejects.toThrow(
      /unable to verify the first certificate/,
    );
  });
});

describe('--tls-self-signed', () => {
  it('makes a CA on first start that verifies the server at 127.0.0.1 and localhost, and keeps it across restarts', async () => {
    const tlsDir = join(dir, 'self-signed');
    const first = await startTestApiServer({ tlsSelfSignedDir: tlsDir });
    let caBefore: Buffer;
    try {
      expect(first.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(first.caFile).toBe(join(tlsDir, 'ca.crt'));
      caBefore = readFileSync(first.caFile!);
      expect((await client(first.url, {}, caBefore)('GET', '/healthz')).text).toBe('ok');
      expect((await client(first.url.replace('127.0.0.1', 'localhost'), {}, caBefore)('GET', '/readyz')).status).toBe(
        200,
      );
    } finally {
      await first.stop();
    }
    const second = await startTestApiServer({ tlsSelfSignedDir: tlsDir });
    try {
      expect(readFileSync(second.caFile!).equals(caBefore)).toBe(true);
      expect((await client(second.url, {}, caBefore)('GET', '/healthz')).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

describe('--tls-listen: HTTPS beside plain HTTP, one process', () => {
  it('serves the same objects on both listeners, a watch over HTTPS sees a write over HTTP, and drains both', async () => {
    const tlsDir = join(dir, 'two-listeners');
    const server = await startTestApiServer({
      authorizationMode: 'RBAC',
      tlsSelfSignedDir: tlsDir,
      tlsListen: '127.0.0.1:0',
    });
    const ca = readFileSync(join(tlsDir, 'ca.crt'));
    let stopped = false;
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.secureUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(server.caFile).toBe(join(tlsDir, 'ca.crt'));
      const plain = rbacApi(server);
      const secure = rbacApi({ ...server, url: server.secureUrl! }, ca);
      await applyPersonModel(plain.admin);
      const ada = await createUser(plain, 'ada');
      await createRole(plain, 'person-reader', [
        { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list', 'watch'] },
      ]);
      await bind(plain, 'ada', 'person-reader');
      const { token } = await createToken(ada);

      const watch = await wsWatch(`${server.secureUrl}${PERSONS}?watch=true`, { headers: bearer(token), ca });
      try {
        expect((await plain.admin('POST', PERSONS, person('dora'))).status).toBe(201);
        expect((await watch.events.take(1)).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED dora']);
      } finally {
        watch.close();
      }
      const listed = await secure.as(bearer(token))('GET', PERSONS);
      expect(listed.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['dora']);
      expect((await plain.as(bearer(token))('GET', PERSONS)).status).toBe(200);
      // A client given the CA (a context logged in over HTTPS) still reaches the plain listener: the CA is for https://.
      for (const url of [server.url, server.secureUrl!]) {
        const items = (await new ApiClient({ server: url, token, ca }).list(PERSON_RES)).items;
        expect(items.map((p) => p.metadata.name)).toEqual(['dora']);
      }

      await server.stop();
      stopped = true;
      for (const url of [server.url, server.secureUrl!]) {
        const after = await client(
          url,
          {},
          ca,
        )('GET', '/healthz').then(
          () => 'answered',
          () => 'closed',
        );
        expect(after).toBe('closed');
      }
    } finally {
      if (!stopped) await server.stop();
    }
  });

  it('refuses to start without a certificate for it', async () => {
    await expect(startTestApiServer({ tlsListen: '127.0.0.1:0' })).rejects.toThrow(
      '--tls-listen needs a certificate: --tls-self-signed, or --tls-cert-file and --tls-private-key-file',
    );
  });
});
