/*
 * pool.h: the pool (issue 37) without I/O: players' standing offers of
 * games and clock ranges, paired when two are compatible, the
 * longest-waiting first. A state machine handed offers, removals and
 * times (ms, the caller's), with no libuv, no clock and no randomness:
 * the same offers in the same order give the same pairs on every node.
 * docs/pool.md has the rules: compatibility, fairness, the clock and the
 * game of a pairing, the limits.
 */
#ifndef TABULA_LOBBY_POOL_H
#define TABULA_LOBBY_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "lobby_wire.h" /* LOBBY_KEY_BYTES, proto.h's Proto_Clock */

/* Games one pool tells apart: an offer's games are a bit mask over the
 * caller's list of at most this many games (bit i: its game i). */
#define POOL_GAMES_MAX 16

/* Bytes of an offer's address: opaque to the pool, e.g. an IPv6 /64 or
 * an IPv4 address mapped into IPv6, zero-padded. */
#define POOL_ADDR_BYTES 16

/*
 * Pool_Offer: one player's standing offer.
 *   id          the caller's number for it, unique among the waiting
 *               offers (across nodes when pools merge)
 *   arrival_ms  when it came (ms, any clock the caller keeps one of for
 *               the whole pool): the longest-waiting is the smallest
 *   key         the player's key: two offers of one key are one player's
 *               and never pair together
 *   addr        where it came from; offers of one address and different
 *               keys are different players and may pair
 *   games       the games it takes (bit i: game i), at least one
 *   lo, hi      its clock range: every clock of lo's kind whose estimate
 *               (proto_clock_estimate_ms) lies between lo's and hi's,
 *               both included; lo and hi are of one kind (a range with
 *               no clock: both PROTO_CLOCK_NONE)
 *   options     the match options it plays (its card's, as the card
 *               spells them; "" for the games' own): two offers pair
 *               only when theirs are the same text (docs/pool.md: an
 *               offer had been paired with any options, the guest then
 *               playing the host's)
 *   want_lo, want_hi  the ratings it pairs with (issue 38), both
 *               included; 0 and 0: any. An offer pairs only with one
 *               whose player's rating lies in its range, and whose
 *               range holds its own player's rating
 *   rating      its player's rating (whole points) in each of its games
 *               (by the caller's game index) and time-control class
 *               (Proto_Clock_Class): the relay's published list's
 *               (docs/archive.md); 0: unrated, counted as
 *               POOL_RATING_NEWCOMER. The pairing's game and clock
 *               (pool_pair_clock's class) say which one counts
 */
typedef struct Pool_Offer {
    uint64_t id;
    uint64_t arrival_ms;
    uint8_t key[LOBBY_KEY_BYTES];
    uint8_t addr[POOL_ADDR_BYTES];
    uint16_t games;
    Proto_Clock lo;
    Proto_Clock hi;
    char options[LOBBY_SEEK_OPTIONS_MAX + 1];
    uint16_t want_lo, want_hi;
    uint16_t rating[POOL_GAMES_MAX][PROTO_CLASS_COUNT];
} Pool_Offer;

/* The rating of a player the list does not know: Glicko-2's newcomer. */
#define POOL_RATING_NEWCOMER 1500

/*
 * Pool_Pair: two offers paired, both gone from the pool.
 *   older, newer  their ids, the earlier by (arrival_ms, id) first
 *   game          the game they play: the lowest index both offer
 *   clock         their clock: of the two low ends, the one with the
 *                 larger estimate (the older's on a tie), i.e. the
 *                 shortest clock named by either that both ranges hold
 *                 (pool_pair_clock)
 */
typedef struct Pool_Pair {
    uint64_t older;
    uint64_t newer;
    unsigned game;
    Proto_Clock clock;
} Pool_Pair;

/*
 * Pool_Limits: every share and its total. Zero in a field means the
 * default in brackets.
 *   capacity     offers waiting at once, all players together [10000]
 *   per_key      offers one key may have waiting [1]: one player, one
 *                standing offer (its games and clocks say all it will
 *                play); a second is refused, not swapped for the first,
 *                so a player keeps its place in the queue until it
 *                withdraws (pool_remove) and offers again
 *   per_address  offers one address may have waiting [16] (a club
 *                behind one NAT: the caller may give more)
 */
typedef struct Pool_Limits {
    uint32_t capacity;
    uint32_t per_key;
    uint32_t per_address;
} Pool_Limits;

typedef struct Pool Pool;

/*
 * pool_new: an empty pool of ngames games (1..POOL_GAMES_MAX) with limits
 * lim (NULL: the defaults). Errors: TB_E_ARG (ngames out of range),
 * TB_E_NOMEM.
 */
int pool_new(unsigned ngames, const Pool_Limits *lim, Pool **out);

/* pool_free: release p and every offer in it. NULL is fine. */
void pool_free(Pool *p);

/* pool_limits: the limits in force (defaults filled in). */
const Pool_Limits *pool_limits(const Pool *p);

/*
 * pool_compatible: 1 when offers a and b may be paired, else 0: their
 * keys differ, they share a game, their options are the same text,
 * their ranges are of one kind and overlap by estimate (a's low end at
 * most b's high end and b's low end at most a's high end), and each
 * one's rating range (want_lo..want_hi) holds the other's rating in the
 * game and class they would play (the lowest game both offer; the class
 * of pool_pair_clock's clock). The pool's one test of compatibility.
 */
int pool_compatible(const Pool_Offer *a, const Pool_Offer *b);

/*
 * pool_pair_clock: the clock of compatible offers older and newer (the
 * earlier by (arrival_ms, id) first): of their low ends the one with the
 * larger estimate, older's when they are equal. Since the ranges overlap,
 * the larger low end is at most either high end: the clock lies in both
 * ranges.
 */
Proto_Clock pool_pair_clock(const Pool_Offer *older, const Pool_Offer *newer);

/*
 * pool_add: offer o (copied) comes. If a waiting offer is compatible
 * with it, the longest-waiting such (the smallest (arrival_ms, id)) is
 * paired with it: *pair is filled, that offer leaves the pool and o never
 * enters it: 1. Else o waits: 0. The limits are checked before pairing:
 * an offer the pool could not hold is refused even when it would pair at
 * once. Errors (nothing changes): TB_E_ARG (no games, a game past the
 * pool's, ends of two kinds, a low end longer than the high),
 * TB_E_STATE (an offer with o's id is waiting), TB_E_LIMIT (o's key has
 * per_key offers waiting), TB_E_ADDRESS (o's address has per_address
 * offers waiting), TB_E_FULL (capacity offers are waiting).
 */
int pool_add(Pool *p, const Pool_Offer *o, Pool_Pair *pair);

/*
 * pool_put: offer o (copied) waits, unpaired until pool_pair_all: a
 * batch, e.g. another node's waiting offers when pools merge. Errors as
 * pool_add's (nothing changes).
 */
int pool_put(Pool *p, const Pool_Offer *o);

/*
 * pool_pair_all: pair the waiting offers as if each had come by pool_add,
 * one by one in (arrival_ms, id) order, to an empty pool: the pairs into
 * pairs (cap of them), in the order they are made (by the newer offer),
 * their count into *n; the paired offers leave the pool. On a pool filled
 * by pool_add alone in that order it pairs nothing. The result depends
 * on the set of waiting offers alone, so nodes that merge the same
 * offers make the same pairs. Errors (nothing changes): TB_E_SPACE (cap
 * under half the waiting offers, the most pairs there can be).
 */
int pool_pair_all(Pool *p, Pool_Pair *pairs, size_t cap, size_t *n);

/*
 * pool_remove: the waiting offer id leaves the pool (its owner left or
 * withdrew it). Errors: TB_E_ARG (no waiting offer has that id).
 */
int pool_remove(Pool *p, uint64_t id);

/*
 * pool_counts: the offers waiting for each game into counts (counts[i]
 * for game i; 0 past the pool's games): an offer of several games counts
 * in each, so a lone player is shown to whoever looks ("1 waiting for
 * laska").
 */
void pool_counts(const Pool *p, uint32_t counts[POOL_GAMES_MAX]);

/* pool_waiting: the offers waiting, all games together. */
size_t pool_waiting(const Pool *p);

#endif /* TABULA_LOBBY_POOL_H */
