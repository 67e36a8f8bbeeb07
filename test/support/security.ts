import { readFileSync } from 'node:fs';
import { client, startTestApiServer, TEST_ADMIN_PASSWORD, type ApiClient } from './apiserver';
import { applyPersonModel } from './person';
import { stopControllerManagers } from './running-controller-managers';
import type { ApiServerConfig, RunningApiServer } from '../../pkg/server/app';

export const ROLES = '/api/v1alpha1/roles';
export const BINDINGS = '/api/v1alpha1/rolebindings';
export const USERS = '/api/v1alpha1/users';
export const UC_TOKENS = '/apis/uc.api.security.svc.run/v1alpha1/personalaccesstokens';
export const ACCESS_REVIEWS = '/apis/authorization.svc.run/v1alpha1/accessreviews';
export const MY_PERMISSIONS = '/apis/api.console.svc.run/v1alpha1/users/-/permissions';
export const TOKEN_ANNOTATION = 'security.svc.run/access-token';

/** `Authorization: Basic …` for a user and password. */
export const basic = (user: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A suite's RBAC apiserver serving the Person model: the admin's client, the anonymous one, and clients for anyone. */
export interface RbacApi {
  server: RunningApiServer;
  admin: ApiClient;
  anonymous: ApiClient;
  as(headers: Record<string, string>): ApiClient;
}

/**
 * Registers a suite's hooks: one apiserver with `--authorization-mode=RBAC` and the Person model.
 * With `tlsSelfSignedDir`, the clients trust the server's CA.
 */
export function useRbacApi(config: Partial<ApiServerConfig> = {}): RbacApi {
  const suite = {} as RbacApi;
  beforeAll(async () => {
    const server = await startTestApiServer({ authorizationMode: 'RBAC', ...config });
    Object.assign(suite, rbacApi(server, server.caFile ? readFileSync(server.caFile) : undefined));
    await applyPersonModel(suite.admin);
  });
  afterAll(async () => {
    await stopControllerManagers(suite.server.url);
    await suite.server.stop();
  });
  return suite;
}

/** The admin's, the anonymous and anyone's clients of a running apiserver (trusting `ca` over HTTPS). */
export function rbacApi(server: RunningApiServer, ca?: string | Buffer): RbacApi {
  return {
    server,
    admin: client(server.url, basic('admin', TEST_ADMIN_PASSWORD), ca),
    anonymous: client(server.url, {}, ca),
    as: (headers) => client(server.url, headers, ca),
  };
}

/** Fails the test with the answer when a setup call did not get the status it needed. */
export function expectStatus(res: { status: number; text: string }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text}`);
}

/** Creates a user with a password; returns a client logged in as them (Basic). */
export async function createUser(
  api: RbacApi,
  name: string,
  password = `${name}-password`,
  spec: Record<string, unknown> = {},
): Promise<ApiClient> {
  expectStatus(await api.admin('POST', USERS, { metadata: { name }, spec }), 201, `creating user ${name}`);
  expectStatus(await api.admin('PUT', `${USERS}/${name}/password`, { password }), 200, `setting ${name}'s password`);
  return api.as(basic(name, password));
}

/** Creates a role with these rules (and metadata extras). */
export async function createRole(
  api: RbacApi,
  name: string,
  rules: unknown[],
  metadata: Record<string, unknown> = {},
): Promise<void> {
  expectStatus(
    await api.admin('POST', ROLES, { metadata: { name, ...metadata }, rules }),
    201,
    `creating role ${name}`,
  );
}

/** Binds `role` to `user` as the admin. */
export async function bind(api: RbacApi, user: string, role: string, name = `${user}-${role}`): Promise<void> {
  expectStatus(
    await api.admin('POST', BINDINGS, {
      metadata: { name },
      roleRef: { apiGroup: '', kind: 'Role', name: role },
      subjects: [{ kind: 'User', apiGroup: '', name: user }],
    }),
    201,
    `binding ${role} to ${user}`,
  );
}

/** Creates a personal access token as `as`; returns the secret and the object's name. */
export async function createToken(
  as: ApiClient,
  spec: Record<string, unknown> = {},
): Promise<{ token: string; name: string }> {
  const res = await as('POST', UC_TOKENS, { spec: { displayName: 'test', ...spec } });
  expectStatus(res, 201, 'creating a token');
  return { token: res.body.metadata.annotations[TOKEN_ANNOTATION], name: res.body.metadata.name };
}
