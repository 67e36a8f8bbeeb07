import { unavailable } from '../errors';
import { redisCall, translateError, type WriteAck } from './connection';
import type { ScriptArg, ScriptCommands, ScriptedRedis } from './scripts';

/** A write script: the create/update script or the delete script. */
export type WriteScript = 'svcWrite' | 'svcDelete';

/**
 * Runs the write scripts and answers once the write is acknowledged as the
 * store's `ack` asks (ADR 0034). With `primary` a script runs on the command
 * connection. With `replica` or `aof` it runs on one of a few connections of
 * its own, pipelined with `WAIT 1 <timeout>` (or `WAITAOF 1 0 <timeout>`):
 * WAIT blocks the connection that sends it, so the command connection (and the
 * reads on it) must not be the one waiting, and several connections let
 * several writes wait at once. Pipelined, WAIT goes to the node the script
 * ran on, in a Cluster too (it names no key), and covers that write.
 *
 * A write the script refused (a conflict) or only checked (a dry run) wrote
 * nothing and is answered as is. A written one that no replica acknowledged
 * in time is Unavailable with its outcome unknown: it may or may not survive
 * a failover.
 */
export class AcknowledgedWrites {
  private next = 0;

  constructor(
    private readonly ack: WriteAck,
    private readonly timeoutMs: number,
    /** The command connection (`primary`), or the connections that wait. */
    private readonly connections: readonly ScriptedRedis[],
  ) {}

  /** Runs `script` with `args` (keys count first) and returns its reply once acknowledged. */
  async run(what: string, script: WriteScript, args: [number, ...ScriptArg[]]): Promise<string[]> {
    const connection = this.connections[this.next++ % this.connections.length];
    if (this.ack === 'primary') {
      return (await redisCall(what, () => (connection[script] as ScriptCommands[WriteScript])(...args))) as string[];
    }
    const pipeline = connection.pipeline() as unknown as Record<WriteScript, (...a: ScriptArg[]) => unknown>;
    pipeline[script](...args);
    const wait = this.ack === 'replica' ? ['WAIT', 1, this.timeoutMs] : ['WAITAOF', 1, 0, this.timeoutMs];
    const chain = pipeline as unknown as ReturnType<ScriptedRedis['pipeline']>;
    chain.call(...(wait as [string, ...number[]]));
    const results = await redisCall(what, () => chain.exec());
    const [[scriptError, reply], [waitError, acked]] = results ?? [[new Error('the pipeline was discarded'), null], []];
    if (scriptError) throw translateError(scriptError, what);
    const written = reply as string[];
    if (written[0] !== 'OK') return written;
    if (waitError || !this.acknowledged(acked)) {
      const why = waitError ? `the acknowledgement failed (${waitError.message})` : this.missing();
      throw unavailable(`${what}: written on the primary, but ${why}; the outcome of the write is unknown`);
    }
    return written;
  }

  /** Closes the connections of their own (not the command connection, which the storage closes). */
  close(): void {
    if (this.ack === 'primary') return;
    for (const connection of this.connections) connection.disconnect();
  }

  private acknowledged(reply: unknown): boolean {
    // WAIT answers the replicas that have the write; WAITAOF [local fsyncs, replica fsyncs].
    if (this.ack === 'replica') return Number(reply) >= 1;
    return Array.isArray(reply) && Number(reply[0]) >= 1;
  }

  private missing(): string {
    const seconds = Math.round(this.timeoutMs / 100) / 10;
    return this.ack === 'replica'
      ? `no replica acknowledged it within ${seconds} s`
      : `the append-only file did not have it within ${seconds} s`;
  }
}

/**
 * Refuses `ack=aof` on a Redis older than 7.2, which has no WAITAOF (Redis
 * would answer every write with an unknown command, after having written it),
 * or without its append-only file. `serverInfo`: `INFO server persistence`.
 */
export function checkAckSupported(ack: WriteAck, serverInfo: string): void {
  if (ack !== 'aof') return;
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(serverInfo);
  const [major, minor] = version ? [Number(version[1]), Number(version[2])] : [0, 0];
  if (major < 7 || (major === 7 && minor < 2)) {
    const found = version ? `${major}.${minor}` : 'an unknown version';
    throw new Error(
      `ack=aof needs Redis 7.2 or later (WAITAOF), and this Redis is ${found}; use ack=replica or ack=primary`,
    );
  }
  if (!/^aof_enabled:1/m.test(serverInfo)) {
    throw new Error('ack=aof needs the append-only file on the primary (appendonly yes); it is off');
  }
}
