# Embeds the lobby's Lua scripts (lobby/lua/NAME.lua) as C strings NAME_lua
# in one header, for lobby/redis.c to send with EVAL. Comment lines (`--`)
# and blank lines are left out: the script text goes to Redis with every
# call. Run by the build (CMakeLists.txt) whenever a script changes:
#   cmake -DOUT=lobby_lua.h -DIN="a.lua;b.lua" -P cmake/embed_lua.cmake
set(out "/* Made from the scripts of lobby/lua/ by cmake/embed_lua.cmake: do not edit. */\n")
foreach(f ${IN})
  get_filename_component(name "${f}" NAME_WE)
  file(READ "${f}" text)
  string(REGEX REPLACE "(^|\n)[ \t]*--[^\n]*" "\\1" text "${text}")
  string(REGEX REPLACE "\n[ \t]*\n+" "\n" text "${text}")
  string(REGEX REPLACE "^\n+" "" text "${text}")
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" "\\n\"\n    \"" text "${text}")
  string(APPEND out "static const char ${name}_lua[] =\n    \"${text}\\n\";\n")
endforeach()
file(WRITE "${OUT}.tmp" "${out}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
