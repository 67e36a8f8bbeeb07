import type { ServerResponse } from 'node:http';
import Redis from 'ioredis';

/** Entries one XREAD returns at most. */
const READ_COUNT = 1_000;
/** How long one XREAD blocks before the loop reads again. */
const BLOCK_MS = 5_000;

/**
 * The least a Node server must do to fan a type's change stream out to HTTP
 * watchers: one blocking XREAD loop on its own connection, each entry turned
 * into its wire line (`{"type":…,"object":<stored JSON>}\n`) once, as one
 * Buffer, written to every watcher's chunked response. No resume, no
 * selectors, no backpressure: a floor to compare the apiserver's watch with.
 * The loop runs while there are watchers and starts at the revision current
 * when the first one arrives.
 */
export class BaselineFanout {
  private readonly watchers = new Set<ServerResponse>();
  /** The running loop, resolved with once it knows where to start reading. */
  private loop: Promise<void> | undefined;

  constructor(
    private readonly redisUrl: string,
    private readonly streamKey: string,
    private readonly revisionKey: string,
  ) {}

  /**
   * Starts streaming to `res` (200, chunked) until the client goes away. The
   * headers go out once the loop knows its start revision, so a client that
   * has them misses no later write.
   */
  async add(res: ServerResponse): Promise<void> {
    this.watchers.add(res);
    res.on('close', () => this.watchers.delete(res));
    this.loop ??= new Promise<void>((started) => {
      void this.read(started).finally(() => {
        this.loop = undefined;
      });
    });
    await this.loop;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
  }

  /** Ends every watcher. */
  close(): void {
    for (const res of this.watchers) res.end();
    this.watchers.clear();
  }

  private async read(started: () => void): Promise<void> {
    const connection = new Redis(this.redisUrl, { maxRetriesPerRequest: 0 });
    try {
      let position = (await connection.get(this.revisionKey)) ?? '0';
      started();
      while (this.watchers.size > 0) {
        const reply = await connection.xread(
          'COUNT',
          READ_COUNT,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          this.streamKey,
          `${position}-0`,
        );
        for (const [id, fields] of reply?.[0]?.[1] ?? []) {
          position = id.slice(0, id.indexOf('-'));
          const line = Buffer.from(`{"type":"${field(fields, 't')}","object":${field(fields, 'o')}}\n`);
          for (const res of this.watchers) if (res.headersSent) res.write(line);
        }
      }
    } finally {
      started();
      connection.disconnect();
    }
  }
}

/** The value of a stream entry's field. */
function field(fields: string[], name: string): string {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return '';
}
