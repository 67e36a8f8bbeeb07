import type { RunningControllerManager } from '../../pkg/controllermanager';

/** The controller-managers tests started in this process, with the URL of the apiserver each talks to. */
const running = new Map<RunningControllerManager, string>();

/** Keeps `cm` (talking to `server`) until it has stopped. */
export function trackControllerManager(cm: RunningControllerManager, server: string): void {
  running.set(cm, server);
  void cm.done.catch(() => undefined).finally(() => running.delete(cm));
}

/**
 * Stops the tracked controller-managers that talk to `server` (every one when absent). An apiserver's helpers
 * call it before stopping the apiserver: a controller-manager left running retries against a server that is gone
 * (its lists, watches and lease), and takes seconds to stop once it does.
 */
export async function stopControllerManagers(server?: string): Promise<void> {
  const stopping = [...running].filter(([, url]) => server === undefined || url === server).map(([cm]) => cm.stop());
  await Promise.all(stopping);
}
