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
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netstore.h"

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
