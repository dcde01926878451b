/*
 * test_identity.c: key pairs on disk and fingerprints. The identity file
 * goes to $XDG_CONFIG_HOME/tabula/identity (or ~/.config when XDG is unset
 * or relative), is created once with mode 0600 in a 0700 directory, loads
 * back to the same key, and is refused when too open or corrupt.
 */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto.h"

static char root[64];

static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/tabula-id-test-%ld", (long)getpid());
    cr_assert_eq(proto_init(), 0);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(identity, .init = setup, .fini = teardown);

Test(identity, path_follows_xdg)
{
    char buf[256];
    setenv("XDG_CONFIG_HOME", "/cfg", 1);
    setenv("HOME", "/home/u", 1);
    cr_assert_eq(proto_identity_path(buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "/cfg/tabula/identity");
    setenv("XDG_CONFIG_HOME", "relative/dir", 1); /* invalid: ignored */
    cr_assert_eq(proto_identity_path(buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "/home/u/.config/tabula/identity");
    unsetenv("XDG_CONFIG_HOME");
    cr_assert_eq(proto_identity_path(buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "/home/u/.config/tabula/identity");
    cr_assert_eq(proto_identity_path(buf, 10), TB_E_SPACE);
    unsetenv("HOME");
    cr_assert_eq(proto_identity_path(buf, sizeof buf), TB_E_IO);
}

Test(identity, created_once_private_and_reloaded)
{
    char path[128], dir[128];
    Proto_Identity a, b;
    struct stat st;
    int created = 0;

    setenv("XDG_CONFIG_HOME", root, 1);
    snprintf(path, sizeof path, "%s/tabula/identity", root);
    snprintf(dir, sizeof dir, "%s/tabula", root);
    cr_assert_eq(proto_identity_load(&a, NULL, &created), 0);
    cr_assert_eq(created, 1);
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600);
    cr_assert_eq(stat(dir, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700);
    cr_assert_eq(proto_identity_load(&b, NULL, &created), 0);
    cr_assert_eq(created, 0);
    cr_assert_arr_eq(a.pk, b.pk, PROTO_KEY_BYTES);
    cr_assert_arr_eq(a.sk, b.sk, PROTO_SECRET_BYTES);
    /* The key works: libsodium verifies what it signs. */
    uint8_t sig[64];
    const uint8_t msg[] = "move";
    crypto_sign_detached(sig, NULL, msg, sizeof msg, b.sk);
    cr_assert_eq(crypto_sign_verify_detached(sig, msg, sizeof msg, a.pk), 0);
    /* No temporary file is left behind. */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", dir);
    cr_assert_eq(system(cmd), 0);
    proto_identity_wipe(&b);
    uint8_t zero[PROTO_SECRET_BYTES] = {0};
    cr_assert_arr_eq(b.sk, zero, sizeof zero);
}

Test(identity, too_open_or_corrupt_files_are_refused)
{
    char path[128];
    Proto_Identity a;
    FILE *f;

    snprintf(path, sizeof path, "%s/x/identity", root);
    cr_assert_eq(proto_identity_load(&a, path, NULL), 0);
    chmod(path, 0644);
    cr_assert_eq(proto_identity_load(&a, path, NULL), TB_E_IO);
    chmod(path, 0600);
    cr_assert_eq(proto_identity_load(&a, path, NULL), 0);
    /* flip one hex digit of the public key: it no longer matches */
    f = fopen(path, "r+");
    cr_assert_not_null(f);
    fseek(f, (long)strlen("tabula-identity 1\npublic "), SEEK_SET);
    int c = fgetc(f);
    fseek(f, -1, SEEK_CUR);
    fputc(c == '0' ? '1' : '0', f);
    fclose(f);
    cr_assert_eq(proto_identity_load(&a, path, NULL), TB_E_FORMAT);
    /* garbage and an empty file */
    f = fopen(path, "w");
    fputs("hello\n", f);
    fclose(f);
    cr_assert_eq(proto_identity_load(&a, path, NULL), TB_E_FORMAT);
    f = fopen(path, "w");
    fclose(f);
    cr_assert_eq(proto_identity_load(&a, path, NULL), TB_E_FORMAT);
}

Test(identity, seeds_and_fingerprints)
{
    Proto_Identity a, b;
    uint8_t seed[32] = {0}, pk[32], sk[64];
    char fp[PROTO_FINGERPRINT_MAX], fp2[PROTO_FINGERPRINT_MAX];

    cr_assert_eq(proto_identity_from_seed(&a, seed), 0);
    crypto_sign_seed_keypair(pk, sk, seed);
    cr_assert_arr_eq(a.pk, pk, 32);
    proto_fingerprint(a.pk, fp);
    cr_assert_eq(strlen(fp), 19);
    for (int i = 0; i < 19; i++) {
        if (i % 5 == 4)
            cr_assert_eq(fp[i], '-');
        else
            cr_assert(strchr("0123456789ABCDEFGHJKMNPQRSTVWXYZ", fp[i]));
    }
    /* Independently: the first 80 bits of BLAKE2b-256 of the domain and
     * key, in Crockford base32, 5 bits at a time. */
    uint8_t h[32];
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, (const uint8_t *)"tabula-fingerprint", 18);
    crypto_generichash_update(&st, a.pk, 32);
    crypto_generichash_final(&st, h, 32);
    uint64_t hi = 0;
    for (int i = 0; i < 8; i++)
        hi = hi << 8 | h[i];
    /* first 12 symbols come from the first 60 bits */
    for (int i = 0, k = 0; i < 12; i++, k++) {
        if (k % 5 == 4)
            k++;
        unsigned v = (unsigned)(hi >> (59 - 5 * i)) & 31;
        cr_assert_eq(fp[k], "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[v], "symbol %d",
                     i);
    }
    seed[0] = 1;
    cr_assert_eq(proto_identity_from_seed(&b, seed), 0);
    proto_fingerprint(b.pk, fp2);
    cr_assert_str_neq(fp, fp2);
    cr_assert_eq(proto_identity_generate(&b), 0);
    cr_assert(memcmp(a.pk, b.pk, 32) != 0);
}
