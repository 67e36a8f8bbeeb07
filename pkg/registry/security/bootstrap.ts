import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import yaml from 'js-yaml';
import type { ApiObject } from '../../api/object';
import { AUTOUPDATE_ANNOTATION } from '../../api/role-keys';
import { isAdmitted, SUPER_ROLE, type PolicyRule, type Role } from '../../auth/rbac';
import { hashPassword, type PasswordHashOptions } from '../../auth/password';
import { jsonEqual } from '../../util/json-equal';
import type { Logger } from '../../util/log';
import type { ResourceStore } from '../resource-store';
import type { CredentialStore } from './credentials';
import { isNotFound } from '../../api/errors';

/** The super administrator's user name (docs/security.md). */
export const ADMIN_USER = 'admin';

/** The stores the bootstrap writes through, as the platform (no user: no escalation check). */
export interface BootstrapStores {
  users: ResourceStore;
  roles: ResourceStore;
  bindings: ResourceStore;
  credentials: CredentialStore;
}

export interface BootstrapOptions {
  /** The first start's admin password; a random one is made and printed when absent. */
  adminPassword?: string;
  passwordHash?: PasswordHashOptions;
  /** Tells the one-time random password to whoever started the apiserver; by default it is printed on stderr. */
  announce?: (password: string) => void;
}

/**
 * Applies the built-in roles and bindings of `manifests/bootstrap/` and, on
 * the first start (no `admin` user yet), creates the super administrator.
 * Safe to run on every start of every replica. Resolves with whether this
 * start gave `admin` its password (the one given, or a random one).
 */
export async function bootstrapSecurity(
  stores: BootstrapStores,
  options: BootstrapOptions,
  log: Logger,
): Promise<{ adminPasswordSet: boolean }> {
  for (const object of loadBootstrapManifests()) {
    if (object.kind === 'Role') await applyRole(stores.roles, object as Role, log);
    else if (object.kind === 'RoleBinding') await createIfAbsent(stores.bindings, object);
  }
  return { adminPasswordSet: await createAdmin(stores, options, log) };
}

/** The one-time password as printed on a terminal. */
export function adminPasswordAnnouncement(password: string): string {
  return (
    `\n  The super administrator "${ADMIN_USER}" was created with the password:  ${password}\n` +
    '  It is shown this once. Log in with it (e.g. curl -u admin:PASSWORD …) and change it:\n' +
    '  PUT /apis/uc.api.security.svc.run/v1alpha1/users/-/password\n'
  );
}

/** The objects of `manifests/bootstrap/*.yaml`, in file order. */
export function loadBootstrapManifests(): ApiObject[] {
  const dir = bootstrapDir();
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .flatMap((file) =>
      yaml
        .loadAll(readFileSync(join(dir, file), 'utf8'), undefined, { schema: yaml.CORE_SCHEMA })
        .filter((doc): doc is ApiObject => doc !== null && typeof doc === 'object'),
    );
}

/** `manifests/bootstrap`, found upwards from this file (it runs from `pkg/…` under jest and `dist/pkg/…` when built). */
function bootstrapDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'manifests', 'bootstrap');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error("cannot find manifests/bootstrap above the apiserver's installation");
  }
}

/**
 * Creates a missing built-in role; adds to an existing one what the manifest
 * has and it lacks (rules, labels, annotations), keeping an administrator's
 * additions — Kubernetes' reconciliation of its bootstrap roles. super-role is
 * reset to the manifest.
 */
async function applyRole(roles: ResourceStore, wanted: Role, log: Logger): Promise<void> {
  const name = wanted.metadata.name!;
  const current = (await getOrUndefined(roles, name)) as Role | undefined;
  if (!current) {
    await createIfAbsent(roles, wanted);
    return;
  }
  if (current.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false' && name !== SUPER_ROLE) return;
  const next: Role =
    name === SUPER_ROLE
      ? {
          ...current,
          rules: wanted.rules,
          metadata: { ...current.metadata, labels: wanted.metadata.labels, annotations: wanted.metadata.annotations },
        }
      : {
          ...current,
          rules: [
            ...(current.rules ?? []),
            ...(wanted.rules ?? []).filter((r) => !(current.rules ?? []).some((c) => sameRule(c, r))),
          ],
          metadata: {
            ...current.metadata,
            labels: { ...wanted.metadata.labels, ...current.metadata.labels },
            annotations: { ...wanted.metadata.annotations, ...current.metadata.annotations },
          },
        };
  // A role stored before the role-write check (no admission stamp) is written again, which stamps it.
  if (jsonEqual(next, current) && isAdmitted(current)) return;
  await roles.update(name, {
    ...next,
    metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion },
  });
  log.info({ role: name }, 'built-in role updated');
}

/**
 * Creates the super administrator on the first start. A first start that died
 * between creating `admin` and storing its password is finished by the next
 * one: the replica whose claim (an update of `admin` under its resourceVersion)
 * wins sets the password, so two replicas never print two passwords.
 */
async function createAdmin(stores: BootstrapStores, options: BootstrapOptions, log: Logger): Promise<boolean> {
  const exists = (await getOrUndefined(stores.users, ADMIN_USER)) !== undefined;
  if (!exists && (await stores.users.list({ limit: 1 })).items.length > 0) {
    // Not a first start: `admin` was deleted on purpose, and a deleted user does not come back (a start that finds
    // no enabled super administrator restores it only when given the admin password).
    log.info({ user: ADMIN_USER }, 'the super administrator "admin" was deleted: not created again');
    return false;
  }
  const claimed = exists
    ? await claimUnfinishedAdmin(stores)
    : await createIfAbsent(stores.users, {
        apiVersion: 'v1alpha1',
        kind: 'User',
        metadata: { name: ADMIN_USER },
        spec: { displayName: 'Administrator' },
      });
  if (!claimed) return false;
  const password = options.adminPassword ?? randomPassword();
  const { uid } = (await stores.users.get(ADMIN_USER)).metadata;
  await stores.credentials.setPassword(ADMIN_USER, uid!, await hashPassword(password, options.passwordHash));
  await createIfAbsent(stores.bindings, {
    apiVersion: 'v1alpha1',
    kind: 'RoleBinding',
    metadata: { name: `${ADMIN_USER}-${SUPER_ROLE}` },
    roleRef: { apiGroup: '', kind: 'Role', name: SUPER_ROLE },
    subjects: [{ kind: 'User', apiGroup: '', name: ADMIN_USER }],
  });
  log.info({ user: ADMIN_USER }, 'super administrator created');
  if (options.adminPassword === undefined) {
    (options.announce ?? ((p) => process.stderr.write(`${adminPasswordAnnouncement(p)}\n`)))(password);
  }
  return true;
}

/** True when `admin` exists without a password and this call won the right to give it one. */
async function claimUnfinishedAdmin(stores: BootstrapStores): Promise<boolean> {
  if (await stores.credentials.hasPassword(ADMIN_USER)) return false;
  const admin = await getOrUndefined(stores.users, ADMIN_USER);
  // A user being deleted lost its password on purpose (the user-cleanup controller): it is not unfinished.
  if (!admin || admin.metadata.deletionTimestamp) return false;
  try {
    await stores.users.update(ADMIN_USER, admin);
    return true;
  } catch (err) {
    if ((err as { code?: number }).code !== 409) throw err;
    return false;
  }
}

/** 20 characters of base64url (120 random bits): easy to copy, hard to guess. */
const randomPassword = (): string => randomBytes(15).toString('base64url');

/** Creates the object unless one of that name exists; says whether this call created it. */
async function createIfAbsent(store: ResourceStore, object: ApiObject): Promise<boolean> {
  try {
    await store.create(object);
    return true;
  } catch (err) {
    if ((err as { code?: number }).code !== 409) throw err;
    return false;
  }
}

async function getOrUndefined(store: ResourceStore, name: string): Promise<ApiObject | undefined> {
  try {
    return await store.get(name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

const sameRule = (a: PolicyRule, b: PolicyRule) => jsonEqual(a, b);
