/**
 * The requests a plugin is serving: a plugin that is stopped or removed
 * first stops taking new ones, then lets these finish before its worker ends.
 */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** Counts `work` while it runs. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      if (--this.count === 0) this.waiters.splice(0).forEach((wake) => wake());
    }
  }

  /** Resolves once none is under way, or after `limitMs` (true: they all finished). */
  settled(limitMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), limitMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
