/*
 * netstore.h: what a network seat keeps on disk beside its match log:
 * the seat file (key, seat secret, codes, game; mode 0600) that lets a
 * restarted process take its seat back, the FILE.seq resume point (the
 * lobby sequence number the session made durable), and the desync
 * report. client/netgame.c calls these; match/ never touches a file.
 */
#ifndef TABULA_NETSTORE_H
#define TABULA_NETSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "lobby.h"
#include "match.h"

/* The seat data kept in LOG.seat. */
typedef struct Netstore_Seat {
    Lobby_Role role;
    Proto_Identity id;
    uint8_t seat_secret[LOBBY_SEAT_SECRET_BYTES];
    Lobby_Code invite, watch; /* all zero when unknown */
    const Core_Game *game;
    char options[PROTO_OPTIONS_MAX + 1];
    char lobby[LOBBY_ADDR_LIST_MAX];
} Netstore_Seat;

/*
 * netstore_seat_save: write log_path.seat (through a temporary file,
 * fsynced and renamed). Errors: TB_E_SPACE (path too long), TB_E_IO.
 */
int netstore_seat_save(const char *log_path, const Netstore_Seat *seat);

/*
 * netstore_seat_load: read log_path.seat into seat (fields it lacks stay
 * as they are): 1 loaded, 0 no such file, or an error (TB_E_FORMAT with a
 * reason in why, TB_E_IO, TB_E_SPACE).
 */
int netstore_seat_load(const char *log_path, Netstore_Seat *seat, char *why,
                       size_t why_cap);

/* The FILE.seq resume point (MATCH_OUT_SEQ): the lobby sequence number
 * and the count of envelopes the room had numbered, on the first line
 * (32 bytes); on a second line (21 bytes at offset 32) the wall time,
 * Unix ms, at which the turn in progress began (G-MC-6), absent in the
 * files of older versions. */
typedef struct Netstore_Seq {
    int fd; /* -1: none */
    uint64_t saved;
    uint32_t numbered;
    uint64_t turn_at; /* Unix ms; 0 unknown */
} Netstore_Seq;

/* netstore_seq_open: open (create) log_path.seq; *last and *numbered get
 * its numbers (0 when new or unreadable), q->turn_at the kept turn start
 * (0 when none or unreadable). fd -1 when it cannot be opened. */
void netstore_seq_open(Netstore_Seq *q, const char *log_path, uint64_t *last,
                       uint32_t *numbered);

/* netstore_seq_save: rewrite both numbers in place with one pwrite (no
 * fsync: stale numbers only ask the lobby for more frames, dropped as
 * duplicates). Errors: TB_E_IO. */
int netstore_seq_save(Netstore_Seq *q, uint64_t seq, uint32_t numbered);

/* netstore_seq_turn: keep turn_at (Unix ms at which the turn in
 * progress began) on the file's second line, one pwrite, no fsync (a
 * stale time only misjudges the resumed turn). Errors: TB_E_IO. */
int netstore_seq_turn(Netstore_Seq *q, uint64_t turn_at);

/* netstore_turn_elapsed: ms a turn that began at turn_at (Unix ms; 0
 * unknown) has run at wall time now (Unix ms): 0 when unknown or in the
 * future, at most MATCH_RESUME_TURN_MAX_MS. */
uint64_t netstore_turn_elapsed(uint64_t turn_at, uint64_t now);

/* netstore_seq_close: close the descriptor (when open). */
void netstore_seq_close(Netstore_Seq *q);

/*
 * netstore_log_open: (re)create the match log at path with the match
 * start's header and the first count envelopes m holds: written to
 * path.tmp, then renamed over path, so a crash leaves the old log or the
 * new one. An open *log is closed first. Errors: TB_E_IO, those of
 * proto_log_create and proto_log_append_envelope (then *log is NULL).
 */
int netstore_log_open(Proto_Log **log, const char *path, const Match *m,
                      uint32_t count);

/* netstore_log_append: append one envelope (no prefix) as a frame
 * (proto_log_append_envelope); a NULL log takes nothing. Errors:
 * TB_E_LIMIT (over PROTO_FRAME_MAX bytes), TB_E_ARG (empty), TB_E_NOMEM,
 * TB_E_IO. */
int netstore_log_append(Proto_Log *log, const uint8_t *env, size_t len);

/*
 * netstore_report: write the desync report of m (ply, both hashes, both
 * states, the moves): LOG.desync with a log, else
 * tabula-desync-MATCH-ROLE.txt in the working directory; path (cap bytes)
 * gets its name. Errors: TB_E_IO, TB_E_NOMEM.
 */
int netstore_report(const Match *m, Lobby_Role role, const char *log_path,
                    char *path, size_t cap);

#endif /* TABULA_NETSTORE_H */
