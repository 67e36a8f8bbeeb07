import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { basename, dirname } from 'node:path';
import type { AuditSink } from './recorder';

/** `--audit-log-path`: one JSON line per record, rotated by size; the rotated files are kept up to a count. */
export interface AuditFileOptions {
  path: string;
  /** Rotate when the file reaches this many bytes (`--audit-log-max-size`, default 100 MB). */
  maxBytes: number;
  /** Keep at most this many rotated files (`--audit-log-max-files`, default 10). */
  maxFiles: number;
}

export const DEFAULT_AUDIT_LOG_MAX_BYTES = 100 * 1024 * 1024;
export const DEFAULT_AUDIT_LOG_MAX_FILES = 10;

/**
 * The JSON-lines sink. Rotation is `rotating-file-stream`'s: the live file keeps its name, rotated ones are
 * `<name>.1` (newest) … `<name>.<maxFiles>`.
 */
export function auditFileSink(options: AuditFileOptions): AuditSink {
  // A file name with `rotate`: classical logrotate numbering (`<name>.1` the newest rotated file).
  const stream: RotatingFileStream = createStream(basename(options.path), {
    path: dirname(options.path),
    size: `${Math.max(1, Math.floor(options.maxBytes / 1024))}K`,
    rotate: options.maxFiles,
    mode: 0o600,
  });
  let failure: Error | undefined;
  stream.on('error', (err: Error) => (failure = err));
  return {
    name: 'file',
    write: (records) =>
      new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        stream.write(records.map((r) => `${JSON.stringify(r)}\n`).join(''), (err) => (err ? reject(err) : resolve()));
      }),
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}
