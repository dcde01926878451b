/*
 * web_seek.c: public seeks for the page (web_seek.h): the lobby's list
 * read and checked by the code `tabula seeks` runs (lobby_wire_list_read,
 * cli_seek_row, cli_waited), a typed display name decided by
 * proto_name_check_at and refused in the words of `tabula identity
 * --name` (cli_name_why), and
 * the terminal's line for the relay's answer to a SEEK. Nothing here
 * touches a socket: the page carries the bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "lobby_wire.h"
#include "proto.h"
#include "seek_row.h"
#include "tb_error.h"
#include "web_api.h"
#include "web_internal.h"
#include "web_seek.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

WEB_EXPORT(web_seeks_hello) const uint8_t *web_seeks_hello(const char *game)
{
    uint8_t m[LOBBY_WIRE_SEEKS_LEN];
    size_t n = lobby_wire_seeks(m, game);
    if (n == 0) {
        web__fail(TB_E_ARG, "a game name too long for a seek");
        return NULL;
    }
    return web__out_bytes(m, n);
}

/* The lines of one LIST, grown on the heap (a LIST of 64 KiB holds a few
 * hundred cards). */
typedef struct Seek_Lines {
    char *text;
    size_t len, cap;
    uint64_t now;
    unsigned forged;
    int rc;
} Seek_Lines;

static int lines_put(Seek_Lines *l, const char *line)
{
    size_t n = strlen(line);
    if (l->len + n + 1 > l->cap) {
        size_t cap = l->cap ? l->cap : 4096;
        while (cap < l->len + n + 1)
            cap *= 2;
        char *t = realloc(l->text, cap);
        if (t == NULL)
            return TB_E_NOMEM;
        l->text = t;
        l->cap = cap;
    }
    memcpy(l->text + l->len, line, n + 1);
    l->len += n;
    return 0;
}

static int each_seek(void *user, uint64_t since, const uint8_t *card,
                     size_t len)
{
    Seek_Lines *l = user;
    Cli_Seek_Row row;
    char wait[24];
    char line[LOBBY_CODE_TEXT + LOBBY_SEEK_GAME_MAX + PROTO_CLOCK_TEXT_MAX +
              2 * PROTO_OPTIONS_MAX + PROTO_NAME_SHOWN_MAX +
              PROTO_DISPLAY_NAME_MAX + PROTO_FINGERPRINT_MAX + 96];

    /* (as `tabula seeks`: a card that does not check is not shown) */
    if (cli_seek_row(card, len, &row) != 0) {
        l->forged++;
        return 0;
    }
    cli_waited(l->now, since, wait, sizeof wait);
    snprintf(line, sizeof line,
             "seek\t%s\t%s\t%s\t%s\t%llu\t%s\t%s\t%s\t%s\t%s\n",
             row.seek.invite.text, row.seek.game, row.clock, row.options,
             (unsigned long long)since, wait, row.shown,
             row.seek.named ? row.seek.who.name : "", row.fp, row.seek.options);
    return lines_put(l, line);
}

WEB_EXPORT(web_seeks_list)
const char *web_seeks_list(const uint8_t *msg, size_t len, double now)
{
    Seek_Lines l;
    char end[48];
    int last = 0, rc;

    if (msg != NULL && len > 0 && msg[0] != LOBBY_WIRE_LIST_TYPE &&
        (rc = lobby_wire_error_read(msg, len)) != TB_E_FORMAT) {
        web__fail(rc, tb_strerror(rc)); /* the lobby refused the hello */
        return NULL;
    }
    memset(&l, 0, sizeof l);
    l.now = now > 0 && now < 9007199254740992.0 ? (uint64_t)now : 0;
    rc = lines_put(&l, "");
    if (rc == 0)
        rc = lobby_wire_list_read(msg, len, each_seek, &l, &last);
    if (rc == 0) {
        snprintf(end, sizeof end, "end\t%d\t%u", last, l.forged);
        rc = lines_put(&l, end);
    }
    if (rc == 0)
        rc = web__out_text(l.text);
    free(l.text);
    if (rc != 0) {
        web__fail(rc,
                  rc == TB_E_FORMAT ? "not a list of seeks" : tb_strerror(rc));
        return NULL;
    }
    return web_out();
}

WEB_EXPORT(web_name_check) const char *web_name_check(const char *name)
{
    char out[PROTO_DISPLAY_NAME_MAX + 1], why[256];
    Proto_Name_Fault fault;
    int rc = proto_name_check_at(name, name != NULL ? strlen(name) : 0, out,
                                 sizeof out, &fault);
    if (rc == TB_E_ARG || rc == TB_E_SPACE) {
        web__fail(rc, tb_strerror(rc));
        return NULL;
    }
    if (rc != 0) {
        cli_name_why(&fault, why, sizeof why);
        web__fail(rc, why);
        return NULL;
    }
    return web__out_text(out) == 0 ? web_out() : NULL;
}

WEB_EXPORT(web_seeked_text) const char *web_seeked_text(int reason)
{
    char text[256];
    if (reason == 0) /* (a line scripts read: English, as the terminal's) */
        snprintf(text, sizeof text, "seek: listed");
    else
        snprintf(text, sizeof text, _("seek: not listed: %s"),
                 _(tb_strerror(reason)));
    return web__out_text(text) == 0 ? web_out() : NULL;
}
