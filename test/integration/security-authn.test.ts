import { PERSONS, person } from '../support/person';
import { waitFor } from '../support/wait-for';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import {
  basic,
  bearer,
  bind,
  createRole,
  createToken,
  createUser,
  expectStatus,
  useRbacApi,
  TOKEN_ANNOTATION,
  UC_TOKENS,
  USERS,
} from '../support/security';

// Authentication (docs/security.md): Basic, bearer tokens, anonymous; tokens; failed-login throttling.
const suite = useRbacApi({ loginLimits: { perUser: 3, perAddress: 1000 } });

describe('who a request comes from', () => {
  it('answers the anonymous visitor 401 with a challenge where a role is needed, and serves health and discovery', async () => {
    const denied = await suite.anonymous('GET', PERSONS);
    expect(denied.status).toBe(401);
    expect(denied.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect(denied.headers.get('www-authenticate')).toMatch(/^Basic/);
    for (const path of [
      '/healthz',
      '/readyz',
      '/version',
      '/api',
      '/apis',
      '/apis/example.com/v1alpha1',
      '/openapi/v3',
    ]) {
      expect([path, (await suite.anonymous('GET', path)).status]).toEqual([path, 200]);
    }
    expect((await suite.anonymous('GET', '/metrics')).status).toBe(401);
  });

  it('logs the admin in with Basic and refuses a wrong password with 401', async () => {
    expect((await suite.admin('GET', PERSONS)).status).toBe(200);
    const wrong = await suite.as(basic('admin', 'not-the-password'))('GET', PERSONS);
    expect(wrong.status).toBe(401);
    expect(wrong.body.reason).toBe('Unauthorized');
    expect((await suite.as(basic('nobody', 'whatever1'))('GET', PERSONS)).status).toBe(401);
  });

  it('locks a user past the failure limit: even the right password is 429 with Retry-After, while a token still works', async () => {
    const right = await createUser(suite, 'throttled', 'right-password');
    const { token } = await createToken(right);
    const wrong = suite.as(basic('throttled', 'wrong-password'));
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await wrong('GET', USERS)).status);
    expect(codes).toEqual([401, 401, 401, 429, 429]);
    const limited = await right('GET', '/apis/api.console.svc.run/v1alpha1/users/-');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The self-service password change checks no old password while locked.
    const own = suite.as(bearer(token));
    const change = await own('PUT', '/apis/uc.api.security.svc.run/v1alpha1/users/-/password', {
      oldPassword: 'right-password',
      password: 'third-password',
    });
    expect(change.status).toBe(429);
    // A personal access token is no password attempt: the locked user's token still works.
    const me = await own('GET', '/apis/api.console.svc.run/v1alpha1/users/-');
    expect(me.status).toBe(200);
    expect(me.body.metadata.name).toBe('throttled');
  });

  it("lifts a user's lock when an administrator sets their password", async () => {
    await createUser(suite, 'unlocked', 'first-password');
    const wrong = suite.as(basic('unlocked', 'wrong-password'));
    for (let i = 0; i < 3; i++) await wrong('GET', USERS);
    expect((await wrong('GET', USERS)).status).toBe(429);
    expectStatus(
      await suite.admin('PUT', `${USERS}/unlocked/password`, { password: 'second-password' }),
      200,
      'setting the password',
    );
    const me = await suite.as(basic('unlocked', 'second-password'))(
      'GET',
      '/apis/api.console.svc.run/v1alpha1/users/-',
    );
    expect(me.status).toBe(200);
  });
});

describe('personal access tokens', () => {
  it("shows the secret once, lists the caller's own tokens without secrets, and works as a bearer token", async () => {
    const ada = await createUser(suite, 'tok-ada');
    const { token, name } = await createToken(ada, { displayName: 'ci' });
    expect(token).toMatch(/^svc_/);
    const mine = await ada('GET', UC_TOKENS);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((t: any) => t.metadata.name)).toEqual([name]);
    expect(mine.text).not.toContain(token);
    expect(mine.body.items[0].metadata.annotations?.[TOKEN_ANNOTATION]).toBeUndefined();
    expect((await ada('GET', `${UC_TOKENS}/${name}`)).text).not.toContain(token);
    expect(
      (await suite.as(bearer(token))('GET', '/apis/api.console.svc.run/v1alpha1/users/-')).body.metadata.name,
    ).toBe('tok-ada');
    // Another user neither lists nor reads it.
    const bob = await createUser(suite, 'tok-bob');
    expect((await bob('GET', UC_TOKENS)).body.items).toEqual([]);
    expect((await bob('GET', `${UC_TOKENS}/${name}`)).status).toBe(404);
    expect((await bob('DELETE', `${UC_TOKENS}/${name}`)).status).toBe(404);
    // The administrators' view lists it, without the secret.
    const all = await suite.admin('GET', '/api/v1alpha1/personalaccesstokens');
    expect(all.body.items.map((t: any) => t.metadata.name)).toContain(name);
    expect(all.text).not.toContain(token);
  });

  it('refuses a revoked token, an unknown one, an expired one, and those of a disabled user, each saying which', async () => {
    const ada = await createUser(suite, 'tok-revoke');
    const me = (token: string) => suite.as(bearer(token))('GET', '/apis/api.console.svc.run/v1alpha1/users/-');
    const refusal = async (token: string) => {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401 });
      return res.body.message as string;
    };
    const revoked = await createToken(ada);
    expect((await me(revoked.token)).status).toBe(200);
    expect((await ada('DELETE', `${UC_TOKENS}/${revoked.name}`)).status).toBe(200);
    expect(await refusal(revoked.token)).toBe('invalid bearer token: the token was revoked');
    expect((await suite.as(bearer('svc_made-up'))('GET', PERSONS)).body.message).toBe(
      'invalid bearer token: this server knows no such token (mistyped, or made by another server)',
    );
    const byAdmin = await createToken(ada);
    expect((await suite.admin('DELETE', `/api/v1alpha1/personalaccesstokens/${byAdmin.name}`)).status).toBe(200);
    expect(await refusal(byAdmin.token)).toBe('invalid bearer token: the token was revoked');

    const expiring = await createToken(ada, { expiresAt: new Date(Date.now() + 1500).toISOString() });
    await waitFor(async () => (await me(expiring.token)).status === 401, {
      what: 'the token to expire',
      timeoutMs: 10_000,
      intervalMs: 200,
    });
    expect(await refusal(expiring.token)).toBe('invalid bearer token: the token has expired');

    const kept = await createToken(ada);
    const user = (await suite.admin('GET', `${USERS}/tok-revoke`)).body;
    expectStatus(
      await suite.admin('PUT', `${USERS}/tok-revoke`, { ...user, spec: { disabled: true } }),
      200,
      'disabling',
    );
    expect(await refusal(kept.token)).toBe("invalid bearer token: the token's user is disabled or deleted");
    expect((await ada('GET', '/apis/api.console.svc.run/v1alpha1/users/-')).status).toBe(401);
  });

  it('a role-limited token carries only its roles; a role the user does not hold is 422', async () => {
    await createRole(suite, 'tok-readers', [
      { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list'] },
    ]);
    await createRole(suite, 'tok-writers', [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['create'] }]);
    const ada = await createUser(suite, 'tok-limited');
    await bind(suite, 'tok-limited', 'tok-readers');
    await bind(suite, 'tok-limited', 'tok-writers');
    const { token } = await createToken(ada, { roles: ['tok-readers'] });
    const limited = suite.as(bearer(token));
    expect((await limited('GET', PERSONS)).status).toBe(200);
    expect((await limited('POST', PERSONS, person('limited-write'))).status).toBe(403);
    expect((await ada('POST', PERSONS, person('full-write'))).status).toBe(201);
    const refused = await ada('POST', UC_TOKENS, { spec: { roles: ['super-role'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.details.causes[0]).toMatchObject({ field: 'spec.roles[0]' });
    // A token made with a limited token is limited the same way.
    const child = await createToken(limited);
    expect((await suite.as(bearer(child.token))('POST', PERSONS, person('child-write'))).status).toBe(403);
  });

  it('limits a token to authenticated or anonymous, which every logged-in user holds; a dependency of a bound role is not held', async () => {
    await createRole(suite, 'tok-base', [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] }]);
    await createRole(suite, 'tok-top', [], {
      annotations: { 'rbac.authorization.svc.run/dependencies': '["tok-base"]' },
    });
    const ada = await createUser(suite, 'tok-implicit');
    await bind(suite, 'tok-implicit', 'tok-top');
    const authenticated = await createToken(ada, { roles: ['authenticated'] });
    const own = suite.as(bearer(authenticated.token));
    expect((await own('GET', '/apis/api.console.svc.run/v1alpha1/users/-')).status).toBe(200);
    expect((await own('GET', `${PERSONS}/nobody`)).status).toBe(403);
    const anonymous = await createToken(ada, { roles: ['anonymous'] });
    expect((await suite.as(bearer(anonymous.token))('GET', '/version')).status).toBe(200);
    const both = await ada('POST', UC_TOKENS, { spec: { roles: ['authenticated', 'anonymous', 'tok-top'] } });
    expect(both.status).toBe(201);
    const dependency = await ada('POST', UC_TOKENS, { spec: { roles: ['tok-base'] } });
    expect(dependency.status).toBe(422);
    expect(dependency.body.details.causes).toEqual([expect.objectContaining({ field: 'spec.roles[0]' })]);
  });

  it('never answers with a password hash or a token but at creation', async () => {
    const ada = await createUser(suite, 'tok-leaks');
    const { token } = await createToken(ada);
    const answers = await Promise.all([
      suite.admin('GET', USERS),
      suite.admin('GET', `${USERS}/tok-leaks`),
      suite.admin('GET', '/api/v1alpha1/personalaccesstokens'),
      ada('GET', UC_TOKENS),
      ada('GET', '/apis/api.console.svc.run/v1alpha1/users/-'),
      suite.admin('PUT', `${USERS}/tok-leaks/password`, { password: 'another-password' }),
      suite.as(basic('admin', TEST_ADMIN_PASSWORD))('GET', '/api/v1alpha1/personalaccesstokens?watch=false'),
    ]);
    for (const res of answers) {
      expect(res.text).not.toMatch(/\$argon2/);
      expect(res.text).not.toContain(token);
    }
  });
});
