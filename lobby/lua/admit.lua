-- lobby/lua/admit.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c on_create, on_join, on_watch and admit.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as admit_lua).
--
-- Admission, run in the slot of lookup L. KEYS: L's hash, stream and
-- watch-index key. ARGV: kind (1 create, 2 join, 3 watch), stage, watch
-- hex (create), host key, seat secret, next seq (create), after (frames
-- wanted after it), ttl ms, frames kept, L hex, the source address (hex;
-- a room made keeps it as its maker, field a), the member's last frame
-- (a seat's hSEAT: the frames it has had, for FLOOD), and the player key
-- (32 bytes: a CREATE's named guest, zeros for none; a JOIN's proven
-- key, lobby protocol 4: the guest seat holds one key, field gk, named
-- by the host when gn is set), and a JOIN's player's ratings by the
-- node's list ("GAME:CLASS:R,...", "" for none: a rated seek's room,
-- field rr, takes only a guest rated in its range), and a newcomer's
-- rating (pool.h POOL_RATING_NEWCOMER). A CREATE of a new room
-- at stage 0 answers {-100} (count it and reserve its watch lookup
-- first, in their own slots), at stage 1 makes it. A WATCH of a watch
-- lookup at stage 1 answers {-101, I}: ask again in the slot of invite
-- lookup I at stage 0. Else {-code} (a LOBBY_ERR_*) or {role, L hex, host
-- key, watch hex, next, epoch, frames, presence bits, maker hex or "",
-- time, guest key or "", keep}: keep is the ms a seat's KEEP asked the
-- room be kept (keep.lua; 0: none), which the ttl never goes below
-- while the game is on; time is the room's receipt clock now (as
-- data.lua's), for the WELCOME. A guest admitted is told on the room's
-- channel ("g HEX", its key) before its arrival, so every node signs
-- receipts for it. A seat admitted is marked present (field pSEAT holds its
-- claim number) on the room's channel ("p SEAT 1 SEQ TIME EPOCH": after
-- the room's frame SEQ, at that time), with its claim number: a node
-- holding the seat's member of an older claim closes it REPLACED (room.c
-- admit, which replaces the seat's member on one node).
local M, F, X = KEYS[1], KEYS[2], KEYS[3]
local kind, stage = ARGV[1], ARGV[2]
local key, none = ARGV[13], string.rep('\0', 32)
local role = 0
if kind == '1' then
  if redis.call('EXISTS', M) == 1 then
    local v = redis.call('HMGET', M, 's0', 'pk', 'w')
    if v[1] ~= ARGV[5] or v[2] ~= ARGV[4] or v[3] ~= ARGV[3] then
      return {-3} end
  else
    -- (a watch lookup another room holds does not keep a new room out:
    -- reserve.lua answered 0 and the room is made without it)
    if stage == '0' then return {-100} end
    redis.call('HSET', M, 'pk', ARGV[4], 'w', ARGV[3], 's0', ARGV[5],
               'next', ARGV[6], 'e0', 0, 'e1', 0, 'a', ARGV[11])
    if key ~= none then redis.call('HSET', M, 'gk', key, 'gn', 1) end
  end
elseif kind == '2' then
  if redis.call('EXISTS', M) == 0 then
    if redis.call('EXISTS', X) == 1 then return {-8} end
    return {-3}
  end
  local v = redis.call('HMGET', M, 's0', 's1', 'pk', 'gk', 'gn')
  if v[1] == ARGV[5] then
    if key ~= v[3] then return {-6} end
    role = 0
  elseif v[2] == ARGV[5] then
    if key ~= v[4] then return {-6} end
    role = 1
  elseif v[2] or (v[5] and key ~= v[4]) or key == v[3] then return {-6}
  else
    -- a rated seek (field rr: "LO HI GAME CLASS") takes a new guest whose
    -- rating there (ARGV[14], "GAME:CLASS:R,...": the node's list; none:
    -- ARGV[15], a newcomer's) lies in its range, else 14 RATING (room.c
    -- rating_fits)
    local rr = redis.call('HGET', M, 'rr')
    if rr then
      local lo, hi, g, c = string.match(rr, '^(%d+) (%d+) (%S+) (%d+)$')
      local want = g..':'..c..':'
      local r = tonumber(ARGV[15])
      for e in string.gmatch(ARGV[14], '[^,]+') do
        if string.sub(e, 1, #want) == want then
          r = tonumber(string.sub(e, #want + 1))
        end
      end
      if r < tonumber(lo) or r > tonumber(hi) then return {-14} end
    end
    redis.call('HSET', M, 's1', ARGV[5], 'gk', key); role = 1
  end
else
  role = 2
  if redis.call('EXISTS', M) == 0 then
    local I = stage == '1' and redis.call('GET', X)
    if not I then return {-3} end
    return {-101, I}
  end
end
local now = redis.call('TIME')
local t = string.format('%d', math.max(now[1] * 1000 + math.floor(now[2] / 1000),
                                       tonumber(redis.call('HGET', M, 't') or '0')))
redis.call('HSET', M, 't', t)
local e = 0
if role < 2 then
  e = redis.call('HINCRBY', M, 'e'..role, 1)
  local h = tonumber(ARGV[12])
  local nx = tonumber(redis.call('HGET', M, 'next'))
  if nx and h > nx - 1 then h = nx - 1 end
  redis.call('HSET', M, 'p'..role, e, 'h'..role, string.format('%d', h))
  redis.call('HDEL', M, 'g'..role) -- back: no longer absent (leave.lua)
  if role == 1 then
    redis.call('PUBLISH', 'tb:{'..ARGV[10]..'}:c', 'g '..string.gsub(
      redis.call('HGET', M, 'gk') or none, '.',
      function(c) return string.format('%02x', string.byte(c)) end))
  end
  redis.call('PUBLISH', 'tb:{'..ARGV[10]..'}:c', 'p '..role..' 1 '..
             string.format('%d', (nx or 1) - 1)..' '..t..' '..e)
end
local v = redis.call('HMGET', M, 'pk', 'w', 'next', 'p0', 'p1', 'a', 'gk',
                     'k', 'd0', 'd1')
if not v[1] then return {-3} end
local k = (v[9] or v[10]) and 0 or tonumber(v[8] or '0')
local ttl = math.max(tonumber(ARGV[8]), k)
redis.call('PEXPIRE', M, ttl)
redis.call('PEXPIRE', F, ttl)
local fr = redis.call('XRANGE', F, '0-'..ARGV[7], '+', 'COUNT', ARGV[9])
local pb = (v[4] and 1 or 0) + (v[5] and 2 or 0)
return {role, ARGV[10], v[1], v[2], v[3], e, fr, pb, v[6] or '', t, v[7] or '',
        k}
