/*
 * test_laska.c: Laska through the core interface. Counts come from the
 * decisions file (perft 6, 6, 18) and, deeper, from a second generator in
 * this file that walks a 7x7 array of columns written as strings, with no
 * code shared with core/laska.c. Every decision D-LA-1..9 has a
 * hand-built position.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "laska_internal.h"

/* ---- helpers -------------------------------------------------------- */

static const Core_Game *laska(void)
{
    const Core_Game *g = core_game_find("laska");
    cr_assert_not_null(g);
    return g;
}

static Core_Position *start(void)
{
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, laska(), NULL), 0);
    return pos;
}

static Core_Position *at(const char *text)
{
    Core_Position *pos = start();
    char why[128] = "";
    int rc = core_position_parse(pos, text, why, sizeof why);
    cr_assert_eq(rc, 0, "parse '%s': %s (%s)", text, tb_strerror(rc), why);
    return pos;
}

/* The legal moves as one space-separated string. */
static void moves_text(const Core_Position *pos, char *out, size_t cap)
{
    Core_Move buf[512];
    size_t n = 0;
    cr_assert_eq(core_moves(pos, buf, 512, &n), 0);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char t[CORE_NOTATION_MAX];
        cr_assert_eq(core_move_format(pos, &buf[i], t, sizeof t), 0);
        if (i > 0)
            strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, t, cap - strlen(out) - 1);
    }
}

static void expect_moves(const char *position, const char *expected)
{
    Core_Position *pos = at(position);
    char got[4096];
    moves_text(pos, got, sizeof got);
    cr_assert_str_eq(got, expected, "position '%s'", position);
    core_position_free(pos);
}

static void play(Core_Position *pos, const char *text)
{
    Core_Move mv;
    int rc = core_move_parse(pos, text, &mv);
    cr_assert_eq(rc, 0, "parse move '%s': %s", text, tb_strerror(rc));
    cr_assert_eq(core_play(pos, &mv), 0, "play '%s'", text);
}

static void expect_position(const Core_Position *pos, const char *expected)
{
    char got[CORE_POSITION_TEXT_MAX];
    cr_assert_eq(core_position_format(pos, got, sizeof got), 0);
    cr_assert_str_eq(got, expected);
}

/* ---- a second, naive generator -------------------------------------- */

/* Columns as strings, top first: 'w' 'W' white, 'b' 'B' black. */
typedef struct Ref {
    char col[7][7][24];
    int black_to_move;
} Ref;

static int ref_black(char c)
{
    return c == 'b' || c == 'B';
}

static int ref_officer(char c)
{
    return c == 'W' || c == 'B';
}

static int ref_on(int f, int r)
{
    return f >= 0 && f < 7 && r >= 0 && r < 7;
}

typedef struct Ref_Sink {
    Ref *out;
    int n;
    int max;
} Ref_Sink;

static void ref_capture(const Ref *r, int f, int k, const char *moving,
                        int jumped[7][7], Ref_Sink *sink, int *found)
{
    static const int df[4] = {-1, 1, -1, 1}, dr[4] = {-1, -1, 1, 1};
    int black = ref_black(moving[0]), officer = ref_officer(moving[0]);
    int any = 0;

    for (int d = 0; d < 4; d++) {
        if (!officer && (dr[d] > 0) == black)
            continue; /* soldiers jump forward only */
        int mf = f + df[d], mr = k + dr[d], lf = f + 2 * df[d],
            lr = k + 2 * dr[d];
        if (!ref_on(lf, lr) || r->col[mf][mr][0] == '\0' ||
            jumped[mf][mr] || r->col[lf][lr][0] != '\0' ||
            ref_black(r->col[mf][mr][0]) == black)
            continue;
        Ref next = *r;
        char col[24];
        size_t h = strlen(moving);
        memcpy(col, moving, h);
        col[h] = next.col[mf][mr][0];
        col[h + 1] = '\0';
        memmove(next.col[mf][mr], next.col[mf][mr] + 1,
                strlen(next.col[mf][mr]));
        jumped[mf][mr] = 1;
        int last = black ? 0 : 6;
        int sub = 0;
        if (officer || lr != last)
            ref_capture(&next, lf, lr, col, jumped, sink, &sub);
        if (!sub) {
            if (!officer && lr == last)
                col[0] = black ? 'B' : 'W';
            if (sink->n < sink->max) {
                Ref *o = &sink->out[sink->n];
                *o = next;
                memcpy(o->col[lf][lr], col, strlen(col) + 1);
                o->black_to_move = !r->black_to_move;
            }
            sink->n++;
        }
        jumped[mf][mr] = 0;
        any = 1;
    }
    *found |= any;
}

/* All positions after one move (one per move, D-ALL-5). */
static int ref_children(const Ref *r, Ref *out, int max)
{
    Ref_Sink sink = {out, 0, max};
    static const int df[4] = {-1, 1, -1, 1}, dr[4] = {-1, -1, 1, 1};

    for (int k = 0; k < 7; k++)
        for (int f = 0; f < 7; f++) {
            const char *c = r->col[f][k];
            if (c[0] == '\0' || ref_black(c[0]) != r->black_to_move)
                continue;
            Ref lifted = *r;
            char moving[24];
            memcpy(moving, c, strlen(c) + 1);
            lifted.col[f][k][0] = '\0';
            int jumped[7][7] = {{0}};
            int found = 0;
            ref_capture(&lifted, f, k, moving, jumped, &sink, &found);
        }
    if (sink.n > 0)
        return sink.n;
    for (int k = 0; k < 7; k++)
        for (int f = 0; f < 7; f++) {
            const char *c = r->col[f][k];
            if (c[0] == '\0' || ref_black(c[0]) != r->black_to_move)
                continue;
            for (int d = 0; d < 4; d++) {
                if (!ref_officer(c[0]) && (dr[d] > 0) == ref_black(c[0]))
                    continue;
                int tf = f + df[d], tr = k + dr[d];
                if (!ref_on(tf, tr) || r->col[tf][tr][0] != '\0')
                    continue;
                if (sink.n < max) {
                    Ref *o = &out[sink.n];
                    *o = *r;
                    memcpy(o->col[tf][tr], c, strlen(c) + 1);
                    o->col[f][k][0] = '\0';
                    if (c[0] == 'w' && tr == 6)
                        o->col[tf][tr][0] = 'W';
                    if (c[0] == 'b' && tr == 0)
                        o->col[tf][tr][0] = 'B';
                    o->black_to_move = !r->black_to_move;
                }
                sink.n++;
            }
        }
    return sink.n;
}

static uint64_t ref_perft(const Ref *r, int depth)
{
    Ref *kids = malloc(600 * sizeof *kids);
    cr_assert_not_null(kids);
    int n = ref_children(r, kids, 600);
    cr_assert_leq(n, 600);
    uint64_t total = 0;
    if (depth == 1)
        total = (uint64_t)n;
    else
        for (int i = 0; i < n; i++)
            total += ref_perft(&kids[i], depth - 1);
    free(kids);
    return total;
}

/* The reference reads the same position strings, by its own code. */
static void ref_parse(Ref *r, const char *text)
{
    memset(r, 0, sizeof *r);
    r->black_to_move = text[0] == 'b';
    const char *p = text + 1;
    while (*p == ' ')
        p++;
    while (*p >= 'a' && *p <= 'g') {
        int f = p[0] - 'a', k = p[1] - '1', n = 0;
        p += 2;
        while (*p != ' ' && *p != '\0')
            r->col[f][k][n++] = *p++;
        while (*p == ' ')
            p++;
    }
}

static void ref_start(Ref *r)
{
    memset(r, 0, sizeof *r);
    for (int k = 0; k < 7; k++)
        for (int f = 0; f < 7; f++)
            if ((f + k) % 2 == 0 && k != 3)
                r->col[f][k][0] = k < 3 ? 'w' : 'b';
}

static void compare_perft(Core_Position *pos, const Ref *r, int depth)
{
    for (int d = 1; d <= depth; d++) {
        uint64_t got = 0;
        cr_assert_eq(core_perft(pos, (unsigned)d, &got), 0);
        uint64_t want = ref_perft(r, d);
        cr_assert_eq(got, want, "depth %d: core %llu, reference %llu", d,
                     (unsigned long long)got, (unsigned long long)want);
    }
}

/* ---- perft ---------------------------------------------------------- */

static void each_kernel_agrees(const char *text, const Core_Position *fresh,
                               int depth);

Test(laska, perft_reference_counts)
{
    /* rules-decisions.md: perft(1..3) = 6, 6, 18. */
    Core_Position *pos = start();
    static const uint64_t want[] = {1, 6, 6, 18};
    for (unsigned d = 0; d <= 3; d++) {
        uint64_t n = 0;
        cr_assert_eq(core_perft(pos, d, &n), 0);
        cr_assert_eq(n, want[d], "perft %u = %llu", d, (unsigned long long)n);
    }
    core_position_free(pos);
}

Test(laska, perft_matches_second_generator_from_start)
{
    Core_Position *pos = start();
    char text[CORE_POSITION_TEXT_MAX];
    Ref r;
    ref_start(&r);
    /* Depths 1..11, as docs/rules/laska.md says (13 took 43 s of
     * processor time under ASan+UBSan: too long for CI). */
    compare_perft(pos, &r, 11);
    cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
    each_kernel_agrees(text, pos, 8);
    core_position_free(pos);
}

/*
 * A soldier's capture chain beside the board's edge. By hand: White's
 * only capture is a1xc3xa5xc7 (a1 over b2, c3 over b4, a5 over b6, promoted
 * on c7, D-LA-6); no other white commander has an enemy before an empty
 * square. perft's counts build jump sets by shifting, which also marks a
 * square off the board beside g5; counted together with another set (two
 * sets share a word), it once made this 2.
 */
Test(laska, perft_counts_a_chain_beside_the_edge)
{
    static const char text[] = "w a1w c1w e1Bww g1w b2bww f2w a3bw e3w g3w "
                               "b4b c5b g5b b6b d6b a7b e7b g7b 0 14";
    Core_Position *pos = at(text);
    uint64_t n = 0;
    Ref r;

    cr_assert_eq(core_perft(pos, 1, &n), 0);
    cr_assert_eq(n, 1);
    ref_parse(&r, text);
    compare_perft(pos, &r, 5);
    core_position_free(pos);
}

/*
 * Middlegames: perft 1..6 against the second generator, and perft 7
 * against perft through core_moves and core_make (defined below), which
 * keeps every rule at every node. Below a node where nothing can be drawn
 * within the plies left, perft makes and unmakes columns only
 * (laska_perft.c, perft_plain): at depths 5..7 of these.
 */
static uint64_t api_perft(const Core_Position *pos, int depth);

Test(laska, perft_matches_second_generator_in_middlegames)
{
    static const char *const positions[] = {
        /* officers, columns with prisoners, both sides */
        "w a1W c3wbb e3w d4bw b6Bww f6b g7b c5B",
        "b b2W d2wB f4bbW c5Bw e5b a7b g5wB",
        /* a capture loop for an officer (D-ALL-5) */
        "w c1W b2b b4b d4b d2b g7b",
        /* promotion during a capture (D-LA-6) and many choices */
        "w e5w d6b b6b f6bw c3W b4b d4b f4b a5b",
        "b c3b e3w d2w b2w f2w c1W a1w g1W",
        /* columns of two, an officer over a soldier, counters set */
        "b c1w e1w b2w f2w c3wb e3bw d4w b6b d6b f6Bb a7b g7b 0 30",
    };
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        Core_Position *pos = at(positions[i]);
        Ref r;
        uint64_t got = 0;
        ref_parse(&r, positions[i]);
        compare_perft(pos, &r, 6);
        each_kernel_agrees(positions[i], pos, 6);
        cr_assert_eq(core_perft(pos, 7, &got), 0);
        cr_assert_eq(got, api_perft(pos, 7), "%s", positions[i]);
        core_position_free(pos);
    }
}

/* Perft through the public interface alone: core_moves, then core_make
 * on a copy for every move, the draw rules as core_make keeps them. */
static uint64_t api_perft(const Core_Position *pos, int depth)
{
    Core_Move *buf = malloc(512 * sizeof *buf);
    size_t n = 0;
    uint64_t total = 0;
    cr_assert_not_null(buf);
    cr_assert_eq(core_moves(pos, buf, 512, &n), 0);
    if (depth == 1)
        total = n;
    for (size_t i = 0; depth > 1 && i < n; i++) {
        Core_Position *child = core_position_clone(pos);
        cr_assert_not_null(child);
        core_make(child, &buf[i]);
        total += api_perft(child, depth - 1);
        core_position_free(child);
    }
    free(buf);
    return total;
}

/* A fixed linear congruential generator: the same games on every run. */
static uint32_t lcg_next(uint64_t *state)
{
    *state = *state * UINT64_C(6364136223846793005) + 1442695040888963407u;
    return (uint32_t)(*state >> 33);
}

/*
 * Perft 1..depth of the position text (counters and all; no history)
 * with every way the processor can count the last ply (laska_batch.c's
 * vector kernels, AVX-512's and AVX2's where it has them, and one
 * position at a time) against perft through core_moves and core_make of
 * fresh, the same position read from text.
 */
static void each_kernel_agrees(const char *text, const Core_Position *fresh,
                               int depth)
{
    const Laska_Kernel *kernel[3];
    size_t nk = core__laska_batch_kernels(kernel);
    Laska_State st;
    char why[128] = "";

    kernel[nk++] = NULL;
    cr_assert_eq(laska()->init(&st, ""), 0);
    cr_assert_eq(laska()->position_parse(&st, text, why, sizeof why), 0, "%s",
                 why);
    for (int d = 1; d <= depth; d++) {
        uint64_t want = api_perft(fresh, d);
        for (size_t k = 0; k < nk; k++) {
            uint64_t got = 0;
            cr_assert_eq(core__laska_perft_with(&st, (unsigned)d, kernel[k],
                                                &got),
                         0);
            cr_assert_eq(got, want, "%s depth %d kernel %zu of %zu: %llu",
                         text, d, k + 1, nk, (unsigned long long)got);
        }
    }
}

/*
 * Positions from seeded random games (officers, tall columns, capture
 * chains as games go on): perft 1..3 of the position read afresh from
 * its string against the second generator, and perft 1..5 of the
 * position as played (its repetition history and counters kept) against
 * perft through core_moves and core_make. The bulk counters of perft's
 * last plies and the key-less make deep in its tree must agree with both,
 * and so must every way of counting the last ply (each_kernel_agrees).
 */
Test(laska, perft_matches_in_random_games)
{
    uint64_t seed = 17;
    int checked = 0, with_officers = 0, tall = 0;
    for (int game = 0; game < 40; game++) {
        Core_Position *pos = start();
        for (int ply = 0; ply < 160; ply++) {
            Core_Move buf[512];
            size_t n = 0;
            cr_assert_eq(core_moves(pos, buf, 512, &n), 0);
            Core_Status st = core_status(pos);
            cr_assert_eq(n == 0, st.outcome != CORE_ONGOING, "game %d ply %d",
                         game, ply);
            if (n == 0)
                break;
            if (ply % 7 == 3) {
                char text[CORE_POSITION_TEXT_MAX];
                cr_assert_eq(core_position_format(pos, text, sizeof text), 0);
                Core_Position *fresh = at(text);
                Ref r;
                ref_parse(&r, text);
                compare_perft(fresh, &r, 3);
                each_kernel_agrees(text, fresh, 5);
                core_position_free(fresh);
                for (int d = 1; d <= 5; d++) {
                    uint64_t got = 0;
                    cr_assert_eq(core_perft(pos, (unsigned)d, &got), 0);
                    cr_assert_eq(got, api_perft(pos, d), "%s depth %d", text,
                                 d);
                }
                with_officers += strchr(text, 'W') != NULL ||
                                 strchr(text, 'B') != NULL;
                tall += strstr(text, "www") != NULL ||
                        strstr(text, "bbb") != NULL ||
                        strstr(text, "wbw") != NULL ||
                        strstr(text, "bwb") != NULL;
                checked++;
            }
            core_make(pos, &buf[lcg_next(&seed) % n]);
        }
        core_position_free(pos);
    }
    /* The sample is what it claims to be. */
    cr_assert_geq(checked, 300);
    cr_assert_geq(with_officers, 50);
    cr_assert_geq(tall, 50);
}

/*
 * Officers alone shuffle: threefold repetitions (D-ALL-2), the 100-ply
 * rule (D-LA-8) and the ply cap (G-LA-2) cut the tree at many nodes. The
 * second generator knows no draw rules, so where it differs the rules
 * were applied; perft through core_make applies them as play does.
 */
Test(laska, perft_applies_draw_rules_like_play)
{
    static const struct {
        const char *position;
        int depth;
        int rules_cut; /* the tree is cut within depth plies */
    } cases[] = {
        {"w a1W g7B 0 0", 9, 1},          /* repetitions from ply 8 */
        {"b c3W e5B a7b 0 40", 10, 0},    /* windows under soldier moves */
        {"w a1W g7B 94 300", 7, 1},       /* the 100-ply rule at ply 6 */
        {"w a1W g7B 0 995", 6, 1},        /* the ply cap at ply 5 */
        {"w a1W c1w g7B 0 0", 8, 0},      /* soldier moves restart */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Core_Position *pos = at(cases[i].position);
        Ref r;
        ref_parse(&r, cases[i].position);
        uint64_t got = 0;
        int d = cases[i].depth;
        cr_assert_eq(core_perft(pos, (unsigned)d, &got), 0);
        cr_assert_eq(got, api_perft(pos, d), "%s", cases[i].position);
        if (cases[i].rules_cut)
            cr_assert_lt(got, ref_perft(&r, d), "%s", cases[i].position);
        core_position_free(pos);
    }
}

/* ---- decisions ------------------------------------------------------ */

Test(laska, white_moves_first_D_LA_1)
{
    Core_Position *pos = start();
    cr_assert_eq(core_side_to_move(pos), CORE_WHITE);
    char got[512];
    moves_text(pos, got, sizeof got);
    cr_assert_str_eq(got, "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4");
    core_position_free(pos);
}

Test(laska, commander_alone_decides_D_LA_2)
{
    /* A white soldier on two black officers moves as a white soldier:
     * forward only. */
    expect_moves("w d4wBB a7b", "d4-c5 d4-e5");
    /* A black officer on white pieces moves both ways, for Black. */
    expect_moves("b d4Bww a1w", "d4-c3 d4-e3 d4-c5 d4-e5");
}

Test(laska, soldiers_forward_officers_both_ways_D_LA_3)
{
    expect_moves("w d4w g7b", "d4-c5 d4-e5");
    expect_moves("w d4W g7b", "d4-c3 d4-e3 d4-c5 d4-e5");
    expect_moves("b d4b a1w", "d4-c3 d4-e3");
    /* A soldier may not jump backwards. */
    expect_moves("w d4w c3b e3b g7b", "d4-c5 d4-e5");
}

Test(laska, jumped_column_gives_only_its_commander_D_LA_3)
{
    /* White c3 jumps d4 (black on two whites): the black commander goes
     * under the jumper, and d4, now commanded by White, changes sides. */
    Core_Position *pos = at("w c3w d4bww g7b");
    play(pos, "c3xe5");
    expect_position(pos, "b d4ww e5wb g7b 0 1");
    char got[512];
    moves_text(pos, got, sizeof got);
    cr_assert_str_eq(got, "g7-f6"); /* Black has only g7 left */
    core_position_free(pos);
}

Test(laska, capture_is_compulsory_with_free_choice_D_LA_4)
{
    /* c3 may take b4 once or d4 then d6; both are legal, the shorter
     * included; g3's quiet move is not. */
    expect_moves("w a3w c3w g3w b4b d4b d6b g7b",
                 "a3xc5xe7 c3xa5 c3xe5xc7");
    /* The chosen sequence must be completed: c3xe5 alone is refused. */
    Core_Position *pos = at("w a3w c3w g3w b4b d4b d6b g7b");
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "c3xe5", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "g3-f4", &mv), TB_E_ILLEGAL);
    core_position_free(pos);
}

Test(laska, column_jumped_only_once_D_LA_5)
{
    /* The officer takes the top of the three-piece column d4 and may not
     * jump it again on the way back, though it still stands. */
    expect_moves("w c3W d4bbb g7b", "c3xe5");
    Core_Position *pos = at("w c3W d4bbb g7b");
    play(pos, "c3xe5");
    expect_position(pos, "b d4bb e5Wb g7b 0 1");
    core_position_free(pos);
}

Test(laska, start_square_may_be_crossed_again_D_LA_5)
{
    /* The officer's loop ends on its own start square; the two senses
     * are two moves (D-ALL-5). */
    expect_moves("w c1W b2b b4b d4b d2b g7b",
                 "c1xa3xc5xe3xc1 c1xe3xc5xa3xc1");
    Core_Position *pos = at("w c1W b2b b4b d4b d2b g7b");
    play(pos, "c1xa3xc5xe3xc1");
    expect_position(pos, "b c1Wbbbb g7b 0 1");
    core_position_free(pos);
}

Test(laska, promotion_ends_capture_D_LA_6)
{
    /* After e5xc7 the new officer could jump b6, but promotion ends the
     * move. */
    expect_moves("w e5w d6b b6b g3b", "e5xc7");
    Core_Position *pos = at("w e5w d6b b6b g3b");
    play(pos, "e5xc7");
    expect_position(pos, "b g3b b6b c7Wb 0 1");
    core_position_free(pos);
    /* Only the commander is promoted. */
    pos = at("w d6wb a1B");
    play(pos, "d6-c7");
    expect_position(pos, "b a1B c7Wb 0 1");
    core_position_free(pos);
}

Test(laska, no_move_loses_D_LA_7)
{
    /* White's only column is blocked: Black wins. */
    Core_Position *pos = at("w a1w b2b c3b");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_WIN_BLACK);
    cr_assert_eq(st.reason, CORE_REASON_NO_MOVES);
    size_t n = 99;
    Core_Move buf[4];
    cr_assert_eq(core_moves(pos, buf, 4, &n), 0);
    cr_assert_eq(n, 0);
    core_position_free(pos);
    /* No column commanded at all (all White pieces are prisoners). */
    pos = at("w d4bww");
    cr_assert_eq(core_status(pos).outcome, CORE_WIN_BLACK);
    core_position_free(pos);
}

Test(laska, hundred_officer_plies_draw_D_LA_8)
{
    Core_Position *pos = at("w a1W g7B 99 120");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    play(pos, "a1-b2");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_MOVE_RULE);
    core_position_free(pos);
    /* A soldier move resets the count. */
    pos = at("w a1w g7B 99 120");
    play(pos, "a1-b2");
    cr_assert_eq(core_status(pos).outcome, CORE_ONGOING);
    core_position_free(pos);
}

Test(laska, game_capped_at_1000_plies_G_LA_2)
{
    Core_Position *pos = at("w a1W g7B 0 999");
    play(pos, "a1-b2");
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_MOVE_RULE);
    core_position_free(pos);
}

Test(laska, threefold_repetition_draws_D_ALL_2)
{
    Core_Position *pos = at("w a1W g7B");
    static const char *const shuffle[] = {"a1-b2", "g7-f6", "b2-a1",
                                          "f6-g7"};
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(core_status(pos).outcome, CORE_ONGOING, "ply %d", i);
        play(pos, shuffle[i % 4]);
    }
    /* The start position now stands for the third time. */
    Core_Status st = core_status(pos);
    cr_assert_eq(st.outcome, CORE_DRAW);
    cr_assert_eq(st.reason, CORE_REASON_REPETITION);
    Core_Move mv;
    cr_assert_eq(core_move_parse(pos, "a1-b2", &mv), TB_E_OVER);
    core_position_free(pos);
}

Test(laska, notation_forms_D_LA_9)
{
    Core_Position *pos = start();
    Core_Move a, b;
    /* Lasker's numbers: 9-13 is c3-d4. */
    cr_assert_eq(core_move_parse(pos, "9-13", &a), 0);
    cr_assert_eq(core_move_parse(pos, "c3-d4", &b), 0);
    cr_assert(core_move_equal(&a, &b));
    core_position_free(pos);

    /* Numeric capture with the jumped square: 17-13-9 is e5xc3. */
    pos = at("b e5b d4w a1w");
    cr_assert_eq(core_move_parse(pos, "17-13-9", &a), 0);
    cr_assert_eq(core_move_parse(pos, "e5xc3", &b), 0);
    cr_assert(core_move_equal(&a, &b));
    /* All squares adjacent, but 13 is not between 17 and 10. */
    cr_assert_eq(core_move_parse(pos, "17-13-10", &a), TB_E_NOTATION);
    core_position_free(pos);

    /* First and last squares only, when exactly one capture fits; the
     * output lists every landing square; '*' is ignored. */
    pos = at("w a3w c3w g3w b4b d4b d6b g7b");
    char text[CORE_NOTATION_MAX];
    cr_assert_eq(core_move_parse(pos, "c3xc7*", &a), 0);
    cr_assert_eq(core_move_format(pos, &a, text, sizeof text), 0);
    cr_assert_str_eq(text, "c3xe5xc7");
    core_position_free(pos);

    /* Two captures share first and last squares: ambiguous. */
    pos = at("w c1W b2b b4b d4b d2b g7b");
    cr_assert_eq(core_move_parse(pos, "c1xc1", &a), TB_E_AMBIGUOUS);
    core_position_free(pos);
}

Test(laska, position_string_round_trip_D_LA_9)
{
    static const char *const texts[] = {
        "w a1w c1w e1w g1w b2w d2w f2w a3w c3w e3w g3w a5b c5b e5b g5b "
        "b6b d6b f6b a7b c7b e7b g7b 0 0",
        "b a1W d4WbbB g7b 12 40",
    };
    for (size_t i = 0; i < 2; i++) {
        Core_Position *pos = at(texts[i]);
        expect_position(pos, texts[i]);
        core_position_free(pos);
    }
    Core_Position *pos = start();
    expect_position(pos, texts[0]);
    core_position_free(pos);
}

/* ---- hostile input -------------------------------------------------- */

Test(laska, malformed_moves_are_refused)
{
    Core_Position *pos = start();
    Core_Move mv;
    static const char *const bad[] = {
        "", "c3", "c3-", "c3--d4", "-c3-d4", "c3-d4-", "0-5", "26-21", "9-",
        "c3 d4", "c3-d4 ", "1234567-1", "*", "c3*d4", "c3-d44", "c3-d",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(core_move_parse(pos, bad[i], &mv), TB_E_NOTATION,
                     "'%s'", bad[i]);
    /* A letter and a digit that name no square of the 7x7 board's 25
     * dark squares (by hand: e4 and b1 are light, h1 and z9 off the
     * board, a8 past rank 7, d0 before rank 1): no such square, first
     * or later in the move. */
    static const char *const off[] = {"e4-d3", "h1-g2", "b1-c2", "z9-a1",
                                      "c3-a8", "c3-d0", "c3xe4", "g7:h8"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        cr_assert_eq(core_move_parse(pos, off[i], &mv), TB_E_SQUARE, "'%s'",
                     off[i]);
    cr_assert_eq(core_move_parse(pos, "c3-c5", &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_move_parse(pos, "b2-c3", &mv), TB_E_ILLEGAL);
    char *huge = malloc(5000);
    memset(huge, 'a', 4999);
    huge[4999] = '\0';
    cr_assert_eq(core_move_parse(pos, huge, &mv), TB_E_TOOLONG);
    memset(huge, '1', 100);
    huge[100] = '\0';
    cr_assert_eq(core_move_parse(pos, huge, &mv), TB_E_NOTATION);
    free(huge);
    core_position_free(pos);
}

Test(laska, impossible_positions_are_refused)
{
    static const char *const bad[] = {
        "", "x", "w d4q", "w d4", "w b1w", "w h1w", "w d8w", "w d4w d4b",
        "w a7w", "b a1b", /* unpromoted soldiers on their last rank */
        "w a1wwwwwwwwwwww", /* twelve white pieces */
        "w a1w 5", "w a1w 5 2", "w a1w 101 200", "w a1w 1 2 3",
        "w a1w 3 4 c3w", "w a1wbbbbbbbbbbbbwwwwwwwwwww",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Core_Position *pos = start();
        char why[128] = "";
        int rc = core_position_parse(pos, bad[i], why, sizeof why);
        cr_assert_eq(rc, TB_E_POSITION, "'%s' gave %s", bad[i],
                     tb_errname(rc));
        cr_assert_neq(why[0], '\0', "'%s' has no reason", bad[i]);
        /* The position is unchanged. */
        expect_position(pos, "w a1w c1w e1w g1w b2w d2w f2w a3w c3w e3w "
                             "g3w a5b c5b e5b g5b b6b d6b f6b a7b c7b e7b "
                             "g7b 0 0");
        core_position_free(pos);
    }
}

/* A trial's "w a1w -5 10" was told "a column after the counters", a
 * 20-digit counter "expected two counters", a tab between fields a bad
 * side or piece: each reason names the fault, and a tab separates as a
 * space does (as Chess volleyball's strings always read it). Leading
 * zeros are only zeros. */
Test(laska, a_bad_counter_is_named_as_one)
{
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"w a1w -5 10", "a counter is a whole number, no sign, no leading zero: QUIET 0..100, PLY 0..1000"},
        {"w a1w 5 -10", "a counter is a whole number, no sign, no leading zero: QUIET 0..100, PLY 0..1000"},
        {"w a1w +5 10", "a counter is a whole number, no sign, no leading zero: QUIET 0..100, PLY 0..1000"},
        {"w a1w 12345678901234567890 10",
         "QUIET at most 100 and PLY, PLY at most 1000"},
        {"w a1w 5 1000000000", "QUIET at most 100 and PLY, PLY at most 1000"},
        {"w a1w 5 1001", "QUIET at most 100 and PLY, PLY at most 1000"},
        {"w a1w 5 x", "expected two counters: QUIET PLY"},
        {"w a1w 5 9 x", "nothing may follow the counters QUIET PLY"},
        {"w a1w 5 9\r", "fields are printable ASCII separated by spaces or "
                        "tabs; a line end or other character is not"},
        {"w a1w\n5 9", "fields are printable ASCII separated by spaces or "
                       "tabs; a line end or other character is not"},
        {"w a1w 5x 10", "a counter is a whole number, no sign, no leading zero: QUIET 0..100, PLY 0..1000"},
        {"w a1w 1 2 3", "more than two counters: QUIET PLY"},
        /* one spelling of a number in every game's text: no leading zero
         * (core_read_uint) */
        {"w a1w 0000000005 0000000009",
         "a counter is a whole number, no sign, no leading zero: QUIET 0..100, PLY 0..1000"},
        {"w a1w 05 9", "a counter is a whole number, no sign, no leading zero: QUIET 0..100, PLY 0..1000"},
        {"w a1w 1", "expected two counters: QUIET PLY"},
        {"w a1w 3 4 c3w", "a column after the counters"},
    };
    Core_Position *z = start();
    cr_assert_eq(core_position_parse(z, "w a1w 0 0", NULL, 0), 0);
    expect_position(z, "w a1w 0 0");
    /* A tab separates as a space does. */
    cr_assert_eq(core_position_parse(z, "b\ta1w\t\tc3b 2 7\t", NULL, 0), 0);
    expect_position(z, "b a1w c3b 2 7");
    core_position_free(z);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Core_Position *pos = start();
        char why[160] = "";
        int rc = core_position_parse(pos, cases[i].text, why, sizeof why);
        cr_assert_eq(rc, TB_E_POSITION, "'%s'", cases[i].text);
        cr_assert_str_eq(why, cases[i].why, "'%s'", cases[i].text);
        core_position_free(pos);
    }
}

Test(laska, no_options_accepted)
{
    Core_Position *pos = NULL;
    cr_assert_eq(core_position_new(&pos, laska(), "goals=3"), TB_E_OPTION);
    cr_assert_null(pos);
    cr_assert_eq(core_position_new(&pos, laska(), ""), 0);
    char opts[8];
    cr_assert_eq(core_options_format(pos, opts, sizeof opts), 0);
    cr_assert_str_eq(opts, "");
    core_position_free(pos);
}

Test(laska, illegal_play_leaves_position_unchanged)
{
    Core_Position *pos = start();
    Core_Move mv = {2, 0, {1, 5}}; /* c1 to d2: occupied */
    cr_assert_eq(core_play(pos, &mv), TB_E_ILLEGAL);
    cr_assert_eq(core_ply(pos), 0);
    cr_assert_eq(core_side_to_move(pos), CORE_WHITE);
    core_position_free(pos);
}

/* ---- encoding ------------------------------------------------------- */

Test(laska, encoding_round_trips_through_a_game)
{
    Core_Position *pos = start(), *copy = start();
    uint8_t a[2048], b[2048];
    size_t la = 0, lb = 0;
    for (int ply = 0; ply < 40; ply++) {
        Core_Move buf[512];
        size_t n = 0;
        cr_assert_eq(core_moves(pos, buf, 512, &n), 0);
        if (n == 0)
            break;
        core_make(pos, &buf[(size_t)ply * 7 % n]);
        cr_assert_eq(core_encode(pos, a, sizeof a, &la), 0);
        cr_assert_eq(core_decode(copy, a, la), 0);
        cr_assert_eq(core_encode(copy, b, sizeof b, &lb), 0);
        cr_assert_eq(la, lb);
        cr_assert_eq(memcmp(a, b, la), 0);
        cr_assert_eq(core_key(copy), core_key(pos));
    }
    core_position_free(pos);
    core_position_free(copy);
}

Test(laska, hostile_encodings_are_refused)
{
    Core_Position *pos = start();
    uint8_t enc[2048], mut[2048];
    size_t len = 0;
    cr_assert_eq(core_encode(pos, enc, sizeof enc, &len), 0);

    /* Every truncation, every single-byte change in the fixed part. */
    for (size_t cut = 0; cut < len; cut++)
        cr_assert_neq(core_decode(pos, enc, cut), 0, "cut %zu", cut);
    for (size_t i = 0; i < len; i++) {
        for (int v = 0; v < 256; v += 17) {
            memcpy(mut, enc, len);
            if (mut[i] == (uint8_t)v)
                continue;
            mut[i] = (uint8_t)v;
            int rc = core_decode(pos, mut, len);
            /* A changed byte either is refused or decodes to a state that
             * re-encodes to exactly these bytes. */
            if (rc == 0) {
                uint8_t again[2048];
                size_t l2 = 0;
                cr_assert_eq(core_encode(pos, again, sizeof again, &l2), 0);
                cr_assert_eq(l2, len);
                cr_assert_eq(memcmp(again, mut, len), 0);
            }
        }
    }
    /* Trailing garbage. */
    memcpy(mut, enc, len);
    mut[len] = 0;
    cr_assert_eq(core_decode(pos, mut, len + 1), TB_E_ENCODING);
    /* Random bytes never crash. */
    uint64_t x = 12345;
    for (int round = 0; round < 2000; round++) {
        size_t n = (size_t)(round % 300);
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            mut[i] = (uint8_t)(x >> 56);
        }
        if (n > 0)
            mut[0] = 1;
        (void)core_decode(pos, mut, n);
    }
    core_position_free(pos);
}

/* A cell's glyph is its column top first in letters, never a letter and
 * a digit that reads as a square's name ("b2" on a3 did, a usability
 * finding); above three pieces the top two and '+'. The detail keeps the
 * whole column. Rank 7 is row 0, file a column 0. */
Test(laska, view_glyph_lists_the_column_in_letters)
{
    Core_Position *pos = at("w a1w c3bw e5Bww d4WbbBw g7b 0 0");
    Core_View v;
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_str_eq(v.cell[6][0].glyph, "w");   /* a1, one piece */
    cr_assert_str_eq(v.cell[4][2].glyph, "bw");  /* c3 */
    cr_assert_str_eq(v.cell[2][4].glyph, "Bww"); /* e5, three: all shown */
    cr_assert_str_eq(v.cell[3][3].glyph, "Wb+"); /* d4, five */
    cr_assert_str_eq(v.cell[3][3].detail, "WbbBw");
    cr_assert_eq(v.cell[3][3].owner, CORE_WHITE);
    cr_assert_eq(v.cell[4][2].owner, CORE_BLACK);
    for (int r = 0; r < v.rows; r++)
        for (int c = 0; c < v.cols; c++)
            cr_assert_null(strpbrk(v.cell[r][c].glyph, "0123456789"),
                           "row %d col %d: %s", r, c, v.cell[r][c].glyph);
    core_position_free(pos);
}

/* Table points (core_table_points, half points) of a game without a table
 * of its own: a win 1 : 0, a draw 1/2 : 1/2, an aborted game 0 : 0, none
 * while it goes on. */
Test(laska, table_points_are_one_half_and_nothing)
{
    Core_Position *pos = NULL;
    unsigned out[2];
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), ""), 0);
    Core_Status w = {CORE_WIN_WHITE, CORE_REASON_RESIGN},
                b = {CORE_WIN_BLACK, CORE_REASON_NO_MOVES},
                d = {CORE_DRAW, CORE_REASON_AGREEMENT},
                a = {CORE_ABORTED, CORE_REASON_ABORT};
    cr_assert_eq(core_table_points(pos, w, out), 0);
    cr_assert(out[0] == 2 && out[1] == 0);
    cr_assert_eq(core_table_points(pos, b, out), 0);
    cr_assert(out[0] == 0 && out[1] == 2);
    cr_assert_eq(core_table_points(pos, d, out), 0);
    cr_assert(out[0] == 1 && out[1] == 1);
    cr_assert_eq(core_table_points(pos, a, out), 0);
    cr_assert(out[0] == 0 && out[1] == 0);
    cr_assert_eq(core_table_points(pos, core_status(pos), out), TB_E_STATE);
    cr_assert_eq(core_table_points(NULL, w, out), TB_E_ARG);
    core_position_free(pos);
}
