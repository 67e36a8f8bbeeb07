import type { Status } from './errors';

/**
 * A plain read — a GET of one object or of a collection — as values rather than a URL: what a client running in the
 * apiserver's own process (a plugin's `ctx.client` and `req.client`) hands the apiserver, which answers it with the
 * object itself instead of a JSON text. Every other request of such a client (writes, watches, other paths) is an
 * ordinary request.
 */

/** The options of a list, as the query of an HTTP list carries them (docs/api.md). */
export interface ObjectReadListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  /** Sort keys in priority order, e.g. `['spec.name,asc']`. */
  sort?: string[];
}

/** What a read addresses: a resource of the core group (`''`) or of a named one; no namespace (none exist here). */
interface ReadTarget {
  group: string;
  version: string;
  /** The plural, e.g. `persons`. */
  resource: string;
}

/** A get of the object `name`, or a list of the collection. */
export type ObjectRead =
  (ReadTarget & { verb: 'get'; name: string }) | (ReadTarget & { verb: 'list'; options: ObjectReadListOptions });

/**
 * The answer: the object (a list's whole envelope, as over HTTP), the refusal's `Status`, or `unserved`: this read is
 * not one the apiserver answers as values (its path is a custom route's, or the read is malformed), and the client
 * sends it as an ordinary request instead, which answers it exactly as HTTP would.
 */
export type ObjectReadAnswer = { object: unknown } | { status: Status } | { unserved: true };

/**
 * An answer inside the apiserver's process, before it crosses to the reader's thread: its object may still be the
 * JSON text it was stored as (`objectJson`), never parsed on the apiserver's side.
 */
export type ObjectReadResult = ObjectReadAnswer | { objectJson: string };

/**
 * The JSON text of an answer, as it crosses to the reader (which parses it into the ObjectReadAnswer): the stored text
 * of an `objectJson` is put in as it is, `{"object":<text>}`.
 */
export function answerText(result: ObjectReadResult): string {
  return 'objectJson' in result ? `{"object":${result.objectJson}}` : JSON.stringify(result);
}
