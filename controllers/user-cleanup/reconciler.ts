import type { ApiObject } from '../../pkg/api/object';
import type { RoleBinding } from '../../pkg/auth/rbac';
import { USER_CLEANUP_FINALIZER } from '../../pkg/auth/user-finalizer';
import { isNotFound, type ApiClient } from '../../pkg/client';
import {
  addFinalizer,
  hasFinalizer,
  removeFinalizer,
  type DeepReadonly,
  type ReadonlyCache,
  type ReconcileContext,
  type Reconciler,
  type Request,
} from '../../pkg/controller';
import { passwordPath, ROLE_BINDINGS, TOKENS, USERS } from './resources';

/**
 * Cleans up after a deleted user, then lets the gc controller remove them. For a user marked for deletion that
 * still carries `USER_CLEANUP_FINALIZER`, in this order:
 *
 * 1. removes their password (`DELETE …/users/{name}/password`);
 * 2. deletes their personal access tokens;
 * 3. takes them off every role binding, deleting a binding left with no subject;
 * 4. removes the finalizer, last, so a cleanup cut short by a crash is finished by the next run.
 *
 * Every step is idempotent and reads the server, not the cache: a run that stopped half-way starts again from
 * step 1 and finds less to do. Before it acts, it reads the user afresh and stops unless the server still holds
 * that very user (same uid) with the finalizer, so it never touches a later user of the same name. A user not
 * marked is given the finalizer when it lacks it (the apiserver adds it on every write already).
 * @example
 * controller('user-cleanup', manager).for(USERS).complete(new UserCleanupReconciler(client, manager.cacheFor(USERS)));
 */
export class UserCleanupReconciler implements Reconciler {
  constructor(
    private readonly client: ApiClient,
    private readonly users: ReadonlyCache<ApiObject>,
  ) {}

  async reconcile({ name }: Request, ctx: ReconcileContext): Promise<void> {
    const cached = this.users.get(name);
    if (!cached) return;
    if (!cached.metadata.deletionTimestamp) return this.keepFinalizer(cached, ctx);
    if (!hasFinalizer(cached, USER_CLEANUP_FINALIZER)) return;
    const user = await this.client.get(USERS, name, { signal: ctx.signal });
    if (user.metadata.uid !== cached.metadata.uid || !hasFinalizer(user, USER_CLEANUP_FINALIZER)) return;
    await this.removePassword(name, ctx);
    const tokens = await this.revokeTokens(name, ctx);
    const bindings = await this.unbind(name, ctx);
    // Conditional on the resourceVersion just read: a user changed meanwhile is looked at again.
    await this.client.update(USERS, removeFinalizer(user, USER_CLEANUP_FINALIZER).object, { signal: ctx.signal });
    ctx.log.info({ tokens, bindings }, 'user cleaned up; the gc controller removes them now');
  }

  private async keepFinalizer(user: DeepReadonly<ApiObject>, ctx: ReconcileContext): Promise<void> {
    const { changed, object } = addFinalizer(user, USER_CLEANUP_FINALIZER);
    if (changed) await this.client.update(USERS, object, { signal: ctx.signal });
  }

  private async removePassword(name: string, { signal }: ReconcileContext): Promise<void> {
    await this.client.request({ method: 'DELETE', path: passwordPath(name), signal });
  }

  /** Deletes every token of the user's name; answers how many it deleted. */
  private async revokeTokens(name: string, { signal }: ReconcileContext): Promise<number> {
    const { items } = await this.client.list(TOKENS, { fieldSelector: `spec.username=${name}`, signal });
    const live = items.filter((t) => !t.metadata.deletionTimestamp);
    for (const token of live) await ignoreNotFound(this.client.delete(TOKENS, token.metadata.name!, { signal }));
    return live.length;
  }

  /** Takes the user off every binding naming them; a binding left with nobody is deleted. Answers how many changed. */
  private async unbind(name: string, { signal }: ReconcileContext): Promise<number> {
    const { items } = await this.client.list<RoleBinding>(ROLE_BINDINGS, {
      fieldSelector: `subjects.name=${name}`,
      signal,
    });
    const live = items.filter((b) => !b.metadata.deletionTimestamp);
    for (const binding of live) {
      const subjects = (binding.subjects ?? []).filter((s) => s.name !== name);
      const resourceVersion = binding.metadata.resourceVersion;
      // Both writes are held to what was read: a binding changed meanwhile is a Conflict, and the run is retried.
      const write = subjects.length
        ? this.client.update(
            ROLE_BINDINGS,
            { ...binding, apiVersion: 'v1alpha1', kind: 'RoleBinding', subjects },
            { signal },
          )
        : this.client.delete(ROLE_BINDINGS, binding.metadata.name!, { preconditions: { resourceVersion }, signal });
      await ignoreNotFound(write);
    }
    return live.length;
  }
}

/** Resolves when `call` succeeds or answers NotFound (removed by someone else meanwhile: nothing left to do). */
async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
