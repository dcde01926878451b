/*
 * note.c: the session's notes as codes with arguments (match.h,
 * Match_Note), and their one table of words: each code's English format,
 * from which the session writes the note's text and every front end its
 * translation (the catalogue's entry for the same format), so nothing
 * matches English sentences to translate them.
 */
#include <string.h>

#include "match_internal.h"

/* Mark a format, and a singular and plural pair, for xgettext (keywords
 * N_ and NP_:1,2); match/ needs no gettext. */
#define N_(s) s
#define NP_(one, many) one, many

typedef struct Note_Words {
    const char *format; /* the English words, {1}..{4} and {w1}..{w4} */
    const char *plural; /* for a count of other than one (NULL: none) */
    int count;          /* the argument (1..4) the plural counts */
} Note_Words;

/* {k} is argument k as it is (a typed line, a number, a hash); {wk} is
 * argument k as a word the front end says in its language (a side's
 * name, a core error's text, a game's move hint). */
static const Note_Words words[MATCH_NOTE_COUNT] = {
    [MATCH_NOTE_DRAW_OFFER] = {N_("{w1} offers a draw"), NULL, 0},
    [MATCH_NOTE_DRAW_OFFER_TO_YOU] =
        {N_("{w1} offers a draw: type accept or decline"), NULL, 0},
    /* G-MC-1: an offer is made on its maker's turn and answered on the
     * receiver's, so the maker is told it goes with the move it makes. */
    [MATCH_NOTE_DRAW_OFFER_YOURS] =
        {N_("{w1} offers a draw: your offer goes with your move; the opponent "
            "answers it on their turn"),
         NULL, 0},
    [MATCH_NOTE_DRAW_ACCEPT] = {N_("{w1} accepts the draw"), NULL, 0},
    [MATCH_NOTE_DRAW_DECLINE] = {N_("{w1} declines the draw"), NULL, 0},
    [MATCH_NOTE_RESIGN] = {N_("{w1} resigns"), NULL, 0},
    [MATCH_NOTE_ABORT] = {N_("{w1} aborts the game"), NULL, 0},
    [MATCH_NOTE_TAKEBACK_DECLINE] = {N_("{w1} declines the takeback"), NULL, 0},
    [MATCH_NOTE_TAKEBACK_ASK] = {NP_("{w1} asks to take back {2} ply",
                                     "{w1} asks to take back {2} plies"),
                                 2},
    [MATCH_NOTE_TAKEBACK_ASK_YOU] =
        {NP_("{w1} asks to take back {2} ply: type accept or decline",
             "{w1} asks to take back {2} plies: type accept or decline"),
         2},
    [MATCH_NOTE_TAKEBACK_ACCEPT] =
        {N_("{w1} accepts the takeback: back to ply {2}, {w3} to move, {4}"),
         NULL, 0},
    [MATCH_NOTE_FLAG] =
        {N_("{w1} claims the flag: {w2}'s time is up after {3} ms"), NULL, 0},
    [MATCH_NOTE_CLAIM_DRAW] = {N_("{w1} claims a draw: the opponent is absent"),
                               NULL, 0},
    [MATCH_NOTE_CLAIM_WIN] = {N_("{w1} claims the win: the opponent is absent"),
                              NULL, 0},
    [MATCH_NOTE_TIME_UP] = {N_("time: your time is up"), NULL, 0},
    [MATCH_NOTE_CLAIM_VOID] =
        {N_("claim void: the relay has not seen the opponent gone for {1} s; "
            "play goes on"),
         NULL, 0},
    [MATCH_NOTE_RELAY_AHEAD] =
        {N_("relay: its time for envelope {1} is {2} s later than this "
            "seat's clock allows; kept in the log as evidence"),
         NULL, 0},
    [MATCH_NOTE_RELAY_BEHIND] =
        {N_("relay: its time for envelope {1} is {2} s earlier than this "
            "seat sent it; kept in the log as evidence"),
         NULL, 0},
    [MATCH_NOTE_FLAG_VOID] =
        {N_("flag claim void: by the relay's receipts {w1} has {2} s left; "
            "play goes on"),
         NULL, 0},
    [MATCH_NOTE_ABSENT_CLAIM] =
        {N_("absent: the opponent has been gone {1} s: type 'claim win' or "
            "'claim draw'"),
         NULL, 0},
    [MATCH_NOTE_ABSENT_LEFT] =
        {N_("absent: the opponent left; you may claim the win or a draw in "
            "{1} s unless it returns"),
         NULL, 0},
    [MATCH_NOTE_ABSENT_LEFT_BOT] =
        {N_("absent: the opponent left; the bot claims the win in {1} s "
            "unless it returns"),
         NULL, 0},
    [MATCH_NOTE_HOST_PRESENT] = {N_("lobby: host present"), NULL, 0},
    [MATCH_NOTE_HOST_GONE] =
        {N_("lobby: host gone (waiting for it to come back)"), NULL, 0},
    [MATCH_NOTE_GUEST_PRESENT] = {N_("lobby: guest present"), NULL, 0},
    [MATCH_NOTE_GUEST_GONE] =
        {N_("lobby: guest gone (waiting for it to come back)"), NULL, 0},
    [MATCH_NOTE_CLOCK] = {N_("clock: white {1} s, black {2} s"), NULL, 0},
    [MATCH_NOTE_DESYNC] = {N_("desync: state hashes differ at ply {1}"), NULL,
                           0},
    [MATCH_NOTE_START_HOST] = {N_("match: {1}, you are white, opponent {2}"),
                               NULL, 0},
    [MATCH_NOTE_START_WHITE_YOU] = {N_("match: {1}, white {2} (you), black "
                                       "{3}"),
                                    NULL, 0},
    [MATCH_NOTE_START_BLACK_YOU] = {N_("match: {1}, white {2}, black {3} "
                                       "(you)"),
                                    NULL, 0},
    [MATCH_NOTE_START_WATCH] = {N_("match: {1}, white {2}, black {3}"), NULL,
                                0},
    [MATCH_NOTE_LINE_HELD] = {N_("'{1}' is sent when your turn comes"), NULL,
                              0},
    [MATCH_NOTE_ANSWER_HELD] = {N_("a draw offer is answered on your turn: "
                                   "your answer is sent when it comes"),
                                NULL, 0},
    [MATCH_NOTE_REFUSED_TIME_UP] = {N_("refused: your time is up"), NULL, 0},
    [MATCH_NOTE_REFUSED_NOT_ABSENT] =
        {N_("refused: '{1}': the opponent is not absent long enough"), NULL, 0},
    [MATCH_NOTE_REFUSED_LINE_TIME_UP] = {N_("refused: '{1}': your time is up"),
                                         NULL, 0},
    [MATCH_NOTE_REFUSED_LINE] = {N_("refused: '{1}': {2}"), NULL, 0},
    [MATCH_NOTE_REFUSED_NOTHING_TO_ANSWER] =
        {N_("refused: '{1}': no offer or request to answer"), NULL, 0},
    [MATCH_NOTE_REFUSED_OFFER_STANDS] =
        {N_("refused: '{1}': your offer stands already"), NULL, 0},
    [MATCH_NOTE_REFUSED_ACCEPT_THEIRS] =
        {N_("refused: '{1}': the opponent offers one: accept it"), NULL, 0},
    [MATCH_NOTE_REFUSED_DRAW_LIMIT] =
        {N_("refused: '{1}': you have made 3 draw offers already"), NULL, 0},
    [MATCH_NOTE_REFUSED_ABORT_LATE] =
        {N_("refused: '{1}': both sides have moved (resign or offer a draw)"),
         NULL, 0},
    [MATCH_NOTE_REFUSED_TAKEBACK_RANGE] =
        {N_("refused: '{1}': a takeback is of 1 to 255 plies"), NULL, 0},
    [MATCH_NOTE_REFUSED_NOTHING_TO_TAKE_BACK] =
        {N_("refused: '{1}': nothing to take back"), NULL, 0},
    [MATCH_NOTE_REFUSED_UNKNOWN] =
        {N_("refused: '{1}': expected resign, draw, accept, decline, abort, "
            "takeback [N], claim win or claim draw"),
         NULL, 0},
    [MATCH_NOTE_REFUSED_MOVE] = {N_("refused: '{1}': {w2} (e.g. {w3})"), NULL,
                                 0},
    [MATCH_NOTE_REFUSED_SEND] = {N_("refused: {1}: {w2} ({3})"), NULL, 0},
};

/* The draw-offer refusal names the limit in words. */
_Static_assert(PROTO_DRAW_OFFERS_MAX == 3, "say the new draw offer limit");

const char *match_note_words(int code, const char **plural, int *count_arg)
{
    if (code <= MATCH_NOTE_TEXT || code >= MATCH_NOTE_COUNT)
        return NULL;
    if (plural != NULL)
        *plural = words[code].plural;
    if (count_arg != NULL)
        *count_arg = words[code].count;
    return words[code].format;
}

int match_note_is_refusal(int code)
{
    return code >= MATCH_NOTE_REFUSED_TIME_UP && code < MATCH_NOTE_COUNT;
}

size_t match_note_render(const char *format, const Match_Note *n,
                         const char *(*word)(const char *arg), char *out,
                         size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return 0;
    for (const char *p = format; *p != '\0';) {
        const char *arg = NULL;
        int as_word = 0;
        if (p[0] == '{') {
            int k = 1;
            as_word = p[1] == 'w';
            k += as_word;
            if (p[k] >= '1' && p[k] <= '0' + MATCH_NOTE_ARGS &&
                p[k + 1] == '}') {
                arg = n->arg[p[k] - '1'];
                p += k + 2;
            }
        }
        if (arg != NULL) {
            const char *s = as_word && word != NULL ? word(arg) : arg;
            for (; *s != '\0' && len + 1 < cap; s++)
                out[len++] = *s;
        } else {
            if (len + 1 < cap)
                out[len++] = *p;
            p++;
        }
    }
    out[len] = '\0';
    return len;
}

void match__say(Match *s, int warning, int code, const char *a1, const char *a2,
                const char *a3, const char *a4)
{
    const char *args[MATCH_NOTE_ARGS] = {a1, a2, a3, a4};
    const char *plural = NULL, *format;
    Match_Out *o = match__push(s, warning ? MATCH_OUT_WARN : MATCH_OUT_NOTE);
    int c = 0;
    if (o == NULL)
        return;
    o->note.code = code;
    for (int i = 0; i < MATCH_NOTE_ARGS; i++) {
        size_t n = 0;
        for (const char *p = args[i];
             p != NULL && *p != '\0' && n + 1 < sizeof o->note.arg[i]; p++) {
            unsigned char ch = (unsigned char)*p;
            o->note.arg[i][n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
        }
        o->note.arg[i][n] = '\0';
    }
    format = match_note_words(code, &plural, &c);
    if (plural != NULL && c > 0 && strcmp(o->note.arg[c - 1], "1") != 0)
        format = plural;
    match_note_render(format, &o->note, NULL, o->text, sizeof o->text);
}
