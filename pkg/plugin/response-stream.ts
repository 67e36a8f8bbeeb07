/**
 * The rest of a streamed plugin response, as the host reads it: chunks as
 * the worker sends them, one at a time (the worker sends the next once
 * `written()` says the last went out to the client), ending or failing when
 * the worker says so.
 */
export class ResponseStream implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private ended = false;
  private error?: string;
  private wake?: () => void;

  constructor(
    private readonly ack: () => void,
    /** The client went away: the worker stops reading the handler's stream. */
    readonly cancel: () => void,
  ) {}

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  end(error?: string): void {
    this.ended = true;
    this.error = error;
    this.wake?.();
  }

  /** The last chunk was handed to the client's connection: the worker may send the next. */
  written(): void {
    this.ack();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
      } else if (this.ended) {
        if (this.error !== undefined) throw new Error(this.error);
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    }
  }
}
