import type { ApiClient } from '../../pkg/client';
import {
  addFinalizer,
  hasFinalizer,
  removeFinalizer,
  updateStatus,
  type DeepReadonly,
  type ReadonlyCache,
  type Reconciler,
  type ReconcileContext,
  type Request,
} from '../../pkg/controller';
import { PERSONS, type Person } from './person';
import { personStatus } from './status';

/**
 * The finalizer this controller puts on every Person. While it is there, the
 * gc controller leaves a marked Person alone, so `finalize` runs before the
 * Person disappears. Name finalizers after your own domain.
 */
export const PERSON_STATUS_FINALIZER = 'example.com/person-status';

/**
 * What to do before a marked Person is let go: release whatever the controller
 * holds for it outside the API (a bucket, a DNS record, a row elsewhere).
 * Throwing keeps the finalizer and retries later, so it must be idempotent:
 * it may run again after it succeeded when removing the finalizer failed.
 */
export type CleanUp = (person: DeepReadonly<Person>, ctx: ReconcileContext) => Promise<void>;

/** The sample's cleanup: a Person holds nothing outside the API, so it only says goodbye. */
const sayGoodbye: CleanUp = async (person, { log }) => {
  log.info({ person: person.metadata.name }, 'nothing to release');
};

/**
 * Keeps each Person's `status` in line with its `spec` (see `personStatus`)
 * and holds the Person back from removal until `cleanUp` has run.
 * @example
 * const persons = manager.cacheFor<Person>(PERSONS);
 * controller('person-status', manager).for(PERSONS).complete(new PersonStatusReconciler(client, persons));
 */
export class PersonStatusReconciler implements Reconciler {
  constructor(
    private readonly client: ApiClient,
    private readonly persons: ReadonlyCache<Person>,
    private readonly cleanUp: CleanUp = sayGoodbye,
  ) {}

  /**
   * Level-based: reads the Person as it is now, whatever event queued it, and
   * converges it one step. Errors are thrown to the runtime, which retries
   * with backoff (a Conflict only means the cache was behind a write).
   */
  async reconcile({ name }: Request, ctx: ReconcileContext): Promise<void> {
    const person = this.persons.get(name);
    if (!person) return; // removed: there is nothing left to converge
    if (person.metadata.deletionTimestamp) return this.finalize(person, ctx);

    // The finalizer goes on before anything else, so no Person we touched can vanish without finalize().
    // The helpers copy: the cached Person is frozen and shared with every other controller.
    const withFinalizer = addFinalizer<Person>(person, PERSON_STATUS_FINALIZER);
    const current = withFinalizer.changed
      ? await this.client.update<Person>(PERSONS, withFinalizer.object, { signal: ctx.signal })
      : withFinalizer.object;
    // Writes only when the status differs, and only `status` (the subresource), so a converged Person costs nothing.
    await updateStatus(this.client, PERSONS, current, personStatus(current.spec), { signal: ctx.signal });
  }

  /** Cleans up, then removes our finalizer so that the gc controller can remove the Person. */
  private async finalize(person: DeepReadonly<Person>, ctx: ReconcileContext): Promise<void> {
    if (!hasFinalizer(person, PERSON_STATUS_FINALIZER)) return; // finalized already, or never ours
    await this.cleanUp(person, ctx);
    // The update carries the cached resourceVersion: if the Person changed meanwhile it is a Conflict and we look again.
    await this.client.update(PERSONS, removeFinalizer<Person>(person, PERSON_STATUS_FINALIZER).object, {
      signal: ctx.signal,
    });
    ctx.log.info('finalized; the gc controller may remove it now');
  }
}
