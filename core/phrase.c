/*
 * phrase.c: the words core writes for people in views (core.h,
 * Core_Phrase_Code), once: each game's view writes its status line and
 * its cells' descriptions from these formats (core__text_phrase), and
 * records which phrase it wrote with which numbers, so a front end says
 * them in its language by code (each format is the catalogues' msgid).
 */
#include <stddef.h>

#include "core_internal.h"

/* Mark a format, and a singular and plural pair, for xgettext (keywords
 * N_ and NP_:1,2); core/ needs no gettext. */
#define N_(s) s, NULL
#define NP_(one, many) one, many

typedef struct Phrase_Words {
    const char *format, *plural;
} Phrase_Words;

static const Phrase_Words words[CORE_PHRASE_COUNT] = {
    [CORE_PHRASE_WHITE_IN_CHECK] = {N_("White in check")},
    [CORE_PHRASE_BLACK_IN_CHECK] = {N_("Black in check")},
    [CORE_PHRASE_NO_CAPTURE] = {NP_(
        "%u ply without a capture (draw at 100)",
        "%u plies without a capture (draw at 100)")},
    [CORE_PHRASE_CB_PIECE + 0] = {N_("white pawn")},
    [CORE_PHRASE_CB_PIECE + 1] = {N_("white knight")},
    [CORE_PHRASE_CB_PIECE + 2] = {N_("white bishop")},
    [CORE_PHRASE_CB_PIECE + 3] = {N_("white rook")},
    [CORE_PHRASE_CB_PIECE + 4] = {N_("white queen")},
    [CORE_PHRASE_CB_PIECE + 5] = {N_("white king")},
    [CORE_PHRASE_CB_PIECE + 6] = {N_("black pawn")},
    [CORE_PHRASE_CB_PIECE + 7] = {N_("black knight")},
    [CORE_PHRASE_CB_PIECE + 8] = {N_("black bishop")},
    [CORE_PHRASE_CB_PIECE + 9] = {N_("black rook")},
    [CORE_PHRASE_CB_PIECE + 10] = {N_("black queen")},
    [CORE_PHRASE_CB_PIECE + 11] = {N_("black king")},
    [CORE_PHRASE_NEXT_TO] = {N_("next to")},
    [CORE_PHRASE_GOALS] = {N_("goals %u-%u, first to %u wins; ")},
    [CORE_PHRASE_SINCE_GOAL] = {NP_("%u ply since the last goal",
                                    "%u plies since the last goal")},
    [CORE_PHRASE_WHITE_GOAL] = {N_("White's goal")},
    [CORE_PHRASE_BLACK_GOAL] = {N_("Black's goal")},
    [CORE_PHRASE_BALL] = {N_("the ball")},
    [CORE_PHRASE_PIECE + CORE_PIECE_KING] = {N_("White king")},
    [CORE_PHRASE_PIECE + CORE_PIECE_QUEEN] = {N_("White queen")},
    [CORE_PHRASE_PIECE + CORE_PIECE_ROOK] = {N_("White rook")},
    [CORE_PHRASE_PIECE + CORE_PIECE_BISHOP] = {N_("White bishop")},
    [CORE_PHRASE_PIECE + CORE_PIECE_KNIGHT] = {N_("White knight")},
    [CORE_PHRASE_PIECE + CORE_PIECE_VIZIER] = {N_("White vizier")},
    [CORE_PHRASE_PIECE + CORE_PIECE_MOOR] = {N_("White moor")},
    [CORE_PHRASE_PIECE + CORE_PIECE_JACK] = {N_("White jack")},
    [CORE_PHRASE_PIECE + CORE_PIECE_CAT] = {N_("White cat")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_KING] = {N_("Black king")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_QUEEN] = {N_("Black queen")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_ROOK] = {N_("Black rook")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_BISHOP] = {N_("Black bishop")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_KNIGHT] = {N_("Black knight")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_VIZIER] = {N_("Black vizier")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_MOOR] = {N_("Black moor")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_JACK] = {N_("Black jack")},
    [CORE_PHRASE_PIECE + 9 + CORE_PIECE_CAT] = {N_("Black cat")},
    [CORE_PHRASE_TOUCHED] = {N_(", touched")},
    [CORE_PHRASE_ATTACKER] = {N_(", attacker")},
    [CORE_PHRASE_CHESS_STAGE] = {N_("chess stage, attacker moves %u/12")},
    [CORE_PHRASE_KING_IN_CHECK] = {N_(", King in check")},
    [CORE_PHRASE_SET] = {N_("set %u min %u/%u")},
    [CORE_PHRASE_OVERTIME] = {N_(" OT")},
    [CORE_PHRASE_POINTS] = {N_(" points %u:%u")},
    [CORE_PHRASE_SETS] = {N_(" sets %u:%u")},
    [CORE_PHRASE_WHITE_SERVES] = {N_(" | White serves %u/2")},
    [CORE_PHRASE_BLACK_SERVES] = {N_(" | Black serves %u/2")},
    [CORE_PHRASE_WHITE_TOUCH] = {N_(" | White touch %u")},
    [CORE_PHRASE_BLACK_TOUCH] = {N_(" | Black touch %u")},
    [CORE_PHRASE_MUST_PASS] = {N_(", must pass")},
    [CORE_PHRASE_MUST_SHOOT] = {N_(", must shoot")},
};

const char *core_phrase_words(int code, const char **plural)
{
    if (code <= CORE_PHRASE_TEXT || code >= CORE_PHRASE_COUNT ||
        words[code].format == NULL)
        return NULL;
    if (plural != NULL)
        *plural = words[code].plural;
    return words[code].format;
}

void core__text_said(Core_Text *t, Core_Said *said, uint8_t *n, uint8_t cap)
{
    t->said = said;
    t->nsaid = n;
    t->said_cap = cap;
    *n = 0;
}

/* A run of text written at [at, t->len): one more TEXT piece, or the
 * last one grown. Beyond the text's recordable length (255) or the
 * pieces' count, the pieces are dropped: the English is said as it is. */
void core__text_record(Core_Text *t, size_t at)
{
    Core_Said *last;
    if (t->said == NULL || t->len <= at)
        return;
    if (t->len > 0xff) {
        *t->nsaid = 0;
        t->said = NULL;
        return;
    }
    last = *t->nsaid > 0 ? &t->said[*t->nsaid - 1] : NULL;
    if (last != NULL && last->code == CORE_PHRASE_TEXT &&
        last->at + last->len == at) {
        last->len = (uint8_t)(t->len - last->at);
        return;
    }
    if (*t->nsaid == t->said_cap) {
        *t->nsaid = 0; /* too many pieces: said as it is */
        t->said = NULL;
        return;
    }
    t->said[(*t->nsaid)++] = (Core_Said){
        CORE_PHRASE_TEXT, (uint8_t)at, (uint8_t)(t->len - at), {0, 0, 0}};
}

void core__text_phrase(Core_Text *t, int code, unsigned a, unsigned b,
                       unsigned c)
{
    const char *plural = NULL;
    const char *f = core_phrase_words(code, &plural);
    unsigned n[3] = {a, b, c};
    int k = 0;
    Core_Said *said = t->said;
    if (f == NULL)
        return;
    if (said != NULL && (a > 0xffff || b > 0xffff || c > 0xffff)) {
        *t->nsaid = 0; /* a number too large to record: as it is */
        t->said = said = NULL;
    }
    if (plural != NULL && a != 1)
        f = plural;
    t->said = NULL; /* the phrase is one piece, not runs of text */
    for (; *f != '\0'; f++) {
        if (f[0] == '%' && f[1] == 'u' && k < 3) {
            core__text_uint(t, n[k++]);
            f++;
        } else {
            core__text_char(t, *f);
        }
    }
    t->said = said;
    if (said == NULL)
        return;
    if (*t->nsaid == t->said_cap || t->err != 0) {
        *t->nsaid = 0; /* too many pieces, or cut: said as it is */
        t->said = NULL;
        return;
    }
    t->said[(*t->nsaid)++] = (Core_Said){
        (uint8_t)code, 0, 0, {(uint16_t)a, (uint16_t)b, (uint16_t)c}};
}
