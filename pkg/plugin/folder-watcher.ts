import { watch, type FSWatcher } from 'node:fs';

/**
 * Calls `onChange` when something in a folder may have changed: on file
 * system events (debounced, so that copying a plugin in triggers one call)
 * and, because such events are not delivered on every file system (network
 * and container mounts), every `rescanMs` as well. `onChange` compares
 * content hashes, so a call without a change costs a read of the folder.
 */
export class FolderWatcher {
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    private readonly onChange: () => void,
    private readonly options: { debounceMs: number; rescanMs: number },
  ) {}

  start(onWatchError: (err: Error) => void): void {
    try {
      this.watcher = watch(this.dir, { recursive: true, persistent: false }, () => this.soon());
      this.watcher.on('error', (err) => {
        onWatchError(err);
        this.watcher?.close();
      });
    } catch (err) {
      onWatchError(err as Error);
    }
    this.timer = setInterval(this.onChange, this.options.rescanMs);
    this.timer.unref();
  }

  stop(): void {
    this.watcher?.close();
    clearInterval(this.timer);
    clearTimeout(this.debounce);
  }

  private soon(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(this.onChange, this.options.debounceMs);
    this.debounce.unref();
  }
}
