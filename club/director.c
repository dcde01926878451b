/*
 * director.c: a tournament director's signed documents (director.h,
 * issue 38): written in one canonical text form, read back as hostile
 * input, the round's pairing by the tournament's system, a game's result
 * from its verified log, and the tourney.h tournament the standings are
 * computed on. docs/tournaments.md, "The documents", is the format.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "club.h"
#include "director.h"
#include "swiss.h"
#include "tb_error.h"

/* Phrases of a refusal: English, translated by the client. */
#define N_(s) s

/* The signature's domain (proto_sign_document) and the documents' first
 * lines. */
static const char domain[] = "tournament";
static const char *const magic[] = {NULL, "tabula-tournament 1",
                                    "tabula-pairings 1", "tabula-results 1"};

Club_Dir *club_dir_new(void) { return calloc(1, sizeof(Club_Dir)); }

void club_dir_free(Club_Dir *d) { free(d); }

static const char *const system_names[] = {NULL, "rr", "drr", "swiss"};

/* A declared forfeit's winner as the results document writes it. */
static const char *const forfeit_words[] = {NULL, "white", "black", "none"};

int club_dir_relay_ok(const char *text, size_t n)
{
    char word[CLUB_RELAY_WORD_MAX], typed[CLUB_RELAY_WORD_MAX];
    if (text == NULL || n >= sizeof typed)
        return 0;
    memcpy(typed, text, n);
    typed[n] = '\0';
    /* (in its canonical form only) */
    return memchr(text, '\0', n) == NULL && club_relay_word(typed, word) == 0 &&
           strcmp(word, typed) == 0;
}

int club_dir_lobby_ok(const char *text, size_t n)
{
    size_t start = 0;
    if (text == NULL || n == 0 || n > CLUB_DIR_LOBBY_MAX)
        return 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && text[i] != ',') {
            char c = text[i];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '[' ||
                  c == ']' || c == ':'))
                return 0;
            continue;
        }
        /* a node text[start..i): HOST:PORT, PORT 1..65535 canonical */
        size_t colon = i, digits;
        long port = 0;
        while (colon > start && text[colon - 1] != ':')
            colon--;
        digits = i - colon;
        if (colon <= start + 1 || digits == 0 || digits > 5 ||
            text[colon] == '0')
            return 0;
        for (size_t k = colon; k < i; k++) {
            if (text[k] < '0' || text[k] > '9')
                return 0;
            port = port * 10 + (text[k] - '0');
        }
        if (port > 65535)
            return 0;
        start = i + 1;
    }
    return 1;
}

const char *club_system_name(int system)
{
    return system >= CLUB_SYSTEM_RR && system <= CLUB_SYSTEM_SWISS
               ? system_names[system]
               : NULL;
}

int club_system_parse(const char *word)
{
    for (int s = CLUB_SYSTEM_RR; word != NULL && s <= CLUB_SYSTEM_SWISS; s++)
        if (strcmp(word, system_names[s]) == 0)
            return s;
    return TB_E_ARG;
}

int club_dir_total_rounds(const Club_Dir *d)
{
    if (d == NULL)
        return TB_E_ARG;
    if (d->rounds > 0)
        return d->rounds;
    if (d->system == CLUB_SYSTEM_RR || d->system == CLUB_SYSTEM_DRR)
        return club_berger_rounds(d->nplayers, d->system == CLUB_SYSTEM_DRR);
    return TB_E_ARG;
}

/* A Swiss round by the Dutch system (club/swiss.h) from the results of
 * the rounds before it, every one of which must be in (TB_E_STATE
 * otherwise); the withdrawn are not paired; round 1's rank 1 has White
 * (FIDE's initial colour, drawn so by the director: docs/tournaments.md).
 * The bye is a board with White alone, as a round robin's. */
static int swiss_round(const Club_Dir *d, int round, Club_Dir_Board *out,
                       int *count)
{
    unsigned char absent[CLUB_DIR_MAX_PLAYERS];
    Club_Tourney *t;
    Club_Swiss_Pairing *sp;
    int rc;
    if (round - 1 > d->npaired)
        return TB_E_STATE;
    for (int r = 0; r < round - 1; r++)
        for (int b = 0; b < d->round[r].nboards; b++)
            if (d->round[r].boards[b].black != 0 &&
                !d->round[r].boards[b].done)
                return TB_E_STATE; /* (a result to come first) */
    if ((t = club_tourney_new()) == NULL ||
        (sp = malloc(sizeof *sp)) == NULL) {
        club_tourney_free(t);
        return TB_E_NOMEM;
    }
    rc = club_dir_tourney(d, round - 1, t);
    if (rc == 0) {
        t->nrounds = round;
        for (int i = 0; i < d->nplayers; i++)
            absent[i] = (d->players[i].withdrawn > 0 &&
                         d->players[i].withdrawn <= round) ||
                        d->players[i].entered > round;
        rc = club_swiss_pair(t, round, absent, CLUB_COLOUR_WHITE, sp);
    }
    if (rc == 0 && sp->nboards + (sp->bye != 0) > CLUB_DIR_MAX_BOARDS)
        rc = TB_E_LIMIT;
    for (int k = 0; rc == 0 && k < sp->nboards; k++) {
        memset(&out[k], 0, sizeof out[k]);
        out[k].white = sp->boards[k].white;
        out[k].black = sp->boards[k].black;
    }
    if (rc == 0) {
        *count = sp->nboards;
        if (sp->bye != 0) {
            memset(&out[*count], 0, sizeof out[0]);
            out[(*count)++].white = sp->bye;
        }
    }
    free(sp);
    club_tourney_free(t);
    return rc;
}

int club_dir_pair(const Club_Dir *d, int round, Club_Dir_Board *out,
                  int *count)
{
    Club_Pairing b[CLUB_BERGER_MAX / 2];
    int nb = 0, total, rc;
    if (d == NULL || out == NULL || count == NULL)
        return TB_E_ARG;
    total = club_dir_total_rounds(d);
    if (total < 0 || round < 1 || round > total)
        return TB_E_ARG;
    *count = 0;
    switch (d->system) {
    case CLUB_SYSTEM_RR:
    case CLUB_SYSTEM_DRR:
        rc = club_berger_round(d->nplayers, d->system == CLUB_SYSTEM_DRR,
                               round, b, &nb);
        if (rc != 0)
            return rc;
        for (int k = 0; k < nb; k++) {
            memset(&out[k], 0, sizeof out[k]);
            /* (the dummy written 0 on either side: the other has the
             * bye, kept as White with no Black) */
            out[k].white = b[k].white != 0 ? b[k].white : b[k].black;
            out[k].black = b[k].white != 0 ? b[k].black : 0;
        }
        *count = nb;
        return 0;
    case CLUB_SYSTEM_SWISS:
        return swiss_round(d, round, out, count);
    default:
        return TB_E_ARG;
    }
}

int club_dir_find(const Club_Dir *d, const uint8_t pk[PROTO_KEY_BYTES])
{
    for (int i = 0; d != NULL && pk != NULL && i < d->nplayers; i++)
        if (memcmp(d->players[i].key, pk, PROTO_KEY_BYTES) == 0)
            return i + 1;
    return 0;
}

const Club_Points *club_dir_points(const Club_Dir *d)
{
    if (d != NULL && strncmp(d->game, "volleyball", 10) == 0)
        return &club_points_volleyball;
    return &club_points_chess;
}

/* ---- writing ---------------------------------------------------------- */

typedef struct Out {
    char *buf;
    size_t cap, len;
    int err;
} Out;

static void put(Out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(Out *o, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (o->err)
        return;
    va_start(ap, fmt);
    n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->cap - o->len) {
        o->err = TB_E_SPACE;
        return;
    }
    o->len += (size_t)n;
}

static void put_hex(Out *o, const char *word, const uint8_t *b, size_t n)
{
    char hex[2 * PROTO_SIG_BYTES + 1];
    proto_hex(b, n, hex);
    put(o, "%s %s\n", word, hex);
}

int club_dir_write(const Club_Dir *d, int kind, int round,
                   const Club_Standing *st, const Proto_Identity *director,
                   char *out, size_t cap)
{
    Out o = {out, cap, 0, 0};
    uint8_t sig[PROTO_SIG_BYTES];
    const Club_Dir_Round *r;
    int rc;

    if (d == NULL || director == NULL || out == NULL || cap == 0 ||
        kind < CLUB_DOC_TOURNAMENT || kind > CLUB_DOC_RESULTS ||
        memcmp(director->pk, d->director, PROTO_KEY_BYTES) != 0)
        return TB_E_ARG;
    put(&o, "%s\n", magic[kind]);
    if (kind == CLUB_DOC_TOURNAMENT) {
        put_hex(&o, "id", d->id, PROTO_HASH_BYTES);
        put(&o, "name %s\n", d->name);
        put(&o, "game %s\n", d->game);
        put(&o, "clock %s\n", d->clock[0] != '\0' ? d->clock : "none");
        put(&o, "system %s\n", club_system_name(d->system));
        put(&o, "rounds %d\n", d->rounds);
        put_hex(&o, "director", d->director, PROTO_KEY_BYTES);
        if (d->lobby[0] != '\0')
            put(&o, "lobby %s\n", d->lobby);
        if (d->relay[0] != '\0')
            put(&o, "relay %s\n", d->relay);
        for (int i = 0; i < d->nplayers; i++) {
            char hex[2 * PROTO_KEY_BYTES + 1];
            proto_hex(d->players[i].key, PROTO_KEY_BYTES, hex);
            if (d->players[i].name[0] != '\0')
                put(&o, "player %s %s\n", hex, d->players[i].name);
            else
                put(&o, "player %s\n", hex);
        }
        for (int i = 0; i < d->nplayers; i++)
            if (d->players[i].withdrawn > 0)
                put(&o, "withdrawn %d %d\n", i + 1, d->players[i].withdrawn);
        for (int i = 0; i < d->nplayers; i++)
            if (d->players[i].entered > 1)
                put(&o, "entered %d %d%s\n", i + 1, d->players[i].entered,
                    d->players[i].bye_half ? " half" : "");
    } else {
        if (round < 1 || round > d->npaired)
            return TB_E_ARG;
        r = &d->round[round - 1];
        put_hex(&o, "tournament", d->id, PROTO_HASH_BYTES);
        put(&o, "round %d\n", round);
        for (int b = 0; b < r->nboards; b++) {
            const Club_Dir_Board *x = &r->boards[b];
            if (kind == CLUB_DOC_PAIRINGS) {
                if (x->black == 0)
                    put(&o, "bye %d %d\n", b + 1, x->white);
                else
                    put(&o, "board %d %d %d\n", b + 1, x->white, x->black);
            } else if (x->done && x->forfeit != CLUB_FORFEIT_NONE) {
                put(&o, "forfeit %d %s\n", b + 1, forfeit_words[x->forfeit]);
            } else if (x->done) {
                char hex[PROTO_HASH_HEX];
                proto_hex(x->log, PROTO_HASH_BYTES, hex);
                put(&o, "game %d %u %u %s\n", b + 1, x->half[0], x->half[1],
                    hex);
            }
        }
        if (kind == CLUB_DOC_RESULTS) {
            if (st == NULL)
                return TB_E_ARG;
            for (int i = 0; i < d->nplayers; i++) {
                if (st[i].player < 1 || st[i].player > d->nplayers)
                    return TB_E_ARG;
                put(&o, "standing %d %d %d %d %d %d %d\n", st[i].rank,
                    st[i].player, st[i].points, st[i].buchholz,
                    st[i].buchholz_cut1, st[i].sonneborn, st[i].direct);
            }
        }
    }
    if (o.err)
        return o.err;
    rc = proto_sign_document(director, domain, (const uint8_t *)out, o.len,
                             sig);
    if (rc != 0)
        return rc;
    put_hex(&o, "signature", sig, PROTO_SIG_BYTES);
    return o.err ? o.err : (int)o.len;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct Reader {
    const char *text;
    size_t len, pos;
    int line;
    const char *at; /* the current line, without its newline */
    size_t n;
    Club_Dir_Error *err;
} Reader;

static int fail(Reader *rd, int rc, const char *why)
{
    if (rd->err != NULL) {
        rd->err->line = rd->line;
        rd->err->why = why;
    }
    return rc;
}

/* The next line: 0, or TB_E_FORMAT (none left, no newline, a control
 * byte, a blank at either end or two together), TB_E_LIMIT (too long). */
static int next_line(Reader *rd)
{
    const char *nl;
    rd->line++;
    if (rd->pos >= rd->len)
        return fail(rd, TB_E_FORMAT, N_("the document ends too soon"));
    nl = memchr(rd->text + rd->pos, '\n', rd->len - rd->pos);
    if (nl == NULL)
        return fail(rd, TB_E_FORMAT, N_("the last line has no newline"));
    rd->at = rd->text + rd->pos;
    rd->n = (size_t)(nl - rd->at);
    rd->pos += rd->n + 1;
    if (rd->n + 1 > CLUB_DIR_LINE_MAX)
        return fail(rd, TB_E_LIMIT, N_("a line is too long"));
    if (rd->n == 0)
        return fail(rd, TB_E_FORMAT, N_("an empty line"));
    for (size_t i = 0; i < rd->n; i++) {
        unsigned char c = (unsigned char)rd->at[i];
        if (c < 0x20 || c == 0x7f)
            return fail(rd, TB_E_FORMAT, N_("a control character"));
        if (c == ' ' && (i == 0 || i + 1 == rd->n || rd->at[i - 1] == ' '))
            return fail(rd, TB_E_FORMAT, N_("a blank out of place"));
    }
    return 0;
}

/* Whether the current line starts with word and a blank; *rest then
 * points past them. */
static int starts(const Reader *rd, const char *word, const char **rest)
{
    size_t w = strlen(word);
    if (rd->n <= w || memcmp(rd->at, word, w) != 0 || rd->at[w] != ' ')
        return 0;
    *rest = rd->at + w + 1;
    return 1;
}

/* The length of the field at p (to the next blank or the line's end). */
static size_t field(const Reader *rd, const char *p)
{
    const char *end = rd->at + rd->n;
    size_t k = 0;
    while (p + k < end && p[k] != ' ')
        k++;
    return k;
}

/* Past a field of k bytes at *p: the line must end there (last) or go
 * on after one blank, which is skipped. */
static int field_end(Reader *rd, const char **p, size_t k, int last)
{
    *p += k;
    if (last != (*p == rd->at + rd->n))
        return fail(rd, TB_E_FORMAT,
                    last ? N_("more on the line than expected")
                         : N_("the line ends too soon"));
    if (!last)
        (*p)++;
    return 0;
}

/* A canonical decimal number 0..max at *p (advanced past it and one
 * blank, unless last). */
static int number(Reader *rd, const char **p, int last, long max, long *v)
{
    size_t k = field(rd, *p);
    long x = 0;
    if (k == 0 || k > 9 || ((*p)[0] == '0' && k > 1))
        return fail(rd, TB_E_FORMAT, N_("a number expected"));
    for (size_t i = 0; i < k; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9')
            return fail(rd, TB_E_FORMAT, N_("a number expected"));
        x = x * 10 + ((*p)[i] - '0');
    }
    if (x > max)
        return fail(rd, TB_E_FORMAT, N_("a number out of range"));
    *v = x;
    return field_end(rd, p, k, last);
}

/* n bytes in lowercase hex at *p (advanced, and past one blank unless
 * last). */
static int hexfield(Reader *rd, const char **p, int last, uint8_t *out,
                    size_t n)
{
    size_t k = field(rd, *p);
    if (k != 2 * n || proto_unhex(*p, k, out, n) != 0)
        return fail(rd, TB_E_FORMAT,
                    N_("lowercase hex of the right length expected"));
    return field_end(rd, p, k, last);
}

/* The line must be `word VALUE`; *value points at VALUE, *vn its bytes. */
static int keyed(Reader *rd, const char *word, const char **value,
                 size_t *vn)
{
    int rc = next_line(rd);
    if (rc != 0)
        return rc;
    if (!starts(rd, word, value))
        return fail(rd, TB_E_FORMAT, N_("a line out of order or unknown"));
    *vn = (size_t)(rd->at + rd->n - *value);
    return 0;
}

/* A name exactly in its canonical display form. */
static int canonical_name(Reader *rd, const char *p, size_t n, char *out,
                          size_t cap)
{
    if (proto_name_check(p, n, out, cap) != 0 || strlen(out) != n ||
        memcmp(out, p, n) != 0)
        return fail(rd, TB_E_FORMAT, N_("a name not in its canonical form"));
    return 0;
}

static int read_tournament(Reader *rd, Club_Dir *d)
{
    const char *v;
    size_t vn;
    long x;
    int rc;
    Proto_Clock clk;
    char word[PROTO_NAME_MAX + 1];

    if ((rc = keyed(rd, "id", &v, &vn)) != 0 ||
        (rc = hexfield(rd, &v, 1, d->id, PROTO_HASH_BYTES)) != 0)
        return rc;
    if ((rc = keyed(rd, "name", &v, &vn)) != 0 ||
        (rc = canonical_name(rd, v, vn, d->name, sizeof d->name)) != 0)
        return rc;
    if ((rc = keyed(rd, "game", &v, &vn)) != 0)
        return rc;
    if (vn > PROTO_NAME_MAX)
        return fail(rd, TB_E_FORMAT, N_("not a game's name"));
    memcpy(word, v, vn);
    word[vn] = '\0';
    if (core_game_find(word) == NULL ||
        strcmp(core_game_name(core_game_find(word)), word) != 0)
        return fail(rd, TB_E_FORMAT, N_("not a game's name"));
    memcpy(d->game, word, vn + 1);
    if ((rc = keyed(rd, "clock", &v, &vn)) != 0)
        return rc;
    if (vn == 4 && memcmp(v, "none", 4) == 0) {
        d->clock[0] = '\0';
    } else {
        char text[PROTO_CLOCK_TEXT_MAX], again[PROTO_CLOCK_TEXT_MAX];
        if (vn >= sizeof text)
            return fail(rd, TB_E_FORMAT, N_("not a canonical clock"));
        memcpy(text, v, vn);
        text[vn] = '\0';
        if (proto_clock_parse(text, 0, &clk, NULL) != 0 ||
            clk.kind == PROTO_CLOCK_NONE ||
            proto_clock_format(&clk, again, sizeof again) != 0 ||
            strcmp(again, text) != 0)
            return fail(rd, TB_E_FORMAT, N_("not a canonical clock"));
        memcpy(d->clock, text, vn + 1);
    }
    if ((rc = keyed(rd, "system", &v, &vn)) != 0)
        return rc;
    if (vn > 5)
        return fail(rd, TB_E_FORMAT, N_("not a pairing system"));
    memcpy(word, v, vn);
    word[vn] = '\0';
    if ((d->system = club_system_parse(word)) < 0)
        return fail(rd, TB_E_FORMAT, N_("not a pairing system"));
    if ((rc = keyed(rd, "rounds", &v, &vn)) != 0 ||
        (rc = number(rd, &v, 1, CLUB_TOURNEY_MAX_ROUNDS, &x)) != 0)
        return rc;
    d->rounds = (int)x;
    if (d->system == CLUB_SYSTEM_SWISS && d->rounds == 0)
        return fail(rd, TB_E_FORMAT, N_("a Swiss tournament needs its rounds"));
    if ((rc = keyed(rd, "director", &v, &vn)) != 0 ||
        (rc = hexfield(rd, &v, 1, d->director, PROTO_KEY_BYTES)) != 0)
        return rc;
    if ((rc = next_line(rd)) != 0)
        return rc;
    if (starts(rd, "lobby", &v)) {
        vn = (size_t)(rd->at + rd->n - v);
        if (!club_dir_lobby_ok(v, vn))
            return fail(rd, TB_E_FORMAT, N_("not a lobby's HOST:PORT"));
        memcpy(d->lobby, v, vn);
        d->lobby[vn] = '\0';
        if ((rc = next_line(rd)) != 0)
            return rc;
    }
    if (starts(rd, "relay", &v)) {
        vn = (size_t)(rd->at + rd->n - v);
        if (!club_dir_relay_ok(v, vn))
            return fail(rd, TB_E_FORMAT,
                        N_("not a relay's key or fingerprint"));
        memcpy(d->relay, v, vn);
        d->relay[vn] = '\0';
        if ((rc = next_line(rd)) != 0)
            return rc;
    }
    for (int first = 1;; first = 0) {
        if (!first && (rc = next_line(rd)) != 0)
            return rc;
        if (starts(rd, "player", &v)) {
            Club_Dir_Player *pl;
            if (d->nplayers == CLUB_DIR_MAX_PLAYERS)
                return fail(rd, TB_E_LIMIT, N_("too many players"));
            pl = &d->players[d->nplayers];
            if (field(rd, v) == (size_t)(rd->at + rd->n - v)) {
                rc = hexfield(rd, &v, 1, pl->key, PROTO_KEY_BYTES);
            } else if ((rc = hexfield(rd, &v, 0, pl->key, PROTO_KEY_BYTES)) ==
                       0) {
                rc = canonical_name(rd, v, (size_t)(rd->at + rd->n - v),
                                    pl->name, sizeof pl->name);
            }
            if (rc != 0)
                return rc;
            if (club_dir_find(d, pl->key) != 0)
                return fail(rd, TB_E_FORMAT, N_("a player registered twice"));
            d->nplayers++;
        } else {
            break;
        }
    }
    int last = 0;
    const char *p;
    while (starts(rd, "withdrawn", &p)) {
        long who, from;
        if ((rc = number(rd, &p, 0, CLUB_DIR_MAX_PLAYERS, &who)) != 0 ||
            (rc = number(rd, &p, 1, CLUB_TOURNEY_MAX_ROUNDS, &from)) != 0)
            return rc;
        if (who < 1 || who > d->nplayers || from < 1)
            return fail(rd, TB_E_FORMAT, N_("a number out of range"));
        if (who <= last)
            return fail(rd, TB_E_FORMAT, N_("a line out of order or unknown"));
        last = (int)who;
        d->players[who - 1].withdrawn = (int)from;
        if ((rc = next_line(rd)) != 0)
            return rc;
    }
    last = 0;
    while (starts(rd, "entered", &p)) {
        long who, from;
        int half = 0;
        if ((rc = number(rd, &p, 0, CLUB_DIR_MAX_PLAYERS, &who)) != 0)
            return rc;
        if (field(rd, p) == (size_t)(rd->at + rd->n - p)) {
            rc = number(rd, &p, 1, CLUB_TOURNEY_MAX_ROUNDS, &from);
        } else if ((rc = number(rd, &p, 0, CLUB_TOURNEY_MAX_ROUNDS, &from)) ==
                   0) {
            if ((size_t)(rd->at + rd->n - p) != 4 || memcmp(p, "half", 4) != 0)
                return fail(rd, TB_E_FORMAT,
                            N_("more on the line than expected"));
            half = 1;
        }
        if (rc != 0)
            return rc;
        if (who < 1 || who > d->nplayers || from < 2)
            return fail(rd, TB_E_FORMAT, N_("a number out of range"));
        if (who <= last)
            return fail(rd, TB_E_FORMAT, N_("a line out of order or unknown"));
        if (d->system != CLUB_SYSTEM_SWISS)
            return fail(rd, TB_E_FORMAT, N_("a late entry in a round robin"));
        last = (int)who;
        d->players[who - 1].entered = (int)from;
        d->players[who - 1].bye_half = half;
        if ((rc = next_line(rd)) != 0)
            return rc;
    }
    return 0;
}

/* The pairings of round `round` into r; each player at most once. */
static int read_pairings(Reader *rd, const Club_Dir *d, Club_Dir_Round *r)
{
    int seen[CLUB_DIR_MAX_PLAYERS + 1] = {0};
    const char *p;
    int rc;
    for (;;) {
        long b, w, bl = 0;
        int bye;
        if ((rc = next_line(rd)) != 0)
            return rc;
        if (starts(rd, "board", &p))
            bye = 0;
        else if (starts(rd, "bye", &p))
            bye = 1;
        else
            return 0;
        if ((rc = number(rd, &p, 0, CLUB_DIR_MAX_BOARDS, &b)) != 0 ||
            (rc = number(rd, &p, bye, d->nplayers, &w)) != 0 ||
            (!bye && (rc = number(rd, &p, 1, d->nplayers, &bl)) != 0))
            return rc;
        if (b != r->nboards + 1)
            return fail(rd, TB_E_FORMAT, N_("boards out of order"));
        if (w < 1 || (!bye && bl < 1))
            return fail(rd, TB_E_FORMAT, N_("a number out of range"));
        if (seen[w] || seen[bl] || w == bl)
            return fail(rd, TB_E_FORMAT,
                        N_("a player paired twice in one round"));
        seen[w] = 1;
        if (!bye)
            seen[bl] = 1;
        memset(&r->boards[r->nboards], 0, sizeof r->boards[0]);
        r->boards[r->nboards].white = (int)w;
        r->boards[r->nboards].black = (int)bl;
        r->nboards++;
    }
}

/* A results document's games and standings into r. */
static int read_results(Reader *rd, const Club_Dir *d, Club_Dir_Round *r)
{
    const char *p;
    int rc, last = 0, seen[CLUB_DIR_MAX_PLAYERS + 1] = {0};
    for (;;) {
        long b, hw, hb;
        int forfeit = 0;
        if ((rc = next_line(rd)) != 0)
            return rc;
        if (starts(rd, "forfeit", &p))
            forfeit = 1;
        else if (!starts(rd, "game", &p))
            break;
        /* `forfeit B WINNER` or `game B WHITE BLACK HASH` */
        if ((rc = number(rd, &p, 0, CLUB_DIR_MAX_BOARDS, &b)) != 0)
            return rc;
        if (b <= last || b > r->nboards)
            return fail(rd, TB_E_FORMAT, N_("boards out of order"));
        last = (int)b;
        Club_Dir_Board *x = &r->boards[b - 1];
        if (x->black == 0)
            return fail(rd, TB_E_FORMAT, N_("a result for a bye"));
        if (forfeit) {
            size_t k = CLUB_FORFEIT_WHITE, vn = (size_t)(rd->at + rd->n - p);
            while (k <= CLUB_FORFEIT_NEITHER &&
                   (strlen(forfeit_words[k]) != vn ||
                    memcmp(p, forfeit_words[k], vn) != 0))
                k++;
            if (k > CLUB_FORFEIT_NEITHER)
                return fail(rd, TB_E_FORMAT,
                            N_("a forfeit's winner is white, black or none"));
            memset(x->half, 0, sizeof x->half);
            memset(x->log, 0, sizeof x->log);
            x->done = 1;
            x->forfeit = (int)k;
            continue;
        }
        if ((rc = number(rd, &p, 0, 99, &hw)) != 0 ||
            (rc = number(rd, &p, 0, 99, &hb)) != 0)
            return rc;
        if ((rc = hexfield(rd, &p, 1, x->log, PROTO_HASH_BYTES)) != 0)
            return rc;
        x->done = 1;
        x->forfeit = CLUB_FORFEIT_NONE;
        x->half[0] = (unsigned)hw;
        x->half[1] = (unsigned)hb;
    }
    r->nstandings = 0;
    while (starts(rd, "standing", &p)) {
        long v[7];
        if (r->nstandings == d->nplayers)
            return fail(rd, TB_E_FORMAT, N_("more standings than players"));
        for (int k = 0; k < 7; k++)
            if ((rc = number(rd, &p, k == 6, k < 2 ? d->nplayers : 99999999,
                             &v[k])) != 0)
                return rc;
        if (v[0] < 1 || v[1] < 1 || seen[v[1]])
            return fail(rd, TB_E_FORMAT, N_("a player's standing twice"));
        seen[v[1]] = 1;
        Club_Standing *s = &r->standings[r->nstandings++];
        s->rank = (int)v[0];
        s->player = (int)v[1];
        s->points = (int)v[2];
        s->buchholz = (int)v[3];
        s->buchholz_cut1 = (int)v[4];
        s->sonneborn = (int)v[5];
        s->direct = (int)v[6];
        if ((rc = next_line(rd)) != 0)
            return rc;
    }
    if (r->nstandings != d->nplayers)
        return fail(rd, TB_E_FORMAT, N_("a standing for every player expected"));
    return 0;
}

int club_dir_read(Club_Dir *d, int kind, const uint8_t *text, size_t len,
                  Club_Dir_Error *err)
{
    Reader rd;
    Club_Dir_Round *r = NULL, *tmp = NULL;
    uint8_t sig[PROTO_SIG_BYTES], id[PROTO_HASH_BYTES];
    const char *v;
    size_t signed_len, vn;
    long round = 0;
    int rc;

    if (err != NULL) {
        err->line = 0;
        err->why = "";
    }
    if (d == NULL || (text == NULL && len > 0) || kind < CLUB_DOC_TOURNAMENT ||
        kind > CLUB_DOC_RESULTS)
        return TB_E_ARG;
    memset(&rd, 0, sizeof rd);
    rd.text = (const char *)text;
    rd.len = len;
    rd.err = err;
    if (len > CLUB_DIR_DOC_MAX)
        return fail(&rd, TB_E_LIMIT, N_("the document is too long"));
    if ((rc = next_line(&rd)) != 0)
        return rc;
    if (rd.n != strlen(magic[kind]) || memcmp(rd.at, magic[kind], rd.n) != 0)
        return fail(&rd, TB_E_FORMAT, N_("not this kind of document"));
    if (kind == CLUB_DOC_TOURNAMENT) {
        memset(d, 0, sizeof *d);
        rc = read_tournament(&rd, d);
    } else {
        if ((rc = keyed(&rd, "tournament", &v, &vn)) != 0 ||
            (rc = hexfield(&rd, &v, 1, id, PROTO_HASH_BYTES)) != 0)
            return rc;
        if (memcmp(id, d->id, PROTO_HASH_BYTES) != 0)
            return fail(&rd, TB_E_STATE, N_("a document of another tournament"));
        if ((rc = keyed(&rd, "round", &v, &vn)) != 0 ||
            (rc = number(&rd, &v, 1, CLUB_TOURNEY_MAX_ROUNDS, &round)) != 0)
            return rc;
        if (kind == CLUB_DOC_PAIRINGS ? round != d->npaired + 1
                                      : (round < 1 || round > d->npaired))
            return fail(&rd, TB_E_STATE, N_("a document of another round"));
        /* (read into a copy: a refused document changes nothing) */
        if ((tmp = malloc(sizeof *tmp)) == NULL)
            return TB_E_NOMEM;
        r = &d->round[round - 1];
        if (kind == CLUB_DOC_PAIRINGS) {
            memset(tmp, 0, sizeof *tmp);
            rc = read_pairings(&rd, d, tmp);
        } else {
            *tmp = *r;
            for (int b = 0; b < tmp->nboards; b++)
                tmp->boards[b].done = tmp->boards[b].forfeit = 0;
            rc = read_results(&rd, d, tmp);
        }
    }
    /* the last line: the signature, over every byte before it */
    signed_len = (size_t)(rd.at - rd.text);
    if (rc == 0 && !starts(&rd, "signature", &v))
        rc = fail(&rd, TB_E_FORMAT, N_("a line out of order or unknown"));
    if (rc == 0)
        rc = hexfield(&rd, &v, 1, sig, PROTO_SIG_BYTES);
    if (rc == 0 && rd.pos != rd.len)
        rc = fail(&rd, TB_E_FORMAT, N_("more after the signature"));
    if (rc == 0 &&
        proto_verify_document(d->director, domain, text, signed_len, sig) != 0)
        rc = fail(&rd, TB_E_SIGNATURE,
                  N_("the signature is not the director's"));
    if (rc == 0 && kind == CLUB_DOC_PAIRINGS) {
        *r = *tmp;
        d->npaired++;
    } else if (rc == 0 && kind == CLUB_DOC_RESULTS) {
        tmp->has_results = 1;
        *r = *tmp;
    }
    free(tmp);
    if (rc != 0 && kind == CLUB_DOC_TOURNAMENT)
        memset(d, 0, sizeof *d);
    return rc;
}

/* ---- the tournament's state ------------------------------------------ */

/* The played results in the order a result is looked for (a plain win
 * before a win after a tie-break, which chess scores alike), each with
 * its mirror. */
static const Club_Result played[][2] = {
    {CLUB_RES_WIN, CLUB_RES_LOSS},
    {CLUB_RES_LOSS, CLUB_RES_WIN},
    {CLUB_RES_DRAW, CLUB_RES_DRAW},
    {CLUB_RES_WIN_TIEBREAK, CLUB_RES_LOSS_TIEBREAK},
    {CLUB_RES_LOSS_TIEBREAK, CLUB_RES_WIN_TIEBREAK}};

int club_dir_tourney(const Club_Dir *d, int rounds, Club_Tourney *t)
{
    const Club_Points *pts = club_dir_points(d);
    if (d == NULL || t == NULL || rounds < 0 || rounds > d->npaired)
        return TB_E_ARG;
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", d->name);
    for (int i = 0; i < d->nplayers; i++) {
        char fp[PROTO_FINGERPRINT_MAX];
        proto_fingerprint(d->players[i].key, fp);
        int rc = club_tourney_add_player(
            t, d->players[i].name[0] != '\0' ? d->players[i].name : fp, 0);
        if (rc < 0)
            return rc;
    }
    t->nrounds = rounds;
    for (int r = 0; r < rounds; r++) {
        const Club_Dir_Round *rr = &d->round[r];
        for (int b = 0; b < rr->nboards; b++) {
            const Club_Dir_Board *x = &rr->boards[b];
            Club_Game *w = &t->players[x->white - 1].games[r];
            if (x->black == 0) {
                w->result = CLUB_RES_BYE_PAIRING;
                continue;
            }
            Club_Game *bl = &t->players[x->black - 1].games[r];
            w->opponent = (uint16_t)x->black;
            w->colour = CLUB_COLOUR_WHITE;
            w->result = CLUB_RES_PENDING;
            bl->opponent = (uint16_t)x->white;
            bl->colour = CLUB_COLOUR_BLACK;
            bl->result = CLUB_RES_PENDING;
            if (!x->done)
                continue;
            if (x->forfeit == CLUB_FORFEIT_NEITHER) { /* (both lose) */
                w->result = CLUB_RES_FORFEIT_LOSS;
                bl->result = CLUB_RES_FORFEIT_LOSS;
                continue;
            }
            if (x->forfeit != CLUB_FORFEIT_NONE) {
                club_tourney_set_result(t, r + 1, x->white,
                                        x->forfeit == CLUB_FORFEIT_WHITE
                                            ? CLUB_RES_FORFEIT_WIN
                                            : CLUB_RES_FORFEIT_LOSS);
                continue;
            }
            size_t k = 0, n = sizeof played / sizeof played[0];
            while (k < n &&
                   ((unsigned)club_result_points(pts, played[k][0]) !=
                        x->half[0] ||
                    (unsigned)club_result_points(pts, played[k][1]) !=
                        x->half[1]))
                k++;
            if (k == n)
                return TB_E_FORMAT;
            club_tourney_set_result(t, r + 1, x->white, played[k][0]);
        }
    }
    /* a late entrant's rounds before the entry: absences (0 points,
     * TRF Z: they were not paired), or half-point byes the director
     * granted (TRF H) */
    for (int i = 0; i < d->nplayers; i++)
        for (int r = 0; d->players[i].bye_half && r < rounds &&
                        r + 1 < d->players[i].entered;
             r++)
            if (t->players[i].games[r].opponent == 0)
                t->players[i].games[r].result = CLUB_RES_BYE_HALF;
    for (int i = 0; i < d->nplayers; i++)
        if (d->players[i].withdrawn > 0 && d->players[i].withdrawn <= rounds)
            club_tourney_withdraw(t, i + 1, d->players[i].withdrawn);
    return 0;
}

/* ---- a game's result from its log ------------------------------------- */

int club_dir_log_game(const uint8_t *buf, size_t len, Club_Dir_Log *out,
                      char *why, size_t cap)
{
    Proto_Log_Report rep;
    Proto_Transcript *t = NULL;
    const Proto_Message *start;
    Core_Status st;
    int rc;

    if (buf == NULL || out == NULL)
        return TB_E_ARG;
    memset(out, 0, sizeof *out);
    rc = club_log_open(buf, len, NULL, NULL, &t, &rep, why, cap);
    if (rc != 0)
        return rc;
    start = t != NULL ? proto_transcript_start(t) : NULL;
    st = proto_log_status(t, &rep);
    rc = TB_E_STATE;
    if (start == NULL || st.outcome == CORE_ONGOING) {
        if (why != NULL && cap > 0)
            snprintf(why, cap, "%s", N_("the game is not over"));
    } else if (st.outcome == CORE_ABORTED) {
        if (why != NULL && cap > 0)
            snprintf(why, cap, "%s", N_("the game was aborted"));
    } else {
        snprintf(out->game, sizeof out->game, "%s", start->body.start.game);
        memcpy(out->white, start->body.start.white, PROTO_KEY_BYTES);
        memcpy(out->black, start->body.start.black, PROTO_KEY_BYTES);
        rc = proto_clock_format(proto_transcript_clock(t), out->clock,
                                sizeof out->clock);
        if (rc == 0)
            rc = core_table_points(proto_transcript_position(t), st, out->half);
        if (rc == 0)
            rc = proto_digest(buf, len, NULL, 0, out->hash);
        out->nrelays = rep.relays;
        memcpy(out->relay, rep.relay,
               (rep.relays < 8 ? rep.relays : 8) * sizeof rep.relay[0]);
        if (rc != 0 && why != NULL && cap > 0)
            snprintf(why, cap, "%s", tb_strerror(rc));
    }
    proto_transcript_free(t);
    return rc;
}

int club_dir_log_relay_ok(const Club_Dir *d, const Club_Dir_Log *lg,
                          const char **why)
{
    const char *w = NULL;
    if (why != NULL)
        *why = "";
    if (d == NULL || lg == NULL || d->relay[0] == '\0')
        return 1;
    if (lg->nrelays == 0)
        w = N_("no relay witnessed it");
    for (unsigned i = 0; w == NULL && i < lg->nrelays; i++)
        if (i >= 8 || !club_relay_names(d->relay, lg->relay[i]))
            w = N_("a receipt is by another relay than the tournament's");
    if (why != NULL)
        *why = w != NULL ? w : "";
    return w == NULL;
}

/* ---- a relay archive's index (docs/archive.md) ---- */

const char *club_index_line(const char *p, size_t n, size_t max_bytes,
                            Club_Index_Line *x)
{
    const char *f[6];
    size_t fl[6], k = 0, i = 0;
    char *game = x->game;
    uint8_t match[PROTO_HASH_BYTES];
    if (n > 512)
        return N_("the line is too long");
    while (k < 6 && i <= n) {
        size_t j = i;
        while (j < n && p[j] != ' ')
            j++;
        f[k] = p + i;
        fl[k++] = j - i;
        i = j + 1;
    }
    if (k != 6 || i <= n)
        return N_("not six fields separated by one blank");
    for (size_t c = 0; c < n; c++)
        if ((unsigned char)p[c] < 0x20 || p[c] == 0x7f)
            return N_("a control character");
    /* MATCH, or MATCH-K for a later room of one match (K 2..16: the
     * archive never replaces a log it kept) */
    size_t hexn = fl[0] > 2 * PROTO_HASH_BYTES ? 2 * PROTO_HASH_BYTES : fl[0];
    int copy_ok = fl[0] == hexn ||
                  (f[0][hexn] == '-' &&
                   ((fl[0] == hexn + 2 && f[0][hexn + 1] >= '2' &&
                     f[0][hexn + 1] <= '9') ||
                    (fl[0] == hexn + 3 && f[0][hexn + 1] == '1' &&
                     f[0][hexn + 2] >= '0' && f[0][hexn + 2] <= '6')));
    if (proto_unhex(f[0], hexn, match, sizeof match) != 0 || !copy_ok)
        return N_("MATCH is not 64 lowercase hex digits");
    memcpy(x->match, f[0], fl[0]);
    x->match[fl[0]] = '\0';
    if (fl[1] == 0 || fl[1] > PROTO_NAME_MAX)
        return N_("GAME is not a game's name");
    memcpy(game, f[1], fl[1]);
    game[fl[1]] = '\0';

    if (core_game_find(game) == NULL ||
        strcmp(core_game_name(core_game_find(game)), game) != 0)
        return N_("GAME is not a game's name");
    if (proto_unhex(f[2], fl[2], x->white, PROTO_KEY_BYTES) != 0 ||
        proto_unhex(f[3], fl[3], x->black, PROTO_KEY_BYTES) != 0)
        return N_("WHITE or BLACK is not 64 lowercase hex digits");
    for (int m = 4; m < 6; m++) {
        uint64_t v = 0;
        if (fl[m] == 0 || fl[m] > 19 || (f[m][0] == '0' && fl[m] > 1))
            return N_("STARTED or BYTES is not a number");
        for (size_t c = 0; c < fl[m]; c++) {
            if (f[m][c] < '0' || f[m][c] > '9')
                return N_("STARTED or BYTES is not a number");
            v = v * 10 + (uint64_t)(f[m][c] - '0');
        }
        if (m == 5 && (v == 0 || v > max_bytes))
            return N_("BYTES is out of range");
        if (m == 5)
            x->bytes = (size_t)v;
    }
    return NULL;
}
