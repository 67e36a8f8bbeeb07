import type { RedisClient } from '../connection';
import type { IndexLayout } from '../keys';
import { scriptSources, type ScriptName } from './sources';

/** One argument of a script call. */
export type ScriptArg = string | number | Buffer;

/**
 * The storage's Lua scripts (the `.lua` files of this folder) as ioredis
 * commands. Each takes the number of keys first, then the keys, then the
 * arguments (see each script's header for its layout). ioredis sends EVALSHA
 * and falls back to EVAL when Redis lost its script cache (e.g. after a
 * restart).
 */
export type ScriptCommands = Record<ScriptName, (numKeys: number, ...args: ScriptArg[]) => Promise<unknown>>;

/** A client with the storage's scripts defined on it. */
export type ScriptedRedis = RedisClient & ScriptCommands;

/** Defines every script of `layout` on `client` (with a variable number of keys) and returns it typed. */
export function defineScripts(client: RedisClient, layout: IndexLayout): ScriptedRedis {
  for (const [name, lua] of Object.entries(scriptSources(layout))) client.defineCommand(name, { lua });
  return client as ScriptedRedis;
}
