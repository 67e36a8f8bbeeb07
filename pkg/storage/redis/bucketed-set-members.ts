import type Redis from 'ioredis';

/**
 * Lua: every member of each bucketed set (ADR 0025) named in KEYS by its
 * directory key, in order, one array per set; with ARGV[1] = `memory`, the
 * bytes the set takes instead (`MEMORY USAGE` of its directory, its buckets
 * and its counts per value).
 * Runs atomically, so it can stand beside other reads in a MULTI.
 */
export const SET_MEMBERS_SCRIPT = `local NUL = string.char(0)
local out = {}
for i, dir in ipairs(KEYS) do
  local members = {}
  local bytes = (redis.call('MEMORY', 'USAGE', dir) or 0) + (redis.call('MEMORY', 'USAGE', dir .. string.char(1)) or 0)
  for _, bound in ipairs(redis.call('ZRANGE', dir, 0, -1)) do
    local bucket = dir .. NUL .. bound
    if ARGV[1] == 'memory' then
      bytes = bytes + (redis.call('MEMORY', 'USAGE', bucket) or 0)
    else
      for _, m in ipairs(redis.call('ZRANGE', bucket, 0, -1)) do members[#members + 1] = m end
    end
  end
  if ARGV[1] == 'memory' then out[i] = bytes else out[i] = members end
end
return out`;

/**
 * Every member of a bucketed set, in order: for tests, benchmarks and tools
 * that look beneath the storage interface, never for serving requests (it
 * reads the whole set in one script).
 */
export async function bucketedSetMembers(client: Redis, dir: string): Promise<Buffer[]> {
  const [members] = (await client.callBuffer('EVAL', SET_MEMBERS_SCRIPT, 1, dir)) as Buffer[][];
  return members;
}

/** The bytes of Redis memory a bucketed set takes: its directory, every bucket, its counts per value. */
export async function bucketedSetMemory(client: Redis, dir: string): Promise<number> {
  const [bytes] = (await client.eval(SET_MEMBERS_SCRIPT, 1, dir, 'memory')) as number[];
  return bytes;
}
