-- lobby/lua/unreserve.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_create (a refused room gives its watch lookup back).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as unreserve_lua).
--
-- Undo a reservation made for L (its room was refused). KEYS: the
-- watch-index key. ARGV: L hex.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1]) end
return 0
