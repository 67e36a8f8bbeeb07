import type { RedisClient } from '../connection';
import type { IndexLayout } from '../keys';
import { buildBatchScript, DEFINE_INDEXES_SCRIPT, FINISH_BUILD_SCRIPT } from './index-scripts';
import { listScript } from './list-script';
import { deleteScript, writeScript } from './write-scripts';

/** One argument of a script call. */
export type ScriptArg = string | number | Buffer;

/**
 * The storage's Lua scripts as ioredis commands. Each takes the number of
 * keys first, then the keys, then the arguments (see each script's doc for
 * its layout). ioredis sends EVALSHA and falls back to EVAL when Redis lost
 * its script cache (e.g. after a restart).
 */
export interface ScriptCommands {
  svcWrite(numKeys: number, ...args: ScriptArg[]): Promise<unknown>;
  svcDelete(numKeys: number, ...args: ScriptArg[]): Promise<unknown>;
  svcList(numKeys: number, ...args: ScriptArg[]): Promise<unknown>;
  svcDefineIndexes(numKeys: number, ...args: ScriptArg[]): Promise<unknown>;
  svcBuildBatch(numKeys: number, ...args: ScriptArg[]): Promise<unknown>;
  svcFinishBuild(numKeys: number, ...args: ScriptArg[]): Promise<unknown>;
}

/** A client with the storage's scripts defined on it. */
export type ScriptedRedis = RedisClient & ScriptCommands;

/** The scripts of a store whose index sets are in `layout` (ADR 0025). */
const sources = (layout: IndexLayout): Record<keyof ScriptCommands, string> => ({
  svcWrite: writeScript(layout),
  svcDelete: deleteScript(layout),
  svcList: listScript(layout),
  svcDefineIndexes: DEFINE_INDEXES_SCRIPT,
  svcBuildBatch: buildBatchScript(layout),
  svcFinishBuild: FINISH_BUILD_SCRIPT,
});

/** Defines every script of `layout` on `client` (with a variable number of keys) and returns it typed. */
export function defineScripts(client: RedisClient, layout: IndexLayout): ScriptedRedis {
  for (const [name, lua] of Object.entries(sources(layout))) client.defineCommand(name, { lua });
  return client as ScriptedRedis;
}
