import { SENT_AT_ANNOTATION } from './persons';

/** `"<annotation>":"` as it appears in an event's JSON, followed by the send time and `"`. */
const SENT_AT = Buffer.from(`${JSON.stringify(SENT_AT_ANNOTATION)}:"`);
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** How an ERROR event starts on the wire. */
const ERROR_EVENT = Buffer.from('{"type":"ERROR"');
/** Bytes of an ERROR event kept for the report. */
const ERROR_CHARS = 300;
const NO_BYTES: Buffer = Buffer.alloc(0);
/** What a read may cut in two and the next one complete. */
const MARKERS = [SENT_AT, ERROR_EVENT];
const MARKER_BYTES = Math.max(...MARKERS.map((m) => m.length));

/**
 * Finds the send-time stamps in a watch response body read in arbitrary
 * pieces, without decoding chunks or parsing JSON (chunk framing never
 * holds the annotation): one `onStamp(sentAt)` per event that carries it,
 * however the reads split it. An ERROR event is reported with `onError`.
 *
 * It runs once per read of every watcher, as often as the server writes, on
 * the same machine: a read is scanned where it lies (it is copied only when a
 * stamp, or what may be the start of one, is cut off at its end), and the
 * ERROR event, which ends a watch, is looked for only after the read's last stamp.
 *
 * @example
 * const scanner = new StampScanner((sentAt) => latencies.record(performance.now() - sentAt), (line) => fail(line));
 * socket.on('data', (chunk) => scanner.feed(chunk));
 */
export class StampScanner {
  /** Unscanned bytes from the last read: part of a stamp, or what may be the start of one. */
  private carry: Buffer = NO_BYTES;

  constructor(
    private readonly onStamp: (sentAt: number) => void,
    private readonly onError: (line: string) => void,
  ) {}

  /** Scans the next piece of the body. */
  feed(chunk: Buffer): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = NO_BYTES;
    let from = 0;
    for (let at = bytes.indexOf(SENT_AT); at !== -1; at = bytes.indexOf(SENT_AT, from)) {
      const start = at + SENT_AT.length;
      let end = start;
      while (end < bytes.length && bytes[end] !== QUOTE) end++;
      if (end === bytes.length) {
        // The stamp continues in the next read.
        this.carry = Buffer.from(bytes.subarray(at));
        return;
      }
      this.onStamp(stampValue(bytes, start, end));
      from = end + 1;
    }
    // An ERROR event is a watch's last: it comes after every stamped event of its read.
    const error = bytes.indexOf(ERROR_EVENT, from);
    if (error !== -1) {
      const lineEnd = bytes.indexOf(NEWLINE, error);
      this.onError(
        bytes.toString('utf8', error, Math.min(lineEnd === -1 ? bytes.length : lineEnd, error + ERROR_CHARS)),
      );
    }
    this.carry = cutOffStart(bytes, from);
  }
}

/** The send time between `start` and `end` (`1234.567`), read without making a string when it is digits and a dot. */
function stampValue(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  let scale = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b === DOT && scale === 0) scale = 1;
    else if (b >= ZERO && b <= NINE) {
      value = value * 10 + (b - ZERO);
      if (scale) scale *= 10;
    } else return Number(bytes.toString('latin1', start, end));
  }
  if (end - start === (scale ? 1 : 0)) return Number(bytes.toString('latin1', start, end));
  return scale ? value / scale : value;
}

/**
 * A copy of the end of `bytes` (not before `from`) that is the beginning of the stamp's marker or of an ERROR event,
 * cut off by the end of the read; empty when there is none.
 */
function cutOffStart(bytes: Buffer, from: number): Buffer {
  for (let at = Math.max(from, bytes.length - MARKER_BYTES + 1); at < bytes.length; at++) {
    for (const marker of MARKERS) if (startsWithPart(bytes, at, marker)) return Buffer.from(bytes.subarray(at));
  }
  return NO_BYTES;
}

/** Whether `bytes` from `at` to its end is the beginning of `marker`. */
function startsWithPart(bytes: Buffer, at: number, marker: Buffer): boolean {
  if (bytes.length - at >= marker.length) return false;
  for (let i = at; i < bytes.length; i++) if (bytes[i] !== marker[i - at]) return false;
  return true;
}
