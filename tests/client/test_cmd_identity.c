/*
 * test_cmd_identity.c: `tabula identity` creates the key pair once in
 * $XDG_CONFIG_HOME/tabula/identity (mode 0600), prints the same
 * fingerprint afterwards, and refuses a file open to others (status 1);
 * --name sets a display name shown with the fingerprint, and refuses a
 * hostile one (status 2) naming the character as U+XXXX, never echoing it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64], out[64];

static int run(const char *args, char *buf, size_t cap)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "XDG_CONFIG_HOME=%s %s identity %s >%s 2>&1", dir,
             TABULA_BINARY, args, out);
    int st = system(cmd);
    FILE *f = fopen(out, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    cr_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

Test(identity_cmd, created_once_then_stable)
{
    char a[2048], b[2048], path[128], cmd[160];
    struct stat st;

    snprintf(dir, sizeof dir, "/tmp/tabula-idcmd-%ld", (long)getpid());
    snprintf(out, sizeof out, "/tmp/tabula-idcmd-out-%ld", (long)getpid());
    cr_assert_eq(run("", a, sizeof a), 0, "%s", a);
    cr_assert(strstr(a, "created: a new identity") != NULL, "%s", a);
    cr_assert(strstr(a, "fingerprint: ") == a, "%s", a);
    snprintf(path, sizeof path, "%s/tabula/identity", dir);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    cr_assert_eq(run("", b, sizeof b), 0);
    cr_assert(strstr(b, "created") == NULL);
    cr_assert_eq(memcmp(a, b, 40), 0, "%s\n%s", a, b);
    chmod(path, 0640);
    cr_assert_eq(run("", b, sizeof b), 1);
    cr_assert(strstr(b, "chmod 600") != NULL, "%s", b);
    cr_assert_eq(run("--help", b, sizeof b), 0);
    cr_assert_eq(run("--bogus", b, sizeof b), 2);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, out);
    cr_assert_eq(system(cmd), 0);
}

Test(identity_cmd, name_set_shown_and_hostile_refused)
{
    char a[2048], fp[64], want[160], path[128], cmd[160];
    struct stat st;

    snprintf(dir, sizeof dir, "/tmp/tabula-idname-%ld", (long)getpid());
    snprintf(out, sizeof out, "/tmp/tabula-idname-out-%ld", (long)getpid());
    /* no name yet: no name line */
    cr_assert_eq(run("", a, sizeof a), 0, "%s", a);
    cr_assert(strstr(a, "name:") == NULL, "%s", a);
    cr_assert_eq(sscanf(a, "fingerprint: %19s", fp), 1);
    /* Jiří Čermák, typed with extra spaces: stored canonical, shown
     * with the fingerprint */
    cr_assert_eq(run("--name '  Ji\xC5\x99\xC3\xAD   \xC4\x8C" "erm\xC3\xA1k '",
                     a, sizeof a), 0, "%s", a);
    snprintf(want, sizeof want, "name: Ji\xC5\x99\xC3\xAD \xC4\x8C"
             "erm\xC3\xA1k (%s)\n", fp);
    cr_assert(strstr(a, want) != NULL, "%s", a);
    snprintf(path, sizeof path, "%s/tabula/identity.name", dir);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    cr_assert_eq(run("", a, sizeof a), 0);
    cr_assert(strstr(a, want) != NULL, "%s", a);
    /* U+202E (E2 80 AE) inside: refused, named, not echoed, not stored */
    cr_assert_eq(run("--name 'ab\xE2\x80\xAE" "cd'", a, sizeof a), 2, "%s", a);
    cr_assert(strstr(a, "U+202E") != NULL, "%s", a);
    cr_assert(strstr(a, "bidirectional") != NULL, "%s", a);
    cr_assert(strstr(a, "\xE2\x80\xAE") == NULL, "%s", a);
    cr_assert_eq(run("--name 'e\xCC\x81'", a, sizeof a), 2, "%s", a);
    cr_assert(strstr(a, "U+0301") != NULL, "%s", a);
    cr_assert_eq(run("--name '   '", a, sizeof a), 2, "%s", a);
    cr_assert(strstr(a, "empty") != NULL, "%s", a);
    cr_assert_eq(run("--name abcdefghijklmnopqrstuvwxy", a, sizeof a), 2);
    cr_assert(strstr(a, "24") != NULL, "%s", a);
    cr_assert_eq(run("--name", a, sizeof a), 2);
    cr_assert_eq(run("", a, sizeof a), 0);
    cr_assert(strstr(a, want) != NULL, "%s", a); /* still the old name */
    cr_assert_eq(run("--help", a, sizeof a), 0);
    cr_assert(strstr(a, "--name NAME") != NULL, "%s", a);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, out);
    cr_assert_eq(system(cmd), 0);
}
