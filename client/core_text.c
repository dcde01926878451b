/*
 * core_text.c: the English texts core/ makes for people (game titles and
 * move hints, a board view's status line and cells' descriptions) and the
 * conduct notes match/ gives a seat ("white offers a draw"), translated
 * at the client edge, so core/ and match/ stay free of gettext. Each text
 * is listed here once as a pattern ("%u" where a number goes, "%s" where
 * a side word goes); a text is rewritten pattern by pattern, the numbers
 * and (translated) words carried over, anything unknown kept as it is.
 * Also the game-end reasons in words. libc only: the terminal's _() is
 * gettext, the page's WebAssembly module builds this file with _() over
 * the catalogue the page hands in (client/catalogue.c), so both rewrite
 * by this one table.
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
    N_("S Qd1-e1>e6, T Qe10-h6>g7, P Nf3-d4, R Vb2-e4, @ e3"),
};

/* A view text: en as core writes it; one, when set, is the singular
 * English form and en the plural, chosen by the first number (NP_ marks
 * the pair for xgettext and puts it in this order). */
#define NP_(one, many) many, one
typedef struct Pattern {
    const char *en;
    const char *one;
} Pattern;

static const Pattern patterns[] = {
    /* Chessball (core/chessball.c cb_view) */
    {N_("White in check"), NULL},
    {N_("Black in check"), NULL},
    {NP_("%u ply without a capture (draw at 100)",
         "%u plies without a capture (draw at 100)")},
    {N_("white pawn"), NULL},   {N_("black pawn"), NULL},
    {N_("white knight"), NULL}, {N_("black knight"), NULL},
    {N_("white bishop"), NULL}, {N_("black bishop"), NULL},
    {N_("white rook"), NULL},   {N_("black rook"), NULL},
    {N_("white queen"), NULL},  {N_("black queen"), NULL},
    {N_("white king"), NULL},   {N_("black king"), NULL},
    {N_("next to"), NULL},
    /* Football chess (core/football.c fc_view) */
    {N_("goals %u-%u, first to %u wins; "), NULL},
    {NP_("%u ply since the last goal", "%u plies since the last goal")},
    {N_("White's goal"), NULL},
    {N_("Black's goal"), NULL},
    {N_("the ball"), NULL},
    /* Football chess and Chess volleyball pieces */
    {N_("White king"), NULL},   {N_("Black king"), NULL},
    {N_("White queen"), NULL},  {N_("Black queen"), NULL},
    {N_("White rook"), NULL},   {N_("Black rook"), NULL},
    {N_("White bishop"), NULL}, {N_("Black bishop"), NULL},
    {N_("White knight"), NULL}, {N_("Black knight"), NULL},
    {N_("White vizier"), NULL}, {N_("Black vizier"), NULL},
    {N_("White moor"), NULL},   {N_("Black moor"), NULL},
    {N_("White jack"), NULL},   {N_("Black jack"), NULL},
    {N_("White cat"), NULL},    {N_("Black cat"), NULL},
    /* Chess volleyball (core/volleyball.c vb_view) */
    {N_(", touched"), NULL},
    {N_(", attacker"), NULL},
    {N_("chess stage, attacker moves %u/12"), NULL},
    {N_(", King in check"), NULL},
    {N_("set %u min %u/%u"), NULL},
    {N_(" OT"), NULL},
    {N_(" points %u:%u"), NULL},
    {N_(" sets %u:%u"), NULL},
    {N_(" | White serves %u/2"), NULL},
    {N_(" | Black serves %u/2"), NULL},
    {N_(" | White touch %u"), NULL},
    {N_(" | Black touch %u"), NULL},
    {N_(", must pass"), NULL},
    {N_(", must shoot"), NULL},
};

/* The side words a note's {wk} arguments carry (a side's name, as match/
 * writes it; core's error texts and the games' move hints are in the
 * catalogue already): for xgettext. */
static const char *const side_words[] = {N_("white"), N_("black")};

/* s translated if it is one of list[0..n) (the tokens and words these
 * tables know), else s itself. */
static const char *known(const char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return _(list[i]);
    return s;
}

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

#define MAX_WORDS 2
#define WORD_MAX 16

/* What a pattern read: its numbers and side words, in order. */
typedef struct Found {
    unsigned num[4];
    int nnum;
    char word[MAX_WORDS][WORD_MAX];
    int nword;
} Found;

/* Does pattern p match s from its start? Then its length in s, and the
 * numbers and words it read into *f. */
static size_t match(const char *p, const char *s, Found *f)
{
    size_t i = 0;
    unsigned *num = f->num;
    int *nnum = &f->nnum;
    *nnum = 0;
    f->nword = 0;
    while (*p != '\0') {
        if (p[0] == '%' && p[1] == 's') {
            size_t start = i;
            while (s[i] >= 'a' && s[i] <= 'z' && i - start < WORD_MAX - 1)
                i++;
            if (i == start || f->nword == MAX_WORDS)
                return 0;
            memcpy(f->word[f->nword], s + start, i - start);
            f->word[f->nword++][i - start] = '\0';
            p += 2;
        } else if (p[0] == '%' && p[1] == 'u') {
            unsigned long long v = 0;
            size_t start = i;
            while (s[i] >= '0' && s[i] <= '9' && i - start < 10)
                v = v * 10 + (unsigned)(s[i++] - '0');
            if (i == start || v > 0xffffffffu || *nnum == 4)
                return 0;
            num[(*nnum)++] = (unsigned)v;
            p += 2;
        } else if (*p++ != s[i++]) {
            return 0;
        }
    }
    return i;
}

/* Append text to out, whole or cut at the end (never in a character:
 * the caller ends the text at a character boundary). */
static void put(char *out, size_t cap, size_t *n, const char *text, size_t len)
{
    if (*n + len >= cap)
        len = cap - 1 - *n;
    memcpy(out + *n, text, len);
    *n += len;
}

/* fmt (a translation) with each %u the next number and each %s the
 * next word, translated: no printf on the catalogue's text. */
static void put_format(char *out, size_t cap, size_t *n, const char *fmt,
                       const Found *found)
{
    int k = 0, w = 0, nnum = found->nnum;
    const unsigned *num = found->num;
    for (const char *f = fmt; *f != '\0'; f++) {
        if (f[0] == '%' && f[1] == 's' && w < found->nword) {
            const char *word =
                known(side_words, sizeof side_words / sizeof side_words[0],
                      found->word[w++]);
            put(out, cap, n, word, strlen(word));
            f++;
        } else if (f[0] == '%' && f[1] == 'u' && k < nnum) {
            char digits[12];
            int d = 0;
            unsigned v = num[k++];
            do {
                digits[d++] = (char)('0' + v % 10);
                v /= 10;
            } while (v > 0);
            while (d > 0)
                put(out, cap, n, &digits[--d], 1);
            f++;
        } else if (f[0] == '%' && f[1] == '%') {
            put(out, cap, n, "%", 1);
            f++;
        } else {
            put(out, cap, n, f, 1);
        }
    }
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

/* in rewritten by the patterns table (count of them) into out. */
static char *rewrite(const Pattern *table, size_t count, const char *in,
                     char *out, size_t cap)
{
    size_t n = 0;
    if (cap == 0)
        return out;
    while (*in != '\0' && n + 1 < cap) {
        const Pattern *best = NULL;
        size_t best_len = 0;
        Found f, best_f;
        memset(&best_f, 0, sizeof best_f);
        for (size_t i = 0; i < count; i++) {
            /* A plural pattern matches in either English form. */
            for (int form = 0; form < 2; form++) {
                const char *p = form == 0 ? table[i].en : table[i].one;
                size_t len = p != NULL ? match(p, in, &f) : 0;
                if (len > best_len) {
                    best = &table[i];
                    best_len = len;
                    best_f = f;
                }
            }
        }
        if (best == NULL) {
            put(out, cap, &n, in++, 1);
            continue;
        }
        const char *fmt = best->one != NULL
                              ? ngettext(best->one, best->en, best_f.num[0])
                              : _(best->en);
        put_format(out, cap, &n, fmt, &best_f);
        in += best_len;
    }
    out[utf8_whole(out, n)] = '\0';
    return out;
}

char *cli_core_text(const char *in, char *out, size_t cap)
{
    return rewrite(patterns, sizeof patterns / sizeof patterns[0], in, out,
                   cap);
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
