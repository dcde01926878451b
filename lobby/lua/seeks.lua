-- lobby/lua/seeks.lua: run by lobby/redis.c (EVAL) where Redis must do
-- it atomically. Its twin for the in-memory lobby:
--   room.c list_pump (the open seeks, oldest first).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as seeks_lua).
--
-- KEYS: as seek.lua's. ARGV: the game ("" : every game). Answers {SINCE,
-- card, SINCE, card, ...}, the oldest first (then by lookup). A seek past
-- its lease (its host's node lost) is dropped on the way, as
-- unseek.lua drops one.
local C, I, K, A = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
local all = redis.call('HGETALL', I)
local keep = {}
for j = 1, #all, 2 do
  local L, v = all[j], all[j + 1]
  local since, untl, pk, src, game =
    string.match(v, '^(%d+) (%d+) (%x+) (%x+) (%w+)$')
  if not since or tonumber(untl) < ms then
    redis.call('HDEL', I, L)
    redis.call('HDEL', C, L)
    for _, p in ipairs({{K, pk}, {A, src}}) do
      if p[2] and redis.call('HINCRBY', p[1], p[2], -1) <= 0 then
        redis.call('HDEL', p[1], p[2])
      end
    end
  elseif ARGV[1] == '' or game == ARGV[1] then
    keep[#keep + 1] = {tonumber(since), L, since}
  end
end
table.sort(keep, function(x, y)
  if x[1] ~= y[1] then return x[1] < y[1] end
  return x[2] < y[2]
end)
local out = {}
for _, e in ipairs(keep) do
  local c = redis.call('HGET', C, e[2])
  if c then
    out[#out + 1] = e[3]
    out[#out + 1] = c
  end
end
return out
