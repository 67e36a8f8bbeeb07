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

-- Moves an object's members in one index sorted set from the old entries to the new.
-- Every new member is added, not only the changed ones: the old entries of an
-- index that was dropped and declared again are stale, and adding a member
-- that is there already changes nothing.
local function apply_entries(key, name, old, new)
  local has = {}
  for _, v in ipairs(new) do has[v] = true end
  for _, v in ipairs(old) do
    if not has[v] then redis.call('ZREM', key, v .. NUL .. name) end
  end
  local members = {}
  for v in pairs(has) do
    members[#members + 1] = 0
    members[#members + 1] = v .. NUL .. name
  end
  if #members > 0 then redis.call('ZADD', key, unpack(members)) end
end

-- The lexicographic range of the members holding exactly one value.
local function value_range(value)
  return '[' .. value .. NUL, '[' .. value .. NUL .. HIGH
end
`;
