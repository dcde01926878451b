/*
 * test_evaluate.c: core_evaluate, the bots' static score, where a game's
 * evaluation has terms to read off a position (Football chess, whose
 * weights were fitted to self-play: docs/engines.md). Each expected score
 * is the weighted sum of terms counted by hand from the position string,
 * and the colour-mirrored position must give the same score to its own
 * side to move (a second method: the terms are White minus Black).
 */
#include <criterion/criterion.h>

#include "core.h"

static int32_t eval_of(const char *text, const char *options)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_eq(core_position_new(&pos, core_game_find("football"), options),
                 0);
    cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0, "%s: %s",
                 text, why);
    int32_t v = core_evaluate(pos);
    core_position_free(pos);
    return v;
}

/* Football chess's weights (core/football.c, docs/engines.md): ball rank
 * 15, adjacent 47, kicker -6, forward -5, near 9, guard 10, central -6,
 * tempo -2. */
enum {
    W_RANK = 15,
    W_ADJ = 47,
    W_KICK = -6,
    W_FWD = -5,
    W_NEAR = 9,
    W_GUARD = 10,
    W_CENTRAL = -6,
    W_TEMPO = -2
};

/* Ball on c4 (rank 4: 2 * 3 - 8 = -2; file c, two from e: central
 * (4 - 2) * (3 - 4) = -2). White Q d3 is next to it below: adjacent,
 * may kick (any direction), forward (up), near. Black n b3 is next to it
 * below: adjacent, kicker (a knight kicks from any side), not forward
 * for Black (its kick would go up, towards Black's own goal), near.
 * White K d1 guards e1; Black k a9 guards nothing. Black to move, tempo
 * -1. White's sum: rank -2, adjacent 0, kicker 0, forward +1, near 0,
 * guard +1, central -2, tempo -1; Black's view is its negation. */
Test(evaluate, football_terms_by_hand)
{
    int32_t white =
        W_RANK * -2 + W_FWD * 1 + W_GUARD * 1 + W_CENTRAL * -2 + W_TEMPO * -1;
    cr_expect_eq(eval_of("k8/9/9/9/9/2*6/1n1Q5/9/3K5 b 0-0 0 9", NULL), -white);
}

/* The same position mirrored (ranks reversed, colours swapped, Black's
 * pieces White's) with White to move: the same score for the mover. */
Test(evaluate, football_mirror_is_the_same_for_the_mover)
{
    cr_expect_eq(eval_of("3k5/9/1N1q5/2*6/9/9/9/9/K8 w 0-0 0 9", NULL),
                 eval_of("k8/9/9/9/9/2*6/1n1Q5/9/3K5 b 0-0 0 9", NULL));
}

/* Goals come first: 10000 each for the side that scored them, here
 * White one up in a match to 3 with Black to move. */
Test(evaluate, football_goals_first)
{
    int32_t quiet = eval_of("k8/9/9/9/9/2*6/1n1Q5/9/3K5 b 0-0 0 9", NULL);
    cr_expect_eq(eval_of("k8/9/9/9/9/2*6/1n1Q5/9/3K5 b 1-0 0 9", "goals=3"),
                 quiet - 10000);
}
