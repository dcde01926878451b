/*
 * director_cli.h: what `tabula tournament`'s director commands
 * (cmd_director.c) and a player's `tabula tournament play`
 * (cmd_director_play.c) share: the client folder's internals, not a
 * public header.
 */
#ifndef TABULA_CLIENT_DIRECTOR_CLI_H
#define TABULA_CLIENT_DIRECTOR_CLI_H

#include "director.h"
#include "lobby_wire.h"

/* Say on standard error "tabula tournament: " and fmt (translated by the
 * caller) with a and b (NULL: ""), each made printable. */
void cli__dir_say(const char *fmt, const char *a, const char *b);

/*
 * cli__dir_load: every document of the tournament at source (its
 * folder, or an http(s):// URL of it: fetch.h) into d: tournament.txt,
 * then each round's pairings and results while they exist, each read as
 * hostile input (club_dir_read). A refusal is said naming the file, its
 * line and why, unless quiet. Returns 0, fetch_get's errors for
 * tournament.txt (TB_E_NOFILE, TB_E_IO, ...), or club_dir_read's.
 */
int cli__dir_load(const char *source, Club_Dir *d, int quiet);

/*
 * cli__dir_game_code: the invite code both players of round r's board b
 * (both 1-based, paired in d) compute alike, bound to White's key
 * (docs/tournaments.md). Returns 0, or proto_digest's or
 * lobby_code_make's error.
 */
int cli__dir_game_code(const Club_Dir *d, int r, int b, Lobby_Code *code);

/*
 * cli__dir_play: `tabula tournament play SOURCE`: the player of key
 * (--key FILE; NULL with me: their identity) plays each of their games
 * of the tournament at source as it is paired, through lobby (NULL: the
 * tournament's), with the bot at level bot (0: moves typed), keeping
 * each game's log in log_dir/round-N.log (NULL: the seat's own folder).
 * Returns the exit status.
 */
int cli__dir_play(const char *source, const char *key, int me, int bot,
                  const char *lobby, const char *log_dir);

#endif
