// Inside a plugin's worker: a forwarded request's body as a ReadableStream that asks the host for each chunk when
// the handler reads it.
import type { HostMessage, WorkerMessage } from './protocol';

type Post = (message: WorkerMessage) => void;
type BodyMessage = Extract<HostMessage, { type: 'body' }>;

export class RequestBodies {
  private readonly waiting = new Map<number, (message: BodyMessage) => void>();

  constructor(private readonly post: Post) {}

  /** The body of request `id`, pulled from the host chunk by chunk. */
  stream(id: number): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const answer = await new Promise<BodyMessage>((resolve) => {
            this.waiting.set(id, resolve);
            this.post({ type: 'pull', id });
          });
          if (answer.error !== undefined) controller.error(new Error(answer.error));
          else if (answer.chunk) controller.enqueue(answer.chunk);
          if (answer.done && answer.error === undefined) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
  }

  received(message: BodyMessage): void {
    const resolve = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    resolve?.(message);
  }
}
