import type { ApiObject } from '../api/object';
import type { Preconditions } from './interface';

/** The precondition checks of every TS backend and of the registry; the Redis scripts check the same in Lua. */

/** Whether any precondition is set (an update without any retries on concurrent writes). */
export const hasPreconditions = (p: Preconditions | undefined): boolean =>
  p !== undefined && (p.version !== undefined || p.resourceVersion !== undefined || p.uid !== undefined);

/** Whether the stored object meets every precondition that is set. */
export function meetsPreconditions(object: ApiObject, p: Preconditions | undefined): boolean {
  if (p === undefined) return true;
  const meta = object.metadata;
  return (
    (p.version === undefined || p.version === meta.version) &&
    (p.resourceVersion === undefined || p.resourceVersion === meta.resourceVersion) &&
    (p.uid === undefined || p.uid === meta.uid)
  );
}
