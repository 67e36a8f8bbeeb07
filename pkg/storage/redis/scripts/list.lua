-- One page of a list, read atomically with its total and the revision.
--
-- KEYS: objects, index values, revision, index states, then the sorted sets the query names. ARGV[1] is the query
-- as JSON (see ListScriptQuery in ../list-query.ts): "indexes" (every index it uses), "keys" (index -> KEYS
-- position), "pos"/"neg" (requirements an object must / must not meet: index "i", exact values "v", optional value
-- prefix "p", "one" when no object holds more than one member in its ranges), "sort" (index "i", descending "d"),
-- "offset", "want" (items to collect: limit + 1, or -1 for all), optional "after" (a continue position: sort values
-- "s", false where the object had none, and name "n").
--
-- Plans, each touching only what the query needs:
-- - the walk: the first sort index is walked in order (members sort by value, then name) until the page is full,
--   skipping objects that do not match; objects without a value (the HIGH sentinel members) come last, by name;
-- - without a positive requirement, the objects of the negative ones are collected, the total is the rest, and
--   the walk skips them;
-- - with positive requirements, the objects of the smallest one (sized with ZLEXCOUNT) are checked against the
--   others; the matches are then sorted, or, when the walk to fill the page is shorter than sorting them all,
--   walked. A lone requirement an object meets with at most one member ("one") is not even collected: its size is
--   the total;
-- - one equality in the default order on an ordered index ("range"): the members of that value are the matches in
--   that order (ADR 0017), so the total is a ZLEXCOUNT and the page a range, without touching the others;
-- - one equality sorted by an index that declares it in filteredBy ("pair"): the walk reads the pair index's
--   members of that value (ADR 0023), which are the matches in sort order; the total is a ZLEXCOUNT of the filter.
--
-- "ordered" names the ordered indexes: their members end with an order member, not the name, so an exact member is
-- not known from the name alone, and the objects of one value come newest first rather than by name.
--
-- Values are compared as numbers made of their bytes (sort_key), never with Lua's <, which follows the server's
-- locale rather than byte order.
--
-- Indexes are read with set_range, set_count and set_has (index-sets-*.lua), in the store's layout (ADR 0025).
--
-- A plan that would read more than "budget" index members (when set) stops and answers {'SLICE'}: the client then
-- reads the query in slices ("slice" set: see slice() below and ../sliced-list.ts), each at most "size" members of
-- the driving requirement, which answer {'OK', revision, next slice state JSON or '', name, sort values JSON, ...}.
--
-- Returns {'OK', revision, total, continue position JSON or '', item JSON...}, {'SLICE'} or {'BUILDING', index}.
-- Runs after helpers.lua (see index.ts).

local q = cjson.decode(ARGV[1])
for _, index in ipairs(q.indexes) do
  if redis.call('HGET', KEYS[4], index) == 'building' then return {'BUILDING', index} end
end
local revision = redis.call('GET', KEYS[3]) or '0'
local function zkey(index) return KEYS[q.keys[index]] end
local ordered = {}
for _, index in ipairs(q.ordered) do
  ordered[index] = true
  COUNTED[zkey(index)] = true
end
local MISSING = math.huge
local STX = string.char(2)

-- Work is counted in index members read; decoding an object's stored index values (some 500 bytes of
-- JSON) counts DECODE_COST, about what it costs beside reading a member.
-- A plan that would do more than q.budget gives up (SLICE): the client reads the query in slices, each
-- doing at most q.size.
-- (Only while a plan runs, inside pcall: an error that leaves a script must never be anything but a string.)
local budget, spent, DECODE_COST = q.budget or math.huge, 0, 32
local SLICE, planning = 'SVC_SLICE', false
local function spend(units)
  spent = spent + units
  if planning and spent > budget then error(SLICE, 0) end
end

local cached_values = {}
local function values_of(name)
  local values = cached_values[name]
  if values == nil then
    spend(DECODE_COST)
    local stored = redis.call('HGET', KEYS[2], name)
    if stored then
      local _, json = split_stored(stored)
      values = decode_values(json, name)
    else
      values = {}
    end
    cached_values[name] = values
  end
  return values
end

local function prepare(req)
  req.set, req.ranges = {}, {}
  for _, v in ipairs(req.v) do
    req.set[v] = true
    local min, max = value_range(v)
    req.ranges[#req.ranges + 1] = {min, max}
  end
  if req.p then req.ranges[#req.ranges + 1] = {'[' .. req.p, '[' .. req.p .. HIGH} end
end

local function holds(name, req)
  local values = values_of(name)[req.i]
  if values == nil then return false end
  for _, v in ipairs(values) do
    if req.set[v] then return true end
    if req.p and string.sub(v, 1, #req.p) == req.p then return true end
  end
  return false
end

-- Calls fn for each member in [min, max], ascending (or, with desc, from max down); fn returns true to
-- stop. Reads batches of next_size() members when given (reading members costs more than looking at
-- them: a walk should not read far past where it stops), else of doubling sizes.
local function each_member(key, min, max, desc, fn, next_size)
  local size = 64
  while true do
    if next_size then size = next_size() end
    local batch = set_range(key, min, max, 0, size, desc)
    for _, m in ipairs(batch) do
      spend(1)
      if fn(m) then return true end
    end
    if #batch < size then return false end
    if desc then max = '(' .. batch[#batch] else min = '(' .. batch[#batch] end
    if size < 4096 then size = size * 2 end
  end
end

-- A value as numbers that compare as its bytes do: six bytes each, the last padded with zeros (a value
-- holds no NUL, so a shorter value sorts first, as in the index). One table per value, so that equal values
-- are the same table.
local sort_keys = {}
local function sort_key(value)
  local key = sort_keys[value]
  if key == nil then
    key = {}
    for at = 1, #value, 6 do
      local n = 0
      for i = at, at + 5 do n = n * 256 + (string.byte(value, i) or 0) end
      key[#key + 1] = n
    end
    sort_keys[value] = key
  end
  return key
end

local function key_less(a, b)
  for i = 1, math.max(#a, #b) do
    local x, y = a[i] or -1, b[i] or -1
    if x ~= y then return x < y end
  end
  return false
end

-- An object's sort key and value for a sort key: its smallest value ascending, its largest descending.
local function sort_value(name, key)
  local values = values_of(name)[key.i]
  if values == nil or #values == 0 then return MISSING, false end
  local best_key, best_value
  for _, v in ipairs(values) do
    local k = sort_key(v)
    if best_key == nil or (key.d and key_less(best_key, k)) or ((not key.d) and key_less(k, best_key)) then
      best_key, best_value = k, v
    end
  end
  return best_key, best_value
end

local tuples = {}
local function tuple_of(name)
  local t = tuples[name]
  if t == nil then
    t = {}
    for k, key in ipairs(q.sort) do t[k] = sort_value(name, key) end
    tuples[name] = t
  end
  return t
end

local function bytes_less(a, b)
  if a == b then return false end
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local function before(ta, na, tb, nb)
  for k, key in ipairs(q.sort) do
    local a, b = ta[k], tb[k]
    if a ~= b then
      if a == MISSING then return false end
      if b == MISSING then return true end
      if key.d then return key_less(b, a) end
      return key_less(a, b)
    end
  end
  return bytes_less(na, nb)
end

local function name_before(a, b)
  return before(tuple_of(a), a, tuple_of(b), b)
end

-- The continue position as sort keys.
local after = nil
if q.after then
  after = {}
  for k in ipairs(q.sort) do
    local v = q.after.s[k]
    if v == false then after[k] = MISSING else after[k] = sort_key(v) end
  end
end

local page, skip, want = {}, q.offset, q.want
local full = want == 0
local function emit(name)
  if after and not before(after, q.after.n, tuple_of(name), name) then return end
  if skip > 0 then
    skip = skip - 1
    return
  end
  page[#page + 1] = name
  if want > 0 and #page >= want then full = true end
end

-- Emits names in name order until the page is full.
local function emit_by_name(names)
  table.sort(names, name_before)
  for _, name in ipairs(names) do
    emit(name)
    if full then break end
  end
end

-- Where a walk reads the first sort index's members: its own sorted set (objects without a value under
-- HIGH), or a pair index's members of one filter value (ADR 0023): "<value>SOH<sort value>NUL<name>",
-- objects without a sort value under "<value>STX". "tails_ordered": members end with order members.
local function index_source(index)
  return {key = zkey(index), prefix = '', lo = '-', missing = {'[' .. HIGH .. NUL, '+'}, tails_ordered = ordered[index]}
end
local function pair_source(pair)
  local sorted = pair.v .. SOH
  local min, max = value_range(pair.v .. STX)
  return {key = zkey(pair.i), prefix = sorted, lo = '[' .. sorted, missing = {min, max}, tails_ordered = false}
end

-- Emits the objects accept() takes, walking the first sort index in order (from "source", by default the
-- index itself), then those without a value. About a fraction "density" of the members walked are
-- expected to be taken.
local function walk(accept, density, source)
  local primary = q.sort[1]
  source = source or index_source(primary.i)
  local pkey, prefix = source.key, source.prefix
  local resumed = q.after ~= nil
  local seen, group, group_value = {}, {}, nil
  -- One ascending key over names: the members of a value come in the page's order, so they need no
  -- grouping, and a page inside a large group of ties reads only that page.
  local streams = #q.sort == 1 and not primary.d and not source.tails_ordered
  local function flush()
    if #q.sort > 1 then
      table.sort(group, name_before)
    elseif source.tails_ordered then
      table.sort(group, bytes_less)
    elseif primary.d then
      local n = #group
      for i = 1, math.floor(n / 2) do group[i], group[n + 1 - i] = group[n + 1 - i], group[i] end
    end
    for _, name in ipairs(group) do
      emit(name)
      if full then break end
    end
    -- Every later group sorts after the continue position.
    if #group > 0 then after = nil end
    group = {}
  end
  local function visit(m)
    local at = string.find(m, NUL, 1, true)
    local name = member_name(m)
    if seen[name] or not accept(name) then return false end
    seen[name] = true
    local value = string.sub(m, #prefix + 1, at - 1)
    if resumed then
      -- A multi-valued object sorts at one of its values only; after a resume it may show up at
      -- another one first (its own one came before the continue position).
      local _, own = sort_value(name, primary)
      if own ~= value then return false end
    end
    if value ~= group_value then
      flush()
      if full then return true end
      group_value = value
    end
    if streams then
      emit(name)
      return full
    end
    group[#group + 1] = name
    return false
  end

  local function next_size()
    local needed = skip + want - #page - #group + 1
    if want < 0 then needed = 4096 end
    return math.max(16, math.min(4096, math.ceil(needed * 1.25 / math.max(density, 0.0001))))
  end

  if not full and not (after and after[1] == MISSING) then
    local min, max = source.lo, '(' .. prefix .. HIGH
    if primary.d then
      if after then max = select(2, value_range(prefix .. q.after.s[1])) end
      each_member(pkey, min, max, true, visit, next_size)
    else
      if after then min = '[' .. prefix .. q.after.s[1] .. NUL end
      each_member(pkey, min, max, false, visit, next_size)
    end
    if not full then flush() end
  end

  if not full then
    local missing = {}
    each_member(pkey, source.missing[1], source.missing[2], false, function(m)
      local name = member_name(m)
      if not accept(name) then return false end
      if #q.sort == 1 and not source.tails_ordered then
        emit(name)
        return full
      end
      missing[#missing + 1] = name
      return false
    end)
    if #missing > 0 then
      emit_by_name(missing)
    end
  end
end

-- Whether an object meets a requirement; exact values are looked up by member, without decoding its values.
local function meets(name, req)
  if req.p or ordered[req.i] then return holds(name, req) end
  local key = zkey(req.i)
  for _, v in ipairs(req.v) do
    spend(1)
    if set_has(key, v .. NUL .. name) then return true end
  end
  return false
end

-- Whether counting a requirement's members counts objects: no object holds two of them (one value, or "one").
local function counted(req)
  return req.one or (#req.v == 1 and req.p == nil)
end

-- Whether an object meets every requirement of a conjunction but its d-th positive one (which found it).
local function conjunction_met(c, d, name)
  for i, req in ipairs(c.pos) do
    if i ~= d and not meets(name, req) then return false end
  end
  for _, req in ipairs(c.neg) do
    if meets(name, req) then return false end
  end
  return true
end

-- The query as conjunctions an object meets one of: the query itself, or, with alternatives, the query's
-- requirements ANDed with each alternative's (each then names values, so has a positive requirement).
local conjunctions = {{pos = q.pos, neg = q.neg}}
if q.any then
  conjunctions = {}
  for _, alt in ipairs(q.any) do
    local c = {pos = {}, neg = {}}
    for _, req in ipairs(q.pos) do c.pos[#c.pos + 1] = req end
    for _, req in ipairs(alt.pos) do c.pos[#c.pos + 1] = req end
    for _, req in ipairs(q.neg) do c.neg[#c.neg + 1] = req end
    for _, req in ipairs(alt.neg) do c.neg[#c.neg + 1] = req end
    conjunctions[#conjunctions + 1] = c
  end
end

local function meets_all_but(d, name)
  return conjunction_met(conjunctions[1], d, name)
end

-- The smallest positive requirement of a conjunction (sized with ZLEXCOUNT) and its size; 0 when it has none.
local function driver_of(c)
  local driver, smallest = 0, nil
  for i, req in ipairs(c.pos) do
    local n = 0
    for _, r in ipairs(req.ranges) do n = n + set_count(zkey(req.i), r[1], r[2]) end
    if smallest == nil or n < smallest then driver, smallest = i, n end
  end
  return driver, smallest or 0
end

-- Sorting every match costs about this many steps of an index walk per match.
local SORT_COST = 20
-- Collecting one match costs about this fraction of looking an object up during a walk.
local COLLECT_FACTOR = 4

local total

-- The page as a range of the members of the one equality's value in an ordered index: from the
-- offset, or from just after the continue position.
local function range_page()
  local req = q.pos[1]
  local key, value = zkey(req.i), req.v[1]
  local min, max = value_range(value)
  total = set_count(key, min, max)
  if want == 0 then return end
  local offset = q.offset
  if q.after then
    min = '(' .. value .. NUL .. order_member(q.after.s[1] or nil, q.after.n)
    offset = 0
  end
  local members = set_range(key, min, max, offset, want, false)
  for _, m in ipairs(members) do page[#page + 1] = member_name(m) end
end

for _, req in ipairs(q.pos) do prepare(req) end
for _, req in ipairs(q.neg) do prepare(req) end
for _, alt in ipairs(q.any or {}) do
  for _, req in ipairs(alt.pos) do prepare(req) end
  for _, req in ipairs(alt.neg) do prepare(req) end
end
-- A pair index answers only once built; meanwhile the other plans do.
local function pair_ready()
  return q.pair ~= nil and redis.call('HGET', KEYS[4], q.pair.i) == 'ready'
end

-- The objects one slice of a list reads (q.slice: the conjunction "a", its driver "d", the range "r" and the
-- member the last slice ended at, "v" "c" "n"), each matching one with its values of every sort key; the state
-- of the next slice, or '' when none is left. The driver is the conjunction's smallest positive requirement, or
-- the name index. Conjunctions are read one after the other; an object meeting several is sent once per each.
local function slice()
  local state = q.slice
  local a, d, r = state.a or 1, state.d, state.r or 1
  local out = {'OK', revision, ''}
  while a <= #conjunctions do
    local c = conjunctions[a]
    if d == nil then d = driver_of(c) end
    local index, ranges = NAME_INDEX, {{'-', '+'}}
    if d > 0 then index, ranges = c.pos[d].i, c.pos[d].ranges end
    local key, min = zkey(index), nil
    if state.n then
      local tail = state.n
      if ordered[index] then tail = order_member(state.c or nil, state.n) end
      min = '(' .. state.v .. NUL .. tail
      state = {}
    end
    while r <= #ranges do
      local batch = set_range(key, min or ranges[r][1], ranges[r][2], 0, 64, false)
      for _, m in ipairs(batch) do
        spend(1)
        local name = member_name(m)
        if conjunction_met(c, d, name) then
          local values = {}
          for k, sort_key in ipairs(q.sort) do values[k] = values_of(name)[sort_key.i] or {} end
          out[#out + 1] = name
          out[#out + 1] = cjson.encode(values)
        end
        if spent >= q.size then
          local value = string.sub(m, 1, string.find(m, NUL, 1, true) - 1)
          out[3] = cjson.encode({a = a, d = d, r = r, v = value, c = created_of(values_of(name)) or false, n = name})
          return out
        end
      end
      if #batch < 64 then
        r, min = r + 1, nil
      else
        min = '(' .. batch[#batch]
      end
    end
    a, d, r = a + 1, nil, 1
  end
  return out
end

-- The page of a query with alternatives: each conjunction's matches, found from its smallest positive
-- requirement and checked against its others, collected once each; then sorted, or walked when a walk to fill
-- the page is shorter. Reads the conjunctions' smallest ranges, never the type.
-- The page of alternatives that are each one value of an ordered index, in the default order, with no
-- requirement of the query's own (q.merge): each value's members are its matches in list order (ADR 0017), so
-- the page merges the ranges from where it starts, O(k (log n + page)). The total is the largest range's count
-- plus, for every other range, its members not in a range counted before it (looked up by member: an object's
-- order member is the same in every ordered index).
local function merged_page()
  local ranges = {}
  for i, alt in ipairs(q.any) do
    local req = alt.pos[1]
    local key, value = zkey(req.i), req.v[1]
    local min, max = value_range(value)
    ranges[i] = {key = key, value = value, min = min, max = max, count = set_count(key, min, max)}
  end
  table.sort(ranges, function(a, b) return a.count > b.count end)
  total = ranges[1].count
  for i = 2, #ranges do
    local r = ranges[i]
    each_member(r.key, r.min, r.max, false, function(m)
      local tail = string.sub(m, #r.value + 2)
      for j = 1, i - 1 do
        spend(1)
        if set_has(ranges[j].key, ranges[j].value .. NUL .. tail) then return false end
      end
      total = total + 1
      return false
    end)
  end
  if want == 0 then return end
  local offset, need = q.offset, -1
  if q.after then offset = 0 end
  if want > 0 then need = offset + want end
  -- Each range comes in list order: merged head by head (a few byte comparisons per item, where sorting
  -- every member read would cost many), an object in several ranges taken once.
  local heads = {}
  for i, r in ipairs(ranges) do
    local min = r.min
    if q.after then min = '(' .. r.value .. NUL .. order_member(q.after.s[1] or nil, q.after.n) end
    heads[i] = {members = set_range(r.key, min, r.max, 0, need, false), at = 1, from = #r.value + 2}
    spend(#heads[i].members)
  end
  local skipped, last_tail = 0, nil
  while true do
    local best, best_tail = nil, nil
    for i, h in ipairs(heads) do
      local m = h.members[h.at]
      if m then
        local tail = string.sub(m, h.from)
        if best == nil or bytes_less(tail, best_tail) then best, best_tail = i, tail end
      end
    end
    if best == nil then break end
    local h = heads[best]
    local m = h.members[h.at]
    h.at = h.at + 1
    if best_tail ~= last_tail then
      last_tail = best_tail
      if skipped < offset then
        skipped = skipped + 1
      else
        page[#page + 1] = member_name(m)
        if want > 0 and #page >= want then break end
      end
    end
  end
end

local function union_page()
  if q.merge then return merged_page() end
  local drivers, collecting = {}, 0
  for i, c in ipairs(conjunctions) do
    local d, n = driver_of(c)
    drivers[i] = d
    collecting = collecting + n
  end
  if collecting > budget then error(SLICE, 0) end
  local matched, is_match = {}, {}
  for i, c in ipairs(conjunctions) do
    local lead = c.pos[drivers[i]]
    for _, r in ipairs(lead.ranges) do
      each_member(zkey(lead.i), r[1], r[2], false, function(m)
        local name = member_name(m)
        if is_match[name] then return false end
        if conjunction_met(c, drivers[i], name) then
          is_match[name] = true
          matched[#matched + 1] = name
        end
        return false
      end)
    end
  end
  total = #matched
  local objects = redis.call('HLEN', KEYS[1])
  local walk_length = (q.offset + want) * objects / math.max(total, 1)
  if want > 0 and total > 0 and walk_length < SORT_COST * total then
    walk(function(name) return is_match[name] == true end, total / math.max(objects, 1))
  elseif not full then
    emit_by_name(matched)
  end
end

if q.slice then return slice() end

planning = true
local planned, failure = pcall(function()
  if q.any then
    union_page()
  elseif q.range then
    range_page()
  elseif pair_ready() then
    -- One equality sorted by an index paired with it (ADR 0023): the pair index's members of that value are
    -- the matches in sort order, and the filter index counts them.
    local min, max = value_range(q.pair.v)
    total = set_count(zkey(q.pair.f), min, max)
    walk(function() return true end, 1, pair_source(q.pair))
  elseif #q.pos > 0 then
    local driver, smallest = nil, nil
    for i, req in ipairs(q.pos) do
      local n = 0
      for _, r in ipairs(req.ranges) do n = n + set_count(zkey(req.i), r[1], r[2]) end
      if smallest == nil or n < smallest then driver, smallest = i, n end
    end
    local lead = q.pos[driver]
    local collects = not (#q.pos == 1 and #q.neg == 0 and counted(lead))
    if collects and smallest > budget then error(SLICE, 0) end
    local objects = redis.call('HLEN', KEYS[1])
    -- Walking the sort index until the page is full visits about this many members.
    local function walk_length(matches)
      return (q.offset + want) * objects / matches
    end
    local function walk_is_cheaper(matches)
      return want > 0 and matches > 0 and walk_length(matches) < SORT_COST * matches
    end
    local function others_met(name)
      return meets_all_but(driver, name)
    end

    if #q.pos == 1 and #q.neg == 0 and counted(lead) and walk_is_cheaper(smallest)
        and smallest > COLLECT_FACTOR * walk_length(smallest) then
      -- One requirement that an object meets with at most one member: its count is the total, and
      -- looking up the few objects the walk visits is cheaper than collecting every match.
      total = smallest
      walk(function(name) return meets(name, lead) end, total / math.max(objects, 1))
    else
      local matched, is_match = {}, {}
      for _, r in ipairs(lead.ranges) do
        each_member(zkey(lead.i), r[1], r[2], false, function(m)
          local name = member_name(m)
          if is_match[name] ~= nil then return false end
          local ok = others_met(name)
          is_match[name] = ok
          if ok then matched[#matched + 1] = name end
          return false
        end)
      end
      total = #matched
      if walk_is_cheaper(total) then
        walk(function(name) return is_match[name] == true end, total / math.max(objects, 1))
      elseif not full then
        emit_by_name(matched)
      end
    end
  else
    local excluding = 0
    for _, req in ipairs(q.neg) do
      for _, r in ipairs(req.ranges) do excluding = excluding + set_count(zkey(req.i), r[1], r[2]) end
    end
    local objects = redis.call('HLEN', KEYS[1])
    local sole = q.neg[1]
    if #q.neg == 1 and counted(sole) then
      -- No object holds two of its members: what it excludes is counted, and the walk checks each object.
      total = objects - excluding
      walk(function(name) return not meets(name, sole) end, total / math.max(objects, 1))
      return
    end
    if excluding > budget then error(SLICE, 0) end
    local excluded, excluded_count = {}, 0
    for _, req in ipairs(q.neg) do
      for _, r in ipairs(req.ranges) do
        each_member(zkey(req.i), r[1], r[2], false, function(m)
          local name = member_name(m)
          if not excluded[name] then
            excluded[name] = true
            excluded_count = excluded_count + 1
          end
          return false
        end)
      end
    end
    total = objects - excluded_count
    walk(function(name) return not excluded[name] end, total / math.max(objects, 1))
  end
end)
planning = false
if not planned then
  if failure == SLICE then return {'SLICE'} end
  error(failure)
end

local position = ''
if want > 0 and #page >= want then
  page[#page] = nil
  local last = page[#page]
  local s = {}
  for k, key in ipairs(q.sort) do
    local _, v = sort_value(last, key)
    s[k] = v
  end
  position = cjson.encode({s = s, n = last})
end
local result = {'OK', revision, total, position}
for from = 1, #page, 500 do
  local names = {}
  for i = from, math.min(from + 499, #page) do names[#names + 1] = page[i] end
  for _, json in ipairs(redis.call('HMGET', KEYS[1], unpack(names))) do result[#result + 1] = json end
end
return result
