/*
 * identity.c: a player's key pair on disk. The file lives in the XDG
 * config directory (tabula/identity), mode 0600 in a 0700 directory, and
 * holds three text lines: a format line, the public key and the secret
 * seed in hex. It is created on first use through a temporary file that is
 * fsynced and then linked into place, so a crash never leaves half a key
 * and two processes starting at once end up with the same one. Its
 * small-file helpers (proto_internal.h) also keep the display name's file
 * (name.c).
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, O_NOFOLLOW, fsync, link */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proto_internal.h"

#define ID_FORMAT_LINE "tabula-identity 1\n"
#define ID_FILE_MAX 512

int proto_identity_path(char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;

    /* The spec: a relative XDG_CONFIG_HOME is invalid and ignored. */
    if (xdg != NULL && xdg[0] == '/')
        n = snprintf(buf, cap, "%s/tabula/identity", xdg);
    else if (home != NULL && home[0] == '/')
        n = snprintf(buf, cap, "%s/.config/tabula/identity", home);
    else
        return TB_E_IO;
    if (n < 0 || (size_t)n >= cap)
        return TB_E_SPACE;
    return 0;
}

/* Parse the file's text into id. */
static int parse_identity(const char *text, size_t len, Proto_Identity *id)
{
    static const char pub[] = "public ", seed_tag[] = "seed ";
    const size_t fl = strlen(ID_FORMAT_LINE), hl = 2 * PROTO_KEY_BYTES;
    const size_t want =
        fl + (sizeof pub - 1) + hl + 1 + (sizeof seed_tag - 1) + hl + 1;
    uint8_t pk[PROTO_KEY_BYTES], seed[PROTO_KEY_BYTES];
    const char *p = text;
    int rc;

    if (len != want || memcmp(p, ID_FORMAT_LINE, fl) != 0)
        return TB_E_FORMAT;
    p += fl;
    if (memcmp(p, pub, sizeof pub - 1) != 0 ||
        proto_unhex(p + sizeof pub - 1, 2 * PROTO_KEY_BYTES, pk, PROTO_KEY_BYTES) != 0 ||
        p[sizeof pub - 1 + hl] != '\n')
        return TB_E_FORMAT;
    p += sizeof pub - 1 + hl + 1;
    if (memcmp(p, seed_tag, sizeof seed_tag - 1) != 0 ||
        proto_unhex(p + sizeof seed_tag - 1, 2 * PROTO_KEY_BYTES, seed,
                    PROTO_KEY_BYTES) != 0 ||
        p[sizeof seed_tag - 1 + hl] != '\n')
        return TB_E_FORMAT;
    rc = proto_identity_from_seed(id, seed);
    proto__wipe(seed, sizeof seed);
    if (rc == 0 && memcmp(pk, id->pk, PROTO_KEY_BYTES) != 0) {
        proto_identity_wipe(id);
        rc = TB_E_FORMAT;
    }
    return rc;
}

int proto__read_small(const char *path, char *buf, size_t cap, size_t *got,
                      int private_only)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    int rc = TB_E_IO;

    *got = 0;
    if (fd < 0)
        return errno == ENOENT ? TB_E_STATE : TB_E_IO;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (private_only && (st.st_mode & 077) != 0))
        goto done; /* group or others may read it: refuse, as ssh does */
    while (*got < cap) {
        ssize_t r = read(fd, buf + *got, cap - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            goto done;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    rc = *got == cap ? TB_E_FORMAT : 0;
done:
    close(fd);
    return rc;
}

static int read_identity(const char *path, Proto_Identity *id)
{
    char text[ID_FILE_MAX];
    size_t got = 0;
    int rc = proto__read_small(path, text, sizeof text, &got, 1);

    if (rc == 0)
        rc = parse_identity(text, got, id);
    proto__wipe(text, sizeof text);
    return rc;
}

int proto__make_parents(const char *path)
{
    char dir[1024];
    size_t n = strlen(path);
    if (n >= sizeof dir)
        return TB_E_SPACE;
    memcpy(dir, path, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (dir[i] != '/')
            continue;
        dir[i] = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return TB_E_IO;
        dir[i] = '/';
    }
    return 0;
}

int proto__write_private(const char *path, const char *text, size_t n,
                         int replace)
{
    char tmp[1100];
    size_t off = 0;
    int fd, rc = 0;
    int k = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());

    if (k < 0 || (size_t)k >= sizeof tmp)
        return TB_E_SPACE;
    unlink(tmp); /* a leftover of an earlier crash of this pid */
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return TB_E_IO;
    while (rc == 0 && off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            rc = TB_E_IO;
        else
            off += (size_t)w;
    }
    if (rc == 0 && fsync(fd) != 0)
        rc = TB_E_IO;
    if (close(fd) != 0 && rc == 0)
        rc = TB_E_IO;
    if (rc == 0 && replace && rename(tmp, path) != 0)
        rc = TB_E_IO;
    if (rc == 0 && !replace && link(tmp, path) != 0)
        rc = errno == EEXIST ? TB_E_STATE : TB_E_IO;
    unlink(tmp); /* (gone already after a rename) */
    return rc;
}

/* Write a new identity to path; TB_E_STATE when another process made
 * one first (the caller then reads that one). */
static int create_identity(const char *path, Proto_Identity *id)
{
    char text[ID_FILE_MAX];
    char pk_hex[2 * PROTO_KEY_BYTES + 1], seed_hex[2 * PROTO_KEY_BYTES + 1];
    int n, rc;

    rc = proto__make_parents(path);
    if (rc != 0)
        return rc;
    rc = proto_identity_generate(id);
    if (rc != 0)
        return rc;
    proto_hex(id->pk, PROTO_KEY_BYTES, pk_hex);
    proto_hex(id->sk, PROTO_KEY_BYTES, seed_hex); /* sk starts with the seed */
    n = snprintf(text, sizeof text, "%spublic %s\nseed %s\n", ID_FORMAT_LINE,
                 pk_hex, seed_hex);
    proto__wipe(seed_hex, sizeof seed_hex);
    rc = n < 0 || (size_t)n >= sizeof text
             ? TB_E_SPACE
             : proto__write_private(path, text, (size_t)n, 0);
    proto__wipe(text, sizeof text);
    if (rc != 0)
        proto_identity_wipe(id);
    return rc;
}

int proto_identity_load(Proto_Identity *id, const char *path, int *created)
{
    char def[1024];
    int rc;

    if (created != NULL)
        *created = 0;
    if (path == NULL) {
        rc = proto_identity_path(def, sizeof def);
        if (rc != 0)
            return rc;
        path = def;
    }
    rc = read_identity(path, id);
    if (rc != TB_E_STATE)
        return rc; /* read, or refused */
    rc = create_identity(path, id);
    if (rc == 0 && created != NULL)
        *created = 1;
    if (rc == TB_E_STATE) /* lost a race: use the winner's key */
        rc = read_identity(path, id);
    return rc == TB_E_STATE ? TB_E_IO : rc;
}
