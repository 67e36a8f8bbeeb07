/**
 * `make bench`: the storage benchmark (see bench/README.md).
 *
 * @example node dist/bench/storage/main.js --sizes 2000 --ops 2000
 */
import { runBench } from '../support/run-bench';
import { withBenchSession } from '../support/session';
import { parseBenchOptions } from './options';
import { openStorageSession } from './session';
import { runStorageBench } from './storage-bench';

runBench('storage', async () => {
  const options = parseBenchOptions(process.argv.slice(2));
  await withBenchSession(await openStorageSession(options.indexLayout), (session) => runStorageBench(session, options));
});
