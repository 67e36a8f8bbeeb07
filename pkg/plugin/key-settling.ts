/**
 * When the changes asked for a key have been reconciled: `asked(key)` counts
 * a change, `settled(key)` resolves once a reconcile that began after the
 * latest change of the key ended (however it ended: a failure retried later
 * does not hold the waiter).
 */
export class KeySettling {
  private readonly asks = new Map<string, number>();
  private readonly waiters = new Map<string, { after: number; wake: () => void }[]>();

  /** Counts a change of the key; answers its number, for `began`. */
  asked(key: string): number {
    const count = (this.asks.get(key) ?? 0) + 1;
    this.asks.set(key, count);
    return count;
  }

  /** The number of the latest change of the key a reconcile beginning now sees. */
  began(key: string): number {
    return this.asks.get(key) ?? 0;
  }

  /** A reconcile that began seeing change `seen` ended: wakes the waiters for changes up to it. */
  ended(key: string, seen: number): void {
    const waiting = this.waiters.get(key);
    if (!waiting) return;
    const left = waiting.filter((w) => w.after > seen);
    for (const w of waiting) if (w.after <= seen) w.wake();
    if (left.length > 0) this.waiters.set(key, left);
    else this.waiters.delete(key);
  }

  /** Resolves once the latest change asked for the key so far has been reconciled. */
  settled(key: string): Promise<void> {
    const after = this.asks.get(key) ?? 0;
    return new Promise((wake) => {
      const waiting = this.waiters.get(key) ?? [];
      waiting.push({ after, wake });
      this.waiters.set(key, waiting);
    });
  }

  /** Wakes every waiter (the host stopping: nothing more will be reconciled). */
  wakeAll(): void {
    for (const waiting of this.waiters.values()) for (const w of waiting) w.wake();
    this.waiters.clear();
  }
}
