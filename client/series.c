/*
 * series.c: a match of several games between two players (issue 38,
 * `tabula host GAME --series N --lobby L`; cli.h cli_series). The first
 * game's host is White; each next game is hosted by the player who was
 * Black, so colours alternate; its room's invite code is one both players
 * compute from their X25519 shared secret (proto_series_code) and its
 * host's CREATE names the other player's key, so no code is typed and no
 * stranger takes the seat. Each seat keeps its first game's key for the
 * whole series; every start carries "series=K/N/ID" (signed), so a reader
 * of the logs can put the series together again. The score is the games'
 * table points (core_table_points: Chess volleyball's 3/2/1 of the seed,
 * 1/0.5/0 otherwise), printed after each game and kept in one record.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "i18n.h"
#include "netgame.h"
#include "netstore.h"
#include "tb_error.h"

/* Half points h as a player reads them: 3, 1.5. */
static void points_text(unsigned h, char out[16])
{
    snprintf(out, 16, "%u%s", h / 2, h % 2 ? ".5" : "");
}

void cli_series_banner(char *out, size_t cap, unsigned game, unsigned games,
                       const unsigned score[2])
{
    char you[16], opp[16];
    points_text(score[0], you);
    points_text(score[1], opp);
    snprintf(out, cap, _("Series: game %u of %u; score: you %s - opponent %s"),
             game, games, you, opp);
}

/* The options of a series' games: the first game's without its series
 * token, into out (PROTO_OPTIONS_MAX + 1 bytes). */
static void options_without_series(const char *options, char *out)
{
    Proto_Series s;
    size_t n = 0;
    out[0] = '\0';
    while (*options != '\0') {
        size_t len = strcspn(options, ",");
        if (len > 0 && proto_series_token(options, len, &s) == 0 &&
            n + (n > 0) + len <= PROTO_OPTIONS_MAX) {
            if (n > 0)
                out[n++] = ',';
            memcpy(out + n, options, len);
            n += len;
            out[n] = '\0';
        }
        options += len + (options[len] == ',');
    }
}

/* The series' record (series-ID.txt in the seats' folder, "" when there
 * is none): a header, then one line a game, appended as each ends. */
static FILE *record_open(const Proto_Series *s, const char *game,
                         const uint8_t id[PROTO_MATCH_ID_BYTES], char *path,
                         size_t cap)
{
    char dir[512], hex[2 * PROTO_MATCH_ID_BYTES + 1];
    struct stat st;
    proto_hex(id, PROTO_MATCH_ID_BYTES, hex);
    if (netstore_dir(dir, sizeof dir) != 0)
        return NULL;
    snprintf(path, cap, "%s/series-%s.txt", dir, hex);
    int fresh = stat(path, &st) != 0;
    FILE *f = fopen(path, "a");
    if (f != NULL && fresh)
        fprintf(f, "tabula-series 1\nseries: %s %s %u\n", hex, game,
                (unsigned)s->games);
    return f;
}

/* One game's line of the record and of the screen. */
static void tell_game(FILE *rec, const Proto_Series *s, unsigned k,
                      const Cli_Game_End *e, int white, unsigned mine[2])
{
    char fw[PROTO_FINGERPRINT_MAX], fb[PROTO_FINGERPRINT_MAX], you[16],
        opp[16];
    proto_fingerprint(e->white, fw);
    proto_fingerprint(e->black, fb);
    mine[0] += e->table[white ? 0 : 1];
    mine[1] += e->table[white ? 1 : 0];
    points_text(mine[0], you);
    points_text(mine[1], opp);
    printf("series: game %u of %u: %s; you %s - opponent %s\n", k,
           (unsigned)s->games, core_outcome_name(e->status.outcome), you,
           opp);
    fflush(stdout);
    if (rec != NULL) {
        fprintf(rec, "game: %u %s %s %s %s %u %u %s\n", k, fw, fb,
                core_outcome_name(e->status.outcome),
                core_reason_name(e->status.reason), e->table[0], e->table[1],
                e->log[0] != '\0' ? e->log : "-");
        fflush(rec);
    }
}

/* Game k of the series ended aborted: the series stops there (an abort
 * would otherwise use a game of N up for nothing, so a player ahead
 * could abort the rest: the trial of 2026-12-07), and says so. */
static int aborted(const char *cmd, FILE *rec, unsigned k,
                   const Cli_Game_End *e)
{
    if (e->status.outcome != CORE_ABORTED)
        return 0;
    fprintf(stderr,
            _("tabula %s: the series stops: its game %u was aborted\n"), cmd,
            k);
    if (rec != NULL)
        fprintf(rec, "stopped: %u aborted\n", k);
    return 1;
}

int cli_series(const char *cmd, const Netgame_Config *base,
               const Cli_Game_End *first, int status, const char *lobby,
               const struct sockaddr_storage *nodes, size_t nnodes)
{
    Proto_Series s;
    char path[1024], plain[PROTO_OPTIONS_MAX + 1], token[64],
        opts[PROTO_OPTIONS_MAX + 1];
    unsigned mine[2] = {0, 0};
    if (!first->started ||
        proto_options_series(first->options, &s) != 1 || s.game != 1)
        return status;
    const Core_Game *game = core_game_find(first->game);
    int white1 = memcmp(first->me.pk, first->white, PROTO_KEY_BYTES) == 0;
    const uint8_t *opponent = white1 ? first->black : first->white;
    if (game == NULL ||
        (!white1 && memcmp(first->me.pk, first->black, PROTO_KEY_BYTES) != 0))
        return status; /* (not this seat's game: nothing to go on with) */
    FILE *rec = record_open(&s, first->game, first->match_id, path,
                            sizeof path);
    if (!first->finished) {
        fprintf(stderr,
                _("tabula %s: the series stops: its game 1 did not end\n"),
                cmd);
        if (rec != NULL)
            fclose(rec);
        return status != CLI_EXIT_OK ? status : CLI_EXIT_FAIL;
    }
    tell_game(rec, &s, 1, first, white1, mine);
    options_without_series(first->options, plain);
    for (unsigned k = 2; k <= s.games && !aborted(cmd, rec, 1, first);
         k++) {
        /* White, the host, is the first game's White in odd games */
        int host = (k % 2 == 1) == white1;
        uint8_t sym[PROTO_SERIES_CODE_BYTES];
        Lobby_Code code;
        Proto_Series next = {k, s.games, 1, {0}};
        memcpy(next.id, first->match_id, sizeof next.id);
        if (proto_series_code(&first->me, opponent, first->match_id, k,
                              sym) != 0 ||
            lobby_code_make(sym, host ? first->me.pk : opponent, &code) != 0 ||
            proto_series_format(&next, token, sizeof token) != 0 ||
            snprintf(opts, sizeof opts, "%s%s%s", plain, plain[0] ? "," : "",
                     token) >= (int)sizeof opts) {
            fprintf(stderr, _("tabula %s: cannot set up the series\n"), cmd);
            status = CLI_EXIT_FAIL;
            break;
        }
        Netgame_Config cfg = *base;
        cfg.role = host ? LOBBY_ROLE_HOST : LOBBY_ROLE_GUEST;
        cfg.game = host ? game : NULL;
        cfg.options = opts;
        cfg.code = host ? NULL : code.text;
        cfg.log_path = NULL; /* (each game its seat file in the folder) */
        cfg.seek = 0;
        cfg.seed = base->seed + k; /* (a bot plays each game its own way) */
        cfg.name = NULL;
        cfg.name_len = 0;
        cfg.pool_id = &first->me;
        cfg.pool_invite = host ? &code : NULL;
        cfg.pool_guest = host ? opponent : NULL;
        cfg.expect_game = host ? NULL : game;
        cfg.expect_options = host ? NULL : opts;
        printf("series: game %u of %u: you are %s\n", k, (unsigned)s.games,
               host ? "white" : "black");
        char banner[160];
        cli_series_banner(banner, sizeof banner, k, (unsigned)s.games, mine);
        cfg.banner = banner;
        fflush(stdout);
        Cli_Game_End end;
        memset(&end, 0, sizeof end);
        status = cli_net_play_end(&cfg, cmd, lobby, nodes, nnodes, &end);
        proto_identity_wipe(&end.me);
        Proto_Series got;
        if (!end.finished || proto_options_series(end.options, &got) != 1 ||
            got.game != k) {
            fprintf(stderr,
                    _("tabula %s: the series stops: its game %u did not "
                      "end\n"),
                    cmd, k);
            if (status == CLI_EXIT_OK)
                status = CLI_EXIT_FAIL;
            break;
        }
        tell_game(rec, &s, k, &end, host, mine);
        if (aborted(cmd, rec, k, &end)) {
            status = CLI_EXIT_FAIL;
            break;
        }
    }
    if (first->status.outcome == CORE_ABORTED)
        status = CLI_EXIT_FAIL;
    if (rec != NULL) {
        fclose(rec);
        printf("series: record %s\n", path);
    }
    return status;
}
