import type { ApiObject } from '../api/object';
import type { ObjectEvent } from './event-handler';

/**
 * Decides whether an informer event should enqueue a key; all of a source's
 * predicates must agree. Filter cheaply here, decide in the reconciler.
 * @example controller('gc', mgr).for(PERSONS).withPredicates(deletionTimestampSet)
 */
export type Predicate<T extends ApiObject = ApiObject> = (event: ObjectEvent<T>) => boolean;

/** Only objects marked for deletion (`metadata.deletionTimestamp` set), what a garbage collector or finalizer needs. */
export const deletionTimestampSet: Predicate = (event) => event.object.metadata.deletionTimestamp !== undefined;

/** Skips updates that changed only metadata or status (`metadata.generation` unchanged): spec changes only. */
export const generationChanged: Predicate = (event) =>
  event.type !== 'update' || event.old.metadata.generation !== event.object.metadata.generation;

/** Skips updates that changed nothing (periodic resyncs). */
export const resourceVersionChanged: Predicate = (event) =>
  event.type !== 'update' || event.old.metadata.resourceVersion !== event.object.metadata.resourceVersion;

/** Whether every predicate lets the event through (true when there are none). */
export const allPass = <T extends ApiObject>(predicates: readonly Predicate<T>[], event: ObjectEvent<T>): boolean =>
  predicates.every((p) => p(event));
