import { DEFAULT_INDEXES, type IndexSpec } from '../indexes';
import type { IndexStatus } from '../interface';

/**
 * What this process knows of one type: the index specs its writes maintain
 * and the index builds it runs. The build states themselves are persisted in
 * Redis (the `indexes` hash), which `list` consults.
 */
export class TypeState {
  /** Every index of the type, defaults first. */
  specs: readonly IndexSpec[] = DEFAULT_INDEXES;
  /** Whether `defineType` was called (otherwise the type has the default indexes only). */
  defined = false;
  /**
   * The highest revision of the type this process has seen (written, listed, read): its writes raise the
   * type's counter to it first, so that a failover to a replica that lagged never makes them hand out a
   * revision number a client already holds for another change.
   */
  highestRevision = 0;

  /** Records a revision seen (a decimal string or number; anything else is ignored). */
  saw(revision: string | number | undefined): void {
    const value = Number(revision);
    if (Number.isSafeInteger(value) && value > this.highestRevision) this.highestRevision = value;
  }

  private readonly builds = new Map<string, { done: number; total: number }>();
  private readyWaiters: (() => void)[] = [];

  /** Whether the type still declares an index of that name. */
  declares(name: string): boolean {
    return this.specs.some((s) => s.name === name);
  }

  /** Whether this process is building that index. */
  isBuilding(name: string): boolean {
    return this.builds.has(name);
  }

  /** Records a build's progress (starting it when new). */
  progress(name: string, done: number, total: number): void {
    this.builds.set(name, { done, total });
  }

  /** Records a build as ended and wakes the waiters when none is left. */
  finish(name: string): void {
    this.builds.delete(name);
    if (this.builds.size > 0) return;
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }

  /** The builds this process runs, as `Storage.indexStatus` reports them. */
  status(): IndexStatus {
    const building = [...this.builds].map(([name, { done, total }]) => ({ name, done, total }));
    return { ready: building.length === 0, building };
  }

  /** Resolves when no build of the type is running in this process. */
  whenReady(): Promise<void> {
    if (this.builds.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }
}
