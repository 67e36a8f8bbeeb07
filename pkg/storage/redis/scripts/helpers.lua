-- Lua shared by the scripts: the layout of index members and stored index values (see ../keys.ts) and how an
-- object's entries move between index sets. Needs the separator bytes (bytes.lua), the default indexes' names
-- (NAME_INDEX, LABELS_INDEX, CREATION_INDEX, DELETION_INDEX, defined by the loader from ../../indexes.ts) and the
-- index set functions of the store's layout (index-sets-plain.lua or index-sets-bucketed.lua), loaded before it.

-- Raises the type's revision counter to floor (a decimal string, or nil or '' for none) when it is below.
local function raise_revision(revkey, floor)
  local at_least = tonumber(floor)
  if at_least and at_least > tonumber(redis.call('GET', revkey) or '0') then
    redis.call('SET', revkey, string.format('%d', at_least))
  end
end

-- The name in an index member: "<value>NUL<name>", or "<value>NUL<order member>" in an ordered index
-- (see order_member). Values and names hold neither NUL nor HIGH.
local function member_name(member)
  local from = string.find(member, NUL, 1, true) + 1
  local at = string.find(member, HIGH, from, true)
  if at == nil then return string.sub(member, from) end
  if string.byte(member, at + 1) == 255 then return string.sub(member, at + 2) end
  return string.sub(member, at + 1)
end

-- Stored index values (storedIndexValues in ../object-codec.ts): the default indexes under short keys, the name
-- index not at all (its one value is the name). Older values spell every index out; both decode the same.
local STORED_KEYS = {['~l'] = LABELS_INDEX, ['~c'] = CREATION_INDEX, ['~d'] = DELETION_INDEX}
local SHORT_KEYS = {[LABELS_INDEX] = '~l', [CREATION_INDEX] = '~c', [DELETION_INDEX] = '~d'}

-- The index values of the object "name" from their stored JSON, by index name.
local function decode_values(json, name)
  local values = cjson.decode(json)
  for key, index in pairs(STORED_KEYS) do
    if values[key] ~= nil then
      values[index] = values[key]
      values[key] = nil
    end
  end
  values[NAME_INDEX] = {name}
  return values
end

-- Index values by index name as they are stored.
local function encode_values(values)
  local stored = {}
  for index, list in pairs(values) do
    if index ~= NAME_INDEX then stored[SHORT_KEYS[index] or index] = list end
  end
  return cjson.encode(stored)
end

-- A stored "<revision>NL<index values JSON>" as its two parts.
local function split_stored(stored)
  local at = string.find(stored, NL, 1, true)
  return string.sub(stored, 1, at - 1), string.sub(stored, at + 1)
end

-- The values an object is entered under in one index: its values; HIGH (the
-- "no value" sentinel) when it has none, unless the index is sparse (a pair
-- index, never walked for objects without a value); nothing when the index
-- was never built for it (no entry for the index at all) or there is no object.
local function entries_of(values_by_index, index, sparse)
  if values_by_index == nil then return {} end
  local values = values_by_index[index]
  if values == nil then return {} end
  if #values == 0 and not sparse then return {HIGH} end
  return values
end

-- Moves an object's members in one index (a bucketed set) from the old entries to the new: members are
-- "<value>NUL<tail>", the tail being the name, or the object's order member in an ordered index (a tail
-- that changed moves every member). With "all", every new member is added, not only the changed ones:
-- while an index is not ready, the old entries may be stale (an index dropped and declared again), and
-- adding a member that is there already changes nothing.
local function apply_entries(key, old, new, all, old_tail, new_tail)
  local moved = old_tail ~= new_tail
  local has, had = {}, {}
  for _, v in ipairs(new) do has[v] = true end
  for _, v in ipairs(old) do
    had[v] = true
    if moved or not has[v] then set_rem(key, v .. NUL .. old_tail) end
  end
  for v in pairs(has) do
    if all or moved or not had[v] then set_add(key, v .. NUL .. new_tail) end
  end
end

-- An object's creation timestamp in its stored index values, or nil.
local function created_of(values_by_index)
  if values_by_index == nil then return nil end
  local values = values_by_index[CREATION_INDEX]
  if values == nil then return nil end
  return values[1]
end

-- An object's order member: strings that sort byte-wise in the default list order, creation timestamp
-- descending, then name ascending. That is each byte of the timestamp complemented (a value holds no
-- NUL, so no complemented byte is HIGH), HIGH (which sorts after every complemented byte, so a longer
-- timestamp comes first, as it does descending), then the name. Without a timestamp: HIGH HIGH, then the
-- name (last; a name holds no HIGH, never a byte of UTF-8). An ordered index's members end with it
-- (ADR 0017), so that the objects of one value are a range in the default order. Writes get it from the
-- client (orderMember in ../keys.ts, the same bytes) and compute it only for an old timestamp.
local function order_member(created, name)
  if created == nil then return HIGH .. HIGH .. name end
  local bytes = {string.byte(created, 1, -1)}
  for i, b in ipairs(bytes) do bytes[i] = 255 - b end
  return string.char(unpack(bytes)) .. HIGH .. name
end

-- The tail of an object's members in an index: its order member in an ordered index, else its name.
local function member_tail(ordered, values_by_index, name)
  if ordered then return order_member(created_of(values_by_index), name) end
  return name
end

-- Whether each index of a type is ready, from its index states hash: only then are the index values
-- stored for an object exactly its entries.
local function ready_indexes(states_key)
  local fields = redis.call('HGETALL', states_key)
  local ready = {}
  for i = 1, #fields, 2 do ready[fields[i]] = fields[i + 1] == 'ready' end
  return ready
end

-- The values of one index in stored index values (none when absent).
local function values_in(values_by_index, index)
  if values_by_index == nil then return {} end
  return values_by_index[index] or {}
end

-- The lexicographic range of the members holding exactly one value: "<value>NUL..." and nothing else
-- (a value holds no NUL, so every other member is below "<value>NUL" or from "<value>SOH" on).
local function value_range(value)
  return '[' .. value .. NUL, '(' .. value .. SOH
end
