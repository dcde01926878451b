/*
 * games.c: the registry of compiled-in games, in the fixed order that
 * core_game_at and every listing use. A new game adds its descriptor here.
 */
#include "core_internal.h"

extern const Core_Game core__laska;
extern const Core_Game core__chessball;
extern const Core_Game core__volleyball;
extern const Core_Game core__volleyball10;

/* NULL-terminated so the list can be edited one line per game. */
const Core_Game *const core__games[] = {
    &core__laska,
    &core__chessball,
    &core__volleyball,
    &core__volleyball10,
    NULL,
};

const size_t core__game_count =
    sizeof core__games / sizeof core__games[0] - 1;
