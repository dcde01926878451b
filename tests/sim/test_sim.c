/*
 * test_sim.c: the deterministic simulation of whole matches (issue 13,
 * sim/ since issue 36), linked with the simulator's layer alone. Each
 * planted session bug (MATCH_PLANT_DUP, SKIP, ACK, CLOCK) is caught on a
 * match whose seed is fixed here, and the same match without the plant
 * passes, so the catch is the plant's; a seed gives the same match twice.
 * `tabula simtest`'s output contract: tests/client/test_simtest.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "sim.h"

static void setup(void)
{
    cr_assert_eq(proto_init(), 0);
}

TestSuite(sim, .init = setup);

static Sim_Report run(const char *game, uint64_t seed, unsigned plant)
{
    Sim_Config cfg = {core_game_find(game), seed, SIM_FAULTS_ALL, plant, 0};
    Sim_Report rep;
    cr_assert_not_null(cfg.game);
    cr_assert_eq(sim_run(&cfg, &rep), 0);
    free(rep.trace);
    rep.trace = NULL;
    return rep;
}

/* The plant is caught on this match, which passes without it. */
static void caught(unsigned plant, uint64_t seed, const char *expect)
{
    Sim_Report clean = run("laska", seed, 0);
    cr_assert(!clean.failed, "seed %llu fails without the plant: %s",
              (unsigned long long)seed, clean.why);
    Sim_Report bad = run("laska", seed, plant);
    cr_assert(bad.failed, "the plant went unnoticed on seed %llu",
              (unsigned long long)seed);
    cr_assert(strstr(bad.why, expect) != NULL, "caught as: %s", bad.why);
}

/* A frame delivered twice is logged and shown twice: the log's chain
 * breaks. (Seeds moved when the corrected side began to adopt the
 * corrector's view of its clock, G-MC-6: clocked matches took other
 * courses; dup from 1 to 2, ack from 1 to 14. When the simulator began
 * to wait between reconnects as the terminal and the page do, by the seat
 * layer's policy instead of a random draw, every match took another
 * course: skip from 30 to 1, ack from 14 to 51, clock from 10 to 91,
 * each the first seed whose match passes clean and the plant fails as
 * described; dup stayed at 2. When the simulator's actors became the seat
 * layer's Seat, speaking the lobby's bytes to a relay that refuses a code
 * it has no room for, the matches took other courses again: dup 1, skip
 * 8, ack 35, clock 58, found the same way. When the relay became the
 * lobby's own rooms (lobby/room.h) instead of a model, with hellos that
 * travel and a sweep every 250 ms: dup 1, skip 1, ack 3, clock 16. When
 * the session began to say that a line waits for the player's turn (one
 * more output, so crashes between outputs fall elsewhere): ack 14. When
 * the relay began to send a quiet member a BEAT each second and a seat to
 * leave a relay silent for 3 s (the relay-limits issue): dup 1, skip 15,
 * ack 27, clock 126. When a seat began to tell the relay DONE at its
 * game's end: skip 1. When the relay began to witness time (receipts,
 * the fair-play issue) and a seat to send nothing more before its last
 * envelope's receipt: dup 4, skip 2, ack 57, clock 1.) */
Test(sim, plant_dup_caught)
{
    caught(MATCH_PLANT_DUP, 4, "log does not verify");
}

/* A gap in the lobby's numbers taken as none: the frame never comes and
 * the match stalls. (Seed 4 became 30 when bot seats began to claim
 * against an absent opponent, G-MC-9: seed 4's stall had been a bot
 * waiting for good on an opponent that never came back, which clean
 * seeds 5 and 28 also did; seed 30 stalls on the lost frame itself.) */
Test(sim, plant_skip_caught)
{
    caught(MATCH_PLANT_SKIP, 2, "deadlock");
}

/* Acknowledged before logged: a crash in between loses a frame for good
 * and the seats part ways: here the seat that lost it waits for ever. */
Test(sim, plant_ack_caught)
{
    caught(MATCH_PLANT_ACK, 57, "deadlock");
}

/* A forged flag claim taken though the relay's receipts refute it: that
 * seat ends the game alone, on time. (Seed 1 became 19 when the
 * simulator began to draw the other clocks too, G-MC-10: seed 1's match
 * drew days a move, whose absence countdown of a day outlasts the
 * simulator's 4 hours, so the host left alone waited on; 19 is the first
 * seed whose match passes clean and the plant fails as described.) */
Test(sim, plant_clock_caught)
{
    caught(MATCH_PLANT_CLOCK, 19, "ends 0-1 (time)");
}

Test(sim, same_seed_same_match)
{
    Sim_Report a = run("volleyball", 42, 0), b = run("volleyball", 42, 0);
    cr_assert(!a.failed, "%s", a.why);
    cr_assert_eq(a.plies, b.plies);
    cr_assert_eq(a.faults, b.faults);
    cr_assert_eq(a.envelopes, b.envelopes);
    cr_assert_eq(a.sim_ms, b.sim_ms);
    cr_assert_eq(a.status.outcome, b.status.outcome);
    cr_assert_gt(a.faults, 0, "faults were injected");
}

Test(sim, fault_names_round_trip)
{
    unsigned bits = 0;
    const char *bad = NULL;
    char names[128];
    cr_assert_eq(sim_faults("drop,crash,cheat", &bits, &bad), 0);
    cr_assert_eq(bits, SIM_FAULT_DROP | SIM_FAULT_CRASH | SIM_FAULT_CHEAT);
    sim_fault_names(bits, names, sizeof names);
    cr_assert_str_eq(names, "drop,crash,cheat");
    cr_assert_eq(sim_faults("drop,bogus", &bits, &bad), -1);
    cr_assert_str_eq(bad, "bogus");
    cr_assert_eq(sim_faults("all", &bits, &bad), 0);
    cr_assert_eq(bits, SIM_FAULTS_ALL);
}
