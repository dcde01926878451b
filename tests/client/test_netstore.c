/*
 * test_netstore.c: the FILE.seq file beside a terminal seat's match log
 * (client/netstore.c): the resume point on its first line and, since
 * issue 14's clock fix, the wall time at which the turn in progress began
 * on its second, which a restarted seat turns into the time its running
 * turn has already taken (G-MC-6). Files of older versions (one line),
 * damaged second lines and times in the future or days old are read as
 * the hostile bytes they may be. Expected file bytes are written out by
 * hand from the format in netstore.h.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netstore.h"
#include "tb_error.h"

static char dir[64], log_path[128], seq_path[160];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tabula-netstore-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(log_path, sizeof log_path, "%s/game.log", dir);
    snprintf(seq_path, sizeof seq_path, "%s.seq", log_path);
}

static void teardown(void)
{
    unlink(seq_path);
    rmdir(dir);
}

TestSuite(netstore, .init = setup, .fini = teardown);

static void put(const char *text)
{
    FILE *f = fopen(seq_path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static size_t get(char *buf, size_t cap)
{
    FILE *f = fopen(seq_path, "r");
    cr_assert_not_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

Test(netstore, seq_keeps_the_turn_start_on_its_second_line)
{
    Netstore_Seq q;
    uint64_t last;
    uint32_t numbered;
    char buf[128];
    netstore_seq_open(&q, log_path, &last, &numbered);
    cr_assert_geq(q.fd, 0);
    cr_assert_eq(last, 0);
    cr_assert_eq(q.turn_at, 0);
    cr_assert_eq(netstore_seq_save(&q, 7, 3), 0);
    cr_assert_eq(netstore_seq_turn(&q, 1764570000123ull), 0);
    cr_assert_eq(netstore_seq_save(&q, 9, 4), 0); /* the turn line stays */
    netstore_seq_close(&q);
    cr_assert_eq(get(buf, sizeof buf), 53);
    cr_assert_str_eq(buf, "00000000000000000009 0000000004\n"
                          "00000001764570000123\n");
    netstore_seq_open(&q, log_path, &last, &numbered);
    cr_assert_eq(last, 9);
    cr_assert_eq(numbered, 4);
    cr_assert_eq(q.turn_at, 1764570000123ull);
    netstore_seq_close(&q);
}

Test(netstore, seq_of_an_older_version_or_damaged_has_no_turn)
{
    Netstore_Seq q;
    uint64_t last;
    uint32_t numbered;
    put("00000000000000000005 0000000002\n");
    netstore_seq_open(&q, log_path, &last, &numbered);
    cr_assert_eq(last, 5);
    cr_assert_eq(numbered, 2);
    cr_assert_eq(q.turn_at, 0);
    netstore_seq_close(&q);
    /* a torn second line (no newline where it ends) */
    put("00000000000000000005 0000000002\n0000000176457");
    netstore_seq_open(&q, log_path, &last, &numbered);
    cr_assert_eq(q.turn_at, 0);
    netstore_seq_close(&q);
    /* letters: no number */
    put("00000000000000000005 0000000002\nxxxxxxxxxxxxxxxxxxxx\n");
    netstore_seq_open(&q, log_path, &last, &numbered);
    cr_assert_eq(last, 5);
    cr_assert_eq(q.turn_at, 0);
    netstore_seq_close(&q);
}

Test(netstore, turn_elapsed_clamps_the_future_and_days)
{
    uint64_t now = 1764570000000ull;
    cr_assert_eq(match_turn_away(0, now), 0, "unknown");
    cr_assert_eq(match_turn_away(now + 5000, now), 0, "in the future");
    cr_assert_eq(match_turn_away(now, now), 0);
    cr_assert_eq(match_turn_away(now - 4000, now), 4000);
    cr_assert_eq(match_turn_away(now - 3 * 86400000ull, now), 86400000,
                 "three days count as one");
    cr_assert_eq(match_turn_away(1, now), 86400000);
}

/* The seats' folder (issue 39): made private under XDG_DATA_HOME; one
 * that others may write, or a symbolic link, is not used (a seat file
 * planted there would be resumed with its planter's key). */
Test(netstore, seats_folder_is_private_or_unused)
{
    char data[160], seats[200], got[256];
    snprintf(data, sizeof data, "%s/data", dir);
    setenv("XDG_DATA_HOME", data, 1);
    cr_assert_eq(netstore_dir(got, sizeof got), 0);
    snprintf(seats, sizeof seats, "%s/tabula/seats", data);
    cr_assert_str_eq(got, seats);
    struct stat st;
    cr_assert_eq(stat(seats, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700);
    cr_assert_eq(chmod(seats, 0777), 0);
    cr_assert_eq(netstore_dir(got, sizeof got), TB_E_IO);
    cr_assert_eq(chmod(seats, 0700), 0);
    cr_assert_eq(rmdir(seats), 0);
    char elsewhere[200];
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", dir);
    cr_assert_eq(mkdir(elsewhere, 0700), 0);
    cr_assert_eq(symlink(elsewhere, seats), 0);
    cr_assert_eq(netstore_dir(got, sizeof got), TB_E_IO);
    unlink(seats);
    rmdir(elsewhere);
    snprintf(got, sizeof got, "%s/tabula", data);
    rmdir(got);
    rmdir(data);
    setenv("XDG_DATA_HOME", "relative/path", 1); /* ignored: HOME's */
    unsetenv("HOME");
    cr_assert_eq(netstore_dir(got, sizeof got), TB_E_IO);
}

/* A finished seat's log is kept as .done.log, never over an earlier
 * game's of the same code (a rematch under one invite code): the next
 * is .done-2.log; its seat, resume and lock files go. */
Test(netstore, retired_logs_never_replace_an_earlier_one)
{
    char path[200], out[256], want[256];
    const char *suffix[] = {"", ".seat", ".seq", ".lock"};
    for (int round = 1; round <= 2; round++) {
        for (size_t i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/join-X.log%s", dir, suffix[i]);
            FILE *f = fopen(path, "w");
            cr_assert_not_null(f);
            fprintf(f, "round %d\n", round);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/join-X.log", dir);
        cr_assert_eq(netstore_retire(path, out, sizeof out), 0);
        snprintf(want, sizeof want, round == 1 ? "%s/join-X.done.log"
                                               : "%s/join-X.done-2.log",
                 dir);
        cr_assert_str_eq(out, want);
        for (size_t i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/join-X.log%s", dir, suffix[i]);
            cr_assert_neq(access(path, F_OK), 0, "%s stayed", path);
        }
    }
    char text[32] = "";
    snprintf(path, sizeof path, "%s/join-X.done.log", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(text, sizeof text, f));
    fclose(f);
    cr_assert_str_eq(text, "round 1\n", "the first game's log was replaced");
    unlink(path);
    snprintf(path, sizeof path, "%s/join-X.done-2.log", dir);
    unlink(path);
}
