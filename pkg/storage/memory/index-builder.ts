import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ApiObject } from '../../api/object';
import { indexValues } from '../indexes';
import type { IndexProgress } from '../interface';
import type { IndexedObject, IndexTable } from './index-table';
import type { TypeStore } from './type-store';

/** How a build runs: its batch size and whom it tells about progress. */
export interface IndexBuildOptions {
  batchSize: number;
  onProgress?: IndexProgress;
  /** Checked between batches: true once the storage closed. */
  cancelled: () => boolean;
}

/**
 * Builds a new index for the objects a type held when the index was added,
 * `batchSize` objects at a time, yielding to the event loop before each batch
 * so that requests keep being served. Writes made meanwhile index their
 * objects themselves (every write updates every table, built or not), and
 * the batches skip objects that are already indexed or gone, so the index is
 * right when the build ends. A build whose index is dropped stops. Never
 * rejects: an index function that throws on an old object leaves that object
 * without a value.
 */
export async function buildIndex(store: TypeStore, table: IndexTable, options: IndexBuildOptions): Promise<void> {
  const names = [...store.objects.keys()];
  let done = 0;
  while (done < names.length) {
    await yieldToEventLoop();
    if (!store.holds(table) || options.cancelled()) break;
    const batch = names.slice(done, done + options.batchSize).flatMap((name) => {
      const object = store.objects.get(name);
      return object === undefined
        ? []
        : [{ name, values: safeValues(table, object), created: object.metadata.creationTimestamp }];
    });
    table.addMany(batch);
    done = Math.min(done + options.batchSize, names.length);
    table.building = { done, total: names.length };
    report(options.onProgress, { type: store.type, index: table.name, done, total: names.length });
  }
  store.finishBuild(table);
}

/**
 * Builds a new index for every object of a type at once, without yielding:
 * for a type restored from disk, whose indexes must be whole before the
 * first request (a unique index half built would let a duplicate in).
 */
export function buildIndexNow(store: TypeStore, table: IndexTable): void {
  const objects: IndexedObject[] = [];
  for (const [name, object] of store.objects) {
    objects.push({ name, values: safeValues(table, object), created: object.metadata.creationTimestamp });
  }
  table.load(objects);
  store.finishBuild(table);
}

function safeValues(table: IndexTable, object: ApiObject): string[] {
  try {
    return indexValues(table.spec, object);
  } catch {
    return [];
  }
}

/** A progress callback that throws must not stop the build. */
function report(onProgress: IndexProgress | undefined, progress: Parameters<IndexProgress>[0]): void {
  try {
    onProgress?.(progress);
  } catch {
    // The build goes on; the callback is only informative.
  }
}
