/*
 * test_i18n.c: the tabula program in Czech and Russian (issue 19): digits
 * grouped for people, display widths of UTF-8 text, core's texts
 * translated at the client edge with their plural forms, the language
 * chosen from the environment, and machine-read lines (perft, moves,
 * demo's ply, result and final-hash lines, replay's lines) byte-identical
 * in every language and locale. Expected translations are written out by
 * hand from po/cs.po and po/ru.po; expected machine lines come from the
 * same command run in English.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libintl.h>

#include "i18n.h"
#include "match.h"
#include "core.h"

/* ---- in process ------------------------------------------------------ */

Test(i18n, digits_grouped_as_the_locale_says)
{
    char out[64];
    /* cs_CZ and ru_RU group by threes with U+202F (narrow no-break). */
    cr_assert_str_eq(cli_group_digits(1234567, "\xe2\x80\xaf", "\3\3", out,
                                      sizeof out),
                     "1\xe2\x80\xaf" "234\xe2\x80\xaf" "567");
    cr_assert_str_eq(cli_group_digits(999, ",", "\3", out, sizeof out), "999");
    cr_assert_str_eq(cli_group_digits(1000, ",", "\3", out, sizeof out),
                     "1,000");
    cr_assert_str_eq(cli_group_digits(0, ",", "\3", out, sizeof out), "0");
    cr_assert_str_eq(cli_group_digits(UINT64_MAX, ",", "\3", out, sizeof out),
                     "18,446,744,073,709,551,615");
    /* The last group size repeats; "3;2" groups 12,34,56,789. */
    cr_assert_str_eq(cli_group_digits(123456789, ",", "\3\2", out, sizeof out),
                     "12,34,56,789");
    /* No grouping (the C locale): plain digits. */
    cr_assert_str_eq(cli_group_digits(1234567, "", "", out, sizeof out),
                     "1234567");
    char grouping[2] = {CHAR_MAX, 0};
    cr_assert_str_eq(cli_group_digits(1234567, ",", grouping, out, sizeof out),
                     "1234567");
    /* A short buffer is cut, still terminated. */
    cr_assert_str_eq(cli_group_digits(1234567, ",", "\3", out, 4), "1,2");
}

Test(i18n, widths_are_columns_not_bytes)
{
    cr_assert_not_null(setlocale(LC_CTYPE, "C.UTF-8"));
    /* "Белые" is 10 bytes, 5 columns; "Bílý" 6 bytes, 4 columns. */
    cr_assert_eq(cli_width("Белые", (size_t)-1), 5);
    cr_assert_eq(cli_width("Bílý", (size_t)-1), 4);
    cr_assert_eq(cli_width("move> ", (size_t)-1), 6);
    cr_assert_eq(cli_width("Белые", 4), 2);
    /* 3 columns of "Ход: x" are "Ход" (6 bytes); never half a letter. */
    cr_assert_eq(cli_fit("Ход: x", 3), 6);
    cr_assert_eq(cli_fit("Ход: x", 100), strlen("Ход: x"));
    cr_assert_eq(cli_fit("Bílý", 2), 3);
    cr_assert_eq(cli_fit("abc", 0), 0);
    /* A stray byte counts one column and is stepped over. */
    cr_assert_eq(cli_width("a\xff" "b", (size_t)-1), 3);
}

Test(i18n, numbers_for_people_follow_the_locale_machines_do_not)
{
    /* scripts/deps.sh generates cs_CZ.UTF-8 and ru_RU.UTF-8; glibc's
     * conventions for both: groups of three parted by U+202F, a decimal
     * comma. */
    static const char *const locales[] = {"cs_CZ.UTF-8", "ru_RU.UTF-8"};
    for (size_t i = 0; i < 2; i++) {
        cr_assert_not_null(setlocale(LC_ALL, locales[i]),
                           "%s missing: run scripts/deps.sh", locales[i]);
        setenv("LC_ALL", locales[i], 1);
        cli_i18n_init();
        cr_assert_str_eq(cli_num(1234567), "1\xe2\x80\xaf" "234\xe2\x80\xaf"
                                           "567", "%s", locales[i]);
        cr_assert_str_eq(cli_num(999), "999");
        cr_assert_str_eq(cli_decimal(1234.5, 1), "1\xe2\x80\xaf" "234,5",
                         "%s", locales[i]);
        cr_assert_str_eq(cli_decimal(0.25, 2), "0,25");
        /* printf for machines keeps its point. */
        char buf[16];
        snprintf(buf, sizeof buf, "%.1f", 1.5);
        cr_assert_str_eq(buf, "1.5", "%s", locales[i]);
    }
    setenv("LC_ALL", "C", 1);
    cli_i18n_init();
    cr_assert_str_eq(cli_num(1234567), "1234567");
    cr_assert_str_eq(cli_decimal(1234.5, 1), "1234.5");
}

/* Messages in lang from the build tree's catalogues, in this process. */
static void speak(const char *lang)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", TABULA_BINARY);
    char *slash = strrchr(dir, '/');
    cr_assert_not_null(slash);
    snprintf(slash, sizeof dir - (size_t)(slash - dir), "/locale");
    cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"));
    setenv("LANGUAGE", lang, 1);
    cr_assert_not_null(bindtextdomain("tabula", dir));
    cr_assert_not_null(textdomain("tabula"));
}

/* The pieces core records (core.h Core_Said), laid out by hand: a
 * phrase with its numbers, or a run of the English at..at+len. */
#define PH(code, a, b, c) ((Core_Said){(code), 0, 0, {(a), (b), (c)}})
#define TX(at, len) ((Core_Said){CORE_PHRASE_TEXT, (at), (len), {0, 0, 0}})

/* english, said by its pieces (n of them) in the language spoken, is
 * want. */
static void said_is(const char *english, const Core_Said *p, size_t n,
                    const char *want)
{
    char out[512];
    cr_assert_str_eq(cli_core_said(english, p, n, out, sizeof out), want,
                     "for '%s'", english);
}

/* One phrase, alone. */
static void phrase_is(int code, unsigned a, unsigned b, unsigned c,
                      const char *want)
{
    Core_Said p = PH(code, a, b, c);
    said_is("(english)", &p, 1, want);
}

Test(i18n, core_texts_translated_with_their_numbers_and_plurals)
{
    speak("cs");
    {
        Core_Said p[] = {PH(CORE_PHRASE_GOALS, 0, 0, 1),
                         PH(CORE_PHRASE_SINCE_GOAL, 0, 0, 0)};
        said_is("goals 0-0, first to 1 wins; 0 plies since the last goal", p,
                2,
                "góly 0-0, hraje se do 1; "
                "0 půltahů od posledního gólu");
    }
    /* Czech: 1 | 2..4 | the rest. */
    phrase_is(CORE_PHRASE_SINCE_GOAL, 1, 0, 0, "1 půltah od posledního gólu");
    phrase_is(CORE_PHRASE_SINCE_GOAL, 3, 0, 0, "3 půltahy od posledního gólu");
    phrase_is(CORE_PHRASE_SINCE_GOAL, 12, 0, 0,
              "12 půltahů od posledního gólu");
    phrase_is(CORE_PHRASE_PIECE + CORE_PIECE_ROOK, 0, 0, 0, "bílá věž");
    {
        /* "white knight, next to a b1": the separator and the fields'
         * names as written */
        Core_Said p[] = {PH(CORE_PHRASE_CB_PIECE + 1, 0, 0, 0), TX(12, 2),
                         PH(CORE_PHRASE_NEXT_TO, 0, 0, 0), TX(21, 5)};
        said_is("white knight, next to a b1", p, 4,
                "bílý jezdec, sousedí s a b1");
    }
    {
        Core_Said p[] = {PH(CORE_PHRASE_SET, 2, 3, 12),
                         PH(CORE_PHRASE_OVERTIME, 0, 0, 0),
                         PH(CORE_PHRASE_POINTS, 4, 5, 0),
                         PH(CORE_PHRASE_SETS, 1, 0, 0),
                         PH(CORE_PHRASE_BLACK_TOUCH, 2, 0, 0),
                         PH(CORE_PHRASE_MUST_SHOOT, 0, 0, 0)};
        said_is("(english)", p, 6,
                "set 2 min 3/12 prodl. body 4:5 sety 1:0 | dotek černého 2, "
                "musí útočit");
    }
    /* No pieces (Laska's columns): the text as it is. */
    said_is("W3 wb", NULL, 0, "W3 wb");

    speak("ru");
    /* Russian: 1, 21 | 2..4, 22 | 5..20, 11, 12 ... */
    phrase_is(CORE_PHRASE_SINCE_GOAL, 21, 0, 0,
              "21 полуход после последнего гола");
    phrase_is(CORE_PHRASE_SINCE_GOAL, 22, 0, 0,
              "22 полухода после последнего гола");
    phrase_is(CORE_PHRASE_SINCE_GOAL, 11, 0, 0,
              "11 полуходов после последнего гола");
    {
        Core_Said p[] = {PH(CORE_PHRASE_WHITE_IN_CHECK, 0, 0, 0), TX(14, 2),
                         PH(CORE_PHRASE_NO_CAPTURE, 7, 0, 0)};
        said_is("White in check; 7 plies without a capture (draw at 100)", p,
                3, "белым шах; 7 полуходов без взятия (ничья при 100)");
    }
    {
        Core_Said p[] = {PH(CORE_PHRASE_PIECE + 9 + CORE_PIECE_MOOR, 0, 0, 0),
                         PH(CORE_PHRASE_TOUCHED, 0, 0, 0)};
        said_is("Black moor, touched", p, 2, "чёрный мавр, касалась мяча");
    }
    cr_assert_str_eq(_(core_game_title(core_game_find("football"))),
                     "Футбольные шахматы (Бойер, 1951)");
    cr_assert_str_eq(_(tb_strerror(TB_E_ILLEGAL)), "недопустимый ход");
    cr_assert_str_eq(cli_reason_words("checkmate"), "мат");
}

/* Said in English from its pieces, every view text of a game is its
 * English text again (a second method: the pieces cover the whole text,
 * in order), over the positions of random games of each game. */
Test(i18n, core_pieces_say_the_english_text_back)
{
    static const char *const games[] = {"chessball", "football",
                                        "volleyball", "volleyball10"};
    char out[512];
    speak("en");
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        Core_Position *pos = NULL;
        uint64_t rng = 12345 + g;
        cr_assert_eq(core_position_new(&pos, core_game_find(games[g]), NULL),
                     0);
        for (int ply = 0; ply < 120; ply++) {
            Core_View v;
            Core_Move mv[1024];
            size_t n = 0;
            cr_assert_eq(core_view(pos, &v), 0);
            cr_assert_str_eq(cli_core_said(v.status, v.said, v.nsaid, out,
                                           sizeof out),
                             v.status, "%s ply %d", games[g], ply);
            cr_assert(v.status[0] == '\0' || v.nsaid > 0,
                      "%s: '%s' has no pieces", games[g], v.status);
            for (int r = 0; r < v.rows; r++)
                for (int c = 0; c < v.cols; c++) {
                    const Core_Cell *cell = &v.cell[r][c];
                    cr_assert_str_eq(cli_core_said(cell->detail, cell->said,
                                                   cell->nsaid, out,
                                                   sizeof out),
                                     cell->detail, "%s ply %d cell %s",
                                     games[g], ply, cell->name);
                    cr_assert(cell->detail[0] == '\0' || cell->nsaid > 0,
                              "%s: '%s' has no pieces", games[g],
                              cell->detail);
                }
            if (core_moves(pos, mv, 1024, &n) != 0 || n == 0)
                break;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            cr_assert_eq(core_play(pos, &mv[(rng >> 33) % n]), 0);
        }
        core_position_free(pos);
    }
}

/* A trial found the English screens saying "Game over: 0-1 (resign)",
 * the result line's token. The words are written out by hand here, the
 * Czech and Russian from po/cs.po and po/ru.po. */
Test(i18n, end_reasons_in_words_on_the_screens)
{
    speak("en");
    cr_assert_str_eq(cli_reason_words("resign"), "resignation");
    cr_assert_str_eq(cli_reason_words("time"), "time ran out");
    cr_assert_str_eq(cli_reason_words("agreement"), "draw agreed");
    cr_assert_str_eq(cli_reason_words("no-moves"), "no legal move");
    cr_assert_str_eq(cli_reason_words("not-caught"),
                     "the King was not caught");
    /* a record's own Termination word stays as it is */
    cr_assert_str_eq(cli_reason_words("adjudication"), "adjudication");
    /* every reason core names has its words, none left a token */
    for (int r = CORE_REASON_NONE + 1; r < CORE_REASON_COUNT_; r++) {
        const char *token = core_reason_name((Core_Reason)r);
        int english = strcmp(token, "checkmate") == 0 ||
                      strcmp(token, "stalemate") == 0;
        cr_assert(english || strcmp(cli_reason_words(token), token) != 0,
                  "%s", token);
    }
    speak("cs");
    cr_assert_str_eq(cli_reason_words("resign"), "vzdání partie");
    cr_assert_str_eq(cli_reason_words("time"), "čas vypršel");
    speak("ru");
    cr_assert_str_eq(cli_reason_words("resign"), "сдача партии");
    cr_assert_str_eq(cli_reason_words("agreement"), "ничья по соглашению");
}

/* A note by its code and arguments (match.h) in the language spoken. */
static void note_is(int code, const char *a1, const char *a2, const char *a3,
                    const char *a4, const char *want)
{
    Match_Note n;
    const char *args[4] = {a1, a2, a3, a4};
    char out[640];
    memset(&n, 0, sizeof n);
    n.code = code;
    for (int i = 0; i < 4; i++)
        if (args[i] != NULL)
            snprintf(n.arg[i], sizeof n.arg[i], "%s", args[i]);
    cr_assert_str_eq(cli_match_note(&n, "(english)", out, sizeof out), want);
}

Test(i18n, conduct_notes_translated_with_their_side_words)
{
    speak("cs");
    note_is(MATCH_NOTE_DRAW_OFFER_TO_YOU, "white", NULL, NULL, NULL,
            "bílý nabízí remízu: napište accept (přijmout) nebo decline "
            "(odmítnout)");
    note_is(MATCH_NOTE_TAKEBACK_ACCEPT, "white", "4", "black",
            "0123456789abcdef",
            "bílý přijímá vrácení: zpět na půltah 4, na tahu černý, "
            "0123456789abcdef");
    /* match/clock.c's notes: the prefix and the seconds as written */
    note_is(MATCH_NOTE_TIME_UP, NULL, NULL, NULL, NULL,
            "time: váš čas vypršel");
    note_is(MATCH_NOTE_REFUSED_TIME_UP, NULL, NULL, NULL, NULL,
            "refused: váš čas vypršel");
    /* match/conduct.c's refusals: the key and the line as typed, the
     * reason in words (by hand from cs.po's entries) */
    note_is(MATCH_NOTE_REFUSED_NOTHING_TO_TAKE_BACK, "takeback", NULL, NULL,
            NULL, "refused: 'takeback': není co vrátit");
    note_is(MATCH_NOTE_REFUSED_DRAW_LIMIT, "draw", NULL, NULL, NULL,
            "refused: 'draw': remízu jste už nabídli třikrát");
    note_is(MATCH_NOTE_REFUSED_MOVE, "pass x", "malformed move notation",
            "'b1-c3 d4*d7 e8*c6' (piece move, kicks) or 'pass'", NULL,
            "refused: 'pass x': chybná notace tahu (např. "
            "'b1-c3 d4*d7 e8*c6' (tah figurou, kopy) nebo 'pass')");
    note_is(MATCH_NOTE_ABSENT_CLAIM, "30.050", NULL, NULL, NULL,
            "absent: soupeř je pryč 30.050 s: napište claim win (výhra) "
            "nebo claim draw (remíza)");
    /* a typed line is never taken for a word, even one the catalogue
     * holds */
    note_is(MATCH_NOTE_REFUSED_UNKNOWN, "white", NULL, NULL, NULL,
            "refused: 'white': očekáváno resign, draw, accept, decline, abort, "
            "takeback [N], claim win nebo claim draw");
    speak("ru");
    note_is(MATCH_NOTE_ABSENT_LEFT, "12.000", NULL, NULL, NULL,
            "absent: соперник ушёл; вы можете потребовать победу или ничью "
            "через 12.000 с, если он не вернётся");
    note_is(MATCH_NOTE_TAKEBACK_ASK, "black", "2", NULL, NULL,
            "чёрные просят вернуть 2 полухода");
    note_is(MATCH_NOTE_TAKEBACK_ASK_YOU, "black", "1", NULL, NULL,
            "чёрные просят вернуть 1 полуход: наберите accept (принять) или "
            "decline (отклонить)");
    note_is(MATCH_NOTE_FLAG, "white", "black", "1500", NULL,
            "белые заявляют: флажок упал, время (чёрные) истекло через "
            "1500 мс");
    /* The screen keeps the key scripts know and the line as typed; the
     * reason is said in the language (line mode prints match/'s lines
     * as they are, untouched by this). */
    note_is(MATCH_NOTE_REFUSED_OFFER_STANDS, "draw", NULL, NULL, NULL,
            "refused: 'draw': ваше предложение уже в силе");
    note_is(MATCH_NOTE_REFUSED_NOT_ABSENT, "claim win", NULL, NULL, NULL,
            "refused: 'claim win': соперник отсутствует ещё недостаточно "
            "долго");
    /* a note without a code is its English line */
    note_is(MATCH_NOTE_TEXT, NULL, NULL, NULL, NULL, "(english)");
}

/* Every code has words, and the session writes its English text from
 * them: the English lines scripts read stay as they were (written out by
 * hand here). */
Test(i18n, notes_english_from_their_words)
{
    Match_Note n;
    char out[640];
    speak("en");
    for (int c = MATCH_NOTE_TEXT + 1; c < MATCH_NOTE_COUNT; c++)
        cr_assert_not_null(match_note_words(c, NULL, NULL), "code %d", c);
    memset(&n, 0, sizeof n);
    n.code = MATCH_NOTE_TAKEBACK_ASK_YOU;
    strcpy(n.arg[0], "white");
    strcpy(n.arg[1], "3");
    cr_assert_str_eq(cli_match_note(&n, "", out, sizeof out),
                     "white asks to take back 3 plies: type accept or "
                     "decline");
    n.code = MATCH_NOTE_HOST_GONE;
    cr_assert_str_eq(cli_match_note(&n, "", out, sizeof out),
                     "lobby: host gone (waiting for it to come back)");
}

Test(i18n, a_cut_translation_ends_on_a_whole_letter)
{
    char out[8];
    Core_Said p = PH(CORE_PHRASE_PIECE + CORE_PIECE_ROOK, 0, 0, 0);
    speak("ru");
    /* "белая ладья" does not fit in 7 bytes: 3 whole letters remain. */
    cli_core_said("White rook", &p, 1, out, sizeof out);
    cr_assert_str_eq(out, "бел");
}

/* Is the byte at p, or the one before it, part of a Cyrillic letter
 * (UTF-8 lead bytes 0xD0, 0xD1 and their continuation bytes)? */
static int cyrillic_at(const unsigned char *p)
{
    return p[0] == 0xd0 || p[0] == 0xd1 ||
           (p[0] >= 0x80 && p[0] < 0xc0);
}

/* A trial found the Russian Chessball hint "откудаxкуда": a Latin x glued
 * between two Russian words. The hints read like the English one, a
 * step from-to and a capture written with x, the x set apart from the
 * words (the notation's own examples keep theirs: b3xc4). */
Test(i18n, move_hints_keep_the_capture_x_apart_from_words)
{
    const Core_Game *cb = core_game_find("chessball");
    speak("ru");
    cr_assert_str_eq(_(core_game_move_hint(cb)),
                     "откуда-куда или откуда x куда с полями a, b1..g5, h "
                     "(b3xc4)");
    for (size_t i = 0; i < core_game_count(); i++) {
        const unsigned char *h =
            (const unsigned char *)_(core_game_move_hint(core_game_at(i)));
        for (size_t k = 1; h[k] != '\0'; k++)
            cr_assert(!(h[k] == 'x' && (cyrillic_at(h + k - 1) ||
                                        cyrillic_at(h + k + 1))),
                      "x glued to a Russian word in '%s'", h);
    }
    speak("cs");
    cr_assert_str_eq(_(core_game_move_hint(cb)),
                     "odkud-kam nebo odkud x kam s poli a, b1..g5, h (b3xc4)");
}

Test(i18n, every_game_title_and_hint_is_in_the_catalogues)
{
    const char *const *list;
    size_t n = cli_core_game_texts(&list);
    for (size_t i = 0; i < core_game_count(); i++) {
        const Core_Game *g = core_game_at(i);
        int title = 0, hint = 0;
        for (size_t k = 0; k < n; k++) {
            title |= strcmp(list[k], core_game_title(g)) == 0;
            hint |= strcmp(list[k], core_game_move_hint(g)) == 0;
        }
        cr_assert(title, "title of %s not listed in client/core_text.c",
                  core_game_name(g));
        cr_assert(hint, "move hint of %s not listed in client/core_text.c",
                  core_game_name(g));
    }
}

/* ---- the program ----------------------------------------------------- */

static char dir[64];

static void make_dir(void)
{
    char cmd[256];
    snprintf(dir, sizeof dir, "/tmp/tabula-i18n-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir %s", dir, dir);
    cr_assert_eq(system(cmd), 0);
}

static void remove_dir(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* Run tabula with args in a clean environment holding only env (e.g.
 * "LANGUAGE=cs LANG=C.UTF-8"); standard output (and standard error when
 * with_err) into a new buffer; the exit status into *status. */
static char *run(const char *env, const char *args, int with_err, int *status)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd %s && env -i PATH=/usr/bin:/bin HOME=%s %s %s %s %s", dir,
             dir, env, TABULA_BINARY, args,
             with_err ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    for (;;) {
        if (n + 4096 > cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
        size_t k = fread(buf + n, 1, cap - n - 1, p);
        if (k == 0)
            break;
        n += k;
    }
    buf[n] = '\0';
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

/* The lines of text that start with one of the prefixes, joined. */
static char *lines_with(const char *text, const char *const *prefixes)
{
    size_t cap = strlen(text) + 1, n = 0;
    char *out = malloc(cap);
    cr_assert_not_null(out);
    for (const char *p = text; *p != '\0';) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
        for (size_t k = 0; prefixes[k] != NULL; k++)
            if (strncmp(p, prefixes[k], strlen(prefixes[k])) == 0) {
                memcpy(out + n, p, len);
                n += len;
                break;
            }
        p += len;
    }
    out[n] = '\0';
    return out;
}

/* Each test of the program in a directory of its own. */
TestSuite(i18n_program, .init = make_dir, .fini = remove_dir, .timeout = 240);

/* The languages and locales the machine lines must not notice. LC_ALL
 * cs_CZ / ru_RU (generated by scripts/deps.sh) would also change the
 * decimal point if the program let them. */
static const char *const envs[] = {
    "LANGUAGE=cs LANG=C.UTF-8", "LANGUAGE=ru LANG=C.UTF-8", "LANGUAGE=cs",
    "LC_ALL=cs_CZ.UTF-8",       "LC_ALL=ru_RU.UTF-8",
};
#define NENVS (sizeof envs / sizeof envs[0])

Test(i18n_program, perft_and_moves_lines_are_the_same_in_every_language)
{
    static const char *const perft[] = {"perft ", NULL};
    int st;
    char *en = run("", "perft laska 3", 0, &st);
    cr_assert_eq(st, 0);
    char *en_lines = lines_with(en, perft);
    /* Laska's counts as tests/client/test_cli.c has them. */
    cr_assert_str_eq(en_lines, "perft 1 6\nperft 2 6\nperft 3 18\n");
    char *en_moves = run("", "moves laska c3-d4", 0, &st);
    cr_assert_eq(st, 0);
    cr_assert_str_eq(en_moves, "e5xc3\n"); /* Black's only move */
    for (size_t i = 0; i < NENVS; i++) {
        char *out = run(envs[i], "perft laska 3", 0, &st);
        cr_assert_eq(st, 0, "%s", envs[i]);
        char *got = lines_with(out, perft);
        cr_assert_str_eq(got, en_lines, "%s", envs[i]);
        /* "total nodes N seconds S nps R": S with a decimal point. */
        const char *total = strstr(out, "total nodes 30 seconds ");
        cr_assert_not_null(total, "%s: %s", envs[i], out);
        const char *s = total + strlen("total nodes 30 seconds ");
        while (*s >= '0' && *s <= '9')
            s++;
        cr_assert_eq(*s, '.', "%s: %s", envs[i], total);
        free(got);
        free(out);
        out = run(envs[i], "moves laska c3-d4", 0, &st);
        cr_assert_str_eq(out, en_moves, "%s", envs[i]);
        free(out);
    }
    free(en_lines);
    free(en);
    free(en_moves);
}

Test(i18n_program, demo_and_replay_lines_are_the_same_in_every_language)
{
    /* The plies ("   1. white c3-d4  HASH"), the ends and the table row
     * of a seeded demo; invite codes and addresses differ per run. */
    static const char *const machine[] = {"   ", "result: ", "final-hash: ",
                                          "verified: ", "laska ", NULL};
    int st;
    char *en = run("", "demo laska --dir en", 0, &st);
    cr_assert_eq(st, 0, "%s", en);
    char *want = lines_with(en, machine);
    cr_assert_not_null(strstr(want, "final-hash: "), "%s", en);
    char *cs = run("LANGUAGE=cs LANG=C.UTF-8", "demo laska --dir cs", 0, &st);
    cr_assert_eq(st, 0, "%s", cs);
    char *got = lines_with(cs, machine);
    cr_assert_str_eq(got, want);
    /* Czech where people read: the demo's heading line. */
    cr_assert_not_null(strstr(cs, "boti úrovně 3"), "%s", cs);
    free(got);
    free(cs);
    /* Replaying a log prints the same bytes in every language. */
    char *replay_en = run("", "replay en/laska-host.log --quiet", 1, &st);
    cr_assert_eq(st, 0, "%s", replay_en);
    for (size_t i = 0; i < NENVS; i++) {
        char *out = run(envs[i], "replay en/laska-host.log --quiet", 1, &st);
        cr_assert_eq(st, 0, "%s", envs[i]);
        cr_assert_str_eq(out, replay_en, "%s", envs[i]);
        free(out);
    }
    free(replay_en);
    free(want);
    free(en);
}

Test(i18n_program, the_language_comes_from_the_environment)
{
    int st;
    char *out = run("LANGUAGE=cs LANG=C.UTF-8", "", 1, &st);
    cr_assert_eq(st, 2);
    cr_assert_not_null(strstr(out, "použití: tabula PŘÍKAZ [ARGUMENTY]"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "  play     místní partie proti botovi"),
                       "%s", out);
    free(out);
    /* Which variable says what, as docs/languages.md has it. */
    static const struct {
        const char *env, *want;
    } cases[] = {
        {"LANG=ru_RU.UTF-8", "команды:"},
        /* LANGUAGE alone (no LANG): Czech all the same, in UTF-8. */
        {"LANGUAGE=cs", "příkazy:"},
        /* A locale that is not installed still names the language. */
        {"LANG=ru_UA.UTF-8", "команды:"},
        /* An explicit LC_ALL=C means English, whatever LANGUAGE says. */
        {"LANGUAGE=cs LC_ALL=C", "usage: tabula COMMAND [ARGS]"},
        /* LANGUAGE lists languages in order: the first with a catalogue. */
        {"LANGUAGE=de:ru LANG=C.UTF-8", "команды:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        out = run(cases[i].env, "help", 1, &st);
        cr_assert_eq(st, 0, "%s", cases[i].env);
        cr_assert_not_null(strstr(out, cases[i].want), "%s: %s", cases[i].env,
                           out);
        free(out);
    }
    /* Errors too, with the core's message translated. */
    out = run("LANGUAGE=ru LANG=C.UTF-8", "moves laska c3-c4", 1, &st);
    cr_assert_eq(st, 2);
    /* (c4 is a light square: no square of Laska's board) */
    cr_assert_not_null(strstr(out, "tabula moves: ход 1 'c3-c4': "
                                   "такого поля на этой доске нет; ходы "
                                   "выглядят так: c3-d4"),
                       "%s", out);
    free(out);
    out = run("LANGUAGE=cs LANG=C.UTF-8", "host --help", 1, &st);
    cr_assert_eq(st, 0);
    cr_assert_not_null(strstr(out, "--bot [ÚROVEŇ] nechá za toto místo hrát "
                                   "bota, úroveň 1 (nejslabší) až 8,\n3 bez "
                                   "udání"),
                       "%s", out);
    free(out);
    out = run("LANGUAGE=cs LANG=C.UTF-8", "rules laska", 1, &st);
    cr_assert_eq(st, 0);
    cr_assert_not_null(strstr(out, "voják (obyčejný kámen)"), "%s", out);
    cr_assert_not_null(strstr(out, "Úplná pravidla: docs/rules/cs/laska.md"),
                       "%s", out);
    free(out);
}

/* Columns of a UTF-8 line: its bytes that do not continue a character
 * (every letter these catalogues use is one column wide). */
static size_t columns(const char *p, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)p[i] & 0xc0) != 0x80;
    return n;
}

/* Every command's --help fits a terminal of 80 columns, at most 79 a
 * line, in every language (a trial saw Czech and Russian usage lines of
 * 80 to 84 columns wrap). The commands are read from `tabula help`'s
 * list, so a new one is checked too. The folder the project was cloned
 * to is not counted (lobby's help names its default page folder on a
 * line of its own). */
Test(i18n_program, every_help_fits_79_columns_in_every_language)
{
    int st;
    char *list = run("", "help", 1, &st);
    cr_assert_eq(st, 0);
    const char *p = strstr(list, "commands:\n");
    cr_assert_not_null(p, "%s", list);
    p += strlen("commands:\n");
    static const char *const langs[] = {"", "LANGUAGE=cs LANG=C.UTF-8",
                                        "LANGUAGE=ru LANG=C.UTF-8"};
    int commands = 0;
    while (strncmp(p, "  ", 2) == 0) {
        char name[32];
        cr_assert_eq(sscanf(p, " %31s", name), 1);
        commands++;
        for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
            char args[64];
            snprintf(args, sizeof args, "%s --help", name);
            char *out = run(langs[l], args, 1, &st);
            cr_assert_eq(st, 0, "%s %s", langs[l], args);
            int line = 1;
            for (const char *q = out; *q != '\0'; line++) {
                const char *e = strchr(q, '\n');
                size_t len = e ? (size_t)(e - q) : strlen(q);
                /* A path of this build (lobby's default page folder)
                 * counts without the source folder, wherever the
                 * project was cloned. */
                size_t cols = columns(q, len);
                const char *src = strstr(q, TABULA_SOURCE_DIR);
                if (src != NULL && src < q + len)
                    cols -=
                        columns(TABULA_SOURCE_DIR, strlen(TABULA_SOURCE_DIR));
                cr_expect_leq(cols, 79,
                              "%s tabula %s, line %d: %zu columns: %.*s",
                              langs[l], args, line, cols, (int)len, q);
                q += len + (e != NULL);
            }
            free(out);
        }
        p = strchr(p, '\n');
        cr_assert_not_null(p);
        p++;
    }
    cr_assert_geq(commands, 16, "%s", list);
    free(list);
}

/* A count in a message takes its language's form (the relay-limits
 * issue found "1 games" and "101 соединений"-style agreement left to
 * chance): English 1 and 2, Russian 1, 3 and 5 (by hand from ru.po). */
Test(i18n, counts_in_match_and_lobby_messages_agree)
{
    const char *one = "tabula match: %ld game lost on time (a %ld, b %ld)\n";
    const char *many = "tabula match: %ld games lost on time (a %ld, b %ld)\n";
    speak("en");
    cr_assert_str_eq(ngettext(one, many, 1), one);
    cr_assert_str_eq(ngettext(one, many, 2), many);
    speak("ru");
    cr_assert_str_eq(ngettext(one, many, 1),
                     "tabula match: %ld партия проиграна по времени "
                     "(a %ld, b %ld)\n");
    cr_assert_str_eq(ngettext(one, many, 3),
                     "tabula match: %ld партии проиграны по времени "
                     "(a %ld, b %ld)\n");
    cr_assert_str_eq(ngettext(one, many, 5),
                     "tabula match: %ld партий проиграно по времени "
                     "(a %ld, b %ld)\n");
    cr_assert_not_null(
        strstr(ngettext("tabula lobby: cannot hold %u connection: this "
                        "process may open %llu descriptors (raise the hard "
                        "limit, e.g. ulimit -Hn, or ask for fewer with "
                        "--max-conns)\n",
                        "tabula lobby: cannot hold %u connections: this "
                        "process may open %llu descriptors (raise the hard "
                        "limit, e.g. ulimit -Hn, or ask for fewer with "
                        "--max-conns)\n",
                        101),
               "%u соединение:"));
}
