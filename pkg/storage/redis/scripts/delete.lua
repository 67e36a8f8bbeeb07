-- Delete of one object, atomically: existence and optional compare-and-swap check, object, index entries,
-- revision, change stream (the last state).
--
-- KEYS: objects, index values, revision, stream, then the bucketed set of every index, in the order of ARGV[5].
-- ARGV: name, expected revision ('' for any), stream retention, dry run ('1' | '0'), the indexes as JSON (as for
-- write.lua), the object's JSON for the change stream ('': what is stored, which is JSON unless compressed), then
-- the revision floor (as for write.lua).
--
-- Returns {'OK', revision, last JSON}, {'DRY', current revision, JSON}, {'COMPRESSED'} (the stored object is not
-- JSON and none was given), {'NOTFOUND'} or {'STALE'}.
-- Runs after helpers.lua (see index.ts).

local objects, ixv, revkey, stream = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local name = ARGV[1]
local stored = redis.call('HGET', ixv, name)
if not stored then return {'NOTFOUND'} end
local rev, values_json = split_stored(stored)
if ARGV[2] ~= '' and rev ~= ARGV[2] then return {'STALE'} end
local json = redis.call('HGET', objects, name)
if ARGV[6] and ARGV[6] ~= '' then
  json = ARGV[6]
elseif string.sub(json, 1, 1) ~= '{' then
  return {'COMPRESSED'}
end
if ARGV[4] == '1' then return {'DRY', redis.call('GET', revkey) or '0', json} end

local values = decode_values(values_json, name)
raise_revision(revkey, ARGV[7])
local next_rev = tostring(redis.call('INCR', revkey))
redis.call('HDEL', objects, name)
redis.call('HDEL', ixv, name)
for i, index in ipairs(cjson.decode(ARGV[5])) do
  COUNTED[KEYS[4 + i]] = index[3] == 1
  local tail = member_tail(index[3] == 1, values, name)
  apply_entries(KEYS[4 + i], entries_of(values, index[1], index[4] == 1), {}, false, tail, tail)
end
redis.call('XADD', stream, 'MAXLEN', '~', ARGV[3], next_rev .. '-0', 't', 'DELETED', 'o', json)
return {'OK', next_rev, json}
