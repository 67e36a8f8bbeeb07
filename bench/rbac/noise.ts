import type { Role } from '../../pkg/auth/rbac';
import { withPhaseProgress } from '../apiserver/phase-progress';
import { runLoad, type LoadRequest } from '../support/http-load';
import type { ClusterServer } from './cluster';
import type { World } from './rbac-world';

export const ROLES_PATH = '/api/v1alpha1/roles';
export const BINDINGS_PATH = '/api/v1alpha1/rolebindings';
/** Requests in flight while storing the noise. */
const LOAD_CONCURRENCY = 32;
/** The world's roles that stand for the built-in ones (held by every user): the apiserver has its own. */
const BUILT_IN = new Set(['anonymous', 'authenticated']);

/** What was stored, and how fast. */
export interface NoiseLoaded {
  roles: number;
  bindings: number;
  seconds: number;
}

/** A RoleBinding of `user` to `role`, as the API takes it. */
export function bindingBody(name: string, role: string, user: string): string {
  return JSON.stringify({
    apiVersion: 'v1alpha1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: '', kind: 'Role', name: role },
    subjects: [{ kind: 'User', apiGroup: '', name: user }],
  });
}

/** A Role as the API takes it: a name, labels, annotations and rules. */
export function roleBody(role: Pick<Role, 'metadata' | 'rules'>): string {
  const { name, labels, annotations } = role.metadata;
  return JSON.stringify({
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name, labels, annotations },
    rules: role.rules,
  });
}

/**
 * Stores the world's roles, then its bindings (other users', never the
 * benchmark's), through `server` as `authorization`, LOAD_CONCURRENCY in
 * flight: the realistic noise the end-to-end parts run beside.
 */
export async function loadNoise(server: ClusterServer, authorization: string, world: World): Promise<NoiseLoaded> {
  const headers = { Authorization: authorization };
  const roles = world.roles.filter((r) => !BUILT_IN.has(r.metadata.name!));
  const bindings = new Map<string, { role: string; user: string }>();
  for (const [user, list] of world.bindings)
    for (const { binding, role } of list) bindings.set(binding, { role, user });
  const bindingList = [...bindings];
  const started = performance.now();
  await store(server, `storing ${roles.length} roles`, roles.length, (i) => ({
    method: 'POST',
    path: ROLES_PATH,
    body: roleBody(roles[i]),
    headers,
  }));
  await store(server, `storing ${bindingList.length} bindings`, bindingList.length, (i) => {
    const [name, { role, user }] = bindingList[i];
    return { method: 'POST', path: BINDINGS_PATH, body: bindingBody(name, role, user), headers };
  });
  return { roles: roles.length, bindings: bindingList.length, seconds: (performance.now() - started) / 1000 };
}

async function store(
  server: ClusterServer,
  label: string,
  count: number,
  requestAt: (i: number) => LoadRequest,
): Promise<void> {
  const result = await withPhaseProgress(label, count, (update) =>
    runLoad({
      url: server.url,
      concurrency: LOAD_CONCURRENCY,
      requests: count,
      expectStatus: 201,
      requestAt,
      onProgress: update,
    }),
  );
  if (result.errors > 0) throw new Error(`${label}: ${result.errors} failed; first: ${result.firstError}`);
}
