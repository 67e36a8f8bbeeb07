import { CREATION_INDEX } from '../../indexes';

/**
 * Lua shared by the scripts: the layout of index members and stored index
 * values (see ../keys.ts). Written without backslash escapes so that it can
 * live in TypeScript template strings unchanged.
 */
export const LUA_HELPERS = `
local NUL, HIGH, NL = string.char(0), string.char(255), string.char(10)

-- The name in an index member "<value>NUL<name>" (values and names never hold NUL).
local function member_name(member)
  return string.sub(member, string.find(member, NUL, 1, true) + 1)
end

-- A stored "<revision>NL<index values JSON>" as its two parts.
local function split_stored(stored)
  local at = string.find(stored, NL, 1, true)
  return string.sub(stored, 1, at - 1), string.sub(stored, at + 1)
end

-- The values an object is entered under in one index: its values; HIGH (the
-- "no value" sentinel) when it has none; nothing when the index was never
-- built for it (no entry for the index at all) or there is no object.
local function entries_of(values_by_index, index)
  if values_by_index == nil then return {} end
  local values = values_by_index[index]
  if values == nil then return {} end
  if #values == 0 then return {HIGH} end
  return values
end

-- Moves an object's members in one index sorted set from the old entries to the new. With "all",
-- every new member is added, not only the changed ones: while an index is not ready, the old entries
-- may be stale (an index dropped and declared again), and adding a member that is there already
-- changes nothing.
local function apply_entries(key, name, old, new, all)
  local has, had = {}, {}
  for _, v in ipairs(new) do has[v] = true end
  for _, v in ipairs(old) do
    had[v] = true
    if not has[v] then redis.call('ZREM', key, v .. NUL .. name) end
  end
  local members = {}
  for v in pairs(has) do
    if all or not had[v] then
      members[#members + 1] = 0
      members[#members + 1] = v .. NUL .. name
    end
  end
  if #members > 0 then redis.call('ZADD', key, unpack(members)) end
end

-- An object's creation timestamp in its stored index values, or nil.
local function created_of(values_by_index)
  if values_by_index == nil then return nil end
  local values = values_by_index['${CREATION_INDEX}']
  if values == nil then return nil end
  return values[1]
end

-- An object's member in a value set: members sort byte-wise in the default list order, creation
-- timestamp descending, then name ascending. That is each byte of the timestamp complemented (a value
-- holds no NUL, so no complemented byte is HIGH), HIGH (which sorts after every complemented byte, so a
-- longer timestamp comes first, as it does descending), then the name. Without a timestamp: HIGH HIGH,
-- then the name (last; a name holds no HIGH, never a byte of UTF-8).
local function order_member(created, name)
  if created == nil then return HIGH .. HIGH .. name end
  local bytes = {string.byte(created, 1, -1)}
  for i, b in ipairs(bytes) do bytes[i] = 255 - b end
  return string.char(unpack(bytes)) .. HIGH .. name
end

-- The name in a value set member.
local function order_member_name(member)
  local at = string.find(member, HIGH, 1, true)
  if string.byte(member, at + 1) == 255 then return string.sub(member, at + 2) end
  return string.sub(member, at + 1)
end

-- Moves an object's members in the value sets of one index (keys "<prefix><index>NUL<value>") from its
-- old values and member (see order_member) to the new ones; "all" as for apply_entries.
local function apply_value_sets(prefix, index, old, new, old_member, new_member, all)
  local moved = old_member ~= new_member
  local has, had = {}, {}
  for _, v in ipairs(new) do has[v] = true end
  for _, v in ipairs(old) do
    had[v] = true
    if moved or not has[v] then redis.call('ZREM', prefix .. index .. NUL .. v, old_member) end
  end
  for v in pairs(has) do
    if all or moved or not had[v] then redis.call('ZADD', prefix .. index .. NUL .. v, 0, new_member) end
  end
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

-- The lexicographic range of the members holding exactly one value.
local function value_range(value)
  return '[' .. value .. NUL, '[' .. value .. NUL .. HIGH
end
`;
