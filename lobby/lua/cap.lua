-- lobby/lua/cap.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c's room and per-address counts (room_new, room_free).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as cap_lua).
--
-- A share counted in a sorted set of its own (tb:rooms for the whole
-- lobby, tb:a:ADDRESS per address), members scored by when they stop
-- counting. KEYS: the set. ARGV: member, ttl ms, cap (0: only renew a
-- member there), the LOBBY_ERR_* code when full. Returns 0 or -code.
-- The set itself lives as long as its latest member (renewing one
-- renews it, else a set not added to for ttl would vanish with the
-- rooms it still counts).
local t = redis.call('TIME')
local ms = t[1] * 1000 + math.floor(t[2] / 1000)
-- (the set's own life is only ever lengthened: a room of 10 minutes
-- must not cut short the set that counts a kept room of 30 days, or the
-- kept rooms stop counting when it lapses: the trial of 2026-12-07)
local function live(ttl)
  local p = redis.call('PTTL', KEYS[1])
  if p < tonumber(ttl) then redis.call('PEXPIRE', KEYS[1], ttl) end
end
if ARGV[3] == '0' then
  if redis.call('ZADD', KEYS[1], 'XX', 'GT', 'CH', ms + ARGV[2], ARGV[1]) > 0
  then live(ARGV[2]) end
  return 0
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and
   redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return -tonumber(ARGV[4]) end
redis.call('ZADD', KEYS[1], ms + ARGV[2], ARGV[1])
live(ARGV[2])
return 0
