/*
 * core_text.c: core's and match's texts for people in the user's words,
 * at the client edge, so core/ and match/ stay free of gettext: a view's
 * status line and cells' descriptions from the pieces core recorded
 * (Core_Said: each phrase by its code, core/phrase.c's format being the
 * msgid), a session's note from its code (match/note.c), the game-end
 * reasons in words, and the game titles and move hints (whole msgids).
 * Nothing here reads an English sentence to translate it. libc only: the
 * terminal's _() is gettext, the page's WebAssembly module builds this
 * file with _() over the catalogue the page hands in
 * (client/catalogue.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "i18n.h"
#include "match.h"

/* The game titles and move hints core/ gives (core_game_title,
 * core_game_move_hint), for xgettext; _() finds them by their text. A
 * test checks the list against core's. */
static const char *const game_texts[] = {
    N_("Laska (Lasker 1911)"),
    N_("a move like c3-d4, a capture like b2xd4xf6 (or b2xf6), or "
       "Lasker's numbers like 9-13"),
    N_("Chessball (chess on a football, 1998)"),
    N_("from-to or fromxto with fields a, b1..g5, h (b3xc4)"),
    N_("Football chess (Boyer 1951)"),
    N_("'b1-c3 d4*d7 e8*c6' (piece move, kicks) or 'pass'"),
    N_("Chess volleyball (Kriushenkov), 8x8"),
    N_("S Bc3-d2>g5, T Qd8-g5>f6, P Ne3-c4, X Ba2, + Nf6, @ d3"),
    N_("Chess volleyball 10x10 (placeholder rules P-01..P-10)"),
    /* main's newer title of volleyball10, for the merge */
    N_("Chess volleyball 10x10 (provisional rules, P-01..P-10)"),
    N_("S Qe1-e2>e7, T Qe10-h6>g7, P Nf3-d4, R Vb2-e4, @ e3"),
};

/* The side words a note's {wk} arguments carry (a side's name, as match/
 * writes it; core's error texts and the games' move hints are in the
 * catalogue already): for xgettext. */
static const char *const side_words[] __attribute__((unused)) = {
    N_("white"), N_("black")};

/* The end reasons in words, by token (core/core.c's reason names): the
 * terminal's screens and the page say them so in every language. */
static const struct {
    const char *token, *words;
} reason_words[] = {
    /* TRANSLATORS: why a game ended, shown as "Game over: 1-0
     * (resignation)" */
    {"none", N_("no reason given")},
    {"checkmate", N_("checkmate")},
    {"stalemate", N_("stalemate")},
    {"no-moves", N_("no legal move")},
    {"goal", N_("a goal")},
    {"resign", N_("resignation")},
    {"agreement", N_("draw agreed")},
    {"repetition", N_("repetition of the position")},
    {"move-rule", N_("the move limit")},
    {"time", N_("time ran out")},
    {"desync-abort", N_("stopped: the two boards disagreed")},
    {"points", N_("on points")},
    {"forfeit", N_("a forfeit")},
    {"abort", N_("aborted")},
    {"abandon", N_("a player left")},
    {"not-caught", N_("the King was not caught")},
    {"desync-forfeit", N_("a forfeit: the loser signed a board its moves do "
                          "not give")},
};

const char *cli_reason_words(const char *reason)
{
    for (size_t i = 0; i < sizeof reason_words / sizeof reason_words[0]; i++)
        if (strcmp(reason, reason_words[i].token) == 0)
            return _(reason_words[i].words);
    return reason;
}

size_t cli_core_game_texts(const char *const **list)
{
    *list = game_texts;
    return sizeof game_texts / sizeof game_texts[0];
}

/* The length of out[0..n) without a last UTF-8 character that a cut
 * left incomplete. */
static size_t utf8_whole(const char *out, size_t n)
{
    if (n > 0) {
        size_t k = n - 1;
        while (k > 0 && ((unsigned char)out[k] & 0xc0) == 0x80)
            k--;
        unsigned char lead = (unsigned char)out[k];
        size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (n - k < need)
            n = k;
    }
    return n;
}

/* Append text (len bytes) to out, whole or cut at the end. */
static void put(char *out, size_t cap, size_t *n, const char *text, size_t len)
{
    if (*n + len >= cap)
        len = cap - 1 - *n;
    memcpy(out + *n, text, len);
    *n += len;
}

char *cli_core_said(const char *english, const Core_Said *said, size_t count,
                    char *out, size_t cap)
{
    size_t n = 0, elen = strlen(english);
    if (cap == 0)
        return out;
    if (count == 0) { /* no pieces: said as it is */
        snprintf(out, cap, "%s", english);
        return out;
    }
    for (size_t i = 0; i < count && n + 1 < cap; i++) {
        const Core_Said *p = &said[i];
        const char *plural = NULL;
        const char *fmt = core_phrase_words(p->code, &plural);
        if (fmt == NULL) { /* a run of the English as it is */
            if ((size_t)p->at + p->len <= elen)
                put(out, cap, &n, english + p->at, p->len);
            continue;
        }
        fmt = plural != NULL ? ngettext(fmt, plural, p->n[0]) : _(fmt);
        /* the translation's %u in order: no printf on the catalogue's
         * text */
        for (int k = 0; *fmt != '\0'; fmt++) {
            if (fmt[0] == '%' && fmt[1] == 'u' && k < 3) {
                char d[8];
                int m = snprintf(d, sizeof d, "%u", (unsigned)p->n[k++]);
                put(out, cap, &n, d, (size_t)m);
                fmt++;
            } else if (fmt[0] == '%' && fmt[1] == '%') {
                put(out, cap, &n, "%", 1);
                fmt++;
            } else {
                put(out, cap, &n, fmt, 1);
            }
        }
    }
    out[utf8_whole(out, n)] = '\0';
    return out;
}

int cli_cell_piece(const Core_Cell *cell)
{
    /* Chessball's phrases go pawn .. king (its codes' order), Football
     * chess's and Chess volleyball's king .. cat (CORE_PIECE_*), each
     * White's then Black's. */
    static const unsigned char cb[6] = {CLI_PIECE_PAWN,   CLI_PIECE_KNIGHT,
                                        CLI_PIECE_BISHOP, CLI_PIECE_ROOK,
                                        CLI_PIECE_QUEEN,  CLI_PIECE_KING};
    static const unsigned char fc[9] = {
        [CORE_PIECE_KING] = CLI_PIECE_KING,
        [CORE_PIECE_QUEEN] = CLI_PIECE_QUEEN,
        [CORE_PIECE_ROOK] = CLI_PIECE_ROOK,
        [CORE_PIECE_BISHOP] = CLI_PIECE_BISHOP,
        [CORE_PIECE_KNIGHT] = CLI_PIECE_KNIGHT,
        [CORE_PIECE_VIZIER] = CLI_PIECE_VIZIER,
        [CORE_PIECE_MOOR] = CLI_PIECE_MOOR,
        [CORE_PIECE_JACK] = CLI_PIECE_JACK,
        [CORE_PIECE_CAT] = CLI_PIECE_CAT};
    if (cell->glyph[0] == '\0')
        return CLI_PIECE_NONE;
    for (size_t i = 0; i < cell->nsaid && i < CORE_CELL_SAID; i++) {
        int code = cell->said[i].code;
        if (code >= CORE_PHRASE_CB_PIECE && code < CORE_PHRASE_CB_PIECE + 12)
            return cb[(code - CORE_PHRASE_CB_PIECE) % 6];
        if (code >= CORE_PHRASE_PIECE && code < CORE_PHRASE_PIECE + 18)
            return fc[(code - CORE_PHRASE_PIECE) % 9];
        if (code == CORE_PHRASE_BALL)
            return CLI_PIECE_BALL;
    }
    return CLI_PIECE_NONE;
}

const char *cli_piece_figurine(int piece)
{
    /* The solid ("black") chess figurines U+265A..U+265F for both sides:
     * the outline forms are thin strokes in many terminal fonts. */
    static const char *const figurines[CLI_PIECE_COUNT] = {
        [CLI_PIECE_KING] = u8"\u265A",   [CLI_PIECE_QUEEN] = u8"\u265B",
        [CLI_PIECE_ROOK] = u8"\u265C",   [CLI_PIECE_BISHOP] = u8"\u265D",
        [CLI_PIECE_KNIGHT] = u8"\u265E", [CLI_PIECE_PAWN] = u8"\u265F",
        [CLI_PIECE_BALL] = u8"\u25CF"};
    return piece > 0 && piece < CLI_PIECE_COUNT ? figurines[piece] : NULL;
}

const char *cli_piece_token(int piece)
{
    static const char *const tokens[CLI_PIECE_COUNT] = {
        "",       "king", "queen",  "rook", "bishop", "knight",
        "pawn",   "vizier", "moor", "jack", "cat",    "ball"};
    return piece > 0 && piece < CLI_PIECE_COUNT ? tokens[piece] : "";
}

/* A note's {wk} argument in the user's words: a side's name, core's
 * error text or a game's move hint, each a catalogue entry; anything
 * else as it is. */
static const char *note_word(const char *arg) { return _(arg); }

char *cli_match_note(const Match_Note *note, const char *english, char *out,
                     size_t cap)
{
    const char *plural = NULL;
    int count = 0;
    const char *fmt = match_note_words(note->code, &plural, &count);
    size_t n;
    if (cap == 0)
        return out;
    if (fmt == NULL) { /* no code: the English line as it is */
        snprintf(out, cap, "%s", english);
        return out;
    }
    if (plural != NULL && count > 0) {
        unsigned long v = strtoul(note->arg[count - 1], NULL, 10);
        fmt = ngettext(fmt, plural, v);
    } else {
        fmt = _(fmt);
    }
    n = match_note_render(fmt, note, note_word, out, cap);
    out[utf8_whole(out, n)] = '\0';
    return out;
}
