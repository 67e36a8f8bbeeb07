/**
 * `make bench`: the storage benchmark of issue 2 §4 (see bench/README.md).
 *
 * @example node dist/bench/storage/main.js --sizes 2000 --ops 2000
 */
import { CommanderError } from 'commander';
import { parseBenchOptions, type BenchOptions } from './options';
import { openSession } from './session';
import { runStorageBench } from './storage-bench';

async function main(): Promise<void> {
  let options: BenchOptions;
  try {
    options = parseBenchOptions(process.argv.slice(2));
  } catch (err) {
    // Commander has printed the help or the error already.
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    throw err;
  }
  const session = await openSession();
  const stop = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: stopping\n`);
    void session.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    // Missed goals are reported, not failures: the run itself succeeded.
    await runStorageBench(session, options);
  } finally {
    await session.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `storage benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
