import type { ApiObject } from '../../api/object';
import type { ListResult, WatchEvent } from '../../client/types';
import { WatchStream } from '../../client/watch-stream';
import type { ListerWatcher } from '../lister-watcher';

/**
 * An in-memory ListerWatcher for unit tests of informers and controllers:
 * `list` answers the objects given, and `emit` sends a watch event to the
 * open watch (events emitted while none is open are lost, as on a real
 * dropped connection).
 * @example
 * const source = new FakeListerWatcher([obj('a')]);
 * const informer = new Informer(source, { name: 'things', log });
 * source.emit({ type: 'MODIFIED', object: obj('a', '2') });
 */
export class FakeListerWatcher<T extends ApiObject = ApiObject> implements ListerWatcher<T> {
  lists = 0;
  watches = 0;
  private open: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readonly encoder = new TextEncoder();

  constructor(
    private items: T[] = [],
    private revision = '1',
  ) {}

  /** What the next list answers. */
  setItems(items: T[], revision: string): void {
    this.items = items;
    this.revision = revision;
  }

  async list(): Promise<ListResult<T>> {
    this.lists++;
    return { items: structuredClone(this.items), resourceVersion: this.revision };
  }

  async watch(_resourceVersion: string, signal: AbortSignal): Promise<WatchStream<T>> {
    this.watches++;
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.open = controller;
        abort.signal.addEventListener(
          'abort',
          () => {
            if (this.open === controller) this.open = undefined;
            try {
              controller.close();
            } catch {
              // already closed by the reader's cancel
            }
          },
          { once: true },
        );
      },
    });
    return new WatchStream<T>(body, abort, 'fake', signal);
  }

  /** Whether a watch is open to receive `emit`. */
  get watching(): boolean {
    return this.open !== undefined;
  }

  /** Sends one event to the open watch. */
  emit(event: WatchEvent<T>): void {
    this.open?.enqueue(this.encoder.encode(`${JSON.stringify(event)}\n`));
  }
}

/** A minimal object for tests: `thing('a', '7')` has name `a` and resourceVersion `7`. */
export function thing(name: string, resourceVersion = '1', extra: Partial<ApiObject['metadata']> = {}): ApiObject {
  return { apiVersion: 'test.example/v1', kind: 'Thing', metadata: { name, resourceVersion, ...extra }, spec: {} };
}
