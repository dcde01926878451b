/*
 * core_internal.h: what a game implements to join the core interface.
 * Included only by core/ files, never from another folder.
 *
 * A game keeps its whole state in one plain struct of state_size bytes
 * (no pointers, so a position is copied with memcpy). The generic layer in
 * core.c owns allocation, validation by membership in the legal move list,
 * and the canonical-encoding round-trip check.
 */
#ifndef TABULA_CORE_INTERNAL_H
#define TABULA_CORE_INTERNAL_H

#include <stddef.h>

#include "core.h"

struct Core_Game {
    const char *name;      /* command-line name, lowercase */
    const char *title;     /* human name */
    const char *move_hint; /* example notation for error messages */
    uint8_t id;            /* first byte of the encoding, unique */
    size_t state_size;     /* bytes of the game's state struct */
    size_t max_moves;      /* bound on legal moves of any position */
    size_t encode_max;     /* bound on encoded bytes */

    /* Start position with options (already length-checked, never NULL). */
    int (*init)(void *st, const char *options);
    int (*moves)(const void *st, Core_Move *buf, size_t cap, size_t *n);
    void (*make)(void *st, const Core_Move *mv);
    Core_Status (*status)(const void *st);
    int (*side)(const void *st);
    uint32_t (*ply)(const void *st);
    uint64_t (*key)(const void *st);
    int (*encode)(const void *st, uint8_t *buf, size_t cap, size_t *len);
    /* Decode into st (a scratch state: the generic layer re-encodes and
     * compares before copying it over the caller's position). */
    int (*decode)(void *st, const uint8_t *buf, size_t len);
    int (*move_format)(const void *st, const Core_Move *mv, char *buf,
                       size_t cap);
    /* Must return a legal move of st, or an error. */
    int (*move_parse)(const void *st, const char *text, Core_Move *out);
    int (*position_format)(const void *st, char *buf, size_t cap);
    /* Parse into st, which holds the current state (options included);
     * on error st may be garbage: the generic layer works on a copy. */
    int (*position_parse)(void *st, const char *text, char *why,
                          size_t why_cap);
    int (*options_format)(const void *st, char *buf, size_t cap);
    int (*perft)(const void *st, unsigned depth, uint64_t *nodes);
    /* Static evaluation for the side to move (may be NULL: 0). */
    int32_t (*evaluate)(const void *st);
    /* Optional (core_evaluate_classic): the evaluation as it was when
     * issue 17 was filed; NULL where it has not changed since. */
    int32_t (*evaluate_classic)(const void *st);
    /* Optional (core_evaluate_terms): the evaluation's unweighted terms,
     * White minus Black, into out[0..cap); *n gets their number. */
    int (*terms)(const void *st, int32_t *out, size_t cap, size_t *n);
    /* What mv wins at once, without making it (core_move_forcing; may be
     * NULL: 0 for every move). */
    int32_t (*forcing)(const void *st, const Core_Move *mv);
    /* Optional (core_moves_distinct): the moves as `moves` lists them,
     * less each move whose resulting position an earlier listed move
     * already reaches; NULL: `moves`. */
    int (*moves_distinct)(const void *st, Core_Move *buf, size_t cap,
                          size_t *count);
    /* Optional (core_forcing_find): 1 and a forcing move of st in *out
     * with its value in *gain, 0 when st has none. */
    int (*forcing_find)(const void *st, Core_Move *out, int32_t *gain);
    /* Optional (core_in_check): 1 when the side to move is in check,
     * else 0; NULL for games without check. */
    int (*in_check)(const void *st);
    /* A drawable picture (may be NULL: TB_E_STATE). v is zeroed. */
    int (*view)(const void *st, Core_View *v);
    /* Optional: 1 when mv (any bytes at all) is exactly one of the moves
     * `moves` would list for st, else 0. When set, core_play asks this
     * instead of listing every move, so validating a move never depends
     * on max_moves (Football chess, whose lists can be very long). */
    int (*legal)(const void *st, const Core_Move *mv);
    /* Optional: the number of moves `moves` would list for st, found
     * without listing (or sorting) them; the generic perft's bulk count
     * at the last ply uses it when set. 0 or a negative TB_E_* code. */
    int (*count)(const void *st, size_t *n);
    /* Optional (core_table_points): the table points (half points) of a
     * finished game st that ended as s; NULL: 2 : 0 a win, 1 : 1 a draw. */
    void (*table_points)(const void *st, Core_Status s, unsigned out[2]);
};

/* The games, in the fixed order of core_game_at (games.c). */
extern const Core_Game *const core__games[];
extern const size_t core__game_count;

/* Helpers shared by the games (util.c). */

/* Write a printf-free string: copy src into buf[0..cap) with NUL;
 * TB_E_SPACE if it does not fit. */
int core__copy_text(char *buf, size_t cap, const char *src);

/* Appending writer for formatters: a buffer, its capacity and a fill
 * level; an overflow sets err to TB_E_SPACE and stops writing. */
typedef struct Core_Text {
    char *buf;
    size_t cap;
    size_t len;
    int err;
    Core_Said *said; /* NULL, or where the text is recorded as pieces */
    uint8_t *nsaid;
    uint8_t said_cap;
} Core_Text;

void core__text_init(Core_Text *t, char *buf, size_t cap);
void core__text_char(Core_Text *t, char c);
void core__text_str(Core_Text *t, const char *s);
void core__text_uint(Core_Text *t, uint64_t v);

/* 0 or TB_E_SPACE; the text is NUL-terminated either way when cap > 0. */
int core__text_end(Core_Text *t);

/* Record what t writes from now on as pieces into said (cap of them),
 * their count in *n (phrase.c): a view's status line or a cell's
 * description, for a front end to say by code. Too many pieces, or a
 * text cut, leave *n 0: the English is said as it is. */
void core__text_said(Core_Text *t, Core_Said *said, uint8_t *n, uint8_t cap);

/* Write phrase code (Core_Phrase_Code) with its numbers a, b, c (those
 * its format has; the first chooses a plural) and record it as one
 * piece. */
void core__text_phrase(Core_Text *t, int code, unsigned a, unsigned b,
                       unsigned c);

/* The run written since at, recorded as text (core__text_char's). */
void core__text_record(Core_Text *t, size_t at);

/* Write why[0..cap) (may be NULL) for a parse error; returns err. */
int core__why(char *why, size_t cap, int err, const char *msg);

/* splitmix64: the fixed generator behind every zobrist table. */
uint64_t core__splitmix64(uint64_t *state);

/* Little-endian fixed-width writers and readers for encodings. */
void core__put_u16(uint8_t *p, uint16_t v);
void core__put_u32(uint8_t *p, uint32_t v);
void core__put_u64(uint8_t *p, uint64_t v);
uint16_t core__get_u16(const uint8_t *p);
uint32_t core__get_u32(const uint8_t *p);
uint64_t core__get_u64(const uint8_t *p);

/* Parse an option list "k=v,k=v": calls fn for each pair (NUL-terminated
 * copies); returns TB_E_OPTION on a malformed list or the first non-zero
 * return of fn. */
int core__options_each(const char *options,
                       int (*fn)(void *ctx, const char *key, const char *val),
                       void *ctx);

/* Generic perft over the vtable, for games without a faster one and for
 * tests: copy-make with a stack of states. */
int core__perft_generic(const Core_Game *g, const void *st, unsigned depth,
                        uint64_t *nodes);

#endif /* TABULA_CORE_INTERNAL_H */
