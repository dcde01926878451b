/*
 * sim.h: the simulator (issue 13; sim/ since issue 36): one whole network
 * match in one process, for `tabula simtest` (client/cmd_simtest.c) and its
 * tests: a host, a guest and one to three spectators, each a seat of the
 * seat layer (seat/seat.h) with its match log in memory, joined by a
 * model of the lobby relay that speaks the lobby's bytes (sequence
 * numbers, kept frames, catch-up, presence, refusals, restarts), all
 * driven by one seeded scheduler with simulated time and faults drawn
 * from the seed. Players are bots or random movers that also use every
 * conduct command at random. After the match the checks run: the game
 * ended in bounded simulated time, every seat and spectator holds the
 * same result and final hash, every log verifies as `tabula replay`
 * verifies it, no ply was lost or applied twice, no desync was reported.
 * The same seed gives the same match, event for event.
 */
#ifndef TABULA_SIM_H
#define TABULA_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* Faults (bits of Sim_Config.faults); SIM_FAULTS_ALL is the default. */
#define SIM_FAULT_DROP 1u /* connections dropped and re-opened */
#define SIM_FAULT_DELAY                                                        \
    2u /* message delays, reordering across                                    \
          reconnects (order kept per connection) */
#define SIM_FAULT_CRASH                                                        \
    4u                       /* a peer crashes between two outputs and         \
                                resumes from what it made durable */
#define SIM_FAULT_RESTART 8u /* the relay restarts, losing its frames */
#define SIM_FAULT_DUP 16u    /* catch-up delivers frames twice */
#define SIM_FAULT_SKEW 32u   /* the peers' clocks run at other rates */
#define SIM_FAULT_LATE 64u   /* spectators join at any ply */
#define SIM_FAULT_GAP 128u   /* the relay's catch-up skips a frame */
#define SIM_FAULT_CHEAT 256u /* a forged early flag claim is relayed */
#define SIM_FAULTS_ALL 511u

/* Parse "drop,crash,..." or "all" or "none" into bits; -1 when a name is
 * unknown (*bad gets it). */
int sim_faults(const char *list, unsigned *out, const char **bad);
/* The fault names, comma separated, of bits (into buf). */
void sim_fault_names(unsigned bits, char *buf, size_t cap);

/* The adversary's lies (bits of Sim_Config.lies; the fair-play issue):
 * a cheating player tells them at times drawn from the seed, under the
 * faults, and the checks hold all the same. */
#define SIM_LIE_FLAG 1u   /* a flag claim the receipts refute (as the
                             cheat fault) */
#define SIM_LIE_CLAIM 2u  /* a claim of the win against a present
                             opponent */
#define SIM_LIE_DESYNC 4u /* a desync report of the true state, which
                             its own client would not send */
#define SIM_LIE_ABORT 8u  /* an abort after both sides moved */
#define SIM_LIE_LOG 16u   /* its log edited: a receipt moved by 1 ms, a
                             receipt replayed, the room named another */
#define SIM_LIES_ALL 31u

/* Parse "flag,claim,..." or "all" or "none" into SIM_LIE_* bits; -1
 * when a name is unknown (*bad gets it). */
int sim_lies(const char *list, unsigned *out, const char **bad);
/* The lie names, comma separated, of bits (into buf). */
void sim_lie_names(unsigned bits, char *buf, size_t cap);

typedef struct Sim_Config {
    const Core_Game *game;
    uint64_t seed;   /* the match's seed: everything follows from it */
    unsigned faults; /* SIM_FAULT_* */
    unsigned plant;  /* MATCH_PLANT_* bits, planted in the guest and the
                        spectators (the host stays right) */
    int trace;       /* keep the event trace (for a failure report) */
    unsigned lies;   /* SIM_LIE_*, told by the guest (0: none; the cheat
                        fault's forged flags aside) */
    int correspondence; /* issue 37: a days-a-move clock (1day); each
                           player leaves once its move is with the relay
                           and comes back SIM_AWAY_MIN_MS..SIM_AWAY_MAX_MS
                           later, so both are often away at once, for
                           hours, over simulated days; the mover resigns
                           from ply SIM_CORR_PLIES on; one spectator;
                           faults every 10 min to 3 h */
} Sim_Config;

/* Correspondence (Sim_Config.correspondence): a player is away 1 to 8
 * hours between its visits; the match ends by ply 12 or so; it must end
 * within 30 simulated days. */
#define SIM_AWAY_MIN_MS (3600ull * 1000)
#define SIM_AWAY_MAX_MS (8ull * 3600 * 1000)
#define SIM_CORR_PLIES 12u
#define SIM_CORR_LIMIT_MS (30ull * 86400 * 1000)

typedef struct Sim_Report {
    int failed;
    char why[512];   /* the failed check */
    uint32_t faults; /* faults injected */
    uint32_t plies;  /* plies on the final board */
    uint32_t envelopes;
    uint64_t sim_ms; /* simulated time the match took */
    uint64_t both_away_ms; /* correspondence: the longest time both
                              players were away at once */
    Core_Status status;
    char *trace; /* with cfg.trace: the event trace (free()) */
} Sim_Report;

/*
 * sim_run: play one match. Returns 0 when it ran (rep->failed says
 * whether a check failed), or TB_E_NOMEM.
 */
int sim_run(const Sim_Config *cfg, Sim_Report *rep);

#endif /* TABULA_SIM_H */
