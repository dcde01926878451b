-- lobby/lua/unseek.lua: run by lobby/redis.c (EVAL) where Redis must do
-- it atomically. Its twin for the in-memory lobby:
--   room.c seek_drop (a seek goes: a guest came, or its host left).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as unseek_lua).
--
-- KEYS: as seek.lua's. ARGV: L hex. Takes the seek of the room of L off
-- the list and out of its key's and address's counts. Answers 1, or 0
-- when it was not listed. HDEL comes first: it frees memory, so Redis
-- past its maxmemory still takes it.
local C, I, K, A = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local old = redis.call('HGET', I, ARGV[1])
if not old then return 0 end
redis.call('HDEL', I, ARGV[1])
redis.call('HDEL', C, ARGV[1])
local pk, src = string.match(old, '^%d+ %d+ (%x+) (%x+)')
for _, p in ipairs({{K, pk}, {A, src}}) do
  if redis.call('HINCRBY', p[1], p[2], -1) <= 0 then
    redis.call('HDEL', p[1], p[2])
  end
end
return 1
