/*
 * test_football.c: Football chess (seed 001, D-FC-1..8). Hand-built
 * positions for each decision, perft counts checked against a second,
 * deliberately naive generator written here (every square pair tried
 * against plain rule predicates), the goals=N match option, repetition
 * and the move rule (G-FC-1), and hostile notation, positions and bytes.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define START "rnbq1kbnr/9/9/9/4*4/9/9/9/RNBQ1KBNR w 0-0 0 0"

/* ---- helpers over the public interface ------------------------------ */

static Core_Position *setup(const char *position, const char *options)
{
    Core_Position *pos = NULL;
    char why[200] = "";
    const Core_Game *g = core_game_find("football");
    cr_assert_not_null(g);
    cr_assert_eq(core_position_new(&pos, g, options), 0);
    if (position != NULL) {
        int rc = core_position_parse(pos, position, why, sizeof why);
        cr_assert_eq(rc, 0, "position %s: %s", position, why);
    }
    return pos;
}

/* All moves of pos as notation, one string per move, NUL-separated in a
 * heap block; *n gets the count. */
typedef struct Move_List {
    char (*text)[CORE_NOTATION_MAX];
    size_t n;
} Move_List;

static Move_List list_moves(const Core_Position *pos)
{
    const Core_Game *g = core_position_game(pos);
    size_t cap = core_game_max_moves(g);
    Core_Move *buf = malloc(cap * sizeof *buf);
    Move_List l = {NULL, 0};
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, cap, &l.n), 0);
    l.text = malloc((l.n + 1) * sizeof *l.text);
    cr_assert_not_null(l.text);
    for (size_t i = 0; i < l.n; i++)
        cr_assert_eq(
            core_move_format(pos, &buf[i], l.text[i], sizeof l.text[i]), 0);
    free(buf);
    return l;
}

static int has_move(const Move_List *l, const char *text)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->text[i], text) == 0)
            return 1;
    return 0;
}

/* Moves whose text starts with prefix. */
static size_t count_prefix(const Move_List *l, const char *prefix)
{
    size_t c = 0;
    for (size_t i = 0; i < l->n; i++)
        c += strncmp(l->text[i], prefix, strlen(prefix)) == 0;
    return c;
}

static void play(Core_Position *pos, const char *text)
{
    Core_Move mv;
    int rc = core_move_parse(pos, text, &mv);
    cr_assert_eq(rc, 0, "parse '%s': %s", text, tb_errname(rc));
    cr_assert_eq(core_play(pos, &mv), 0, "play '%s'", text);
}

static int parse_rc(const Core_Position *pos, const char *text)
{
    Core_Move mv;
    return core_move_parse(pos, text, &mv);
}

static uint64_t perft(const Core_Position *pos, unsigned depth)
{
    uint64_t n = 0;
    cr_assert_eq(core_perft(pos, depth, &n), 0);
    return n;
}

/* ---- a second, naive generator ----------------------------------------
 *
 * Written from the rules text, not from football.c: a board of letters,
 * and for every turn part every (from, to) square pair is tested with a
 * predicate that checks the geometry square by square.
 */

typedef struct Ref {
    char sq[81]; /* 0 empty, else KQRBN / kqrbn */
    int ball;
    int side; /* 0 White, 1 Black */
    int score[2];
    int goals;
} Ref;

static int ref_is_goal(int s)
{
    return s == 4 || s == 76; /* e1, e9 */
}

static int ref_abs(int v)
{
    return v < 0 ? -v : v;
}

static int ref_side_of(char c)
{
    return c >= 'a' ? 1 : 0;
}

static char ref_upper(char c)
{
    return c >= 'a' ? (char)(c - 'a' + 'A') : c;
}

static void ref_parse(Ref *r, const char *text, int goals)
{
    int f = 0, rank = 8;
    memset(r, 0, sizeof *r);
    r->goals = goals;
    for (; *text != ' '; text++) {
        if (*text == '/') {
            rank--;
            f = 0;
        } else if (*text >= '1' && *text <= '9') {
            f += *text - '0';
        } else {
            if (*text == '*')
                r->ball = rank * 9 + f;
            else
                r->sq[rank * 9 + f] = *text;
            f++;
        }
    }
    r->side = text[1] == 'b';
    r->score[0] = text[3] - '0';
    r->score[1] = text[5] - '0';
}

/* Squares strictly between a and b on a line, all empty of pieces and not
 * the ball. */
static int ref_path_clear(const Ref *r, int a, int b)
{
    int df = b % 9 - a % 9, dr = b / 9 - a / 9;
    int n = ref_abs(df) > ref_abs(dr) ? ref_abs(df) : ref_abs(dr);
    int sf = df > 0 ? 1 : df < 0 ? -1 : 0, sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
    for (int i = 1; i < n; i++) {
        int s = a + i * sf + i * sr * 9;
        if (r->sq[s] != 0 || s == r->ball)
            return 0;
    }
    return 1;
}

static int ref_can_move(const Ref *r, int from, int to)
{
    char c = r->sq[from];
    if (c == 0 || ref_side_of(c) != r->side || from == to)
        return 0;
    if (r->sq[to] != 0 || to == r->ball || ref_is_goal(to))
        return 0;
    int df = ref_abs(to % 9 - from % 9), dr = ref_abs(to / 9 - from / 9);
    int orth = df == 0 || dr == 0, diag = df == dr;
    switch (ref_upper(c)) {
    case 'K':
        return df <= 1 && dr <= 1;
    case 'N':
        return (df == 1 && dr == 2) || (df == 2 && dr == 1);
    case 'R':
        return orth && ref_path_clear(r, from, to);
    case 'B':
        return diag && ref_path_clear(r, from, to);
    case 'Q':
        return (orth || diag) && ref_path_clear(r, from, to);
    }
    return 0;
}

/* May the piece on k kick the ball (r->ball) to land? */
static int ref_can_kick(const Ref *r, int k, int land)
{
    char c = r->sq[k];
    int b = r->ball;
    if (c == 0 || ref_side_of(c) != r->side)
        return 0;
    int kf = b % 9 - k % 9, kr = b / 9 - k / 9;
    if (ref_abs(kf) > 1 || ref_abs(kr) > 1)
        return 0; /* the ball must be next to the kicker */
    int diag = kf != 0 && kr != 0;
    char t = ref_upper(c);
    if ((t == 'R' && diag) || (t == 'B' && !diag))
        return 0;
    if (r->sq[land] != 0 || land == b)
        return 0;
    int from_goal_rank = b / 9 == 0 || b / 9 == 8;
    int lf = land % 9 - b % 9, lr = land / 9 - b / 9;
    if (t == 'N') {
        int ok = (ref_abs(lf) == 1 && ref_abs(lr) == 2) ||
                 (ref_abs(lf) == 2 && ref_abs(lr) == 1);
        int near =
            ref_abs(land % 9 - k % 9) <= 1 && ref_abs(land / 9 - k / 9) <= 1;
        return ok && !near && !(from_goal_rank && ref_is_goal(land));
    }
    /* Along the kick direction: land = b + s * (kf, kr), s >= 1. */
    int s = kf != 0 ? lf / kf : lr / kr;
    if (s < 1 || lf != s * kf || lr != s * kr)
        return 0;
    if (t == 'K' && s != 1)
        return 0;
    for (int i = 1; i <= s; i++) {
        int q = b + i * kf + i * kr * 9;
        if (from_goal_rank && ref_is_goal(q))
            return 0;
        if (i < s && (r->sq[q] != 0 || ref_is_goal(q)))
            return 0;
    }
    return 1;
}

typedef struct Ref_Walk {
    unsigned depth; /* plies still to count below this turn */
    uint64_t count;
    char (*out)[CORE_NOTATION_MAX]; /* depth 1: record notations */
    size_t nout;
    size_t out_cap;
    char text[CORE_NOTATION_MAX];
} Ref_Walk;

static uint64_t ref_perft(const Ref *r, unsigned depth, Ref_Walk *top);

static void ref_sq_text(char *p, int s)
{
    p[0] = (char)('a' + s % 9);
    p[1] = (char)('1' + s / 9);
}

/* A complete turn ends here: count it (or the turns below it). */
static void ref_turn_done(const Ref *r, Ref_Walk *w)
{
    if (w->depth <= 1) {
        if (w->out != NULL && w->nout < w->out_cap) {
            memcpy(w->out[w->nout], w->text, sizeof w->text);
            if (w->out[w->nout][0] == 0)
                memcpy(w->out[w->nout], "pass", 5);
            w->nout++;
        }
        w->count++;
        return;
    }
    Ref next = *r;
    next.side = 1 - r->side;
    if (ref_is_goal(r->ball)) {
        int scorer = r->ball == 76 ? 0 : 1;
        next.score[scorer]++;
        if (next.score[scorer] >= r->goals)
            return; /* match over: no moves below */
        Ref start;
        ref_parse(&start, START, r->goals);
        memcpy(next.sq, start.sq, sizeof next.sq);
        next.ball = start.ball;
        next.side = 1 - scorer;
    }
    w->count += ref_perft(&next, w->depth - 1, NULL);
}

static void ref_kicks(Ref *r, Ref_Walk *w, char *kicked)
{
    size_t len = strlen(w->text);
    for (int k = 0; k < 81; k++) {
        /* Only own, unused pieces next to the ball can kick (a shortcut
         * for speed; ref_can_kick checks it again). */
        if (kicked[k] || r->sq[k] == 0 || ref_side_of(r->sq[k]) != r->side ||
            ref_abs(k % 9 - r->ball % 9) > 1 ||
            ref_abs(k / 9 - r->ball / 9) > 1)
            continue;
        for (int land = 0; land < 81; land++) {
            if (!ref_can_kick(r, k, land))
                continue;
            int ball = r->ball;
            char *p = w->text + len;
            if (len > 0)
                *p++ = ' ';
            ref_sq_text(p, k);
            p[2] = '*';
            ref_sq_text(p + 3, land);
            p[5] = 0;
            r->ball = land;
            ref_turn_done(r, w);
            if (!ref_is_goal(land)) {
                kicked[k] = 1;
                ref_kicks(r, w, kicked);
                kicked[k] = 0;
            }
            r->ball = ball;
            w->text[len] = 0;
        }
    }
}

static uint64_t ref_perft(const Ref *r0, unsigned depth, Ref_Walk *top)
{
    Ref_Walk w = {depth, 0, NULL, 0, 0, ""};
    Ref r = *r0;
    char kicked[81] = {0};
    if (top != NULL) {
        w.out = top->out;
        w.out_cap = top->out_cap;
    }
    if (r.score[0] >= r.goals || r.score[1] >= r.goals)
        return 0;
    ref_turn_done(&r, &w); /* pass */
    ref_kicks(&r, &w, kicked);
    for (int from = 0; from < 81; from++)
        for (int to = 0; to < 81 && r.sq[from] != 0; to++) {
            if (!ref_can_move(&r, from, to))
                continue;
            char c = r.sq[from];
            r.sq[from] = 0;
            r.sq[to] = c;
            ref_sq_text(w.text, from);
            w.text[2] = '-';
            ref_sq_text(w.text + 3, to);
            w.text[5] = 0;
            ref_turn_done(&r, &w);
            ref_kicks(&r, &w, kicked);
            w.text[0] = 0;
            r.sq[to] = 0;
            r.sq[from] = c;
        }
    if (top != NULL)
        top->nout = w.nout;
    return w.count;
}

/* The engine's list equals the naive one, move for move, in order. */
static void check_against_ref(const char *position, const char *options,
                              int goals)
{
    Core_Position *pos = setup(position, options);
    Ref r;
    Ref_Walk top = {1, 0, NULL, 0, 0, ""};
    Move_List l = list_moves(pos);
    ref_parse(&r, position, goals);
    top.out_cap = l.n + 1000;
    top.out = malloc(top.out_cap * sizeof *top.out);
    cr_assert_not_null(top.out);
    uint64_t n1 = ref_perft(&r, 1, &top);
    cr_assert_eq(n1, l.n, "%s: naive %llu, engine %zu", position,
                 (unsigned long long)n1, l.n);
    for (size_t i = 0; i < l.n; i++)
        cr_assert_str_eq(l.text[i], top.out[i], "%s: move %zu", position, i);
    cr_assert_eq(perft(pos, 1), n1);
    cr_assert_eq(perft(pos, 2), ref_perft(&r, 2, NULL), "%s: perft 2",
                 position);
    free(top.out);
    free(l.text);
    core_position_free(pos);
}

/* ---- perft ---------------------------------------------------------- */

Test(football, start_perft_1_is_75_by_hand)
{
    /* rules-decisions.md: 54 piece moves, pass, 20 turns with kicks. */
    Core_Position *pos = setup(NULL, NULL);
    Move_List l = list_moves(pos);
    size_t kicks = 0, moves = 0;
    for (size_t i = 0; i < l.n; i++) {
        kicks += strchr(l.text[i], '*') != NULL;
        moves +=
            strchr(l.text[i], '*') == NULL && strcmp(l.text[i], "pass") != 0;
    }
    cr_assert_eq(l.n, 75);
    cr_assert_eq(moves, 54);
    cr_assert_eq(kicks, 20);
    cr_assert_str_eq(l.text[0], "pass");
    cr_assert_eq(perft(pos, 1), 75);
    free(l.text);
    core_position_free(pos);
}

Test(football, start_perft_2_against_naive_generator)
{
    check_against_ref(START, NULL, 1);
}

Test(football, pass_chains_against_naive_generator)
{
    /* A crowd of White pieces: long pass chains (tens of thousands of
     * turns), and Black to move in a full middlegame. */
    check_against_ref("9/1B7/6R2/4N4/3N5/7Q1/5R3/6K*1/8B w 0-0 0 0", NULL, 1);
    check_against_ref("r2q1k2r/3n*1n2/9/2b3b2/9/2B3B2/9/2NQ1KN2/R7R b 0-0 0 0",
                      NULL, 1);
}

Test(football, goal_ranks_against_naive_generator)
{
    /* Balls on rank 9 and rank 1 (D-FC-5). */
    check_against_ref("2R*4k/2Q6/9/9/9/9/9/2N6/1RB6 w 0-0 0 0", NULL, 1);
    check_against_ref("8k/9/9/9/9/9/3N5/2Q1R4/1R*3n2 w 0-0 0 0", NULL, 1);
}

Test(football, goals_and_resets_against_naive_generator)
{
    /* A goal within reach in a 2-goal match (reset at depth 2), and
     * Black's queen able to score at depth 2 for 1-1. */
    check_against_ref("8k/4*4/4R1N2/9/9/9/9/9/3K5 w 0-0 0 0", "goals=2", 2);
    check_against_ref("8k/9/9/9/9/9/4q4/3B*B3/3K5 w 1-0 0 7", "goals=2", 2);
}

/* ---- D-FC-1, D-FC-2: turns and piece moves -------------------------- */

Test(football, pass_is_a_turn_and_a_kick_back_home_is_another)
{
    /* D-FC-1, D-ALL-5: R e4 kicks e5 up to e6 (K e7 blocks e7), then
     * K e7 kicks it back down to e5: the chain ends where it began and is
     * a move of its own beside pass. */
    Core_Position *pos = setup("9/9/4K4/9/4*4/4R4/9/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert(has_move(&l, "pass"));
    cr_assert(has_move(&l, "e4*e6"));
    cr_assert(!has_move(&l, "e4*e7"), "e7 holds the king");
    cr_assert(has_move(&l, "e4*e6 e7*e5"));
    free(l.text);
    core_position_free(pos);
}

Test(football, queen_slides_through_e1_but_cannot_stop_there)
{
    /* D-FC-2: Q d1 along rank 1 crosses the empty goal e1; the ball is an
     * obstacle. */
    Core_Position *pos = setup("8k/9/9/9/9/9/9/3B5/3Q3*K w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert(has_move(&l, "d1-f1"));
    cr_assert(has_move(&l, "d1-g1"));
    cr_assert(!has_move(&l, "d1-h1"), "the ball on h1 blocks");
    cr_assert(!has_move(&l, "d1-e1"), "e1 is a goal");
    cr_assert(has_move(&l, "d1-a1"));
    cr_assert_eq(parse_rc(pos, "d1-e1"), TB_E_ILLEGAL);
    cr_assert_eq(parse_rc(pos, "d1-h1"), TB_E_ILLEGAL);
    /* The king on i1 may not step onto the ball on h1. */
    cr_assert(!has_move(&l, "i1-h1"));
    free(l.text);
    core_position_free(pos);
}

/* ---- D-FC-3, D-FC-4: who kicks, where the ball flies ---------------- */

Test(football, rook_may_not_kick_diagonally)
{
    /* Seed: R a3 kicks a ball on a4, a2 or b3, not on b2 or b4. */
    Core_Position *pos = setup("8k/9/9/9/9/1*7/R8/9/7K1 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "a3*"), 0);
    cr_assert_eq(parse_rc(pos, "a3*c5"), TB_E_ILLEGAL);
    free(l.text);
    core_position_free(pos);
    pos = setup("8k/9/9/9/9/*8/R8/9/7K1 w 0-0 0 0", NULL);
    l = list_moves(pos);
    /* Seed: a4 onward to a5..a9 (here a9 is free), never b4. */
    cr_assert_eq(count_prefix(&l, "a3*"), 5);
    cr_assert(has_move(&l, "a3*a9"));
    cr_assert_eq(parse_rc(pos, "a3*b4"), TB_E_ILLEGAL);
    free(l.text);
    core_position_free(pos);
}

Test(football, bishop_kicks_only_diagonally)
{
    Core_Position *pos = setup("8k/9/9/9/3*5/3B5/9/9/7K1 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "d4*"), 0);
    free(l.text);
    core_position_free(pos);
}

Test(football, king_kicks_one_square)
{
    Core_Position *pos = setup("8k/9/9/9/4*4/4K4/9/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "e4*"), 1);
    cr_assert(has_move(&l, "e4*e6"));
    free(l.text);
    core_position_free(pos);
    /* Blocked square: no kick at all. */
    pos = setup("8k/9/9/4n4/4*4/4K4/9/9/9 w 0-0 0 0", NULL);
    l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "e4*"), 0);
    free(l.text);
    core_position_free(pos);
}

Test(football, slider_kick_stops_before_pieces)
{
    /* Q d4 kicks e5 along the diagonal: f6, g7, then the rook on h8. */
    Core_Position *pos = setup("8k/7r1/9/9/4*4/3Q5/9/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "d4*"), 2);
    cr_assert(has_move(&l, "d4*f6"));
    cr_assert(has_move(&l, "d4*g7"));
    free(l.text);
    core_position_free(pos);
}

Test(football, knight_kick_never_lands_next_to_the_knight)
{
    /* Seed: N c3 kicks d3 to c1, e1, c5, e5, f2, f4, not b2 or b4.
     * e1 is White's own goal: the turn ends there (own goal). */
    Core_Position *pos = setup("8k/9/9/9/9/9/2N*5/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    const char *want[] = {"c3*c1", "c3*e1", "c3*f2", "c3*f4", "c3*c5", "c3*e5"};
    cr_assert_eq(count_prefix(&l, "c3*"), 6);
    for (size_t i = 0; i < 6; i++)
        cr_assert(has_move(&l, want[i]), "%s", want[i]);
    cr_assert_eq(parse_rc(pos, "c3*b2"), TB_E_ILLEGAL);
    cr_assert_eq(parse_rc(pos, "c3*b4"), TB_E_ILLEGAL);
    /* Canonical order: landings by ascending square. */
    size_t at = 0;
    for (size_t i = 0; i < l.n; i++)
        if (strncmp(l.text[i], "c3*", 3) == 0)
            cr_assert_str_eq(l.text[i], want[at++]);
    free(l.text);
    core_position_free(pos);
}

/* The knight's landings at the board's edge and where the squares' bit
 * sets change words (a8 is square 63, b8 64). By hand: N b7 kicks a8
 * to c9 only (c7 and b6 are next to b7; the other leaps are off the
 * board); N h8 kicks i7 to h5 and g6 (g8 and h9 are next to h8; the
 * other four leaps leave the board past file i or rank 9). */
Test(football, knight_kick_at_the_edge_and_across_square_63)
{
    Core_Position *pos = setup("9/*8/1N7/9/9/9/9/9/8k w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "b7*"), 1);
    cr_assert(has_move(&l, "b7*c9"));
    free(l.text);
    core_position_free(pos);
    pos = setup("9/7N1/8*/9/9/9/9/9/8k w 0-0 0 0", NULL);
    l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "h8*"), 2);
    cr_assert(has_move(&l, "h8*h5"));
    cr_assert(has_move(&l, "h8*g6"));
    free(l.text);
    core_position_free(pos);
}

Test(football, knight_kick_flies_over_pieces)
{
    /* The ball on d3 is boxed in by black pieces; the knight's kick
     * leaps over them to the same six squares. */
    Core_Position *pos =
        setup("8k/9/9/9/9/2nnq4/2N*b4/2rrb4/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "c3*"), 6);
    cr_assert(has_move(&l, "c3*e5"));
    cr_assert(has_move(&l, "c3*c1"));
    free(l.text);
    core_position_free(pos);
}

/* ---- D-FC-5: goals -------------------------------------------------- */

Test(football, kick_along_rank_1_cannot_enter_e1)
{
    /* R b1 kicks the ball on c1 along rank 1: d1 only, never into or
     * across e1. */
    Core_Position *pos = setup("8k/9/9/9/9/9/9/9/1R*6 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "b1*"), 1);
    cr_assert(has_move(&l, "b1*d1"));
    cr_assert_eq(parse_rc(pos, "b1*e1"), TB_E_ILLEGAL);
    cr_assert_eq(parse_rc(pos, "b1*f1"), TB_E_ILLEGAL);
    free(l.text);
    core_position_free(pos);
    /* A king on c1 next to a ball on d1: e1 is banned too. */
    pos = setup("8k/9/9/9/9/9/9/9/2K*5 w 0-0 0 0", NULL);
    l = list_moves(pos);
    cr_assert_eq(count_prefix(&l, "c1*"), 0);
    free(l.text);
    core_position_free(pos);
    /* D-FC-5: the ball's square counts, not the kicker's: N c1 may kick
     * a ball on c2 into e1 (own goal). */
    pos = setup("8k/9/9/9/9/9/9/2*6/2N6 w 0-0 0 0", NULL);
    l = list_moves(pos);
    cr_assert(has_move(&l, "c1*e1"));
    free(l.text);
    core_position_free(pos);
}

Test(football, own_goal_scores_for_the_opponent)
{
    /* White's rook on e3 kicks the ball on e2 into White's own goal. */
    Core_Position *pos = setup("8k/9/9/9/9/9/4R4/4*4/9 w 0-0 0 0", NULL);
    play(pos, "e3*e1");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_GOAL);
    cr_assert_eq(perft(pos, 1), 0, "a finished game has no moves");
    core_position_free(pos);
}

Test(football, goal_ends_the_turn)
{
    /* R e7 kicks into e9; N d8 next to e9 may not kick on. */
    Core_Position *pos = setup("8k/3N*4/4R4/9/9/9/9/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert(has_move(&l, "e7*e9"));
    cr_assert_eq(count_prefix(&l, "e7*e9 "), 0);
    cr_assert_eq(parse_rc(pos, "e7*e9 d8*c6"), TB_E_ILLEGAL);
    play(pos, "e7*e9");
    cr_assert_eq(core_status(pos).outcome, CORE_WIN_WHITE);
    free(l.text);
    core_position_free(pos);
}

/* ---- D-FC-6: passes ------------------------------------------------- */

Test(football, three_piece_pass_chain)
{
    /* R e4 kicks e5 to e6; B d7 kicks it diagonally to g4; N h5 kicks
     * it on with a knight's leap (not next to h5): e3 is one landing. */
    Core_Position *pos = setup("8k/9/3B5/9/4*2N1/4R4/9/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert(has_move(&l, "e4*e6 d7*g4 h5*e3"));
    cr_assert(!has_move(&l, "e4*e6 d7*g4 h5*h6"), "h6 is next to h5");
    /* By hand: from g4 the knight's leaps are e3 e5 f2 f6 h2 h6 i3 i5;
     * h6 and i5 touch h5, so 6 landings. */
    cr_assert_eq(count_prefix(&l, "e4*e6 d7*g4 h5*"), 6);
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "e4*e6 d7*g4 h5*e3", &mv), 0);
    char text[CORE_NOTATION_MAX];
    cr_assert_eq(core_move_format(pos, &mv, text, sizeof text), 0);
    cr_assert_str_eq(text, "e4*e6 d7*g4 h5*e3");
    free(l.text);
    core_position_free(pos);
}

Test(football, a_piece_never_kicks_twice_in_a_turn)
{
    /* Q e4 kicks e5 to e6, K d7 kicks it back to f5, next to the queen
     * again: the queen may not kick a second time. */
    Core_Position *pos = setup("8k/9/3K5/9/4*4/4Q4/9/9/9 w 0-0 0 0", NULL);
    Move_List l = list_moves(pos);
    cr_assert(has_move(&l, "e4*e6 d7*f5"));
    cr_assert_eq(count_prefix(&l, "e4*e6 d7*f5 "), 0);
    cr_assert_eq(parse_rc(pos, "e4*e6 d7*f5 e4*g6"), TB_E_ILLEGAL);
    for (size_t i = 0; i < l.n; i++) {
        const char *first = strstr(l.text[i], "e4*");
        cr_assert(first == NULL || strstr(first + 1, "e4*") == NULL, "%s",
                  l.text[i]);
    }
    free(l.text);
    core_position_free(pos);
}

Test(football, moved_piece_may_kick)
{
    Core_Position *pos = setup(NULL, NULL);
    Move_List l = list_moves(pos);
    cr_assert(has_move(&l, "d1-d5 d5*i5"));
    cr_assert(has_move(&l, "d1-d6 d6*h2 h1*f3"));
    free(l.text);
    core_position_free(pos);
}

/* ---- D-FC-7: matches ------------------------------------------------ */

Test(football, goal_in_3_goal_match_resets_and_conceder_moves)
{
    Core_Position *pos = setup("8k/4*4/4R4/9/9/9/9/9/5K3 w 0-0 0 0", "goals=3");
    char text[CORE_POSITION_TEXT_MAX];
    play(pos, "e7*e9");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "rnbq1kbnr/9/9/9/4*4/9/9/9/RNBQ1KBNR b 1-0 0 1");
    cr_assert_eq(core_side_to_move(pos), CORE_BLACK);
    core_position_free(pos);

    /* An own goal: White concedes and so moves again. */
    pos = setup("8k/9/9/9/9/9/4R4/4*4/9 w 0-0 0 0", "goals=3");
    play(pos, "e3*e1");
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "rnbq1kbnr/9/9/9/4*4/9/9/9/RNBQ1KBNR w 0-1 0 1");
    cr_assert_eq(perft(pos, 1), 75);
    core_position_free(pos);

    /* The third goal wins the match. */
    pos = setup("8k/4*4/4R4/9/9/9/9/9/5K3 w 2-1 0 9", "goals=3");
    play(pos, "e7*e9");
    cr_assert_eq(core_status(pos).outcome, CORE_WIN_WHITE);
    cr_assert_eq(core_status(pos).reason, CORE_REASON_GOAL);
    core_position_free(pos);
}

Test(football, goals_option_is_checked)
{
    Core_Position *pos = NULL;
    const Core_Game *g = core_game_find("football");
    char text[64];
    cr_assert_eq(core_position_new(&pos, g, "goals=0"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, g, "goals=21"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, g, "goals=03"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, g, "goals=x"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, g, "corners=1"), TB_E_OPTION);
    cr_assert_eq(core_position_new(&pos, g, "goals=3"), 0);
    cr_assert_eq(core_options_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "goals=3");
    char why[100];
    cr_assert_eq(core_position_parse(pos, "8k/9/9/9/4*4/9/9/9/8K w 4-0 0 9",
                                     why, sizeof why),
                 TB_E_POSITION);
    core_position_free(pos);
    cr_assert_eq(core_position_new(&pos, g, ""), 0);
    cr_assert_eq(core_options_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "");
    core_position_free(pos);
}

/* ---- D-ALL-2 and G-FC-1: finite play ------------------------------- */

Test(football, threefold_repetition_draws)
{
    Core_Position *pos = setup(NULL, NULL);
    play(pos, "pass");
    play(pos, "pass");
    play(pos, "pass");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    play(pos, "pass"); /* the start position, White to move, a third time */
    cr_assert_eq(core_status(pos).outcome, CORE_DRAW);
    cr_assert_eq(core_status(pos).reason, CORE_REASON_REPETITION);
    /* Perft sees it: after 3 passes only the 4th ply ends the game. */
    core_position_free(pos);
    pos = setup(NULL, NULL);
    play(pos, "pass");
    play(pos, "pass");
    play(pos, "pass");
    Move_List l = list_moves(pos);
    cr_assert_eq(l.n, 75);
    free(l.text);
    core_position_free(pos);
}

Test(football, move_rule_draws_after_100_quiet_plies)
{
    Core_Position *pos = setup("8k/9/9/9/4*4/9/9/9/8K w 0-0 99 99", NULL);
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    play(pos, "i1-h1");
    cr_assert_eq(core_status(pos).outcome, CORE_DRAW);
    cr_assert_eq(core_status(pos).reason, CORE_REASON_MOVE_RULE);
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "pass", &mv), TB_E_OVER);
    core_position_free(pos);
}

Test(football, history_survives_encoding)
{
    Core_Position *pos = setup(NULL, NULL);
    Core_Position *copy = setup(NULL, NULL);
    uint8_t buf[2048];
    size_t len = 0;
    play(pos, "pass");
    play(pos, "pass");
    play(pos, "pass");
    cr_assert_eq(core_encode(pos, buf, sizeof buf, &len), 0);
    cr_assert_leq(len, core_game_encode_max(core_position_game(pos)));
    cr_assert_eq(buf[0], 3);
    cr_assert_eq(core_decode(copy, buf, len), 0);
    play(copy, "pass");
    cr_assert_eq(core_status(copy).reason, CORE_REASON_REPETITION);
    core_position_free(pos);
    core_position_free(copy);
}

/* ---- notation and position strings --------------------------------- */

Test(football, notation_round_trips_for_every_listed_move)
{
    Core_Position *pos =
        setup("9/1B7/6R2/4N4/3N5/7Q1/5R3/6K*1/8B w 0-0 0 0", NULL);
    const Core_Game *g = core_position_game(pos);
    size_t cap = core_game_max_moves(g), n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, cap, &n), 0);
    cr_assert_gt(n, 1000);
    for (size_t i = 0; i < n; i++) {
        char text[CORE_NOTATION_MAX];
        Core_Move back;
        cr_assert_eq(core_move_format(pos, &buf[i], text, sizeof text), 0);
        cr_assert_eq(core_move_parse(pos, text, &back), 0, "%s", text);
        cr_assert(core_move_equal(&back, &buf[i]), "%s", text);
        for (size_t j = 0; j < i && i < 300; j++)
            cr_assert(!core_move_equal(&buf[j], &buf[i]), "twice: %s", text);
    }
    free(buf);
    core_position_free(pos);
}

Test(football, malformed_notation_is_refused)
{
    Core_Position *pos = setup(NULL, NULL);
    const char *bad[] = {"",
                         " ",
                         "pas",
                         "pass pass",
                         "d1-d5 pass",
                         "d1d5",
                         "d1-d5x",
                         "j1-j2",
                         "d0-d5",
                         "d1+d5",
                         "d5*i5 d1-d5",
                         "D1-D5",
                         "d1-d5  d5*i5 x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(parse_rc(pos, bad[i]), TB_E_NOTATION, "'%s'", bad[i]);
    const char *illegal[] = {"d1-e1",
                             "a1-a9",
                             "b1-b3",
                             "e5*e6",
                             "f1-e1",
                             "d1-d5 d5*e6",
                             "d1-d5 d5*i5 d5*h5",
                             "d1-d5 d5*i5 i1*i6",
                             "c1-f4 f4*d6 f4*d6 f4*d6 f4*d6 f4*d6 f4*d6 "
                             "f4*d6 f4*d6 f4*d6 f4*d6 f4*d6 f4*d6 f4*d6"};
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++)
        cr_assert_eq(parse_rc(pos, illegal[i]), TB_E_ILLEGAL, "'%s'",
                     illegal[i]);
    /* Extra spaces are tolerated on input. */
    cr_assert_eq(parse_rc(pos, "  d1-d5   d5*i5 "), 0);
    char big[5000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    cr_assert_eq(parse_rc(pos, big), TB_E_TOOLONG);
    core_position_free(pos);
}

Test(football, position_string_round_trips)
{
    const char *good[] = {
        START,
        "9/1B7/6R2/4N4/3N5/7Q1/5R3/6K*1/8B w 0-0 0 0",
        "r2q1k2r/3n*1n2/9/2b3b2/9/2B3B2/9/2NQ1KN2/R7R b 3-2 17 40",
        "4*4/9/9/9/9/9/9/9/9 b 1-0 0 5",
    };
    const char *opts[] = {NULL, NULL, "goals=5", NULL};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        Core_Position *pos = setup(good[i], opts[i]);
        char text[CORE_POSITION_TEXT_MAX];
        cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
        cr_assert_str_eq(text, good[i]);
        core_position_free(pos);
    }
}

Test(football, malformed_positions_are_refused)
{
    Core_Position *pos = setup(NULL, NULL);
    const char *bad[] = {
        "",
        "9/9/9/9/4*4/9/9/9/9",
        "9/9/9/9/4*4/9/9/9/9 x 0-0 0 0",
        "9/9/9/9/9/9/9/9/9 w 0-0 0 0",       /* no ball */
        "9/9/9/9/**7/9/9/9/9 w 0-0 0 0",     /* two balls */
        "9/9/9/9/4*4/9/9/9 w 0-0 0 0",       /* 8 ranks */
        "9/9/9/9/4*5/9/9/9/9 w 0-0 0 0",     /* 10 files */
        "9/9/9/9/4*3/9/9/9/9 w 0-0 0 0",     /* 8 files */
        "9/9/9/9/4*4/9/9/9/4K4 w 0-0 0 0",   /* king on e1 */
        "4k4/9/9/9/4*4/9/9/9/9 w 0-0 0 0",   /* king on e9 */
        "9/9/9/9/4*4/9/9/9/KK7 w 0-0 0 0",   /* two kings */
        "9/9/9/9/4*4/9/9/9/NNN6 w 0-0 0 0",  /* three knights */
        "9/9/9/9/4*4/9/9/9/P8 w 0-0 0 0",    /* a pawn */
        "9/9/9/9/4*4/9/9/9/9 w 0-0 0",       /* no ply */
        "9/9/9/9/4*4/9/9/9/9 w 0-0 101 200", /* quiet > 100 */
        "9/9/9/9/4*4/9/9/9/9 w 0-0 5 3",     /* quiet > ply */
        "9/9/9/9/4*4/9/9/9/9 w 2-0 0 9",     /* over target 1 */
        "9/9/9/9/4*4/9/9/9/9 w 0-0 0 0 extra",
        "9/9/9/9/4*4/9/9/9/9 w 00-0 0 0",
        "9/9/9/9/9/9/9/9/4*4 w 0-0 0 0", /* ball in e1, 0-0 */
        "9/9/9/9/4*4/9/9/9/9 w 0-0 0 99999999999",
    };
    char before[CORE_POSITION_TEXT_MAX], after[CORE_POSITION_TEXT_MAX];
    cr_assert_eq(core_position_format(pos, before, sizeof before), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[200] = "";
        cr_assert_eq(core_position_parse(pos, bad[i], why, sizeof why),
                     TB_E_POSITION, "'%s'", bad[i]);
        cr_assert_neq(why[0], 0, "'%s' gives a reason", bad[i]);
    }
    cr_assert_eq(core_position_format(pos, after, sizeof after), 0);
    cr_assert_str_eq(before, after, "position unchanged on error");
    core_position_free(pos);
}

/* ---- hostile bytes ---------------------------------------------------- */

Test(football, random_bytes_never_decode_into_nonsense)
{
    Core_Position *pos = setup(NULL, NULL);
    uint8_t good[2048], buf[2048];
    size_t len = 0;
    uint64_t s = 12345;
    play(pos, "d1-d5 d5*i5");
    cr_assert_eq(core_encode(pos, good, sizeof good, &len), 0);
    for (int trial = 0; trial < 20000; trial++) {
        size_t n = len;
        memcpy(buf, good, len);
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        if (trial % 3 == 0) {
            n = (size_t)(s >> 33) % (len + 20);
            for (size_t i = 0; i < n; i++) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                buf[i] = (uint8_t)(s >> 56);
            }
            buf[0] = 3;
        } else {
            buf[(s >> 33) % len] ^= (uint8_t)(1u << ((s >> 20) % 8));
        }
        Core_Position *t = setup(NULL, NULL);
        int rc = core_decode(t, buf, n);
        cr_assert(rc == 0 || rc == TB_E_ENCODING || rc == TB_E_MISMATCH);
        if (rc == 0) {
            /* Anything accepted re-encodes to itself and is playable. */
            uint8_t again[2048];
            size_t m = 0;
            cr_assert_eq(core_encode(t, again, sizeof again, &m), 0);
            cr_assert_eq(m, n);
            cr_assert_eq(memcmp(again, buf, n), 0);
            uint64_t x;
            cr_assert_eq(core_perft(t, 1, &x), 0);
        }
        core_position_free(t);
    }
    core_position_free(pos);
}

/* ---- the drawable view ------------------------------------------------ */

Test(football, view_shows_board_goals_ball_and_score)
{
    Core_Position *pos = setup(NULL, "goals=3");
    Core_View v;
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_eq(v.rows, 9);
    cr_assert_eq(v.cols, 9);
    /* Row 0 is rank 9; a1 (row 8, column 0) is a dark corner. */
    cr_assert_str_eq(v.cell[8][0].name, "a1");
    cr_assert_eq(v.cell[8][0].kind, CORE_CELL_DARK);
    cr_assert_eq(v.cell[8][1].kind, CORE_CELL_LIGHT);
    cr_assert_eq(v.cell[8][4].kind, CORE_CELL_GOAL);
    cr_assert_eq(v.cell[0][4].kind, CORE_CELL_GOAL);
    cr_assert_str_eq(v.cell[8][5].glyph, "K");
    cr_assert_eq(v.cell[8][5].owner, CORE_WHITE);
    cr_assert_str_eq(v.cell[0][3].glyph, "q");
    cr_assert_eq(v.cell[0][3].owner, CORE_BLACK);
    cr_assert_str_eq(v.cell[4][4].glyph, "*");
    cr_assert_eq(v.cell[4][4].owner, -1);
    cr_assert_str_eq(v.row_label[0], "9");
    cr_assert_str_eq(v.col_label[8], "i");
    cr_assert_not_null(strstr(v.status, "0-0"));
    cr_assert_not_null(strstr(v.status, "first to 3"));
    core_position_free(pos);
}

/* ---- core_play's direct legality check -------------------------------- */

/* core_play validates a turn without listing every move (the game's
 * `legal` hook). It must accept exactly the listed moves: every one of
 * them, and none of thousands of near misses and random byte strings. */
static void check_play_matches_list(const char *position)
{
    Core_Position *pos = setup(position, NULL);
    const Core_Game *g = core_position_game(pos);
    size_t cap = core_game_max_moves(g), n = 0;
    Core_Move *buf = malloc(cap * sizeof *buf);
    uint64_t s = 99;
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, cap, &n), 0);
    for (size_t trial = 0; trial < 3 * n + 3000; trial++) {
        Core_Move mv;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        if (trial < n) {
            mv = buf[trial];
        } else if (trial % 4 != 0) {
            mv = buf[(s >> 33) % n];
            switch ((s >> 20) % 5) {
            case 0:
                mv.b[(s >> 8) % CORE_MOVE_BYTES] = (uint8_t)((s >> 40) % 90);
                break;
            case 1:
                mv.flags ^= (uint8_t)(1u << ((s >> 40) % 3));
                break;
            case 2:
                mv.len = (uint8_t)(mv.len + 2 * ((s >> 40) % 3) - 2);
                break;
            case 3:
                mv.b[mv.len] = (uint8_t)((s >> 40) % 81);
                mv.b[mv.len + 1] = (uint8_t)((s >> 48) % 81);
                mv.len = (uint8_t)(mv.len + 2);
                break;
            default:
                mv.b[(s >> 8) % (mv.len + 1u)] ^= 1;
                break;
            }
        } else {
            memset(&mv, 0, sizeof mv);
            mv.len = (uint8_t)((s >> 40) % 12);
            mv.flags = (uint8_t)((s >> 50) % 3);
            for (int i = 0; i < mv.len; i++) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                mv.b[i] = (uint8_t)((s >> 33) % 82);
            }
        }
        int listed = 0;
        for (size_t i = 0; i < n && !listed; i++)
            listed = core_move_equal(&buf[i], &mv);
        Core_Position *t = core_position_clone(pos);
        cr_assert_not_null(t);
        int rc = core_play(t, &mv);
        cr_assert_eq(rc == 0, listed, "trial %zu: play %s, listed %d", trial,
                     tb_errname(rc), listed);
        cr_assert(rc == 0 || rc == TB_E_ILLEGAL);
        core_position_free(t);
    }
    free(buf);
    core_position_free(pos);
}

Test(football, play_accepts_exactly_the_listed_moves)
{
    check_play_matches_list(START);
    check_play_matches_list("8k/9/3B5/9/4*2N1/4R4/9/9/9 w 0-0 0 0");
    check_play_matches_list("8k/3N*4/4R4/9/9/9/9/9/9 w 0-0 0 0");
    check_play_matches_list(
        "r2q1k2r/3n*1n2/9/2b3b2/9/2B3B2/9/2NQ1KN2/R7R b 0-0 0 0");
}

Test(football, finished_match_survives_encoding_and_position_string)
{
    Core_Position *pos = setup("8k/4*4/4R4/9/9/9/9/9/5K3 w 0-0 0 0", NULL);
    Core_Position *copy = setup(NULL, NULL);
    uint8_t buf[2048];
    size_t len = 0;
    char text[CORE_POSITION_TEXT_MAX];
    play(pos, "e7*e9");
    /* G-FC-2: the final placement stays, the ball in the goal. */
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    cr_assert_str_eq(text, "4*3k/9/4R4/9/9/9/9/9/5K3 b 1-0 0 1");
    cr_assert_eq(core_encode(pos, buf, sizeof buf, &len), 0);
    cr_assert_eq(core_decode(copy, buf, len), 0);
    cr_assert_eq(core_status(copy).outcome, CORE_WIN_WHITE);
    cr_assert_eq(core_position_parse(copy, text, NULL, 0), 0);
    cr_assert_eq(core_status(copy).outcome, CORE_WIN_WHITE);
    cr_assert_eq(perft(copy, 2), 0);
    core_position_free(pos);
    core_position_free(copy);
}

Test(football, random_text_gives_clean_errors)
{
    /* Hostile strings built from the notation's own alphabet, so that
     * many come close to valid moves and positions. */
    static const char alphabet[] = "abcdefghij0123456789-* /KQRBNkqrbnwp";
    Core_Position *pos = setup(NULL, NULL);
    char text[64];
    uint64_t s = 7;
    for (int trial = 0; trial < 20000; trial++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t n = (s >> 33) % (sizeof text - 1);
        if (trial % 2 == 0) {
            /* A valid move or position with a few characters changed. */
            const char *base = trial % 4 == 0 ? START : "d1-d6 d6*h2 h1*f3";
            n = strlen(base);
            memcpy(text, base, n + 1);
            for (int k = 0; k < 1 + trial % 3; k++) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                text[(s >> 33) % n] =
                    alphabet[(s >> 45) % (sizeof alphabet - 1)];
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                text[i] = alphabet[(s >> 33) % (sizeof alphabet - 1)];
            }
            text[n] = 0;
        }
        Core_Move mv;
        int rc = core_move_parse(pos, text, &mv);
        cr_assert(rc == 0 || rc == TB_E_NOTATION || rc == TB_E_ILLEGAL,
                  "'%s': %s", text, tb_errname(rc));
        if (rc == 0) {
            Core_Position *t = core_position_clone(pos);
            cr_assert_eq(core_play(t, &mv), 0, "'%s'", text);
            core_position_free(t);
        }
        Core_Position *t = core_position_clone(pos);
        char why[128] = "";
        rc = core_position_parse(t, text, why, sizeof why);
        cr_assert(rc == 0 || rc == TB_E_POSITION, "'%s'", text);
        cr_assert(rc == 0 || why[0] != 0, "'%s' gives a reason", text);
        core_position_free(t);
    }
    core_position_free(pos);
}

/* core_moves_distinct against a second method: along seeded playouts (a
 * match to 20 goals, so goals reset the board and play goes on), make
 * every turn core_moves lists and keep the first of each resulting
 * position (core_key of the child), the scoring turns told apart by
 * their piece move read from the notation (a goal resets the placement,
 * so turns of different piece moves reach one position; the distinct
 * list keeps one a piece move). The distinct list must be exactly those
 * turns in that order, and shorter than the full list somewhere. */
Test(football, distinct_moves_are_the_first_of_each_position)
{
    const Core_Game *g = core_game_find("football");
    size_t cap = core_game_max_moves(g), n = 0, nd = 0;
    Core_Move *all = malloc(cap * sizeof *all);
    Core_Move *dist = malloc(cap * sizeof *dist);
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint64_t rng = 5;
    int shorter = 0;
    cr_assert(all != NULL && dist != NULL && keys != NULL);
    for (int game = 0; game < 3; game++) {
        Core_Position *pos = setup(NULL, "goals=20");
        Core_Position *c = core_position_clone(pos);
        cr_assert_not_null(c);
        for (int ply = 0; ply < 120 && core_status(pos).outcome == CORE_ONGOING;
             ply++) {
            cr_assert_eq(core_moves(pos, all, cap, &n), 0);
            cr_assert_eq(core_moves_distinct(pos, dist, cap, &nd), 0);
            size_t k = 0, want = 0;
            for (size_t i = 0; i < n; i++) {
                char t[CORE_NOTATION_MAX];
                cr_assert_eq(core_move_format(pos, &all[i], t, sizeof t), 0);
                core_position_copy(c, pos);
                core_make(c, &all[i]);
                uint64_t key = core_key(c);
                /* A goal: the last kick lands on e1 or e9. */
                size_t len = strlen(t);
                int goal = len > 3 && t[len - 3] == '*' && t[len - 2] == 'e' &&
                           (t[len - 1] == '1' || t[len - 1] == '9');
                if (goal && strchr(t, '-') != NULL) {
                    /* from * 81 + to + 1, each square file * 9 + rank */
                    uint64_t pm =
                        (uint64_t)((t[0] - 'a') * 9 + t[1] - '1') * 81 +
                        (uint64_t)((t[3] - 'a') * 9 + t[4] - '1') + 1;
                    key ^= pm * UINT64_C(0x9E3779B97F4A7C15);
                }
                int dup = 0;
                for (size_t j = 0; j < want && !dup; j++)
                    dup = keys[j] == key;
                if (dup)
                    continue;
                keys[want++] = key;
                cr_assert_lt(k, nd, "ply %d: %s missing", ply, t);
                if (!core_move_equal(&dist[k], &all[i])) {
                    char d[CORE_NOTATION_MAX], p[300];
                    core_move_format(pos, &dist[k], d, sizeof d);
                    core_position_format(pos, p, sizeof p);
                    cr_assert_fail("ply %d: %s missing, %s listed; %s", ply, t,
                                   d, p);
                }
                k++;
            }
            cr_assert_eq(k, nd, "ply %d", ply);
            shorter |= nd < n;
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            core_make(pos, &all[(rng >> 33) % n]);
        }
        core_position_free(c);
        core_position_free(pos);
    }
    cr_expect(shorter, "no position with transposing turns");
    free(keys);
    free(dist);
    free(all);
}
