/*
 * laska_perft.c: Laska perft (D-ALL-5) on one working state with make and
 * unmake, the moves from the game's own generator. The last five plies
 * are counted in bulk from bit sets (laska_count.c) whenever no position
 * among them can be drawn by rule: at the last ply the move count, before
 * it the children's move counts, then the grandchildren's, then the
 * great-grandchildren's, then theirs again (boards of five layers); with
 * AVX-512 or AVX2 the last plies' positions wait in a Laska_Batch and are
 * counted many at a time (laska_batch.c), the batch's total added at
 * the end. The zobrist key is kept only where a repetition could be
 * seen: a window of the history (since the last irreversible move) that
 * cannot reach LA_REPEAT_MIN keys within the plies left compares no keys.
 */
#include <stdlib.h>
#include <string.h>

#include "laska_internal.h"

/*
 * Perft below a node where no position within depth - 1 plies can be
 * drawn by rule (core__laska_plain): nothing but the columns, bit sets and
 * side is kept, and no drawn status looked at.
 */
static uint64_t perft_plain(Laska_State *st, unsigned depth, Core_Move *moves,
                            Laska_Batch *q)
{
    if (depth == 5)
        return core__laska_count_five(st, q);
    int overflow = 0;
    size_t n = core__laska_generate(st, moves, LA_MAX_MOVES, &overflow);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        Laska_Undo u;
        core__laska_do_columns(st, &moves[i], &u);
        total += perft_plain(st, depth - 1, moves + LA_MAX_MOVES, q);
        core__laska_undo_columns(st, &moves[i], &u);
    }
    return total;
}

/* keyed: st->key is valid. */
static uint64_t perft_rec(Laska_State *st, unsigned depth, int keyed,
                          Core_Move *moves, Laska_Batch *q)
{
    if (st->drawn != CORE_REASON_NONE)
        return 0;
    if (depth == 1)
        return core__laska_count(st);
    if (depth == 2 && core__laska_plain(st, 1))
        return core__laska_count_children(st, q);
    if (depth == 3 && core__laska_plain(st, 2))
        return core__laska_count_grandchildren(st, q);
    if (depth == 4 && core__laska_plain(st, 3))
        return core__laska_count_great_grandchildren(st, q);
    if (depth >= 5 && core__laska_plain(st, depth - 1))
        return perft_plain(st, depth, moves, q);
    int overflow = 0;
    size_t n = core__laska_generate(st, moves, LA_MAX_MOVES, &overflow);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const Core_Move *mv = &moves[i];
        int soldier = !((st->officers >> core__la.bit[mv->b[0]]) & 1);
        unsigned nhist = mv->flags || soldier ? 1u : st->nhist + 1u;
        /* The child's drawn status is looked at down to depth - 2 plies
         * below it, its window growing by one key a ply. */
        int need = nhist + depth - 2 >= LA_REPEAT_MIN;
        int keys = !need ? LA_KEYS_NONE : keyed ? LA_KEYS_UPDATE : LA_KEYS_FULL;
        /* An irreversible move starts a new window over hist[0..]; the
         * undo record keeps hist[0], this frame the rest of a window
         * whose keys are still to be compared. */
        uint64_t window[LA_HIST_MAX];
        size_t saved = nhist == 1 && keyed ? st->nhist : 0;
        if (saved > 1)
            memcpy(window, st->hist, saved * sizeof st->hist[0]);
        Laska_Undo u;
        core__laska_do(st, mv, &u, keys);
        total += perft_rec(st, depth - 1, need, moves + LA_MAX_MOVES, q);
        core__laska_undo(st, mv, &u);
        if (saved > 1)
            memcpy(st->hist, window, saved * sizeof st->hist[0]);
    }
    return total;
}

int core__laska_perft(const void *st, unsigned depth, uint64_t *nodes)
{
    return core__laska_perft_with(st, depth, core__laska_batch_kernel(), nodes);
}

int core__laska_perft_with(const void *vst, unsigned depth,
                           const Laska_Kernel *kernel, uint64_t *nodes)
{
    *nodes = 1;
    if (depth == 0)
        return 0;
    Core_Move *moves = malloc((size_t)depth * LA_MAX_MOVES * sizeof *moves);
    Laska_State *st = malloc(sizeof *st);
    Laska_Batch *q = calloc(1, sizeof *q);
    if (moves == NULL || st == NULL || q == NULL) {
        free(moves);
        free(st);
        free(q);
        return TB_E_NOMEM;
    }
    memcpy(st, vst, sizeof *st);
    q->kernel = kernel;
    *nodes = perft_rec(st, depth, 1, moves, q);
    *nodes += core__laska_batch_total(q);
    free(moves);
    free(st);
    free(q);
    return 0;
}
