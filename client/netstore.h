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
    int own_lobby; /* lobby was the host's own (embedded): a restarted
                      host binds it again rather than reach it */
    /* Not kept: 1 when the caller gave a new seat's id (and a host's
     * invite) already (a seat the pool paired: its offer's card named
     * them), so netstore_seat_take keeps them instead of making new. */
    int given;
} Netstore_Seat;

/*
 * netstore_seat_save: write log_path.seat (through a temporary file,
 * fsynced and renamed). Errors: TB_E_SPACE (path too long), TB_E_IO.
 */
int netstore_seat_save(const char *log_path, const Netstore_Seat *seat);

/*
 * netstore_seat_take: the identity and codes of a seat of role at lobby
 * (the address list as typed) into *st: with a log_path ("" for none)
 * whose seat file exists, the one kept there (its game wins; game, when
 * not NULL, must be the same, and a guest's code must be the seat's);
 * else a new key and seat secret (st->game and st->options as the caller
 * set them; with st->given, st->id and a host's st->invite too), a
 * host's new codes, a guest's or spectator's from code as typed. A host
 * with no log_path but a store_dir gets the log store_dir/host-INVITE.log
 * (written into log_path, log_cap bytes). A host or guest with a log_path
 * has its seat file written. 1 the seat was taken back, 0 it is new, or an error with why in the player's
 * language: TB_E_STATE (a seat file of another match, or a log with no
 * seat file that a new match would overwrite), TB_E_CODE (code is not
 * one), those of netstore_seat_load, netstore_seat_save (TB_E_IO),
 * proto_identity_generate and lobby_code_new.
 */
int netstore_seat_take(char *log_path, size_t log_cap, const char *store_dir,
                       Lobby_Role role, const Core_Game *game,
                       const char *code, const char *lobby, Netstore_Seat *st,
                       char *why, size_t why_cap);

/*
 * netstore_dir: the folder where a seat without --log keeps its files, so
 * it can come back (issue 39): $XDG_DATA_HOME/tabula/seats, else
 * ~/.local/share/tabula/seats, made (mode 0700) when missing, into buf.
 * Errors: TB_E_IO (no absolute XDG_DATA_HOME or HOME, it cannot be made,
 * or it is not a folder of this user's that only the user can write: a
 * symbolic link, another owner's, group- or world-writable), TB_E_SPACE
 * (buf too small).
 */
int netstore_dir(char *buf, size_t cap);

/*
 * netstore_lock: take log_path's lock (the file PATH.lock, flock) for as
 * long as this process runs, so two processes never run one seat; *fd
 * gets the descriptor that holds it. Errors: TB_E_STATE (another process
 * holds it), TB_E_IO, TB_E_SPACE.
 */
int netstore_lock(const char *log_path, int *fd);

/*
 * netstore_retire: the game of a seat kept in netstore_dir is over: its
 * seat, resume and lock files go, so the same command joins anew (and is
 * told the game is over), and its log is kept as PATH with ".log"
 * replaced by ".done.log" (".done-2.log", ... when an earlier game of the
 * same code left one), whose path goes into out. Errors: TB_E_IO (the
 * log could not be moved; out then holds log_path), TB_E_SPACE.
 */
int netstore_retire(const char *log_path, char *out, size_t cap);

/* netstore_discard: remove a seat's files in netstore_dir whose match
 * never started (log_path and its seat, resume and lock files). */
void netstore_discard(const char *log_path);

/*
 * netstore_resume: replay the match log at log_path, when it exists, into
 * the fresh session m (match_resume, with the resume point last_seq and
 * numbered of FILE.seq), and let the turn in progress go on for the time
 * the seat was away (G-MC-6: turn_at the wall time FILE.seq kept, now the
 * wall time, ms; clock_now the session's clock, cli_now's ms, for
 * match_resume_turn). Errors with why (the player's language): TB_E_IO and
 * the errors of proto_read_file and match_resume.
 */
int netstore_resume(Match *m, const char *log_path, uint64_t last_seq,
                    uint32_t numbered, uint64_t turn_at, uint64_t now,
                    uint64_t clock_now, char *why, size_t why_cap);

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
    int turn_kept;      /* turn_start was kept (netstore_keep_turn) */
    int64_t turn_start; /* and began then, on the session's clock */
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


/*
 * netstore_keep_turn: keep in FILE.seq the wall time at which the turn in
 * progress of m began, when the session's start of it moved (a move, a
 * takeback, a resume); now is the session's clock and wall the Unix time
 * (ms), read at the same moment. 0 also when there is nothing to keep;
 * errors of netstore_seq_turn (TB_E_IO).
 */
int netstore_keep_turn(Netstore_Seq *q, const Match *m, uint64_t now,
                       uint64_t wall);

/*
 * netstore_forget: the seat of log_path was never let into its game (a
 * wrong code, no lobby there): remove log_path.seat, log_path.seq (q
 * closed first) and log_path.lock (the caller, ending, may still hold
 * it), so the same command run again is a new join, not a seat taken
 * back, and nothing of it is left. "" does nothing.
 */
void netstore_forget(const char *log_path, Netstore_Seq *q);

/* netstore_seq_close: close the descriptor (when open). */
void netstore_seq_close(Netstore_Seq *q);

/*
 * netstore_log_open: (re)create the match log at path with m's header
 * and the first count envelopes m holds, with the first `witnessed`
 * receipts (MATCH_OUT_LOG_OPEN's count and seq; match_log_fill): written
 * to path.tmp, then renamed over path, so a crash leaves the old log or
 * the new one. An open *log is closed first. Errors: TB_E_IO, TB_E_STATE
 * (no match start held), those of proto_log_create and
 * proto_log_append_record (then *log is NULL).
 */
int netstore_log_open(Proto_Log **log, const char *path, const Match *m,
                      uint32_t count, uint64_t witnessed);

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
