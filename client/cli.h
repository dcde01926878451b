/*
 * cli.h: the commands of the tabula program. Each command takes the
 * arguments after its name and returns the process exit status:
 * 0 done, 1 a check failed (verification, desync), 2 bad usage or input,
 * 3 (replay only) a log verified whole but not closed by an end record.
 */
#ifndef TABULA_CLI_H
#define TABULA_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "engine.h"
#include "proto.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_UNENDED 3

int cli_perft(int argc, char **argv);
int cli_moves(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_lobby(int argc, char **argv);
int cli_synctest(int argc, char **argv);
int cli_simtest(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_identity(int argc, char **argv);
int cli_host(int argc, char **argv);
int cli_seek(int argc, char **argv);
int cli_seeks(int argc, char **argv);
int cli_pool(int argc, char **argv);
int cli_games(int argc, char **argv);
int cli_ratings(int argc, char **argv);

/* How a game `tabula match --logs` logs ends when its board does not
 * end it (cli_match_log): as the board says, a side's resignation (its
 * loss on time), or a draw agreed (the ply guard). */
enum {
    CLI_MATCH_END_BOARD = 0,
    CLI_MATCH_END_WHITE_RESIGNS,
    CLI_MATCH_END_BLACK_RESIGNS,
    CLI_MATCH_END_DRAW
};

/*
 * cli_match_bot_identity: the key of a bot as `tabula match` names it
 * (its --a or --b text, "3:old"): seeded from BLAKE2b-256 of "tabula
 * match bot " and spec, so one spec is one key in every run, and its
 * ratings add up across runs. Errors: TB_E_NOMEM, TB_E_CRYPTO.
 */
int cli_match_bot_identity(const char *spec, Proto_Identity *id);

/*
 * cli_match_log: write the signed match log of a game to path (which
 * must not exist): a match start of game with options between white and
 * black (keys as cli_match_bot_identity gives), match_id and started
 * (Unix seconds) as given, moves[0..n) from the game's start each signed
 * by its mover with the state hash after it, then, when the board has
 * not ended the game, the end `end` says (CLI_MATCH_END_*), and the end
 * record once the match is over (a game left on: none, a log cut at a
 * frame). Errors: proto's (TB_E_IO: the file exists or cannot be
 * written), core's for a move that is not legal.
 */
int cli_match_log(const char *path, const Core_Game *game, const char *options,
                  const Proto_Identity *white, const Proto_Identity *black,
                  uint64_t started, const uint8_t match_id[PROTO_MATCH_ID_BYTES],
                  const Core_Move *moves, size_t n, int end);

/* How long cli_seek_find waits for the lobby's list (ms). */
#define CLI_SEEK_FIND_MS 3000

/*
 * cli_seek_find: the open seek on the lobby at lobby whose invite code is
 * code (as typed), its card checked (lobby_seek_card_read), into *out: a
 * joiner then holds the host to the game and options it promised
 * (Match_Config.expect_game). Waits CLI_SEEK_FIND_MS at most. Errors:
 * TB_E_ARG (a code that does not parse, or no loop), TB_E_CODE (the
 * whole list came and no seek of it has the code), and when the list
 * could not be read: -ETIMEDOUT (no answer in time), the lobby's refusal
 * (TB_E_RATE: the address asked too often) or the transport's error.
 */
struct sockaddr;
struct Lobby_Seek; /* (lobby_wire.h: the page's build has no lobby/) */
int cli_seek_find(const struct sockaddr *lobby, const char *code,
                  struct Lobby_Seek *out);
int cli_join(int argc, char **argv);
int cli_spectate(int argc, char **argv);
int cli_render(int argc, char **argv);
int cli_rules(int argc, char **argv);
int cli_tournament(int argc, char **argv);
int cli_match(int argc, char **argv);
int cli_analyse(int argc, char **argv);

/* True when arg is -h or --help. */
int cli_is_help(const char *arg);

/* The help of --letters, a switch of every command that shows a board
 * (play, host, join, spectate, replay, rules): tui_letters(1). To pass
 * through _(). */
extern const char cli_letters_help[];

/*
 * cli_game: the game named name, or NULL after printing to stderr which
 * games exist (prefixed with the command's name).
 */
const Core_Game *cli_game(const char *cmd, const char *name);

/*
 * cli_setup_position: a new position of game g with options, optionally
 * set from a position string, then the moves applied in order. Prints a
 * message naming the bad token on stderr and returns NULL on any error.
 */
Core_Position *cli_setup_position(const char *cmd, const Core_Game *g,
                                  const char *options, const char *position,
                                  char **moves, int nmoves);

/*
 * cli_program_set / cli_program: the command as the user ran it, for the
 * commands the program prints for someone to type ("build/tabula join
 * CODE ..."): argv[0] when it is a short relative path or a bare name of
 * printable ASCII without blanks (at most CLI_PROGRAM_MAX bytes), else
 * "tabula". Until set, "tabula".
 */
#define CLI_PROGRAM_MAX 16
void cli_program_set(const char *argv0);
const char *cli_program(void);

/*
 * cli_token: a printable excerpt of untrusted input for messages: at most
 * 60 bytes (then "..."), a tab as a space, other control and non-ASCII
 * bytes as '?'. The result lives in one of 4 rotating static buffers.
 */
const char *cli_token(const char *s);

/*
 * cli_lobby_addr: the --lobby address lobby ("HOST:PORT", one node) of
 * tabula cmd into *out: 0; else says what is wrong on stderr and
 * returns the exit status: CLI_EXIT_FAIL for a host name with no address
 * (as host and join say it), CLI_EXIT_USAGE for an address not of that
 * form.
 */
struct sockaddr_storage;
int cli_lobby_addr(const char *cmd, const char *lobby,
                   struct sockaddr_storage *out);

/*
 * cli_trim: spaces, tabs, CRs and LFs cut from both ends of the
 * NUL-terminated line s, in place (the end by writing NULs); returns
 * the first byte left, inside s. A line a person or a file gives is read
 * so everywhere: play's line mode, a seat's lines, openings files.
 */
char *cli_trim(char *s);

/*
 * cli_printable: s made safe to print on a terminal, into out (cap bytes,
 * cap >= 1; always NUL-terminated, cut short at a character boundary):
 * printable ASCII and well-formed UTF-8 characters are kept; a tab
 * becomes a space; every other control character (C0, DEL, C1 such as a
 * raw CSI), bidirectional embedding, override and isolate marks, and
 * malformed, overlong or surrogate UTF-8 each become one '?'. Use it on
 * every byte from a file or a peer before it reaches a terminal (chat,
 * moves, tag values, error reasons quoting them). Returns out.
 */
char *cli_printable(const char *s, char *out, size_t cap);

/*
 * cli_name_why: why proto_name_check_at refused a display name, in the
 * rule's words (and the character as U+XXXX, never itself: it may be a
 * control or a bidi override that would rewrite the line it is shown
 * on), into buf (cap bytes, no newline), in the language of _(): what
 * `tabula identity --name` and the page's seek form say. f: the fault
 * proto_name_check_at filled.
 */
struct Proto_Name_Fault;
void cli_name_why(const struct Proto_Name_Fault *f, char *buf, size_t cap);

/*
 * cli_waited: how long a thing listed at since waited by now (both Unix
 * ms; a since after now is 0), as a player reads it, into out (cap
 * bytes): whole seconds under a minute ("45s"), else whole minutes
 * ("3m"), hours ("2h") or days ("4d"). `tabula seeks` and the page's
 * list of seeks show it.
 */
void cli_waited(uint64_t now, uint64_t since, char *out, size_t cap);

/*
 * cli_seed: read a seed, a decimal number 0..2^64-1 with nothing else;
 * 0 on success, -1 (after printing "tabula CMD: bad seed ...") otherwise.
 */
int cli_seed(const char *cmd, const char *text, uint64_t *out);

/*
 * cli_bot_arg: read the bot flag at argv[*i]: "--bot" (the level dflt,
 * or the level *level already holds when it is one), "--bot=N", or
 * "--bot N" when the next word is decimal digits only (that word is
 * taken, *i moved past it; "--bot 66FM-..." leaves the invite code);
 * "--level N" and "--level=N" (the name demo and analyse use) are the
 * same. N is a level BOT_LEVEL_MIN..BOT_LEVEL_MAX. Returns 1 with
 * *level set when argv[*i] is the flag, 0 when it is not (nothing
 * changed), -1 after printing "tabula CMD: bad bot level 'N'; expected
 * 1..8" (or "--level needs a value" when no word follows it, or a flag
 * does).
 */
int cli_bot_arg(const char *cmd, int argc, char **argv, int *i, int dflt,
                int *level);

/*
 * cli_options_check: whether opts (a game's own match options, e.g.
 * "goals=3"; NULL or "" for none) are good for g. 0 when they are;
 * otherwise the error (TB_E_* of core_position_new) after printing
 * "tabula CMD: bad options 'SHOWN' for GAME: REASON (see
 * docs/rules/GAME.md)", SHOWN the options as the user wrote them.
 */
int cli_options_check(const char *cmd, const Core_Game *g, const char *opts,
                      const char *shown);

/*
 * cli_director: `tabula tournament create|register|withdraw|pair|collect|
 * standings|export|verify DIR ...` (cmd_director.c), argv from the
 * subcommand's word on; returns the exit status. cli_director_sub: 1 when
 * word names one of those subcommands, else 0.
 */
int cli_director(int argc, char **argv);
int cli_director_sub(const char *word);

/* ---- flags: one table per command ----------------------------------- */

/* What a flag takes: nothing, the next argument, or a non-empty one (an
 * empty word, as a script's unset variable gives, then counts as none). */
typedef enum Cli_Value { CLI_SWITCH = 0, CLI_VALUE, CLI_NONEMPTY } Cli_Value;

/* One flag of a command: its name ("--games"), what it takes, and the id
 * cli_arg answers with (>= 0; variants of a command, such as host and
 * join, share ids in their own tables). A table ends with a NULL name. */
typedef struct Cli_Flag {
    const char *name;
    Cli_Value value;
    int id;
} Cli_Flag;

#define CLI_ARG_WORD (-1)    /* not a flag: a positional argument */
#define CLI_ARG_BAD (-2)     /* refused, and said why: exit CLI_EXIT_USAGE */
#define CLI_ARG_UNKNOWN (-3) /* a flag not in the table, with help NULL */

/*
 * cli_arg: argument argv[*i] of command cmd read against its table of
 * flags: the id of the flag it names, with *value its value when the flag
 * takes one (the next argument; *i is moved onto it); CLI_ARG_WORD when
 * it does not begin with '-' (*value is it); or CLI_ARG_BAD after printing
 * why on stderr: "tabula CMD: FLAG needs a value" (a flag that takes one
 * given last, or before an empty word where it must not be empty), else
 * "tabula CMD: unexpected argument 'A'" and then help; with help NULL an
 * unknown flag is CLI_ARG_UNKNOWN, unsaid (the caller words it and prints
 * its own help). --flag=VALUE comes here split (main.c).
 */
int cli_arg(const char *cmd, const Cli_Flag *flags, int argc, char **argv,
            int *i, const char *help, const char **value);

/* cli_flag_value: what flag name takes in flags: CLI_SWITCH, CLI_VALUE or
 * CLI_NONEMPTY; -1 when the table lacks it. */
int cli_flag_value(const Cli_Flag *flags, const char *name);

/* The tables of the commands that take flags (each in its cmd_*.c), for
 * main.c's --flag=VALUE split: a switch given a value is refused. */
extern const Cli_Flag cli_flags_demo[], cli_flags_play[], cli_flags_host[],
    cli_flags_join[], cli_flags_spectate[], cli_flags_match[],
    cli_flags_analyse[], cli_flags_simtest[], cli_flags_synctest[],
    cli_flags_replay[], cli_flags_rules[], cli_flags_seeks[],
    cli_flags_games[], cli_flags_pool[], cli_flags_ratings[],
    cli_flags_tournament[];

/*
 * cli_net_play: play the seat cfg (a netgame.h Netgame_Config: its role,
 * game or code, cfg->lobby the lobby's address) as tabula host and join
 * do, in lines or on the screen, until its game ends; nodes[0..nnodes)
 * the lobby's nodes read already (nnodes 0: cfg->lobby is read). cmd
 * names the command in what it prints. Returns the exit status
 * (CLI_EXIT_OK once the game ended).
 */
struct Netgame_Config;
struct sockaddr_storage;

/* How a seat's game ended, for what follows it (a series' next game:
 * cli_series); netgame.h has it. */
typedef struct Cli_Game_End Cli_Game_End;

/* cli_net_play_end: cli_net_play, and how the game ended into *end (may
 * be NULL). */
int cli_net_play_end(struct Netgame_Config *cfg, const char *cmd,
                     const char *lobby, const struct sockaddr_storage *nodes,
                     size_t nnodes, Cli_Game_End *end);

/* cli_series_banner: the full screen's line of a series' game game of
 * games with score[0] (yours) and score[1] (the opponent's) in half
 * table points so far (seat_series_banner, translated), into out (cap
 * bytes). */
void cli_series_banner(char *out, size_t cap, unsigned game, unsigned games,
                       const unsigned score[2]);

/*
 * cli_series: after the game `first` (a seat's first game of a series,
 * its start holding "series=1/N": Proto_Series), the series' other games
 * on lobby (nodes[0..nnodes) read already), each seat alternating host
 * and guest so that colours alternate, with the invite code both players
 * compute (proto_series_code) and this seat's key of the first game;
 * base is the first game's seat (its bot, output, files' folder). Prints
 * "series: game K of N: RESULT; you P - opponent Q" after each game (P
 * and Q the table points, core_table_points) and keeps one record of the
 * series beside the seats' files (series-ID.txt). Returns status when
 * first is no series game, else the exit status of the series (0 once
 * every game ended).
 */
int cli_series(const char *cmd, const struct Netgame_Config *base,
               const Cli_Game_End *first, int status, const char *lobby,
               const struct sockaddr_storage *nodes, size_t nnodes);

int cli_net_play(struct Netgame_Config *cfg, const char *cmd,
                 const struct sockaddr_storage *nodes, size_t nnodes);

/*
 * cli_uint: a whole number as a person types it on the command line, the
 * whole of text: digits only, no sign, no spaces, no leading zero (one
 * spelling, as core_read_uint reads a game's numbers), lo..hi. 0 with
 * *out set, or -1 (the caller says what it expected).
 */
int cli_uint(const char *text, uint64_t lo, uint64_t hi, uint64_t *out);

/*
 * cli_unexpected: report argument a of command cmd that was not
 * understood ("tabula CMD: unexpected argument 'A'"), then the help text
 * on stderr. Returns CLI_EXIT_USAGE. (A flag without its value: cli_arg.)
 */
int cli_unexpected(const char *cmd, const char *a, const char *help);

/*
 * cli_report_over: when pos's game is finished, print
 * "result: R (REASON)" on stderr and return 1; else 0.
 */
int cli_report_over(const Core_Position *pos);

/* Seconds from a monotonic clock. */
double cli_now(void);

/*
 * cli_lobby_http: serve the browser page from folder web on addr, and
 * lb's members over WebSocket there (lobby_http_new), on loop; url (cap
 * bytes) gets "http://HOST:PORT/" for the caller's "http:" line; on
 * failure print why (with what to do) on stderr and return the error.
 * Shared by `tabula lobby --http` and `tabula host --http`.
 */
struct uv_loop_s;
struct sockaddr_storage;
typedef struct Lobby Lobby;
typedef struct Lobby_Http Lobby_Http;
int cli_lobby_http(struct uv_loop_s *loop, const struct sockaddr_storage *addr,
                   const char *web, Lobby *lb, Lobby_Http **out, char *url,
                   size_t url_cap);

/*
 * cli_bot_spec: a bot as `tabula match --a` and `analyse --level` take it:
 * read "LEVEL[:OPT[:OPT...]]" into *lim (level 1..8;
 * options "old", "classic" (the old search on the old evaluations),
 * "new" (the current search, the default), at most one of these three,
 * "depth=D" 1..60, "nodes=N" 1..2^40). Errors: TB_E_ARG with a reason in
 * why (may be NULL): which option, or which value, was wrong.
 */
int cli_bot_spec(const char *text, Bot_Limits *lim, char *why,
                 size_t why_cap);

#endif /* TABULA_CLI_H */
