import { rmSync } from 'node:fs';
import type { Logger } from '../util/log';
import { FolderWatcher } from './folder-watcher';
import { ManifestError } from './manifest';
import {
  listPluginSources,
  loadPluginSource,
  unreadableSource,
  type LoadedSource,
  type PluginSource,
} from './plugin-source';
import type { ArchiveLimits } from './tar-reader';

/** Work under way: `settled` resolves once the plugins concerned are STARTED, STOPPED or FAILED. */
export interface Settling {
  settled: Promise<void>;
}

const DONE: Settling = { settled: Promise.resolve() };

/** What the folder sync asks of the plugin host. */
export interface FolderSyncTarget {
  /** The name of the plugin installed from `path`, if any. */
  installedFrom(path: string): string | undefined;
  /** The source path of the installed plugin `name`, if any. */
  sourceOf(name: string): string | undefined;
  /** Installs a plugin; resolves once it is known, to a promise that settles once it is STARTED, STOPPED or FAILED. */
  install(path: string, loaded: LoadedSource): Promise<Settling>;
  /** Replaces an installed plugin's content: stops it, and starts it again if it is enabled. */
  reload(name: string, loaded: LoadedSource): Promise<void>;
  /** Stops the plugin and deletes its Plugin object. */
  uninstall(name: string): void;
  /** The names of every stored Plugin object. */
  storedPlugins(): string[];
}

/**
 * Keeps the installed plugins in line with the plugins folder: a folder or
 * `.tgz` added is installed, one whose content hash changed is reloaded, one
 * removed is uninstalled. Scans run one at a time, on file system events
 * (debounced) and every `rescanMs`.
 */
export class PluginFolderSync {
  private readonly hashes = new Map<string, string>();
  private scanning: Promise<unknown> = Promise.resolve();
  private watcher?: FolderWatcher;

  constructor(
    private readonly dir: string,
    private readonly target: FolderSyncTarget,
    private readonly log: Logger,
    private readonly options: { debounceMs: number; rescanMs: number; archiveLimits?: ArchiveLimits },
  ) {}

  /** Scans the folder now; resolves once the changes are applied, with `settled` for when the plugins have started. */
  scan(): Promise<Settling> {
    const run = this.scanning.then(() => this.sync());
    this.scanning = run.catch((err: unknown) =>
      this.log.error({ err, dir: this.dir }, 'could not read the plugins folder'),
    );
    return run.catch(() => ({ settled: Promise.resolve() }));
  }

  /** Deletes the Plugin objects of plugins no longer in the folder (removed while no apiserver ran). */
  async uninstallOrphans(): Promise<void> {
    await this.scanning;
    for (const name of this.target.storedPlugins()) {
      if (this.target.sourceOf(name) === undefined) this.target.uninstall(name);
    }
  }

  watch(): void {
    this.watcher = new FolderWatcher(this.dir, () => void this.scan(), this.options);
    this.watcher.start((err) =>
      this.log.warn(
        { dir: this.dir, reason: err.message },
        'cannot watch the plugins folder; rescanning it periodically',
      ),
    );
  }

  stop(): void {
    this.watcher?.stop();
  }

  private async sync(): Promise<Settling> {
    const sources = listPluginSources(this.dir);
    const present = new Set(sources.map((s) => s.path));
    for (const path of [...this.hashes.keys()].filter((p) => !present.has(p))) {
      this.hashes.delete(path);
      const name = this.target.installedFrom(path);
      if (name) this.target.uninstall(name);
    }
    const changed = sources.filter((s) => this.hashes.get(s.path) !== s.hash);
    const settled: Promise<void>[] = [];
    for (const source of changed) settled.push((await this.apply(source)).settled);
    return { settled: Promise.all(settled).then(() => undefined) };
  }

  /** Installs or reloads the plugin of a new or changed source; resolves to a promise that settles with it. */
  private async apply(source: PluginSource): Promise<Settling> {
    this.hashes.set(source.path, source.hash);
    const loaded = this.load(source);
    if (!loaded) return DONE;
    const name = loaded.manifest.name;
    const previous = this.target.installedFrom(source.path);
    if (previous !== undefined && previous !== name) this.target.uninstall(previous);
    const owner = this.target.sourceOf(name);
    if (owner === undefined) return this.target.install(source.path, loaded);
    if (owner === source.path) return { settled: this.target.reload(name, loaded) };
    this.log.error(
      { plugin: name, file: source.path, loadedFrom: owner },
      'plugin not loaded: another folder has a plugin of the same name',
    );
    if (loaded.unpackedDir) rmSync(loaded.unpackedDir, { recursive: true, force: true });
    return DONE;
  }

  private load(source: PluginSource): LoadedSource | undefined {
    try {
      return loadPluginSource(source, this.options.archiveLimits);
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      this.log.error({ file: err.file, reason: err.reason }, 'plugin not loaded: its folder is invalid');
      // An installed plugin whose folder became unreadable keeps running as it was; a new one is shown FAILED,
      // under its file or folder name, so that the refusal is seen through the API and not only in the log.
      if (this.target.installedFrom(source.path) !== undefined) return undefined;
      return unreadableSource(source.path, err.message);
    }
  }
}
