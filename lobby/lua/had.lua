-- lobby/lua/had.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c seat_had.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as had_lua).
--
-- A seat's member was sent the room's frames up to a number. KEYS: hash.
-- ARGV: seat, epoch, number. Kept (as field hSEAT) only while that
-- member holds the seat and when higher.
if redis.call('HGET', KEYS[1], 'e'..ARGV[1]) ~= ARGV[2] then
  return 0 end
if tonumber(ARGV[3]) > tonumber(redis.call('HGET', KEYS[1],
                                'h'..ARGV[1]) or '0') then
  redis.call('HSET', KEYS[1], 'h'..ARGV[1], ARGV[3]) end
return 0
