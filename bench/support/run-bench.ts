import { CommanderError } from 'commander';

/**
 * Runs a benchmark's `main`: a command-line error (already printed by
 * commander) becomes its exit code, any other failure is printed as
 * `<name> benchmark failed: …` with exit code 1. Missed goals are not
 * failures: they are reported, and the run itself succeeded.
 *
 * @example runBench('storage', () => main(process.argv.slice(2)));
 */
export function runBench(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(
      `${name} benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  });
}
