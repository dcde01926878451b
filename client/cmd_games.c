/*
 * cmd_games.c: `tabula games`, the player's network games kept on this
 * machine (issue 37, correspondence): every seat a host or join left in
 * the seats' folder (netstore_dir), its log verified as `tabula replay`
 * verifies it, with whose move it is, the time left on the running
 * clock (the relay's witnessed turn start against this machine's
 * clock), the last move, and the command that opens it again.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "i18n.h"
#include "netstore.h"
#include "proto.h"
#include "tb_error.h"

static const char games_help[] = N_(
    "usage: tabula games [--all]\n"
    "\n"
    "Lists your network games kept on this machine (the seats of tabula\n"
    "host, seek, pool and join without --log, in the seats' folder), the\n"
    "ones where it is your move first, two lines each:\n"
    "  game: CODE GAME SIDE TURN LEFT LAST\n"
    "  open: the command that takes the seat back\n"
    "SIDE is white or black (yours); TURN is 'you' (your move), 'opponent',\n"
    "'waiting' (no opponent yet) or the result once the game is over;\n"
    "LEFT is the time left on the running clock (2d23h, 4m10s; '-' without\n"
    "one); LAST is the last move with its number ('-' before one). Each\n"
    "game's log is verified first; one that does not verify is named on\n"
    "standard error. --all also lists finished games.\n");

const Cli_Flag cli_flags_games[] = {{"--all", CLI_SWITCH, 0},
                                    {NULL, CLI_SWITCH, 0}};

typedef struct Game_Row {
    char line[512], open[4096];
    int yours; /* your move: listed first */
} Game_Row;

typedef struct Last_Move {
    uint32_t ply;
    char move[CORE_NOTATION_MAX];
} Last_Move;

static void visit(void *ctx, const Proto_Transcript *t, const Proto_Envelope *e)
{
    Last_Move *l = ctx;
    (void)t;
    if (e->msg.kind == PROTO_KIND_MOVE) {
        l->ply = e->msg.body.move.ply;
        snprintf(l->move, sizeof l->move, "%s", e->msg.body.move.move);
    }
}

/* ms as a player reads a clock: 2d23h, 5h4m, 4m10s, 9s. */
static void left_text(int64_t ms, char *out, size_t cap)
{
    uint64_t s = ms > 0 ? (uint64_t)ms / 1000 : 0;
    if (s >= 86400)
        snprintf(out, cap, "%llud%lluh", (unsigned long long)(s / 86400),
                 (unsigned long long)(s % 86400 / 3600));
    else if (s >= 3600)
        snprintf(out, cap, "%lluh%llum", (unsigned long long)(s / 3600),
                 (unsigned long long)(s % 3600 / 60));
    else if (s >= 60)
        snprintf(out, cap, "%llum%llus", (unsigned long long)(s / 60),
                 (unsigned long long)(s % 60));
    else
        snprintf(out, cap, "%llus", (unsigned long long)s);
}

/* The row of the seat whose log is path: 0, or 1 when it is left out
 * (finished and not all), or an error said on stderr. */
static int game_row(const char *path, int done, int all, uint64_t now_ms,
                    Game_Row *row)
{
    Netstore_Seat seat;
    char why[256];
    uint8_t *buf = NULL;
    size_t len = 0;
    Proto_Transcript *t = NULL;
    Proto_Log_Report rep;
    Last_Move last = {0};
    int rc;

    memset(&seat, 0, sizeof seat);
    memset(row, 0, sizeof *row);
    if (done && !all)
        return 1;
    if (!done && netstore_seat_load(path, &seat, why, sizeof why) != 1)
        return 1; /* (a log with no seat: not a seat of this machine's) */
    /* (a finished game's seat file is gone: its role is in its log's
     * name, ROLE-CODE.done.log) */
    const char *name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    if (done)
        seat.role = strncmp(name, "join-", 5) == 0 ? LOBBY_ROLE_GUEST
                                                   : LOBBY_ROLE_HOST;
    if ((rc = proto_read_file(path, &buf, &len)) != 0 ||
        ((rc = proto_log_verify_witnessed(buf, len, NULL, visit, NULL, &last,
                                          &t, &rep)) != 0 &&
         rc != TB_E_TRUNCATED)) {
        fprintf(stderr, _("tabula games: %s does not verify: %s\n"), path,
                _(tb_strerror(rc)));
        free(buf);
        proto_transcript_free(t);
        return rc;
    }
    free(buf);
    if (t == NULL) { /* (an empty or cut log: nothing verified) */
        fprintf(stderr, _("tabula games: %s does not verify: %s\n"), path,
                _(tb_strerror(rc != 0 ? rc : TB_E_TRUNCATED)));
        return TB_E_TRUNCATED;
    }
    const Proto_Message *start = proto_transcript_start(t);
    const char *game = start != NULL ? start->body.start.game
                       : seat.game != NULL ? core_game_name(seat.game)
                                           : "?";
    int side = seat.role == LOBBY_ROLE_GUEST ? CORE_BLACK : CORE_WHITE;
    char turn[64] = "waiting", left[32] = "-", lastm[CORE_NOTATION_MAX + 24] = "-";
    if (start != NULL) {
        Core_Status st = proto_transcript_status(t);
        if (st.outcome != CORE_ONGOING) {
            snprintf(turn, sizeof turn, "%s", core_outcome_name(st.outcome));
        } else {
            int to_move =
                core_side_to_move(proto_transcript_position(t));
            uint64_t from = 0;
            int64_t at_start[2] = {0, 0};
            row->yours = to_move == side;
            snprintf(turn, sizeof turn, "%s", row->yours ? "you" : "opponent");
            if (proto_transcript_clock_turn(t, &from, at_start) == to_move) {
                int64_t used = now_ms > from ? (int64_t)(now_ms - from) : 0;
                left_text(at_start[to_move] - used, left, sizeof left);
            }
        }
    }
    if (last.ply > 0)
        snprintf(lastm, sizeof lastm, "%u.%s", last.ply, last.move);
    /* a finished game's seat file is gone: its code is in the log's
     * name (ROLE-CODE.done.log, netstore_retire) */
    char code[LOBBY_CODE_TEXT] = "-";
    const char *dash = strchr(name, '-');
    Lobby_Code named;
    if (seat.invite.text[0] != '\0')
        snprintf(code, sizeof code, "%s", seat.invite.text);
    else if (dash != NULL && strlen(dash + 1) >= LOBBY_CODE_TEXT - 1) {
        char text[LOBBY_CODE_TEXT];
        snprintf(text, sizeof text, "%.*s", LOBBY_CODE_TEXT - 1, dash + 1);
        if (lobby_code_parse(text, &named) == 0) /* (a file's name is no
                                                     code until it parses) */
            snprintf(code, sizeof code, "%s", named.text);
    }
    snprintf(row->line, sizeof row->line, "game: %s %s %s %s %s %s\n", code,
             game,
             side == CORE_WHITE ? "white" : "black", turn, left, lastm);
    /* (a host that ran its own lobby binds it again without --lobby;
     * any other seat reaches its lobby, and a path with a space is
     * quoted so the line can be pasted) */
    int lob = seat.lobby[0] != '\0' && !seat.own_lobby;
    int quote = strchr(path, ' ') != NULL;
    if (!done)
        snprintf(row->open, sizeof row->open,
                 "  open: tabula %s %s --log %s%s%s%s%s\n",
                 seat.role == LOBBY_ROLE_GUEST ? "join" : "host",
                 seat.role == LOBBY_ROLE_GUEST ? code : game,
                 quote ? "'" : "", path, quote ? "'" : "",
                 lob ? " --lobby " : "", lob ? seat.lobby : "");
    else
        snprintf(row->open, sizeof row->open, "  log: %s\n", path);
    proto_transcript_free(t);
    proto_identity_wipe(&seat.id);
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* 1 when a seat file's name holds only what a seat's name may (ROLE-
 * CODE.log, CODE's symbols and dashes, ".done-N"): a name with a
 * control byte would be printed into the terminal as it is. */
static int plain_name(const char *s)
{
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' ||
              *s == '_'))
            return 0;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cli_games(int argc, char **argv)
{
    char dir[512], path[1024];
    char **names = NULL;
    size_t n = 0, cap = 0;
    int all = 0, bad = 0, finished = 0;
    DIR *d;
    struct dirent *e;

    for (int i = 0; i < argc; i++) {
        const char *v;
        if (cli_is_help(argv[i])) {
            fputs(_(games_help), stdout);
            return CLI_EXIT_OK;
        }
        int f = cli_arg("games", cli_flags_games, argc, argv, &i,
                        _(games_help), &v);
        if (f == CLI_ARG_WORD)
            return cli_unexpected("games", argv[i], _(games_help));
        if (f < 0)
            return CLI_EXIT_USAGE;
        all = 1;
    }
    if (netstore_dir(dir, sizeof dir) != 0) {
        fprintf(stderr, _("tabula games: no seats' folder (set XDG_DATA_HOME "
                          "or HOME)\n"));
        return CLI_EXIT_FAIL;
    }
    if (proto_init() != 0 || (d = opendir(dir)) == NULL)
        return CLI_EXIT_FAIL;
    while ((e = readdir(d)) != NULL) {
        if (!ends_with(e->d_name, ".log"))
            continue;
        if (!plain_name(e->d_name)) { /* (never printed as it is) */
            fprintf(stderr,
                    _("tabula games: %s in the seats' folder is not a "
                      "seat's name; left out\n"),
                    cli_token(e->d_name));
            continue;
        }
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 16) *
                                             sizeof *names);
            if (more == NULL)
                break;
            names = more;
        }
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, by_name);
    Game_Row *rows = calloc(n > 0 ? n : 1, sizeof *rows);
    size_t shown = 0;
    uint64_t now = (uint64_t)time(NULL) * 1000u;
    for (size_t i = 0; rows != NULL && i < n; i++) {
        int done = strstr(names[i], ".done") != NULL;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        int rc = game_row(path, done, all, now, &rows[shown]);
        if (rc == 0)
            shown++;
        else if (rc < 0)
            bad++;
        finished += done;
    }
    /* your moves first, each group in the folder's order */
    for (int pass = 1; pass >= 0; pass--)
        for (size_t i = 0; i < shown; i++)
            if (rows[i].yours == pass) {
                fputs(rows[i].line, stdout);
                fputs(rows[i].open, stdout);
            }
    if (shown == 0 && finished > 0 && bad == 0)
        printf(_("games: none running on this machine; tabula games --all "
                 "lists the finished ones too\n"));
    else if (shown == 0 && bad == 0)
        printf(_("games: none kept on this machine; start one with tabula "
                 "host, seek, pool or join\n"));
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(rows);
    return bad > 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
