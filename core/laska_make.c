/*
 * laska_make.c: making and unmaking Laska moves on the one state every
 * caller uses (play through core_make, the bot, perft): columns travel
 * and take prisoners (D-LA-3), soldiers are promoted (D-LA-6), the
 * zobrist key is updated column by column, and the repetition history and
 * draw rules (D-ALL-2, D-LA-8, gaps G-LA-1, G-LA-2) follow each move. An
 * undo record of a few words takes the move back exactly, so perft and
 * search need not copy the state.
 */
#include <string.h>

#include "laska_internal.h"

/* Piece code of the i-th piece of square s: colour * 2 + officer. */
static int piece_at(const Laska_State *st, int s, int i)
{
    return (int)(((st->colour[s] >> i) & 1) * 2 + ((st->officer[s] >> i) & 1));
}

static uint64_t column_key(const Laska_State *st, int s)
{
    const uint64_t(*z)[4] = core__la.z[s];
    uint64_t k = 0;
    for (int i = 0; i < st->height[s]; i++)
        k ^= z[i][piece_at(st, s, i)];
    return k;
}

uint64_t core__laska_full_key(const Laska_State *st)
{
    uint64_t k = st->side == CORE_BLACK ? core__la.z_side : 0;
    for (int s = 0; s < LA_SQUARES; s++)
        k ^= column_key(st, s);
    return k;
}

/* Add bit to the sets of one piece: its colour's, and officers' for an
 * officer. */
static inline void mark(uint64_t *white, uint64_t *black, uint64_t *officers,
                        uint32_t is_black, uint32_t is_officer, uint64_t bit)
{
    if (is_black)
        *black |= bit;
    else
        *white |= bit;
    if (is_officer)
        *officers |= bit;
}

static inline void column_bits(Laska_State *st, int s)
{
    uint64_t bit = UINT64_C(1) << core__la.bit[s], keep = ~bit;
    uint32_t colour = st->colour[s], officer = st->officer[s];
    int h = st->height[s];

    st->white &= keep;
    st->black &= keep;
    st->officers &= keep;
    st->under_white &= keep;
    st->under_black &= keep;
    st->under_officers &= keep;
    if (h >= 1)
        mark(&st->white, &st->black, &st->officers, colour & 1, officer & 1,
             bit);
    if (h >= 2)
        mark(&st->under_white, &st->under_black, &st->under_officers,
             colour & 2, officer & 2, bit);
}

void core__laska_set_commander(Laska_State *st, int s)
{
    column_bits(st, s);
}

void core__laska_update_drawn(Laska_State *st)
{
    int seen = 0;
    if (st->nhist < LA_REPEAT_MIN && st->quiet < LA_MOVE_RULE &&
        st->ply < LA_PLY_CAP) {
        st->drawn = CORE_REASON_NONE;
        return;
    }
    for (int i = 0; i < st->nhist; i++)
        seen += st->hist[i] == st->key;
    if (seen >= 3)
        st->drawn = CORE_REASON_REPETITION;
    else if (st->quiet >= LA_MOVE_RULE || st->ply >= LA_PLY_CAP)
        st->drawn = CORE_REASON_MOVE_RULE;
    else
        st->drawn = CORE_REASON_NONE;
}

/*
 * The columns and bit sets of a move (D-LA-3, D-LA-6): the start square's
 * column goes to the landing square, each jumped column gives its
 * commander to its bottom. u gets the start column and the bit sets.
 * Returns the key change of the columns when update is set, else 0.
 */
static inline __attribute__((always_inline)) uint64_t
move_columns(Laska_State *st, const Core_Move *mv,
                                    Laska_Undo *u, int update)
{
    const Laska_Tables *t = &core__la;
    int from = mv->b[0], to = mv->b[mv->len - 1];
    uint32_t colour = st->colour[from], officer = st->officer[from];
    int h = st->height[from];
    uint64_t key = update ? column_key(st, from) : 0;

    u->white = st->white;
    u->black = st->black;
    u->officers = st->officers;
    u->under_white = st->under_white;
    u->under_black = st->under_black;
    u->under_officers = st->under_officers;
    u->colour = colour;
    u->officer = officer;
    u->height = (uint8_t)h;
    u->side = st->side;
    /* D-LA-3: each jumped column gives its commander to the bottom. */
    for (int i = 1; i < mv->len && mv->flags; i++) {
        int mid = t->between[mv->b[i - 1]][mv->b[i]];
        if (update)
            key ^= column_key(st, mid);
        colour |= (st->colour[mid] & 1) << h;
        officer |= (st->officer[mid] & 1) << h;
        h++;
        st->colour[mid] >>= 1;
        st->officer[mid] >>= 1;
        st->height[mid]--;
        if (update)
            key ^= column_key(st, mid);
        column_bits(st, mid);
    }
    st->height[from] = 0;
    st->colour[from] = st->officer[from] = 0;
    column_bits(st, from);
    /* D-LA-6: a soldier commander reaching the last rank is promoted. */
    if (!(u->officer & 1) && t->rank[to] == (st->side == CORE_WHITE ? 6 : 0))
        officer |= 1;
    st->colour[to] = colour;
    st->officer[to] = officer;
    st->height[to] = (uint8_t)h;
    column_bits(st, to);
    st->side ^= 1;
    if (update)
        key ^= column_key(st, to); /* to was empty, or is from itself */
    return key;
}

void core__laska_do(Laska_State *st, const Core_Move *mv, Laska_Undo *u,
                    int keys)
{
    int update = keys == LA_KEYS_UPDATE;
    uint64_t key = st->key ^ core__la.z_side;

    u->key = st->key;
    u->hist0 = st->hist[0];
    u->ply = st->ply;
    u->quiet = st->quiet;
    u->nhist = st->nhist;
    u->drawn = st->drawn;
    key ^= move_columns(st, mv, u, update);
    if (keys == LA_KEYS_FULL)
        key = core__laska_full_key(st);
    st->ply++;
    st->key = update || keys == LA_KEYS_FULL ? key : 0;
    if (mv->flags || !(u->officer & 1)) {
        /* Irreversible for D-LA-8: the repetition window restarts too
         * (gap G-LA-1). */
        st->quiet = 0;
        st->nhist = 0;
    } else {
        st->quiet++;
    }
    if (st->nhist == LA_HIST_MAX) {
        memmove(st->hist, st->hist + 1,
                (LA_HIST_MAX - 1) * sizeof st->hist[0]);
        st->nhist--;
    }
    st->hist[st->nhist++] = st->key;
    core__laska_update_drawn(st);
}

void core__laska_do_columns(Laska_State *st, const Core_Move *mv,
                            Laska_Undo *u)
{
    move_columns(st, mv, u, 0);
}

/* The columns and bit sets as they were before move_columns. */
static inline void unmove_columns(Laska_State *st, const Core_Move *mv,
                                  const Laska_Undo *u)
{
    const Laska_Tables *t = &core__la;
    int from = mv->b[0], to = mv->b[mv->len - 1], h = u->height;
    uint32_t colour = st->colour[to], officer = st->officer[to];

    /* The i-th prisoner goes back on top of the i-th jumped column. */
    for (int i = 1; i < mv->len && mv->flags; i++, h++) {
        int mid = t->between[mv->b[i - 1]][mv->b[i]];
        st->colour[mid] = (st->colour[mid] << 1) | ((colour >> h) & 1);
        st->officer[mid] = (st->officer[mid] << 1) | ((officer >> h) & 1);
        st->height[mid]++;
    }
    st->height[to] = 0;
    st->colour[to] = st->officer[to] = 0;
    st->colour[from] = u->colour;
    st->officer[from] = u->officer;
    st->height[from] = u->height;
    st->white = u->white;
    st->black = u->black;
    st->officers = u->officers;
    st->under_white = u->under_white;
    st->under_black = u->under_black;
    st->under_officers = u->under_officers;
    st->side = u->side;
}

void core__laska_undo(Laska_State *st, const Core_Move *mv,
                      const Laska_Undo *u)
{
    unmove_columns(st, mv, u);
    st->key = u->key;
    st->hist[0] = u->hist0;
    st->ply = u->ply;
    st->quiet = u->quiet;
    st->nhist = u->nhist;
    st->drawn = u->drawn;
}

void core__laska_undo_columns(Laska_State *st, const Core_Move *mv,
                              const Laska_Undo *u)
{
    unmove_columns(st, mv, u);
}
