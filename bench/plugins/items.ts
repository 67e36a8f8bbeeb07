import { withPhaseProgress } from '../apiserver/phase-progress';
import { runLoad, type LoadResult } from '../support/http-load';
import { ITEMS_PATH } from './plugin-folder';

/** Requests in flight while creating the objects (as bench/apiserver loads its persons). */
export const LOAD_CONCURRENCY = 32;
const TAGS = Array.from({ length: 20 }, (_, i) => `tag-${i}`);

/** The name of the `i`-th object, e.g. `item-42`. */
export const itemName = (i: number): string => `item-${i}`;

/** The `i`-th Item as JSON: a name, three of twenty tags and a short note (about 300 bytes stored). */
export function itemBody(i: number): string {
  return JSON.stringify({
    apiVersion: 'bench.example.com/v1alpha1',
    kind: 'Item',
    metadata: { name: itemName(i) },
    spec: {
      name: `Item number ${i}`,
      tags: [TAGS[i % 20], TAGS[(i + 7) % 20], TAGS[(i + 13) % 20]],
      note: 'an object of the benchmark plugin, indexed by its name and its tags',
    },
  });
}

/**
 * Creates `count` Items through the apiserver at `url` (POST, 32 in flight)
 * with a progress bar on stderr; throws when any create fails.
 */
export async function createItems(url: string, count: number): Promise<LoadResult> {
  const loaded = await withPhaseProgress(`creating ${count} items`, count, (update) =>
    runLoad({
      url,
      concurrency: LOAD_CONCURRENCY,
      requests: count,
      expectStatus: 201,
      requestAt: (i) => ({ method: 'POST', path: ITEMS_PATH, body: itemBody(i) }),
      onProgress: update,
    }),
  );
  if (loaded.errors > 0) throw new Error(`creating items failed ${loaded.errors} times; first: ${loaded.firstError}`);
  return loaded;
}
