/*
 * web_club.c: the club's ratings list and tournament documents for the
 * page (web_club.h). A thin layer: the list is club/rating_list.c's, the
 * documents are read by club/director.c's reader, the standings and
 * crosstable are club/tourney*.c's; this file only turns them into the
 * page's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "club.h"
#include "director.h"
#include "i18n.h"
#include "tb_error.h"
#include "web_api.h"
#include "web_club.h"
#include "web_internal.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

/* The crosstable's column titles (as client/cmd_director.c's). */
static const char *const headers[6] = {N_("#"),  N_("Name"),  N_("Pts"),
                                       N_("BH"), N_("BH-C1"), N_("SB")};

WEB_EXPORT(web_ratings_new) Web_Ratings *web_ratings_new(void)
{
    Club_List *l = NULL;
    if (club_list_new(&l) != 0)
        web__fail(TB_E_NOMEM, "out of memory");
    return l;
}

WEB_EXPORT(web_ratings_free) void web_ratings_free(Web_Ratings *l)
{
    club_list_free(l);
}

WEB_EXPORT(web_ratings_trust)
int web_ratings_trust(Web_Ratings *l, const char *relay)
{
    int rc = club_list_trust(l, relay);
    return rc != 0 ? web__fail(rc, tb_strerror(rc)) : 0;
}

WEB_EXPORT(web_ratings_add)
int web_ratings_add(Web_Ratings *l, const uint8_t *buf, size_t len)
{
    Club_List_Outcome outcome;
    char why[256];
    int rc = club_list_add(l, buf, len, &outcome, NULL, why, sizeof why);
    if (rc != 0)
        return web__fail(rc, tb_strerror(rc));
    if (outcome == CLUB_LIST_FAILED)
        web__fail(TB_E_FORMAT, why);
    return (int)outcome;
}

WEB_EXPORT(web_ratings_unreadable)
int web_ratings_unreadable(Web_Ratings *l)
{
    int rc = club_list_unreadable(l);
    return rc != 0 ? web__fail(rc, tb_strerror(rc)) : 0;
}

WEB_EXPORT(web_ratings_text) const char *web_ratings_text(Web_Ratings *l)
{
    const char *text;
    int rc = club_list_text(l, NULL, NULL, &text);
    if (rc == 0)
        rc = web__out_text(text);
    if (rc != 0) {
        web__fail(rc, tb_strerror(rc));
        return NULL;
    }
    return web_out();
}

WEB_EXPORT(web_index_log) const char *web_index_log(const char *line)
{
    Club_Index_Line x;
    const char *why = club_index_line(line, line != NULL ? strlen(line) : 0,
                                      CLUB_INDEX_LOG_MAX, &x);
    if (why != NULL) {
        web__fail(TB_E_FORMAT, _(why));
        return NULL;
    }
    return web__out_text(x.match) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_tourney_new) Web_Tourney *web_tourney_new(void)
{
    Club_Dir *d = club_dir_new();
    if (d == NULL)
        web__fail(TB_E_NOMEM, "out of memory");
    return d;
}

WEB_EXPORT(web_tourney_free) void web_tourney_free(Web_Tourney *d)
{
    club_dir_free(d);
}

WEB_EXPORT(web_tourney_read)
int web_tourney_read(Web_Tourney *d, int kind, const uint8_t *text, size_t len)
{
    Club_Dir_Error e = {0, ""};
    char why[512];
    int rc = club_dir_read(d, kind, text, len, &e);
    if (rc == 0)
        return 0;
    snprintf(why, sizeof why, "%d: %s", e.line,
             e.why != NULL && e.why[0] != '\0' ? _(e.why) : _(tb_strerror(rc)));
    return web__fail(rc, why);
}

/* A growing text. */
typedef struct Text {
    char *s;
    size_t n, cap;
    int rc;
} Text;

static void add(Text *t, const char *s)
{
    size_t k = strlen(s);
    if (t->rc != 0)
        return;
    if (t->n + k + 1 > t->cap) {
        size_t c = t->cap ? t->cap : 4096;
        char *more;
        while (c < t->n + k + 1)
            c *= 2;
        if ((more = realloc(t->s, c)) == NULL) {
            t->rc = TB_E_NOMEM;
            return;
        }
        t->s = more;
        t->cap = c;
    }
    memcpy(t->s + t->n, s, k + 1);
    t->n += k;
}

/* A field: s with tabs and line ends as spaces, after a tab. */
static void field(Text *t, const char *s)
{
    char buf[256];
    size_t i = 0;
    for (; s[i] != '\0' && i + 1 < sizeof buf; i++)
        buf[i] = s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
    buf[i] = '\0';
    add(t, "\t");
    add(t, buf);
}

static void number(Text *t, int n)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%d", n);
    field(t, buf);
}

/* The name the tournament shows for rank r (club_dir_tourney's: the
 * registered name, else the fingerprint). */
static const char *shown(const Club_Tourney *ct, int r)
{
    return r >= 1 && r <= ct->nplayers ? ct->players[r - 1].name : "?";
}

WEB_EXPORT(web_tourney_view) const char *web_tourney_view(Web_Tourney *d)
{
    Text t = {NULL, 0, 0, 0};
    Club_Tourney *ct = club_tourney_new();
    Club_Standing *st = calloc(CLUB_DIR_MAX_PLAYERS + 1, sizeof *st);
    char fp[PROTO_FINGERPRINT_MAX], *html = NULL;
    const char *h[6];
    int rc = d == NULL ? TB_E_ARG : ct == NULL || st == NULL ? TB_E_NOMEM : 0;
    int last = 0, total;

    if (rc == 0 && d->nplayers == 0 && d->name[0] == '\0')
        rc = TB_E_STATE; /* no tournament document read */
    if (rc == 0)
        rc = club_dir_tourney(d, d->npaired, ct);
    if (rc != 0)
        goto done;
    total = club_dir_total_rounds(d);
    proto_fingerprint(d->director, fp);
    add(&t, "tournament");
    field(&t, d->name);
    field(&t, d->game);
    field(&t, d->clock);
    field(&t, club_system_name(d->system) ? club_system_name(d->system) : "?");
    number(&t, total > 0 ? total : d->rounds);
    field(&t, fp);
    add(&t, "\n");
    for (int i = 0; i < d->nplayers; i++) {
        add(&t, "player");
        number(&t, i + 1);
        field(&t, shown(ct, i + 1));
        proto_fingerprint(d->players[i].key, fp);
        field(&t, fp);
        add(&t, "\n");
    }
    for (int r = 1; r <= d->npaired; r++) {
        const Club_Dir_Round *rd = &d->round[r - 1];
        if (rd->has_results)
            last = r;
        for (int b = 0; b < rd->nboards; b++) {
            const Club_Dir_Board *x = &rd->boards[b];
            char res[64] = "", w[24], k[24];
            if (x->black == 0) {
                add(&t, "bye");
                number(&t, r);
                number(&t, b + 1);
                field(&t, shown(ct, x->white));
                add(&t, "\n");
                continue;
            }
            if (x->done &&
                club_format_points((int)x->half[0], w, sizeof w) > 0 &&
                club_format_points((int)x->half[1], k, sizeof k) > 0)
                snprintf(res, sizeof res, "%s-%s", w, k);
            add(&t, "board");
            number(&t, r);
            number(&t, b + 1);
            field(&t, shown(ct, x->white));
            field(&t, shown(ct, x->black));
            field(&t, res);
            add(&t, "\n");
        }
    }
    if (last > 0) {
        const Club_Dir_Round *rd = &d->round[last - 1];
        int same = rd->nstandings == d->nplayers;
        if ((rc = club_dir_tourney(d, last, ct)) != 0 ||
            (rc = club_standings(ct, last, club_dir_points(d), NULL, 0, st)) !=
                0)
            goto done;
        for (int i = 0; same && i < d->nplayers; i++)
            same = st[i].player == rd->standings[i].player &&
                   st[i].rank == rd->standings[i].rank &&
                   st[i].points == rd->standings[i].points &&
                   st[i].buchholz == rd->standings[i].buchholz &&
                   st[i].buchholz_cut1 == rd->standings[i].buchholz_cut1 &&
                   st[i].sonneborn == rd->standings[i].sonneborn &&
                   st[i].direct == rd->standings[i].direct;
        add(&t, "standings");
        number(&t, last);
        number(&t, same);
        add(&t, "\ncrosstable\n");
        for (int k = 0; k < 6; k++)
            h[k] = _(headers[k]);
        for (size_t size = 1 << 14; t.rc == 0; size *= 2) {
            char *more = realloc(html, size);
            if (more == NULL) {
                rc = TB_E_NOMEM;
                goto done;
            }
            html = more;
            rc =
                club_crosstable_html(ct, club_dir_points(d), st, h, html, size);
            if (rc != TB_E_SPACE)
                break;
        }
        if (rc < 0)
            goto done;
        rc = 0;
        add(&t, html);
    }
    rc = t.rc != 0 ? t.rc : web__out_text(t.s);
done:
    free(html);
    free(t.s);
    free(st);
    club_tourney_free(ct);
    if (rc != 0) {
        web__fail(rc, _(tb_strerror(rc)));
        return NULL;
    }
    return web_out();
}
