-- lobby/lua/keep.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_keep and kept (which empty_for reads).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as keep_lua).
--
-- A seat's KEEP (a correspondence game, issue 37), or a node renewing a
-- kept room. KEYS: hash, stream. ARGV: ms the room is asked to be kept
-- after its last member (within the relay's keep_room_ms; 0: only
-- renew). Field k keeps the largest asked, so every node's admission,
-- frame (admit.lua, data.lua) and renewal keeps the room so long; but
-- only while both seats have spoken (k1: the guest sent a frame, after
-- the host's start) and neither said DONE: a host alone, a stranger who
-- left a seek's seat without a word, and a finished game keep nothing
-- (field k goes). Returns the keep in force (ms; 0: none), or -3 (no
-- such room).
local M, F = KEYS[1], KEYS[2]
if redis.call('EXISTS', M) == 0 then return -3 end
local v = redis.call('HMGET', M, 'k', 'k1', 'd0', 'd1')
if not v[2] or v[3] or v[4] then
  redis.call('HDEL', M, 'k')
  return 0
end
local k = math.max(tonumber(v[1] or '0'), tonumber(ARGV[1]))
if k == 0 then return 0 end
redis.call('HSET', M, 'k', k)
if redis.call('PTTL', M) < k then
  redis.call('PEXPIRE', M, k)
  redis.call('PEXPIRE', F, k)
end
return k
