import type { Status } from '../api/errors';
import type { ApiObject } from '../api/object';
import { errorFromStatus, NetworkError } from './errors';
import type { WatchEvent } from './types';

/** One line of a watch as the wire carries it, ERROR included. */
interface WireEvent {
  type: string;
  object: unknown;
}

const EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']);

/**
 * A watch over HTTP (docs/api.md): iterate it for events, `stop()` it to end it.
 * The iteration ends when the server ends the stream (its watch timeout) or
 * after `stop()`; it throws an `ExpiredError` for an ERROR event carrying a
 * 410 Status, an `ApiError` for any other ERROR event, and a `NetworkError`
 * when the connection breaks off or a line cannot be read. It can be iterated once.
 * @example
 * const watch = await client.watch(PERSONS, {resourceVersion: list.resourceVersion});
 * for await (const event of watch) console.log(event.type, event.object.metadata.name);
 */
export class WatchStream<T extends ApiObject = ApiObject> implements AsyncIterable<WatchEvent<T>> {
  private stopped = false;
  private iterated = false;
  private readonly stopOnAbort = () => this.stop();

  /**
   * `abort` cancels the underlying request; `signal`, the caller's, stops the
   * watch like `stop()` when it aborts.
   */
  constructor(
    private readonly body: ReadableStream<Uint8Array>,
    private readonly abort: AbortController,
    private readonly what: string,
    private readonly signal?: AbortSignal,
  ) {
    if (signal?.aborted) this.stop();
    else signal?.addEventListener('abort', this.stopOnAbort, { once: true });
  }

  /** Ends the watch: the iteration ends quietly, the connection is closed. Safe to call twice. */
  stop(): void {
    this.stopped = true;
    this.signal?.removeEventListener('abort', this.stopOnAbort);
    this.abort.abort();
  }

  /** Whether `stop()` was called. */
  get isStopped(): boolean {
    return this.stopped;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    if (this.iterated) throw new Error('a watch can be iterated once');
    this.iterated = true;
    try {
      for await (const line of this.lines()) {
        const event = this.parse(line);
        if (event) yield event;
      }
    } finally {
      this.stop();
    }
  }

  /** The stream's non-empty lines; a broken connection is a NetworkError, unless stopped. */
  private async *lines(): AsyncGenerator<string> {
    const reader = this.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (this.stopped) return;
        throw new NetworkError(`watch ${this.what} broke off: ${(err as Error).message}${silenceHint(err)}`, {
          cause: err,
        });
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let start = 0;
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n', start)) {
        const line = buffer.slice(start, at).trim();
        start = at + 1;
        if (line) yield line;
      }
      buffer = buffer.slice(start);
    }
    buffer += decoder.decode();
    if (buffer.trim()) yield buffer.trim();
  }

  private parse(line: string): WatchEvent<T> | undefined {
    let wire: WireEvent;
    try {
      wire = JSON.parse(line) as WireEvent;
    } catch (cause) {
      throw new NetworkError(`watch ${this.what}: unreadable event ${JSON.stringify(line.slice(0, 80))}`, { cause });
    }
    if (wire.type === 'ERROR') throw errorFromStatus(wire.object as Status);
    if (typeof wire.object !== 'object' || wire.object === null) {
      throw new NetworkError(`watch ${this.what}: an event without an object ${JSON.stringify(line.slice(0, 80))}`);
    }
    // An event type this client does not know (from a newer server) is skipped, as Kubernetes clients do.
    return EVENT_TYPES.has(wire.type) ? (wire as WatchEvent<T>) : undefined;
  }
}

/**
 * Why fetch ended a watch that carried nothing for 5 minutes (its body timeout, reported only as "terminated"), and
 * the cure; '' for any other failure.
 */
function silenceHint(err: unknown): string {
  const code = ((err as { cause?: { code?: unknown } }).cause ?? {}).code;
  return code === 'UND_ERR_BODY_TIMEOUT'
    ? ' (nothing came for 5 minutes, which fetch gives up on: ask for bookmarks, allowWatchBookmarks)'
    : '';
}
