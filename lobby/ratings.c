/*
 * ratings.c: the ratings a relay pairs its pool by (issue 38; room.h,
 * "ratings"): its published list (docs/archive.md) as its driver read it,
 * by player fingerprint, game index and time-control class. No I/O: the
 * driver parses the list (it knows the games' names) and hands the table
 * over; the rooms look a pool offer's player up in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "room_internal.h"
#include "tb_error.h"

typedef struct Rated_Player {
    char fp[PROTO_FINGERPRINT_MAX];
    size_t line; /* its place among the adds (settle's order) */
    uint16_t rating[POOL_GAMES_MAX][PROTO_CLASS_COUNT];
} Rated_Player;

struct Lobby_Ratings {
    char names[POOL_GAMES_MAX][LOBBY_SEEK_GAME_MAX + 1];
    Rated_Player *p;
    size_t n, cap;
    int sorted;
};

int lobby_ratings_new(Lobby_Ratings **out)
{
    *out = calloc(1, sizeof **out);
    return *out != NULL ? 0 : TB_E_NOMEM;
}

static int by_fp(const void *a, const void *b)
{
    return strcmp(((const Rated_Player *)a)->fp,
                  ((const Rated_Player *)b)->fp);
}

/* By fingerprint, then by the order they were added. */
static int by_fp_line(const void *a, const void *b)
{
    const Rated_Player *x = a, *y = b;
    int c = strcmp(x->fp, y->fp);
    return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

/* The players sorted by fingerprint, the entries of one player (a line
 * of the list each) made one: done once, at the first look after adds,
 * so reading a list of n lines costs n log n, not n^2 (a relay reads its
 * list again after each game). Of two entries for one game and class the
 * later one's rating stays. */
static void settle(Lobby_Ratings *t)
{
    size_t w = 0;
    if (t->sorted)
        return;
    for (size_t i = 0; i < t->n; i++)
        t->p[i].line = i;
    if (t->n > 1) /* an empty table has no array: qsort wants one */
        qsort(t->p, t->n, sizeof *t->p, by_fp_line);
    for (size_t i = 0; i < t->n; i++) {
        if (w > 0 && strcmp(t->p[w - 1].fp, t->p[i].fp) == 0) {
            for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
                for (unsigned c = 0; c < PROTO_CLASS_COUNT; c++)
                    if (t->p[i].rating[g][c] != 0)
                        t->p[w - 1].rating[g][c] = t->p[i].rating[g][c];
        } else {
            t->p[w++] = t->p[i];
        }
    }
    t->n = w;
    t->sorted = 1;
}

size_t lobby_ratings_count(Lobby_Ratings *t)
{
    if (t == NULL)
        return 0;
    settle(t);
    return t->n;
}

void lobby_ratings_free(Lobby_Ratings *t)
{
    if (t != NULL)
        free(t->p);
    free(t);
}

static Rated_Player *find(Lobby_Ratings *t, const char *fp)
{
    Rated_Player key;
    settle(t);
    memcpy(key.fp, fp, sizeof key.fp);
    return t->n == 0 ? NULL : bsearch(&key, t->p, t->n, sizeof *t->p, by_fp);
}

int lobby_ratings_add(Lobby_Ratings *t, const char *fp, unsigned game,
                      unsigned klass, unsigned rating)
{
    Rated_Player *r;
    if (t == NULL || fp == NULL || strlen(fp) >= PROTO_FINGERPRINT_MAX ||
        game >= POOL_GAMES_MAX || klass >= PROTO_CLASS_COUNT || rating == 0 ||
        rating > 0xffff)
        return TB_E_ARG;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        Rated_Player *p = realloc(t->p, cap * sizeof *p);
        if (p == NULL)
            return TB_E_NOMEM;
        t->p = p;
        t->cap = cap;
    }
    r = &t->p[t->n++];
    memset(r, 0, sizeof *r);
    strcpy(r->fp, fp);
    r->rating[game][klass] = (uint16_t)rating;
    t->sorted = 0;
    return 0;
}

int lobby_ratings_game(Lobby_Ratings *t, unsigned game, const char *name)
{
    if (t == NULL || game >= POOL_GAMES_MAX || name == NULL ||
        strlen(name) > LOBBY_SEEK_GAME_MAX)
        return TB_E_ARG;
    strcpy(t->names[game], name);
    return 0;
}

unsigned lobby__rating_of(Lobby_Ratings *t, const uint8_t key[LOBBY_KEY_BYTES],
                          const char *game, unsigned klass)
{
    uint16_t rating[POOL_GAMES_MAX][PROTO_CLASS_COUNT];
    if (t == NULL || klass >= PROTO_CLASS_COUNT)
        return POOL_RATING_NEWCOMER;
    lobby__ratings_fill(t, key, rating);
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        if (strcmp(t->names[g], game) == 0 && rating[g][klass] != 0)
            return rating[g][klass];
    return POOL_RATING_NEWCOMER;
}

void lobby__ratings_text(Lobby_Ratings *t, const uint8_t key[LOBBY_KEY_BYTES],
                         char *out, size_t cap)
{
    uint16_t rating[POOL_GAMES_MAX][PROTO_CLASS_COUNT];
    size_t n = 0;
    if (cap == 0)
        return;
    out[0] = '\0';
    if (t == NULL)
        return;
    lobby__ratings_fill(t, key, rating);
    for (unsigned g = 0; g < POOL_GAMES_MAX; g++)
        for (unsigned c = 0; c < PROTO_CLASS_COUNT; c++) {
            if (rating[g][c] == 0 || t->names[g][0] == '\0')
                continue;
            int w = snprintf(out + n, cap - n, "%s%s:%u:%u", n ? "," : "",
                             t->names[g], c, (unsigned)rating[g][c]);
            if (w < 0 || (size_t)w >= cap - n) {
                out[n] = '\0';
                return;
            }
            n += (size_t)w;
        }
}

void lobby__ratings_fill(Lobby_Ratings *t, const uint8_t key[LOBBY_KEY_BYTES],
                         uint16_t rating[POOL_GAMES_MAX][PROTO_CLASS_COUNT])
{
    char fp[PROTO_FINGERPRINT_MAX];
    Rated_Player *r;
    memset(rating, 0, sizeof(uint16_t) * POOL_GAMES_MAX * PROTO_CLASS_COUNT);
    if (t == NULL)
        return;
    proto_fingerprint(key, fp);
    if ((r = find(t, fp)) != NULL)
        memcpy(rating, r->rating, sizeof r->rating);
}
