/*
 * cmd_seeks.c: `tabula seeks [GAME]`, the lobby's open public seeks
 * (issue 37): each checked against its host's signature before it is
 * shown, one line each, with the code that takes its guest seat
 * (`tabula join CODE`).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "i18n.h"
#include "lobby.h"
#include "proto.h"
#include "seek_row.h"
#include "tb_error.h"

/* (a handle still open after the search: closed) */
static void cli__close_walk(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

#define SEEKS_DEFAULT_LOBBY "127.0.0.1:7470"

static const char seeks_help[] = N_(
    "usage: tabula seeks [GAME] [--lobby HOST:PORT]\n"
    "\n"
    "Lists the open public seeks on the lobby (default 127.0.0.1:7470), of\n"
    "one game or of all, the oldest first, one line each:\n"
    "  seek: CODE GAME CLOCK OPTIONS WAITING FINGERPRINT NAME\n"
    "CLOCK is written as --clock takes it (5+3, 30s+1, 3days); CLOCK and\n"
    "OPTIONS are '-' when the seek has none; WAITING is how long it has\n"
    "waited (45s, 3m, 2h, 4d); NAME is the seeker's display name ('tabula\n"
    "identity --name'), signed by the key FINGERPRINT names, which tells\n"
    "apart two players of one name (no name: FINGERPRINT is the game's key\n"
    "and NAME is left out). Each seek is signed: one whose signature, code\n"
    "or name does not check is not shown.\n"
    "Take one with 'tabula join CODE --lobby HOST:PORT'; put one up with\n"
    "'tabula seek GAME'.\n");

enum { SEEKS_FLAG_LOBBY };
const Cli_Flag cli_flags_seeks[] = {{"--lobby", CLI_VALUE, SEEKS_FLAG_LOBBY},
                                    {NULL, CLI_SWITCH, 0}};

typedef struct Seeks_Run {
    uint64_t now_ms;
    unsigned shown, forged;
    int status;
} Seeks_Run;

static int each_seek(void *user, uint64_t since, const uint8_t *card,
                     size_t len)
{
    Seeks_Run *r = user;
    Cli_Seek_Row row;
    char wait[24];

    if (cli_seek_row(card, len, &row) != 0) {
        r->forged++; /* (the relay's word, or a seeker's lie: not shown;
                        a name is shown only as proto_name_verify took it,
                        so it holds no control or bidi character) */
        return 0;
    }
    cli_waited(r->now_ms, since, wait, sizeof wait);
    printf("seek: %s %s %s %s %s %s%s%s\n", row.seek.invite.text,
           row.seek.game, row.clock[0] != '\0' ? row.clock : "-",
           row.options[0] != '\0' ? row.options : "-", wait, row.fp,
           row.seek.named ? " " : "", row.seek.named ? row.seek.who.name : "");
    r->shown++;
    return 0;
}

static void fetched(void *user, int status)
{
    ((Seeks_Run *)user)->status = status;
}

/* ---- the seek a code takes ---- */

typedef struct Seek_Find {
    const uint8_t *lookup;
    Lobby_Seek *out;
    int found, done, status;
} Seek_Find;

static int find_each(void *user, uint64_t since, const uint8_t *card,
                     size_t len)
{
    Seek_Find *f = user;
    Lobby_Seek s;
    (void)since;
    if (lobby_seek_card_read(card, len, &s) == 0 &&
        memcmp(s.invite.lookup, f->lookup, LOBBY_LOOKUP_BYTES) == 0) {
        *f->out = s;
        f->found = 1;
        return 1; /* (found: the rest is not needed) */
    }
    return 0;
}

static void find_done(void *user, int status)
{
    ((Seek_Find *)user)->done = 1;
    ((Seek_Find *)user)->status = status;
}

static void find_timeout(uv_timer_t *t) { uv_stop(t->loop); }

int cli_seek_find(const struct sockaddr *lobby, const char *code,
                  Lobby_Seek *out)
{
    Lobby_Code c;
    Seek_Find f = {0};
    uv_loop_t loop;
    uv_timer_t timer;
    int rc;

    if (lobby == NULL || code == NULL || out == NULL ||
        lobby_code_parse(code, &c) != 0 || uv_loop_init(&loop) != 0)
        return TB_E_ARG;
    f.lookup = c.lookup;
    f.out = out;
    uv_timer_init(&loop, &timer);
    uv_timer_start(&timer, find_timeout, CLI_SEEK_FIND_MS, 0);
    rc = lobby_seeks_fetch(&loop, lobby, NULL, find_each, find_done, &f);
    if (rc == 0)
        while (!f.done && uv_run(&loop, UV_RUN_ONCE) != 0 &&
               uv_is_active((uv_handle_t *)&timer)) {
        }
    uv_close((uv_handle_t *)&timer, NULL);
    uv_walk(&loop, cli__close_walk, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    if (f.found)
        return 0;
    if (rc != 0)
        return rc;
    return !f.done ? -ETIMEDOUT : f.status != 0 ? f.status : TB_E_CODE;
}

int cli_seeks(int argc, char **argv)
{
    const char *lobby = SEEKS_DEFAULT_LOBBY, *game = NULL, *v;
    struct sockaddr_storage addr;
    Seeks_Run r;
    uv_loop_t loop;
    int rc;

    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(seeks_help), stdout);
            return CLI_EXIT_OK;
        }
        switch (cli_arg("seeks", cli_flags_seeks, argc, argv, &i,
                        _(seeks_help), &v)) {
        case SEEKS_FLAG_LOBBY:
            lobby = v;
            break;
        case CLI_ARG_WORD:
            if (game != NULL)
                return cli_unexpected("seeks", argv[i], _(seeks_help));
            const Core_Game *g = cli_game("seeks", argv[i]);
            if (g == NULL)
                return CLI_EXIT_USAGE;
            game = core_game_name(g); /* (as the lobby files it: Laska is
                                         laska) */
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    int arc = cli_lobby_addr("seeks", lobby, &addr);
    if (arc != 0)
        return arc;
    if (proto_init() != 0 || uv_loop_init(&loop) != 0)
        return CLI_EXIT_FAIL;
    memset(&r, 0, sizeof r);
    r.now_ms = (uint64_t)time(NULL) * 1000u;
    r.status = 1;
    rc = lobby_seeks_fetch(&loop, (const struct sockaddr *)&addr, game,
                           each_seek, fetched, &r);
    if (rc == 0)
        uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    if (rc == 0)
        rc = r.status;
    if (rc == TB_E_RATE) { /* (not a wrong code: the list's own rate) */
        fprintf(stderr,
                _("tabula seeks: the lobby at %s was asked for its list too "
                  "often from this address; try again in a few seconds\n"),
                cli_token(lobby));
        return CLI_EXIT_FAIL;
    }
    if (rc != 0) {
        fprintf(stderr, _("tabula seeks: cannot list the seeks on %s: %s\n"),
                cli_token(lobby), _(net_strerror(rc)));
        return CLI_EXIT_FAIL;
    }
    if (r.forged > 0)
        fprintf(stderr,
                ngettext("tabula seeks: %u seek did not check (its signature "
                         "or code) and is not shown\n",
                         "tabula seeks: %u seeks did not check (their "
                         "signatures or codes) and are not shown\n",
                         r.forged),
                r.forged);
    if (r.shown == 0)
        printf(_("seeks: none open; put one up with: tabula seek %s "
                 "--lobby %s\n"),
               game != NULL ? game : "GAME", lobby);
    else
        printf(ngettext("seeks: %u open; take one with: tabula join CODE "
                        "--lobby %s\n",
                        "seeks: %u open; take one with: tabula join CODE "
                        "--lobby %s\n",
                        r.shown),
               r.shown, lobby);
    return CLI_EXIT_OK;
}
