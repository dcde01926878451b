/*
 * test_evaluate.c: core_evaluate, the bots' static score, where a game's
 * evaluation has terms to read off a position (Football chess, whose
 * weights were fitted to self-play, and Chess volleyball: docs/engines.md).
 * Each expected score is the weighted sum of terms counted by hand from the
 * position string, and the colour-mirrored position must give the same score to
 * its own side to move (a second method: the terms are White minus Black).
 * Also core_evaluate_classic, the evaluations as issue 17 found them,
 * each expected value worked out by the formula of that time.
 */
#include <criterion/criterion.h>

#include "core.h"

static int32_t eval_by(int32_t (*evaluate)(const Core_Position *),
                       const char *game, const char *text, const char *options)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_eq(core_position_new(&pos, core_game_find(game), options), 0);
    cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0, "%s: %s",
                 text, why);
    int32_t v = evaluate(pos);
    core_position_free(pos);
    return v;
}

static int32_t game_eval(const char *game, const char *text,
                         const char *options)
{
    return eval_by(core_evaluate, game, text, options);
}

static int32_t eval_of(const char *text, const char *options)
{
    return game_eval("football", text, options);
}

/* Football chess's weights (core/football.c, docs/engines.md): ball rank
 * 15, adjacent 47, kicker -6, forward -5, near 9, guard 10, central -6,
 * tempo -2, threat 0 (off: its test is skipped). */
enum {
    W_RANK = 15,
    W_ADJ = 47,
    W_KICK = -6,
    W_FWD = -5,
    W_NEAR = 9,
    W_GUARD = 10,
    W_CENTRAL = -6,
    W_TEMPO = -2,
    W_THREAT = 0
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

/* The threat (weight 0 now, so the two scores differ by the tempo
 * alone; the position stays for a weight that is not): White R e4 under
 * the ball on e5 could kick it up the
 * empty e-file into e9 (D-FC-3, D-FC-4), were it White's turn. Ball on
 * rank 5 (2 * 4 - 8 = 0, central (4 - 0) * 0 = 0); the rook is next to
 * it, may kick it, forward, near; no piece guards a goal. Black to move:
 * tempo -1 and White threatens, +1; White's sum is Black's score
 * negated. White to move: tempo +1, and Black (not to move, a lone
 * king on i9) threatens nothing, so no threat term: the side to move's
 * own goals are the search's to find. */
Test(evaluate, football_threat_of_the_side_not_to_move)
{
    int32_t white = W_ADJ + W_KICK + W_FWD + W_NEAR;
    cr_expect_eq(eval_of("8k/9/9/9/4*4/4R4/9/9/8K b 0-0 0 9", NULL),
                 -(white - W_TEMPO + W_THREAT));
    cr_expect_eq(eval_of("8k/9/9/9/4*4/4R4/9/9/8K w 0-0 0 9", NULL),
                 white + W_TEMPO);
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

/* Chess volleyball's weights (core/volleyball_eval.c): point 100, set
 * 1000, near hole -10, far hole -10, doubly covered square 3, piece 20,
 * server 0, ball holder 0, reach 5, touches left 5, must pass 0. */
enum {
    V_POINT = 100,
    V_HOLE_NEAR = -10,
    V_HOLE_FAR = -10,
    V_REACH = 5,
    V_TOUCHES = 5
};

/* White Rd1 alone, Black Qa8 alone, ball d3, White to act with no touch
 * made and a free first touch. White's half: 31 pieceless squares; the
 * rook covers a1-c1, e1-h1, d2, d3, d4 (10, each once): near lines
 * (ranks 3-4) 16 - 2 = 14 holes, far lines (ranks 1-2) 15 - 8 = 7.
 * Black's half: the queen covers b8-h8, a7, a6, a5, b7, c6, d5 (13, each
 * once; its diagonal stops at the net): near lines (ranks 5-6) 16 - 4 =
 * 12 holes, far lines (ranks 7-8) 15 - 9 = 6. No square is covered
 * twice, one piece each. White holds the ball: its rook reaches d3 (1),
 * two touches left. White minus Black: near holes 2, far holes 1, reach
 * 1, touches 2. */
#define VB_RALLY "Rd1/Qa8 ball=d3 phase=rally toact=w touches=0 mustpass=0"
Test(evaluate, volleyball_terms_by_hand)
{
    int32_t white =
        V_HOLE_NEAR * 2 + V_HOLE_FAR * 1 + V_REACH * 1 + V_TOUCHES * 2;
    cr_expect_eq(game_eval("volleyball", VB_RALLY, NULL), white);
}

/* Ranks mirrored and colours swapped (White Qa1, Black Rd8, ball d6,
 * Black to act): the same score for the side to act. */
Test(evaluate, volleyball_mirror_is_the_same_for_the_mover)
{
    cr_expect_eq(game_eval("volleyball",
                           "Qa1/Rd8 ball=d6 phase=rally toact=b touches=0 "
                           "mustpass=0",
                           NULL),
                 game_eval("volleyball", VB_RALLY, NULL));
}

/* The score comes first: 100 a point in the set, here White 2:1 up
 * after three minutes. */
Test(evaluate, volleyball_points_count)
{
    cr_expect_eq(
        game_eval("volleyball", VB_RALLY " points=2:1 clock=3 minute=3", NULL),
        game_eval("volleyball", VB_RALLY " clock=3 minute=3", NULL) + V_POINT);
}

/* core_evaluate_classic, Football chess: 15 for each step the ball is
 * nearer the goal the mover attacks than its own (king-step distances of
 * the ball to e1 and e9; the file part cancels) and 8 for each own piece
 * next to the ball, less the opponent's. Ball c4 with Black to move:
 * 6 steps from e9, 4 from e1: 15 * (6 - 4) = 30; next to it Black's n b3
 * (+8) and White's Q d3 (-8). */
Test(evaluate, football_classic_by_the_old_formula)
{
    cr_expect_eq(eval_by(core_evaluate_classic, "football",
                         "k8/9/9/9/9/2*6/1n1Q5/9/3K5 b 0-0 0 9", NULL),
                 30);
}

/* Chess volleyball's classic evaluation is the score alone: 100 a point
 * and 1000 a set for the side to act, nothing for the rally. */
Test(evaluate, volleyball_classic_is_the_score)
{
    cr_expect_eq(eval_by(core_evaluate_classic, "volleyball", VB_RALLY, NULL),
                 0);
    cr_expect_eq(eval_by(core_evaluate_classic, "volleyball",
                         VB_RALLY " points=2:1 clock=3 minute=3", NULL),
                 100);
    cr_expect_eq(eval_by(core_evaluate_classic, "volleyball10",
                         "Qa1/Rd8 ball=d6 phase=rally toact=b touches=0 "
                         "mustpass=0 points=2:1 clock=3 minute=3",
                         NULL),
                 -100);
}

/* Laska's hand-set weights: a commanding soldier 100 plus 6 a rank of
 * advance (from rank 1 for White), an officer 300, an own piece under a
 * commander 40, an enemy one 25. White c1 soldier 100; e3 column w, b,
 * w (top first): 100 + 6 * 2 + 25 + 40 = 177; g3 officer 300; Black d2
 * soldier, five ranks from rank 7: 100 + 30 = 130. White to move:
 * 577 - 130 = 447. Chessball's evaluation has not changed since. */
Test(evaluate, laska_and_chessball_classic)
{
    cr_expect_eq(
        eval_by(core_evaluate_classic, "laska", "w c1w e3wbw g3W d2b", NULL),
        447);
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, core_game_find("chessball"), NULL), 0);
    cr_expect_eq(core_evaluate_classic(pos), core_evaluate(pos));
    core_position_free(pos);
}
