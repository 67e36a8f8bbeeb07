import type { RedisClient } from './connection';
import type { ResourceType } from '../interface';
import type { Watcher } from '../watch';
import type { TypeKeys } from './keys';
import type { RedisOutageLog } from './outage-log';
import { StreamReader } from './stream-reader';

/** What the hub needs from the storage. */
export interface WatchHubOptions {
  client: RedisClient;
  keysOf: (type: ResourceType) => TypeKeys;
  /** Opens a dedicated connection for one type's blocking reads. */
  openConnection: (type: ResourceType) => RedisClient;
  watchBuffer: number;
  outages: RedisOutageLog;
}

/** The process's stream readers: one per watched type, started by its first watcher, stopped after its last. */
export class WatchHub {
  private readonly readers = new Map<ResourceType, StreamReader>();

  constructor(private readonly options: WatchHubOptions) {}

  /** A watcher of `type`'s changes after `fromRevision` (or after now). */
  watch(type: ResourceType, fromRevision: string | undefined): Watcher {
    let reader = this.readers.get(type);
    if (reader === undefined) {
      const created = new StreamReader({
        type,
        keys: this.options.keysOf(type),
        client: this.options.client,
        openConnection: () => this.options.openConnection(type),
        watchBuffer: this.options.watchBuffer,
        outages: this.options.outages,
        onStopped: () => {
          if (this.readers.get(type) === created) this.readers.delete(type);
        },
      });
      this.readers.set(type, created);
      reader = created;
    }
    return reader.watch(fromRevision);
  }

  /** Ends every watcher and stops every reader. */
  close(): void {
    for (const reader of [...this.readers.values()]) reader.close();
    this.readers.clear();
  }
}
