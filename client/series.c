/*
 * series.c: a match of several games between two players (issue 38,
 * `tabula host GAME --series N --lobby L`; cli.h cli_series): the
 * terminal's driver of the seat layer's series (seat.h "a series": which
 * game follows, who hosts it, its code and options, the score, when it
 * stops), which the page drives too. Each seat keeps its first game's
 * key for the whole series; every start carries "series=K/N/ID" (signed),
 * so a reader of the logs can put the series together again. Here: the
 * lines printed after each game and the series' record beside the seats'
 * files.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "i18n.h"
#include "netgame.h"
#include "netstore.h"
#include "tb_error.h"

void cli_series_banner(char *out, size_t cap, unsigned game, unsigned games,
                       const unsigned score[2])
{
    seat_series_line(out, cap, _(seat_series_banner()), game, games, score);
}

/* The series' record (series-ID.txt in the seats' folder, "" when there
 * is none): a header, then one line a game, appended as each ends. */
static FILE *record_open(const Seat_Series *s, char *path, size_t cap)
{
    char dir[512], hex[2 * PROTO_MATCH_ID_BYTES + 1];
    struct stat st;
    proto_hex(s->id, PROTO_MATCH_ID_BYTES, hex);
    if (netstore_dir(dir, sizeof dir) != 0)
        return NULL;
    snprintf(path, cap, "%s/series-%s.txt", dir, hex);
    int fresh = stat(path, &st) != 0;
    FILE *f = fopen(path, "a");
    if (f != NULL && fresh)
        fprintf(f, "tabula-series 1\nseries: %s %s %u\n", hex,
                core_game_name(s->game), s->games);
    return f;
}

/* One counted game's line of the record and of the screen. */
static void tell_game(FILE *rec, const Seat_Series *s, const Cli_Game_End *e)
{
    char fw[PROTO_FINGERPRINT_MAX], fb[PROTO_FINGERPRINT_MAX],
        you[SEAT_POINTS_TEXT], opp[SEAT_POINTS_TEXT];
    proto_fingerprint(e->g.white, fw);
    proto_fingerprint(e->g.black, fb);
    seat_series_points(s->score[0], you);
    seat_series_points(s->score[1], opp);
    printf("series: game %u of %u: %s; you %s - opponent %s\n", s->played,
           s->games, core_outcome_name(e->g.status.outcome), you, opp);
    fflush(stdout);
    if (rec != NULL) {
        fprintf(rec, "game: %u %s %s %s %s %u %u %s\n", s->played, fw, fb,
                core_outcome_name(e->g.status.outcome),
                core_reason_name(e->g.status.reason), e->g.table[0],
                e->g.table[1], e->log[0] != '\0' ? e->log : "-");
        fflush(rec);
    }
}

/* Game e ended: counted into s (seat_series_add) and told; 1 when the
 * next game follows, else 0 after saying why the series stops (an
 * abort; a game that did not end) in the record and on stderr. */
static int count(const char *cmd, FILE *rec, Seat_Series *s,
                 const Cli_Game_End *e)
{
    int what = seat_series_add(s, &e->g);
    if (what == SEAT_SERIES_NEXT || what == SEAT_SERIES_OVER ||
        what == SEAT_SERIES_ABORTED)
        tell_game(rec, s, e);
    if (what == SEAT_SERIES_NEXT || what == SEAT_SERIES_OVER)
        return what == SEAT_SERIES_NEXT;
    unsigned k = seat_series_stop_game(s);
    fprintf(stderr, "tabula %s: ", cmd);
    fprintf(stderr, _(seat_series_stop_words(what)), k);
    fputc('\n', stderr);
    if (rec != NULL)
        fprintf(rec, "stopped: %u %s\n", k,
                what == SEAT_SERIES_ABORTED ? "aborted" : "unfinished");
    return 0;
}

int cli_series(const char *cmd, const Netgame_Config *base,
               const Cli_Game_End *first, int status, const char *lobby,
               const struct sockaddr_storage *nodes, size_t nnodes)
{
    Seat_Series s;
    char path[1024];
    if (seat_series_begin(&s, first->me.pk, &first->g) != 1)
        return status; /* (no series' first game of this seat) */
    FILE *rec = record_open(&s, path, sizeof path);
    int more = count(cmd, rec, &s, first);
    if (!more && status == CLI_EXIT_OK && s.stop != SEAT_SERIES_OVER)
        status = CLI_EXIT_FAIL;
    while (more) {
        Seat_Series_Game next;
        if (seat_series_next(&s, &first->me, &next) != 0) {
            fprintf(stderr, _("tabula %s: cannot set up the series\n"), cmd);
            status = CLI_EXIT_FAIL;
            break;
        }
        Netgame_Config cfg = *base;
        cfg.role = next.host ? LOBBY_ROLE_HOST : LOBBY_ROLE_GUEST;
        cfg.game = next.host ? next.game : NULL;
        cfg.options = next.options;
        cfg.code = next.host ? NULL : next.invite.text;
        cfg.log_path = NULL; /* (each game its seat file in the folder) */
        cfg.seek = 0;
        cfg.seed = base->seed + next.number; /* (a bot plays each game its
                                                own way) */
        cfg.name = NULL;
        cfg.name_len = 0;
        cfg.pool_id = &first->me;
        cfg.pool_invite = next.host ? &next.invite : NULL;
        cfg.pool_guest = next.host ? next.opponent : NULL;
        cfg.expect_game = next.host ? NULL : next.game;
        cfg.expect_options = next.host ? NULL : next.options;
        printf("series: game %u of %u: you are %s\n", next.number, s.games,
               next.host ? "white" : "black");
        char banner[160];
        cli_series_banner(banner, sizeof banner, next.number, s.games,
                          s.score);
        cfg.banner = banner;
        cfg.series = &s;
        fflush(stdout);
        Cli_Game_End end;
        memset(&end, 0, sizeof end);
        status = cli_net_play_end(&cfg, cmd, lobby, nodes, nnodes, &end);
        proto_identity_wipe(&end.me);
        more = count(cmd, rec, &s, &end);
        if (!more && s.stop != SEAT_SERIES_OVER && status == CLI_EXIT_OK)
            status = CLI_EXIT_FAIL;
    }
    if (rec != NULL) {
        fclose(rec);
        printf("series: record %s\n", path);
    }
    return status;
}
