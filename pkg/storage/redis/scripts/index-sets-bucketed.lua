-- The index set functions in the bucketed layout (ADR 0025): lexicographically ordered sets of members (every
-- score 0) kept as many small sorted sets, so that Redis keeps each as a listpack (a few bytes per member) rather
-- than as a skiplist (about 100 bytes of nodes and dict entries per member), at about twice the Redis time per
-- member written. index-sets-plain.lua defines the same functions over one sorted set per index; a store's
-- scripts carry the functions of its layout only.
--
-- - The directory, the index's own key, is a sorted set of bucket bounds. The first bound is ''; a member lives
--   in the bucket of the greatest bound not above it, so the buckets, in bound order, hold the set in order.
-- - A bucket is the sorted set "<directory key>NUL<bound>" (same hash tag).
-- - A bucket that reaches BUCKET_MAX members is split in two halves, before Redis's zset-max-listpack-entries
--   (128 by default) would turn it into a skiplist; a bucket left nearly empty by a removal is merged into the
--   one before it. The directory of a set that holds nothing is empty (no key).
-- - A set the calling script marks COUNTED (ordered indexes, whose one-value counts are list totals) also keeps
--   the number of members of each value, in the hash "<directory key>SOH", so that a count of one value's range
--   is one HGET rather than one ZCARD per bucket.
--
-- The functions answer what the sorted set commands they stand for would (ZADD, ZREM, ZSCORE as a test,
-- ZRANGEBYLEX and ZREVRANGEBYLEX with LIMIT, ZLEXCOUNT), taking the same range specifications ('-', '+', '[x',
-- '(x'). A range costs one directory lookup plus one call per bucket it reads; a count costs one ZCARD per
-- bucket wholly inside the range. Needs NUL and SOH (bytes.lua). Both layouts define COUNTED, which scripts
-- fill in either.

local BUCKET_MAX, BUCKET_HALF, BUCKET_LOW = 128, 64, 16
local BOUNDS_FIRST, BOUNDS_MAX = 2, 64
local COUNTED = {}

local function count_key(dir) return dir .. SOH end

-- The value of a member: what precedes its first NUL.
local function value_of(member) return string.sub(member, 1, string.find(member, NUL, 1, true) - 1) end

-- The value whose members a range holds exactly ("[<value>NUL" to "(<value>SOH"), or nil.
local function value_of_range(min, max)
  if string.sub(min, 1, 1) ~= '[' or string.byte(min, -1) ~= 0 then return nil end
  local value = string.sub(min, 2, -2)
  if max ~= '(' .. value .. SOH then return nil end
  return value
end

local function bucket_key(dir, bound) return dir .. NUL .. bound end

-- The bound of the bucket where a member belongs (nil when the set is empty).
local function bucket_of(dir, member)
  return redis.call('ZREVRANGEBYLEX', dir, '[' .. member, '-', 'LIMIT', 0, 1)[1]
end

-- The bound of the bucket where a range that starts at spec starts (nil when the set is empty).
local function first_bucket(dir, spec)
  if spec == '-' then return redis.call('ZRANGE', dir, 0, 0)[1] end
  if spec == '+' then return redis.call('ZRANGE', dir, -1, -1)[1] end
  return bucket_of(dir, string.sub(spec, 2))
end

-- Moves the upper half of a full bucket into a bucket of its own.
local function split(dir, key)
  local upper = redis.call('ZRANGE', key, BUCKET_HALF, -1)
  local args = {}
  for i, m in ipairs(upper) do
    args[2 * i - 1] = 0
    args[2 * i] = m
  end
  redis.call('ZADD', bucket_key(dir, upper[1]), unpack(args))
  redis.call('ZREMRANGEBYRANK', key, BUCKET_HALF, -1)
  redis.call('ZADD', dir, 0, upper[1])
end

-- Adds a member; 1 if it is new, else 0.
local function set_add(dir, member)
  local bound = bucket_of(dir, member)
  if bound == nil then
    bound = ''
    redis.call('ZADD', dir, 0, bound)
  end
  local key = bucket_key(dir, bound)
  if redis.call('ZADD', key, 0, member) == 0 then return 0 end
  if redis.call('ZCARD', key) >= BUCKET_MAX then split(dir, key) end
  if COUNTED[dir] then redis.call('HINCRBY', count_key(dir), value_of(member), 1) end
  return 1
end

-- Removes a bucket left with few members: an empty one goes (the first, '', only with the set), one with
-- fewer than BUCKET_LOW joins the bucket before it when both fit in half a bucket.
local function shrink(dir, bound, key, left)
  if left == 0 then
    if bound ~= '' or redis.call('ZCARD', dir) == 1 then redis.call('ZREM', dir, bound) end
    return
  end
  if left >= BUCKET_LOW or bound == '' then return end
  local before = redis.call('ZREVRANGEBYLEX', dir, '(' .. bound, '-', 'LIMIT', 0, 1)[1]
  local into = bucket_key(dir, before)
  if redis.call('ZCARD', into) + left > BUCKET_HALF then return end
  local args = {}
  for i, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    args[2 * i - 1] = 0
    args[2 * i] = m
  end
  redis.call('ZADD', into, unpack(args))
  redis.call('DEL', key)
  redis.call('ZREM', dir, bound)
end

-- Removes a member; 1 if it was there, else 0.
local function set_rem(dir, member)
  local bound = bucket_of(dir, member)
  if bound == nil then return 0 end
  local key = bucket_key(dir, bound)
  if redis.call('ZREM', key, member) == 0 then return 0 end
  shrink(dir, bound, key, redis.call('ZCARD', key))
  if COUNTED[dir] and redis.call('HINCRBY', count_key(dir), value_of(member), -1) <= 0 then
    redis.call('HDEL', count_key(dir), value_of(member))
  end
  return 1
end

-- Whether the set holds a member.
local function set_has(dir, member)
  local bound = bucket_of(dir, member)
  if bound == nil then return false end
  return redis.call('ZSCORE', bucket_key(dir, bound), member) ~= false
end

-- Calls visit(key, is_last) for each bucket from the one at "from" on, in order ("desc": backwards), as long as
-- the directory range "limit" allows (ascending: bounds up to the range's max; descending: down to the bucket
-- where the range's min lies); visit returns true to stop. is_last: no bucket of the range follows (each batch
-- of bounds reads one more than it visits to know). Batches start small, as most reads need a bucket or two.
local function each_bucket(dir, from, limit, desc, visit)
  local cursor, batch = '[' .. from, BOUNDS_FIRST
  while true do
    local bounds
    if desc then
      bounds = redis.call('ZREVRANGEBYLEX', dir, cursor, limit, 'LIMIT', 0, batch + 1)
    else
      bounds = redis.call('ZRANGEBYLEX', dir, cursor, limit, 'LIMIT', 0, batch + 1)
    end
    local more = #bounds > batch
    for i = 1, math.min(#bounds, batch) do
      if visit(bucket_key(dir, bounds[i]), i == #bounds) then return end
    end
    if not more then return end
    cursor = '[' .. bounds[#bounds]
    batch = math.min(batch * 2, BOUNDS_MAX)
  end
end

-- The members in a range, as ZRANGEBYLEX (ascending, min to max) or ZREVRANGEBYLEX (desc, max to min) with
-- LIMIT offset count would answer them (count < 0: all).
local function set_range(dir, min, max, offset, count, desc)
  local out = {}
  local from, limit
  if desc then
    from = first_bucket(dir, max)
    local last = first_bucket(dir, min)
    if last ~= nil then limit = '[' .. last end
  else
    from, limit = first_bucket(dir, min), max
  end
  if from == nil or limit == nil then return out end
  local command = desc and 'ZREVRANGEBYLEX' or 'ZRANGEBYLEX'
  local lo, hi = min, max
  if desc then lo, hi = max, min end
  each_bucket(dir, from, limit, desc, function(key)
    if offset > 0 then
      local here = redis.call('ZLEXCOUNT', key, min, max)
      if here <= offset then
        offset = offset - here
        return false
      end
    end
    local wanted = -1
    if count >= 0 then wanted = count - #out end
    for _, m in ipairs(redis.call(command, key, lo, hi, 'LIMIT', offset, wanted)) do out[#out + 1] = m end
    offset = 0
    return count >= 0 and #out >= count
  end)
  return out
end

-- The number of members in a range, as ZLEXCOUNT.
local function set_count(dir, min, max)
  local value = COUNTED[dir] and value_of_range(min, max)
  if value then return tonumber(redis.call('HGET', count_key(dir), value) or 0) end
  local from = first_bucket(dir, min)
  if from == nil then return 0 end
  local n, first = 0, true
  each_bucket(dir, from, max, false, function(key, is_last)
    if first or is_last then
      n = n + redis.call('ZLEXCOUNT', key, min, max)
    else
      n = n + redis.call('ZCARD', key)
    end
    first = false
    return false
  end)
  return n
end

-- Deletes the set: its buckets and its directory.
local function set_drop(dir)
  redis.call('DEL', count_key(dir))
  each_bucket(dir, '', '+', false, function(key)
    redis.call('DEL', key)
    return false
  end)
  redis.call('DEL', dir)
end
