/*
 * netstore.c: a network seat's files beside its match log (netstore.h):
 * the seat file, the FILE.seq resume point (with the wall time at which
 * the turn in progress began) and the desync report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "netstore.h"
#include "tb_error.h"

/* FILE.seq: "SEQ(20) NUMBERED(10)\n", then "TURN_AT(20)\n" */
#define SEQ_LINE 32
#define TURN_LINE 21

static int seat_path(const char *log_path, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s.seat", log_path);
    return n < 0 || (size_t)n >= cap ? TB_E_SPACE : 0;
}

int netstore_seat_save(const char *log_path, const Netstore_Seat *seat)
{
    char path[600], tmp[640], hex[2 * PROTO_SECRET_BYTES + 1];
    FILE *f;
    int fd;

    if (seat_path(log_path, path, sizeof path) != 0)
        return TB_E_SPACE;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
        if (fd >= 0)
            close(fd);
        return TB_E_IO;
    }
    fprintf(f, "role %d\n", (int)seat->role);
    proto_hex(seat->id.sk, PROTO_KEY_BYTES, hex);
    fprintf(f, "key %s\n", hex);
    proto_hex(seat->seat_secret, LOBBY_SEAT_SECRET_BYTES, hex);
    fprintf(f, "seat %s\n", hex);
    fprintf(f, "invite %s\n", seat->invite.text[0] ? seat->invite.text : "-");
    fprintf(f, "watch %s\n", seat->watch.text[0] ? seat->watch.text : "-");
    fprintf(f, "game %s\n", seat->game ? core_game_name(seat->game) : "-");
    fprintf(f, "options %s\n", seat->options[0] ? seat->options : "-");
    fprintf(f, "lobby %s\n", seat->lobby[0] ? seat->lobby : "-");
    fprintf(f, "own %d\n", seat->own_lobby);
    proto_wipe(hex, sizeof hex);
    if (fflush(f) != 0 || fsync(fd) != 0) {
        fclose(f);
        return TB_E_IO;
    }
    fclose(f);
    return rename(tmp, path) == 0 ? 0 : TB_E_IO;
}

int netstore_seat_load(const char *log_path, Netstore_Seat *seat, char *why,
                       size_t why_cap)
{
    char path[600], line[512];
    uint8_t seed[PROTO_KEY_BYTES];
    int have_key = 0, have_seat = 0;
    FILE *f;

    if (seat_path(log_path, path, sizeof path) != 0)
        return TB_E_SPACE;
    f = fopen(path, "r");
    if (f == NULL)
        return errno == ENOENT ? 0 : TB_E_IO;
    while (fgets(line, sizeof line, f) != NULL) {
        char *sp = strchr(line, ' '), *val, *nl;
        if (sp == NULL)
            continue;
        *sp = '\0';
        val = sp + 1;
        if ((nl = strchr(val, '\n')) != NULL)
            *nl = '\0';
        if (strcmp(line, "key") == 0)
            have_key = proto_unhex(val, strlen(val), seed, sizeof seed) == 0;
        else if (strcmp(line, "seat") == 0)
            have_seat = proto_unhex(val, strlen(val), seat->seat_secret,
                              LOBBY_SEAT_SECRET_BYTES) == 0;
        else if (strcmp(line, "invite") == 0 && strcmp(val, "-") != 0)
            lobby_code_parse(val, &seat->invite);
        else if (strcmp(line, "watch") == 0 && strcmp(val, "-") != 0)
            lobby_code_parse(val, &seat->watch);
        else if (strcmp(line, "game") == 0 && strcmp(val, "-") != 0)
            seat->game = core_game_find(val);
        else if (strcmp(line, "options") == 0)
            snprintf(seat->options, sizeof seat->options, "%s",
                     strcmp(val, "-") == 0 ? "" : val);
        else if (strcmp(line, "role") == 0 && strcmp(val, "1") == 0)
            seat->role = LOBBY_ROLE_GUEST;
        else if (strcmp(line, "lobby") == 0)
            snprintf(seat->lobby, sizeof seat->lobby, "%s",
                     strcmp(val, "-") == 0 ? "" : val);
        else if (strcmp(line, "own") == 0)
            seat->own_lobby = strcmp(val, "1") == 0;
    }
    fclose(f);
    if (!have_key || !have_seat ||
        proto_identity_from_seed(&seat->id, seed) != 0) {
        snprintf(why, why_cap, _("%s: not a seat file"), path);
        return TB_E_FORMAT;
    }
    proto_wipe(seed, sizeof seed);
    return 1;
}

void netstore_seq_open(Netstore_Seq *q, const char *log_path, uint64_t *last,
                       uint32_t *numbered)
{
    char path[600], text[64], *end;
    ssize_t n;

    *last = 0;
    *numbered = 0;
    q->saved = 0;
    q->numbered = 0;
    q->turn_at = 0;
    snprintf(path, sizeof path, "%s.seq", log_path);
    q->fd = open(path, O_RDWR | O_CREAT, 0600);
    if (q->fd < 0)
        return;
    n = pread(q->fd, text, sizeof text - 1, 0);
    if (n > 0) {
        text[n] = '\0';
        *last = strtoull(text, &end, 10);
        *numbered = (uint32_t)strtoul(end, NULL, 10);
        /* the second line, when whole: 20 digits and a newline */
        if (n >= SEQ_LINE + TURN_LINE && text[SEQ_LINE + TURN_LINE - 1] == '\n')
            q->turn_at = strtoull(text + SEQ_LINE, NULL, 10);
    }
    q->saved = *last;
    q->numbered = *numbered;
}

int netstore_seq_save(Netstore_Seq *q, uint64_t seq, uint32_t numbered)
{
    char text[48];
    if (q->fd < 0 || (seq == q->saved && numbered == q->numbered))
        return 0;
    q->saved = seq;
    q->numbered = numbered;
    snprintf(text, sizeof text, "%020llu %010u\n", (unsigned long long)seq,
             numbered);
    return pwrite(q->fd, text, SEQ_LINE, 0) == SEQ_LINE ? 0 : TB_E_IO;
}

int netstore_seq_turn(Netstore_Seq *q, uint64_t turn_at)
{
    char text[32];
    if (q->fd < 0 || turn_at == q->turn_at)
        return 0;
    q->turn_at = turn_at;
    snprintf(text, sizeof text, "%020llu\n", (unsigned long long)turn_at);
    return pwrite(q->fd, text, TURN_LINE, SEQ_LINE) == TURN_LINE ? 0 : TB_E_IO;
}

void netstore_seq_close(Netstore_Seq *q)
{
    if (q->fd >= 0)
        close(q->fd);
    q->fd = -1;
}

int netstore_log_append(Proto_Log *log, const uint8_t *env, size_t len)
{
    if (log == NULL)
        return 0;
    if (len > PROTO_FRAME_MAX)
        return TB_E_LIMIT;
    return proto_log_append_envelope(log, env, len);
}

int netstore_log_open(Proto_Log **log, const char *path, const Match *m,
                      uint32_t count, uint64_t witnessed)
{
    char tmp[600];
    Proto_Log_Header h;
    int rc;

    proto_log_close(*log);
    *log = NULL;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return TB_E_SPACE;
    unlink(tmp);
    rc = match_log_header(m, &h);
    if (rc == 0)
        rc = proto_log_create(log, tmp, &h);
    if (rc == 0)
        rc = match_log_fill(m, *log, count, witnessed);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = TB_E_IO;
    if (rc != 0) {
        proto_log_close(*log);
        *log = NULL;
    }
    return rc;
}

static void hexdump(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", b[i]);
    fputc('\n', f);
}

int netstore_report(const Match *m, Lobby_Role role, const char *log_path,
                    char *path, size_t cap)
{
    char hex[PROTO_HASH_HEX];
    uint8_t *ours = NULL, hash[PROTO_HASH_BYTES], their_hash[PROTO_HASH_BYTES];
    const uint8_t *theirs;
    size_t ours_len = 0, theirs_len = 0;
    int theirs_known;
    const Proto_Transcript *t = match_transcript(m);
    const Proto_Message *st = proto_transcript_start(t);
    const Match_Result *res = match_result(m);
    FILE *f;

    if (log_path[0] != '\0') {
        snprintf(path, cap, "%s.desync", log_path);
    } else {
        char id[2 * PROTO_MATCH_ID_BYTES + 1];
        proto_hex(st->match_id, PROTO_MATCH_ID_BYTES, id);
        snprintf(path, cap, "tabula-desync-%.8s-%s.txt", id,
                 role == LOBBY_ROLE_HOST ? "host" : "guest");
    }
    f = fopen(path, "w");
    if (f == NULL)
        return TB_E_IO;
    if (match_desync_states(m, &ours, &ours_len, hash, &theirs, &theirs_len,
                            their_hash, &theirs_known) != 0) {
        free(ours);
        fclose(f);
        return TB_E_NOMEM;
    }
    fprintf(f, "tabula desync report\ngame: %s\noptions: %s\n",
            st->body.start.game, st->body.start.options);
    proto_hex(st->match_id, PROTO_MATCH_ID_BYTES, hex);
    fprintf(f, "match: %s\nseat: %s\nply: %u\n", hex,
            role == LOBBY_ROLE_HOST ? "host (white)" : "guest (black)",
            res->desync_ply);
    proto_hex(hash, sizeof hash, hex);
    fprintf(f, "our-hash: %s\n", hex);
    if (theirs_known) {
        proto_hex(their_hash, sizeof their_hash, hex);
        fprintf(f, "their-hash: %s\n", hex);
    } else {
        fprintf(f, "their-hash: unknown\n");
    }
    fprintf(f, "our-state: ");
    hexdump(f, ours, ours_len);
    fprintf(f, "their-state: ");
    if (theirs != NULL)
        hexdump(f, theirs, theirs_len);
    else
        fprintf(f, "not received\n");
    free(ours);
    fprintf(f, "log: %s\ntranscript:\n", log_path[0] ? log_path : "(none)");
    Core_Position *pos = NULL;
    if (core_position_new(&pos, core_game_find(st->body.start.game),
                          proto_transcript_game_options(t)) == 0) {
        for (size_t i = 0; i < proto_transcript_moves(t); i++) {
            char text[CORE_NOTATION_MAX];
            const Core_Move *mv = proto_transcript_move_at(t, i);
            if (core_move_format(pos, mv, text, sizeof text) != 0 ||
                core_play(pos, mv) != 0)
                break;
            fprintf(f, "%4zu. %s\n", i + 1, text);
        }
        core_position_free(pos);
    }
    return fclose(f) == 0 ? 0 : TB_E_IO;
}

int netstore_seat_take(char *log_path, size_t log_cap, const char *store_dir,
                       Lobby_Role role, const Core_Game *game,
                       const char *code, const char *lobby, Netstore_Seat *st,
                       char *why, size_t why_cap)
{
    int resumed = 0, rc = 0;
    if (log_path[0] != '\0' &&
        (resumed = netstore_seat_load(log_path, st, why, why_cap)) < 0)
        return resumed;
    if (resumed && game != NULL && st->game != NULL && st->game != game) {
        /* The seat file's game wins on resume; another game asked for
         * means another match was meant: refuse rather than resume. */
        snprintf(why, why_cap, _("%s holds a %s match, not %s: give another "
                 "--log file, or host %s to resume it"), log_path,
                 core_game_name(st->game), core_game_name(game),
                 core_game_name(st->game));
        return TB_E_STATE;
    }
    Lobby_Code asked;
    if (resumed && role == LOBBY_ROLE_GUEST && code != NULL &&
        lobby_code_parse(code, &asked) == 0 &&
        memcmp(asked.lookup, st->invite.lookup, LOBBY_LOOKUP_BYTES) != 0) {
        /* A seat file of another match: joining with it would resume
         * that match under this code. */
        snprintf(why, why_cap, _("%s.seat belongs to the match of invite "
                 "%s, not %s: give another --log file"), log_path,
                 st->invite.text, asked.text);
        return TB_E_STATE;
    }
    if (!resumed && role != LOBBY_ROLE_SPECTATOR && log_path[0] != '\0' &&
        access(log_path, F_OK) == 0) {
        /* A log without its seat file cannot be resumed, and a new
         * match would write over it: keep it. */
        snprintf(why, why_cap, _("%s exists already, without %s.seat to "
                 "resume its match: give another --log file (tabula replay "
                 "shows what it holds)"), log_path, log_path);
        return TB_E_STATE;
    }
    if (!resumed) {
        rc = st->given ? 0 : proto_identity_generate(&st->id);
        if (rc == 0)
            rc = lobby_random(st->seat_secret, LOBBY_SEAT_SECRET_BYTES);
        if (rc == 0 && role == LOBBY_ROLE_HOST) {
            rc = st->given ? 0 : lobby_code_new(st->id.pk, &st->invite);
            if (rc == 0)
                rc = lobby_code_new(st->id.pk, &st->watch);
            if (rc == 0 && log_path[0] == '\0' && store_dir != NULL) {
                int n = snprintf(log_path, log_cap, "%s/host-%s.log",
                                 store_dir, st->invite.text);
                if (n < 0 || (size_t)n >= log_cap)
                    log_path[0] = '\0'; /* no room: not kept */
            }
        }
    }
    if (rc == 0 && role == LOBBY_ROLE_GUEST && !resumed &&
        lobby_code_parse(code, &st->invite) != 0)
        rc = TB_E_CODE;
    if (rc == 0 && role == LOBBY_ROLE_SPECTATOR &&
        lobby_code_parse(code, &st->watch) != 0)
        rc = TB_E_CODE;
    if (rc == TB_E_CODE) {
        /* Echoed as typed, a pasted code's typeset dashes and letters
         * kept: cli_token showed each of their bytes as '?' ("ABCD???
         * EFGH"), which a person cannot check against the code they
         * have. Control and malformed bytes still become '?'. */
        char shown[80];
        cli_printable(code, shown, sizeof shown);
        snprintf(why, why_cap, _("'%s' is not a code (16 symbols of %s)"),
                 shown, LOBBY_CODE_ALPHABET);
    }
    if (rc != 0)
        return rc;
    if (role != LOBBY_ROLE_SPECTATOR && log_path[0] != '\0') {
        st->role = role;
        snprintf(st->lobby, sizeof st->lobby, "%s", lobby);
        if ((rc = netstore_seat_save(log_path, st)) != 0) {
            snprintf(why, why_cap, _("cannot write %s.seat"), log_path);
            return rc;
        }
    }
    return resumed;
}

int netstore_resume(Match *m, const char *log_path, uint64_t last_seq,
                    uint32_t numbered, uint64_t turn_at, uint64_t now,
                    uint64_t clock_now, char *why, size_t why_cap)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    char sub[200] = "";
    if (access(log_path, F_OK) != 0)
        return 0; /* the match had not started */
    int rc = proto_read_file(log_path, &buf, &len);
    if (rc != 0) {
        snprintf(why, why_cap, "%s: %s", log_path, _(tb_strerror(rc)));
        return rc;
    }
    /* A log with its end record holds a game that is over: it is never
     * taken up again (a new user ran the same command after the game and
     * a re-made room's receipts gave the loser its time back, the log
     * rewritten; a loser could do it on purpose). */
    Proto_Log_Report rep;
    if (proto_log_verify(buf, len, NULL, NULL, NULL, NULL, &rep) == 0 &&
        rep.ended) {
        free(buf);
        snprintf(why, why_cap,
                 _("%s holds a game that is over; tabula replay %s shows "
                   "it, and a new game needs another --log FILE"),
                 log_path, log_path);
        return TB_E_STATE;
    }
    rc = match_resume(m, buf, len, last_seq, numbered, sub, sizeof sub);
    free(buf);
    if (rc != 0) {
        snprintf(why, why_cap, "%s: %s", log_path, sub);
        return rc;
    }
    match_resume_turn(m, clock_now, match_turn_away(turn_at, now));
    return 0;
}

int netstore_keep_turn(Netstore_Seq *q, const Match *m, uint64_t now,
                       uint64_t wall)
{
    int64_t ran = match_turn_elapsed(m, now);
    if (ran < 0 || q->fd < 0)
        return 0;
    int64_t start = (int64_t)now - ran;
    if (q->turn_kept && start == q->turn_start)
        return 0;
    q->turn_kept = 1;
    q->turn_start = start;
    return netstore_seq_turn(q, wall - (uint64_t)ran);
}

/* Remove log_path's files of these suffixes ("" the log itself). */
static void remove_files(const char *log_path, const char *const *suffix,
                         size_t n)
{
    char path[600];
    for (size_t i = 0; i < n; i++)
        if (snprintf(path, sizeof path, "%s%s", log_path, suffix[i]) <
            (int)sizeof path)
            unlink(path);
}

int netstore_dir(char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    /* The XDG spec: a relative XDG_DATA_HOME is invalid and ignored. */
    if (xdg != NULL && xdg[0] == '/')
        n = snprintf(buf, cap, "%s/tabula/seats", xdg);
    else if (home != NULL && home[0] == '/')
        n = snprintf(buf, cap, "%s/.local/share/tabula/seats", home);
    else
        return TB_E_IO;
    if (n < 0 || (size_t)n >= cap)
        return TB_E_SPACE;
    /* each folder of the path, made private where new */
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        int made = mkdir(buf, 0700) == 0 || errno == EEXIST;
        *p = c;
        if (!made)
            return TB_E_IO;
        if (c == '\0')
            break;
    }
    /* Only a folder of the user's own that no one else can write: a
     * seat file planted there would be resumed, its key signing for the
     * player (a trial planted one in a folder others could write). */
    struct stat st;
    if (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid() || (st.st_mode & 022) != 0)
        return TB_E_IO;
    return 0;
}

int netstore_lock(const char *log_path, int *fd)
{
    char path[600];
    int n = snprintf(path, sizeof path, "%s.lock", log_path);
    if (n < 0 || (size_t)n >= sizeof path)
        return TB_E_SPACE;
    int f = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (f < 0)
        return TB_E_IO;
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int busy = errno == EWOULDBLOCK;
        close(f);
        return busy ? TB_E_STATE : TB_E_IO;
    }
    *fd = f;
    return 0;
}

int netstore_retire(const char *log_path, char *out, size_t cap)
{
    size_t n = strlen(log_path);
    const char *ext = n >= 4 && strcmp(log_path + n - 4, ".log") == 0
                          ? log_path + n - 4
                          : log_path + n;
    static const char *const gone[] = {".seat", ".seq", ".lock"};
    remove_files(log_path, gone, 3);
    /* Never over an earlier game's log of the same code (a rematch under
     * one invite code): .done.log, else .done-2.log, ... (link refuses an
     * existing name). */
    for (int k = 1; k <= 99; k++) {
        char nth[16] = "";
        if (k > 1)
            snprintf(nth, sizeof nth, "-%d", k);
        int w = snprintf(out, cap, "%.*s.done%s.log", (int)(ext - log_path),
                         log_path, nth);
        if (w < 0 || (size_t)w >= cap)
            return TB_E_SPACE;
        if (link(log_path, out) == 0) {
            unlink(log_path);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    snprintf(out, cap, "%s", log_path);
    return TB_E_IO;
}

void netstore_discard(const char *log_path)
{
    static const char *const files[] = {"", ".seat", ".seq", ".lock"};
    remove_files(log_path, files, 4);
}

void netstore_forget(const char *log_path, Netstore_Seq *q)
{
    /* (the lock too: a user's refused joins left one each, a trial) */
    static const char *const files[] = {".seat", ".seq", ".lock"};
    if (log_path[0] == '\0')
        return;
    netstore_seq_close(q);
    remove_files(log_path, files, 3);
}
