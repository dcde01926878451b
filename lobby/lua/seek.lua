-- lobby/lua/seek.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c seek_file (a room's public seek, within the shares).
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as seek_lua).
--
-- Lists (or keeps listed) the seek of the room of invite lookup L, in
-- the seeks' own slot: KEYS: the cards (hash L hex -> card), the seeks
-- (hash L hex -> "SINCE UNTIL KEY SOURCE GAME"), the open seeks per host
-- key and per source address (hashes of counts). ARGV: L hex, the card,
-- the host key hex, the source hex, the game, the key's share, the
-- address's share, the total, the lease (ms), and 1 to renew only (a
-- seek no longer listed stays so: a guest took it on another node). A
-- seek is listed until
-- UNTIL (Redis's clock, ms): the node of its host renews it while the
-- host is there (a lost node's seeks lapse; seeks.lua drops them).
-- Answers 0 (listed), 5 (FULL: the lobby's total) or 13 (SEEKS: the
-- key's or the address's share), the LOBBY_ERR_* codes of room.h.
local C, I, K, A = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local L, pk, src, game = ARGV[1], ARGV[3], ARGV[4], ARGV[5]
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
local untl = string.format('%d', ms + tonumber(ARGV[9]))
local old = redis.call('HGET', I, L)
if old then -- (its since, key and address kept; its game is the card's)
  local since, opk, osrc = string.match(old, '^(%d+) %d+ (%x+) (%x+)')
  redis.call('HSET', I, L, since..' '..untl..' '..opk..' '..osrc..' '..game)
  redis.call('HSET', C, L, ARGV[2])
  return 0
end
if ARGV[10] == '1' then return 0 end
if redis.call('HLEN', I) >= tonumber(ARGV[8]) then return 5 end
if tonumber(redis.call('HGET', K, pk) or '0') >= tonumber(ARGV[6]) or
   tonumber(redis.call('HGET', A, src) or '0') >= tonumber(ARGV[7]) then
  return 13
end
redis.call('HSET', I, L, string.format('%d', ms)..' '..untl..' '..pk..' '..
           src..' '..game)
redis.call('HSET', C, L, ARGV[2])
redis.call('HINCRBY', K, pk, 1)
redis.call('HINCRBY', A, src, 1)
return 0
