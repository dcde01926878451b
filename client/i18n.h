/*
 * i18n.h: the tabula program's languages (GNU gettext, English source).
 * _() translates a user-facing string, N_() marks one kept in a table for
 * _() later, ngettext() picks a plural form. core/, proto/ and match/ know
 * nothing of this: their English texts (error messages, outcome reasons)
 * are translated at the client edge (_(tb_strerror(rc)): xgettext reads
 * core/tb_error.h's messages too). Machine-read lines (invite:,
 * final-hash:, perft D N, ...) are never passed through _(). The page's
 * WebAssembly module has no gettext: built with TABULA_CATALOGUE, _() and
 * ngettext() look the string up in the catalogue the page hands in
 * (cli_catalogue_set, client/catalogue.c); with neither, every string
 * stays English.
 */
#ifndef TABULA_I18N_H
#define TABULA_I18N_H

#include <stddef.h>
#include <stdint.h>

#ifdef TABULA_NLS
#include <libintl.h>
#define _(s) gettext(s)
#elif defined(TABULA_CATALOGUE)
#define _(s) cli_catalogue_get(s)
#define ngettext(one, many, n) cli_catalogue_nget(one, many, n)
#else
#define _(s) (s)
#define ngettext(one, many, n) ((n) == 1 ? (one) : (many))
#endif
#define N_(s) s

/*
 * cli_i18n_init: choose the language and number conventions from the
 * environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext does) and
 * find the catalogues: $TABULA_LOCALEDIR when set, else the build tree's
 * locale/ when the program runs from the build folder, else
 * ../share/locale from the program's folder, else the configured install
 * prefix's. When LANGUAGE is set and none of LC_ALL,
 * LC_MESSAGES, LANG is, the messages and character set become C.UTF-8
 * (glibc ignores LANGUAGE in the "C" locale); so do they when the named
 * locale is not installed, its language then set as LANGUAGE (when that
 * is unset). LC_NUMERIC stays "C" so
 * every printf and strtod the program does for machines is unchanged;
 * the user's numeric conventions are kept for cli_num(). Call once, first
 * thing in main(). Never fails: without catalogues the text is English.
 */
void cli_i18n_init(void);

/*
 * cli_reason_words: a game-end reason token of core_reason_name() as the
 * terminal's screens say it to a person, in words in every language
 * English included ("resign" -> "resignation", "time" -> "time ran
 * out"); an unknown token (a record's own Termination) comes back
 * unchanged. The result: lines keep the tokens. In client/core_text.c,
 * which the page's module builds too.
 */
const char *cli_reason_words(const char *reason);

/*
 * cli_group_digits: n in decimal into out (cap bytes, always
 * NUL-terminated), its digits grouped from the right as the locale's
 * grouping string says (the lconv format: each byte a group size, the
 * last repeated; empty or CHAR_MAX: no grouping) and sep between groups.
 * Returns out.
 */
char *cli_group_digits(uint64_t n, const char *sep, const char *grouping,
                       char *out, size_t cap);

/*
 * cli_num: n for a person to read, grouped as the user's LC_NUMERIC
 * locale groups thousands (no grouping in the C locale). The result lives
 * in one of 4 rotating static buffers. Never use it in machine lines.
 */
const char *cli_num(uint64_t n);

/*
 * cli_decimal: x with places decimals (0..9) and the user's decimal
 * point (a comma in cs and ru), integer part grouped as cli_num(). In
 * one of 4 rotating static buffers; people only.
 */
const char *cli_decimal(double x, int places);

/*
 * cli_width: the number of terminal columns the UTF-8 text s takes in the
 * first n bytes (n = (size_t)-1: all of it), measured with mbrtowc and
 * wcwidth in the current LC_CTYPE; an undecodable byte or a character of
 * unknown width counts as one column.
 */
int cli_width(const char *s, size_t n);

/*
 * cli_fit: how many bytes of s fit in cols terminal columns without
 * cutting a character in two (never more than strlen(s)).
 */
size_t cli_fit(const char *s, int cols);

/*
 * cli_core_said: a text core made for people (a view's status line or a
 * cell's description, english) in the user's language from the pieces
 * core recorded for it (said[0..count): each phrase by its code, the
 * runs between as written; count 0: english as it is), into out (cap
 * bytes, always NUL-terminated, never cut inside a character). Returns
 * out. Titles and move hints of games are found by _() directly
 * (_(core_game_title(g))).
 */
/* The pieces a board's cell can show, as cli_cell_piece tells them. */
typedef enum Cli_Piece {
    CLI_PIECE_NONE = 0, /* empty, or a piece of no phrase (Laska's) */
    CLI_PIECE_KING,
    CLI_PIECE_QUEEN,
    CLI_PIECE_ROOK,
    CLI_PIECE_BISHOP,
    CLI_PIECE_KNIGHT,
    CLI_PIECE_PAWN,
    CLI_PIECE_VIZIER,
    CLI_PIECE_MOOR,
    CLI_PIECE_JACK,
    CLI_PIECE_CAT,
    CLI_PIECE_BALL,
    CLI_PIECE_COUNT
} Cli_Piece;

/*
 * cli_cell_piece: what stands on cell, read from the phrase core named it
 * by in the cell's description (its Core_Said codes: Chessball's white
 * pawn .. black king, Football chess's and Chess volleyball's king ..
 * cat, the ball), never from its letter: a Cli_Piece, CLI_PIECE_NONE
 * for an empty cell and for a piece core names by no phrase (Laska's
 * columns). The side is the cell's owner. In core_text.c (the page's
 * module too).
 */
struct Core_Cell;
int cli_cell_piece(const struct Core_Cell *cell);

/*
 * cli_piece_figurine: the UTF-8 text a board of figurines draws piece (a
 * Cli_Piece) as, one terminal column: a king, queen, rook, bishop,
 * knight or pawn of either side as the solid chess figurine U+265A..
 * U+265F (the side told by colour), the ball as U+25CF BLACK CIRCLE;
 * NULL for the pieces chess has no figurine for (Chess volleyball's
 * vizier, moor, jack and cat), which keep their letters, and for none.
 */
const char *cli_piece_figurine(int piece);

/* cli_piece_token: piece (a Cli_Piece) as one English word for programs
 * ("king", "ball"; "" for CLI_PIECE_NONE or an unknown value): the
 * page's board draws a figurine by it. Never translated. */
const char *cli_piece_token(int piece);

struct Core_Said;
char *cli_core_said(const char *english, const struct Core_Said *said,
                    size_t count, char *out, size_t cap);

/*
 * cli_match_note: what a session's note says (its code and arguments,
 * match.h) in the user's words, into out (cap bytes, always
 * NUL-terminated, never cut inside a character): the code's words from
 * the catalogue (match_note_words's format as the msgid), a side's name,
 * core's error text and a game's move hint translated, the rest as
 * written; a note without a code is english as it is. Returns out.
 */
struct Match_Note;
char *cli_match_note(const struct Match_Note *note, const char *english,
                     char *out, size_t cap);

/* cli_core_game_texts: the game titles and move hints the catalogues
 * hold (for the test that they are core's); *list gets them, returns
 * how many. */
size_t cli_core_game_texts(const char *const **list);

/*
 * The catalogue handed in (client/catalogue.c), for the build without
 * gettext. Its bytes: CLI_CATALOGUE_PLURALS bytes of plural rule, byte n
 * the form (0 .. CLI_CATALOGUE_MAX_FORMS-1) a count of n takes, a count
 * n >= CLI_CATALOGUE_PLURALS taking that of PLURALS/2 + n % (PLURALS/2)
 * (right for every rule that reads n % 100 and thresholds under 100, as
 * Czech, Russian and English do); then the entries, each its msgid, its
 * forms (one; or the plural forms, the msgid the English singular) and an
 * empty string, all NUL-terminated. A msgid not in it stays English.
 */
#define CLI_CATALOGUE_PLURALS 200
#define CLI_CATALOGUE_MAX_FORMS 6
#define CLI_CATALOGUE_MAX_BYTES (4u << 20)

/*
 * cli_catalogue_set: replace the catalogue by a copy of bytes[0..len)
 * (layout above). 0; TB_E_LIMIT over CLI_CATALOGUE_MAX_BYTES;
 * TB_E_TRUNCATED when it ends inside the plural rule or an entry;
 * TB_E_FORMAT for an empty msgid, an entry without forms or with too
 * many, a plural byte out of range; TB_E_NOMEM. On error the catalogue
 * in use stays. Strings looked up before stay valid until the next call
 * of cli_catalogue_set or cli_catalogue_clear.
 */
int cli_catalogue_set(const unsigned char *bytes, size_t len);

/* cli_catalogue_clear: back to English (no catalogue). */
void cli_catalogue_clear(void);

/* As gettext's: the compiler checks a format through its translation. */
#if defined(__GNUC__)
#define CLI_FORMAT_ARG(i) __attribute__((format_arg(i)))
#else
#define CLI_FORMAT_ARG(i)
#endif

/* cli_catalogue_get: the translation of msgid, or msgid itself. */
const char *cli_catalogue_get(const char *msgid) CLI_FORMAT_ARG(1);

/* cli_catalogue_nget: the form for n of the plural entry whose English
 * singular is one; one or many (n == 1 or not) when there is none. */
const char *cli_catalogue_nget(const char *one, const char *many,
                               unsigned long n) CLI_FORMAT_ARG(1)
    CLI_FORMAT_ARG(2);

#endif /* TABULA_I18N_H */
