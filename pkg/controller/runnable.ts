/**
 * Something the manager starts when this process leads and stops when it
 * stops leading or shuts down: a controller, or anything else (a periodic job).
 */
export interface Runnable {
  /** Unique within a manager, e.g. `gc/persons.example.com`. */
  readonly name: string;
  /** Starts; resolves once running (for a controller: its caches synced and its workers started). */
  start(): Promise<void>;
  /** Stops; resolves once everything it started has finished. Safe to call at any time, and twice. */
  stop(): Promise<void>;
}
