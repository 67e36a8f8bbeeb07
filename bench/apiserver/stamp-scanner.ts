import { SENT_AT_ANNOTATION } from './persons';

/** `"<annotation>":"` as it appears in an event's JSON, followed by the send time and `"`. */
const SENT_AT = Buffer.from(`${JSON.stringify(SENT_AT_ANNOTATION)}:"`);
const QUOTE = 0x22;
const NEWLINE = 0x0a;
/** How an ERROR event starts on the wire. */
const ERROR_EVENT = Buffer.from('{"type":"ERROR"');
/** Bytes of an ERROR event kept for the report. */
const ERROR_CHARS = 300;

/**
 * Finds the send-time stamps in a watch response body read in arbitrary
 * pieces, without decoding chunks or parsing JSON (chunk framing never
 * holds the annotation): one `onStamp(sentAt)` per event that carries it,
 * however the reads split it. An ERROR event is reported with `onError`.
 *
 * @example
 * const scanner = new StampScanner((sentAt) => latencies.record(performance.now() - sentAt), (line) => fail(line));
 * socket.on('data', (chunk) => scanner.feed(chunk));
 */
export class StampScanner {
  /** Unscanned bytes from the last read: part of a stamp, or what may be the start of one. */
  private carry = Buffer.alloc(0);

  constructor(
    private readonly onStamp: (sentAt: number) => void,
    private readonly onError: (line: string) => void,
  ) {}

  /** Scans the next piece of the body. */
  feed(chunk: Buffer): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    let from = 0;
    for (let at = bytes.indexOf(SENT_AT); at !== -1; at = bytes.indexOf(SENT_AT, from)) {
      const start = at + SENT_AT.length;
      const end = bytes.indexOf(QUOTE, start);
      if (end === -1) {
        // The stamp continues in the next read.
        this.carry = Buffer.from(bytes.subarray(at));
        return;
      }
      this.onStamp(Number(bytes.toString('latin1', start, end)));
      from = end + 1;
    }
    const error = bytes.indexOf(ERROR_EVENT);
    if (error !== -1) {
      const lineEnd = bytes.indexOf(NEWLINE, error);
      this.onError(
        bytes.toString('utf8', error, Math.min(lineEnd === -1 ? bytes.length : lineEnd, error + ERROR_CHARS)),
      );
    }
    // Keep what may be the start of a stamp split across reads.
    this.carry = Buffer.from(bytes.subarray(Math.max(from, bytes.length - SENT_AT.length + 1)));
  }
}
