import { LUA_HELPERS } from './lua-helpers';

/**
 * Records a type's index list. An index not yet recorded is `ready` when it
 * is always maintained (a default index) or the type holds no object, else
 * `building`. Dropped indexes lose their state and sorted set.
 *
 * KEYS: objects, index states, then the sorted sets of the dropped indexes.
 * ARGV[1]: JSON `{"add": [[name, always maintained (1 | 0)], ...], "drop": [name, ...]}`.
 * Returns the number of objects, then the state of each index of `add`, in order.
 */
export const DEFINE_INDEXES_SCRIPT = `
local spec = cjson.decode(ARGV[1])
local count = redis.call('HLEN', KEYS[1])
local empty = count == 0
local states = {count}
for _, index in ipairs(spec.add) do
  local state = redis.call('HGET', KEYS[2], index[1])
  if not state then
    if empty or index[2] == 1 then state = 'ready' else state = 'building' end
    redis.call('HSET', KEYS[2], index[1], state)
  end
  states[#states + 1] = state
end
for i, name in ipairs(spec.drop) do
  redis.call('HDEL', KEYS[2], name)
  redis.call('DEL', KEYS[2 + i])
end
return states
`;

/**
 * Enters a batch of objects into an index being built. An object is only
 * touched if its revision is still the one its values were computed from: one
 * written since was indexed by that write, one deleted needs nothing.
 *
 * KEYS: index values, the index's sorted set.
 * ARGV: index name, then for each object: name, revision read, values as JSON.
 * Returns how many objects it entered.
 */
export const BUILD_BATCH_SCRIPT = `${LUA_HELPERS}
local index = ARGV[1]
local entered = 0
for at = 2, #ARGV, 3 do
  local name, rev = ARGV[at], ARGV[at + 1]
  local stored = redis.call('HGET', KEYS[1], name)
  if stored then
    local current, json = split_stored(stored)
    if current == rev then
      local all = cjson.decode(json)
      local values = cjson.decode(ARGV[at + 2])
      apply_entries(KEYS[2], name, entries_of(all, index), entries_of({[index] = values}, index))
      all[index] = values
      redis.call('HSET', KEYS[1], name, rev .. NL .. cjson.encode(all))
      entered = entered + 1
    end
  end
end
return entered
`;

/**
 * Marks an index built, unless it was dropped meanwhile.
 * KEYS: index states. ARGV: index name. Returns 1 when marked.
 */
export const FINISH_BUILD_SCRIPT = `
if redis.call('HGET', KEYS[1], ARGV[1]) == 'building' then
  redis.call('HSET', KEYS[1], ARGV[1], 'ready')
  return 1
end
return 0
`;
