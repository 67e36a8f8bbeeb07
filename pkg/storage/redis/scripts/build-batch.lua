-- Enters a batch of objects into an index being built. An object is only touched if its revision is still the one
-- its values were computed from: one written since was indexed by that write, one deleted needs nothing.
--
-- KEYS: index values, the index's set.
-- ARGV: index name, ordered ('1' | '0'), sparse ('1' | '0': no member for an object without a value), then for
-- each object: name, revision read, values as JSON.
-- Returns how many objects it entered.
-- Runs after helpers.lua (see index.ts).

local index, ordered, sparse = ARGV[1], ARGV[2] == '1', ARGV[3] == '1'
COUNTED[KEYS[2]] = ordered
local entered = 0
for at = 4, #ARGV, 3 do
  local name, rev = ARGV[at], ARGV[at + 1]
  local stored = redis.call('HGET', KEYS[1], name)
  if stored then
    local current, json = split_stored(stored)
    if current == rev then
      local all = decode_values(json, name)
      local values = cjson.decode(ARGV[at + 2])
      local tail = member_tail(ordered, all, name)
      apply_entries(KEYS[2], entries_of(all, index, sparse), entries_of({[index] = values}, index, sparse), true,
        tail, tail)
      all[index] = values
      redis.call('HSET', KEYS[1], name, rev .. NL .. encode_values(all))
      entered = entered + 1
    end
  end
end
return entered
