import type { Storage } from '../../pkg/storage';
import { runConcurrently } from '../support/concurrency';
import { withProgress } from '../support/progress';
import { benchObject } from './bench-model';

/** How many creates the loader keeps in flight. */
export const LOAD_CONCURRENCY = 64;

/** How a load went, for the report. */
export interface LoadFigures {
  from: number;
  to: number;
  ms: number;
}

/**
 * Fills the type up to `to` objects, creating `benchObject(from)` …
 * `benchObject(to - 1)` through `Storage.create` (every write the full Lua
 * script), LOAD_CONCURRENCY at a time, with a progress bar.
 */
export async function loadObjects(storage: Storage, type: string, from: number, to: number): Promise<LoadFigures> {
  const count = to - from;
  const ms = await withProgress(`loading objects ${from}…${to} (Storage.create)`, count, (progress) =>
    runConcurrently(count, LOAD_CONCURRENCY, (i) => storage.create(type, benchObject(from + i)), progress),
  );
  return { from, to, ms };
}
