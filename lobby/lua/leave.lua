-- lobby/lua/leave.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c member_leave.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as leave_lua).
--
-- A seated member leaving: its seat is marked absent on the room's
-- channel unless claimed again since; a guest that never sent anything
-- also gives the seat back (as in room.c's member_leave). KEYS: hash.
-- ARGV: seat, epoch, channel.
if redis.call('HGET', KEYS[1], 'p'..ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], 'p'..ARGV[1])
  redis.call('PUBLISH', ARGV[3], 'p '..ARGV[1]..' 0')
end
if ARGV[1] == '1' and redis.call('HGET', KEYS[1], 'e1') == ARGV[2]
   and not redis.call('HGET', KEYS[1], 'k1') then
  redis.call('HDEL', KEYS[1], 's1')
end
return 0
