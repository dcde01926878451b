/*
 * tourney_table.c: the crosstable in fixed-width text and in HTML
 * (club/tourney.h club_crosstable_text, _html), and the writer into
 * caller memory the club's texts share. Same tournament, same bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tb_error.h"
#include "tourney.h"
#include "tourney_internal.h"

void club__putn(Club_Out *o, const char *s, size_t n)
{
    if (o->full)
        return;
    if (o->size == 0 || n >= o->size - o->len) {
        o->full = 1;
        return;
    }
    memcpy(o->out + o->len, s, n);
    o->len += n;
    o->out[o->len] = '\0';
}

void club__put(Club_Out *o, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf) {
        o->full = 1;
        return;
    }
    club__putn(o, buf, (size_t)n);
}

int club__out_end(const Club_Out *o)
{
    return o->full ? TB_E_SPACE : (int)o->len;
}

/* Columns of a name in the text table. */
#define NAME_COLUMNS 24

static const char *const english[6] = {"#", "Name", "Pts", "BH", "BH-C1", "SB"};

/* A player's cell against another: each of their games in round order,
 * as 1 = 0 (won, drawn, lost), w l (won, lost after a tie-break), + -
 * (forfeits), . (not played yet). */
static size_t cell(const Club_Tourney *t, int player, int other, char *buf)
{
    static const char mark[] = {
        [CLUB_RES_PENDING] = '.',       [CLUB_RES_WIN] = '1',
        [CLUB_RES_WIN_TIEBREAK] = 'w',  [CLUB_RES_DRAW] = '=',
        [CLUB_RES_LOSS_TIEBREAK] = 'l', [CLUB_RES_LOSS] = '0',
        [CLUB_RES_FORFEIT_WIN] = '+',   [CLUB_RES_FORFEIT_LOSS] = '-'};
    size_t n = 0;
    for (int r = 0; r < t->nrounds && n < 8; r++) {
        const Club_Game *g = &t->players[player - 1].games[r];
        if (g->opponent == other && g->result < sizeof mark && mark[g->result])
            buf[n++] = mark[g->result];
    }
    buf[n] = '\0';
    return n;
}

/* Sonneborn-Berger as points with two decimals, rounded half up. */
static void sb_text(const Club_Points *p, int sb, char *buf, size_t size)
{
    long den = 2L * (p->win > 0 ? p->win : 1);
    long h = ((long)sb * 200 + den) / (2 * den);
    snprintf(buf, size, "%ld.%02ld", h / 100, h % 100);
}

static int check(const Club_Tourney *t, const Club_Standing *s, char *out,
                 size_t size)
{
    if (t == NULL || s == NULL || out == NULL || size == 0)
        return TB_E_ARG;
    for (int i = 0; i < t->nplayers; i++)
        if (s[i].player < 1 || s[i].player > t->nplayers)
            return TB_E_ARG;
    return 0;
}

/* The bytes of text's first `columns` characters (UTF-8, one column a
 * character: Latin and Cyrillic), and in *chars how many they are. */
static size_t cut(const char *text, size_t columns, size_t *chars)
{
    size_t i = 0;
    *chars = 0;
    while (text[i] != '\0' && *chars < columns) {
        i++;
        while ((text[i] & 0xc0) == 0x80)
            i++;
        (*chars)++;
    }
    return i;
}

/* Appends text cut to `columns` characters, padded on the left (right
 * aligned) or on the right. */
static void put_padded(Club_Out *o, const char *text, size_t columns, int right)
{
    size_t chars;
    size_t n = cut(text, columns, &chars);
    for (size_t k = chars; right && k < columns; k++)
        club__putn(o, " ", 1);
    club__putn(o, text, n);
    for (size_t k = chars; !right && k < columns; k++)
        club__putn(o, " ", 1);
}

/* Appends text with & < > " ' as HTML entities. */
static void put_escaped(Club_Out *o, const char *text)
{
    for (const char *q = text; *q != '\0'; q++) {
        switch (*q) {
        case '&':
            club__put(o, "&amp;");
            break;
        case '<':
            club__put(o, "&lt;");
            break;
        case '>':
            club__put(o, "&gt;");
            break;
        case '"':
            club__put(o, "&quot;");
            break;
        case '\'':
            club__put(o, "&#39;");
            break;
        default:
            club__putn(o, q, 1);
        }
    }
}

/* The table being written: text or HTML. */
typedef struct Table {
    Club_Out o;
    int html;
    const char *tag; /* th in the header row, td after */
} Table;

/* One column of a row: in HTML an escaped <th> or <td>; in text the
 * column's blank (none before the first) and the text padded to
 * `columns` characters, right aligned or left. */
static void put_col(Table *tb, int first, const char *text, size_t columns,
                    int right)
{
    if (tb->html) {
        club__put(&tb->o, "<%s>", tb->tag);
        put_escaped(&tb->o, text);
        club__put(&tb->o, "</%s>", tb->tag);
        return;
    }
    if (!first)
        club__putn(&tb->o, " ", 1);
    put_padded(&tb->o, text, columns, right);
}

static void put_row_end(Table *tb)
{
    club__put(&tb->o, "%s\n", tb->html ? "</tr>" : "");
}

/* The crosstable in text (html 0) or HTML (1): club/tourney.h. */
static int crosstable(const Club_Tourney *t, const Club_Points *p,
                      const Club_Standing *s, const char *const *headers,
                      char *out, size_t size, int html)
{
    int rc = check(t, s, out, size);
    if (rc != 0)
        return rc;
    if (p == NULL)
        p = &club_points_chess;
    const char *const *h = headers ? headers : english;
    static const size_t wide[6] = {3, NAME_COLUMNS, 5, 6, 6, 7};
    Table tb = {{out, size, 0, 0}, html, "th"};
    char buf[32], c[9];
    size_t width = t->nplayers >= 100 ? 3 : t->nplayers >= 10 ? 2 : 1;
    for (int i = 0; i < t->nplayers; i++)
        for (int j = 0; j < t->nplayers; j++) {
            size_t n = cell(t, s[i].player, s[j].player, c);
            if (n > width)
                width = n;
        }
    out[0] = '\0';
    if (html)
        club__put(&tb.o, "<table class=\"crosstable\">\n<tr>");
    put_col(&tb, 1, h[0], wide[0], 1);
    put_col(&tb, 0, h[1], wide[1], 0);
    for (int j = 0; j < t->nplayers; j++) {
        snprintf(buf, sizeof buf, "%d", j + 1);
        put_col(&tb, 0, buf, width, 1);
    }
    for (int k = 2; k < 6; k++)
        put_col(&tb, 0, h[k], wide[k], 1);
    put_row_end(&tb);
    tb.tag = "td";
    for (int i = 0; i < t->nplayers; i++) {
        const Club_Standing *st = &s[i];
        if (html)
            club__put(&tb.o, "<tr>");
        snprintf(buf, sizeof buf, "%d", st->rank);
        put_col(&tb, 1, buf, wide[0], 1);
        put_col(&tb, 0, t->players[st->player - 1].name, wide[1], 0);
        for (int j = 0; j < t->nplayers; j++) {
            if (i == j)
                snprintf(c, sizeof c, "x");
            else
                cell(t, st->player, s[j].player, c);
            put_col(&tb, 0, c, width, 1);
        }
        int v[3] = {st->points, st->buchholz, st->buchholz_cut1};
        for (int k = 0; k < 3; k++) {
            club_format_points(v[k], buf, sizeof buf);
            put_col(&tb, 0, buf, wide[2 + k], 1);
        }
        sb_text(p, st->sonneborn, buf, sizeof buf);
        put_col(&tb, 0, buf, wide[5], 1);
        put_row_end(&tb);
    }
    if (html)
        club__put(&tb.o, "</table>\n");
    return club__out_end(&tb.o);
}

int club_crosstable_text(const Club_Tourney *t, const Club_Points *p,
                         const Club_Standing *s, const char *const *headers,
                         char *out, size_t size)
{
    return crosstable(t, p, s, headers, out, size, 0);
}

int club_crosstable_html(const Club_Tourney *t, const Club_Points *p,
                         const Club_Standing *s, const char *const *headers,
                         char *out, size_t size)
{
    return crosstable(t, p, s, headers, out, size, 1);
}
