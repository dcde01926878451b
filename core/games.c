/*
 * games.c: the registry of compiled-in games, in the fixed order that
 * core_game_at and every listing use. A new game adds its descriptor here.
 */
#include "core_internal.h"

extern const Core_Game core__chessball;

/* NULL-terminated so the list can be edited one line per game. */
const Core_Game *const core__games[] = {
    &core__chessball,
    NULL,
};

const size_t core__game_count =
    sizeof core__games / sizeof core__games[0] - 1;
