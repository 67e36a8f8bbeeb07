/**
 * An AbortSignal that fires on the first SIGINT/SIGTERM; a second signal
 * exits at once, for when draining hangs.
 */
export function setupSignalHandler(onSecond: () => void = () => process.exit(1)): AbortSignal {
  const controller = new AbortController();
  const handle = () => {
    if (controller.signal.aborted) onSecond();
    else controller.abort();
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
  return controller.signal;
}
