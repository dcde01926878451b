/*
 * test_golden.c: the golden vectors of tests/golden/GAME.txt (issue 8).
 * Each vector is a start (options, position string) and a move sequence
 * with the BLAKE2b-256 state hash expected after each ply, derived once
 * with coreutils' b2sum over the dumped encodings (tests/golden/derive.sh)
 * and committed. Here every vector is replayed through the public core
 * interface and hashed with proto_state_hash (libsodium), so a change to
 * any game's rules, encoding or notation that alters a state shows up as
 * the first ply whose hash differs. The cross-build script replays the
 * same files with a second BLAKE2b (tests/golden/golden_check.c).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "proto.h"

#define GOLDEN_DIR TABULA_SOURCE_DIR "/tests/golden"

typedef struct Walk {
    const Core_Game *game;
    Core_Position *pos;
    int started;
    unsigned line, vectors, plies;
    char err[512];
} Walk;

static int walk_fail(Walk *w, const char *what, const char *detail)
{
    snprintf(w->err, sizeof w->err, "line %u: %s%s%s", w->line, what,
             detail ? ": " : "", detail ? detail : "");
    return -1;
}

static int walk_hash(Walk *w, const char *want)
{
    uint8_t h[PROTO_HASH_BYTES];
    char got[PROTO_HASH_HEX], detail[160];
    if (proto_state_hash(w->pos, h) != 0)
        return walk_fail(w, "proto_state_hash failed", NULL);
    proto_hex(h, sizeof h, got);
    if (strcmp(got, want) == 0)
        return 0;
    snprintf(detail, sizeof detail, "expected %s, got %s", want, got);
    return walk_fail(w, "state hash differs", detail);
}

/* One line of a golden file (format: tests/golden/README.md). */
static int walk_line(Walk *w, char *line)
{
    char *rest = strchr(line, ' ');
    char why[256] = "";
    Core_Move mv;

    if (rest != NULL)
        *rest++ = '\0';
    else
        rest = line + strlen(line);
    if (strcmp(line, "game") == 0) {
        w->game = core_game_find(rest);
        return w->game ? 0 : walk_fail(w, "game not compiled in", rest);
    }
    if (w->game == NULL)
        return walk_fail(w, "expected 'game NAME' first", line);
    if (strcmp(line, "vector") == 0) {
        if (w->pos != NULL && !w->started)
            return walk_fail(w, "previous vector has no start line", NULL);
        core_position_free(w->pos);
        w->pos = NULL;
        w->started = 0;
        w->vectors++;
        return core_position_new(&w->pos, w->game, NULL) == 0
                   ? 0
                   : walk_fail(w, "core_position_new failed", NULL);
    }
    if (w->pos == NULL)
        return walk_fail(w, "a line before the first vector", line);
    if (!w->started && strcmp(line, "options") == 0) {
        core_position_free(w->pos);
        w->pos = NULL;
        return core_position_new(&w->pos, w->game, rest) == 0
                   ? 0
                   : walk_fail(w, "bad options", rest);
    }
    if (!w->started && strcmp(line, "position") == 0)
        return core_position_parse(w->pos, rest, why, sizeof why) == 0
                   ? 0
                   : walk_fail(w, "bad position", why);
    if (!w->started && strcmp(line, "start") == 0) {
        w->started = 1;
        return walk_hash(w, rest);
    }
    if (!w->started)
        return walk_fail(w, "expected 'start HASH'", line);
    if (strcmp(line, "move") == 0) {
        char *hash = strrchr(rest, ' ');
        if (hash == NULL)
            return walk_fail(w, "expected 'move NOTATION HASH'", rest);
        *hash++ = '\0';
        int rc = core_move_parse(w->pos, rest, &mv);
        if (rc == 0)
            rc = core_play(w->pos, &mv);
        if (rc != 0)
            return walk_fail(w, tb_strerror(rc), rest);
        w->plies++;
        return walk_hash(w, hash);
    }
    if (strcmp(line, "result") == 0) {
        char got[96];
        Core_Status st = core_status(w->pos);
        snprintf(got, sizeof got, "%s %s", core_outcome_name(st.outcome),
                 core_reason_name(st.reason));
        return strcmp(got, rest) == 0 ? 0 : walk_fail(w, "result differs", got);
    }
    return walk_fail(w, "unknown line", line);
}

/* Replay every vector of f; 0 or -1 with w->err set. */
static int walk_file(FILE *f, Walk *w)
{
    char line[8192];
    int rc = 0;

    memset(w, 0, sizeof *w);
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        size_t n = strlen(line);
        w->line++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n > 0 && line[0] != '#')
            rc = walk_line(w, line);
    }
    if (rc == 0 && w->pos != NULL && !w->started)
        rc = walk_fail(w, "last vector has no start line", NULL);
    if (rc == 0 && w->vectors == 0)
        rc = walk_fail(w, "no vectors", NULL);
    core_position_free(w->pos);
    w->pos = NULL;
    return rc;
}

static void setup(void)
{
    cr_assert_eq(proto_init(), 0);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    char *buf = malloc(1 << 20);
    cr_assert_not_null(buf);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* The vectors of game g: GOLDEN_DIR/NAME.txt (other files there hold
 * other golden data, e.g. chessball_perft.txt). NULL when absent. */
static FILE *open_vectors(const Core_Game *g, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s.txt", GOLDEN_DIR, core_game_name(g));
    return fopen(path, "r");
}

Test(golden, every_file_replays_with_its_hashes, .init = setup)
{
    unsigned total = 0, files = 0;

    for (size_t i = 0; i < core_game_count(); i++) {
        const Core_Game *g = core_game_at(i);
        char path[512];
        Walk w;
        FILE *f = open_vectors(g, path, sizeof path);
        if (f == NULL)
            continue;
        int rc = walk_file(f, &w);
        fclose(f);
        cr_assert_eq(rc, 0, "%s: %s", path, w.err);
        /* The file holds its own game's vectors. */
        cr_assert_eq(w.game, g, "%s: 'game %s'", path, core_game_name(w.game));
        total += w.plies;
        files++;
    }
    cr_assert_gt(files, 0, "no golden vectors in %s", GOLDEN_DIR);
    cr_assert_gt(total, 100, "too few golden plies: %u", total);
}

Test(golden, every_compiled_in_game_has_vectors)
{
    /* Laska has vectors; a game merged without them is named (as
     * information: Criterion exits non-zero on a warning) so its author
     * adds tests/golden/GAME.txt (docs/determinism.md). */
    for (size_t i = 0; i < core_game_count(); i++) {
        const char *name = core_game_name(core_game_at(i));
        char path[512];
        FILE *f = open_vectors(core_game_at(i), path, sizeof path);
        if (strcmp(name, "laska") == 0)
            cr_assert_not_null(f, "missing %s", path);
        else if (f == NULL)
            cr_log_info("game %s has no golden vectors (%s)", name, path);
        if (f != NULL)
            fclose(f);
    }
}

Test(golden, a_changed_hash_or_move_is_caught, .init = setup)
{
    size_t len = 0;
    char *text = read_all(GOLDEN_DIR "/laska.txt", &len);
    Walk w;

    /* Flip one hex digit of the tenth move's hash. */
    char *p = text;
    for (int i = 0; i < 10 && p != NULL; i++)
        p = strstr(p + 1, "\nmove ");
    cr_assert_not_null(p);
    char *h = strchr(strchr(p + 6, ' ') + 1, '\n') - 1;
    *h = *h == '0' ? '1' : '0';
    FILE *f = fmemopen(text, len, "r");
    cr_assert_eq(walk_file(f, &w), -1);
    fclose(f);
    cr_assert_not_null(strstr(w.err, "state hash differs"), "%s", w.err);
    free(text);

    /* Two plies swapped: illegal or a different state. */
    static const char swapped[] =
        "game laska\nvector swapped\n"
        "start "
        "5b98f0728b77fe54b0f28e3e29b5925f0ffb186e392c036be2018e3732624702\n"
        "move c3-d4 "
        "c984df116645b1d64a40757758904a32fc5ceba0f79fabf342adbc363817322a\n";
    f = fmemopen((void *)swapped, sizeof swapped - 1, "r");
    cr_assert_eq(walk_file(f, &w), -1);
    fclose(f);
    cr_assert_not_null(strstr(w.err, "line 4: state hash differs"), "%s",
                       w.err);
}

/*
 * The first start hash of laska.txt is BLAKE2b-256 of the start encoding
 * built here by hand from the layout documented in core/laska.c: id 1,
 * version 1, side 0, ply u32 0, quiet u16 0, per square in Lasker order
 * its height and piece codes (white soldiers 0 on ranks 1-3, black
 * soldiers 2 on ranks 5-7), one history key (u64, little-endian).
 */
Test(golden, laska_start_hash_is_the_documented_layout, .init = setup)
{
    uint8_t want[9 + 25 + 22 + 2 + 8], got[1024];
    size_t n = 0, got_len = 0;
    Core_Position *pos = NULL;

    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), NULL), 0);
    want[n++] = 1;
    want[n++] = 1;
    memset(want + n, 0, 7);
    n += 7;
    for (int s = 0; s < 25; s++) {
        if (s < 11) {
            want[n++] = 1;
            want[n++] = 0;
        } else if (s < 14) {
            want[n++] = 0;
        } else {
            want[n++] = 1;
            want[n++] = 2;
        }
    }
    want[n++] = 1;
    want[n++] = 0;
    uint64_t key = core_key(pos);
    for (int i = 0; i < 8; i++)
        want[n++] = (uint8_t)(key >> (8 * i));
    cr_assert_eq(n, sizeof want);
    cr_assert_eq(core_encode(pos, got, sizeof got, &got_len), 0);
    cr_assert_eq(got_len, n);
    cr_assert_eq(memcmp(got, want, n), 0);

    uint8_t h[PROTO_HASH_BYTES];
    char hex[PROTO_HASH_HEX];
    cr_assert_eq(proto_state_hash(pos, h), 0);
    proto_hex(h, sizeof h, hex);
    size_t len = 0;
    char *text = read_all(GOLDEN_DIR "/laska.txt", &len);
    char *start = strstr(text, "\nstart ");
    cr_assert_not_null(start);
    cr_assert(strncmp(start + 7, hex, 64) == 0, "golden %.64s, computed %s",
              start + 7, hex);
    free(text);
    core_position_free(pos);
}
