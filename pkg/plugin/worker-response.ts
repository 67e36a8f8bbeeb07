// Inside a plugin's worker: sends a handler's Response to the host. A body of one chunk goes whole, with the head;
// a longer one is streamed chunk by chunk, each sent only once the host has written the one before (back pressure).
import type { WorkerMessage } from './protocol';

type Post = (message: WorkerMessage, transfer?: ArrayBuffer[]) => void;

const encoder = new TextEncoder();

/** A copy of a chunk in a buffer of its own, so that it can be transferred. */
function bytesOf(value: unknown): Uint8Array {
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value.slice(0));
  throw new TypeError('a response body stream must yield Uint8Array or string chunks');
}

export class ResponseSender {
  private readonly acks = new Map<number, () => void>();
  private readonly cancelled = new Set<number>();

  constructor(private readonly post: Post) {}

  async send(id: number, response: Response): Promise<void> {
    const head = { status: response.status, headers: [...response.headers] };
    const reader = response.body?.getReader();
    const first = reader ? await reader.read() : { done: true as const, value: undefined };
    const body = first.done ? new Uint8Array(0) : bytesOf(first.value);
    const second = first.done || !reader ? first : await reader.read();
    if (second.done) {
      this.post({ type: 'response', id, ...head, body }, [body.buffer as ArrayBuffer]);
      return;
    }
    this.post({ type: 'response', id, ...head, body, streamed: true }, [body.buffer as ArrayBuffer]);
    await this.stream(id, reader!, second.value);
  }

  /** The host wrote the last chunk of stream `id`. */
  ack(id: number): void {
    const resolve = this.acks.get(id);
    this.acks.delete(id);
    resolve?.();
  }

  /** The client of stream `id` went away. */
  cancel(id: number): void {
    this.cancelled.add(id);
    this.ack(id);
  }

  private async stream(id: number, reader: ReadableStreamDefaultReader<unknown>, next: unknown): Promise<void> {
    try {
      let chunk: { done: boolean; value?: unknown } = { done: false, value: next };
      await this.acked(id);
      while (!chunk.done && !this.cancelled.has(id)) {
        const bytes = bytesOf(chunk.value);
        this.post({ type: 'chunk', id, chunk: bytes }, [bytes.buffer as ArrayBuffer]);
        await this.acked(id);
        chunk = await reader.read();
      }
      if (this.cancelled.has(id)) await reader.cancel();
      this.post({ type: 'end', id });
    } catch (err) {
      this.post({ type: 'end', id, error: err instanceof Error ? err.message : String(err) });
    } finally {
      this.cancelled.delete(id);
    }
  }

  private acked(id: number): Promise<void> {
    if (this.cancelled.has(id)) return Promise.resolve();
    return new Promise((resolve) => this.acks.set(id, resolve));
  }
}
