/*
 * test_analyse.c: the search finds forced wins in hand-built positions
 * of every game. Each expectation is derived without the search: the
 * rules core judges the end (core_status), and a plain exhaustive solver
 * written here (every move of the winner's opponent, any move of the
 * winner, no pruning, no table) gives the fewest plies to a forced win.
 * The search must report exactly that distance as its mate score and
 * choose a move after which the solver still sees the win.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "core.h"

/* Can `winner` force a win from pos within plies plies? */
static int forced_win(const Core_Position *pos, int winner, int plies)
{
    Core_Status st = core_status(pos);
    if (st.outcome != CORE_ONGOING)
        return st.outcome == (winner == CORE_WHITE ? CORE_WIN_WHITE
                                                   : CORE_WIN_BLACK);
    if (plies == 0)
        return 0;
    const Core_Game *g = core_position_game(pos);
    size_t cap = core_game_max_moves(g), n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, cap, &n), 0);
    int mover_wins = core_side_to_move(pos) == winner;
    int result = mover_wins ? 0 : 1;
    Core_Position *c = core_position_clone(pos);
    for (size_t i = 0; i < n; i++) {
        core_position_copy(c, pos);
        core_make(c, &buf[i]);
        int w = forced_win(c, winner, plies - 1);
        if (mover_wins && w) {
            result = 1;
            break;
        }
        if (!mover_wins && !w) {
            result = 0;
            break;
        }
    }
    core_position_free(c);
    free(buf);
    return result;
}

static void last_info(void *ctx, const Bot_Info *info)
{
    *(Bot_Info *)ctx = *info;
}

/* The top level's limits, its last info line kept in *info (cleared). */
static Bot_Limits watched(Bot_Info *info)
{
    Bot_Limits lim = bot_limits_level(BOT_LEVEL_MAX);
    memset(info, 0, sizeof *info);
    lim.info = last_info;
    lim.info_ctx = info;
    return lim;
}

/* The search on text (a position of game name, options opts) must find
 * the side to move's forced win in exactly the solver's fewest plies,
 * at most max_plies. */
static void expect_win(const char *name, const char *opts, const char *text,
                       int max_plies)
{
    const Core_Game *g = core_game_find(name);
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_not_null(g, "%s", name);
    cr_assert_eq(core_position_new(&pos, g, opts), 0);
    cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0, "%s: %s",
                 text, why);
    int me = core_side_to_move(pos);
    int fewest = 0;
    while (fewest <= max_plies && !forced_win(pos, me, fewest))
        fewest++;
    cr_assert_leq(fewest, max_plies, "%s: no forced win found by the solver",
                  text);

    for (uint64_t seed = 1; seed <= 3; seed++) {
        Bot_Info info;
        Bot_Limits lim = watched(&info);
        Bot_Stats stats;
        Core_Move mv;
        lim.depth = 20;
        lim.nodes = 2000000;
        cr_assert_eq(bot_search(pos, &lim, seed, &mv, &stats), 0);
        cr_assert_geq(info.score, BOT_MATE_MIN, "%s: score %d, no win seen",
                      text, info.score);
        cr_assert_eq(BOT_WIN - info.score, fewest,
                     "%s: win in %d plies reported, the solver says %d", text,
                     BOT_WIN - info.score, fewest);
        Core_Position *after = core_position_clone(pos);
        cr_assert_eq(core_play(after, &mv), 0);
        cr_assert(forced_win(after, me, fewest - 1),
                  "%s seed %llu: the chosen move lets the win go", text,
                  (unsigned long long)seed);
        core_position_free(after);
    }
    core_position_free(pos);
}

/* Laska: White's c1 must take d2 (captures are compulsory) and Black has
 * nothing left: a forced capture wins at once. */
Test(analyse, laska_forced_capture_wins)
{
    expect_win("laska", NULL, "w c1w g3W d2b", 1);
}

/* Laska: Black's lone soldier d2 is hemmed in; White needs three moves
 * of its own (five plies) to leave it no move. */
Test(analyse, laska_win_in_three)
{
    expect_win("laska", NULL, "w c1w e3w g3W d2b", 7);
}

/* Laska: a lone officer against a lone soldier: nine plies. */
Test(analyse, laska_win_in_five)
{
    expect_win("laska", NULL, "w a1W d2b", 11);
}

/* Chessball: the position of D-CB-7's checkmate test with the knight one
 * move away (f1); f1-c1 mates. */
Test(analyse, chessball_mate_in_one)
{
    expect_win("chessball", NULL, "k/rpppr/5/5/5/N4/5/K w 0 0", 3);
}

/* Football chess, first to one goal: the rook next to the ball kicks it
 * into e9. */
Test(analyse, football_goal_in_one)
{
    expect_win("football", NULL, "8k/9/9/9/4*4/4R4/9/9/8K w 0-0 0 9", 1);
}

/* Chess volleyball's chess stage (test c1_mate_in_one of
 * test_volleyball.c): C Rb1-h1 mates. */
Test(analyse, volleyball_mate_in_one)
{
    expect_win("volleyball", NULL,
               "Rb1,Ng7/Vg8,Mh8 phase=chess set=2 sets=2:0 "
               "history=w1:0,w1:0 chess=on attackers=w0 king=b1 cfirst=w "
               "tomove=w",
               3);
}

/* Chess volleyball 10x10, chess stage: the Black King on j10 is boxed in
 * by its own Vizier on i10. With a White knight on g8 guarding i9,
 * Rb1-j1 mates at once; with a second rook on c2 instead the mate takes
 * two moves (Rb1-i1 takes the i-file, then the other rook the j-file). */
Test(analyse, volleyball10_mate_in_one)
{
    expect_win("volleyball10", NULL,
               "Rb1,Ng8/Vi10,Mj10 phase=chess set=2 sets=2:0 "
               "history=w1:0,w1:0 chess=on attackers=w0,w1 king=b1 "
               "cfirst=w tomove=w",
               3);
}

Test(analyse, volleyball10_mate_in_two)
{
    expect_win("volleyball10", NULL,
               "Rb1,Rc2/Vi10,Mj10 phase=chess set=2 sets=2:0 "
               "history=w1:0,w1:0 chess=on attackers=w0,w1 king=b1 "
               "cfirst=w tomove=w",
               5);
}

/* The search on game's start with a budget of nodes work units: the last
 * info line's pv begins with the move chosen. */
static void check_last_pv(const char *game, uint64_t nodes)
{
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, core_game_find(game), NULL), 0);
    Bot_Info info;
    Bot_Limits lim = watched(&info);
    Core_Move best;
    lim.depth = 60;
    lim.nodes = nodes;
    cr_assert_eq(bot_search(pos, &lim, 1, &best, NULL), 0);
    cr_assert_gt(info.pv_len, 0, "%s, %llu work units: no info line", game,
                 (unsigned long long)nodes);
    cr_assert(core_move_equal(&info.pv[0], &best), "%s, %llu work units", game,
              (unsigned long long)nodes);
    core_position_free(pos);
}

/* A search stopped inside a depth after it found a move better than the
 * last depth's plays that move, and says so: the last line's pv begins
 * with the move chosen (as UCI GUIs expect of bestmove). At 100000 work
 * units from Laska's start the budget ends inside a depth whose search
 * changed its mind (found while fixing it: the last line's pv began with
 * e3-f4, the move played was c3-b4). Too small a budget still searches
 * one root move to its end: before, Chessball's start under 9743 units
 * played the ordering's first move and printed no line (a new-user
 * trial). */
/* A clock that has always run out: each reading is a second past the
 * last, so a 1 ms limit is over at the first look. */
static uint64_t racing_clock(void *ctx)
{
    uint64_t *t = ctx;
    return *t += 1000;
}

/* The time limit, too, lets the first root move finish (a trial saw
 * `tabula analyse GAME --time 1` print bestmove alone in every game). */
Test(analyse, a_time_limit_still_searches_one_root_move)
{
    static const char *const names[] = {"laska", "chessball", "football",
                                        "volleyball", "volleyball10"};
    for (size_t g = 0; g < sizeof names / sizeof names[0]; g++) {
        Core_Position *pos = NULL;
        cr_assert_eq(core_position_new(&pos, core_game_find(names[g]), NULL),
                     0);
        uint64_t t = 0;
        Bot_Info info;
        Bot_Limits lim = watched(&info);
        Core_Move best;
        lim.depth = 60;
        lim.time_ms = 1;
        lim.clock_ms = racing_clock;
        lim.clock_ctx = &t;
        cr_assert_eq(bot_search(pos, &lim, 1, &best, NULL), 0);
        cr_assert_gt(info.pv_len, 0, "%s: no info line", names[g]);
        cr_assert(core_move_equal(&info.pv[0], &best), "%s", names[g]);
        core_position_free(pos);
    }
}

Test(analyse, the_last_pv_begins_with_the_move_played)
{
    check_last_pv("chessball", 1);
    check_last_pv("chessball", 5000);
    for (uint64_t nodes = 20000; nodes <= 200000; nodes += 20000)
        check_last_pv("laska", nodes);
}

typedef struct Lines {
    int n;
    Bot_Info info[8];
} Lines;

static void keep_line(void *ctx, const Bot_Info *info)
{
    Lines *l = ctx;
    if (l->n < 8)
        l->info[l->n] = *info;
    l->n++;
}

/* The old search (':old', ':classic') reports each finished depth too,
 * with its root move as the pv (it keeps no line beyond it): a depth cap
 * of 3 plies and a budget that cannot run out give the lines of depths
 * 1, 2 and 3, the last one's move the move played (a trial saw `tabula
 * analyse --level 8:classic` print bestmove alone). */
Test(analyse, the_old_search_prints_a_line_per_depth)
{
    static const char *const names[] = {"laska", "chessball", "football",
                                        "volleyball", "volleyball10"};
    for (size_t g = 0; g < sizeof names / sizeof names[0]; g++) {
        for (int classic = 0; classic <= 1; classic++) {
            Core_Position *pos = NULL;
            cr_assert_eq(
                core_position_new(&pos, core_game_find(names[g]), NULL), 0);
            Lines lines;
            memset(&lines, 0, sizeof lines);
            Bot_Limits lim = bot_limits_level(3);
            lim.old = 1;
            lim.classic = classic;
            lim.nodes = UINT64_C(1) << 40;
            lim.info = keep_line;
            lim.info_ctx = &lines;
            Core_Move best;
            Bot_Stats st;
            cr_assert_eq(bot_search(pos, &lim, 1, &best, &st), 0);
            cr_assert_eq(lines.n, 3, "%s classic %d: %d lines", names[g],
                         classic, lines.n);
            for (int i = 0; i < 3; i++) {
                cr_expect_eq(lines.info[i].depth, i + 1, "%s", names[g]);
                cr_expect_eq(lines.info[i].pv_len, 1, "%s", names[g]);
            }
            cr_expect(core_move_equal(&lines.info[2].pv[0], &best), "%s",
                      names[g]);
            cr_expect_eq(lines.info[2].score, st.score, "%s", names[g]);
            cr_expect_eq(lines.info[2].nodes, st.nodes, "%s", names[g]);
            core_position_free(pos);
        }
    }
}
