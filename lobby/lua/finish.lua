-- lobby/lua/finish.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_done (a finished room goes unjoined_room_ms after it
--   empties, counting until then).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as finish_lua).
--
-- A finished room stops counting in a share (a sorted set as cap.lua's)
-- ttl ms from now, unless a node renews it (a member still uses it).
-- KEYS: the set. ARGV: member, ttl ms. Returns 0.
local t = redis.call('TIME')
local ms = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZADD', KEYS[1], 'XX', ms + ARGV[2], ARGV[1])
return 0
