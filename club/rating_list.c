/*
 * rating_list.c: the ratings list as `tabula ratings` prints it (club.h,
 * "the list"; docs/ratings.md): logs in, each verified and sorted into
 * rated or not, then the `rating:`, `relay:` and `ratings:` lines. One
 * function makes the text for the terminal's command and for the page's
 * check of a relay's published list (web/wasm/web_club.c), so both give
 * the same bytes from the same logs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "club.h"

#define LIST_SEEN_MAX 64

struct Club_List {
    Club_Ratings *ratings;
    char only[PROTO_NAME_MAX + 1]; /* "" every game */
    char trust[CLUB_LIST_RELAYS_MAX][CLUB_RELAY_WORD_MAX]; /* canonical */
    size_t ntrust;
    /* the relays that witnessed the games added, for the 'relay:' lines */
    char seen[LIST_SEEN_MAX][PROTO_FINGERPRINT_MAX];
    size_t seen_games[LIST_SEEN_MAX], nseen, seen_none;
    size_t logs, skipped;
    char *text;
};

int club_list_new(Club_List **out)
{
    Club_List *l;
    int rc;
    if (out == NULL)
        return TB_E_ARG;
    *out = NULL;
    if ((l = calloc(1, sizeof *l)) == NULL)
        return TB_E_NOMEM;
    if ((rc = club_ratings_new(&l->ratings)) != 0) {
        free(l);
        return rc;
    }
    *out = l;
    return 0;
}

void club_list_free(Club_List *l)
{
    if (l == NULL)
        return;
    club_ratings_free(l->ratings);
    free(l->text);
    free(l);
}

int club_list_only(Club_List *l, const char *game)
{
    if (l == NULL || game == NULL || strlen(game) > PROTO_NAME_MAX)
        return TB_E_ARG;
    snprintf(l->only, sizeof l->only, "%s", game);
    return 0;
}

int club_relay_word(const char *v, char out[CLUB_RELAY_WORD_MAX])
{
    static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    uint8_t pk[PROTO_KEY_BYTES];
    size_t n = v != NULL ? strlen(v) : 0;
    int hex = n == 2 * PROTO_KEY_BYTES;
    if (!hex && n != PROTO_FINGERPRINT_MAX - 1)
        return TB_E_ARG;
    for (size_t i = 0; i <= n; i++) /* (typed in either case) */
        out[i] = (char)(hex && v[i] >= 'A' && v[i] <= 'Z'    ? v[i] - 'A' + 'a'
                        : !hex && v[i] >= 'a' && v[i] <= 'z' ? v[i] - 'a' + 'A'
                                                             : v[i]);
    if (hex)
        return proto_unhex(out, n, pk, sizeof pk) == 0 ? 0 : TB_E_ARG;
    for (size_t i = 0; i < n; i++)
        if (i % 5 == 4 ? out[i] != '-' : strchr(crockford, out[i]) == NULL)
            return TB_E_ARG;
    return 0;
}

int club_relay_names(const char *word, const uint8_t pk[PROTO_KEY_BYTES])
{
    char hex[2 * PROTO_KEY_BYTES + 1], fp[PROTO_FINGERPRINT_MAX];
    proto_hex(pk, PROTO_KEY_BYTES, hex);
    proto_fingerprint(pk, fp);
    return strcmp(word, hex) == 0 || strcmp(word, fp) == 0;
}

int club_list_trust(Club_List *l, const char *relay)
{
    if (l == NULL || relay == NULL)
        return TB_E_ARG;
    if (l->ntrust == CLUB_LIST_RELAYS_MAX)
        return TB_E_LIMIT;
    if (club_relay_word(relay, l->trust[l->ntrust]) != 0)
        return TB_E_ARG;
    l->ntrust++;
    return 0;
}

/* 1 when every relay of g is one l trusts. */
static int trusted(const Club_List *l, const Club_Rated_Game *g)
{
    if (g->nrelays == 0)
        return 0;
    for (size_t i = 0; i < g->nrelays; i++) {
        size_t k = 0;
        while (k < l->ntrust && !club_relay_names(l->trust[k], g->relay[i]))
            k++;
        if (k == l->ntrust)
            return 0;
    }
    return 1;
}

static void seen_add(Club_List *l, const Club_Rated_Game *g)
{
    if (g->nrelays == 0)
        l->seen_none++;
    for (size_t i = 0; i < g->nrelays; i++) {
        char fp[PROTO_FINGERPRINT_MAX];
        size_t k = 0;
        proto_fingerprint(g->relay[i], fp);
        while (k < l->nseen && strcmp(l->seen[k], fp) != 0)
            k++;
        if (k == l->nseen && l->nseen < LIST_SEEN_MAX)
            snprintf(l->seen[l->nseen++], PROTO_FINGERPRINT_MAX, "%s", fp);
        if (k < l->nseen)
            l->seen_games[k]++;
    }
}

int club_list_add(Club_List *l, const uint8_t *buf, size_t len,
                  Club_List_Outcome *outcome, Club_Verdict *verdict, char *why,
                  size_t cap)
{
    Club_Rated_Game g;
    Club_Verdict v = CLUB_UNFINISHED;
    int rc;
    if (l == NULL || outcome == NULL || (buf == NULL && len > 0))
        return TB_E_ARG;
    if (l->text != NULL)
        return TB_E_STATE;
    rc = club_game_from_log(buf, len, (uint32_t)l->logs, &g, &v, why, cap);
    l->logs++;
    if (verdict != NULL)
        *verdict = v;
    if (rc != 0) {
        *outcome = CLUB_LIST_FAILED;
        l->skipped++;
    } else if (v != CLUB_RATED) {
        *outcome = CLUB_LIST_UNRATED;
        l->skipped++;
    } else if (l->ntrust > 0 && !trusted(l, &g)) {
        *outcome = CLUB_LIST_UNTRUSTED;
        l->skipped++;
    } else if (l->only[0] != '\0' && strcmp(g.game, l->only) != 0) {
        *outcome = CLUB_LIST_OTHER_GAME;
    } else {
        if ((rc = club_ratings_add(l->ratings, &g)) != 0)
            return rc;
        seen_add(l, &g);
        *outcome = CLUB_LIST_RATED;
    }
    return 0;
}

int club_list_unreadable(Club_List *l)
{
    if (l == NULL)
        return TB_E_ARG;
    if (l->text != NULL)
        return TB_E_STATE;
    l->logs++;
    l->skipped++;
    return 0;
}

/* Append a formatted line (under 256 bytes) to *s (length *n, capacity
 * *cap). */
static int put(char **s, size_t *n, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int put(char **s, size_t *n, size_t *cap, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int k;
    va_start(ap, fmt);
    k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof line)
        return TB_E_SPACE;
    if (*n + (size_t)k + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        char *more;
        while (c < *n + (size_t)k + 1)
            c *= 2;
        if ((more = realloc(*s, c)) == NULL)
            return TB_E_NOMEM;
        *s = more;
        *cap = c;
    }
    memcpy(*s + *n, line, (size_t)k + 1);
    *n += (size_t)k;
    return 0;
}

int club_list_text(Club_List *l, Club_Conflict_Visit conflict, void *ctx,
                   const char **text)
{
    char *s = NULL;
    size_t n = 0, cap = 0;
    int rc;
    if (l == NULL || text == NULL)
        return TB_E_ARG;
    if (l->text != NULL) {
        *text = l->text;
        return 0;
    }
    rc = club_ratings_run(l->ratings, club_fix_ratio(CLUB_TAU_PPM, 1000000),
                          conflict, ctx);
    rc = rc != 0 ? rc : put(&s, &n, &cap, "%s", "");
    for (size_t i = 0; rc == 0 && i < club_ratings_count(l->ratings); i++) {
        const Club_Rated_Player *pl = club_ratings_at(l->ratings, i);
        char fp[PROTO_FINGERPRINT_MAX], r[32], rd[32], vol[32];
        proto_fingerprint(pl->key, fp);
        club_fix_format(pl->g.rating, 0, r, sizeof r);
        club_fix_format(pl->g.rd, 1, rd, sizeof rd);
        club_fix_format(pl->g.vol, 6, vol, sizeof vol);
        rc = put(&s, &n, &cap, "rating: %s %s %s %s %s %s %u\n", pl->game,
                 club_class_name(pl->klass), fp, r, rd, vol,
                 (unsigned)pl->games);
    }
    for (size_t i = 0; rc == 0 && i < l->nseen; i++)
        rc = put(&s, &n, &cap, "relay: %s %zu\n", l->seen[i], l->seen_games[i]);
    if (rc == 0 && l->seen_none > 0)
        rc = put(&s, &n, &cap, "relay: none %zu\n", l->seen_none);
    if (rc == 0)
        rc = put(&s, &n, &cap, "ratings: games %zu logs %zu skipped %zu\n",
                 club_ratings_rated(l->ratings), l->logs, l->skipped);
    if (rc != 0) {
        free(s);
        return rc;
    }
    l->text = s;
    *text = s;
    return 0;
}

size_t club_list_skipped(const Club_List *l)
{
    return l != NULL ? l->skipped : 0;
}

int club_list_rating_line(const char *line, char game[PROTO_NAME_MAX + 1],
                          int *klass, char fp[PROTO_FINGERPRINT_MAX],
                          unsigned *rating)
{
    char name[32];
    int k;
    /* (the writer's fields: club_list_text's "rating: GAME CLASS FP
     * RATING RD VOLATILITY GAMES") */
    if (sscanf(line, "rating: %32s %31s %19s %u ", game, name, fp, rating) !=
        4)
        return TB_E_FORMAT;
    for (k = 0; k < CLUB_CLASS_COUNT_ && strcmp(club_class_name(k), name);
         k++)
        ;
    if (k == CLUB_CLASS_COUNT_)
        return TB_E_FORMAT;
    *klass = k;
    return 0;
}
