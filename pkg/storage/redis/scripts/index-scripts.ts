import { LUA_HELPERS } from './lua-helpers';

/**
 * Records a type's index list. An index not yet recorded is `ready` when it
 * is always maintained (a default index) or the type holds no object, else
 * `building`. The value sets of an index that has them are `ready` when the
 * type holds no object, else `filling` until a build or fill marks them
 * `ready`; an index that no longer has them (`IndexSpec.valueSets` turned off)
 * loses them and their state. Dropped indexes lose their state, their sorted
 * set and their value sets.
 *
 * KEYS: objects, index states, value set states, then the sorted sets of the
 * dropped indexes, then those of the indexes in `unset`.
 * ARGV[1]: JSON `{"add": [[name, always maintained (1 | 0), value sets (1 | 0)], ...],
 * "drop": [name, ...], "unset": [name, ...], "prefix": value set key prefix}`; `unset` names the
 * indexes of `add` without value sets that have a value set state.
 * Returns the number of objects, then for each index of `add`, in order, its
 * state and the state of its value sets (`ready`, `filling` or `''`).
 */
export const DEFINE_INDEXES_SCRIPT = `${LUA_HELPERS}
local spec = cjson.decode(ARGV[1])
-- Deletes the value sets of an index, one per distinct value: jumps from each value past its members.
local function delete_value_sets(key, name)
  local min = '-'
  while true do
    local first = redis.call('ZRANGEBYLEX', key, min, '+', 'LIMIT', 0, 1)[1]
    if first == nil then break end
    local value = string.sub(first, 1, string.find(first, NUL, 1, true) - 1)
    redis.call('DEL', spec.prefix .. name .. NUL .. value)
    min = '(' .. value .. NUL .. HIGH
  end
  redis.call('HDEL', KEYS[3], name)
end
local count = redis.call('HLEN', KEYS[1])
local empty = count == 0
for i, name in ipairs(spec.unset) do delete_value_sets(KEYS[3 + #spec.drop + i], name) end
local states = {count}
for _, index in ipairs(spec.add) do
  local state = redis.call('HGET', KEYS[2], index[1])
  if not state then
    if empty or index[2] == 1 then state = 'ready' else state = 'building' end
    redis.call('HSET', KEYS[2], index[1], state)
  end
  local sets = redis.call('HGET', KEYS[3], index[1])
  if index[3] == 1 and not sets then
    if empty and state == 'ready' then sets = 'ready' else sets = 'filling' end
    redis.call('HSET', KEYS[3], index[1], sets)
  end
  states[#states + 1] = state
  states[#states + 1] = sets or ''
end
for i, name in ipairs(spec.drop) do
  delete_value_sets(KEYS[3 + i], name)
  redis.call('HDEL', KEYS[2], name)
  redis.call('DEL', KEYS[3 + i])
end
return states
`;

/**
 * Enters a batch of objects into an index being built (and into its value
 * sets). An object is only touched if its revision is still the one its
 * values were computed from: one written since was indexed by that write, one
 * deleted needs nothing.
 *
 * KEYS: index values, the index's sorted set.
 * ARGV: index name, value sets (`1` | `0`), the value set key prefix, then for
 * each object: name, revision read, values as JSON.
 * Returns how many objects it entered.
 */
export const BUILD_BATCH_SCRIPT = `${LUA_HELPERS}
local index, with_sets, prefix = ARGV[1], ARGV[2] == '1', ARGV[3]
local entered = 0
for at = 4, #ARGV, 3 do
  local name, rev = ARGV[at], ARGV[at + 1]
  local stored = redis.call('HGET', KEYS[1], name)
  if stored then
    local current, json = split_stored(stored)
    if current == rev then
      local all = cjson.decode(json)
      local values = cjson.decode(ARGV[at + 2])
      apply_entries(KEYS[2], name, entries_of(all, index), entries_of({[index] = values}, index), true)
      if with_sets then
        local member = order_member(created_of(all), name)
        apply_value_sets(prefix, index, values_in(all, index), values, member, member, true)
      end
      all[index] = values
      redis.call('HSET', KEYS[1], name, rev .. NL .. cjson.encode(all))
      entered = entered + 1
    end
  end
end
return entered
`;

/**
 * Marks an index built, and its value sets when it has them, unless it was dropped meanwhile.
 * KEYS: index states, value set states. ARGV: index name, value sets (`1` | `0`). Returns 1 when marked.
 */
export const FINISH_BUILD_SCRIPT = `
if redis.call('HGET', KEYS[1], ARGV[1]) == 'building' then
  redis.call('HSET', KEYS[1], ARGV[1], 'ready')
  if ARGV[2] == '1' then redis.call('HSET', KEYS[2], ARGV[1], 'ready') end
  return 1
end
return 0
`;

/**
 * Enters a batch of objects into the value sets of a built index, from the
 * values stored for them (for an index that existed before value sets did).
 * Names no longer stored are skipped; objects written meanwhile are in them already.
 *
 * KEYS: index values. ARGV: index name, value set key prefix, then names.
 * Returns how many objects it entered.
 */
export const FILL_VALUE_SETS_SCRIPT = `${LUA_HELPERS}
local index, prefix = ARGV[1], ARGV[2]
local entered = 0
for at = 3, #ARGV do
  local stored = redis.call('HGET', KEYS[1], ARGV[at])
  if stored then
    local _, json = split_stored(stored)
    local all = cjson.decode(json)
    local member = order_member(created_of(all), ARGV[at])
    apply_value_sets(prefix, index, {}, values_in(all, index), member, member, true)
    entered = entered + 1
  end
end
return entered
`;

/**
 * Marks the value sets of a built index filled, unless the index was dropped meanwhile.
 * KEYS: index states, value set states. ARGV: index name. Returns 1 when marked.
 */
export const FINISH_VALUE_SETS_SCRIPT = `
if redis.call('HGET', KEYS[1], ARGV[1]) == 'ready' then
  redis.call('HSET', KEYS[2], ARGV[1], 'ready')
  return 1
end
return 0
`;
