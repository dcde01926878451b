/*
 * test_cmd_pool.c: `tabula pool` (issue 37) with real processes on one
 * `tabula lobby` on 127.0.0.1: three players offering overlapping games
 * and clocks are paired exactly as docs/pool.md works it out by hand,
 * the pair plays to the end with equal final hashes (bots) and the third
 * is still waiting, told the counts; one player's second offer is
 * refused while the first waits (one offer a player, so never its own
 * pair); a stranger holding the paired host's code cannot take its guest
 * seat; a waiting offer is made again when its lobby restarts; a bad
 * game or range exits 2 naming what is wrong. Each player
 * has its own identity (XDG_CONFIG_HOME in the test's folder).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "proto.h"

#define PROC_DIR_NAME "pool"
#include "proc_util.h"
#include "pool_steps.h"

static Proc lobby_proc;

static void stop_lobby(void)
{
    if (lobby_proc.pid > 0 && !lobby_proc.exited) {
        int st;
        kill(lobby_proc.pid, SIGKILL);
        waitpid(lobby_proc.pid, &st, 0);
    }
}

TestSuite(pool, .fini = stop_lobby);

static void start_lobby(char *addr, size_t cap)
{
    char *la[] = {"lobby", "--listen", "127.0.0.1:0", NULL};
    start(&lobby_proc, "lobby", NULL, la);
    await_line(&lobby_proc, "listening: ", addr, cap);
}

/* docs/pool.md's worked example (pool_steps.h) on one lobby. */
Test(pool, three_players_pair_as_worked_out_by_hand)
{
    char addr[64];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool_worked_example(addr, addr, addr);
    remove_dir();
}

/* One player, one offer (pool_steps.h): its second offer is refused
 * while the first waits, which then pairs with another player's. */
Test(pool, a_players_second_offer_is_refused_not_paired)
{
    char addr[64];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool_second_offer_refused(addr, addr);
    remove_dir();
}

/* A stranger holding the paired host's invite code is refused the guest
 * seat (the host's CREATE named the paired guest's key), told the game
 * has its second player; the paired pair plays to the end, one hash. */
Test(pool, a_stranger_cannot_take_the_paired_guest_seat)
{
    Proc a, b, s;
    Pool_Env ea, eb, es;
    char addr[64], invite[40];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool_start(&a, "a", "a", &ea, "laska", "5+0", addr);
    await_line(&a, "pool: waiting (laska 1)\n", NULL, 0);
    pool_start(&b, "b", "b", &eb, "laska", "5+0", addr);
    await_line(&a, "invite: ", invite, sizeof invite);
    char *sa[] = {"join", invite, "--lobby", addr, "--bot=1", NULL};
    snprintf(es.env, sizeof es.env, "XDG_CONFIG_HOME=%s/s-config", dir);
    start(&s, "stranger", es.env, sa);
    cr_assert_neq(finish(&s), 0, "%s", slurp(s.out));
    cr_assert(strstr(slurp(s.err), "has its second player already") != NULL,
              "%s", slurp(s.err));
    pool_one_end(&a, &b);
    remove_dir();
}

/* A paired host killed mid-game comes back with the same command (its
 * --log's seat file): "resumed:", no new offer, and the game ends as
 * the guest's, on one final hash. */
Test(pool, a_killed_player_comes_back_with_the_same_command)
{
    Proc a, b;
    Pool_Env ea, eb;
    char addr[64];
    make_dir();
    start_lobby(addr, sizeof addr);
    snprintf(ea.env, sizeof ea.env, "XDG_CONFIG_HOME=%s/a-config", dir);
    snprintf(eb.env, sizeof eb.env, "XDG_CONFIG_HOME=%s/b-config", dir);
    char *aa[] = {"pool",  "laska",   "--clock", "5+0", "--bot=1", "--log",
                  "a.log", "--delay", "40",      "--lobby", addr, NULL};
    char *ba[] = {"pool",  "laska",   "--clock", "5+0", "--bot=1", "--log",
                  "b.log", "--delay", "40",      "--lobby", addr, NULL};
    start(&a, "a", ea.env, aa);
    await_line(&a, "pool: waiting (laska 1)\n", NULL, 0);
    start(&b, "b", eb.env, ba);
    await_line(&a, "pool: paired: host laska 5+0\n", NULL, 0);
    await_line(&a, "\n   2. ", NULL, 0);
    kill(a.pid, SIGKILL);
    finish(&a);
    start(&a, "a", ea.env, aa);
    await_line(&a, "resumed: ", NULL, 0);
    pool_one_end(&a, &b);
    const char *out = slurp(a.out);
    cr_assert_null(strstr(strstr(out, "resumed: "), "pool: waiting"), "%s",
                   out);
    remove_dir();
}

/* A waiting offer outlives its lobby (seat_pool_lost): the lobby is
 * killed and started again on the same address while A waits; A says
 * "pool: connection lost (...); offering again", offers again, is told
 * it waits (laska 1) by the new lobby and pairs there with B: one final
 * hash. Before, A exited "did not take the offer: end of file". */
Test(pool, a_waiting_offer_is_made_again_when_its_lobby_comes_back)
{
    Proc a, b;
    Pool_Env ea, eb;
    char addr[64];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool_start(&a, "a", "a", &ea, "laska", "5+0", addr);
    await_line(&a, "pool: waiting (laska 1)\n", NULL, 0);
    stop_lobby();
    char *la[] = {"lobby", "--listen", addr, NULL};
    start(&lobby_proc, "lobby2", NULL, la);
    await_line(&lobby_proc, "listening: ", NULL, 0);
    await_line(&a, "pool: connection lost (", NULL, 0);
    await_line(&a, "; offering again\npool: waiting (laska 1)\n", NULL, 0);
    pool_start(&b, "b", "b", &eb, "laska", "5+0", addr);
    await_line(&a, "pool: paired: host laska 5+0\n", NULL, 0);
    pool_one_end(&a, &b);
    remove_dir();
}

/* What the player typed wrong, named: an unknown game, a game twice, a
 * range's ends of two kinds, a range written longest first, a range of
 * three ends: exit 2 before any lobby is asked (none listens at the
 * address given). */
Test(pool, bad_games_and_ranges_exit_2_naming_the_fault)
{
    static const struct {
        const char *games, *range, *says;
    } bad[] = {
        {"laska,chess", "5+0", "unknown game 'chess'"},
        {"laska,laska", "5+0", "'laska' is named twice"},
        {"laska", "5+0..5d3", "its two clocks are of two kinds"},
        {"laska", "10+5..3+2", "the first clock is the longer"},
        {"laska", "3+2..5+0..10+5", "expected CLOCK..CLOCK"},
        {"laska", "3+2..99999+0", "the time is 1..1440 minutes"},
    };
    make_dir();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Proc p;
        char *a[] = {"pool",    (char *)bad[i].games, "--clock",
                     (char *)bad[i].range, "--lobby", "127.0.0.1:1", NULL};
        char name[16];
        snprintf(name, sizeof name, "bad%zu", i);
        start(&p, name, NULL, a);
        cr_assert_eq(finish(&p), 2, "%s", bad[i].range);
        cr_assert(strstr(slurp(p.err), bad[i].says) != NULL, "want '%s' in: %s",
                  bad[i].says, slurp(p.err));
    }
    /* a lobby address without its port (cli_lobby_addr, as seeks says) */
    Proc p;
    char *a[] = {"pool", "laska", "--lobby", "127.0.0.1", NULL};
    start(&p, "badaddr", NULL, a);
    cr_assert_eq(finish(&p), 2);
    cr_assert_str_eq(slurp(p.err),
                     "tabula pool: bad lobby address '127.0.0.1': expected "
                     "HOST:PORT with the port, e.g. 127.0.0.1:7470\n");
    remove_dir();
}
