-- lobby/lua/reserve.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_create (a new room's watch lookup).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as reserve_lua).
--
-- A new room's watch lookup W reserved for invite lookup L, in W's slot.
-- KEYS: W's hash and watch-index key. ARGV: L hex, ttl ms. Returns 1
-- (reserved now), 2 (it was L's already) or 0 (W is another room's: the
-- room is made without it, as room.c's on_create makes it unfiled; a
-- spectator who registered a room under it after a restart must not
-- keep the game out).
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local v = redis.call('GET', KEYS[2])
if v and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
if v then return 2 end
return 1
