/*
 * test_forcing.c: core_move_forcing, the query that names a move's
 * immediate gain without making it, for every game. Expectations come
 * from hand-built positions read by eye (which piece stands on the
 * target field, how many jumps a Laska path has, where the ball ends) or,
 * for Chess volleyball, from the notation of every listed action by the
 * spec's rule (4.3: a serve that is not a fault, or a touch that lands
 * on the opponent's half or rebounds, crosses the net) and, for an ace,
 * from the score after making it.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

typedef struct Expect {
    const char *move; /* canonical notation */
    int32_t value;
} Expect;

/* Every legal move of text (game name) must have the value listed for
 * it, 0 when not listed; each listed move must be legal. */
static void expect_values(const char *name, const char *text, const Expect *ex,
                          size_t nex)
{
    const Core_Game *g = core_game_find(name);
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0, "%s: %s",
                 text, why);
    size_t cap = core_game_max_moves(g), n = 0, seen = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, cap, &n), 0);
    for (size_t i = 0; i < n; i++) {
        char t[CORE_NOTATION_MAX];
        int32_t want = 0;
        cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
        for (size_t k = 0; k < nex; k++)
            if (strcmp(ex[k].move, t) == 0) {
                want = ex[k].value;
                seen++;
            }
        cr_expect_eq(core_move_forcing(pos, &buf[i]), want, "%s: %s gives %d",
                     text, t, core_move_forcing(pos, &buf[i]));
    }
    cr_assert_eq(seen, nex, "%s: a listed move is not legal", text);
    free(buf);
    core_position_free(pos);
}

/* The White knight on f1 reaches c1, c2, f2 and f5 (D-CB-4); a Black
 * pawn stands on c2 and a Black bishop on f2: 100 and 325, the rest
 * quiet. */
Test(forcing, chessball_captures_by_value)
{
    static const Expect ex[] = {{"f1xc2", 100}, {"f1xf2", 325}};
    expect_values("chessball", "k/5/1p3/5/5/Nb3/5/K w 0 0", ex, 2);
}

/* The same knight takes a Black queen on c2: 850. */
Test(forcing, chessball_queen_capture)
{
    static const Expect ex[] = {{"f1xc2", 850}};
    expect_values("chessball", "k/5/1q3/5/5/Nb3/5/K w 0 0", ex, 1);
}

/* No piece of either side can reach another at the start of Laska:
 * every move is quiet. */
Test(forcing, laska_start_is_quiet)
{
    expect_values("laska",
                  "w a1w c1w e1w g1w b2w d2w f2w a3w c3w e3w g3w a5b c5b "
                  "e5b g5b b6b d6b f6b a7b c7b e7b g7b 0 0",
                  NULL, 0);
}

/* c1 jumps d2 to e3 and on over d4 to c5 (D-LA-4: the whole chain is
 * one move): one prisoner is 100, two are 200. */
Test(forcing, laska_jumps_count)
{
    static const Expect one[] = {{"c1xe3", 100}};
    static const Expect two[] = {{"c1xe3xc5", 200}};
    expect_values("laska", "w c1w g3W d2b", one, 1);
    expect_values("laska", "w c1w d2b d4b", two, 1);
}

/* Football chess, White to move, the ball on e5 and a White rook on e4:
 * the rook's kick up the file into e9 (Black's goal, which White
 * attacks) scores, with or without a king move first; nothing else
 * does. */
Test(forcing, football_goal)
{
    static const Expect ex[] = {{"e4*e9", CORE_FORCING_GOAL},
                                {"i1-h1 e4*e9", CORE_FORCING_GOAL},
                                {"i1-h2 e4*e9", CORE_FORCING_GOAL},
                                {"i1-i2 e4*e9", CORE_FORCING_GOAL}};
    expect_values("football", "8k/9/9/9/4*4/4R4/9/9/8K w 0-0 0 9", ex, 4);
}

/* The points side has scored in the match: its entries in the position
 * string's goal log ("goals=w2,b-,..."; a set's end resets the points
 * but not the log). */
static int goals_of(const Core_Position *pos, int side)
{
    char text[CORE_POSITION_TEXT_MAX];
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    const char *p = strstr(text, " goals=");
    cr_assert_not_null(p);
    char want = side == CORE_WHITE ? 'w' : 'b';
    int n = 0;
    for (p += 7; *p != '\0' && *p != ' '; p++)
        n += *p == want && (p[-1] == '=' || p[-1] == ',');
    return n;
}

/* Chess volleyball, both boards: along a seeded playout, every listed
 * action's value follows from its notation: a crossing is "S ..."
 * without "/F", or "T ..." landing on the opponent's half (White's half:
 * the first half of the ranks) or rebounding ("^"). On 10x10 a crossing
 * is 1. On 8x8 it is 100 when it is an ace, and then making it must
 * score a point for the mover at once (its goal log grows), or 0. Everything
 * else is 0. */
static void volleyball_playout(const char *name, int ranks)
{
    const Core_Game *g = core_game_find(name);
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    size_t cap = core_game_max_moves(g), n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    cr_assert_not_null(buf);
    uint64_t rng = 7;
    int crossing = 0, aces = 0;
    for (int ply = 0; ply < 300 && core_status(pos).outcome == CORE_ONGOING;
         ply++) {
        cr_assert_eq(core_moves(pos, buf, cap, &n), 0);
        int white = core_side_to_move(pos) == CORE_WHITE;
        for (size_t i = 0; i < n; i++) {
            char t[CORE_NOTATION_MAX];
            cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
            int cross = 0;
            const char *land = strchr(t, '>');
            if (t[0] == 'S')
                cross = strstr(t, "/F") == NULL;
            else if (t[0] == 'T') {
                cr_assert_not_null(land);
                int rank = (int)strtol(land + 2, NULL, 10); /* ">g5" */
                int own_half_white = rank <= ranks / 2;
                cross = strchr(t, '^') != NULL || own_half_white != white;
            }
            int32_t f = core_move_forcing(pos, &buf[i]);
            if (!cross || ranks == 10) {
                cr_assert_eq(f, cross, "%s: %s", name, t);
            } else if (f != 0) {
                cr_assert_eq(f, 100, "%s: %s", name, t);
                int side = core_side_to_move(pos);
                Core_Position *c = core_position_clone(pos);
                cr_assert_not_null(c);
                core_make(c, &buf[i]);
                cr_assert_gt(goals_of(c, side), goals_of(pos, side),
                             "%s: %s is no ace", name, t);
                core_position_free(c);
                aces++;
            }
            crossing += cross;
        }
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        core_make(pos, &buf[(rng >> 33) % n]);
    }
    cr_assert_gt(crossing, 0, "%s: the playout never crossed the net", name);
    if (ranks == 8)
        cr_assert_gt(aces, 0, "%s: the playout met no ace", name);
    free(buf);
    core_position_free(pos);
}

Test(forcing, volleyball_shots_cross_the_net)
{
    volleyball_playout("volleyball", 8);
    volleyball_playout("volleyball10", 10);
}

/* core_forcing_find in the goal position above: the turns are walked in
 * canonical order, kicks without a piece move first, so the rook's kick
 * alone is the first goal found. */
Test(forcing, football_find_names_the_goal)
{
    const Core_Game *g = core_game_find("football");
    Core_Position *pos = NULL;
    Core_Move mv;
    int32_t gain = 0;
    char t[CORE_NOTATION_MAX];
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    cr_assert_eq(
        core_position_parse(pos, "8k/9/9/9/4*4/4R4/9/9/8K w 0-0 0 9", NULL, 0),
        0);
    cr_assert_eq(core_forcing_find(pos, &mv, &gain), 1);
    cr_assert_eq(core_move_format(pos, &mv, t, sizeof t), 0);
    cr_expect_str_eq(t, "e4*e9");
    cr_expect_eq(gain, CORE_FORCING_GOAL);
    core_position_free(pos);
}

/* Football chess, a second method: along seeded random playouts (a match
 * to 20 goals, so goals do not end it), core_forcing_find answers 1 with
 * exactly the first listed move that core_move_forcing values, and 0
 * where no listed move is forcing. Both answers must occur. */
Test(forcing, football_find_agrees_with_the_list)
{
    const Core_Game *g = core_game_find("football");
    size_t cap = core_game_max_moves(g), n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    int seen[2] = {0, 0};
    uint64_t rng = 11;
    cr_assert_not_null(buf);
    for (int game = 0; game < 4; game++) {
        Core_Position *pos = NULL;
        cr_assert_eq(core_position_new(&pos, g, "goals=20"), 0);
        for (int ply = 0; ply < 150 && core_status(pos).outcome == CORE_ONGOING;
             ply++) {
            cr_assert_eq(core_moves(pos, buf, cap, &n), 0);
            size_t first = n;
            for (size_t i = 0; i < n && first == n; i++)
                if (core_move_forcing(pos, &buf[i]) > 0)
                    first = i;
            Core_Move mv;
            int32_t gain = 0;
            int found = core_forcing_find(pos, &mv, &gain);
            cr_assert_eq(found, first < n, "ply %d", ply);
            if (found) {
                cr_assert(core_move_equal(&mv, &buf[first]), "ply %d", ply);
                cr_assert_eq(gain, CORE_FORCING_GOAL);
            }
            seen[found]++;
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            /* Every fourth ply plays the goal when there is one, so the
             * playouts also pass through positions after goals. */
            core_make(pos,
                      found && (rng >> 62) == 0 ? &mv : &buf[(rng >> 33) % n]);
        }
        core_position_free(pos);
    }
    cr_expect_gt(seen[0], 0);
    cr_expect_gt(seen[1], 0, "no position with a goal to score");
    free(buf);
}

/* The games whose lists are short enough to list have no such query. */
Test(forcing, find_is_football_only)
{
    static const char *const names[] = {"laska", "chessball", "volleyball",
                                        "volleyball10"};
    for (size_t i = 0; i < 4; i++) {
        Core_Position *pos = NULL;
        Core_Move mv;
        int32_t gain = 0;
        cr_assert_eq(core_position_new(&pos, core_game_find(names[i]), NULL),
                     0);
        cr_expect_eq(core_forcing_find(pos, &mv, &gain), TB_E_STATE, "%s",
                     names[i]);
        core_position_free(pos);
    }
}

/* core_in_check, text: 1 or 0 expected. */
static void expect_check(const char *name, const char *text, int want)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    cr_assert_eq(core_position_new(&pos, core_game_find(name), NULL), 0);
    if (text != NULL)
        cr_assert_eq(core_position_parse(pos, text, why, sizeof why), 0,
                     "%s: %s", text, why);
    cr_expect_eq(core_in_check(pos), want, "%s %s", name,
                 text != NULL ? text : "start");
    core_position_free(pos);
}

/* A Black pawn on the hexagon g1 is next to the pentagon h, a field of
 * the other colour, so it attacks the White king there (D-CB-6, D-CB-7);
 * on c1 it attacks nothing near h. Neither side is in check at the
 * start, and games without check never are. */
Test(forcing, chessball_in_check)
{
    expect_check("chessball", "k/5/5/5/5/5/p4/K w 0 0", 1);
    expect_check("chessball", "k/5/p4/5/5/5/5/K w 0 0", 0);
    expect_check("chessball", NULL, 0);
    expect_check("laska", NULL, 0);
    expect_check("football", NULL, 0);
    expect_check("volleyball", NULL, 0);
}
