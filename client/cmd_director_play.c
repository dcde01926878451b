/*
 * cmd_director_play.c: `tabula tournament play SOURCE` (issue 38), a
 * player's side of a director's tournament: it reads the tournament's
 * signed documents from its folder or URL (fetch.h) as the director's
 * commands do, waits with a growing pause for each round's pairing that
 * names the player's key, says "your game in round N is ready" and plays
 * the game in this process exactly as the `white:` or `black:` command
 * `tabula tournament pair` prints would (cli_host, cli_join: the derived
 * invite code, the guest's key), round after round, until the player's
 * last round. docs/tournaments.md, "Playing in a tournament".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "director_cli.h"
#include "i18n.h"
#include "proto.h"
#include "tb_error.h"

/* The pause between two readings of the documents while a round's
 * pairing is awaited: from the first, doubled each time up to the last
 * (seconds). */
#define PLAY_WAIT_FIRST_S 2
#define PLAY_WAIT_MAX_S 30

/* The board of round r (1-based, paired) where player sits, or 0. */
static int board_of(const Club_Dir *d, int r, int player)
{
    const Club_Dir_Round *rr = &d->round[r - 1];
    for (int b = 0; b < rr->nboards; b++)
        if (rr->boards[b].white == player || rr->boards[b].black == player)
            return b + 1;
    return 0;
}

/* Play board b of round r as its White (host) or Black (join), with the
 * arguments the pairing's commands give (`tabula tournament pair`).
 * Returns the seat's exit status. */
static int play_board(const Club_Dir *d, int r, int b, int player,
                      const char *key, int bot, const char *lobby,
                      const char *log_dir)
{
    const Club_Dir_Board *x = &d->round[r - 1].boards[b - 1];
    char clock[PROTO_CLOCK_TEXT_MAX] = "", game[PROTO_NAME_MAX + 1];
    char bhex[2 * PROTO_KEY_BYTES + 1], botarg[32], log[1100], lob[256];
    char keyfile[1100], flag_clock[] = "--clock", flag_lobby[] = "--lobby",
                        flag_key[] = "--key", flag_me[] = "--me",
                        flag_guest[] = "--guest", flag_code[] = "--code",
                        flag_log[] = "--log";
    char *argv[20];
    int argc = 0, white = x->white == player;
    Lobby_Code code;
    Proto_Clock clk;

    if (cli__dir_game_code(d, r, b, &code) != 0)
        return CLI_EXIT_FAIL;
    snprintf(game, sizeof game, "%s", d->game);
    snprintf(lob, sizeof lob, "%s", lobby);
    if (d->clock[0] != '\0' && proto_clock_parse(d->clock, 0, &clk, NULL) == 0)
        proto_clock_typed(&clk, clock, sizeof clock);
    proto_hex(d->players[x->black - 1].key, PROTO_KEY_BYTES, bhex);
    if (white) {
        argv[argc++] = game;
        if (clock[0] != '\0') {
            argv[argc++] = flag_clock;
            argv[argc++] = clock;
        }
    } else {
        argv[argc++] = code.text;
    }
    argv[argc++] = flag_lobby;
    argv[argc++] = lob;
    if (key != NULL) {
        snprintf(keyfile, sizeof keyfile, "%s", key);
        argv[argc++] = flag_key;
        argv[argc++] = keyfile;
    } else {
        argv[argc++] = flag_me;
    }
    if (white) {
        argv[argc++] = flag_guest;
        argv[argc++] = bhex;
        argv[argc++] = flag_code;
        argv[argc++] = code.text;
    }
    if (bot > 0) {
        snprintf(botarg, sizeof botarg, "--bot=%d", bot);
        argv[argc++] = botarg;
    }
    if (log_dir != NULL) {
        snprintf(log, sizeof log, "%s/round-%d.log", log_dir, r);
        argv[argc++] = flag_log;
        argv[argc++] = log;
    }
    argv[argc] = NULL;
    fflush(stdout);
    return white ? cli_host(argc, argv) : cli_join(argc, argv);
}

int cli__dir_play(const char *source, const char *key, int me, int bot,
                  const char *lobby, const char *log_dir)
{
    Proto_Identity id;
    Club_Dir *d;
    char fp[PROTO_FINGERPRINT_MAX], num[16];
    uint8_t pk[PROTO_KEY_BYTES];
    int r = 1, waiting = 0, wait_s = PLAY_WAIT_FIRST_S, failed = 0;
    int unread = 0, rc;

    (void)me; /* (--me is the default: the player's own identity) */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (lobby != NULL && !club_dir_lobby_ok(lobby, strlen(lobby))) {
        cli__dir_say(_("bad lobby address '%s': HOST:PORT, e.g. "
                       "club.example:7470"),
                     lobby, NULL);
        return CLI_EXIT_USAGE;
    }
    rc = proto_identity_load(&id, key, NULL);
    if (rc != 0) {
        cli__dir_say(_("cannot use the identity %s: %s"),
                     key != NULL ? key : "--me", _(tb_strerror(rc)));
        return CLI_EXIT_FAIL;
    }
    memcpy(pk, id.pk, sizeof pk);
    proto_identity_wipe(&id);
    proto_fingerprint(pk, fp);
    if ((d = club_dir_new()) == NULL)
        return CLI_EXIT_FAIL;
    for (;;) {
        int player, total, played = 0;
        memset(d, 0, sizeof *d);
        rc = cli__dir_load(source, d, unread);
        if (rc == TB_E_IO) { /* (a server away for a while: try again) */
            unread = 1;
            sleep(PLAY_WAIT_MAX_S);
            continue;
        }
        if (rc != 0)
            break;
        unread = 0;
        player = club_dir_find(d, pk);
        if (player == 0) {
            cli__dir_say(_("your key %s is not registered in the tournament "
                           "at %s: send the director the public key 'tabula "
                           "identity' prints"),
                         fp, source);
            break;
        }
        if (lobby == NULL && d->lobby[0] == '\0') {
            cli__dir_say(_("the tournament names no lobby: give --lobby "
                           "HOST:PORT"),
                         NULL, NULL);
            club_dir_free(d);
            return CLI_EXIT_USAGE;
        }
        if ((total = club_dir_total_rounds(d)) < 0) {
            cli__dir_say(_("a round robin takes 3 to 16 players"), NULL, NULL);
            break;
        }
        const Club_Dir_Player *pl = &d->players[player - 1];
        while (r <= total && r <= d->npaired && !played &&
               (pl->withdrawn == 0 || r < pl->withdrawn)) {
            int b = board_of(d, r, player);
            const Club_Dir_Board *x =
                b > 0 ? &d->round[r - 1].boards[b - 1] : NULL;
            if (x != NULL && x->black == 0) {
                printf("round %d: bye\n", r);
            } else if (x != NULL && !x->done) {
                printf(_("your game in round %d is ready"), r);
                putchar('\n');
                if (play_board(d, r, b, player, key, bot,
                               lobby != NULL ? lobby : d->lobby,
                               log_dir) != CLI_EXIT_OK) {
                    snprintf(num, sizeof num, "%d", r);
                    cli__dir_say(_("your game in round %s did not end well: "
                                   "the director decides it"),
                                 num, NULL);
                    failed = 1;
                }
                played = 1;
                wait_s = PLAY_WAIT_FIRST_S;
            }
            r++; /* (not paired, a result in already: nothing to play) */
        }
        if (pl->withdrawn > 0 && r >= pl->withdrawn && !played) {
            printf(_("you are withdrawn from round %d on"), pl->withdrawn);
            putchar('\n');
            club_dir_free(d);
            return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
        }
        if (r > total && !played) {
            club_dir_free(d);
            return failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
        }
        if (played)
            continue; /* (the documents again: the next round may be in) */
        if (waiting != r) {
            printf(_("waiting for round %d's pairing"), r);
            putchar('\n');
            waiting = r;
        }
        sleep((unsigned)wait_s);
        wait_s = wait_s * 2 > PLAY_WAIT_MAX_S ? PLAY_WAIT_MAX_S : wait_s * 2;
    }
    club_dir_free(d);
    return CLI_EXIT_FAIL;
}
