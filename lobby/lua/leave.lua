-- lobby/lua/leave.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c member_leave.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as leave_lua).
--
-- A seated member leaving: its seat is marked absent on the room's
-- channel unless claimed again since; a guest that never sent anything
-- also gives the seat back, and its key unless the host named it
-- (field gn; "g 00...0" on the channel: no guest key), as in room.c's
-- member_leave. KEYS: hash.
-- ARGV: seat, epoch, channel. The message is "p SEAT 0 SEQ TIME": after
-- the room's frame SEQ, at the room's receipt clock (as data.lua's),
-- which field gSEAT keeps until the seat comes back (admit.lua): the
-- frames' receipts attest the absence from it (data.lua).
--
-- With Redis past its maxmemory nothing of it may be stored: a seat
-- the relay closed for its own fault (a frame it could not store) and
-- then could not let back in (admit.lua refused) would be witnessed gone
-- for the whole fault, and a claim numbered after it would hold (the
-- fair-play issue: a relay fault decides no game). Redis refuses a
-- script's write past maxmemory only until the script has written once
-- (HDEL, which frees memory, is never refused), so the HSET comes first:
-- refused, the whole leave is, and the seat stays present.
local M = KEYS[1]
local going = redis.call('HGET', M, 'p'..ARGV[1]) == ARGV[2]
local t
if going then
  local now = redis.call('TIME')
  t = string.format('%d', math.max(now[1] * 1000 + math.floor(now[2] / 1000),
                                   tonumber(redis.call('HGET', M, 't') or '0')))
  redis.call('HSET', M, 't', t, 'g'..ARGV[1], t) -- first: see above
end
if ARGV[1] == '1' and redis.call('HGET', M, 'e1') == ARGV[2]
   and not redis.call('HGET', M, 'k1') then
  -- (before the going is told: its receipt is signed for no guest, as
  -- room.c's member_leave gives the key back first)
  redis.call('HDEL', M, 's1')
  if not redis.call('HGET', M, 'gn') then
    redis.call('HDEL', M, 'gk')
    redis.call('PUBLISH', ARGV[3], 'g '..string.rep('0', 64))
  end
end
if going then
  redis.call('HDEL', M, 'p'..ARGV[1])
  local sq = tonumber(redis.call('HGET', M, 'next') or '1') - 1
  redis.call('PUBLISH', ARGV[3], 'p '..ARGV[1]..' 0 '..
             string.format('%d', sq)..' '..t)
end
return 0
