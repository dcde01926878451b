/*
 * test_sim.c: the deterministic simulation of whole matches (issue 13,
 * sim/ since issue 36), linked with the simulator's layer alone. Each
 * planted session bug (MATCH_PLANT_DUP, SKIP, ACK, CLOCK, and CLAIM and
 * REFUSED under the adversary's lies) is caught on a match whose seed is
 * fixed here, and the same match without the plant
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

static Sim_Report run_lies(const char *game, uint64_t seed, unsigned plant,
                           unsigned lies)
{
    Sim_Config cfg = {core_game_find(game), seed, SIM_FAULTS_ALL, plant, 0,
                      lies, 0};
    Sim_Report rep;
    cr_assert_not_null(cfg.game);
    cr_assert_eq(sim_run(&cfg, &rep), 0);
    free(rep.trace);
    rep.trace = NULL;
    return rep;
}

static Sim_Report run(const char *game, uint64_t seed, unsigned plant)
{
    return run_lies(game, seed, plant, 0);
}

/* The plant is caught on this match, with the adversary's lies, which
 * passes without it. */
static void caught_lying(unsigned plant, uint64_t seed, unsigned lies,
                         const char *expect)
{
    Sim_Report clean = run_lies("laska", seed, 0, lies);
    cr_assert(!clean.failed, "seed %llu fails without the plant: %s",
              (unsigned long long)seed, clean.why);
    Sim_Report bad = run_lies("laska", seed, plant, lies);
    cr_assert(bad.failed, "the plant went unnoticed on seed %llu",
              (unsigned long long)seed);
    cr_assert(strstr(bad.why, expect) != NULL, "caught as: %s", bad.why);
}

static void caught(unsigned plant, uint64_t seed, const char *expect)
{
    caught_lying(plant, seed, 0, expect);
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

/* The adversary (the fair-play issue): a claim of the win that the
 * claim's receipt refutes (the opponent present, or not gone the
 * countdown), taken all the same by the guest and the spectators: they
 * end the game alone by abandonment. (The first seed whose match passes
 * clean with the guest's claims and fails with the plant.) */
Test(sim, plant_claim_caught)
{
    caught_lying(MATCH_PLANT_CLAIM, 4, SIM_LIE_CLAIM, "ends 0-1 (abandon)");
}

/* A desync report of the true state or an abort after both moved, which
 * every reader refuses, taken all the same: a seat ends it aborted.
 * (Found the same way: seed 1, a spectator and the desync report; with
 * the time controls' clocks drawn, seed 1's spectator took an abort;
 * once the cheating client's forgeries said what went out, seed 4's
 * guest took a desync report.) */
Test(sim, plant_refused_caught)
{
    caught_lying(MATCH_PLANT_REFUSED, 4, SIM_LIE_DESYNC | SIM_LIE_ABORT,
                 "ends aborted (");
}

/* Every lie, under every fault, on each game: nothing a liar signs or
 * edits bends a result, and each edit of its log fails to verify. */
Test(sim, the_adversary_wins_nothing)
{
    static const char *const games[] = {"laska", "chessball", "football",
                                        "volleyball"};
    for (size_t g = 0; g < 4; g++)
        for (uint64_t seed = 1; seed <= 5; seed++) {
            Sim_Report r = run_lies(games[g], seed, 0, SIM_LIES_ALL);
            cr_assert(!r.failed, "%s seed %llu: %s", games[g],
                      (unsigned long long)seed, r.why);
        }
    unsigned lies = 0;
    const char *bad = NULL;
    char names[64];
    cr_assert_eq(sim_lies("claim,log", &lies, &bad), 0);
    cr_assert_eq(lies, SIM_LIE_CLAIM | SIM_LIE_LOG);
    sim_lie_names(lies, names, sizeof names);
    cr_assert_str_eq(names, "claim,log");
    cr_assert_eq(sim_lies("flag,lie", &lies, &bad), -1);
    cr_assert_str_eq(bad, "lie");
    cr_assert_eq(sim_lies("all", &lies, &bad), 0);
    cr_assert_eq(lies, SIM_LIES_ALL);
}

/* Found by the adversary's first acceptance run: the guest, resumed from
 * a log cut before the host's fifth move was durable, sent that move
 * again and the relay numbered it twice; a late spectator's catch-up
 * skipped the first numbering, so the second's receipt waited when the
 * first came, was taken, and the spectator ran another clock than the
 * players (a late move lost on time for it alone). The first numbering
 * stands now (match/receive.c, set_receipt). (The seed's match took
 * another course once the time controls' clocks were drawn: it stays as
 * a run that must pass.) */
Test(sim, a_frame_numbered_twice_keeps_its_first_receipt)
{
    Sim_Report r = run_lies("laska", 494, 0, SIM_LIE_CLAIM);
    cr_assert(!r.failed, "%s", r.why);
}

/* Found by the same run: the host, crashed just before the match's end
 * and resumed from its log, caught up to a match over while its bot's
 * think time, set before the crash, was past: the session asked to be
 * woken then, again and again, and the simulation never moved on (the
 * tick takes a think time only while the match is on; match_deadline
 * now asks it only then too; the seed's course changed with the time
 * controls' clocks too). */
Test(sim, a_think_time_past_in_an_ended_match_wakes_no_one)
{
    Sim_Report r = run_lies("volleyball", 826, 0, SIM_LIES_ALL);
    cr_assert(!r.failed, "%s", r.why);
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

/* Correspondence (issue 37): a day a move, each player leaving once its
 * move is with the relay and back 1 to 8 hours later. Four matches of
 * each game under every fault (the relay's restarts keep the rooms, as
 * on Redis) pass every check: same result and final hash everywhere,
 * every log verifying. Most lasted more than a day of simulated time
 * (a random mover also resigns or agrees early), and in each both
 * players were away at once longer than the relay's 10 minutes for an
 * empty room (the room was kept by the seats' KEEP:
 * without it the room, and the game, would be lost). */
Test(sim, a_correspondence_game_outlives_days_with_nobody_in_the_room)
{
    static const char *const games[] = {"laska", "chessball", "football",
                                        "volleyball"};
    int days = 0;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            Sim_Config cfg = {core_game_find(games[g]), seed,
                              SIM_FAULTS_ALL, 0, 0, 0, 1};
            Sim_Report rep;
            cr_assert_eq(sim_run(&cfg, &rep), 0);
            free(rep.trace);
            cr_assert(!rep.failed, "%s seed %llu: %s", games[g],
                      (unsigned long long)seed, rep.why);
            cr_assert_gt(rep.both_away_ms, 600000ull, "%s seed %llu",
                         games[g], (unsigned long long)seed);
            if (rep.sim_ms > 86400000ull)
                days++;
        }
    cr_assert_geq(days, 8, "only %d of 16 matches lasted a day", days);
}
