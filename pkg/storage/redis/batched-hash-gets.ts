/** What the batcher asks of a Redis client. */
export interface HashGetClient {
  hget(key: string, field: string): Promise<string | null>;
  hmget(key: string, ...fields: string[]): Promise<(string | null)[]>;
}

interface Waiting {
  field: string;
  resolve: (value: string | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Gets of one field of a Redis hash, those asked in one turn of the event loop (its promise callbacks included) sent
 * together: one HMGET per hash instead of one HGET each, so one command written to the socket and one reply read for
 * all of them. A lone get is an HGET. Nothing is kept: every get is answered by a command sent after it was asked.
 * One hash is one key, so one cluster slot: a batch never spans slots.
 */
export class BatchedHashGets {
  private queued = new Map<string, Waiting[]>();

  constructor(private readonly client: HashGetClient) {}

  get(key: string, field: string): Promise<string | null> {
    return new Promise((resolve, reject) => {
      let waiting = this.queued.get(key);
      if (waiting === undefined) {
        waiting = [];
        this.queued.set(key, waiting);
        // After the callbacks of this turn that are already queued: the gets they ask join this batch.
        if (this.queued.size === 1) process.nextTick(() => this.flush());
      }
      waiting.push({ field, resolve, reject });
    });
  }

  private flush(): void {
    const batches = this.queued;
    this.queued = new Map();
    for (const [key, waiting] of batches) {
      if (waiting.length === 1) {
        const [one] = waiting;
        this.client.hget(key, one.field).then(one.resolve, one.reject);
        continue;
      }
      this.client.hmget(key, ...waiting.map((w) => w.field)).then(
        (values) => waiting.forEach((w, i) => w.resolve(values[i] ?? null)),
        (err: unknown) => waiting.forEach((w) => w.reject(err)),
      );
    }
  }
}
