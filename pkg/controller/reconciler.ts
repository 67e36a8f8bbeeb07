import type { Logger } from '../util/log';

/**
 * What to reconcile: a key, for a controller of one resource the object's
 * name. Requests carry no object and no event type: reconciliation is
 * level-based, the reconciler reads the current state (from a cache or the
 * API) and converges towards it, whatever happened in between.
 */
export interface Request {
  name: string;
}

/** What a reconcile gets besides the request. */
export interface ReconcileContext {
  /** Aborted when the controller stops (shutdown, or the leader lost its lease): give up early, the key is reconciled again by the next leader. */
  signal: AbortSignal;
  /** A logger that names the controller and the key. */
  log: Logger;
}

/** A reconcile's answer when it wants to look again later, e.g. `{requeueAfterMs: 30_000}` to poll. */
export interface Result {
  /** Reconcile this key again after this many milliseconds (0 or absent: done). */
  requeueAfterMs?: number;
}

/**
 * The one method a controller's logic implements. The contract:
 *
 * - Return normally (`undefined` or `{}`): done; the key's failure count is reset.
 * - Return `{requeueAfterMs: n}`: done for now; reconcile the key again after n ms.
 * - Throw: retry later with per-key exponential backoff (5 ms doubling up to
 *   1000 s, under an overall rate limit); any result is ignored.
 * - Throw a `TerminalError`: log it and stop retrying this key until it is
 *   added again (the next change of its object).
 * - Throw a NotFound `ApiError` (the object is gone): done, nothing to retry.
 *
 * A key is never reconciled by two workers at once. Never mutate objects
 * from a cache: copy them (the cache hands out frozen objects).
 * @example
 * const reconciler: Reconciler = {
 *   async reconcile({ name }, { log }) {
 *     const person = persons.get(name);
 *     if (!person) return; // deleted meanwhile: nothing to do
 *     log.info({ age: person.spec.age }, 'seen');
 *   },
 * };
 */
export interface Reconciler {
  reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void>;
}

/** A Reconciler from a function: `reconcilerFn(async ({ name }) => { … })`. */
export function reconcilerFn(fn: (request: Request, ctx: ReconcileContext) => Promise<Result | void>): Reconciler {
  return { reconcile: fn };
}

/**
 * An error that retrying cannot fix (e.g. an invalid spec): the controller logs
 * it and stops retrying the key. Wraps the original error as `cause`.
 * @example throw new TerminalError('spec.size must be positive', { cause: err });
 */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether `err` is a TerminalError. */
export const isTerminalError = (err: unknown): err is TerminalError => err instanceof TerminalError;
