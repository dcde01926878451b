/*
 * test_analyse.c: the search finds forced wins in hand-built positions
 * of every game. Each expectation is derived without the search: the
 * rules core judges the end (core_status), and a plain exhaustive solver
 * written here (every move of the winner's opponent, any move of the
 * winner, no pruning, no table) gives the fewest plies to a forced win.
 * The search must report exactly that distance as its mate score and
 * choose a move after which the solver still sees the win. And `tabula
 * analyse` (the real binary) keeps its help's promise under every limit
 * in every game: the last info line's pv begins with bestmove's move,
 * a legal one, and a finished game gets 'bestmove (none)' alone.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "core.h"
#include "cli_run.h"

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

/* ---- The promise as `tabula analyse` keeps it ----------------------- */

enum { PLAYING, ONE_MOVE, OVER };

/* A position as the command line gives it: the game, then the words
 * after it (a --position and moves, shell-quoted), and its kind. */
typedef struct Spot {
    const char *game;
    const char *where;
    int kind;
} Spot;

/* Of every game: the start, a middle game (reached by random legal
 * moves, tabula moves' lists), a position with one legal move and a
 * finished game (Football chess has no position with one move: 'pass'
 * is always one more). The budget sweep found the promise broken at
 * the start of Laska and of Chess volleyball 10x10 and in the middle
 * games of Laska and both Chess volleyballs: a budget that ran out in
 * the re-search after a root move failed high above the aspiration
 * window played that move, but the last line was the depth before's
 * (`tabula analyse laska --nodes 1795`: the last pv began with a3-b4,
 * bestmove c3-d4). */
static const Spot spots[] = {
    {"laska", "", PLAYING},
    {"laska", "c3-b4 a5xc3 d2xb4 b6-a5 e3-d4 c5xe3 f2xd4 a7-b6 e3-f4 g5xe3",
     PLAYING},
    {"laska", "e3-d4", ONE_MOVE},
    {"laska", "--position 'w c1w g3W d2b' c1xe3", OVER},
    {"chessball", "", PLAYING},
    {"chessball", "f1xg5 f2xd2 e5xf5 h-f1 b2xd2 f1xc2 d2xe2 g2xe2 c5xe4 e2xb3",
     PLAYING},
    {"chessball", "b3xc4 f5xe5 b2xd3 g5xf1 d3xe3", ONE_MOVE},
    {"chessball",
     "e1xf2 d4xc5 axc4 e3-d4 c4xc5 f3-e3 c3xe2 e4xc5 f1xg1 c5xd5 e2xg2", OVER},
    {"football", "", PLAYING},
    {"football",
     "d1-d7 i9-i2 'd7-d4 d4*f6' i2-e2 i1-i5 g9-d6 i5-f5 c9-a7 "
     "'h1-g3 f5*f8' 'd9-e8 e8*h8 h9*f7'",
     PLAYING},
    {"football",
     "'d1-d6 d6*h2' pass 'i1-i2 i2*g2' pass 'd6-e5 h1*f4 e5*h2' pass "
     "'h1-g3 i2*d2 c1*f4 g3*e6 e5*e9'",
     OVER},
    {"volleyball", "", PLAYING},
    {"volleyball",
     "'S Bc3-d2>a5' 'T Ra7-a5>a6' 'T Nc5-a6>b4' 'T Ra4-b4>f4' "
     "'T Ng2-f4>g6' 'T Rh6-g6>g3' 'T Rh3-g3>e3' 'T Bd2-e3>f2' "
     "'P Nf4-d3' 'S Nd3-f2>d3/F'",
     PLAYING},
    {"volleyball", "'S Bc3-d4>b6' 'T Qd8-b6>a5' 'T Ra7-a5>a6'", ONE_MOVE},
    {"volleyball",
     "--position 'Rb1,Ng7/Vg8,Mh8 phase=chess set=2 sets=2:0 "
     "history=w1:0,w1:0 chess=on attackers=w0 king=b1 cfirst=w tomove=w' "
     "'C Rb1-h1'",
     OVER},
    {"volleyball10", "", PLAYING},
    {"volleyball10",
     "'S Nc3-e4>f6' 'T Bd8-f6>g5' 'T Ne4-g5>h3' 'T Ri3-h3>j3' "
     "'S Rh3-j3>j8' 'T Ri8-j8>j7' 'S Rj8-j7>j4' 'T Rj3-j4>d4' "
     "'T Vd1-d4>d1' 'S Bf7-e6>i2' 'P Mg1-j1' 'S Mj1-i2>h3/F' "
     "'S Ng5-h3>j2/F' 'S Bf6-e7>h4' 'R Vd4-a4'",
     PLAYING},
    {"volleyball10", "'S Bf2-e3>a7'", ONE_MOVE},
    {"volleyball10",
     "--position 'Rb1,Ng8/Vi10,Mj10 phase=chess set=2 sets=2:0 "
     "history=w1:0,w1:0 chess=on attackers=w0,w1 king=b1 cfirst=w "
     "tomove=w' 'C Rb1-j1'",
     OVER},
};

/* Every limit the help names, the levels' own and the old searches'
 * included; those without --time give the same lines on every run. */
static const char *const limits[] = {
    "--nodes 1",    "--nodes 50",    "--nodes 500",
    "--nodes 5000", "--depth 1",     "--depth 2",
    "--depth 3",    "--time 1",      "--time 30",
    "--level 1",    "--level 3",     "--level 3 --nodes 500",
    "--level 2:old", "--level 3:classic", "--level 8:old --nodes 5000",
    "--level 8:old --time 30",
};

static Run analysed, listed_moves;

/* *p past the literal text, or 0. */
static int lit(const char **p, const char *text)
{
    size_t n = strlen(text);
    if (strncmp(*p, text, n) != 0)
        return 0;
    *p += n;
    return 1;
}

/* *p past a whole number (with a '-' when sign allows), or 0. */
static int whole(const char **p, int sign)
{
    const char *s = *p + (sign && **p == '-');
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    *p = s;
    return 1;
}

/* One pv move at *p into buf: a word, or a move with spaces in double
 * quotes (only such a move is quoted); 0 when malformed. */
static int pv_move(const char **p, char *buf, size_t cap)
{
    const char *s = *p, *e;
    if (*s == '"') {
        e = strpbrk(++s, "\"\n");
        if (e == NULL || *e != '"' || memchr(s, ' ', (size_t)(e - s)) == NULL)
            return 0;
        *p = e + 1;
    } else {
        e = s + strcspn(s, " \"\n");
        *p = e;
    }
    if (e == s || (size_t)(e - s) >= cap)
        return 0;
    memcpy(buf, s, (size_t)(e - s));
    buf[e - s] = '\0';
    return 1;
}

/* The line at l has exactly the help's shape, "info depth D score
 * (cp X|mate M) nodes N nps N time MS pv MOVE ...\n": its first pv move
 * into first, and the line without its clock readings (nps and time)
 * appended to canon. */
static int info_line(const char *l, char *first, size_t cap, char *canon,
                     size_t canon_cap)
{
    const char *p = l, *clock;
    if (!lit(&p, "info depth ") || !whole(&p, 0) || !lit(&p, " score ") ||
        !(lit(&p, "cp ") || lit(&p, "mate ")) || !whole(&p, 1) ||
        !lit(&p, " nodes ") || !whole(&p, 0))
        return 0;
    clock = p;
    if (!lit(&p, " nps ") || !whole(&p, 0) || !lit(&p, " time ") ||
        !whole(&p, 0))
        return 0;
    const char *pv = p;
    if (!lit(&p, " pv"))
        return 0;
    int n = 0;
    char other[CORE_NOTATION_MAX];
    while (*p == ' ') {
        p++;
        if (n == 0 ? !pv_move(&p, first, cap)
                   : !pv_move(&p, other, sizeof other))
            return 0;
        n++;
    }
    if (n == 0 || *p != '\n')
        return 0;
    size_t len = strlen(canon);
    snprintf(canon + len, canon_cap - len, "%.*s%.*s\n", (int)(clock - l), l,
             (int)(p - pv), pv);
    return 1;
}

/* The work past a --nodes budget the search may do: the root's list
 * and one line of the first root move, each node's moves listed. */
#define SLACK 1000

/* `tabula analyse` at spot under limit, checked line by line; the
 * output without its clock readings into canon. legal is "\n" and
 * tabula moves' list there. */
static void keeps_promise(const Spot *spot, const char *legal,
                          const char *limit, char *canon, size_t canon_cap)
{
    char args[2048];
    snprintf(args, sizeof args, "analyse %s %s %s", spot->game, spot->where,
             limit);
    run_into(&analysed, NULL, args);
    const char *out = analysed.out;
    cr_assert_eq(analysed.status, 0, "%s: %s", args, analysed.err);
    canon[0] = '\0';
    if (spot->kind == OVER) {
        cr_assert_str_eq(out, "bestmove (none)\n", "%s", args);
        cr_assert_not_null(strstr(analysed.err, "result: "), "%s: %s", args,
                           analysed.err);
        snprintf(canon, canon_cap, "%s", out);
        return;
    }
    char first[CORE_NOTATION_MAX] = "";
    int infos = 0;
    const char *l = out, *last = NULL;
    while (strncmp(l, "bestmove ", 9) != 0) {
        cr_assert(info_line(l, first, sizeof first, canon, canon_cap),
                  "%s: not an info line of the help's shape:\n%s", args, out);
        infos++;
        last = l;
        l = strchr(l, '\n') + 1;
    }
    /* --nodes N is kept to within SLACK units (the first root move is
     * searched whole, but stands pat in quiescence once spent: issue 39
     * found a Chessball start's --nodes 100 quiescing 9,743). */
    const char *asked = strstr(limit, "--nodes ");
    if (asked != NULL && last != NULL) {
        unsigned long long budget = strtoull(asked + 8, NULL, 10);
        unsigned long long used = strtoull(strstr(last, " nodes ") + 7, NULL, 10);
        cr_assert_leq(used, budget + SLACK, "%s: %llu units for --nodes %llu:\n%s",
                      args, used, budget, out);
    }
    const char *best = l + 9, *nl = strchr(best, '\n');
    cr_assert(nl != NULL && nl[1] == '\0',
              "%s: bestmove is not one last line:\n%s", args, out);
    cr_assert_gt(infos, 0, "%s: no info line:\n%s", args, out);
    cr_assert_lt(nl - best, CORE_NOTATION_MAX, "%s: %s", args, out);
    char needle[CORE_NOTATION_MAX + 2];
    snprintf(needle, sizeof needle, "\n%.*s\n", (int)(nl - best), best);
    cr_assert_not_null(strstr(legal, needle),
                       "%s: bestmove %.*s is not in tabula moves' list", args,
                       (int)(nl - best), best);
    cr_assert(strlen(first) == (size_t)(nl - best) &&
                  strncmp(first, best, (size_t)(nl - best)) == 0,
              "%s: the last pv begins with %s, bestmove is %.*s:\n%s", args,
              first, (int)(nl - best), best, out);
    size_t len = strlen(canon);
    snprintf(canon + len, canon_cap - len, "%s", l);
}

/* The promise at every spot of game under every limit (twice where the
 * lines must be the same), and at its start and middle game under
 * budgets from 100 to 100000 work units, 5% apart. */
static void promise_kept(const char *game)
{
    static char legal[sizeof listed_moves.out + 1];
    static char canon[sizeof analysed.out], again[sizeof analysed.out];
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
        const Spot *spot = &spots[i];
        if (strcmp(spot->game, game) != 0)
            continue;
        char args[2048];
        snprintf(args, sizeof args, "moves %s %s", game, spot->where);
        run_into(&listed_moves, NULL, args);
        cr_assert_eq(listed_moves.status, 0, "%s: %s", args,
                     listed_moves.err);
        cr_assert_lt(strlen(listed_moves.out), sizeof listed_moves.out - 1,
                     "%s: the list is longer than the buffer", args);
        size_t moves = 0;
        for (const char *c = listed_moves.out; *c != '\0'; c++)
            moves += *c == '\n';
        cr_assert(spot->kind == OVER       ? moves == 0
                  : spot->kind == ONE_MOVE ? moves == 1
                                           : moves > 1,
                  "%s: %zu moves", args, moves);
        snprintf(legal, sizeof legal, "\n%s", listed_moves.out);
        for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
            keeps_promise(spot, legal, limits[k], canon, sizeof canon);
            if (strstr(limits[k], "--time") != NULL)
                continue;
            keeps_promise(spot, legal, limits[k], again, sizeof again);
            cr_assert_str_eq(canon, again, "%s %s %s: two runs differ", game,
                             spot->where, limits[k]);
        }
        if (spot->kind != PLAYING)
            continue;
        for (uint64_t budget = 100; budget <= 100000; budget += budget / 20) {
            char limit[64];
            snprintf(limit, sizeof limit, "--nodes %llu",
                     (unsigned long long)budget);
            keeps_promise(spot, legal, limit, canon, sizeof canon);
        }
    }
}

Test(analyse, the_last_pv_begins_with_bestmove_in_laska)
{
    promise_kept("laska");
}

Test(analyse, the_last_pv_begins_with_bestmove_in_chessball)
{
    promise_kept("chessball");
}

Test(analyse, the_last_pv_begins_with_bestmove_in_football)
{
    promise_kept("football");
}

Test(analyse, the_last_pv_begins_with_bestmove_in_volleyball)
{
    promise_kept("volleyball");
}

Test(analyse, the_last_pv_begins_with_bestmove_in_volleyball10)
{
    promise_kept("volleyball10");
}
