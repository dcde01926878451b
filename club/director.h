/*
 * director.h: a tournament director's documents, without I/O (issue 38;
 * docs/tournaments.md, "Running a tournament"). A tournament is a folder
 * of signed text documents: the tournament (game, clock, system, rounds,
 * players by key, withdrawals, the director's key), per round its
 * pairings and, once results come in, its results with the standings
 * after it. This part writes them canonically, reads them as hostile
 * input (every line's form and bounds, the director's signature), pairs
 * a round by the tournament's system, reads a game's result from a
 * verified match log, and builds the tourney.h tournament whose
 * standings the results documents publish. The driver
 * (client/cmd_director.c) keeps the files.
 *
 * Players are numbered by starting rank 1..nplayers (the tournament
 * document's order of `player` lines); rounds 1..; boards 1...
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_CLUB_DIRECTOR_H
#define TABULA_CLUB_DIRECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "tourney.h"

/* Players a director's tournament holds (a round robin takes 3..16). */
#define CLUB_DIR_MAX_PLAYERS 64
#define CLUB_DIR_MAX_BOARDS (CLUB_DIR_MAX_PLAYERS / 2)
/* Largest document, and longest line, newline included (bytes). */
#define CLUB_DIR_DOC_MAX 65536
#define CLUB_DIR_LINE_MAX 256
/* Bytes of a tournament's name, NUL excluded (a display name's rules). */
#define CLUB_DIR_NAME_MAX PROTO_DISPLAY_NAME_MAX

/* Pairing systems (the tournament document's `system` word). */
typedef enum Club_System {
    CLUB_SYSTEM_RR = 1, /* "rr": single round robin, Berger tables */
    CLUB_SYSTEM_DRR,    /* "drr": double round robin */
    CLUB_SYSTEM_SWISS   /* "swiss": Dutch rules (club/swiss.c, to come) */
} Club_System;

/* The three documents (club_dir_read's kind). */
typedef enum Club_Doc {
    CLUB_DOC_TOURNAMENT = 1,
    CLUB_DOC_PAIRINGS,
    CLUB_DOC_RESULTS
} Club_Doc;

typedef struct Club_Dir_Player {
    uint8_t key[PROTO_KEY_BYTES];
    char name[PROTO_DISPLAY_NAME_MAX + 1]; /* canonical display name, or "" */
    int withdrawn; /* the first round the player misses; 0: none */
    int entered;   /* a late entry's first round (Swiss only); 0: round 1 */
    int bye_half;  /* the rounds before `entered` are half-point byes (TRF
                      H), not absences (TRF Z) */
} Club_Dir_Player;

/* Who wins a forfeit the director declared (Club_Dir_Board.forfeit). */
typedef enum Club_Forfeit {
    CLUB_FORFEIT_NONE = 0, /* not a declared forfeit */
    CLUB_FORFEIT_WHITE,    /* Black never came: White wins by forfeit */
    CLUB_FORFEIT_BLACK,    /* White never came: Black wins by forfeit */
    CLUB_FORFEIT_NEITHER   /* neither came: both lose by forfeit */
} Club_Forfeit;

/* Bytes of a tournament's lobby address (`lobby HOST:PORT`), NUL
 * excluded. */
#define CLUB_DIR_LOBBY_MAX 200

/* One board of a round. black 0: white has the pairing-allocated bye. */
typedef struct Club_Dir_Board {
    int white, black;
    int done;                       /* a result is in */
    unsigned half[2];               /* White's, Black's table half points */
    uint8_t log[PROTO_HASH_BYTES];  /* BLAKE2b-256 of the log it came from */
    int forfeit; /* Club_Forfeit: a result the director declared (done 1,
                    half and log zero), not a log's */
} Club_Dir_Board;

typedef struct Club_Dir_Round {
    int nboards; /* 0: not paired */
    Club_Dir_Board boards[CLUB_DIR_MAX_BOARDS];
    int has_results; /* a results document was read or made */
    int nstandings;  /* the standings it published (nplayers) */
    Club_Standing standings[CLUB_DIR_MAX_PLAYERS];
} Club_Dir_Round;

/* A tournament as its documents give it. Made by club_dir_new. */
typedef struct Club_Dir {
    uint8_t id[PROTO_HASH_BYTES]; /* random at creation: names it */
    char name[CLUB_DIR_NAME_MAX + 1];
    char game[PROTO_NAME_MAX + 1];
    char clock[PROTO_CLOCK_TEXT_MAX]; /* canonical (proto_clock_format);
                                         "" for no clock */
    int system;                       /* Club_System */
    int rounds; /* rounds to play; 0 in a round robin: from its table */
    uint8_t director[PROTO_KEY_BYTES];
    char lobby[CLUB_DIR_LOBBY_MAX + 1]; /* HOST:PORT its games are played
                                           on; "" not named */
    /* the only relay whose receipts its logs may hold: its key in
     * lowercase hex, or its fingerprint (XXXX-XXXX-XXXX-XXXX, as `tabula
     * lobby` prints it); "" any relay */
    char relay[2 * PROTO_KEY_BYTES + 1];
    int nplayers;
    Club_Dir_Player players[CLUB_DIR_MAX_PLAYERS];
    int npaired; /* rounds paired (their pairings read or made) */
    Club_Dir_Round round[CLUB_TOURNEY_MAX_ROUNDS];
} Club_Dir;

/* club_dir_new: a zeroed Club_Dir on the heap (NULL: no memory);
 * club_dir_free releases one (NULL is fine). */
Club_Dir *club_dir_new(void);
void club_dir_free(Club_Dir *d);

/* "rr", "drr", "swiss" for a Club_System; NULL for another value.
 * club_system_parse: the system of a word, or TB_E_ARG. */
const char *club_system_name(int system);
int club_system_parse(const char *word);

/*
 * club_dir_total_rounds: the rounds d plays: its `rounds`, or in a round
 * robin without one the Berger table's for its players (and TB_E_ARG
 * when the count is outside 3..16).
 */
int club_dir_total_rounds(const Club_Dir *d);

/*
 * club_dir_pair: the boards of round `round` (1-based) by d's system,
 * from d's players and the rounds before it, into out (room for
 * CLUB_DIR_MAX_BOARDS), *count the boards; a player without a game gets
 * a board with black 0 (the pairing-allocated bye). The one place a
 * system's pairing is chosen: a round robin by the Berger tables
 * (club_berger_round), a Swiss by FIDE's Dutch system (club_swiss_pair)
 * from the results of the rounds before it, the withdrawn and the late
 * entrants before their entry round left out, rank 1 White in round 1.
 * Results are left empty. Errors: TB_E_ARG (NULL, a round outside
 * 1..total rounds, a player count the system cannot pair), TB_E_STATE
 * (swiss: a round before this one is not paired or has a game without
 * its result yet, or no pairing keeps FIDE's absolute criteria: the
 * arbiter's), TB_E_LIMIT, TB_E_NOMEM.
 */
int club_dir_pair(const Club_Dir *d, int round, Club_Dir_Board *out,
                  int *count);

/* Where club_dir_read stopped: the 1-based line (0: the whole document)
 * and why, a fixed English phrase (the client translates it). */
typedef struct Club_Dir_Error {
    int line;
    const char *why;
} Club_Dir_Error;

/*
 * club_dir_write: document `kind` of d, canonical, signed with
 * director's key (which must be d->director), into out[0..cap): the
 * tournament document, or round `round`'s pairings or results (the
 * results with the standings st[0..d->nplayers) after that round, as
 * club_standings gives them; NULL for the other kinds). The format is
 * docs/tournaments.md's, "The documents". Returns the length (no NUL is
 * written), or TB_E_ARG (NULL, a bad kind or round, director's key not
 * d's, a round not paired), TB_E_SPACE (cap too small), TB_E_CRYPTO.
 */
int club_dir_write(const Club_Dir *d, int kind, int round,
                   const Club_Standing *st, const Proto_Identity *director,
                   char *out, size_t cap);

/*
 * club_dir_read: read document `kind` (text[0..len), untrusted) into d.
 * The tournament document empties d first and is checked against the
 * director key it names; a pairings document must be round
 * d->npaired + 1 of d's tournament (its id), signed by d's director,
 * and fills that round (d->npaired grows); a results document must be a
 * paired round's, and fills its boards' results and the published
 * standings. Every line is checked for form and bounds: canonical
 * numbers, keys and hashes in lowercase hex, names in their canonical
 * form, ranks and boards in range, each player once a round. A refused
 * document leaves d's tournament as it was (a pairings or results
 * document) or empty (a tournament document). Returns 0, or TB_E_FORMAT
 * (err says the line and why), TB_E_LIMIT (too long, too many lines),
 * TB_E_SIGNATURE (not the director's signature), TB_E_STATE (a pairings
 * document of another tournament or round), TB_E_ARG (NULL, bad kind).
 */
int club_dir_read(Club_Dir *d, int kind, const uint8_t *text, size_t len,
                  Club_Dir_Error *err);

/*
 * club_dir_tourney: the tourney.h tournament of d's first `rounds`
 * rounds into t (emptied first): players by starting rank (named by
 * their display name, else their fingerprint), each paired round's
 * games with their results (a board without a result PENDING, a bye
 * CLUB_RES_BYE_PAIRING; a declared forfeit FORFEIT_WIN and FORFEIT_LOSS,
 * or FORFEIT_LOSS to both), a late entrant's rounds before the entry
 * ABSENT or, with bye_half, BYE_HALF, the withdrawals applied
 * (club_tourney_withdraw). Results map White's and Black's table half
 * points to WIN, WIN_TIEBREAK, DRAW, ... by the game's policy
 * (club_dir_points). Returns 0, TB_E_ARG (NULL, rounds over npaired),
 * TB_E_FORMAT (a result no result of the policy gives).
 */
int club_dir_tourney(const Club_Dir *d, int rounds, Club_Tourney *t);

/* The table points policy of d's game: Chess volleyball's (volleyball,
 * volleyball10) or chess's. */
const Club_Points *club_dir_points(const Club_Dir *d);

/* A finished game as its verified log gives it (club_dir_log_game). */
typedef struct Club_Dir_Log {
    char game[PROTO_NAME_MAX + 1];
    char clock[PROTO_CLOCK_TEXT_MAX]; /* canonical, "" none */
    uint8_t white[PROTO_KEY_BYTES];
    uint8_t black[PROTO_KEY_BYTES];
    unsigned half[2]; /* table half points (core_table_points) */
    uint8_t hash[PROTO_HASH_BYTES]; /* BLAKE2b-256 of the log's bytes */
    unsigned nrelays; /* distinct relays whose receipts it holds (0: none;
                         over 8: relay[] holds the first 8) */
    uint8_t relay[8][PROTO_KEY_BYTES];
} Club_Dir_Log;

/*
 * club_dir_relay_ok: whether text[0..n) names a relay as d->relay holds
 * it: 64 lowercase hex digits, or a fingerprint in its canonical form
 * (Crockford base32 capitals, XXXX-XXXX-XXXX-XXXX). 1 yes, 0 no.
 */
int club_dir_relay_ok(const char *text, size_t n);

/*
 * club_dir_log_relay_ok: whether the log lg was witnessed by d's relay
 * alone (every receipt by d->relay, at least one), or d names no relay
 * (1); 0 otherwise, with *why (why may be NULL) a fixed English phrase
 * ("no relay witnessed it", "a receipt is by another relay than the
 * tournament's"; "" on 1).
 */
int club_dir_log_relay_ok(const Club_Dir *d, const Club_Dir_Log *lg,
                          const char **why);

/*
 * club_dir_lobby_ok: whether text[0..n) is a lobby address a tournament
 * document may hold: 1..CLUB_DIR_LOBBY_MAX bytes of letters, digits,
 * '.', '-', '[', ']', ':' and ',' (nodes of one lobby), each node ending
 * in ':' and a port 1..65535. 1 yes, 0 no. No name is resolved.
 */
int club_dir_lobby_ok(const char *text, size_t n);

/*
 * club_dir_log_game: verify the match log buf[0..len) with
 * proto_log_verify_witnessed (every signature, the chain, every move,
 * the relay's receipts) and take its game, clock, keys and table
 * points. Errors: proto_log_verify_witnessed's, with why (cap bytes, may
 * be NULL) its one-line reason; TB_E_STATE when the log verifies but
 * holds no finished game (why: "the game is not over", "the game was
 * aborted"); TB_E_ARG.
 */
int club_dir_log_game(const uint8_t *buf, size_t len, Club_Dir_Log *out,
                      char *why, size_t cap);

/* club_dir_find: the starting rank of the player with key pk, or 0. */
int club_dir_find(const Club_Dir *d, const uint8_t pk[PROTO_KEY_BYTES]);

/*
 * A line of a relay archive's logs/index.txt (docs/archive.md): "NAME
 * GAME WHITE BLACK STARTED BYTES", NAME the log's name (the match id, 64
 * lowercase hex digits, or that and -2 .. -16 for a later room of one
 * match), GAME a game's name, WHITE and BLACK keys in lowercase hex,
 * STARTED and BYTES decimal, BYTES 1..max_bytes. Hostile input: a reader
 * trusts none of it (each log is verified).
 */
typedef struct Club_Index_Line {
    char match[PROTO_HASH_HEX + 4]; /* the log's name: NAME */
    char game[PROTO_NAME_MAX + 1];
    uint8_t white[PROTO_KEY_BYTES], black[PROTO_KEY_BYTES];
    size_t bytes;
} Club_Index_Line;

/* The largest log an index line may name (bytes): what a reader
 * downloads at most. */
#define CLUB_INDEX_LOG_MAX (16u << 20)

/* club_index_line: the index line p[0..n) (no newline) into *x: NULL, or
 * a fixed English phrase (a msgid) saying what is wrong. */
const char *club_index_line(const char *p, size_t n, size_t max_bytes,
                            Club_Index_Line *x);

#endif /* TABULA_CLUB_DIRECTOR_H */
