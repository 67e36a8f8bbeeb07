import { closeSync, openSync, readSync } from 'node:fs';

/** How far the index builds of one type are: objects done and to do, summed over its indexes. */
export interface IndexBuildProgress {
  done: number;
  total: number;
}

/** One `building index` line of the apiserver's JSON log (pkg/registry/scheme.ts logs one per batch). */
interface BuildLine {
  msg?: unknown;
  type?: unknown;
  index?: unknown;
  done?: unknown;
  total?: unknown;
}

/**
 * Follows the apiserver's log file for the progress of the index builds of
 * `type` (e.g. `items.bench.example.com`): the apiserver logs one
 * `building index` line per batch with the index's `done` and `total`. Each
 * `read()` parses only what was appended since the previous one.
 */
export class IndexProgressReader {
  private offset = 0;
  private rest = '';
  private readonly latest = new Map<string, IndexBuildProgress>();

  constructor(
    private readonly logFile: string,
    private readonly type: string,
  ) {}

  /** The progress so far; `{done: 0, total: 0}` until a build has logged. */
  read(): IndexBuildProgress {
    const text = this.rest + this.appended();
    const cut = text.lastIndexOf('\n') + 1;
    this.rest = text.slice(cut);
    for (const line of text.slice(0, cut).split('\n')) this.take(line);
    let done = 0;
    let total = 0;
    for (const progress of this.latest.values()) {
      done += progress.done;
      total += progress.total;
    }
    return { done, total };
  }

  private appended(): string {
    const fd = openSync(this.logFile, 'r');
    try {
      const chunks: Buffer[] = [];
      const buffer = Buffer.alloc(64 * 1024);
      for (let read = readSync(fd, buffer, 0, buffer.length, this.offset); read > 0;) {
        chunks.push(Buffer.from(buffer.subarray(0, read)));
        this.offset += read;
        read = readSync(fd, buffer, 0, buffer.length, this.offset);
      }
      return Buffer.concat(chunks).toString('utf8');
    } finally {
      closeSync(fd);
    }
  }

  private take(line: string): void {
    if (!line.includes('"building index"')) return;
    const entry = parseLine(line);
    if (entry?.type !== this.type || typeof entry.index !== 'string') return;
    if (typeof entry.done === 'number' && typeof entry.total === 'number') {
      this.latest.set(entry.index, { done: entry.done, total: entry.total });
    }
  }
}

function parseLine(line: string): BuildLine | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && (parsed as BuildLine).msg === 'building index'
      ? (parsed as BuildLine)
      : undefined;
  } catch {
    return undefined;
  }
}
