-- lobby/lua/data.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_data, make_room and ring_push.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as data_lua).
--
-- A frame. KEYS: hash, stream. ARGV: seat, epoch, payload, frames kept,
-- ttl ms (at least; a KEEP's field k, keep.lua, when longer), channel,
-- payload bytes kept. Returns {its number, its time,
-- the host's absence, the guest's}, -3
-- (no such room), -10 (the seat was claimed again since: this connection is
-- stale) or -12 (FLOOD, as room.c's make_room: room for it would drop
-- a frame the other seat, claimed, has not had; field hSEAT holds the
-- last frame a seat had, kept by the nodes that serve it; once refused,
-- every later frame of that claim is: fSEAT holds its claim number, so
-- no frame in flight behind the refused one is numbered). The oldest
-- frames go first while the room would keep more than its frames or
-- bytes (field b of the hash counts the bytes kept). A seat's own frame
-- right after all it had is had too. Its time is the room's receipt
-- clock (docs/protocol-lobby.md, Receipts): Redis's own time in ms, never
-- below the room's last (field t), so a frame has one time whichever
-- node delivers it and a failover cannot move a clock; it is kept in the
-- stream entry (field t) and published with the frame
-- ("SEQ SEAT TIME ABSENT0 ABSENT1 PAYLOAD"). ABSENTn: how long seat n
-- had been gone by then (ms; 0 present, or never seen to go: field gn
-- holds when leave.lua saw it go; 4294967295, PROTO_ABSENT_NEVER: never
-- admitted to this room, claim number eN 0), which the frame's receipt attests
-- (G-MC-9w); kept in the entry too (fields u, v). A node that dies says
-- nothing, so its seats stay present: a relay fault witnesses no
-- absence.
local M, F, seat = KEYS[1], KEYS[2], ARGV[1]
local e = redis.call('HGET', M, 'e'..seat)
if not e then return -3 end
if e ~= ARGV[2] then return -10 end
if redis.call('HGET', M, 'f'..seat) == e then return -12 end
local o = seat == '0' and '1' or '0'
local claimed = o == '0' or redis.call('HEXISTS', M, 's1') == 1
local had = tonumber(redis.call('HGET', M, 'h'..o) or '0')
local b = tonumber(redis.call('HGET', M, 'b') or '0')
while redis.call('XLEN', F) >= tonumber(ARGV[4]) or
      b + #ARGV[3] > tonumber(ARGV[7]) do
  local x = redis.call('XRANGE', F, '-', '+', 'COUNT', 1)
  if #x == 0 then break end
  if claimed and tonumber(string.sub(x[1][1], 3)) > had then
    redis.call('HSET', M, 'f'..seat, e)
    return -12
  end
  local f, n = x[1][2], 0
  for i = 1, #f, 2 do if f[i] == 'd' then n = #f[i + 1] end end
  redis.call('XDEL', F, x[1][1])
  b = redis.call('HINCRBY', M, 'b', -n)
end
redis.call('HSET', M, 'k'..seat, 1)
local sn = redis.call('HINCRBY', M, 'next', 1) - 1
local s = string.format('%d', sn)
local now = redis.call('TIME')
local t = string.format('%d', math.max(now[1] * 1000 + math.floor(now[2] / 1000),
                                       tonumber(redis.call('HGET', M, 't') or '0')))
redis.call('HSET', M, 't', t)
local a = {}
for i = 0, 1 do
  local g = tonumber(redis.call('HGET', M, 'g'..i) or t)
  a[i + 1] = string.format('%d', math.min(math.max(tonumber(t) - g, 0),
                                          4294967294))
  -- (a seat never admitted to this room: claim number 0)
  if redis.call('HGET', M, 'e'..i) == '0' then a[i + 1] = '4294967295' end
end
redis.call('XADD', F, '0-'..s, 's', seat, 't', t, 'u', a[1], 'v', a[2],
           'd', ARGV[3])
redis.call('HINCRBY', M, 'b', #ARGV[3])
if tonumber(redis.call('HGET', M, 'h'..seat) or '0') == sn - 1 then
  redis.call('HSET', M, 'h'..seat, s) end
redis.call('PUBLISH', ARGV[6], s..' '..seat..' '..t..' '..a[1]..' '..a[2]..
           ' '..ARGV[3])
local kd = redis.call('HMGET', M, 'k', 'd0', 'd1')
local ttl = tonumber(ARGV[5])
if not kd[2] and not kd[3] then
  ttl = math.max(ttl, tonumber(kd[1] or '0')) end
redis.call('PEXPIRE', M, ttl)
redis.call('PEXPIRE', F, ttl)
return {sn, t, a[1], a[2]}
