/*
 * golden_check.c: the tiny golden-vector checker of the cross-build matrix
 * (tests/crossbuild.sh, docs/determinism.md). It links only core/,
 * club/rating.c (the ratings' maths) and libc,
 * so it builds with any C11 compiler for any target, and carries its own
 * BLAKE2b (RFC 7693) instead of libsodium's, so the state hashes of the
 * golden files are checked by a second implementation.
 *
 *   golden_check --dir DIR
 *       replays every vector of DIR/GAME.txt for each compiled-in game
 *       that has one (other files in DIR are other golden data), comparing
 *       the state hash after each ply; exit 1 on a mismatch or when no
 *       game has vectors.
 *   golden_check FILE...
 *       the same for the files named.
 *   golden_check --digest GAMES SEED
 *       for every compiled-in game: perft counts from the start, and one
 *       BLAKE2b-256 over the encodings, position strings, move notations
 *       and results of GAMES seeded random games. Every build must print
 *       the same lines.
 *   golden_check --ratings GAMES SEED
 *       the ratings' maths (club/rating.c, libc only, issue 38): Glickman's
 *       worked example, then GAMES seeded synthetic games among 64 keys
 *       (hidden strengths, draws, copies of a match, ties in start time)
 *       rated in the documented order: the first players' lines and one
 *       BLAKE2b-256 over every player's Q32.32 rating, RD, volatility and
 *       games. Every build must print the same lines.
 *   golden_check --host
 *       prints the build's byte order, pointer size and char signedness
 *       (what the matrix varies), for the record.
 *   golden_check --dump GAME [--options O] [--position P]
 *                (--seed S --plies N | MOVE...)
 *       prints "start HEX", "move NOTATION HEX" per ply and "result O R",
 *       HEX being the encoding, so tests/golden/derive.sh can hash it with
 *       an independent tool (b2sum) to make new vectors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "club.h"

/* ---- BLAKE2b (RFC 7693), unkeyed ------------------------------------ */

typedef struct Blake2b {
    uint64_t h[8];
    uint64_t t[2];
    uint8_t b[128];
    size_t c;
    size_t outlen;
} Blake2b;

static const uint64_t b2_iv[8] = {
    UINT64_C(0x6A09E667F3BCC908), UINT64_C(0xBB67AE8584CAA73B),
    UINT64_C(0x3C6EF372FE94F82B), UINT64_C(0xA54FF53A5F1D36F1),
    UINT64_C(0x510E527FADE682D1), UINT64_C(0x9B05688C2B3E6C1F),
    UINT64_C(0x1F83D9ABFB41BD6B), UINT64_C(0x5BE0CD19137E2179),
};

static const uint8_t b2_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static uint64_t rotr64(uint64_t x, unsigned n)
{
    return (x >> n) | (x << (64 - n));
}

/* Bytes are read as little-endian words on every host (RFC 7693 2.4). */
static uint64_t load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

#define B2_G(a, b, c, d, x, y)                                                 \
    do {                                                                       \
        v[a] = v[a] + v[b] + (x);                                              \
        v[d] = rotr64(v[d] ^ v[a], 32);                                        \
        v[c] = v[c] + v[d];                                                    \
        v[b] = rotr64(v[b] ^ v[c], 24);                                        \
        v[a] = v[a] + v[b] + (y);                                              \
        v[d] = rotr64(v[d] ^ v[a], 16);                                        \
        v[c] = v[c] + v[d];                                                    \
        v[b] = rotr64(v[b] ^ v[c], 63);                                        \
    } while (0)

static void b2_compress(Blake2b *ctx, int last)
{
    uint64_t v[16], m[16];

    for (int i = 0; i < 8; i++) {
        v[i] = ctx->h[i];
        v[i + 8] = b2_iv[i];
    }
    v[12] ^= ctx->t[0];
    v[13] ^= ctx->t[1];
    if (last)
        v[14] = ~v[14];
    for (int i = 0; i < 16; i++)
        m[i] = load64(ctx->b + 8 * i);
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = b2_sigma[r];
        B2_G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        B2_G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        B2_G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        B2_G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        B2_G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        B2_G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        B2_G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        B2_G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        ctx->h[i] ^= v[i] ^ v[i + 8];
}

static void b2_init(Blake2b *ctx, size_t outlen)
{
    memset(ctx, 0, sizeof *ctx);
    memcpy(ctx->h, b2_iv, sizeof ctx->h);
    ctx->h[0] ^= UINT64_C(0x01010000) ^ (uint64_t)outlen;
    ctx->outlen = outlen;
}

static void b2_update(Blake2b *ctx, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        if (ctx->c == 128) {
            ctx->t[0] += 128;
            if (ctx->t[0] < 128)
                ctx->t[1]++;
            b2_compress(ctx, 0);
            ctx->c = 0;
        }
        ctx->b[ctx->c++] = p[i];
    }
}

static void b2_final(Blake2b *ctx, uint8_t *out)
{
    ctx->t[0] += ctx->c;
    if (ctx->t[0] < ctx->c)
        ctx->t[1]++;
    memset(ctx->b + ctx->c, 0, 128 - ctx->c);
    b2_compress(ctx, 1);
    for (size_t i = 0; i < ctx->outlen; i++)
        out[i] = (uint8_t)(ctx->h[i / 8] >> (8 * (i % 8)));
}

/* ---- helpers -------------------------------------------------------- */

#define HASH_BYTES 32
#define LINE_MAX_ 8192

static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

/* The encoding of pos into a buffer of the game's encode_max (malloc'd);
 * NULL on error. */
static uint8_t *encode(const Core_Position *pos, size_t *len)
{
    size_t cap = core_game_encode_max(core_position_game(pos));
    uint8_t *buf = malloc(cap);
    if (buf != NULL && core_encode(pos, buf, cap, len) != 0) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

/* The state hash: BLAKE2b-256 of the encoding, as lowercase hex. */
static int state_hash_hex(const Core_Position *pos,
                          char out[2 * HASH_BYTES + 1])
{
    uint8_t h[HASH_BYTES];
    size_t len = 0;
    uint8_t *enc = encode(pos, &len);
    Blake2b ctx;

    if (enc == NULL)
        return -1;
    b2_init(&ctx, HASH_BYTES);
    b2_update(&ctx, enc, len);
    b2_final(&ctx, h);
    hex(h, HASH_BYTES, out);
    free(enc);
    return 0;
}

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* ---- golden files --------------------------------------------------- */

/* Per file: the game, the vector being replayed and where we are. */
typedef struct Golden {
    const char *path;
    unsigned line;
    const Core_Game *game;
    Core_Position *pos;
    char label[128];
    int started; /* the vector's "start" line was seen */
    unsigned vectors, plies;
} Golden;

static int fail(Golden *gf, const char *what, const char *detail)
{
    fprintf(stderr, "%s:%u: vector '%s': %s%s%s\n", gf->path, gf->line,
            gf->label, what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

/* Compare the hash of the current state with the expected hex. */
static int expect_hash(Golden *gf, const char *want)
{
    char got[2 * HASH_BYTES + 1];
    char detail[200];
    if (state_hash_hex(gf->pos, got) != 0)
        return fail(gf, "cannot encode the state", NULL);
    if (strcmp(got, want) != 0) {
        snprintf(detail, sizeof detail, "expected %s, got %s", want, got);
        return fail(gf, "state hash differs", detail);
    }
    return 0;
}

static int golden_line(Golden *gf, char *line)
{
    char *rest = strchr(line, ' ');
    char why[256] = "";
    int rc;

    if (rest != NULL)
        *rest++ = '\0';
    else
        rest = line + strlen(line);
    if (strcmp(line, "game") == 0) {
        gf->game = core_game_find(rest);
        if (gf->game == NULL)
            return fail(gf, "game not compiled in", rest);
        return 0;
    }
    if (gf->game == NULL)
        return fail(gf, "the file must open with 'game NAME'", NULL);
    if (strcmp(line, "vector") == 0) {
        if (gf->pos != NULL && !gf->started)
            return fail(gf, "vector without a start line", NULL);
        core_position_free(gf->pos);
        gf->pos = NULL;
        snprintf(gf->label, sizeof gf->label, "%s", rest);
        gf->started = 0;
        gf->vectors++;
        if (core_position_new(&gf->pos, gf->game, NULL) != 0)
            return fail(gf, "cannot make the start position", NULL);
        return 0;
    }
    if (gf->pos == NULL)
        return fail(gf, "a line before the first 'vector'", line);
    if (strcmp(line, "options") == 0 && !gf->started) {
        core_position_free(gf->pos);
        gf->pos = NULL;
        if (core_position_new(&gf->pos, gf->game, rest) != 0)
            return fail(gf, "bad options", rest);
        return 0;
    }
    if (strcmp(line, "position") == 0 && !gf->started) {
        if (core_position_parse(gf->pos, rest, why, sizeof why) != 0)
            return fail(gf, "bad position", why);
        return 0;
    }
    if (strcmp(line, "start") == 0 && !gf->started) {
        gf->started = 1;
        return expect_hash(gf, rest);
    }
    if (!gf->started)
        return fail(gf, "expected 'start HASH'", line);
    if (strcmp(line, "move") == 0) {
        char *hash = strrchr(rest, ' ');
        Core_Move mv;
        if (hash == NULL)
            return fail(gf, "expected 'move NOTATION HASH'", rest);
        *hash++ = '\0';
        rc = core_move_parse(gf->pos, rest, &mv);
        if (rc == 0)
            rc = core_play(gf->pos, &mv);
        if (rc != 0)
            return fail(gf, tb_strerror(rc), rest);
        gf->plies++;
        return expect_hash(gf, hash);
    }
    if (strcmp(line, "result") == 0) {
        char got[96];
        Core_Status st = core_status(gf->pos);
        snprintf(got, sizeof got, "%s %s", core_outcome_name(st.outcome),
                 core_reason_name(st.reason));
        if (strcmp(got, rest) != 0)
            return fail(gf, "result differs", got);
        return 0;
    }
    return fail(gf, "unknown line", line);
}

static int check_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[LINE_MAX_];
    Golden gf;
    int rc = 0;

    memset(&gf, 0, sizeof gf);
    gf.path = path;
    if (f == NULL) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        size_t n = strlen(line);
        gf.line++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n == 0 || line[0] == '#')
            continue;
        rc = golden_line(&gf, line);
    }
    fclose(f);
    if (rc == 0 && gf.pos != NULL && !gf.started)
        rc = fail(&gf, "vector without a start line", NULL);
    if (rc == 0 && gf.vectors == 0) {
        fprintf(stderr, "%s: no vectors\n", path);
        rc = 1;
    }
    core_position_free(gf.pos);
    if (rc == 0)
        printf("%s: %s, %u vectors, %u plies ok\n", path,
               core_game_name(gf.game), gf.vectors, gf.plies);
    return rc;
}

/* ---- digest of random games ----------------------------------------- */

static int digest_game(const Core_Game *g, unsigned long games, uint64_t seed)
{
    size_t cap = core_game_max_moves(g);
    Core_Move *moves = malloc(cap * sizeof *moves);
    Core_Position *pos = NULL;
    uint8_t h[HASH_BYTES];
    char out[2 * HASH_BYTES + 1];
    unsigned long long plies = 0;
    Blake2b ctx;
    int rc = moves == NULL ? -1 : core_position_new(&pos, g, NULL);

    /* Perft from the start, one level deeper while the last count is
     * under 50,000 nodes, so slow emulated builds stay quick. */
    uint64_t nodes = 0;
    printf("%s perft", core_game_name(g));
    for (unsigned d = 1; rc == 0 && d <= 12 && nodes < 50000; d++) {
        rc = core_perft(pos, d, &nodes);
        printf(" %llu", (unsigned long long)nodes);
    }
    printf("\n");
    core_position_free(pos);
    pos = NULL;
    b2_init(&ctx, HASH_BYTES);
    for (unsigned long i = 0; rc == 0 && i < games; i++) {
        uint64_t rng = seed + i;
        rc = core_position_new(&pos, g, NULL);
        while (rc == 0) {
            char text[CORE_POSITION_TEXT_MAX];
            size_t n = 0, len = 0;
            uint8_t *enc = encode(pos, &len);
            if (enc == NULL) {
                rc = -1;
                break;
            }
            b2_update(&ctx, enc, len);
            free(enc);
            rc = core_position_format(pos, text, sizeof text);
            if (rc == 0)
                b2_update(&ctx, text, strlen(text) + 1);
            if (rc == 0)
                rc = core_moves(pos, moves, cap, &n);
            if (rc != 0 || n == 0 || core_ply(pos) >= 1000)
                break;
            Core_Move *mv = &moves[splitmix(&rng) % (uint64_t)n];
            rc = core_move_format(pos, mv, text, sizeof text);
            if (rc == 0)
                b2_update(&ctx, text, strlen(text) + 1);
            if (rc == 0)
                rc = core_play(pos, mv);
            plies++;
        }
        if (rc == 0) {
            Core_Status st = core_status(pos);
            const char *o = core_outcome_name(st.outcome);
            const char *r = core_reason_name(st.reason);
            b2_update(&ctx, o, strlen(o) + 1);
            b2_update(&ctx, r, strlen(r) + 1);
        }
        core_position_free(pos);
        pos = NULL;
    }
    free(moves);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", core_game_name(g), tb_strerror(rc));
        return 1;
    }
    b2_final(&ctx, h);
    hex(h, HASH_BYTES, out);
    printf("%s games %lu plies %llu digest %s\n", core_game_name(g), games,
           plies, out);
    return 0;
}

/* ---- the ratings' maths -------------------------------------------- */

static void put_be64(Blake2b *ctx, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (56 - 8 * i));
    b2_update(ctx, b, sizeof b);
}

static void print_glicko(const char *tag, const Club_Glicko *g)
{
    char r[32], rd[32], vol[32];
    club_fix_format(g->rating, 4, r, sizeof r);
    club_fix_format(g->rd, 4, rd, sizeof rd);
    club_fix_format(g->vol, 9, vol, sizeof vol);
    printf("%s %s %s %s raw %016llx %016llx %016llx\n", tag, r, rd, vol,
           (unsigned long long)g->rating, (unsigned long long)g->rd,
           (unsigned long long)g->vol);
}

static int digest_ratings(unsigned long games, uint64_t seed)
{
    enum { KEYS = 64 };
    Club_Glicko p = {1500 * CLUB_FIX_ONE, 200 * CLUB_FIX_ONE,
                     club_fix_ratio(6, 100)},
                out;
    Club_Rated_Result paper[3] = {
        {1400 * CLUB_FIX_ONE, 30 * CLUB_FIX_ONE, CLUB_FIX_ONE},
        {1550 * CLUB_FIX_ONE, 100 * CLUB_FIX_ONE, 0},
        {1700 * CLUB_FIX_ONE, 300 * CLUB_FIX_ONE, 0}};
    Club_Ratings *list;
    Blake2b ctx;
    uint8_t h[HASH_BYTES];
    char hx[2 * HASH_BYTES + 1];
    int strength[KEYS];
    uint64_t rng = seed;

    if (club_glicko_update(&p, paper, 3, club_fix_ratio(1, 2), &out) != 0)
        return 1;
    print_glicko("ratings paper", &out);
    if (club_glicko_update(&p, NULL, 0, club_fix_ratio(1, 2), &out) != 0)
        return 1;
    print_glicko("ratings idle", &out);
    if (club_ratings_new(&list) != 0)
        return 1;
    for (int k = 0; k < KEYS; k++)
        strength[k] = (int)(splitmix(&rng) % 800);
    for (unsigned long i = 0; i < games; i++) {
        Club_Rated_Game g;
        int w = (int)(splitmix(&rng) % KEYS), b = (int)(splitmix(&rng) % KEYS);
        uint64_t roll = splitmix(&rng) % 1000;
        int edge = 500 + strength[w] - strength[b]; /* white's chance in 1000 */
        memset(&g, 0, sizeof g);
        strcpy(g.game, i % 5 == 4 ? "chessball" : "laska");
        g.klass = (uint8_t)(i % 3 == 0 ? CLUB_CLASS_BLITZ : CLUB_CLASS_RAPID);
        memset(g.white, w, sizeof g.white);
        memset(g.black, b, sizeof g.black);
        g.white[0] = (uint8_t)(200 + w % 50); /* keys sort unlike indices */
        g.black[0] = (uint8_t)(200 + b % 50);
        g.score = (uint8_t)((int64_t)roll < edge - 100 ? 2
                            : (int64_t)roll < edge + 100 ? 1
                                                         : 0);
        g.started = 1800000000u + i / 4; /* ties: the id decides */
        for (int j = 0; j < PROTO_HASH_BYTES; j++)
            g.id[j] = (uint8_t)splitmix(&rng);
        g.source = (uint32_t)i;
        if (club_ratings_add(list, &g) != 0)
            return 1;
        if (i % 7 == 0) { /* the guest's copy of the match */
            g.source = (uint32_t)(i + games);
            if (club_ratings_add(list, &g) != 0)
                return 1;
        }
    }
    if (club_ratings_run(list, club_fix_ratio(1, 2), NULL, NULL) != 0)
        return 1;
    b2_init(&ctx, HASH_BYTES);
    for (size_t i = 0; i < club_ratings_count(list); i++) {
        const Club_Rated_Player *pl = club_ratings_at(list, i);
        b2_update(&ctx, pl->game, strlen(pl->game) + 1);
        b2_update(&ctx, &pl->klass, 1);
        b2_update(&ctx, pl->key, sizeof pl->key);
        put_be64(&ctx, (uint64_t)pl->g.rating);
        put_be64(&ctx, (uint64_t)pl->g.rd);
        put_be64(&ctx, (uint64_t)pl->g.vol);
        put_be64(&ctx, pl->games);
        if (i < 3) {
            char tag[64];
            snprintf(tag, sizeof tag, "ratings %s %s %02x", pl->game,
                     club_class_name(pl->klass), pl->key[1]);
            print_glicko(tag, &pl->g);
        }
    }
    b2_final(&ctx, h);
    hex(h, HASH_BYTES, hx);
    printf("ratings games %lu rated %zu players %zu digest %s\n", games,
           club_ratings_rated(list), club_ratings_count(list), hx);
    club_ratings_free(list);
    return 0;
}

/* ---- dump for deriving new vectors ---------------------------------- */

static int dump_state(const Core_Position *pos, const char *tag,
                      const char *notation)
{
    size_t len = 0;
    uint8_t *enc = encode(pos, &len);
    char *out;
    if (enc == NULL)
        return 1;
    out = malloc(2 * len + 1);
    if (out == NULL) {
        free(enc);
        return 1;
    }
    hex(enc, len, out);
    printf("%s%s%s %s\n", tag, notation ? " " : "", notation ? notation : "",
           out);
    free(out);
    free(enc);
    return 0;
}

static int dump(int argc, char **argv)
{
    const Core_Game *g = argc > 0 ? core_game_find(argv[0]) : NULL;
    const char *options = NULL, *position = NULL;
    unsigned long long seed = 0, plies = 0;
    int random = 0, first_move = argc;
    Core_Position *pos = NULL;
    char why[256] = "";

    if (g == NULL) {
        fprintf(stderr, "golden_check --dump: unknown game\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--options") == 0 && i + 1 < argc)
            options = argv[++i];
        else if (strcmp(argv[i], "--position") == 0 && i + 1 < argc)
            position = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10), random = 1;
        else if (strcmp(argv[i], "--plies") == 0 && i + 1 < argc)
            plies = strtoull(argv[++i], NULL, 10);
        else {
            first_move = i;
            break;
        }
    }
    if (core_position_new(&pos, g, options) != 0) {
        fprintf(stderr, "golden_check --dump: bad options\n");
        return 2;
    }
    if (position != NULL &&
        core_position_parse(pos, position, why, sizeof why) != 0) {
        fprintf(stderr, "golden_check --dump: bad position: %s\n", why);
        core_position_free(pos);
        return 2;
    }
    size_t cap = core_game_max_moves(g);
    Core_Move *moves = malloc(cap * sizeof *moves);
    uint64_t rng = seed;
    int rc = moves == NULL || dump_state(pos, "start", NULL);
    for (int i = first_move; rc == 0; i++) {
        char text[CORE_NOTATION_MAX];
        Core_Move mv;
        size_t n = 0;
        if (random) {
            if (plies-- == 0 || core_moves(pos, moves, cap, &n) != 0 || n == 0)
                break;
            mv = moves[splitmix(&rng) % (uint64_t)n];
        } else {
            if (i >= argc)
                break;
            if (core_move_parse(pos, argv[i], &mv) != 0) {
                fprintf(stderr, "golden_check --dump: bad move '%s'\n",
                        argv[i]);
                rc = 2;
                break;
            }
        }
        if (core_move_format(pos, &mv, text, sizeof text) != 0 ||
            core_play(pos, &mv) != 0) {
            rc = 1;
            break;
        }
        rc = dump_state(pos, "move", random ? text : argv[i]);
    }
    if (rc == 0) {
        Core_Status st = core_status(pos);
        printf("result %s %s\n", core_outcome_name(st.outcome),
               core_reason_name(st.reason));
    }
    free(moves);
    core_position_free(pos);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;

    if (argc == 2 && strcmp(argv[1], "--host") == 0) {
        const uint16_t one = 1;
        printf("%s-endian,%zu-bit,char-%s\n",
               *(const uint8_t *)&one ? "little" : "big", 8 * sizeof(void *),
               (char)-1 < 0 ? "signed" : "unsigned");
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--dump") == 0)
        return dump(argc - 2, argv + 2);
    if (argc == 4 && strcmp(argv[1], "--digest") == 0) {
        unsigned long games = strtoul(argv[2], NULL, 10);
        uint64_t seed = strtoull(argv[3], NULL, 10);
        for (size_t i = 0; i < core_game_count(); i++)
            rc |= digest_game(core_game_at(i), games, seed);
        return rc;
    }
    if (argc == 4 && strcmp(argv[1], "--ratings") == 0)
        return digest_ratings(strtoul(argv[2], NULL, 10),
                              strtoull(argv[3], NULL, 10));
    if (argc == 3 && strcmp(argv[1], "--dir") == 0) {
        int files = 0;
        for (size_t i = 0; i < core_game_count(); i++) {
            const char *name = core_game_name(core_game_at(i));
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.txt", argv[2], name);
            FILE *f = fopen(path, "r");
            if (f == NULL) {
                printf("%s: no golden vectors\n", name);
                continue;
            }
            fclose(f);
            files++;
            rc |= check_file(path);
        }
        if (files == 0) {
            fprintf(stderr, "%s: no golden vectors for any game\n", argv[2]);
            rc = 1;
        }
        return rc;
    }
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: golden_check FILE... | --dir DIR | "
                        "--digest GAMES SEED | --ratings GAMES SEED | "
                        "--dump GAME [--options O] [--position P] "
                        "(--seed S --plies N | MOVE...)\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        rc |= check_file(argv[i]);
    return rc;
}
