import { MessageBatcher, unbatched, type MessageBatch } from './message-batch';

type Sent = { message: number | MessageBatch<number>; transfer?: ArrayBuffer[] };
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('MessageBatcher', () => {
  it('sends the messages of one event loop turn as one batch, and a lone one as it is', async () => {
    const sent: Sent[] = [];
    const batcher = new MessageBatcher<number>((message, transfer) => sent.push({ message, transfer }));
    batcher.post(1);
    batcher.post(2);
    expect(sent).toEqual([]);
    await turn();
    batcher.post(3);
    await turn();
    expect(sent.map((s) => s.message)).toEqual([{ type: 'batch', messages: [1, 2] }, 3]);
  });

  it('sends a message with buffers to transfer at once, after those gathered before it', () => {
    const sent: Sent[] = [];
    const batcher = new MessageBatcher<number>((message, transfer) => sent.push({ message, transfer }));
    const buffer = new ArrayBuffer(8);
    batcher.post(1);
    batcher.post(2, [buffer]);
    expect(sent).toEqual([
      { message: 1, transfer: undefined },
      { message: 2, transfer: [buffer] },
    ]);
  });

  it('takes a batch apart on receipt, in order', () => {
    const received: number[] = [];
    unbatched<number>({ type: 'batch', messages: [1, 2] }, (m) => received.push(m));
    unbatched<number>(3, (m) => received.push(m));
    expect(received).toEqual([1, 2, 3]);
  });
});
