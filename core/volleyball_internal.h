/*
 * volleyball_internal.h: the state and the rules functions of Chess
 * volleyball (Kriushenkov, seed 002; binding spec
 * shared/design/chess-volleyball.md), shared by the rules file
 * (volleyball_rules.c: geometry, action generation, automatic transitions)
 * and the interface file (volleyball.c: notation, position string,
 * encoding). Included only by those two files.
 *
 * One plain struct holds every field of spec section 3, for the 8x8 game
 * and the 10x10 placeholder variant (spec section 8, flag board10).
 */
#ifndef TABULA_VOLLEYBALL_INTERNAL_H
#define TABULA_VOLLEYBALL_INTERNAL_H

#include <stdint.h>

#include "core_internal.h"

#define VB_NONE 0xFF /* no piece, no square, no scorer */
#define VB_STRIDE 12 /* ids: White 0..11, Black 12..23 */
#define VB_IDS 24
#define VB_SQ_MAX 100     /* 10x10 */
#define VB_GOALS_MAX 512  /* proof in docs/rules/volleyball.md */
#define VB_SET_LEN_MAX 60 /* option bound (set1..set3) */
#define VB_OT_CAP 12      /* overtime safety cap in minutes */
#define VB_OUT_MINUTES 6  /* */
#define VB_CHESS_LIMIT 12 /* */

/* Piece types (spec 2.2, P-03, P-04). */
enum { VB_N = 0, VB_B, VB_R, VB_Q, VB_V, VB_M, VB_J, VB_C, VB_TYPES };

/* Phases (spec section 3). */
enum { VB_SERVE = 0, VB_RALLY, VB_DEFPEN, VB_OVER, VB_CHESS };

/* Chess-stage outcomes (spec 7.4). */
enum { VB_CO_NONE = 0, VB_CO_MATE, VB_CO_STALEMATE, VB_CO_NOT_CAUGHT };

/* Action kinds = first move byte (spec 4.1 wire tuples). */
enum {
    VB_K_SERVE = 0,
    VB_K_TOUCH,
    VB_K_PENALTY,
    VB_K_REMOVE,
    VB_K_PLACE,
    VB_K_BALL,
    VB_K_CHESS,
    VB_K_RETREAT
};

/* A hooked landing (P-07) carries the hooking piece's square | VB_HOOK in
 * the byte after the landing (TOUCH b[3], SERVE b[5]). */
#define VB_HOOK 0x80

typedef struct Vb_State {
    /* variant and match options (A-46; sets as in 6.3) */
    uint8_t board10;        /* 0: 8x8 (id 4), 1: 10x10 (id 5) */
    uint8_t opt_chess;      /* chess stage on/off, default off */
    uint8_t opt_set_len[3]; /* 12, 12, 8 */
    uint8_t opt_cat;        /* 10x10: the optional Cats (P-04), default on */
    /* pieces: type per id (VB_NONE = unused id), square per id */
    uint8_t type[VB_IDS];
    uint8_t where[VB_IDS];    /* square or VB_NONE (off the board) */
    uint8_t board[VB_SQ_MAX]; /* id or VB_NONE */
    uint8_t ball;             /* square or VB_NONE */
    uint8_t out_n;
    uint8_t out_id[VB_IDS];
    uint16_t out_at[VB_IDS]; /* return_at minute */
    uint8_t pend_n;
    uint8_t pend[VB_IDS];
    uint16_t clock;
    uint8_t set_no, set_len, set_minute, overtime;
    uint8_t points[2], sets[2];
    uint8_t hist_n;
    uint8_t hist[3][3]; /* (winner, W points, B points) */
    uint8_t server, serve_index, first_serve_piece, rally_counts;
    uint8_t match_first_serve, phase, to_act, touches, must_pass;
    uint32_t touched; /* bit per id */
    uint8_t retreat;  /* P-08: a retreat was made this possession */
    uint32_t enabled; /* P-08: pieces the retreat enabled (next touch) */
    uint8_t last_shooter[2];
    /* chess stage (section 7) */
    uint32_t attackers; /* bit per id */
    uint8_t king, first, to_move, att_moves, outcome;
    uint32_t ply;
    /* The goal log last: two thirds of the state, of which a position
     * uses goal_n bytes, so a copy can stop there (vb_copy, perft). */
    uint16_t goal_n;
    uint8_t goal[VB_GOALS_MAX]; /* colour << 7 | scorer id (VB_NONE&0x7F) */
} Vb_State;

#define VB_GOAL_NONE 0x7F

/* Geometry helpers. */
static inline int vb_nf(const Vb_State *s)
{
    return s->board10 ? 10 : 8;
}
static inline int vb_nsq(const Vb_State *s)
{
    return s->board10 ? 100 : 64;
}
static inline int vb_colour(int id)
{
    return id >= VB_STRIDE;
}
static inline int vb_half(const Vb_State *s, int sq)
{
    return sq >= (s->board10 ? 50 : 32);
}
/* core__vb_fr[board10][sq & 0xFF]: file | rank << 4 of square sq (for
 * sq 0..99; other bytes give a value the callers never use, such as the
 * file of an absent ball, VB_NONE). A load instead of a division by 10
 * and its remainder: clang lowers those to i32.div_u for WebAssembly,
 * which V8 turns into a multiply in fixed registers, costing the
 * page's perft more than the native one (docs/benchmarks.md). */
extern const uint8_t core__vb_fr[2][256];

/* File and rank of a square. */
static inline int vb_file(const Vb_State *s, int sq)
{
    return core__vb_fr[s->board10][sq & 0xFF] & 15;
}
static inline int vb_rank(const Vb_State *s, int sq)
{
    return core__vb_fr[s->board10][sq & 0xFF] >> 4;
}

/* The standard start position (spec 2.4 or P-09) with options applied. */
void core__vb_setup(Vb_State *s, int board10);

/* Apply the automatic transitions of spec 4.2 until a decision point. */
void core__vb_normalise(Vb_State *s);

/* Every legal action in canonical order (4.1); 0 or TB_E_TOOMANY. */
int core__vb_moves(const Vb_State *s, Core_Move *buf, size_t cap, size_t *n);

/* The number of legal actions, core__vb_moves' count, without listing
 * them (perft's bulk count at the last ply). */
size_t core__vb_count(const Vb_State *s);

/* The same count made on s itself, which it leaves as it was (generation
 * tries candidates in place and undoes each): for perft, whose states
 * are its own, without the copy. */
size_t core__vb_count_here(Vb_State *s);

/* Apply one listed action, then normalise. */
void core__vb_make(Vb_State *s, const Core_Move *mv);

/* Is the match over (phase OVER or a decided chess stage)? */
int core__vb_over(const Vb_State *s);

/* The side to act at this decision point. */
int core__vb_side(const Vb_State *s);

/* Chess stage: is the King in check (7.2)? 0 outside the chess stage. */
int core__vb_king_in_check(const Vb_State *s);

/* Evaluation support (volleyball_eval.c): cnt[sq] += 1 for each piece of
 * side c that could approach sq, a pieceless square of c's half (cnt has
 * VB_SQ_MAX entries); and the untouched pieces of the side to act that
 * can approach the ball (RALLY, else 0). */
void core__vb_cover(const Vb_State *s, int c, uint8_t *cnt);
int core__vb_ball_reach(const Vb_State *s);
int core__vb_unreachable(const Vb_State *s, int c, int x);

/* The evaluation's terms, White minus Black, before weighting
 * (VB_TERMS of them, named in volleyball_eval.c), and the evaluation
 * for the side to act: their weighted sum. */
#define VB_TERMS 11
void core__vb_terms(const Vb_State *s, int32_t t[VB_TERMS]);
int32_t core__vb_evaluate(const Vb_State *s);
/* The same with the score's weights only (core_evaluate_classic). */
int32_t core__vb_evaluate_classic(const Vb_State *s);

/* Chess stage: the attacker's colour (opponent of the King's owner). */
static inline int vb_attacker(const Vb_State *s)
{
    return s->king == VB_NONE ? 0 : !vb_colour(s->king);
}

#endif /* TABULA_VOLLEYBALL_INTERNAL_H */
