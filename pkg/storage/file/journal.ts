import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { frame } from './framing';
import { journalPath, syncDirectory, writeFully } from './layout';

interface Waiter {
  /** Records appended when the waiter started waiting; it is released once that many are durable. */
  upTo: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** A switch to the next journal file, queued among the records (see `Journal.rotate`). */
interface Rotation {
  seq: number;
}

/**
 * The append-only journal with group commit. `append` frames a record and
 * queues it synchronously, so records land in the order they were appended;
 * one writer loop writes everything queued in one write and one fdatasync,
 * and the records that arrive meanwhile share the next one. `sync` resolves
 * once every record appended before it is on disk.
 *
 * When a write or fsync fails, the journal is failed for good: every waiting
 * and later `sync` rejects with that error (memory and disk may differ now).
 */
export class Journal {
  private queue: (Buffer | Rotation)[] = [];
  private appended = 0;
  private durable = 0;
  private waiters: Waiter[] = [];
  private writing = false;
  private loop: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private written = 0;
  /** The file the latest record appended goes to: `seq`, or the target of the latest queued rotation. */
  private appendSeq: number;

  private constructor(
    private readonly dir: string,
    private seq: number,
    private handle: FileHandle,
  ) {
    this.appendSeq = seq;
  }

  /** Opens journal `seq` in `dir` for appending, creating it when absent. */
  static async open(dir: string, seq: number): Promise<Journal> {
    const handle = await open(journalPath(dir, seq), 'a');
    await syncDirectory(dir);
    return new Journal(dir, seq, handle);
  }

  /** The error that failed the journal, if one did. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** The number of the file records appended now go to (a rotation counts once queued, before it is done). */
  get currentSeq(): number {
    return this.appendSeq;
  }

  /** Bytes appended since the journal was opened or last rotated. */
  get bytesSinceRotation(): number {
    return this.written;
  }

  /** Queues one record; it is written with the next batch. */
  append(payload: Buffer): void {
    const record = frame(payload);
    this.queue.push(record);
    this.appended++;
    this.written += record.length;
    this.startWriting();
  }

  /**
   * Makes the records appended from now on go to journal `seq`; the ones
   * before are written and synced to the current file first. Returns at once.
   */
  rotate(seq: number): void {
    this.queue.push({ seq });
    this.appendSeq = seq;
    this.written = 0;
    this.startWriting();
  }

  /** Resolves when every record appended so far is durable; rejects when the journal failed. */
  sync(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.durable >= this.appended && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo: this.appended, resolve, reject });
      this.startWriting();
    });
  }

  /** Writes what is queued and closes the file. */
  async close(): Promise<void> {
    await this.sync().catch(() => undefined);
    await this.loop;
    await this.handle.close();
  }

  private startWriting(): void {
    if (this.writing || this.failure !== undefined) return;
    this.writing = true;
    this.loop = this.writeLoop();
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        let records: Buffer[] = [];
        for (const item of batch) {
          if (Buffer.isBuffer(item)) {
            records.push(item);
            continue;
          }
          await this.writeAndSync(records);
          records = [];
          await this.handle.close();
          this.handle = await open(journalPath(this.dir, item.seq), 'a');
          this.seq = item.seq;
          await syncDirectory(this.dir);
        }
        await this.writeAndSync(records);
        this.release();
      }
    } catch (err) {
      this.fail(err as Error);
    } finally {
      // Synchronously after the last check of the queue: an append from now on starts a new loop.
      this.writing = false;
    }
  }

  private async writeAndSync(records: Buffer[]): Promise<void> {
    if (records.length === 0) return;
    const data = records.length === 1 ? records[0] : Buffer.concat(records);
    await writeFully(this.handle, data);
    await this.handle.datasync();
    this.durable += records.length;
  }

  private release(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.upTo <= this.durable) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  private fail(err: Error): void {
    this.failure = err;
    this.queue = [];
    for (const waiter of this.waiters.splice(0)) waiter.reject(err);
  }
}
