import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { LatencyRecorder } from '../support/latency-stats';
import { StampScanner } from './stamp-scanner';

const HEAD_END = Buffer.from('\r\n\r\n');
/** Where every watcher's reads land; nothing keeps a view of it past the read (the scanner copies what it carries). */
const READ_BUFFER = Buffer.alloc(64 * 1024);

/**
 * One HTTP watch (`GET …?watch=true&resourceVersion=…`, HTTP/1.1 over a
 * socket of its own, `Connection: close` so that the end of the watch is the
 * end of the socket) that records, for every event carrying the send-time
 * annotation, the time from the write being sent to the event's bytes
 * reaching this process.
 *
 * The body is scanned as raw bytes (see StampScanner) instead of going
 * through Node's HTTP client and JSON parsing: with a thousand watchers the
 * client reads as many events per second as the server writes, on the same
 * machine, so its cost per event must stay far below the server's.
 */
export class WatchStream {
  /** Events with a send time seen so far. */
  received = 0;
  /** Why the stream ended before `close()`, or an ERROR event it carried. */
  failure?: string;
  private socket?: Socket;
  /** The response head while it is incomplete. */
  private head = Buffer.alloc(0);
  private headDone = false;
  private closing = false;
  /** When the read being scanned arrived. */
  private arrived = 0;
  private readonly scanner: StampScanner;

  constructor(
    private readonly url: string,
    latencies: Pick<LatencyRecorder, 'record'>,
    /** Request headers besides the watch's own, e.g. `Authorization`. */
    private readonly headers: Record<string, string> = {},
  ) {
    this.scanner = new StampScanner(
      (sentAt) => {
        latencies.record(this.arrived - sentAt);
        this.received++;
      },
      (line) => {
        this.failure ??= line;
      },
    );
  }

  /** Opens the watch; resolves once the server has answered 200. */
  open(): Promise<void> {
    const target = new URL(this.url);
    return new Promise((resolve, reject) => {
      // Reads land in one buffer shared by every watcher (each read is scanned before the next one is taken),
      // with no stream machinery or allocation per read: the generator must stay far cheaper than the server.
      const socket = connect({
        port: Number(target.port),
        host: target.hostname,
        onread: {
          buffer: READ_BUFFER,
          callback: (bytes) => {
            onBytes(READ_BUFFER.subarray(0, bytes));
            return true;
          },
        },
      });
      this.socket = socket;
      socket.setNoDelay(true);
      socket.on('connect', () =>
        socket.write(
          `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: application/json\r\n` +
            Object.entries(this.headers)
              .map(([name, value]) => `${name}: ${value}\r\n`)
              .join('') +
            'Connection: close\r\n\r\n',
        ),
      );
      const onBytes = (chunk: Buffer) => {
        this.arrived = performance.now();
        if (this.headDone) return this.scanner.feed(chunk);
        const head = this.readHead(chunk);
        if (head === undefined) return;
        if (!head.ok) {
          reject(new Error(`watch ${this.url} answered ${head.statusLine}`));
          socket.destroy();
          return;
        }
        resolve();
        if (head.rest.length) this.scanner.feed(head.rest);
      };
      const ended = (why: string) => {
        if (!this.closing) this.failure ??= why;
        reject(new Error(`watch ${this.url}: ${why}`));
      };
      socket.on('error', (err) => ended(err.message));
      socket.on('close', () => ended('the server ended the watch'));
    });
  }

  /** Ends the watch. */
  close(): void {
    this.closing = true;
    this.socket?.destroy();
  }

  /** Collects the response head; once complete, whether it is a 200 and the body bytes after it. */
  private readHead(chunk: Buffer): { ok: boolean; statusLine: string; rest: Buffer } | undefined {
    const bytes = Buffer.concat([this.head, chunk]);
    const end = bytes.indexOf(HEAD_END);
    if (end === -1) {
      this.head = bytes;
      return undefined;
    }
    this.headDone = true;
    this.head = Buffer.alloc(0);
    const statusLine = bytes.toString('latin1', 0, bytes.indexOf('\r\n'));
    return { ok: / 200 /.test(`${statusLine} `), statusLine, rest: bytes.subarray(end + HEAD_END.length) };
  }
}
