-- Records a type's index list. An index not yet recorded is 'ready' when it is always maintained (a default index)
-- or the type holds no object, else 'building'. An index whose layout is not the one asked is emptied and built
-- again in the new layout ('building' unless the type is empty). Layouts (recorded in the layouts hash): plain and
-- non-ordered (nothing recorded), 'ordered' (ADR 0017), 'bucketed', 'bucketed ordered' (ADR 0025); ADR 0010's
-- 'ready' and 'filling' are plain non-ordered members with per-value sets beside them, which go. Dropped indexes
-- lose their state, their layout and their set, in either layout.
--
-- KEYS: objects, index states, layouts, then the sets of the indexes of "add", then those of the dropped indexes,
-- as the asked layout names them. (Writes before any defineType use the default indexes.)
-- ARGV[1]: JSON {"add": [[name, always maintained (1 | 0), ordered (1 | 0)], ...], "drop": [name, ...],
-- "layout": "plain" | "bucketed", "prefix": the ADR 0010 value set key prefix, "plain": the key prefix of plain
-- sets, "bucketed": that of bucketed sets}.
-- Returns the number of objects, then the state of each index of "add", in order.
-- Runs after helpers.lua with the bucketed layout's set functions, whatever the store's layout (see index.ts).

local spec = cjson.decode(ARGV[1])
local count = redis.call('HLEN', KEYS[1])
local empty = count == 0
-- Deletes the per-value sets of ADR 0010 of an index (a plain sorted set), one per distinct value: jumps
-- from each value past its members.
local function delete_value_sets(key, name)
  local min = '-'
  while true do
    local first = redis.call('ZRANGEBYLEX', key, min, '+', 'LIMIT', 0, 1)[1]
    if first == nil then break end
    local value = string.sub(first, 1, string.find(first, NUL, 1, true) - 1)
    redis.call('DEL', spec.prefix .. name .. NUL .. value)
    min = '(' .. value .. SOH
  end
end
-- The layout an index is asked to be in, as recorded (false: plain and not ordered).
local function wanted_layout(ordered)
  local layout = ''
  if spec.layout == 'bucketed' then layout = 'bucketed' end
  if ordered then layout = layout .. (layout == '' and '' or ' ') .. 'ordered' end
  if layout == '' then return false end
  return layout
end
-- Deletes an index's set, in both layouts (this script has the bucketed layout's functions).
local function clear(name)
  redis.call('DEL', spec.plain .. name)
  set_drop(spec.bucketed .. name)
end
-- The recorded layout of an index (false: plain, not ordered), after deleting ADR 0010's per-value sets.
local function recorded_layout(name)
  local layout = redis.call('HGET', KEYS[3], name)
  if layout == 'ready' or layout == 'filling' then
    delete_value_sets(spec.plain .. name, name)
    redis.call('HDEL', KEYS[3], name)
    return false
  end
  return layout
end
-- Brings an index's layout to what is asked; true when its members had to go (it must be built again).
local function relayout(name, ordered)
  local layout, wanted = recorded_layout(name), wanted_layout(ordered)
  if layout == wanted then return false end
  clear(name)
  if wanted then redis.call('HSET', KEYS[3], name, wanted) else redis.call('HDEL', KEYS[3], name) end
  return true
end
local states = {count}
for _, index in ipairs(spec.add) do
  local state = redis.call('HGET', KEYS[2], index[1])
  local rebuild = relayout(index[1], index[3] == 1)
  if rebuild and not empty then
    state = 'building'
    redis.call('HSET', KEYS[2], index[1], state)
  elseif not state then
    if empty or index[2] == 1 then state = 'ready' else state = 'building' end
    redis.call('HSET', KEYS[2], index[1], state)
  end
  states[#states + 1] = state
end
for _, name in ipairs(spec.drop) do
  recorded_layout(name)
  clear(name)
  redis.call('HDEL', KEYS[3], name)
  redis.call('HDEL', KEYS[2], name)
end
return states
