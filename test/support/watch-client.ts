import WebSocket from 'ws';

/** A watch event as the wire carries it. */
export interface WireEvent {
  type: string;
  object: any;
}

/** Collects events from a watch and lets a test wait for them with a deadline. */
export class EventCollector {
  readonly events: WireEvent[] = [];
  ended = false;
  private waiters: (() => void)[] = [];

  push(event: WireEvent): void {
    this.events.push(event);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Resolves with the first `count` events, or rejects after `timeoutMs` saying what arrived. */
  async take(count: number, timeoutMs = 5000): Promise<WireEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (this.ended) throw new Error(`watch ended after ${this.events.length} of ${count} events: ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} events; got ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events.slice(0, count);
  }

  /** Resolves once the server has ended the stream. */
  async untilEnded(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for the watch to end');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  describe(): string {
    return JSON.stringify(this.events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.code ?? ''}`));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** An HTTP watch (`?watch=true`): resolves once the response headers arrived, with its status and events. */
export async function httpWatch(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; events: EventCollector; close: () => void }> {
  const abort = new AbortController();
  const res = await fetch(url, { signal: abort.signal, headers });
  const events = new EventCollector();
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString('utf8');
        let at: number;
        while ((at = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, at).trim();
          buffer = buffer.slice(at + 1);
          if (line) events.push(JSON.parse(line) as WireEvent);
        }
      }
    } catch {
      // aborted by the test
    } finally {
      events.end();
    }
  })();
  return { status: res.status, events, close: () => abort.abort() };
}

/**
 * A WebSocket watch: resolves once open (or rejects with the HTTP status of a refused upgrade).
 * `https://` becomes `wss://`; `options` may carry headers and the CA (PEM) to trust.
 */
export function wsWatch(
  url: string,
  options: { headers?: Record<string, string>; ca?: string | Buffer } = {},
): Promise<{ events: EventCollector; close: () => void }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), options);
    const events = new EventCollector();
    ws.on('message', (data) => events.push(JSON.parse(data.toString()) as WireEvent));
    ws.on('close', () => events.end());
    ws.on('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })),
    );
    ws.on('error', reject);
    ws.on('open', () => resolve({ events, close: () => ws.close() }));
  });
}
