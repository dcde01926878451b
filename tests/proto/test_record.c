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
        "2. b2xd4 (2. d2xb4 a5xc3) g5-f4?! 3. e3xg5 1-0\n";
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
    cr_assert_eq(rep.ply, 2);
    cr_assert_null(pos);
    cr_assert_eq(read_rec("[Game \"laska\"]\n\n\n1. c3-z9\n", NULL, &rep, &pos),
                 TB_E_NOTATION);
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
        "1. c3-d4 $1 e5xc3 $14 (1... e5-f4) 2. b2xd4!? 1-0",
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
