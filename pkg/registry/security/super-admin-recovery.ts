import type { ApiObject } from '../../api/object';
import { SUPER_ROLE, type RoleBinding } from '../../auth/rbac';
import { hashPassword, type PasswordHashOptions } from '../../auth/password';
import type { Logger } from '../../util/log';
import { ADMIN_USER, type BootstrapStores } from './bootstrap';
import type { LastSuperAdminGuard } from './last-super-admin';
import { isNotFound } from '../../api/errors';

/** The command a warning gives: a restart with the admin password set restores `admin`. */
export const RESTORE_ADMIN_COMMAND =
  "SVC_ADMIN_PASSWORD='<a new password>' svc-apiserver <your usual flags>  (or --admin-password-file FILE)";

export interface SuperAdminRecoveryOptions {
  /** The admin password given at start (`--admin-password-file` or `SVC_ADMIN_PASSWORD`). */
  adminPassword?: string;
  passwordHash?: PasswordHashOptions;
}

/**
 * Run at each start, after the bootstrap: when no enabled user is bound to
 * `super-role` (the API refuses to remove the last one, but a store written
 * otherwise, or before that rule, may have none), either restores `admin`
 * (enabled, the given password, bound to `super-role`) when an admin password
 * was given at start, or logs a warning naming the command that does.
 * Only whoever starts the apiserver can do this; no API request can.
 * Resolves with whether an enabled super administrator exists afterwards.
 */
export async function recoverSuperAdmin(
  stores: BootstrapStores,
  guard: LastSuperAdminGuard,
  options: SuperAdminRecoveryOptions,
  log: Logger,
): Promise<boolean> {
  if (guard.enabledSuperAdmins().size > 0) return true;
  if (options.adminPassword === undefined) {
    log.warn(
      { role: SUPER_ROLE, user: ADMIN_USER, command: RESTORE_ADMIN_COMMAND },
      `no enabled super administrator: no user can change roles or bindings; restart the apiserver with the admin ` +
        `password set to restore "${ADMIN_USER}": ${RESTORE_ADMIN_COMMAND}`,
    );
    return false;
  }
  const admin = await enabledAdmin(stores);
  if (!admin) {
    log.warn(
      { role: SUPER_ROLE, user: ADMIN_USER },
      `no enabled super administrator, and "${ADMIN_USER}" cannot be restored while it is being deleted; ` +
        `restart the apiserver once its deletion is finished`,
    );
    return false;
  }
  const hash = await hashPassword(options.adminPassword, options.passwordHash);
  // A password belongs to the uid of the user it was set for.
  await stores.credentials.setPassword(ADMIN_USER, admin.metadata.uid!, hash);
  await bindAdmin(stores);
  log.warn(
    { role: SUPER_ROLE, user: ADMIN_USER },
    `no enabled super administrator: restored "${ADMIN_USER}" (enabled, bound to "${SUPER_ROLE}", with the admin ` +
      `password given at start)`,
  );
  return true;
}

/** `admin`, created or enabled as needed; undefined when it is being deleted. */
async function enabledAdmin(stores: BootstrapStores): Promise<ApiObject | undefined> {
  const current = await getOrUndefined(stores.users, ADMIN_USER);
  if (!current) {
    const user = {
      apiVersion: 'v1alpha1',
      kind: 'User',
      metadata: { name: ADMIN_USER },
      spec: { displayName: 'Administrator' },
    };
    // Another replica restoring it at the same moment is as good.
    return (await stores.users.create(user).catch(unlessConflict))?.object ?? stores.users.get(ADMIN_USER);
  }
  if (current.metadata.deletionTimestamp) return undefined;
  if ((current.spec as { disabled?: boolean } | undefined)?.disabled !== true) return current;
  return (
    await stores.users.patch(ADMIN_USER, (cur) => ({ ...cur, spec: { ...(cur.spec as object), disabled: false } }))
  ).object;
}

/** Makes `admin-super-role` bind `admin` (a new binding when that one is being deleted). */
async function bindAdmin(stores: BootstrapStores): Promise<void> {
  const name = `${ADMIN_USER}-${SUPER_ROLE}`;
  const current = (await getOrUndefined(stores.bindings, name)) as RoleBinding | undefined;
  const subject = { kind: 'User', apiGroup: '', name: ADMIN_USER };
  if (current && !current.metadata.deletionTimestamp && current.roleRef.name === SUPER_ROLE) {
    if (current.subjects.some((s) => s.name === ADMIN_USER)) return;
    await stores.bindings.patch(name, (cur) => ({
      ...cur,
      subjects: [...((cur as RoleBinding).subjects ?? []), subject],
    }));
    return;
  }
  await stores.bindings
    .create({
      apiVersion: 'v1alpha1',
      kind: 'RoleBinding',
      metadata: current ? { generateName: `${name}-` } : { name },
      roleRef: { apiGroup: '', kind: 'Role', name: SUPER_ROLE },
      subjects: [subject],
    })
    .catch(unlessConflict);
}

/** Undefined for a 409 (someone else wrote it first); rethrows anything else. */
function unlessConflict(err: { code?: number }): undefined {
  if (err.code !== 409) throw err;
  return undefined;
}

async function getOrUndefined(store: BootstrapStores['users'], name: string): Promise<ApiObject | undefined> {
  try {
    return await store.get(name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
