/** Whether `revision` (a decimal string; '' counts as 0) is at or past `target`. */
function reached(revision: string, target: bigint): boolean {
  return BigInt(revision || '0') >= target;
}

interface Waiter {
  target: bigint;
  settle: (reached: boolean) => void;
}

/**
 * Callers waiting for a reflector to catch up to a revision, each with a deadline: a lagging watch delays an
 * answer but never holds it.
 */
export class RevisionWaiters {
  private waiters: Waiter[] = [];

  /**
   * Resolves true once `advance` reaches `target`, at once when `current` has; false after `timeoutMs` or on
   * `cancelAll`. A target that is no decimal revision (or none) is taken as reached.
   */
  wait(current: string, target: string | undefined, timeoutMs: number): Promise<boolean> {
    if (target === undefined || !/^\d+$/.test(target) || reached(current, BigInt(target))) {
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        target: BigInt(target),
        settle: (ok) => {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.settle(false), timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Wakes every waiter whose target `revision` has reached. */
  advance(revision: string): void {
    if (this.waiters.length === 0 || !/^\d+$/.test(revision)) return;
    for (const waiter of this.waiters.filter((w) => reached(revision, w.target))) waiter.settle(true);
  }

  /** Answers every waiter false (the reflector stopped). */
  cancelAll(): void {
    for (const waiter of [...this.waiters]) waiter.settle(false);
  }
}
