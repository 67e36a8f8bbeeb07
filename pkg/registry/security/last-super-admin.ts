import { conflict, type ErrorSubject } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import { SUPER_ROLE, type RoleBinding } from '../../auth/rbac';
import type { StoreHooks } from '../resource-store';
import type { SecurityCache } from './security-cache';

/** What a write takes away from the super administrators: users out of super-role bindings, or users themselves. */
export interface SuperAdminLoss {
  /** Bindings of super-role (by name) and the users each would no longer bind. */
  unbound?: { binding: string; users: string[] }[];
  /** Users disabled or deleted. */
  users?: string[];
}

/** How long a checked write's loss counts for other checks when the cache never sees it (the write failed). */
const PENDING_MS = 10_000;

/**
 * Keeps at least one enabled user bound to `super-role`: a write that would
 * leave none (deleting or changing a binding, disabling or deleting a user) is
 * 409. Counted from the security cache. What a write that passed the check
 * takes away counts as gone for the checks that follow until the cache shows
 * it (or PENDING_MS pass), so that two removals of the last two super
 * administrators at once (a deletecollection) cannot both pass on one replica.
 */
export class LastSuperAdminGuard {
  /** Losses checked but not yet seen by the cache: `u:<user>` or `b:<binding>/<user>`, with their expiry. */
  private readonly pending = new Map<string, number>();

  constructor(private readonly cache: SecurityCache) {
    cache.bindings.subscribe((name, _previous, current) => {
      const bound = new Set(isActive(current) ? subjectNames(current!) : []);
      for (const key of this.pending.keys()) {
        const pair = key.startsWith(`b:${name}/`) ? key.slice(name.length + 3) : undefined;
        if (pair !== undefined && !bound.has(pair)) this.pending.delete(key);
      }
    });
    cache.users.subscribe((name, _previous, current) => {
      if (!isEnabledUser(current)) this.pending.delete(userKey(name));
    });
  }

  /** The enabled users bound to super-role now, less what `losses` (and the pending ones) take away. */
  enabledSuperAdmins(losses: SuperAdminLoss[] = []): Set<string> {
    const gone = new Set([...this.livePending(), ...losses.flatMap(lossKeys)]);
    const admins = new Set<string>();
    for (const object of this.cache.bindings.values()) {
      if (!isSuperRoleBinding(object) || !isActive(object)) continue;
      for (const name of subjectNames(object)) {
        if (gone.has(userKey(name)) || gone.has(pairKey(object.metadata.name!, name))) continue;
        if (isEnabledUser(this.cache.users.get(name))) admins.add(name);
      }
    }
    return admins;
  }

  /**
   * 409 when `loss` would leave no enabled super administrator (none before is no reason to refuse).
   * `record` keeps the loss pending for the checks that follow (not for a dry run, nor a check made ahead
   * of the writes).
   */
  check(loss: SuperAdminLoss, subject: ErrorSubject, record: boolean): void {
    const before = this.enabledSuperAdmins();
    if (before.size === 0) return;
    if (this.enabledSuperAdmins([loss]).size === 0) throw lastSuperAdmin(subject, [...before]);
    if (!record) return;
    const until = Date.now() + PENDING_MS;
    for (const key of lossKeys(loss)) this.pending.set(key, until);
  }

  /** The pending keys not yet expired (expired ones are dropped). */
  private livePending(): string[] {
    const now = Date.now();
    const live: string[] = [];
    for (const [key, until] of this.pending) {
      if (until <= now) this.pending.delete(key);
      else live.push(key);
    }
    return live;
  }

  /** The check a user's deletion or disabling runs (409 when they are the last enabled super administrator). */
  checkUserRemoval(name: string, dryRun: boolean): void {
    this.check({ users: [name] }, { group: '', resource: 'users', name }, !dryRun);
  }

  /** The check of a write that takes `users` out of the super-role binding `binding`. */
  checkUnbinding(binding: string, users: string[], dryRun: boolean): void {
    this.check({ unbound: [{ binding, users }] }, { group: '', resource: 'rolebindings', name: binding }, !dryRun);
  }

  /** Binding hooks: a DELETE of a super-role binding, or a PUT/PATCH that drops some of its subjects. */
  bindingHooks(): StoreHooks {
    return {
      beforeUpdate: (next, current, ctx) => {
        if (!isSuperRoleBinding(current)) return next;
        const kept = new Set(((next as RoleBinding).subjects ?? []).map((s) => s.name));
        const dropped = subjectNames(current).filter((n) => !kept.has(n));
        if (dropped.length) this.checkUnbinding(current.metadata.name!, dropped, ctx.dryRun);
        return next;
      },
      beforeDelete: (current, ctx) => {
        if (isSuperRoleBinding(current) && !current.metadata.deletionTimestamp)
          this.checkUnbinding(current.metadata.name!, subjectNames(current), ctx.dryRun);
      },
    };
  }

  /** User hooks: disabling a user, or the first DELETE of one. */
  userHooks(): StoreHooks {
    return {
      beforeUpdate: (next, current, ctx) => {
        if (isEnabledUser(current) && !isEnabledUser(next)) this.checkUserRemoval(current.metadata.name!, ctx.dryRun);
        return next;
      },
      beforeDelete: (current, ctx) => {
        if (!current.metadata.deletionTimestamp) this.checkUserRemoval(current.metadata.name!, ctx.dryRun);
      },
    };
  }
}

const userKey = (name: string) => `u:${name}`;
const pairKey = (binding: string, user: string) => `b:${binding}/${user}`;
const lossKeys = (loss: SuperAdminLoss) => [
  ...(loss.users ?? []).map(userKey),
  ...(loss.unbound ?? []).flatMap(({ binding, users }) => users.map((u) => pairKey(binding, u))),
];

/** A stored object not marked for deletion. */
const isActive = (object: ApiObject | undefined) => object !== undefined && !object.metadata.deletionTimestamp;

const isSuperRoleBinding = (object: ApiObject) => (object as RoleBinding).roleRef?.name === SUPER_ROLE;
const subjectNames = (object: ApiObject) => ((object as RoleBinding).subjects ?? []).map((s) => s.name);

/** A user who exists, is not being deleted and is not disabled. */
function isEnabledUser(user: ApiObject | undefined): boolean {
  if (!user || user.metadata.deletionTimestamp) return false;
  return (user.spec as { disabled?: boolean } | undefined)?.disabled !== true;
}

/** The 409: who would be lost, and how to go on. */
function lastSuperAdmin(subject: ErrorSubject, admins: string[]) {
  const who =
    admins.length === 1
      ? `user "${admins[0]}" is the last enabled super administrator`
      : `users ${admins.map((a) => `"${a}"`).join(', ')} are the last enabled super administrators`;
  return conflict(
    subject,
    `${who} (bound to role "${SUPER_ROLE}"): this would leave nobody able to administer the platform; ` +
      `bind "${SUPER_ROLE}" to another enabled user first`,
  );
}
