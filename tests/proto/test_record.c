/*
 * test_record.c: plain game records. Tags, move numbers, comments,
 * variations, annotation glyphs and results are read; every move must be
 * legal; Laska records in the lasca.org notation and in Lasker's numeric
 * notation give the same game (the squares were converted by hand:
 * a1=1, c1=2, e1=3, g1=4, b2=5, d2=6, f2=7, a3=8, c3=9, ...); failures
 * name the line and ply; hostile input gives clean errors.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "match_util.h"
#include "toy_game.h"

static int read_rec(const char *text, const Core_Game *g,
                    Proto_Record_Report *rep, Core_Position **pos)
{
    return proto_record_read(text, strlen(text), g, NULL, NULL, pos, rep);
}

static void hash_of(const Core_Position *pos, char hex[PROTO_HASH_HEX])
{
    uint8_t h[PROTO_HASH_BYTES];
    cr_assert_eq(proto_state_hash(pos, h), 0);
    proto_hex(h, sizeof h, hex);
}

Test(record, laska_algebraic_and_numeric_agree)
{
    static const char algebraic[] =
        "[Event \"Casual\"]\n[Site \"lasca.org\"]\n[Game \"laska\"]\n"
        "[Result \"*\"]\n\n"
        "1. c3-d4 e5xc3 2. b2xd4 g5-f4 3. e3xg5 *\n";
    /* c3=9 d4=13 e5=17 c3=9 b2=5 g5=18 f4=14 e3=10; jumps list the jumped
     * square too: e5xc3 = 17-13-9, b2xd4 = 5-9-13, e3xg5 = 10-14-18. */
    static const char numeric[] =
        "[Variant \"Laska\"]\n"
        "1. 9-13 17-13-9 2. 5-9-13 18-14 3. 10-14-18\n";
    Proto_Record_Report rep;
    Core_Position *a = NULL, *b = NULL;
    char ha[PROTO_HASH_HEX], hb[PROTO_HASH_HEX];

    cr_assert_eq(read_rec(algebraic, NULL, &rep, &a), 0, "%s", rep.why);
    cr_assert_str_eq(proto_record_tag(&rep, "site"), "lasca.org");
    cr_assert_str_eq(rep.result, "*");
    cr_assert_eq(core_ply(a), 5);
    cr_assert_eq(read_rec(numeric, NULL, &rep, &b), 0, "%s", rep.why);
    hash_of(a, ha);
    hash_of(b, hb);
    cr_assert_str_eq(ha, hb);
    /* and the same as playing the moves through the core */
    Core_Position *c = NULL;
    Core_Move mv;
    const char *moves[] = {"c3-d4", "e5xc3", "b2xd4", "g5-f4", "e3xg5"};
    cr_assert_eq(core_position_new(&c, core_game_find("laska"), NULL), 0);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(core_move_parse(c, moves[i], &mv), 0);
        cr_assert_eq(core_play(c, &mv), 0);
    }
    hash_of(c, hb);
    cr_assert_str_eq(ha, hb);
    core_position_free(a);
    core_position_free(b);
    core_position_free(c);
}

Test(record, movetext_decorations)
{
    static const char text[] =
        "[Game \"laska\"]\n"
        "; a comment line\n"
        "1.c3-d4 {a brace comment\n over two lines} 1... e5xc3! $1\n"
        "2. b2xd4 (2. d2xb4 g5-f4) g5-f4?! 3. e3xg5 1-0\n";
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    cr_assert_eq(read_rec(text, NULL, &rep, &pos), 0, "%s", rep.why);
    cr_assert_eq(core_ply(pos), 5);
    cr_assert_str_eq(rep.result, "1-0"); /* board unfinished: allowed */
    core_position_free(pos);
}

Test(record, failures_name_line_and_ply)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;

    cr_assert_eq(
        read_rec("[Game \"laska\"]\n1. c3-d4\n2. e5-f4\n", NULL, &rep, &pos),
        TB_E_ILLEGAL);
    cr_assert_eq(rep.line, 3);
    cr_assert_eq(rep.col, 4); /* "2. " before it */
    cr_assert_eq(rep.ply, 2);
    cr_assert_null(pos);
    /* (z9 is off the board: no such square) */
    cr_assert_eq(read_rec("[Game \"laska\"]\n\n\n1. c3-z9\n", NULL, &rep, &pos),
                 TB_E_SQUARE);
    cr_assert_eq(rep.line, 4);
    cr_assert(strstr(rep.why, "c3-z9") != NULL);
    cr_assert_eq(read_rec("1. c3-d4\n", NULL, &rep, &pos), TB_E_GAME);
    cr_assert_eq(read_rec("[Game \"chess\"]\n1. e4\n", NULL, &rep, &pos),
                 TB_E_GAME);
    cr_assert_eq(
        read_rec("[Game \"laska\"]\n1. c3-d4 * e5xc3\n", NULL, &rep, &pos),
        TB_E_FORMAT);
    cr_assert_eq(read_rec("[Game \"laska\"\n", NULL, &rep, &pos), TB_E_FORMAT);
    cr_assert_eq(read_rec("[Game \"laska]\n", NULL, &rep, &pos), TB_E_FORMAT);
    cr_assert_eq(read_rec("[Game \"laska\"]\n{open", NULL, &rep, &pos),
                 TB_E_FORMAT);
    cr_assert_eq(read_rec("[Game \"laska\"]\n(1. c3-d4", NULL, &rep, &pos),
                 TB_E_FORMAT);
    cr_assert_eq(
        read_rec("[Game \"laska\"]\n[Options \"nope=1\"]\n", NULL, &rep, &pos),
        TB_E_OPTION);
    cr_assert_eq(
        read_rec("[Game \"laska\"]\n[Position \"w zz\"]\n", NULL, &rep, &pos),
        TB_E_POSITION);
}

Test(record, stated_result_must_match_a_finished_board)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    /* race to 5: +3 +1 +1, White wins */
    cr_assert_eq(read_rec("[Options \"target=5\"]\n1. +3 +1 2. +1 1-0\n",
                          &toy_game, &rep, &pos),
                 0, "%s", rep.why);
    core_position_free(pos);
    cr_assert_eq(read_rec("[Options \"target=5\"]\n1. +3 +1 2. +1 0-1\n",
                          &toy_game, &rep, NULL),
                 TB_E_FORMAT);
    cr_assert(strstr(rep.why, "board says 1-0") != NULL, "%s", rep.why);
    cr_assert_eq(read_rec("[Options \"target=5\"]\n[Result \"1/2-1/2\"]\n"
                          "1. +3 +1 2. +1\n",
                          &toy_game, &rep, NULL),
                 TB_E_FORMAT);
    cr_assert_eq(read_rec("[Options \"target=5\"]\n1. +3 +1 2. +1 +1\n",
                          &toy_game, &rep, NULL),
                 TB_E_OVER);
    /* A Position tag sets the start. */
    cr_assert_eq(
        read_rec("[Position \"19 b\"]\n1... +2 0-1\n", &toy_game, &rep, &pos),
        0, "%s", rep.why);
    cr_assert_eq(core_status(pos).outcome, CORE_WIN_BLACK);
    core_position_free(pos);
}

Test(record, hostile_input)
{
    Proto_Record_Report rep;
    static char big[CORE_INPUT_MAX + 64];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big, "[Game \"laska\"]\n", 15);
    cr_assert_eq(read_rec(big, NULL, &rep, NULL), TB_E_TOOLONG);
    /* too many tags */
    static char tags[64 * 40];
    size_t n = 0;
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(tags + n, sizeof tags - n, "[T%d \"v\"]\n", i);
    cr_assert_eq(read_rec(tags, NULL, &rep, NULL), TB_E_TOOLONG);
    /* a tag value too long */
    static char val[600];
    memset(val, 'v', sizeof val);
    memcpy(val, "[Event \"", 8);
    memcpy(val + sizeof val - 4, "\"]\n", 4);
    cr_assert_eq(read_rec(val, NULL, &rep, NULL), TB_E_TOOLONG);
    /* NUL bytes and binary junk */
    const char junk[] = "[Game \"laska\"]\n\x01\xff\x80 c3-d4";
    cr_assert_eq(
        proto_record_read(junk, sizeof junk - 1, NULL, NULL, NULL, NULL, &rep),
        TB_E_NOTATION);
    const char nul[] = "[Game \"laska\"]\n1. c3-d4\0 e5xc3";
    cr_assert_eq(
        proto_record_read(nul, sizeof nul - 1, NULL, NULL, NULL, NULL, &rep), 0,
        "%s", rep.why);
    /* an empty record of a named game is an empty game */
    cr_assert_eq(read_rec("[Game \"laska\"]", NULL, &rep, NULL), 0);
}

/* Apply the moves through the core and give the state hash. */
static void hash_after(const char *game, const char *const *moves, size_t n,
                       char hex[PROTO_HASH_HEX])
{
    Core_Position *pos = NULL;
    Core_Move mv;
    cr_assert_eq(core_position_new(&pos, core_game_find(game), NULL), 0);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(core_move_parse(pos, moves[i], &mv), 0, "%s", moves[i]);
        cr_assert_eq(core_play(pos, &mv), 0);
    }
    hash_of(pos, hex);
    core_position_free(pos);
}

Test(record, moves_of_several_words)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    char a[PROTO_HASH_HEX], b[PROTO_HASH_HEX];

    /* Football chess: a turn is a move and kicks, every prefix a turn
     * (docs/rules/football.md); the longest legal reading wins. */
    cr_assert_not_null(core_game_find("football"));
    cr_assert_eq(read_rec("[Game \"football\"]\n1. d1-d6 d6*h2 h1*f3 *\n", NULL,
                          &rep, &pos),
                 0, "%s", rep.why);
    cr_assert_eq(core_ply(pos), 1);
    const char *full[] = {"d1-d6 d6*h2 h1*f3"};
    hash_after("football", full, 1, a);
    hash_of(pos, b);
    cr_assert_str_eq(a, b);
    core_position_free(pos);
    cr_assert_eq(
        read_rec("[Game \"football\"]\n1. d1-d6 d6*h2\n", NULL, &rep, &pos), 0,
        "%s", rep.why);
    cr_assert_eq(core_ply(pos), 1);
    core_position_free(pos);
    /* Chess volleyball: a kind letter, a space, the action. */
    cr_assert_not_null(core_game_find("volleyball"));
    cr_assert_eq(
        read_rec("[Game \"volleyball\"]\n1. S Bc3-d2>g5\n", NULL, &rep, &pos),
        0, "%s", rep.why);
    cr_assert_eq(core_ply(pos), 1);
    const char *serve[] = {"S Bc3-d2>g5"};
    hash_after("volleyball", serve, 1, a);
    hash_of(pos, b);
    cr_assert_str_eq(a, b);
    core_position_free(pos);
    /* A word that joins nothing is reported alone. */
    cr_assert_eq(read_rec("[Game \"volleyball\"]\n1. S\n", NULL, &rep, &pos),
                 TB_E_NOTATION);
    cr_assert(strstr(rep.why, "move 'S'") != NULL, "%s", rep.why);
}

/* ---- the import format as the world writes it (issue 16) ---- */

/* The three-ply Laska game 1. c3-d4 e5xc3 2. b2xd4 with result 1-0, as
 * the reference every line-end and encoding variant must give. */
static void reference(char hex[PROTO_HASH_HEX])
{
    Core_Position *c = NULL;
    Core_Move mv;
    const char *moves[] = {"c3-d4", "e5xc3", "b2xd4"};
    cr_assert_eq(core_position_new(&c, core_game_find("laska"), NULL), 0);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(core_move_parse(c, moves[i], &mv), 0);
        cr_assert_eq(core_play(c, &mv), 0);
    }
    hash_of(c, hex);
    core_position_free(c);
}

/* text must read as the reference game: 3 plies, result 1-0. */
static void reads_as_reference(const char *text, size_t len)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    char want[PROTO_HASH_HEX], got[PROTO_HASH_HEX];

    reference(want);
    cr_assert_eq(proto_record_read(text, len, NULL, NULL, NULL, &pos, &rep),
                 0, "%s (line %u)", rep.why, rep.line);
    cr_assert_eq(core_ply(pos), 3, "plies read: %u", core_ply(pos));
    cr_assert_str_eq(rep.result, "1-0");
    hash_of(pos, got);
    cr_assert_str_eq(got, want);
    core_position_free(pos);
}

Test(record, lone_cr_line_ends_lose_nothing)
{
    /* Issue 16 case 7: this read as 1 ply with result '*'. */
    static const char text[] = "[Game \"laska\"]\r\r1. c3-d4 ; good\r"
                               "e5xc3 2. b2xd4 1-0\r";
    reads_as_reference(text, strlen(text));
}

Test(record, lf_crlf_and_cr_give_the_same_game_and_lines)
{
    static const char *const ends[] = {"\n", "\r\n", "\r"};
    for (size_t i = 0; i < 3; i++) {
        char text[512], bad[512];
        const char *e = ends[i];
        snprintf(text, sizeof text,
                 "[Game \"laska\"]%s[Result \"1-0\"]%s%s"
                 "1. c3-d4 {a comment%sover lines} e5xc3 ; rest%s"
                 "2. b2xd4 1-0%s",
                 e, e, e, e, e, e);
        reads_as_reference(text, strlen(text));
        /* The line of a failure counts CRLF once and a lone CR as one. */
        snprintf(bad, sizeof bad, "[Game \"laska\"]%s%s1. c3-d4%se5-f4%s", e,
                 e, e, e);
        Proto_Record_Report rep;
        cr_assert_eq(read_rec(bad, NULL, &rep, NULL), TB_E_ILLEGAL);
        cr_assert_eq(rep.line, 4, "line ends %zu: line %u", i, rep.line);
        cr_assert_eq(rep.ply, 2);
    }
}

Test(record, byte_order_mark_and_escape_lines)
{
    /* Issue 16 cases 8 and 9. */
    static const char bom[] = "\xef\xbb\xbf[Game \"laska\"]\n"
                              "1. c3-d4 e5xc3 2. b2xd4 1-0\n";
    static const char escape[] = "% exported by some tool\n"
                                 "[Game \"laska\"]\n"
                                 "%1. c3-d4 this line is ignored\n"
                                 "1. c3-d4 e5xc3\n"
                                 "% so is this one 0-1\n"
                                 "2. b2xd4 1-0\n";
    reads_as_reference(bom, strlen(bom));
    reads_as_reference(escape, strlen(escape));
    /* '%' elsewhere than the first column is no escape. */
    Proto_Record_Report rep;
    cr_assert_eq(read_rec("[Game \"laska\"]\n1. c3-d4 %e5xc3\n", NULL, &rep,
                          NULL),
                 TB_E_NOTATION);
    cr_assert_eq(rep.line, 2);
}

Test(record, move_numbers_in_every_written_form)
{
    static const char *const forms[] = {
        "1. c3-d4 e5xc3 2. b2xd4 1-0",
        "1.c3-d4 1...e5xc3 2.b2xd4 1-0",
        "1 c3-d4 1 e5xc3 2 b2xd4 1-0",
        "1. c3-d4 1. ... e5xc3 2. b2xd4 1-0",
        "1... c3-d4 1.. e5xc3 2.... b2xd4 1-0",
        "c3-d4 e5xc3 b2xd4 1-0",
        "1. c3-d4 $1 (1. a3-b4 c5xa3) e5xc3 $14 2. b2xd4!? 1-0",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "[Game \"laska\"]\n%s\n", forms[i]);
        reads_as_reference(text, strlen(text));
    }
}

Test(record, result_tag_must_agree_with_the_movetext)
{
    /* Issue 16 case 10. */
    Proto_Record_Report rep;
    cr_assert_eq(read_rec("[Game \"laska\"]\n[Result \"1-0\"]\n\n"
                          "1. c3-d4 e5xc3 0-1\n",
                          NULL, &rep, NULL),
                 TB_E_FORMAT);
    cr_assert(strstr(rep.why, "Result tag says 1-0") != NULL, "%s", rep.why);
    cr_assert(strstr(rep.why, "0-1") != NULL, "%s", rep.why);
    cr_assert_eq(read_rec("[Game \"laska\"]\n[Result \"1/2-1/2\"]\n"
                          "1. c3-d4 *\n",
                          NULL, &rep, NULL),
                 TB_E_FORMAT);
    /* Agreeing, or only one of the two: read. */
    cr_assert_eq(read_rec("[Game \"laska\"]\n[Result \"0-1\"]\n"
                          "1. c3-d4 0-1\n",
                          NULL, &rep, NULL),
                 0, "%s", rep.why);
    cr_assert_eq(read_rec("[Game \"laska\"]\n[Result \"0-1\"]\n1. c3-d4\n",
                          NULL, &rep, NULL),
                 0, "%s", rep.why);
    cr_assert_str_eq(rep.result, "0-1");
}

Test(record, nothing_is_skipped_silently)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    /* A '[' inside the movetext is no second game. */
    cr_assert_eq(read_rec("[Game \"laska\"]\n1. c3-d4 [e5xc3] 2. b2xd4\n",
                          NULL, &rep, NULL),
                 TB_E_FORMAT);
    cr_assert_eq(rep.line, 2);
    cr_assert_eq(rep.ply, 2);
    cr_assert_eq(read_rec("[Game \"laska\"]\n1. c3-d4 } e5xc3\n", NULL, &rep,
                          NULL),
                 TB_E_FORMAT);
    /* An unclosed comment names the line it opened on. */
    cr_assert_eq(read_rec("[Game \"laska\"]\n1. c3-d4 {open\n\n\ne5xc3\n",
                          NULL, &rep, NULL),
                 TB_E_FORMAT);
    cr_assert_eq(rep.line, 2);
    /* A second game's tags at the start of a line end the first game. */
    cr_assert_eq(read_rec("[Game \"laska\"]\n1. c3-d4 e5xc3 2. b2xd4 1-0\n\n"
                          "[Game \"laska\"]\n1. a3-b4 *\n",
                          NULL, &rep, &pos),
                 0, "%s", rep.why);
    cr_assert_eq(core_ply(pos), 3);
    core_position_free(pos);
}

/* ---- every game, every line-end style (a second method: the core) ---- */

/* A game of up to plies random plies of game g played through the core;
 * its record (one move number per ply, comments of several lines, an
 * escape line, non-ASCII comment bytes) with line ends eol into text,
 * the final state hash into hex. Returns the plies played. */
static unsigned random_record(const Core_Game *g, unsigned seed,
                              unsigned plies, const char *eol, int bom,
                              char *text, size_t cap, char hex[PROTO_HASH_HEX])
{
    Core_Position *pos = NULL;
    size_t n = 0, max = core_game_max_moves(g);
    Core_Move *mv = malloc(max * sizeof *mv);
    unsigned ply = 0;
    size_t len = 0;

    cr_assert_not_null(mv);
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    len += (size_t)snprintf(text + len, cap - len,
                            "%s%% written by a test%s[Game \"%s\"]%s%s",
                            bom ? "\xef\xbb\xbf" : "", eol, core_game_name(g),
                            eol, eol);
    for (; ply < plies && core_status(pos).outcome == CORE_ONGOING; ply++) {
        char m[CORE_NOTATION_MAX];
        cr_assert_eq(core_moves(pos, mv, max, &n), 0);
        if (n == 0)
            break;
        seed = seed * 1103515245u + 12345u;
        const Core_Move *pick = &mv[(seed >> 8) % n];
        cr_assert_eq(core_move_format(pos, pick, m, sizeof m), 0);
        cr_assert_eq(core_play(pos, pick), 0);
        len += (size_t)snprintf(text + len, cap - len, "%u. %s ", ply + 1, m);
        if (ply % 5 == 2)
            len += (size_t)snprintf(text + len, cap - len,
                                    "{caf\xc3\xa9%sna\xefve} ", eol);
        if (ply % 7 == 3)
            len += (size_t)snprintf(text + len, cap - len, "; note%s", eol);
        if (ply % 11 == 5)
            len += (size_t)snprintf(text + len, cap - len,
                                    "%s%% an escape line 1-0%s", eol, eol);
        cr_assert_lt(len, cap - 64);
    }
    len += (size_t)snprintf(text + len, cap - len, "*%s", eol);
    hash_of(pos, hex);
    core_position_free(pos);
    free(mv);
    return ply;
}

Test(record, every_game_reads_alike_in_every_line_end_style)
{
    static const char *const eols[] = {"\n", "\r\n", "\r"};
    static char text[65536];
    for (size_t gi = 0; gi < core_game_count(); gi++) {
        const Core_Game *g = core_game_at(gi);
        for (unsigned seed = 1; seed <= 3; seed++)
            for (size_t e = 0; e < 3; e++)
                for (int bom = 0; bom < 2; bom++) {
                    char want[PROTO_HASH_HEX], got[PROTO_HASH_HEX];
                    unsigned plies = random_record(g, seed, 60, eols[e], bom,
                                                   text, sizeof text, want);
                    Proto_Record_Report rep;
                    Core_Position *pos = NULL;
                    cr_assert_eq(read_rec(text, NULL, &rep, &pos), 0,
                                 "%s seed %u eol %zu bom %d: %s (line %u)",
                                 core_game_name(g), seed, e, bom, rep.why,
                                 rep.line);
                    cr_assert_eq(core_ply(pos), plies);
                    hash_of(pos, got);
                    cr_assert_str_eq(got, want, "%s seed %u eol %zu",
                                     core_game_name(g), seed, e);
                    core_position_free(pos);
                }
    }
}

/* ---- movetext as python-chess reads it (chess/pgn.py, read_game) ---- */

/* text must read, in game g, as the moves played through the core, with
 * the given result. */
static void reads_as(const char *text, const char *game,
                     const char *const *moves, size_t n, const char *result)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    char want[PROTO_HASH_HEX], got[PROTO_HASH_HEX];

    hash_after(game, moves, n, want);
    cr_assert_eq(read_rec(text, NULL, &rep, &pos), 0,
                 "%s (line %u, column %u)\n%s", rep.why, rep.line, rep.col,
                 text);
    cr_assert_eq(core_ply(pos), n, "%s", text);
    cr_assert_str_eq(rep.result, result);
    hash_of(pos, got);
    cr_assert_str_eq(got, want, "%s", text);
    core_position_free(pos);
}

static const char *const laska_ref[] = {"c3-d4", "e5xc3", "b2xd4"};
/* Football chess (docs/rules/football.md): a queen move with a kick and a
 * pass to the knight, then a knight move each. */
static const char *const football_ref[] = {"d1-d6 d6*h2 h1*f3", "b9-c7",
                                           "b1-c3"};

/* text must fail with err at line, column and ply, its reason
 * containing why. */
static void fails_at(const char *text, int err, uint32_t line, uint32_t col,
                     uint32_t ply, const char *why)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    cr_assert_eq(read_rec(text, NULL, &rep, &pos), err, "%s: %s", text,
                 rep.why);
    cr_assert_null(pos);
    cr_assert_eq(rep.line, line, "%s: line %u", text, rep.line);
    cr_assert_eq(rep.col, col, "%s: column %u", text, rep.col);
    if (ply != 0)
        cr_assert_eq(rep.ply, ply, "%s: ply %u", text, rep.ply);
    cr_assert(strstr(rep.why, why) != NULL, "%s: %s", text, rep.why);
}

Test(record, glyphs_and_nags_glued_or_apart)
{
    /* python-chess: $N, and ! ? !! ?? !? ?! glued to the move or apart. */
    reads_as("[Game \"laska\"]\n"
             "1. c3-d4!! e5xc3 ?? 2. b2xd4$1 !? $14 ?! 1-0\n",
             "laska", laska_ref, 3, "1-0");
    /* A glyph on the last word of a move of several words. */
    reads_as("[Game \"football\"]\n"
             "1. d1-d6 d6*h2 h1*f3!? $3 b9-c7?! 2. b1-c3!! *\n",
             "football", football_ref, 3, "*");
    /* A '$' without a number is no NAG. */
    fails_at("[Game \"laska\"]\n1. c3-d4 $ e5xc3\n", TB_E_FORMAT, 2, 10, 0,
             "'$' without a number");
}

Test(record, null_moves)
{
    /* Laska has no turn without a move: refused, each spelling. */
    static const char *const nulls[] = {"--", "Z0", "0000", "@@@@"};
    for (size_t i = 0; i < 4; i++) {
        char text[96], why[32];
        snprintf(text, sizeof text, "[Game \"laska\"]\n1. c3-d4 %s\n",
                 nulls[i]);
        snprintf(why, sizeof why, "null move '%s'", nulls[i]);
        fails_at(text, TB_E_ILLEGAL, 2, 10, 2, why);
    }
    /* Football chess has one, written "pass": a null move is that. */
    const char *const passed[] = {"d1-d6 d6*h2 h1*f3", "pass", "b1-c3"};
    reads_as("[Game \"football\"]\n1. d1-d6 d6*h2 h1*f3 -- 2. b1-c3 *\n",
             "football", passed, 3, "*");
    const char *const four[] = {"pass", "pass", "pass", "pass"};
    reads_as("[Game \"football\"]\n1. -- Z0 2. 0000 @@@@ *\n", "football",
             four, 4, "*");
    /* Chess volleyball passes only in its chess stage, not at the serve. */
    fails_at("[Game \"volleyball\"]\n1. --\n", TB_E_ILLEGAL, 2, 4, 1,
             "no turn without a move (pass) is legal here");
}

Test(record, variations_are_checked_from_the_position_they_branch_at)
{
    /* Each side line replaces the move before it, nested too; parentheses
     * glued to moves. */
    reads_as("[Game \"laska\"]\n"
             "1. c3-d4 (1. a3-b4 c5xa3) e5xc3\n"
             "2. b2xd4 (2. d2xb4 {a comment (not a variation)} g5-f4\n"
             "  (2... c5-d4)(2... f6-e5 ; rest of line )\n"
             ")) (2. d2xb4) 1-0\n",
             "laska", laska_ref, 3, "1-0");
    reads_as("[Game \"football\"]\n"
             "1. d1-d6 d6*h2 h1*f3 (1. d1-d5 d5*i5) (1. pass) b9-c7\n"
             "(1... b9-a7 2. b1-c3) 2. b1-c3 *\n",
             "football", football_ref, 3, "*");
    /* An illegal side line fails at its move: after 1. a3-b4 Black must
     * take (c5xa3). Column 20, ply 2 of the side line. */
    fails_at("[Game \"laska\"]\n1. c3-d4 (1. a3-b4 e5-f4) e5xc3\n",
             TB_E_ILLEGAL, 2, 20, 2, "move 'e5-f4' in a variation");
    /* Football: a side line for White's first turn moving Black's knight. */
    fails_at("[Game \"football\"]\n1. d1-d6 d6*h2 h1*f3 (1... b9-c7) b9-c7\n",
             TB_E_ILLEGAL, 2, 28, 1, "move 'b9-c7' in a variation");
    /* No move to replace; a '(' never closed (named where it opened); a
     * result inside; a ')' with no '('. */
    fails_at("[Game \"laska\"]\n1. (1. a3-b4) c3-d4\n", TB_E_FORMAT, 2, 4, 0,
             "variation before any move");
    fails_at("[Game \"laska\"]\n1. c3-d4 (1. a3-b4\nc5xa3\n\n", TB_E_FORMAT,
             2, 10, 0, "never closed");
    fails_at("[Game \"laska\"]\n1. c3-d4 (1. a3-b4 1-0) e5xc3\n", TB_E_FORMAT,
             2, 20, 0, "result 1-0 inside a variation");
    fails_at("[Game \"laska\"]\n1. c3-d4 e5xc3) 2. b2xd4\n", TB_E_FORMAT, 2, 15,
             0, "stray ')'");
}

Test(record, variations_nest_boundedly)
{
    /* Each level replaces the first move of the level above. */
    static char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "[Game \"laska\"]\n1. c3-d4");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, " (1. c3-d4");
    Proto_Record_Report rep;
    cr_assert_eq(read_rec(text, NULL, &rep, NULL), TB_E_TOOLONG, "%s",
                 rep.why);
    cr_assert(strstr(rep.why, "nested deeper than 32") != NULL, "%s", rep.why);
    /* 32 levels, all closed, read. */
    n = (size_t)snprintf(text, sizeof text, "[Game \"laska\"]\n1. c3-d4");
    for (int i = 0; i < 32; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, " (1. c3-d4");
    for (int i = 0; i < 32; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, ")");
    snprintf(text + n, sizeof text - n, " e5xc3 2. b2xd4 1-0\n");
    reads_as(text, "laska", laska_ref, 3, "1-0");
}

Test(record, several_games_in_a_file)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    /* The first is read; the report names the line where the next
     * begins (indented tags too, with or without a result before). */
    static const char *const files[] = {
        "[Game \"laska\"]\n1. c3-d4 e5xc3 2. b2xd4 1-0\n\n"
        "[Event \"second\"]\n[Game \"laska\"]\n\n1. a3-b4 *\n",
        "[Game \"laska\"]\n1. c3-d4 e5xc3 2. b2xd4\n\n"
        "  [Event \"second\"]\n1. a3-b4 *\n",
        "[Game \"laska\"]\r\n1. c3-d4 e5xc3 2. b2xd4 1-0\r\n\r\n"
        "\t[Event \"second\"]\r\n1. a3-b4 *\r\n",
    };
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(read_rec(files[i], NULL, &rep, &pos), 0, "%s", rep.why);
        cr_assert_eq(core_ply(pos), 3);
        cr_assert_eq(rep.next_game, 4, "file %zu: %u", i, rep.next_game);
        core_position_free(pos);
    }
    /* One game alone names none. */
    cr_assert_eq(read_rec("[Game \"laska\"]\n1. c3-d4 1-0\n\n", NULL, &rep,
                          NULL),
                 0);
    cr_assert_eq(rep.next_game, 0);
    /* A second game without tags cannot be told from more moves. */
    fails_at("[Game \"laska\"]\n1. c3-d4 e5xc3 2. b2xd4 1-0\n\n1. c3-d4 *\n",
             TB_E_FORMAT, 4, 1, 0, "a second game must begin with its tags");
}

Test(record, tags_as_other_programs_write_them)
{
    Proto_Record_Report rep;
    static const char text[] =
        "[Event \"Club \\\"open\\\" \\\\ 2024\"]\n"
        "[Annotator \"He said \"hi\"\"]\n"
        "[Game\t\"laska\"]  \n"
        "[Time-Control \"5+3\"][Board#:=+ \"x\"]\n"
        "[White \"a\"] [Black \"b\"]\n"
        "[Site \"C:\\\"]\n"
        "1. c3-d4 e5xc3 2. b2xd4 1-0\n";
    reads_as_reference(text, strlen(text));
    cr_assert_eq(read_rec(text, NULL, &rep, NULL), 0);
    cr_assert_str_eq(proto_record_tag(&rep, "Event"), "Club \"open\" \\ 2024");
    cr_assert_str_eq(proto_record_tag(&rep, "Annotator"), "He said \"hi\"");
    cr_assert_str_eq(proto_record_tag(&rep, "Time-Control"), "5+3");
    cr_assert_str_eq(proto_record_tag(&rep, "Board#:=+"), "x");
    cr_assert_str_eq(proto_record_tag(&rep, "White"), "a");
    cr_assert_str_eq(proto_record_tag(&rep, "Black"), "b");
    /* A backslash before the closing quote stays (python-chess keeps it). */
    cr_assert_str_eq(proto_record_tag(&rep, "Site"), "C:\\");
    /* A value whose closing quote and bracket are missing: the tag's '['
     * is named. */
    fails_at("[Game \"laska\"]\n  [Event \"x]\n", TB_E_FORMAT, 2, 3, 0,
             "tag Event");
    fails_at("[Game \"laska\"]\n[-x \"y\"]\n", TB_E_FORMAT, 2, 2, 0,
             "bad tag line");
}

Test(record, failures_name_the_column)
{
    /* A tab is one column, a UTF-8 letter one, a byte-order mark none;
     * a move glued to its number is named where the move begins. */
    fails_at("[Game \"laska\"]\n1.\tc3-d4\te5-f4\n", TB_E_ILLEGAL, 2, 10, 2,
             "e5-f4");
    fails_at("[Game \"laska\"]\n1. c3-d4 {caf\xc3\xa9} e5-f4\n", TB_E_ILLEGAL,
             2, 17, 2, "e5-f4");
    fails_at("\xef\xbb\xbf[Game \"laska\"] 1. c3-d4 e5-f4\n", TB_E_ILLEGAL, 1,
             25, 2, "e5-f4");
    fails_at("[Game \"laska\"]\r\n1. c3-d4 1...e5-f4\r\n", TB_E_ILLEGAL, 2, 14,
             2, "e5-f4");
    /* The result that disagrees with the Result tag is named. */
    fails_at("[Game \"laska\"]\n[Result \"1-0\"]\n1. c3-d4 e5xc3 0-1\n",
             TB_E_FORMAT, 3, 16, 0, "Result tag says 1-0");
    /* A comment never closed is named at its '{'. */
    fails_at("[Game \"laska\"]\n1. c3-d4 {open\n\ne5xc3\n", TB_E_FORMAT, 2, 10,
             0, "never closed");
}
