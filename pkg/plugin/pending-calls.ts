// The calls a plugin's worker made of the host and is waiting on, whatever their kind (a registration, a request or
// a read of its clients): one table, one way each ends (answered, or given up after its timeout).

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
}

/** Waiting calls by id; ids are unique across every kind of call. */
export class PendingCalls {
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;

  /**
   * Opens a call: `send` gets its new id (and posts the message); the promise settles with the answer `settle`
   * gives that id, or rejects with `timedOut()` once `timeoutMs` passes without one (a late answer is then ignored).
   * The timer alone keeps no thread alive.
   */
  open<T>(send: (id: number) => void, timeout?: { ms: number; error: () => Error }): Promise<T> {
    const id = ++this.lastId;
    const answered = new Promise<T>((resolve, reject) => {
      const entry: Waiting = { resolve: resolve as (value: unknown) => void, reject };
      if (timeout) {
        entry.timer = setTimeout(() => this.settle(id, { error: timeout.error() }), timeout.ms);
        entry.timer.unref();
      }
      this.waiting.set(id, entry);
    });
    send(id);
    return answered;
  }

  /** Ends call `id` with its answer or its failure; false when no such call waits (answered, timed out, unknown). */
  settle(id: number, outcome: { value: unknown } | { error: Error }): boolean {
    const entry = this.waiting.get(id);
    if (!entry) return false;
    this.waiting.delete(id);
    clearTimeout(entry.timer);
    if ('error' in outcome) entry.reject(outcome.error);
    else entry.resolve(outcome.value);
    return true;
  }

  /** How many calls wait. */
  get size(): number {
    return this.waiting.size;
  }
}
