import { describeAlternatives } from './alternatives';
import { describeConcurrency } from './concurrency';
import { describeControlCharacters } from './control-characters';
import { describeCreateGet } from './crud';
import { describeDelete } from './delete';
import { describeDryRun } from './dry-run';
import { describeEqualityPages } from './equality-pages';
import { createHarness, type ConformanceOptions, type OpenStorage } from './harness';
import { describeIndexBuild } from './index-build';
import { describeIndexes } from './indexes';
import { describePaging } from './paging';
import { describePairPages } from './pair-pages';
import { describePreconditions } from './preconditions';
import { describeSelectors } from './selectors';
import { describeSorting } from './sorting';
import { describeUpdate } from './update';
import { describeWatch } from './watch';

export type { ConformanceOptions, OpenStorage } from './harness';

/**
 * Declares the behaviour suite every storage backend must pass (docs/storage.md),
 * the way Kubernetes' `storage/testing` does: the semantics written in the doc
 * comments of `pkg/storage` (interface, query, indexes, watch, errors, objects),
 * checked through the public `Storage` interface only.
 *
 * `open` must return a fresh, empty storage each time it is called (for Redis,
 * under its own key prefix), honouring the `StorageOptions` it is given
 * (`watchRetention`, `watchBuffer`, `indexBuildBatch`). The suite closes every
 * storage it opens.
 *
 * @example
 * // pkg/storage/memory/conformance.test.ts
 * runStorageConformance('memory', (options) => openStorage('memory://', options));
 * // test/integration/storage-redis.test.ts
 * runStorageConformance('redis', (options) =>
 *   openStorage(sharedRedisUrl(), { ...options, keyPrefix: uniqueKeyPrefix() }));
 */
export function runStorageConformance(name: string, open: OpenStorage, options: ConformanceOptions = {}): void {
  describe(`storage conformance: ${name}`, () => {
    const h = createHarness(open, options);
    describeCreateGet(h);
    describeUpdate(h);
    describeDelete(h);
    describeDryRun(h);
    describePreconditions(h);
    describeIndexes(h);
    describeSelectors(h);
    describeControlCharacters(h);
    describeSorting(h);
    describePaging(h);
    describeEqualityPages(h);
    describePairPages(h);
    describeAlternatives(h);
    describeWatch(h);
    describeConcurrency(h);
    describeIndexBuild(h);
  });
}
