import type Redis from 'ioredis';
import { BUILD_BATCH_SCRIPT, DEFINE_INDEXES_SCRIPT, FINISH_BUILD_SCRIPT } from './index-scripts';
import { LIST_SCRIPT } from './list-script';
import { DELETE_SCRIPT, WRITE_SCRIPT } from './write-scripts';

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
export type ScriptedRedis = Redis & ScriptCommands;

const SOURCES: Record<keyof ScriptCommands, string> = {
  svcWrite: WRITE_SCRIPT,
  svcDelete: DELETE_SCRIPT,
  svcList: LIST_SCRIPT,
  svcDefineIndexes: DEFINE_INDEXES_SCRIPT,
  svcBuildBatch: BUILD_BATCH_SCRIPT,
  svcFinishBuild: FINISH_BUILD_SCRIPT,
};

/** Defines every script on `client` (with a variable number of keys) and returns it typed. */
export function defineScripts(client: Redis): ScriptedRedis {
  for (const [name, lua] of Object.entries(SOURCES)) client.defineCommand(name, { lua });
  return client as ScriptedRedis;
}
