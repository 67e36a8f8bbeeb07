import { crc32 } from 'node:zlib';

/** Bytes before each record's payload: its length and its CRC-32, both little-endian. */
const HEADER = 8;

/** The largest payload a record may carry (a length beyond it marks a torn or foreign file). */
export const MAX_RECORD = 256 * 1024 * 1024;

/**
 * Frames one record for an append-only file: length, CRC-32 of the payload,
 * payload. A record cut short by a crash, or overwritten with garbage, fails
 * the length or checksum test on reading.
 *
 * @example readRecords(frame(Buffer.from('{}'))).records // [<Buffer 7b 7d>]
 */
export function frame(payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  payload.copy(out, HEADER);
  return out;
}

/** What a file's records read as: the whole ones, and where the first bad one starts (if any). */
export interface ReadRecords {
  records: Buffer[];
  /** Bytes taken by whole records; less than the input when `torn`. */
  validLength: number;
  /** True when bytes follow the last whole record that are not a whole record. */
  torn: boolean;
}

/** Reads the framed records from `data` (from `start`) up to the first incomplete or corrupt one. */
export function readRecords(data: Buffer, start = 0): ReadRecords {
  const records: Buffer[] = [];
  let at = start;
  while (at + HEADER <= data.length) {
    const length = data.readUInt32LE(at);
    const end = at + HEADER + length;
    if (length > MAX_RECORD || end > data.length) break;
    const payload = data.subarray(at + HEADER, end);
    if (crc32(payload) !== data.readUInt32LE(at + 4)) break;
    records.push(payload);
    at = end;
  }
  return { records, validLength: at, torn: at < data.length };
}
