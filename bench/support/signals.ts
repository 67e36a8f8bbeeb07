import { setupSignalHandler } from '../../pkg/util/signals';

/**
 * On the first SIGINT/SIGTERM, runs `close` (stopping the benchmark's
 * processes and private Redis, removing its keys) and exits with 130; a
 * second signal exits at once (the project's signal handler, pkg/util/signals).
 *
 * @example closeOnSignal(() => session.close());
 */
export function closeOnSignal(close: () => Promise<unknown>): void {
  const signal = setupSignalHandler();
  signal.addEventListener(
    'abort',
    () => {
      process.stderr.write('\nsignal received: stopping\n');
      void close().finally(() => process.exit(130));
    },
    { once: true },
  );
}
