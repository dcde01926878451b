/*
 * chessball_internal.h: the Chessball board as data and the state the
 * rules work on, shared by chessball_board.c (the geometry, derived once
 * from the truncated icosahedron, D-CB-1..4) and chessball.c (the rules
 * and the core interface). Included by core/ files and by the Chessball
 * tests only.
 *
 * Fields are numbered 0..31 in name order: a, b1..b5, c1..c5, d1..d5,
 * e1..e5, f1..f5, g1..g5, h. A set of fields is a uint32_t with bit i for
 * field i (a bitboard).
 */
#ifndef TABULA_CHESSBALL_INTERNAL_H
#define TABULA_CHESSBALL_INTERNAL_H

#include <stdint.h>

#include "core_internal.h"

#define CB_FIELDS 32
#define CB_LINES 30 /* straight lines P-H-H-P (D-CB-2) */
#define CB_PENTAGONS 12
#define CB_HEXAGONS 20

/* Bitboards of the 12 pentagons (black fields) and 20 hexagons (white). */
#define CB_PENT_MASK 0x83E007C1u /* a, c1..c5, f1..f5, h */
#define CB_HEX_MASK (~CB_PENT_MASK)

/* Piece kinds, in the order of the position string letters "PNBRQK". */
enum {
    CB_PAWN = 0,
    CB_KNIGHT,
    CB_BISHOP,
    CB_ROOK,
    CB_QUEEN,
    CB_KING,
    CB_KINDS
};

/* A ray: the fields a slider passes, nearest first; it stops at the first
 * occupied one (D-CB-2, D-CB-3). */
typedef struct Cb_Ray {
    uint8_t len;     /* 1..4 */
    uint8_t sq[4];   /* fields, nearest first */
    uint32_t bit[4]; /* 1u << sq[i] */
} Cb_Ray;

/* One field's slider lookup (see Cb_Tables.attack). */
typedef struct Cb_Magic {
    uint64_t magic;
    uint32_t mask; /* fields whose occupancy can stop a ray */
    uint32_t off;  /* first entry in Cb_Tables.attack */
    uint8_t shift; /* 64 - index bits */
} Cb_Magic;

/* Entries: bishops 12 pentagons x 2^10 + 20 hexagons x 2^3, rooks 20
 * hexagons x 2^9 + 12 pentagons x 2 (no rings there). */
#define CB_ATTACK_SIZE (12 * 2048 + 20 * 8 + 20 * 1024 + 12 * 2)

/* Everything derived from the solid, once (cb_tables). */
typedef struct Cb_Tables {
    char name[CB_FIELDS][3];     /* "a", "b1", ... "h" */
    uint32_t adj[CB_FIELDS];     /* fields sharing an edge */
    uint32_t knight[CB_FIELDS];  /* D-CB-4; 0 on hexagons */
    uint8_t antipode[CB_FIELDS]; /* D-CB-1 central symmetry */
    uint8_t tri[CB_FIELDS][3];   /* a hexagon's 3 pentagons, ascending */
    uint8_t line[CB_LINES][4];   /* every line P-H-H-P, D-CB-2 */
    uint8_t ring[CB_FIELDS][5];  /* a pentagon's 5 hexagons, in cyclic
                                    order (D-CB-3); unused on hexagons */
    uint8_t nbishop[CB_FIELDS];  /* number of bishop rays (5 or 6) */
    Cb_Ray bishop[CB_FIELDS][6]; /* D-CB-2 */
    uint8_t nrook[CB_FIELDS];    /* 6 on hexagons, 0 on pentagons */
    Cb_Ray rook[CB_FIELDS][6];   /* D-CB-3: 3 rings x 2 senses */
    /* Slider reach by multiply-shift hashing of the fields that can
     * block ("magic" lookup, as chess engines do): for field s and
     * occupancy occ, reach = attack[off + ((occ & mask) * magic >>
     * shift)], found once from the rays above. */
    Cb_Magic bishop_magic[CB_FIELDS];
    Cb_Magic rook_magic[CB_FIELDS];
    uint32_t attack[CB_ATTACK_SIZE];
    /* zobrist: [side][kind][field], and the side to move */
    uint64_t zobrist[2][CB_KINDS][CB_FIELDS];
    uint64_t zobrist_black;
} Cb_Tables;

/* The tables (chessball_board.c), filled once by core__cb_tables_derive
 * (thread-safe); read them through cb_tables. */
extern Cb_Tables core__cb_tables;
void core__cb_tables_derive(void);

/* The tables, derived on first use (thread-safe). Never NULL. Inline, so
 * that the rules' loops see a constant address: in WebAssembly a table
 * entry is then one load at a fixed offset, with no register holding the
 * tables' address (docs/benchmarks.md). */
static inline const Cb_Tables *cb_tables(void)
{
    core__cb_tables_derive();
    return &core__cb_tables;
}

/* The placement and what the next move depends on, without history. */
typedef struct Cb_Board {
    uint32_t side_bb[2];        /* by colour: CORE_WHITE, CORE_BLACK */
    uint32_t kind_bb[CB_KINDS]; /* by kind, both colours */
    uint64_t key;               /* zobrist of placement + side to move */
    uint8_t side;               /* side to move */
    uint8_t quiet;              /* plies since the last capture, D-CB-9 */
} Cb_Board;

/* D-CB-9: the game is drawn when this many plies pass with no capture. */
#define CB_QUIET_LIMIT 100
/* Positions since the last capture that repetition compares (D-ALL-2):
 * at most one per quiet ply. */
#define CB_HIST_MAX CB_QUIET_LIMIT

/* The whole game state (core_internal.h: one plain struct). */
typedef struct Cb_State {
    Cb_Board b;
    uint32_t ply;               /* plies since the game's start */
    uint8_t nhist;              /* keys in hist, <= b.quiet */
    uint64_t hist[CB_HIST_MAX]; /* keys of the earlier positions since
                                   the last capture, oldest first */
} Cb_State;

/* The field index of a name ("a", "c4"), or -1. */
int cb_field_parse(const char *s, int len);

extern const Core_Game core__chessball;

#endif /* TABULA_CHESSBALL_INTERNAL_H */
