-- The index set functions in the plain layout (the default): one sorted set per index, every score 0, and each
-- function the sorted set command it stands for (see index-sets-bucketed.lua for the other layout).

local COUNTED = {}
local function set_add(dir, member) return redis.call('ZADD', dir, 0, member) end
local function set_rem(dir, member) return redis.call('ZREM', dir, member) end
local function set_has(dir, member) return redis.call('ZSCORE', dir, member) ~= false end
local function set_range(dir, min, max, offset, count, desc)
  if desc then return redis.call('ZREVRANGEBYLEX', dir, max, min, 'LIMIT', offset, count) end
  return redis.call('ZRANGEBYLEX', dir, min, max, 'LIMIT', offset, count)
end
local function set_count(dir, min, max) return redis.call('ZLEXCOUNT', dir, min, max) end
local function set_drop(dir) return redis.call('DEL', dir) end
