import type { ApiClient } from '../../pkg/client';
import { controller, type Controller, type Manager } from '../../pkg/controller';
import { PERSONS, type Person } from './person';
import { PersonStatusReconciler, type CleanUp } from './reconciler';

/**
 * The sample controller a plugin author can copy: it writes each Person's
 * `status` from its `spec` and holds marked Persons back with a finalizer
 * until it has cleaned up. Guide: docs/writing-a-controller.md.
 */
export { PERSONS, type Person, type PersonPhase, type PersonSpec, type PersonStatus } from './person';
export { ADULT_AGE, personStatus } from './status';
export { PERSON_STATUS_FINALIZER, PersonStatusReconciler, type CleanUp } from './reconciler';

/** The name the controller-manager runs it by: `--controllers person-status`. */
export const PERSON_STATUS_CONTROLLER = 'person-status';

/** Options of `register`. */
export interface PersonStatusOptions {
  /** Replaces the sample's cleanup (which only logs); tests use it to watch or fail the cleanup. */
  cleanUp?: CleanUp;
}

/**
 * Adds the person-status controller to a manager; it runs once the manager
 * starts (at once when the manager already leads). Writes go through `client`,
 * the manager's own by default.
 * @example
 * const manager = new Manager({ client, log });
 * register(manager);
 * await manager.run(signal);
 */
export function register(
  manager: Manager,
  client: ApiClient = manager.client,
  options: PersonStatusOptions = {},
): Controller {
  // Reading from the manager's shared cache, not the API: every controller that watches Persons shares one watch.
  const persons = manager.cacheFor<Person>(PERSONS);
  // No predicates: marking a Person for deletion does not change its generation, so
  // `generationChanged` would hide exactly the event the finalizer waits for.
  return controller(PERSON_STATUS_CONTROLLER, manager)
    .for(PERSONS)
    .complete(new PersonStatusReconciler(client, persons, options.cleanUp));
}
