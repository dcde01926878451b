/*
 * archive.c: a relay's archive (tabula lobby --archive DIR; docs/
 * archive.md): every game relayed here from its start, kept as a match
 * log in DIR/logs, as a spectator's log holds it: the transcript's
 * envelopes, each with the receipt this node signed for it. The relay
 * needs no rules for it: an envelope goes in when it is the chain's next
 * (its sequence number and prev, checked by proto_open's signature and
 * the hashes); a HELLO (outside transcripts), a copy of one already in,
 * or a sender's envelope the chain did not take is left out. Whether the
 * log is a legal game is for its readers (proto_log_verify_witnessed),
 * who trust none of it.
 *
 * A log is written to logs/MATCH.part as the game goes (MATCH: its id,
 * unknown to whoever has not seen the game) and becomes logs/MATCH.log,
 * with its line in logs/index.txt, when the game ends or its room goes;
 * a room that lost a frame of the chain keeps nothing. Writes are
 * synchronous: a frame's two records, a few hundred bytes, one write(2)
 * each (proto_log_append).
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lobby_internal.h"
#include "proto.h"
#include "tb_error.h"

#define ARCHIVE_PATH_MAX 1200

struct Lobby_Archive {
    char dir[1024];
    uint64_t bytes, cap; /* of the logs kept and being written; the most */
    int full;            /* at the cap: new rooms are not kept (said once) */
    void (*kept)(void *user, const char *log);
    void *user;
};

/* One room's log as it is written. */
typedef struct Arch_Room {
    Proto_Log *log;
    Proto_Log_Header h;
    uint8_t id[PROTO_HASH_BYTES];    /* the match's: its start's hash */
    uint8_t chain[PROTO_HASH_BYTES]; /* the last envelope's hash */
    uint32_t count;                  /* envelopes in */
    uint64_t bytes;                  /* written, counted in the archive's */
    int failed;                      /* a write failed, or past a cap */
    char name[2 * PROTO_HASH_BYTES + 8]; /* MATCH, or MATCH-K */
    char part[ARCHIVE_PATH_MAX];
} Arch_Room;

/* The most logs one match gets (rooms that carried its start): MATCH,
 * MATCH-2, ... MATCH-16. */
#define ARCHIVE_COPIES_MAX 16
/* The most bytes one room's log may take (a long game's is some hundred
 * KiB; a DESYNC report carries a whole state): past it the log goes. */
#define ARCHIVE_ROOM_MAX ((uint64_t)8 << 20)

static void arch_path(const Lobby_Archive *a, const char *name,
                      const char *ext, char *out)
{
    snprintf(out, ARCHIVE_PATH_MAX, "%s/logs/%s.%s", a->dir, name, ext);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A name no log or part of this archive has: the match's id, then
 * MATCH-2, -3, ...: a room that carries a match start already kept
 * never replaces the log kept (a trial replaced a lost game's log with a
 * replay of its start alone). 0, or -1 when every copy is taken. */
static int fresh_name(const Lobby_Archive *a, const uint8_t id[32],
                      Arch_Room *ar)
{
    char hex[2 * PROTO_HASH_BYTES + 1], log[ARCHIVE_PATH_MAX];
    proto_hex(id, PROTO_HASH_BYTES, hex);
    for (int k = 1; k <= ARCHIVE_COPIES_MAX; k++) {
        if (k == 1)
            snprintf(ar->name, sizeof ar->name, "%s", hex);
        else
            snprintf(ar->name, sizeof ar->name, "%s-%d", hex, k);
        arch_path(a, ar->name, "part", ar->part);
        arch_path(a, ar->name, "log", log);
        if (!exists(ar->part) && !exists(log))
            return 0;
    }
    return -1;
}

/* The room's log goes now (a write failed, or it is past a cap): its
 * file and its bytes in the total. */
static void arch_drop(Lobby_Archive *a, Arch_Room *ar)
{
    if (ar->failed)
        return;
    ar->failed = 1;
    proto_log_close(ar->log);
    ar->log = NULL;
    unlink(ar->part);
    a->bytes -= ar->bytes < a->bytes ? ar->bytes : a->bytes;
    ar->bytes = 0;
}

/* The room's first frame: its match start, or nothing is kept. */
static Arch_Room *arch_open(Lobby_Archive *a, const uint8_t host_pk[32],
                            const Proto_Envelope *e)
{
    static const uint8_t zero[PROTO_HASH_BYTES];
    if (e->msg.kind != PROTO_KIND_MATCH_START || e->msg.seq != 0 ||
        memcmp(e->msg.prev, zero, sizeof zero) != 0 ||
        memcmp(e->msg.body.start.white, host_pk, PROTO_KEY_BYTES) != 0)
        return NULL;
    if (a->bytes >= a->cap) {
        if (!a->full)
            fprintf(stderr, "lobby: the archive is full (%llu MiB, "
                            "--archive-max-mib): new games are not kept\n",
                    (unsigned long long)(a->cap >> 20));
        a->full = 1;
        return NULL;
    }
    a->full = 0;
    Arch_Room *ar = calloc(1, sizeof *ar);
    if (ar == NULL)
        return NULL;
    proto_log_header_of(&e->msg, &ar->h);
    ar->h.version = PROTO_LOG_VERSION;
    memcpy(ar->h.room, host_pk, PROTO_KEY_BYTES);
    memcpy(ar->id, e->hash, PROTO_HASH_BYTES);
    if (fresh_name(a, ar->id, ar) != 0 ||
        proto_log_create(&ar->log, ar->part, &ar->h) != 0) {
        free(ar);
        return NULL;
    }
    return ar;
}

static void arch_frame(void *arch, void **h, const uint8_t host_pk[32],
                       const Proto_Receipt *rc, const uint8_t *data, size_t n)
{
    Lobby_Archive *a = arch;
    Arch_Room *ar = *h;
    Proto_Envelope e;
    uint8_t rec[PROTO_LOG_RECORD_MAX];
    size_t rlen;

    if (proto_open(data, n, &e, NULL, 0) != 0 ||
        e.msg.kind == PROTO_KIND_HELLO)
        return;
    if (ar == NULL) {
        *h = ar = arch_open(a, host_pk, &e);
        if (ar == NULL)
            return;
    } else if (ar->failed || e.msg.seq != ar->count ||
               memcmp(e.msg.match_id, ar->h.match_id,
                      PROTO_MATCH_ID_BYTES) != 0 ||
               memcmp(e.msg.prev, ar->chain, PROTO_HASH_BYTES) != 0) {
        return; /* not the chain's next: a copy, or not taken */
    }
    rlen = proto_log_receipt_record(ar->count, rc, rec, sizeof rec);
    /* the caps while it is written, not only when it opens: a room that
     * streams large envelopes to a reading guest wrote 9 MB a second
     * past the total (a trial) */
    if (ar->bytes + n + rlen + 8 > ARCHIVE_ROOM_MAX ||
        a->bytes + n + rlen + 8 > a->cap) {
        arch_drop(a, ar);
        return;
    }
    if (rlen == 0 || proto_log_append_envelope(ar->log, data, n) != 0 ||
        proto_log_append_record(ar->log, rec, rlen) != 0) {
        arch_drop(a, ar);
        return;
    }
    memcpy(ar->chain, e.hash, PROTO_HASH_BYTES);
    ar->count++;
    ar->bytes += n + rlen + 8; /* (with the two frames' length prefixes) */
    a->bytes += n + rlen + 8;
}

/* The index's line for a kept log (docs/archive.md), in one write. */
static int index_add(const Lobby_Archive *a, const Arch_Room *ar,
                     long long bytes)
{
    char path[ARCHIVE_PATH_MAX], w[65], b[65], line[400];
    int len, fd, rc = 0;
    snprintf(path, sizeof path, "%s/logs/index.txt", a->dir);
    proto_hex(ar->h.white, 32, w);
    proto_hex(ar->h.black, 32, b);
    len = snprintf(line, sizeof line, "%s %s %s %s %llu %lld\n", ar->name,
                   ar->h.game, w, b, (unsigned long long)ar->h.started,
                   bytes);
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return TB_E_IO;
    if (len <= 0 || (size_t)len >= sizeof line ||
        write(fd, line, (size_t)len) != len)
        rc = TB_E_IO;
    if (close(fd) != 0)
        rc = TB_E_IO;
    return rc;
}

static void arch_end(void *arch, void *h, int whole)
{
    Lobby_Archive *a = arch;
    Arch_Room *ar = h;
    char path[ARCHIVE_PATH_MAX];
    struct stat st;
    if (ar == NULL)
        return;
    int rc = ar->failed ? 0 : proto_log_close(ar->log);
    ar->log = NULL;
    arch_path(a, ar->name, "log", path);
    if (rc != 0 || !whole || ar->failed || rename(ar->part, path) != 0) {
        arch_drop(a, ar);
    } else {
        chmod(path, 0644); /* (created 0600: published) */
        if (stat(path, &st) == 0 &&
            index_add(a, ar, (long long)st.st_size) == 0 && a->kept != NULL)
            a->kept(a->user, path);
    }
    free(ar);
}

static const Lobby_Archive_Ops arch_ops = {arch_frame, arch_end};

/* The bytes of the logs in dir/logs already (what the cap counts). */
static uint64_t kept_bytes(const char *logs)
{
    uint64_t sum = 0;
    char path[ARCHIVE_PATH_MAX + 256];
    struct dirent *e;
    struct stat st;
    DIR *d = opendir(logs);
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        snprintf(path, sizeof path, "%s/%s", logs, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            sum += (uint64_t)st.st_size;
    }
    closedir(d);
    return sum;
}

int lobby__archive_new(const char *dir, uint64_t cap,
                       void (*kept)(void *, const char *), void *user,
                       Lobby_Archive **out, const Lobby_Archive_Ops **ops)
{
    char logs[ARCHIVE_PATH_MAX];
    struct stat st;
    *out = NULL;
    if (strlen(dir) >= sizeof ((Lobby_Archive *)0)->dir)
        return TB_E_ARG;
    snprintf(logs, sizeof logs, "%s/logs", dir);
    if (stat(logs, &st) != 0 || !S_ISDIR(st.st_mode))
        return TB_E_IO;
    Lobby_Archive *a = calloc(1, sizeof *a);
    if (a == NULL)
        return TB_E_NOMEM;
    snprintf(a->dir, sizeof a->dir, "%s", dir);
    a->kept = kept;
    a->user = user;
    a->cap = cap;
    a->bytes = kept_bytes(logs);
    *out = a;
    *ops = &arch_ops;
    return 0;
}

void lobby__archive_free(Lobby_Archive *a) { free(a); }
