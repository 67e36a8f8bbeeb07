// Messages between the plugin host and a plugin's worker, gathered per event loop turn: one postMessage (one copy
// and one wake-up of the other thread) for all the requests, or answers, that one turn produced.

/** Several messages sent as one. */
export interface MessageBatch<M> {
  type: 'batch';
  messages: M[];
}

/**
 * Posts messages through `send`, gathering those of one event loop turn
 * into one batch (a lone message goes as it is). A message with buffers to
 * transfer goes at once, after those gathered before it, so order is kept.
 */
export class MessageBatcher<M> {
  private queued: M[] = [];

  constructor(private readonly send: (message: M | MessageBatch<M>, transfer?: ArrayBuffer[]) => void) {}

  post(message: M, transfer: ArrayBuffer[] = []): void {
    if (transfer.length > 0) {
      this.flush();
      this.send(message, transfer);
      return;
    }
    this.queued.push(message);
    if (this.queued.length === 1) setImmediate(() => this.flush());
  }

  /** Sends what is gathered now. */
  flush(): void {
    if (this.queued.length === 0) return;
    const messages = this.queued;
    this.queued = [];
    this.send(messages.length === 1 ? messages[0] : { type: 'batch', messages });
  }
}

/** Each message of what was received, a batch taken apart. */
export function unbatched<M>(received: M | MessageBatch<M>, each: (message: M) => void): void {
  if ((received as { type?: string }).type === 'batch') (received as MessageBatch<M>).messages.forEach(each);
  else each(received as M);
}
