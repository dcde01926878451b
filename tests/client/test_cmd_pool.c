/*
 * test_cmd_pool.c: `tabula pool` (issue 37) with real processes on one
 * `tabula lobby` on 127.0.0.1: three players offering overlapping games
 * and clocks are paired exactly as docs/pool.md works it out by hand,
 * the pair plays to the end with equal final hashes (bots) and the third
 * is still waiting, told the counts; one player's second offer is
 * refused while the first waits (one offer a player, so never its own
 * pair); a stranger holding the paired host's code cannot take its guest
 * seat; a bad game or range exits 2 naming what is wrong. Each player
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

/* The environment of player name: its own identity in the folder. */
static const char *player_env(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "XDG_CONFIG_HOME=%s/%s-config", dir, name);
    return buf;
}

/* `tabula pool GAMES --clock RANGE --bot=1 --log NAME.log --lobby addr`
 * as player name. */
static void pool(Proc *p, const char *name, const char *who, char *env,
                 size_t env_cap, const char *games, const char *range,
                 const char *addr)
{
    char log[64];
    snprintf(log, sizeof log, "%s.log", name);
    char *a[] = {"pool",   (char *)games, "--clock", (char *)range, "--bot=1",
                 "--log",  log,           "--lobby", (char *)addr,  NULL};
    start(p, name, player_env(env, env_cap, who), a);
}

/* p's final hash, which must equal the one recomputed from log. */
static void final_hash_of(Proc *p, const char *log, char *hex)
{
    char got[PROTO_HASH_HEX + 8];
    cr_assert_eq(finish(p), 0, "%s\n%s", slurp(p->out), slurp(p->err));
    await_line(p, "final-hash: ", got, sizeof got);
    log_final_hash(log, hex);
    cr_assert_str_eq(got, hex, "%s", p->out);
}

/* a and b (their logs a.log and b.log) ended on one final hash. */
static void one_end(Proc *a, Proc *b)
{
    char ha[PROTO_HASH_HEX], hb[PROTO_HASH_HEX];
    final_hash_of(a, "a.log", ha);
    final_hash_of(b, "b.log", hb);
    cr_assert_str_eq(ha, hb);
}

/* docs/pool.md's worked example through the terminal: A offers laska
 * and chessball at 3+2..10+5 (260..800 s), C laska at 15+10..30+0
 * (1300..1800 s), B chessball at 5+0 (300 s). A is told 1 and 1, C
 * then 2 and 1 (A too, within a second); B pairs with A in chessball
 * at B's 5+0 (300 > 260, in 260..800), A hosting (the older offer):
 * "pool: paired: host chessball 300+0" and "guest chessball 300+0"; they
 * play it to the end on one final hash, recomputed from A's log. C shares
 * laska with A alone, and 1300..1800 misses 260..800: it waits, told
 * "laska 1" once A's offer left; withdrawn (SIGINT), it says so. */
Test(pool, three_players_pair_as_worked_out_by_hand)
{
    Proc a, b, c;
    char addr[64], ea[400], eb[400], ec[400];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool(&a, "a", "a", ea, sizeof ea, "laska,chessball", "3+2..10+5", addr);
    await_line(&a, "pool: waiting (laska 1, chessball 1)\n", NULL, 0);
    pool(&c, "c", "c", ec, sizeof ec, "laska", "15+10..30+0", addr);
    await_line(&c, "pool: waiting (laska 2)\n", NULL, 0);
    await_line(&a, "pool: waiting (laska 2, chessball 1)\n", NULL, 0);
    pool(&b, "b", "b", eb, sizeof eb, "chessball", "5+0", addr);
    await_line(&a, "pool: paired: host chessball 300+0\n", NULL, 0);
    await_line(&b, "pool: paired: guest chessball 300+0\n", NULL, 0);
    cr_assert_null(strstr(slurp(b.out), "pool: waiting"), "%s",
                   slurp(b.out));
    await_line(&a, "match: chessball clock=300+0, you are white", NULL, 0);
    one_end(&a, &b);
    await_line(&c, "pool: waiting (laska 1)\n", NULL, 0);
    cr_assert_null(strstr(slurp(c.out), "paired"), "%s", slurp(c.out));
    kill(c.pid, SIGINT);
    cr_assert_eq(finish(&c), 1, "%s", slurp(c.err));
    cr_assert(strstr(slurp(c.err), "you withdrew your offer") != NULL, "%s",
              slurp(c.err));
    remove_dir();
}

/* One player, one offer: the same player (one identity) offering again
 * while its first offer waits, with a range the first accepts, is
 * refused (exit 1, with the reason), so its two offers never pair; the
 * first still waits, counted once ("laska 1"), and pairs with another
 * player's offer afterwards. */
Test(pool, a_players_second_offer_is_refused_not_paired)
{
    Proc a1, a2, b;
    char addr[64], e1[400], e2[400], eb[400];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool(&a1, "a1", "a", e1, sizeof e1, "laska", "5+0..10+0", addr);
    await_line(&a1, "pool: waiting (laska 1)\n", NULL, 0);
    pool(&a2, "a2", "a", e2, sizeof e2, "laska", "5+0", addr);
    cr_assert_eq(finish(&a2), 1, "%s", slurp(a2.out));
    cr_assert(strstr(slurp(a2.err), "holds an offer of yours already") != NULL,
              "%s", slurp(a2.err));
    cr_assert_null(strstr(slurp(a1.out), "paired"));
    pool(&b, "b", "b", eb, sizeof eb, "laska", "10+0", addr);
    await_line(&a1, "pool: paired: host laska 600+0\n", NULL, 0);
    await_line(&b, "pool: paired: guest laska 600+0\n", NULL, 0);
    cr_assert_eq(finish(&a1), 0, "%s", slurp(a1.err));
    cr_assert_eq(finish(&b), 0, "%s", slurp(b.err));
    remove_dir();
}

/* A stranger holding the paired host's invite code is refused the guest
 * seat (the host's CREATE named the paired guest's key), told the game
 * has its second player; the paired pair plays to the end, one hash. */
Test(pool, a_stranger_cannot_take_the_paired_guest_seat)
{
    Proc a, b, s;
    char addr[64], ea[400], eb[400], es[400], invite[40];
    make_dir();
    start_lobby(addr, sizeof addr);
    pool(&a, "a", "a", ea, sizeof ea, "laska", "5+0", addr);
    await_line(&a, "pool: waiting (laska 1)\n", NULL, 0);
    pool(&b, "b", "b", eb, sizeof eb, "laska", "5+0", addr);
    await_line(&a, "invite: ", invite, sizeof invite);
    char *sa[] = {"join", invite, "--lobby", addr, "--bot=1", NULL};
    start(&s, "stranger", player_env(es, sizeof es, "s"), sa);
    cr_assert_neq(finish(&s), 0, "%s", slurp(s.out));
    cr_assert(strstr(slurp(s.err), "has its second player already") != NULL,
              "%s", slurp(s.err));
    one_end(&a, &b);
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
    remove_dir();
}
