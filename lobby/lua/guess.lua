-- lobby/lua/guess.lua: run by lobby/redis.c (EVAL) where Redis must do it
-- atomically. Its twin for the in-memory lobby:
--   room.c wrong_code.
-- Embedded at build time (CMakeLists.txt, lobby_lua.h as guess_lua).
--
-- The wrong-code limit: a GCRA bucket in a key of its own (tb:g:ADDRESS
-- per address, tb:g for the lobby). KEYS: the bucket. ARGV: refill us,
-- burst. Returns 1 (over the limit: not counted) or 0 (counted).
local t = redis.call('TIME')
local now = t[1] * 1000000 + t[2]
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
if tat > now + (ARGV[2] - 1) * ARGV[1] then return 1 end
tat = tat + ARGV[1]
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX',
           string.format('%d', math.floor((tat - now) / 1000) + 1))
return 0
