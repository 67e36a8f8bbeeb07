-- Create and update of one object, atomically: existence and compare-and-swap check, unique-index check, object,
-- index entries, revision, change stream.
--
-- KEYS: objects, index values, revision, stream, then the bucketed set of every index, in the order of ARGV[9],
-- then the index states.
-- ARGV: mode ('create' | 'update'), name, expected revision (update), the object's JSON before and after its
-- resourceVersion value, its index values as JSON, stream retention, dry run ('1' | '0'), the indexes as JSON
-- [[name, unique (1 | 0), ordered (1 | 0), sparse (1 | 0)], ...], the object's order member (orderMember in
-- ../keys.ts: the tail of its members in ordered indexes), then the stored form's parts before and after the
-- revision when it is not the JSON (ADR 0026: compressed; the stream still gets the JSON; '' and '' when it is),
-- then the revision floor: the highest revision of the type the caller has seen, which the counter is raised to
-- first if it is below (a failover to a replica that lagged must not hand out a revision twice).
--
-- Returns {'OK', revision}, {'DRY', current revision}, {'EXISTS'}, {'NOTFOUND'}, {'STALE'} or
-- {'UNIQUE', index, value}.
-- Runs after helpers.lua (see index.ts).

local objects, ixv, revkey, stream = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local mode, name, expected = ARGV[1], ARGV[2], ARGV[3]
local new_values = decode_values(ARGV[6], name)
local indexes = cjson.decode(ARGV[9])
for i, index in ipairs(indexes) do COUNTED[KEYS[4 + i]] = index[3] == 1 end
local old_values, old_json = nil, nil
local stored = redis.call('HGET', ixv, name)
if mode == 'create' then
  if stored then return {'EXISTS'} end
else
  if not stored then return {'NOTFOUND'} end
  local rev
  rev, old_json = split_stored(stored)
  if rev ~= expected then return {'STALE'} end
  old_values = decode_values(old_json, name)
end

for i, index in ipairs(indexes) do
  if index[2] == 1 then
    local had = {}
    for _, v in ipairs(entries_of(old_values, index[1])) do had[v] = true end
    for _, v in ipairs(new_values[index[1]] or {}) do
      if not had[v] then
        local min, max = value_range(v)
        for _, m in ipairs(set_range(KEYS[4 + i], min, max, 0, 2, false)) do
          if member_name(m) ~= name then return {'UNIQUE', index[1], v} end
        end
      end
    end
  end
end
if ARGV[8] == '1' then return {'DRY', redis.call('GET', revkey) or '0'} end

raise_revision(revkey, ARGV[13])
local rev = tostring(redis.call('INCR', revkey))
local json = ARGV[4] .. rev .. ARGV[5]
local stored = json
if ARGV[11] and ARGV[11] ~= '' then stored = ARGV[11] .. rev .. ARGV[12] end
redis.call('HSET', objects, name, stored)
redis.call('HSET', ixv, name, rev .. NL .. ARGV[6])
-- A create has no old entries, so whether an index is ready changes nothing for it.
local ready = old_values and ready_indexes(KEYS[5 + #indexes]) or {}
local new_order, old_order = ARGV[10], ARGV[10]
if old_values and created_of(old_values) ~= created_of(new_values) then
  old_order = order_member(created_of(old_values), name)
end
for i, index in ipairs(indexes) do
  local old_tail, new_tail = name, name
  if index[3] == 1 then old_tail, new_tail = old_order, new_order end
  local sparse = index[4] == 1
  apply_entries(KEYS[4 + i], entries_of(old_values, index[1], sparse), entries_of(new_values, index[1], sparse),
    not ready[index[1]], old_tail, new_tail)
end
if mode == 'create' then
  redis.call('XADD', stream, 'MAXLEN', '~', ARGV[7], rev .. '-0', 't', 'ADDED', 'o', json)
else
  redis.call('XADD', stream, 'MAXLEN', '~', ARGV[7], rev .. '-0', 't', 'MODIFIED', 'o', json, 'p', old_json)
end
return {'OK', rev}
