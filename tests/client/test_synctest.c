/*
 * test_synctest.c: `tabula synctest` as users and CI run it (issue 8):
 * clean runs over every compiled-in game pass with a reproducible digest,
 * and every nondeterminism planted through the test-only switch
 * TABULA_SYNCTEST_PLANT is caught by the check it targets, with the game,
 * the ply, both states and a rerun line in the report. Runs the real
 * binary.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core.h"

typedef struct Synctest_Run {
    int status;
    char out[1 << 17];
    char err[8192];
} Synctest_Run;

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f != NULL) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

/* `ENV tabula synctest ARGS` (both already shell-quoted; ENV may be ""). */
static Synctest_Run *synctest(const char *env, const char *args)
{
    static Synctest_Run r;
    char out[] = "/tmp/tabula-sync-outXXXXXX";
    char err[] = "/tmp/tabula-sync-errXXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    char cmd[4096];

    cr_assert(fo >= 0 && fe >= 0);
    snprintf(cmd, sizeof cmd,
             "env -u TABULA_SYNCTEST_PLANT %s %s synctest %s >%s 2>%s "
             "</dev/null",
             env, TABULA_BINARY, args, out, err);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit normally", cmd);
    r.status = WEXITSTATUS(st);
    slurp(out, r.out, sizeof r.out);
    slurp(err, r.err, sizeof r.err);
    remove(out);
    remove(err);
    return &r;
}

/* The digest printed for game name, or "" (static buffer). */
static const char *digest_of(const char *out, const char *name)
{
    static char d[17];
    char key[64];
    snprintf(key, sizeof key, "%s: ", name);
    const char *line = strstr(out, key);
    d[0] = '\0';
    if (line != NULL) {
        const char *p = strstr(line, "digest ");
        if (p != NULL && sscanf(p, "digest %16s", d) != 1)
            d[0] = '\0';
    }
    return d;
}

Test(synctest, every_compiled_in_game_passes)
{
    Synctest_Run *r = synctest("", "--games 20 --seed 7");
    cr_assert_eq(r->status, 0, "%s\n%s", r->out, r->err);
    for (size_t i = 0; i < core_game_count(); i++) {
        const char *name = core_game_name(core_game_at(i));
        char want[80];
        snprintf(want, sizeof want, "%s: 20 games, ", name);
        cr_assert_not_null(strstr(r->out, want), "no line for %s:\n%s", name,
                           r->out);
    }
    cr_assert_not_null(strstr(r->out, "0 failures"), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "\nsynctest: ok\n"), "%s", r->out);
}

Test(synctest, same_seed_same_digest_other_seed_other_digest)
{
    char d1[17], d2[17];
    Synctest_Run *r = synctest("", "laska --games 10 --seed 3");
    cr_assert_eq(r->status, 0, "%s", r->out);
    snprintf(d1, sizeof d1, "%s", digest_of(r->out, "laska"));
    cr_assert_eq(strlen(d1), 16, "%s", r->out);
    r = synctest("", "laska --games 10 --seed 3 --perft 0");
    cr_assert_str_eq(digest_of(r->out, "laska"), d1);
    r = synctest("", "laska --games 10 --seed 4");
    snprintf(d2, sizeof d2, "%s", digest_of(r->out, "laska"));
    cr_assert_eq(strlen(d2), 16);
    cr_assert_str_neq(d1, d2);
}

Test(synctest, ply_limit_stops_games_unfinished)
{
    Synctest_Run *r = synctest("", "laska --games 3 --plies 5");
    cr_assert_eq(r->status, 0, "%s", r->out);
    cr_assert_not_null(strstr(r->out, "laska: 3 games, 15 plies, 0 failures; "
                                      "1-0 0, 0-1 0, 1/2-1/2 0, ply limit 3;"),
                       "%s", r->out);
}

/* Each planted fault must be reported by the check it targets, with
 * both states, and exit 1. */
static void expect_caught(const char *plant, const char *check,
                          const char *second_state)
{
    char env[64], want[64];
    snprintf(env, sizeof env, "TABULA_SYNCTEST_PLANT=%s", plant);
    Synctest_Run *r = synctest(env, "laska --games 50");
    cr_assert_eq(r->status, 1, "plant %s: status %d\n%s\n%s", plant, r->status,
                 r->out, r->err);
    snprintf(want, sizeof want, "synctest: FAILED %s: game laska, game #",
             check);
    cr_assert(strncmp(r->out, want, strlen(want)) == 0,
              "plant %s: expected '%s':\n%s", plant, want, r->out);
    cr_assert_not_null(strstr(r->out, ", ply "), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "\nstate live:\n  position: "), "%s",
                       r->out);
    if (second_state != NULL) {
        char label[64];
        snprintf(label, sizeof label,
                 "\nstate %s:\n  position: ", second_state);
        cr_assert_not_null(strstr(r->out, label), "plant %s:\n%s", plant,
                           r->out);
    }
    cr_assert_not_null(strstr(r->out, "  hash: "), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "\nmoves:"), "%s", r->out);
    cr_assert_not_null(strstr(r->out, "\nrerun: tabula synctest laska --seed "
                                      "1 --games 1 "),
                       "the plant fires in the first game:\n%s", r->out);
    cr_assert_null(strstr(r->out, "synctest: ok"), "%s", r->out);
    cr_assert_not_null(strstr(r->err, "planting"), "%s", r->err);
}

Test(synctest, planted_encoding_fault_is_caught_by_a)
{
    expect_caught("encode", "(a) encoding", NULL);
}

Test(synctest, planted_replay_fault_is_caught_by_b)
{
    expect_caught("replay", "(b) replay", "replayed");
}

Test(synctest, planted_make_fault_is_caught_by_c)
{
    expect_caught("make", "(c) make", "copy-made");
}

Test(synctest, planted_notation_fault_is_caught_by_d)
{
    expect_caught("notation", "(d) notation", NULL);
}

Test(synctest, planted_position_fault_is_caught_by_e)
{
    expect_caught("position", "(e) position", "parsed");
}

Test(synctest, bad_arguments_exit_2)
{
    static const char *const bad[] = {
        "--games 0",      "--games x",      "--games",     "--plies 0",
        "--plies 100001", "--perft 5",      "--seed -1",   "chess",
        "--options x=1",  "laska --frob 1", "laska laska", "--games 1e3",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Synctest_Run *r = synctest("", bad[i]);
        cr_assert_eq(r->status, 2, "'%s' gave %d", bad[i], r->status);
        cr_assert_str_eq(r->out, "", "'%s' printed %s", bad[i], r->out);
        cr_assert_neq(r->err[0], '\0', "'%s' said nothing", bad[i]);
    }
    Synctest_Run *r = synctest("TABULA_SYNCTEST_PLANT=clock", "laska");
    cr_assert_eq(r->status, 2);
    cr_assert_not_null(strstr(r->err, "TABULA_SYNCTEST_PLANT"), "%s", r->err);
    r = synctest("", "laska --options x=1 --games 1");
    cr_assert_eq(r->status, 2, "%s", r->out);
}

Test(synctest, help_names_every_check)
{
    Synctest_Run *r = synctest("", "--help");
    cr_assert_eq(r->status, 0);
    cr_assert(strncmp(r->out, "usage: tabula synctest", 22) == 0, "%s", r->out);
    static const char *const checks[] = {"(a)", "(b)",     "(c)",    "(d)",
                                         "(e)", "--games", "--seed", "--plies"};
    for (size_t i = 0; i < 8; i++)
        cr_assert_not_null(strstr(r->out, checks[i]), "%s", checks[i]);
    /* The test-only switch stays out of the user's help. */
    cr_assert_null(strstr(r->out, "PLANT"));
}
