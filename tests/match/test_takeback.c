/*
 * test_takeback.c: the one rule of what a plain `takeback` undoes
 * (match_takeback_plies), which a network seat, the terminal's local game
 * and the page's local game all ask. Hand-worked Laska cases, then random
 * games of every game checked against a second method: the page's old
 * walk (drop the last ply, then keep dropping while the side to move is
 * not one of the player's), which agrees wherever the player has a ply.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core.h"
#include "match.h"

static Core_Position *start_of(const char *game)
{
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, core_game_find(game), NULL), 0);
    return pos;
}

/* Laska: c3-d4 (White), e5xc3 (Black jumps d4 to the c3 it left, as
 * docs/rules/laska.md has it), b2xd4 (White's capture back; `tabula
 * moves laska c3-d4 e5xc3` gives b2xd4 and d2xb4). */
Test(takeback, laska_by_hand)
{
    static const char *const texts[] = {"c3-d4", "e5xc3", "b2xd4"};
    Core_Position *start = start_of("laska"), *pos = start_of("laska");
    Core_Move moves[3];
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(core_move_parse(pos, texts[i], &moves[i]), 0, "%s",
                     texts[i]);
        cr_assert_eq(core_play(pos, &moves[i]), 0);
    }
    /* White's last ply is the third: one ply back */
    cr_assert_eq(match_takeback_plies(start, moves, 3, 1u), 1);
    /* Black's last ply is the second: it and White's reply */
    cr_assert_eq(match_takeback_plies(start, moves, 3, 2u), 2);
    /* after White's first ply alone, Black has nothing to take back */
    cr_assert_eq(match_takeback_plies(start, moves, 1, 2u), 0);
    cr_assert_eq(match_takeback_plies(start, moves, 1, 1u), 1);
    /* two players at one device (or none): the last ply */
    cr_assert_eq(match_takeback_plies(start, moves, 3, 3u), 1);
    cr_assert_eq(match_takeback_plies(start, moves, 3, 0u), 1);
    cr_assert_eq(match_takeback_plies(start, moves, 0, 1u), 0);
    cr_assert_eq(match_takeback_plies(start, moves, 0, 3u), 0);
    /* a move the start does not take: nothing */
    cr_assert_eq(match_takeback_plies(start, moves + 1, 2, 1u), 0);
    core_position_free(pos);
    core_position_free(start);
}

/* The side to move after the first k of moves. */
static int side_after(const Core_Position *start, const Core_Move *moves,
                      size_t k)
{
    Core_Position *p = core_position_clone(start);
    cr_assert_not_null(p);
    for (size_t i = 0; i < k; i++)
        cr_assert_eq(core_play(p, &moves[i]), 0);
    int side = core_side_to_move(p);
    core_position_free(p);
    return side;
}

Test(takeback, random_games_agree_with_the_pages_old_walk)
{
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    size_t runs_twice = 0; /* plies where a side moved twice running */
    for (size_t g = 0; g < core_game_count(); g++) {
        const Core_Game *game = core_game_at(g);
        size_t cap = core_game_max_moves(game);
        Core_Move *buf = malloc(cap * sizeof *buf), moves[60];
        cr_assert_not_null(buf);
        for (int round = 0; round < 6; round++) {
            Core_Position *start = NULL, *pos = NULL;
            cr_assert_eq(core_position_new(&start, game, NULL), 0);
            pos = core_position_clone(start);
            size_t n = 0, count = 0;
            int prev = -1;
            while (n < 60 && core_moves(pos, buf, cap, &count) == 0 &&
                   count > 0) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                int side = core_side_to_move(pos);
                runs_twice += side == prev;
                prev = side;
                moves[n] = buf[(rng >> 33) % count];
                cr_assert_eq(core_play(pos, &moves[n++]), 0);
                for (unsigned sides = 1; sides <= 2; sides++) {
                    size_t keep = n - 1, theirs = 0;
                    for (size_t i = 0; i < n; i++)
                        theirs += (sides >> side_after(start, moves, i)) & 1u;
                    while (keep > 0 &&
                           !((sides >> side_after(start, moves, keep)) & 1u))
                        keep--;
                    size_t want = theirs ? n - keep : 0;
                    cr_assert_eq(match_takeback_plies(start, moves, n, sides),
                                 want, "%s round %d ply %zu sides %u",
                                 core_game_name(game), round, n, sides);
                }
            }
            core_position_free(pos);
            core_position_free(start);
        }
        free(buf);
    }
    /* Chess volleyball's touches: the case the rule exists for was met */
    cr_assert_gt(runs_twice, 0);
}
