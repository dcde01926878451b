/*
 * laska_perft.c: Laska perft (D-ALL-5) on one working state with make and
 * unmake, the moves from the game's own generator. The last two plies are
 * counted in bulk: at the last ply the move count, at the one before the
 * children's move counts computed from their commander bit sets without
 * making the moves (laska_gen.c), whenever no child can be drawn by rule.
 */
#include <stdlib.h>
#include <string.h>

#include "laska_internal.h"

static uint64_t perft_rec(Laska_State *st, unsigned depth, Core_Move *moves)
{
    if (st->drawn != CORE_REASON_NONE)
        return 0;
    if (depth == 1)
        return core__laska_count(st);
    if (depth == 2 && core__laska_children_plain(st))
        return core__laska_count_children(st);
    int overflow = 0;
    size_t n = core__laska_generate(st, moves, LA_MAX_MOVES, &overflow);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        Laska_Undo u;
        core__laska_do(st, &moves[i], &u);
        total += perft_rec(st, depth - 1, moves + LA_MAX_MOVES);
        core__laska_undo(st, &moves[i], &u);
    }
    return total;
}

int core__laska_perft(const void *vst, unsigned depth, uint64_t *nodes)
{
    *nodes = 1;
    if (depth == 0)
        return 0;
    Core_Move *moves = malloc((size_t)depth * LA_MAX_MOVES * sizeof *moves);
    Laska_State *st = malloc(sizeof *st);
    if (moves == NULL || st == NULL) {
        free(moves);
        free(st);
        return TB_E_NOMEM;
    }
    memcpy(st, vst, sizeof *st);
    *nodes = perft_rec(st, depth, moves);
    free(moves);
    free(st);
    return 0;
}
