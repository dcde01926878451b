-- lobby/lua/keep.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_keep (and empty_for, which reads it).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as keep_lua).
--
-- A seat's KEEP (a correspondence game, issue 37). KEYS: hash, stream.
-- ARGV: ms the room is kept after its last member (already within the
-- relay's keep_room_ms). Field k keeps the largest asked, so every node's
-- later admission and frame (admit.lua, data.lua) and renewal keeps the
-- room so long; a finished room (both seats DONE) is not kept. Returns
-- the field's value, or -3 (no such room).
local M, F = KEYS[1], KEYS[2]
if redis.call('EXISTS', M) == 0 then return -3 end
if redis.call('HGET', M, 'd0') and redis.call('HGET', M, 'd1') then
  return 0 end
local k = math.max(tonumber(redis.call('HGET', M, 'k') or '0'),
                   tonumber(ARGV[1]))
redis.call('HSET', M, 'k', k)
if redis.call('PTTL', M) < k then
  redis.call('PEXPIRE', M, k)
  redis.call('PEXPIRE', F, k)
end
return k
