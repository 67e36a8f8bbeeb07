-- Marks an index built, unless it was dropped meanwhile.
-- KEYS: index states. ARGV: index name. Returns 1 when marked.
-- Stands alone: needs no library.

if redis.call('HGET', KEYS[1], ARGV[1]) == 'building' then
  redis.call('HSET', KEYS[1], ARGV[1], 'ready')
  return 1
end
return 0
