/*
 * netgame_internal.h: what the files of the network seat's driver share
 * (netgame.h): netgame.c drives a seat (the connection, the timer, the
 * seat's outputs, a typed line); netgame_new.c makes one (identity and
 * codes, its files, the session's configuration) and frees it;
 * netgame_view.c answers what a front end reads. Never included from another folder's file.
 */
#ifndef TABULA_NETGAME_INTERNAL_H
#define TABULA_NETGAME_INTERNAL_H

#include "netbot.h"
#include "netgame.h"
#include "netstore.h"
#include "seat.h"

struct Netgame {
    uv_loop_t *loop;
    Netgame_Config cfg;
    Netgame_Hooks hooks;
    void *user;
    char lobby[LOBBY_ADDR_LIST_MAX];
    char label[16];
    char log_path[512];
    Netstore_Seat seat;
    struct sockaddr_storage nodes[SEAT_NODES_MAX];
    size_t nnodes;
    Seat *st;
    Match *m;       /* the seat's session */
    Net_Conn *conn; /* the connection to the relay, NULL between */
    Proto_Log *log;
    Netstore_Seq seq;
    uv_timer_t tick_timer;
    int timers_open, closing; /* handles and searches to wait for */
    Netbot *bot;              /* the bot's search, made at its first turn */
    uint64_t bot_want;        /* the latest THINK token not yet searched */
    int freed;                /* netgame_free ran while handles closed */
    int room_printed, done;
    int resumed; /* taken back from its seat file */
    int stored;  /* its files are in netstore_dir, not a --log the user
                    named: retired when the game ends */
    int lock_fd; /* holds log_path's lock (netstore_lock), or -1 */
    int lost_said; /* "connection lost" said, "reconnected" not yet */
    int seek_listed; /* the seek was listed once (tabula seek) */
    Netgame_Result result;
};

/* cli_now() in ms: the one steady clock of the seat. */
uint64_t netgame__now_ms(void);
/* Unix time in ms: only for the turn start kept in FILE.seq, which must
 * outlive the process (cli_now's monotonic clock does not). */
uint64_t netgame__wall_ms(void);
/* A line for the player (cfg.out, and the on_note hook). */
void netgame__say(Netgame *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A warning (stderr, or the on_note hook). */
void netgame__warn(Netgame *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Carry out the seat's outputs, then wait for its next deadline. */
void netgame__dispatch(Netgame *g);
/* Close the connection to the relay, if one is open. */
void netgame__conn_close(Netgame *g);

#endif /* TABULA_NETGAME_INTERNAL_H */
