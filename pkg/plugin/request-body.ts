import type { IncomingMessage } from 'node:http';
import { tooLarge } from '../api/errors';

/** One pull of a streamed request body: a chunk, the end, or why it stopped. */
export interface BodyPull {
  chunk?: Uint8Array;
  done: boolean;
  error?: string;
}

/**
 * A request body handed to a plugin as a stream: each chunk is read from the
 * connection only when the handler's stream asks for it, so an unread body
 * stays in the socket (back pressure) rather than in memory. More than
 * `limit` bytes stops the stream; `refusal()` is then the 413 to answer.
 */
export class RequestBodyStream {
  private readonly chunks: AsyncIterator<Buffer>;
  private size = 0;
  private exceeded = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly limit: number,
  ) {
    this.chunks = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** The 413 to answer when the body is larger than the limit (declared or read), else undefined. */
  refusal() {
    const declared = Number(this.req.headers['content-length']);
    return this.exceeded || (Number.isFinite(declared) && declared > this.limit) ? tooLarge(this.limit) : undefined;
  }

  async pull(): Promise<BodyPull> {
    if (this.exceeded) return { done: true, error: 'the request body is too large' };
    try {
      const next = await this.chunks.next();
      if (next.done) return { done: true };
      this.size += next.value.length;
      if (this.size <= this.limit) return { done: false, chunk: new Uint8Array(next.value) };
      this.exceeded = true;
      this.req.resume();
      return { done: true, error: `the request body is larger than ${this.limit} bytes` };
    } catch {
      return { done: true, error: 'the connection closed before the whole body arrived' };
    }
  }
}
