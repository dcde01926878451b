/*
 * synctest.c: `tabula synctest`, the determinism self-test in the spirit of
 * GGPO's SyncTest (issue 8). It plays seeded random games of every
 * compiled-in game (or the one named) through the public core interface
 * only, and at every ply checks that the ways of computing one state that
 * lockstep peers rely on agree: (a) encode, decode and re-encode give the
 * same bytes, hash and behaviour; (b) a fresh replay of the move list from
 * the start gives the same state; (c) copy-make (core_make on a copy) and
 * validated play (core_play) agree, and core_perft agrees with a perft
 * counted here through core_moves and core_make; (d) the notation of every
 * legal move parses back to that move; (e) the position string round-trips.
 * It also checks the contract that a position has no legal moves exactly
 * when its game is over. The first failure prints the game, the ply, both
 * states and a command line that reproduces it, and exits 1.
 *
 * The test-only switch TABULA_SYNCTEST_PLANT (read here and nowhere else,
 * never by core/) plants a nondeterminism into one side of one check at a
 * ply drawn from the clock, so a test can prove each check catches it.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "cli.h"
#include "proto.h"

#define SYNC_DEFAULT_GAMES 100
#define SYNC_DEFAULT_PLIES 1000
#define SYNC_MAX_PLIES 100000
#define SYNC_DEFAULT_PERFT 2
#define SYNC_MAX_PERFT 4
#define SYNC_PROGRESS_SECONDS 2.0

static const char synctest_help[] =
    N_("usage: tabula synctest [GAME] [--games N] [--seed S] [--plies P]\n"
    "                       [--perft D] [--options OPTS]\n"
    "\n"
    "Plays N seeded random games of each compiled-in game (or of GAME) and\n"
    "at every ply checks that every way of computing the state agrees:\n"
    "  (a) encode, decode, re-encode: same bytes, hash, key, moves, status\n"
    "  (b) replaying the move list on a fresh start position: same hash\n"
    "  (c) core_make on a copy vs core_play: same state; core_perft to\n"
    "      depth D vs a perft counted through core_moves and core_make\n"
    "  (d) the notation of every legal move parses back to that move\n"
    "  (e) the position string parses and formats back to itself, with\n"
    "      the same legal moves\n"
    "and that a position has no legal moves exactly when the game is over.\n"
    "On the first failure it prints the game, the ply, both states and a\n"
    "command that reproduces it, and exits 1. Progress goes to standard\n"
    "error every few seconds; one summary line per game goes to standard\n"
    "output, with a digest of every state hash seen (equal on every build\n"
    "for the same arguments).\n"
    "  --games N      games per game (default 100)\n"
    "  --seed S       seed of the random move choices (default 1)\n"
    "  --plies P      stop a game unfinished after P plies (default 1000)\n"
    "  --perft D      perft depth of check (c), 0 to skip (default 2)\n"
    "  --options OPTS match options (only with GAME)\n");

/* What TABULA_SYNCTEST_PLANT may name: the check whose one side is
 * disturbed. */
typedef enum Sync_Plant {
    SYNC_PLANT_NONE = 0,
    SYNC_PLANT_ENCODE,   /* (a): one bit of the encoding flips */
    SYNC_PLANT_REPLAY,   /* (b): the replay plays another move once */
    SYNC_PLANT_MAKE,     /* (c): copy-make applies another move */
    SYNC_PLANT_NOTATION, /* (d): a move's text is read as another's */
    SYNC_PLANT_POSITION  /* (e): the parsed position moves on once */
} Sync_Plant;

static const char *const plant_names[] = {
    "", "encode", "replay", "make", "notation", "position",
};

typedef struct Sync_Args {
    const Core_Game *only;
    const char *options;
    uint64_t games;
    uint64_t seed;
    uint32_t plies;
    unsigned perft;
} Sync_Args;

/* One game's run: buffers allocated once, reused by every ply. */
typedef struct Sync {
    const Core_Game *g;
    const Sync_Args *args;
    Core_Position *live;              /* the position played with core_play */
    Core_Position *other;             /* scratch: decoded, copy-made, parsed */
    Core_Position **stack;            /* perft: one position per depth */
    Core_Position *plant_a, *plant_b; /* scratch of the planted faults */
    Core_Move *moves;                 /* live's legal moves */
    Core_Move *moves2;                /* another position's legal moves */
    Core_Move *stack_moves;           /* perft: max_moves per depth */
    Core_Move *played;                /* the move list since the start */
    uint8_t *enc1, *enc2;
    size_t enc_cap;
    char *text1, *text2;
    uint64_t game_index;
    uint32_t ply;
    uint64_t digest;
    Sync_Plant plant;
    uint32_t plant_at; /* first ply the plant may fire at */
    int plant_armed;
} Sync;

/* splitmix64 (Steele, Lea, Flood 2014): the move choices and the per-game
 * seeds. Local to the client, so core/ keeps no random source. */
static uint64_t sync_mix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The seed of game i of a run: the (i+1)-th output of splitmix64 started
 * at the run's seed, so game i can be reproduced alone. */
static uint64_t game_seed(uint64_t seed, uint64_t i)
{
    uint64_t state = seed + i * UINT64_C(0x9E3779B97F4A7C15);
    return sync_mix(&state);
}

/* ---- reporting ------------------------------------------------------ */

static void print_hex(const uint8_t *b, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        if (i % 32 == 0)
            printf("%s    ", i ? "\n" : "");
        putchar(digits[b[i] >> 4]);
        putchar(digits[b[i] & 15]);
    }
    putchar('\n');
}

/* Everything known about one state, for a failure report. */
static void print_state(const char *label, const Core_Position *pos)
{
    char text[CORE_POSITION_TEXT_MAX];
    uint8_t hash[PROTO_HASH_BYTES];
    char hex[PROTO_HASH_HEX];
    size_t cap = core_game_encode_max(core_position_game(pos)), len = 0;
    uint8_t *enc = malloc(cap);
    Core_Status st = core_status(pos);

    printf("state %s:\n", label);
    if (core_position_format(pos, text, sizeof text) == 0)
        printf("  position: %s\n", text);
    else
        printf("  position: (cannot be formatted)\n");
    printf("  side %s, ply %u, key %016llx, status %s (%s)\n",
           core_side_to_move(pos) == CORE_WHITE ? "white" : "black",
           core_ply(pos), (unsigned long long)core_key(pos),
           core_outcome_name(st.outcome), core_reason_name(st.reason));
    if (proto_state_hash(pos, hash) == 0) {
        proto_hex(hash, sizeof hash, hex);
        printf("  hash: %s\n", hex);
    }
    if (enc != NULL && core_encode(pos, enc, cap, &len) == 0) {
        printf("  encoding (%zu bytes):\n", len);
        print_hex(enc, len);
    }
    free(enc);
}

/* Report the first failure: game, ply, what differs, both states (b may
 * be NULL), the moves so far and how to rerun. Returns CLI_EXIT_FAIL. */
static int sync_fail(Sync *s, const char *check, const char *what,
                     const char *alabel, const Core_Position *a,
                     const char *blabel, const Core_Position *b)
{
    const Sync_Args *args = s->args;
    Core_Position *walk = NULL;

    fflush(stderr);
    printf("synctest: FAILED %s: game %s, game #%llu, ply %u: %s\n", check,
           core_game_name(s->g), (unsigned long long)s->game_index, s->ply,
           what);
    if (a != NULL)
        print_state(alabel, a);
    if (b != NULL)
        print_state(blabel, b);
    printf("moves:");
    if (core_position_new(&walk, s->g, args->options) == 0) {
        for (uint32_t i = 0; i < s->ply; i++) {
            char text[CORE_NOTATION_MAX];
            if (core_move_format(walk, &s->played[i], text, sizeof text) != 0)
                break;
            printf(" %s", text);
            core_make(walk, &s->played[i]);
        }
    }
    core_position_free(walk);
    printf("\nrerun: tabula synctest %s --seed %llu --games %llu --plies %u "
           "--perft %u",
           core_game_name(s->g), (unsigned long long)args->seed,
           (unsigned long long)s->game_index + 1, args->plies, args->perft);
    if (args->options != NULL && args->options[0] != '\0')
        printf(" --options '%s'", args->options);
    printf("\n");
    fflush(stdout);
    return CLI_EXIT_FAIL;
}

/* A core call that should not fail did: report it under check. */
static int sync_error(Sync *s, const char *check, const char *call, int rc,
                      const Core_Position *pos)
{
    char what[256];
    snprintf(what, sizeof what, "%s failed: %s", call, _(tb_strerror(rc)));
    return sync_fail(s, check, what, "live", pos, NULL, NULL);
}

/* True (and disarmed) when the planted fault of this kind fires now. */
static int plant_fires(Sync *s, Sync_Plant kind)
{
    if (s->plant != kind || !s->plant_armed || s->ply < s->plant_at)
        return 0;
    s->plant_armed = 0;
    return 1;
}

/* ---- helpers over the interface ------------------------------------- */

/* 0 when a and b encode to the same bytes, 1 when not, or an error. */
static int differ(Sync *s, const Core_Position *a, const Core_Position *b)
{
    size_t la = 0, lb = 0;
    int rc = core_encode(a, s->enc1, s->enc_cap, &la);
    if (rc == 0)
        rc = core_encode(b, s->enc2, s->enc_cap, &lb);
    if (rc != 0)
        return rc;
    return la != lb || memcmp(s->enc1, s->enc2, la) != 0;
}

/* Compare the legal move lists of two positions (same order). 0 same,
 * 1 different, or an error. Uses s->moves2 for b. */
static int moves_differ(Sync *s, const Core_Move *am, size_t an,
                        const Core_Position *b)
{
    size_t bn = 0;
    int rc = core_moves(b, s->moves2, core_game_max_moves(s->g), &bn);
    if (rc != 0)
        return rc;
    if (an != bn)
        return 1;
    for (size_t i = 0; i < an; i++)
        if (!core_move_equal(&am[i], &s->moves2[i]))
            return 1;
    return 0;
}

/* The leaf count of depth plies below stack[level] via core_moves and
 * core_make on copies (the caller's reference for core_perft). */
static int own_perft(Sync *s, unsigned level, unsigned depth, uint64_t *nodes)
{
    size_t cap = core_game_max_moves(s->g), n = 0;
    Core_Move *mv = s->stack_moves + (size_t)level * cap;
    int rc = core_moves(s->stack[level], mv, cap, &n);

    if (rc != 0 || depth == 1) {
        *nodes += n;
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        core_position_copy(s->stack[level + 1], s->stack[level]);
        core_make(s->stack[level + 1], &mv[i]);
        rc = own_perft(s, level + 1, depth - 1, nodes);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* For a planted fault: the index of a legal move of pos (listed in
 * mv[0..n)) whose result differs from that of mv[pick], or n if none. */
static size_t other_move(Sync *s, const Core_Position *pos, const Core_Move *mv,
                         size_t n, size_t pick)
{
    core_position_copy(s->plant_a, pos);
    core_make(s->plant_a, &mv[pick]);
    for (size_t j = 1; j < n; j++) {
        size_t c = (pick + j) % n;
        core_position_copy(s->plant_b, pos);
        core_make(s->plant_b, &mv[c]);
        if (differ(s, s->plant_a, s->plant_b) == 1)
            return c;
    }
    return n;
}

/* ---- the checks of one ply ------------------------------------------ */

/* Contract: no legal moves exactly when the game is over. */
static int check_status(Sync *s, size_t n)
{
    Core_Status st = core_status(s->live);
    if ((n == 0) == (st.outcome != CORE_ONGOING))
        return 0;
    return sync_fail(s, "status",
                     n == 0 ? "no legal moves but the game is not over"
                            : "legal moves listed in a finished game",
                     "live", s->live, NULL, NULL);
}

/* (a) encode, decode, re-encode. */
static int check_encoding(Sync *s, size_t n)
{
    uint8_t h1[PROTO_HASH_BYTES], h2[PROTO_HASH_BYTES];
    size_t len = 0, len2 = 0;
    int rc = core_encode(s->live, s->enc1, s->enc_cap, &len);

    if (rc != 0)
        return sync_error(s, "(a) encoding", "core_encode", rc, s->live);
    if (len == 0 || len > core_game_encode_max(s->g))
        return sync_fail(s, "(a) encoding", "encoding longer than encode_max",
                         "live", s->live, NULL, NULL);
    if (plant_fires(s, SYNC_PLANT_ENCODE))
        s->enc1[len - 1] ^= 1;
    rc = core_decode(s->other, s->enc1, len);
    if (rc != 0)
        return sync_error(s, "(a) encoding", "core_decode of its own encoding",
                          rc, s->live);
    rc = core_encode(s->other, s->enc2, s->enc_cap, &len2);
    if (rc != 0)
        return sync_error(s, "(a) encoding", "core_encode after decoding", rc,
                          s->other);
    if (len != len2 || memcmp(s->enc1, s->enc2, len) != 0)
        return sync_fail(s, "(a) encoding", "re-encoding gives other bytes",
                         "live", s->live, "decoded", s->other);
    if ((rc = proto_state_hash(s->live, h1)) != 0 ||
        (rc = proto_state_hash(s->other, h2)) != 0)
        return sync_error(s, "(a) encoding", "proto_state_hash", rc, s->live);
    if (memcmp(h1, h2, sizeof h1) != 0)
        return sync_fail(s, "(a) encoding", "state hash differs after decoding",
                         "live", s->live, "decoded", s->other);
    Core_Status sa = core_status(s->live), sb = core_status(s->other);
    if (core_key(s->live) != core_key(s->other) ||
        core_side_to_move(s->live) != core_side_to_move(s->other) ||
        core_ply(s->live) != core_ply(s->other) || sa.outcome != sb.outcome ||
        sa.reason != sb.reason)
        return sync_fail(s, "(a) encoding",
                         "key, side, ply or status differs after decoding",
                         "live", s->live, "decoded", s->other);
    rc = moves_differ(s, s->moves, n, s->other);
    if (rc < 0)
        return sync_error(s, "(a) encoding", "core_moves", rc, s->other);
    if (rc > 0)
        return sync_fail(s, "(a) encoding", "legal moves differ after decoding",
                         "live", s->live, "decoded", s->other);
    /* Fold the hash into the run's digest (its first 8 bytes XORed in,
     * then one splitmix64 step), which every build must reproduce. */
    uint64_t word = 0;
    for (int i = 0; i < 8; i++)
        word = word << 8 | h1[i];
    s->digest ^= word;
    s->digest = sync_mix(&s->digest);
    return 0;
}

/* (e) the position string round-trips. */
static int check_position(Sync *s, size_t n)
{
    char why[256] = "";
    int rc = core_position_format(s->live, s->text1, CORE_POSITION_TEXT_MAX);

    if (rc != 0)
        return sync_error(s, "(e) position", "core_position_format", rc,
                          s->live);
    core_position_copy(s->other, s->live);
    rc = core_position_parse(s->other, s->text1, why, sizeof why);
    if (rc != 0) {
        char what[CORE_POSITION_TEXT_MAX + 512];
        snprintf(what, sizeof what,
                 "its own position string is refused: %s: %s\n  string: %s",
                 _(tb_strerror(rc)), why, s->text1);
        return sync_fail(s, "(e) position", what, "live", s->live, NULL, NULL);
    }
    if (n > 0 && plant_fires(s, SYNC_PLANT_POSITION))
        core_make(s->other, &s->moves[0]);
    rc = core_position_format(s->other, s->text2, CORE_POSITION_TEXT_MAX);
    if (rc != 0)
        return sync_error(s, "(e) position", "core_position_format", rc,
                          s->other);
    if (strcmp(s->text1, s->text2) != 0)
        return sync_fail(s, "(e) position",
                         "the parsed string formats differently", "live",
                         s->live, "parsed", s->other);
    /* Repetition history starts afresh in a parsed position, so only an
     * ongoing game must keep its moves. */
    if (n == 0)
        return 0;
    rc = moves_differ(s, s->moves, n, s->other);
    if (rc < 0)
        return sync_error(s, "(e) position", "core_moves", rc, s->other);
    if (rc > 0)
        return sync_fail(s, "(e) position",
                         "the parsed position has other legal moves", "live",
                         s->live, "parsed", s->other);
    return 0;
}

/* A move's bytes for a report: "flags F: b0 b1 ...". */
static void move_bytes(const Core_Move *mv, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "flags %u:", mv->flags);
    for (int i = 0;
         i < mv->len && i < CORE_MOVE_BYTES && n > 0 && (size_t)n < cap; i++)
        n += snprintf(buf + n, cap - (size_t)n, " %02x", mv->b[i]);
}

/* (d) every legal move's notation parses back to it. */
static int check_notation(Sync *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char text[CORE_NOTATION_MAX], back[64], own[3 * CORE_MOVE_BYTES + 32];
        char what[512];
        Core_Move mv;
        size_t src = i;
        if (n > 1 && plant_fires(s, SYNC_PLANT_NOTATION))
            src = (i + 1) % n;
        int rc = core_move_format(s->live, &s->moves[src], text, sizeof text);
        if (rc != 0)
            return sync_error(s, "(d) notation", "core_move_format", rc,
                              s->live);
        rc = core_move_parse(s->live, text, &mv);
        if (rc != 0) {
            snprintf(what, sizeof what, "move %zu '%s' does not parse: %s",
                     i + 1, text, _(tb_strerror(rc)));
            return sync_fail(s, "(d) notation", what, "live", s->live, NULL,
                             NULL);
        }
        if (!core_move_equal(&mv, &s->moves[i])) {
            size_t j = 0;
            while (j < n && !core_move_equal(&mv, &s->moves[j]))
                j++;
            if (j == n)
                snprintf(back, sizeof back, "a move not in the list");
            else
                snprintf(back, sizeof back, "move %zu", j + 1);
            move_bytes(&s->moves[i], own, sizeof own);
            snprintf(what, sizeof what,
                     "move %zu of %zu [%s] formats as '%s', which parses to "
                     "%s",
                     i + 1, n, own, text, back);
            return sync_fail(s, "(d) notation", what, "live", s->live, NULL,
                             NULL);
        }
    }
    return 0;
}

/* (c) core_perft against a perft counted here. */
static int check_perft(Sync *s)
{
    uint64_t theirs = 0, ours = 0;
    unsigned depth = s->args->perft;

    if (depth == 0)
        return 0;
    int rc = core_perft(s->live, depth, &theirs);
    if (rc != 0)
        return sync_error(s, "(c) perft", "core_perft", rc, s->live);
    core_position_copy(s->stack[0], s->live);
    rc = own_perft(s, 0, depth, &ours);
    if (rc != 0)
        return sync_error(s, "(c) perft", "core_moves", rc, s->live);
    if (theirs != ours) {
        char what[160];
        snprintf(what, sizeof what,
                 "core_perft %u gives %llu, core_moves/core_make give %llu",
                 depth, (unsigned long long)theirs, (unsigned long long)ours);
        return sync_fail(s, "(c) perft", what, "live", s->live, NULL, NULL);
    }
    return 0;
}

/* (c) copy-make against core_play, which then moves the live position. */
static int play_checked(Sync *s, size_t n, size_t pick)
{
    size_t made = pick;
    if (s->plant == SYNC_PLANT_MAKE) {
        size_t c = other_move(s, s->live, s->moves, n, pick);
        if (c < n && plant_fires(s, SYNC_PLANT_MAKE))
            made = c;
    }
    core_position_copy(s->other, s->live);
    core_make(s->other, &s->moves[made]);
    int rc = core_play(s->live, &s->moves[pick]);
    if (rc != 0)
        return sync_error(s, "(c) make", "core_play of a listed move", rc,
                          s->live);
    s->played[s->ply++] = s->moves[pick];
    rc = differ(s, s->live, s->other);
    if (rc < 0)
        return sync_error(s, "(c) make", "core_encode", rc, s->live);
    if (rc > 0)
        return sync_fail(s, "(c) make",
                         "core_make on a copy and core_play differ", "live",
                         s->live, "copy-made", s->other);
    return 0;
}

/* (b) a fresh position from the start and the move list replayed: the
 * moves up to the previous ply with core_make (each was listed at its ply,
 * and the previous ply's replay reached the same state), the newest one
 * with core_play, as a peer receiving it would. Validating every move
 * again would make each game quadratic in move generations. */
static int check_replay(Sync *s)
{
    Core_Position *fresh = NULL;
    int rc = core_position_new(&fresh, s->g, s->args->options);

    if (rc != 0)
        return sync_error(s, "(b) replay", "core_position_new", rc, s->live);
    for (uint32_t i = 0; i < s->ply && rc == 0; i++) {
        const Core_Move *mv = &s->played[i];
        size_t n = 0;
        if (s->plant == SYNC_PLANT_REPLAY && s->plant_armed &&
            i + 1 == s->ply &&
            core_moves(fresh, s->moves2, core_game_max_moves(s->g), &n) == 0) {
            size_t j = 0;
            while (j < n && !core_move_equal(&s->moves2[j], mv))
                j++;
            size_t c = j < n ? other_move(s, fresh, s->moves2, n, j) : n;
            if (c < n && plant_fires(s, SYNC_PLANT_REPLAY))
                mv = &s->moves2[c];
        }
        if (i + 1 < s->ply)
            core_make(fresh, mv);
        else
            rc = core_play(fresh, mv);
    }
    if (rc != 0) {
        int ret =
            sync_error(s, "(b) replay", "core_play while replaying", rc, fresh);
        core_position_free(fresh);
        return ret;
    }
    uint8_t h1[PROTO_HASH_BYTES], h2[PROTO_HASH_BYTES];
    if ((rc = proto_state_hash(s->live, h1)) == 0)
        rc = proto_state_hash(fresh, h2);
    int ret = 0;
    if (rc != 0)
        ret = sync_error(s, "(b) replay", "proto_state_hash", rc, s->live);
    else if (memcmp(h1, h2, sizeof h1) != 0)
        ret = sync_fail(s, "(b) replay",
                        "replaying the move list gives another state hash",
                        "live", s->live, "replayed", fresh);
    core_position_free(fresh);
    return ret;
}

/* ---- one game, one run ---------------------------------------------- */

typedef struct Sync_Totals {
    uint64_t plies;
    uint64_t results[5]; /* by Core_Outcome; ONGOING = ply limit */
} Sync_Totals;

static int play_game(Sync *s, uint64_t seed, Sync_Totals *tot)
{
    uint64_t rng = seed;
    size_t cap = core_game_max_moves(s->g);
    int rc = core_position_new(&s->live, s->g, s->args->options);

    if (rc != 0)
        return sync_error(s, "setup", "core_position_new", rc, NULL);
    s->ply = 0;
    for (;;) {
        size_t n = 0;
        rc = core_moves(s->live, s->moves, cap, &n);
        if (rc != 0)
            return sync_error(s, "moves", "core_moves", rc, s->live);
        if ((rc = check_status(s, n)) != 0 ||
            (rc = check_encoding(s, n)) != 0 ||
            (rc = check_position(s, n)) != 0 ||
            (rc = check_notation(s, n)) != 0 || (rc = check_perft(s)) != 0)
            return rc;
        if (n == 0 || s->ply >= s->args->plies)
            break;
        if ((rc = play_checked(s, n, (size_t)(sync_mix(&rng) % n))) != 0 ||
            (rc = check_replay(s)) != 0)
            return rc;
    }
    Core_Outcome o = core_status(s->live).outcome;
    tot->results[(unsigned)o < 5 ? o : CORE_ABORTED]++;
    tot->plies += s->ply;
    core_position_free(s->live);
    s->live = NULL;
    return 0;
}

static void sync_free(Sync *s)
{
    if (s->stack != NULL)
        for (unsigned i = 0; i <= s->args->perft; i++)
            core_position_free(s->stack[i]);
    free(s->stack);
    core_position_free(s->live);
    core_position_free(s->other);
    core_position_free(s->plant_a);
    core_position_free(s->plant_b);
    free(s->moves);
    free(s->moves2);
    free(s->stack_moves);
    free(s->played);
    free(s->enc1);
    free(s->enc2);
    free(s->text1);
    free(s->text2);
}

static int sync_alloc(Sync *s)
{
    size_t cap = core_game_max_moves(s->g);
    unsigned depth = s->args->perft;

    s->enc_cap = core_game_encode_max(s->g);
    s->moves = malloc(cap * sizeof *s->moves);
    s->moves2 = malloc(cap * sizeof *s->moves2);
    s->stack_moves = malloc((depth + 1) * cap * sizeof *s->stack_moves);
    s->played = malloc(((size_t)s->args->plies + 1) * sizeof *s->played);
    s->enc1 = malloc(s->enc_cap);
    s->enc2 = malloc(s->enc_cap);
    s->text1 = malloc(CORE_POSITION_TEXT_MAX);
    s->text2 = malloc(CORE_POSITION_TEXT_MAX);
    s->stack = calloc(depth + 1, sizeof *s->stack);
    if (s->moves == NULL || s->moves2 == NULL || s->stack_moves == NULL ||
        s->played == NULL || s->enc1 == NULL || s->enc2 == NULL ||
        s->text1 == NULL || s->text2 == NULL || s->stack == NULL)
        return TB_E_NOMEM;
    int rc = core_position_new(&s->other, s->g, s->args->options);
    if (rc == 0)
        rc = core_position_new(&s->plant_a, s->g, s->args->options);
    if (rc == 0)
        rc = core_position_new(&s->plant_b, s->g, s->args->options);
    for (unsigned i = 0; i <= depth && rc == 0; i++)
        rc = core_position_new(&s->stack[i], s->g, s->args->options);
    return rc;
}

static int run_game_kind(const Core_Game *g, const Sync_Args *args,
                         Sync_Plant plant, uint32_t plant_at)
{
    Sync s;
    Sync_Totals tot;
    double t0 = cli_now(), last = t0;
    int rc;

    memset(&s, 0, sizeof s);
    memset(&tot, 0, sizeof tot);
    s.g = g;
    s.args = args;
    s.plant = plant;
    s.plant_at = plant_at;
    s.plant_armed = plant != SYNC_PLANT_NONE;
    s.digest = 0;
    rc = sync_alloc(&s);
    if (rc != 0) {
        fprintf(stderr, "tabula synctest: %s: %s\n", core_game_name(g),
                _(tb_strerror(rc)));
        sync_free(&s);
        return rc == TB_E_OPTION ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    for (uint64_t i = 0; i < args->games; i++) {
        s.game_index = i;
        rc = play_game(&s, game_seed(args->seed, i), &tot);
        if (rc != 0) {
            sync_free(&s);
            return rc;
        }
        double now = cli_now();
        if (now - last >= SYNC_PROGRESS_SECONDS) {
            fprintf(stderr,
                    "synctest: %s %llu/%llu games, %llu plies, %.1f s\n",
                    core_game_name(g), (unsigned long long)i + 1,
                    (unsigned long long)args->games,
                    (unsigned long long)tot.plies, now - t0);
            last = now;
        }
    }
    double secs = cli_now() - t0;
    printf("%s: %llu games, %llu plies, 0 failures; 1-0 %llu, 0-1 %llu, "
           "1/2-1/2 %llu, ply limit %llu; digest %016llx; %.1f s\n",
           core_game_name(g), (unsigned long long)args->games,
           (unsigned long long)tot.plies,
           (unsigned long long)tot.results[CORE_WIN_WHITE],
           (unsigned long long)tot.results[CORE_WIN_BLACK],
           (unsigned long long)tot.results[CORE_DRAW],
           (unsigned long long)tot.results[CORE_ONGOING],
           (unsigned long long)s.digest, secs);
    fflush(stdout);
    sync_free(&s);
    return CLI_EXIT_OK;
}

/* ---- the command ---------------------------------------------------- */

/* Parse a decimal number in [lo, hi] or complain. */
static int read_count(const char *flag, const char *text, uint64_t lo,
                      uint64_t hi, uint64_t *out)
{
    if (cli_uint(text, lo, hi, out) == 0)
        return 0;
    fprintf(stderr, _("tabula synctest: bad %s '%s'; expected %llu..%llu\n"), flag,
            cli_token(text), (unsigned long long)lo, (unsigned long long)hi);
    return CLI_EXIT_USAGE;
}

/* TABULA_SYNCTEST_PLANT: unset or empty for none. */
static int read_plant(Sync_Plant *out)
{
    const char *env = getenv("TABULA_SYNCTEST_PLANT");
    *out = SYNC_PLANT_NONE;
    if (env == NULL || env[0] == '\0')
        return 0;
    for (size_t i = 1; i < sizeof plant_names / sizeof plant_names[0]; i++)
        if (strcmp(env, plant_names[i]) == 0) {
            *out = (Sync_Plant)i;
            return 0;
        }
    fprintf(stderr,
            "tabula synctest: unknown TABULA_SYNCTEST_PLANT '%s'; expected "
            "encode, replay, make, notation or position\n",
            cli_token(env));
    return CLI_EXIT_USAGE;
}

/* synctest's flags. */
enum {
    SYNC_FLAG_GAMES,
    SYNC_FLAG_SEED,
    SYNC_FLAG_PLIES,
    SYNC_FLAG_PERFT,
    SYNC_FLAG_OPTIONS
};
const Cli_Flag cli_flags_synctest[] = {
    {"--games", CLI_VALUE, SYNC_FLAG_GAMES},
    {"--seed", CLI_VALUE, SYNC_FLAG_SEED},
    {"--plies", CLI_VALUE, SYNC_FLAG_PLIES},
    {"--perft", CLI_VALUE, SYNC_FLAG_PERFT},
    {"--options", CLI_VALUE, SYNC_FLAG_OPTIONS},
    {NULL, CLI_SWITCH, 0}};

int cli_synctest(int argc, char **argv)
{
    Sync_Args args = {NULL,
                      NULL,
                      SYNC_DEFAULT_GAMES,
                      1,
                      SYNC_DEFAULT_PLIES,
                      SYNC_DEFAULT_PERFT};
    Sync_Plant plant;
    uint64_t v;

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (cli_is_help(a)) {
            fputs(_(synctest_help), stdout);
            return CLI_EXIT_OK;
        }
        const char *val;
        switch (cli_arg("synctest", cli_flags_synctest, argc, argv, &i,
                        _(synctest_help), &val)) {
        case SYNC_FLAG_GAMES:
            rc = read_count(a, val, 1, UINT64_C(1000000000), &v);
            args.games = v;
            break;
        case SYNC_FLAG_SEED:
            rc = read_count(a, val, 0, UINT64_MAX, &v);
            args.seed = v;
            break;
        case SYNC_FLAG_PLIES:
            rc = read_count(a, val, 1, SYNC_MAX_PLIES, &v);
            args.plies = (uint32_t)v;
            break;
        case SYNC_FLAG_PERFT:
            rc = read_count(a, val, 0, SYNC_MAX_PERFT, &v);
            args.perft = (unsigned)v;
            break;
        case SYNC_FLAG_OPTIONS:
            args.options = val;
            break;
        case CLI_ARG_WORD:
            if (args.only != NULL)
                return cli_unexpected("synctest", a, _(synctest_help));
            if ((args.only = cli_game("synctest", a)) == NULL)
                return CLI_EXIT_USAGE;
            break;
        default:
            return CLI_EXIT_USAGE;
        }
        if (rc != 0)
            return rc;
    }
    if (args.options != NULL && args.only == NULL) {
        fprintf(stderr, _("tabula synctest: --options needs a GAME\n"));
        return CLI_EXIT_USAGE;
    }
    if (read_plant(&plant) != 0)
        return CLI_EXIT_USAGE;
    if (proto_init() != 0) {
        fprintf(stderr, _("tabula synctest: cannot initialise libsodium\n"));
        return CLI_EXIT_FAIL;
    }
    /* The planted fault fires at a ply that depends on the clock, as a
     * core reading the clock or uninitialised memory would. */
    uint32_t plant_at = 0;
    if (plant != SYNC_PLANT_NONE) {
        double t = cli_now();
        plant_at = (uint32_t)((uint64_t)((t - (double)(uint64_t)t) * 1e6) % 8);
        fprintf(stderr, "synctest: planting a '%s' fault from ply %u on\n",
                plant_names[plant], plant_at);
    }
    for (size_t i = 0; i < core_game_count(); i++) {
        const Core_Game *g = core_game_at(i);
        if (args.only != NULL && g != args.only)
            continue;
        int rc = run_game_kind(g, &args, plant, plant_at);
        if (rc != 0)
            return rc;
    }
    printf("synctest: ok\n");
    return CLI_EXIT_OK;
}
