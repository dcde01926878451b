/*
 * pool_steps.h: `tabula pool` players for the process tests of the pool
 * (issue 37): test_cmd_pool.c on one lobby, test_lobby_redis.c across
 * two nodes on Redis, each giving the node of each player. Included
 * after proc_util.h (its Proc, start, await_line, finish, slurp and dir).
 */
#ifndef TABULA_TEST_POOL_STEPS_H
#define TABULA_TEST_POOL_STEPS_H

/* The environment of a pool player: its own identity in the folder. */
typedef struct Pool_Env {
    char env[400];
} Pool_Env;

/* `tabula pool GAMES --clock RANGE --bot=1 --log NAME.log --lobby addr`
 * as player who (its identity who-config in the test's folder; e its
 * environment, kept while it runs). */
static void pool_start(Proc *p, const char *name, const char *who, Pool_Env *e,
                       const char *games, const char *range, const char *addr)
{
    char log[64];
    snprintf(e->env, sizeof e->env, "XDG_CONFIG_HOME=%s/%s-config", dir, who);
    snprintf(log, sizeof log, "%s.log", name);
    char *a[] = {"pool",  (char *)games, "--clock", (char *)range, "--bot=1",
                 "--log", log,           "--lobby", (char *)addr,  NULL};
    start(p, name, e->env, a);
}

/* a and b (their logs a.log and b.log) ended on one final hash, the one
 * recomputed from a.log. */
static void pool_one_end(Proc *a, Proc *b)
{
    char want[PROTO_HASH_HEX], got[PROTO_HASH_HEX + 8];
    cr_assert_eq(finish(a), 0, "%s\n%s", slurp(a->out), slurp(a->err));
    cr_assert_eq(finish(b), 0, "%s\n%s", slurp(b->out), slurp(b->err));
    log_final_hash("a.log", want);
    await_line(a, "final-hash: ", got, sizeof got);
    cr_assert_str_eq(got, want, "%s", a->out);
    await_line(b, "final-hash: ", got, sizeof got);
    cr_assert_str_eq(got, want, "%s", b->out);
}

/* docs/pool.md's worked example: A offers laska and chessball at
 * 3+2..10+5 (260..800 s) on at_a, C laska at 15+10..30+0 (1300..1800 s)
 * on at_c, then B chessball at 5+0 (300 s) on at_b. A is told 1 and 1,
 * C then 2 and 1 (A too, within a second); B pairs with A in chessball
 * at B's 5+0 (300 > 260, in 260..800), A hosting (the older offer): "pool:
 * paired: host chessball 5+0" and "guest chessball 5+0", B told no
 * count first; they play it to the end on one final hash. C shares laska
 * with A alone and 1300..1800 misses 260..800: it waits, told "laska 1"
 * once A's offer left; withdrawn (SIGINT), it says so. */
static void pool_worked_example(const char *at_a, const char *at_c,
                                const char *at_b)
{
    Proc a, b, c;
    Pool_Env ea, eb, ec;
    pool_start(&a, "a", "a", &ea, "laska,chessball", "3+2..10+5", at_a);
    await_line(&a, "pool: waiting (laska 1, chessball 1)\n", NULL, 0);
    pool_start(&c, "c", "c", &ec, "laska", "15+10..30+0", at_c);
    await_line(&c, "pool: waiting (laska 2)\n", NULL, 0);
    await_line(&a, "pool: waiting (laska 2, chessball 1)\n", NULL, 0);
    pool_start(&b, "b", "b", &eb, "chessball", "5+0", at_b);
    await_line(&a, "pool: paired: host chessball 5+0\n", NULL, 0);
    await_line(&b, "pool: paired: guest chessball 5+0\n", NULL, 0);
    cr_assert_null(strstr(slurp(b.out), "pool: waiting"), "%s",
                   slurp(b.out));
    await_line(&a, "match: chessball clock=300+0, you are white", NULL, 0);
    pool_one_end(&a, &b);
    await_line(&c, "pool: waiting (laska 1)\n", NULL, 0);
    cr_assert_null(strstr(slurp(c.out), "paired"), "%s", slurp(c.out));
    kill(c.pid, SIGINT);
    cr_assert_eq(finish(&c), 1, "%s", slurp(c.err));
    cr_assert(strstr(slurp(c.err), "you withdrew your offer") != NULL, "%s",
              slurp(c.err));
}

/* One player, one offer: player a's second offer (on at_2) while its
 * first waits (on at_1), with a range the first accepts, is refused
 * (exit 1, with the reason), so its two offers never pair; the first
 * still waits and pairs with player b's offer (on at_2) afterwards, at
 * b's 10+0 (the larger low end: 600 > 300). */
static void pool_second_offer_refused(const char *at_1, const char *at_2)
{
    Proc a1, a2, b;
    Pool_Env e1, e2, eb;
    pool_start(&a1, "a1", "a", &e1, "laska", "5+0..10+0", at_1);
    await_line(&a1, "pool: waiting (laska 1)\n", NULL, 0);
    pool_start(&a2, "a2", "a", &e2, "laska", "5+0", at_2);
    cr_assert_eq(finish(&a2), 1, "%s", slurp(a2.out));
    cr_assert(strstr(slurp(a2.err), "holds an offer of yours already") != NULL,
              "%s", slurp(a2.err));
    cr_assert_null(strstr(slurp(a1.out), "paired"));
    pool_start(&b, "b", "b", &eb, "laska", "10+0", at_2);
    await_line(&a1, "pool: paired: host laska 10+0\n", NULL, 0);
    await_line(&b, "pool: paired: guest laska 10+0\n", NULL, 0);
    cr_assert_eq(finish(&a1), 0, "%s", slurp(a1.err));
    cr_assert_eq(finish(&b), 0, "%s", slurp(b.err));
}

#endif /* TABULA_TEST_POOL_STEPS_H */
