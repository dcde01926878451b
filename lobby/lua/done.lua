-- lobby/lua/done.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_done.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as done_lua).
--
-- A seat said DONE (its game is over and acknowledged). KEYS: hash,
-- stream. ARGV: seat, epoch, ttl ms once both seats are done. Returns 1
-- when both seats now are (the room's keys then go after the ttl, and
-- the node takes it off its creator's share and the lobby's count), 0
-- when only this one is, -10 when the seat was claimed again since.
local M, F = KEYS[1], KEYS[2]
if redis.call('HGET', M, 'e'..ARGV[1]) ~= ARGV[2] then return -10 end
if redis.call('HGET', M, 'd'..ARGV[1]) then return 0 end
redis.call('HSET', M, 'd'..ARGV[1], 1)
local o = ARGV[1] == '0' and '1' or '0'
if not redis.call('HGET', M, 'd'..o) then return 0 end
redis.call('PEXPIRE', M, ARGV[3])
redis.call('PEXPIRE', F, ARGV[3])
return 1
