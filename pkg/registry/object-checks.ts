import type { ApiObject } from '../api/object';
import type { StatusCause } from '../api/errors';

/**
 * The checks a model's objects pass before every write: pruning of fields
 * the schema does not declare, then validation of metadata and schema.
 */
export interface ObjectChecks {
  /** Removes undeclared fields; returns the pruned copy and the removed paths (`spec.foo`). */
  prune(object: ApiObject): { object: ApiObject; unknownFields: string[] };
  /** Every failing field; `current` is the stored state on an update. */
  validate(object: ApiObject, current?: ApiObject): StatusCause[];
}
