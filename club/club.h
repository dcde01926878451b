/*
 * club.h: the club layer's one public header (issue 38): what clubs
 * compute from signed match logs, without I/O, so the terminal and the
 * browser page run the same code and anyone can recompute a club's
 * numbers from its logs, digit for digit. It uses core/ and proto/ only.
 * Each part has its own block below, headed by its name.
 */
#ifndef TABULA_CLUB_H
#define TABULA_CLUB_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "tb_error.h"

/* ==== ratings (rating.c, rating_log.c; docs/ratings.md) =============== */

/*
 * Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) in integer
 * fixed point, so every build (gcc or clang, 32 or 64 bits, big or little
 * endian, WebAssembly) gives the same digits: no float or double, no
 * <math.h>. A Club_Fix is a signed Q32.32 number: the value times 2^32 in
 * an int64_t (range about +-2.1e9, step 2^-32, about 2.3e-10). Rounding:
 * products and quotients round to the nearest step, halves away from
 * zero; square roots round down; a result out of range saturates at
 * CLUB_FIX_MAX or CLUB_FIX_MIN (the rating maths keeps far inside it).
 * rating.c is libc only (the cross-build check compiles it alone).
 */
typedef int64_t Club_Fix;

#define CLUB_FIX_ONE ((Club_Fix)1 << 32)
#define CLUB_FIX_MAX INT64_MAX
#define CLUB_FIX_MIN (-INT64_MAX)

/* a * b, rounded to nearest (halves away from zero), saturating. */
Club_Fix club_fix_mul(Club_Fix a, Club_Fix b);

/* a / b, rounded to nearest (halves away from zero), saturating; b == 0
 * gives CLUB_FIX_MAX or CLUB_FIX_MIN by a's sign (0 for a == 0). */
Club_Fix club_fix_div(Club_Fix a, Club_Fix b);

/* num / den as a Club_Fix, rounded as club_fix_div (den == 0 as there):
 * club_fix_ratio(6, 100) is 0.06. */
Club_Fix club_fix_ratio(int64_t num, int64_t den);

/* e^x: relative error under 1e-8; 0 below about -22.2 (under one
 * step), CLUB_FIX_MAX above about 21.4. */
Club_Fix club_fix_exp(Club_Fix x);

/* ln x for x > 0 (absolute error under 1e-8); CLUB_FIX_MIN for x <= 0. */
Club_Fix club_fix_ln(Club_Fix x);

/* The square root of x, rounded down to a step; 0 for x <= 0. */
Club_Fix club_fix_sqrt(Club_Fix x);

/* x times 10^decimals rounded to the nearest integer (halves away from
 * zero); decimals 0..9. */
int64_t club_fix_scaled(Club_Fix x, int decimals);

/*
 * club_fix_format: x with `decimals` digits after the point (0..9; no
 * point for 0), rounded as club_fix_scaled, into out (cap bytes; 32 is
 * always enough): "1464.06", "-0.5", "151". Errors: TB_E_ARG (decimals
 * out of range), TB_E_SPACE.
 */
int club_fix_format(Club_Fix x, int decimals, char *out, size_t cap);

/* A player's Glicko-2 rating on the Glicko scale: rating (1500 for a
 * newcomer), rating deviation RD (350) and volatility sigma (0.06). */
typedef struct Club_Glicko {
    Club_Fix rating;
    Club_Fix rd;
    Club_Fix vol;
} Club_Glicko;

/* The newcomer's rating, RD and volatility (Glickman's), the system
 * constant tau (0.5, the paper's example; he suggests 0.3 to 1.2), the
 * most an RD grows to (the newcomer's: an idle or unlucky player is never
 * less known than a new one) and the convergence tolerance of step 5
 * (0.000001) with its iteration bound. */
#define CLUB_START_RATING (1500 * CLUB_FIX_ONE)
#define CLUB_START_RD (350 * CLUB_FIX_ONE)
#define CLUB_START_VOL_PPM 60000 /* 0.06 in millionths */
#define CLUB_TAU_PPM 500000      /* 0.5 in millionths */
#define CLUB_RD_MAX (350 * CLUB_FIX_ONE)
#define CLUB_EPSILON_PPM 1 /* 0.000001 */
#define CLUB_ILLINOIS_MAX 64

/* One game of a rating period: the opponent's rating and RD before the
 * period, and the player's score (0 loss, CLUB_FIX_ONE / 2 draw,
 * CLUB_FIX_ONE win). */
typedef struct Club_Rated_Result {
    Club_Fix rating;
    Club_Fix rd;
    Club_Fix score;
} Club_Rated_Result;

/* Most games club_glicko_update takes in one period. */
#define CLUB_PERIOD_MAX 100

/* club_glicko_start: the newcomer's rating (1500, 350, 0.06). */
void club_glicko_start(Club_Glicko *g);

/*
 * club_glicko_update: the paper's steps 2 to 8 for player p over the n
 * games (0 allowed: only the RD grows, step 6) of one rating period, with
 * system constant tau, into *out (may be p). Step 5 is the Illinois
 * iteration of the paper with its tolerance, at most CLUB_ILLINOIS_MAX
 * steps (and at most CLUB_ILLINOIS_MAX widenings of its first bracket);
 * v is at most 2^24 (a game between ratings thousands of points apart
 * says almost nothing). The new RD is at most CLUB_RD_MAX. Errors:
 * TB_E_ARG (NULL; p's rd or an opponent's not in (0, CLUB_RD_MAX]; p's
 * vol not in (0, 1]; tau not in [0.01, 10]; a score outside 0..1; n
 * over 100); *out is then unchanged.
 */
int club_glicko_update(const Club_Glicko *p, const Club_Rated_Result *games,
                       size_t n, Club_Fix tau, Club_Glicko *out);

/* Time-control classes: proto.h's Proto_Clock_Class (one policy for the
 * ratings and the relay's pool), under the ratings' names. */
typedef enum Club_Class {
    CLUB_CLASS_UNTIMED = PROTO_CLASS_UNTIMED,
    CLUB_CLASS_BULLET = PROTO_CLASS_BULLET,
    CLUB_CLASS_BLITZ = PROTO_CLASS_BLITZ,
    CLUB_CLASS_RAPID = PROTO_CLASS_RAPID,
    CLUB_CLASS_CLASSICAL = PROTO_CLASS_CLASSICAL,
    CLUB_CLASS_CORRESPONDENCE = PROTO_CLASS_CORRESPONDENCE,
    CLUB_CLASS_COUNT_ = PROTO_CLASS_COUNT
} Club_Class;

/* "untimed", "bullet", ...; "?" outside the list. */
const char *club_class_name(int klass);

/* The class of clock c (rating_log.c): proto_clock_class's. */
Club_Class club_class_of(const Proto_Clock *c);

/* One rated game, as a verified log gives it (club_game_from_log). */
typedef struct Club_Rated_Game {
    char game[PROTO_NAME_MAX + 1]; /* "laska", ... */
    uint8_t klass;                 /* Club_Class */
    uint8_t white[PROTO_KEY_BYTES];
    uint8_t black[PROTO_KEY_BYTES];
    uint8_t score;    /* white's score in half points: 0, 1 or 2 */
    uint64_t started; /* the match start's time (Unix seconds, signed) */
    uint8_t id[PROTO_HASH_BYTES]; /* the match start envelope's hash: one
                                     match, however many logs hold it */
    uint32_t source;  /* the caller's number for where it came from */
    /* The relays whose receipts witnessed it (at most 8 kept; 0: none, a
     * log of before receipts): a relay a player runs can witness a false
     * absence, so a list trusts the relays it names (tabula ratings
     * --relay, the trial of 2026-12-07). */
    uint8_t nrelays;
    uint8_t relay[8][PROTO_KEY_BYTES];
} Club_Rated_Game;

/* Why a verified log gives no rated game (club_game_from_log). */
typedef enum Club_Verdict {
    CLUB_RATED = 0,
    CLUB_UNFINISHED,   /* the match is still on (or the log cut) */
    CLUB_ABORTED,      /* aborted, or ended by a desync abort */
    CLUB_UNMOVED,      /* a side never moved (lichess rates no such game) */
    CLUB_SELF,         /* one key played both sides */
    CLUB_VERDICT_COUNT_
} Club_Verdict;

/*
 * club_game_from_log: verify a log held in buf[0..len) with
 * proto_log_verify_witnessed (every signature, the chain, every move,
 * the relay's receipts) and take its rated game into *out, its number
 * `source` copied in. A log that verifies gets 0 and *verdict says
 * whether it is rated (CLUB_RATED: *out filled) or why not. A desync
 * forfeit (G-PR-3: a side signed a state its moves do not give) is rated
 * as the loss it is. Errors: proto_log_verify_witnessed's (a torn log
 * too: TB_E_TRUNCATED), with why (cap bytes, may be NULL) given its
 * one-line reason; TB_E_ARG.
 */
/*
 * club_log_open: verify a log held in buf[0..len) with
 * proto_log_verify_witnessed (visit and ctx as it takes them) and hand
 * its transcript to *t (free with proto_transcript_free; may be NULL for
 * an empty log) and its report to *rep: the one reading of a log that
 * ratings and tournaments share. A log that fails after whole envelopes
 * holding a match already over reads as those envelopes (what follows
 * an end cannot change it; anyone may cut a log at an envelope): *rep is
 * the cut log's. Errors: proto_log_verify_witnessed's, with why (cap
 * bytes, may be NULL) its one-line reason.
 */
int club_log_open(const uint8_t *buf, size_t len, Proto_Log_Visit visit,
                  void *ctx, Proto_Transcript **t, Proto_Log_Report *rep,
                  char *why, size_t cap);

int club_game_from_log(const uint8_t *buf, size_t len, uint32_t source,
                       Club_Rated_Game *out, Club_Verdict *verdict, char *why,
                       size_t cap);

/* One player's rating in one game and class. */
typedef struct Club_Rated_Player {
    char game[PROTO_NAME_MAX + 1];
    uint8_t klass; /* Club_Class */
    uint8_t key[PROTO_KEY_BYTES];
    Club_Glicko g;
    uint32_t games; /* rated games played */
} Club_Rated_Player;

typedef struct Club_Ratings Club_Ratings; /* opaque, heap */

/* club_ratings_new: an empty list of games. Errors: TB_E_NOMEM. */
int club_ratings_new(Club_Ratings **out);

/* Release r; NULL is fine. */
void club_ratings_free(Club_Ratings *r);

/* club_ratings_add: add game g (copied) before club_ratings_run.
 * Errors: TB_E_ARG (score over 2, class out of range), TB_E_STATE (after
 * the run), TB_E_NOMEM. */
int club_ratings_add(Club_Ratings *r, const Club_Rated_Game *g);

/* Called by club_ratings_run for a match whose logs give two results
 * (sources a < b of two of them): it is not rated. */
typedef void (*Club_Conflict_Visit)(void *ctx, uint32_t source_a,
                                    uint32_t source_b);

/*
 * club_ratings_run: rate the games added, once. Order: by the match
 * start's time, then by its id (bytewise); games of one id count once
 * (the host's, the guest's and a spectator's logs of one match), and not
 * at all when two of them differ in result (conflict is called, may be
 * NULL). Each game is a rating period of its own for its two players (as
 * lichess rates each game at once), both updated from their ratings
 * before it, with system constant tau; other players do not change.
 * Then the players are listed by game name, class, rating (highest
 * first) and key. Errors: TB_E_STATE (run already), TB_E_NOMEM.
 */
int club_ratings_run(Club_Ratings *r, Club_Fix tau, Club_Conflict_Visit conflict,
                     void *ctx);

/* Games rated by the run (each match once), and matches not rated for a
 * conflict. */
size_t club_ratings_rated(const Club_Ratings *r);
size_t club_ratings_conflicts(const Club_Ratings *r);

/* Players listed after the run, and the i-th (NULL past the end). */
size_t club_ratings_count(const Club_Ratings *r);
const Club_Rated_Player *club_ratings_at(const Club_Ratings *r, size_t i);

/* ==== the list (rating_list.c) ========================================= */

/*
 * The list `tabula ratings` prints, made from logs handed in one by one
 * (bytes: the caller reads files or downloads), so the terminal's command
 * and the page's check of a relay's published list (web/wasm/web_club.c)
 * give the same bytes from the same logs:
 *   rating: GAME CLASS FINGERPRINT RATING RD VOLATILITY GAMES
 *   relay: FINGERPRINT GAMES      (each relay that witnessed games rated)
 *   relay: none GAMES             (games rated from logs without receipts)
 *   ratings: games G logs L skipped S
 * each line ending in "\n" (docs/ratings.md).
 */
typedef struct Club_List Club_List; /* opaque, heap */

/* Relays a list may trust (club_list_trust). */
#define CLUB_LIST_RELAYS_MAX 16

/* What club_list_add did with a log. */
typedef enum Club_List_Outcome {
    CLUB_LIST_RATED = 0,  /* its game is in the list */
    CLUB_LIST_OTHER_GAME, /* rated, but of a game club_list_only left out */
    CLUB_LIST_FAILED,     /* it does not verify (why says why): skipped */
    CLUB_LIST_UNRATED,    /* it verifies and gives no rated game
                             (the verdict says why): skipped */
    CLUB_LIST_UNTRUSTED   /* a relay the list does not trust witnessed it:
                             skipped */
} Club_List_Outcome;

/* club_list_new: an empty list: every game, every relay trusted. Errors:
 * TB_E_ARG (NULL out), TB_E_NOMEM. club_list_free releases one (NULL is
 * fine). */
int club_list_new(Club_List **out);
void club_list_free(Club_List *l);

/* club_list_only: list only game's ratings (`--game`). Errors: TB_E_ARG
 * (NULL, a name longer than PROTO_NAME_MAX). */
int club_list_only(Club_List *l, const char *game);

/*
 * A relay named by a person (`tabula ratings --relay`, `tabula
 * tournament create --relay`): its key in hex, or the fingerprint
 * `tabula lobby` prints as 'relay key:', in either case.
 * club_relay_word: v in its canonical form into out (lowercase hex, or
 * the fingerprint in Crockford base32 capitals, XXXX-XXXX-XXXX-XXXX):
 * 0, or TB_E_ARG when v is neither. club_relay_names: 1 when the
 * canonical word names the relay of key pk (its hex or its
 * fingerprint), else 0.
 */
#define CLUB_RELAY_WORD_MAX (2 * PROTO_KEY_BYTES + 1)
int club_relay_word(const char *v, char out[CLUB_RELAY_WORD_MAX]);
int club_relay_names(const char *word, const uint8_t pk[PROTO_KEY_BYTES]);

/*
 * club_list_trust: rate only games every receipt of which is by a relay
 * named so (`--relay`; called again for more relays): relay as
 * club_relay_word takes it. A list that trusts none rates every verified
 * game. Errors: TB_E_ARG (NULL, neither form), TB_E_LIMIT
 * (CLUB_LIST_RELAYS_MAX already).
 */
int club_list_trust(Club_List *l, const char *relay);

/*
 * club_list_rating_line: a "rating:" line of the list's text (without
 * its newline) read back: its game (a name of at most PROTO_NAME_MAX
 * characters), its class (a Club_Class) and fingerprint, and the rating
 * as the whole number printed. 0, or TB_E_FORMAT for any other line (a
 * relay reads its published list so: lobby --archive).
 */
int club_list_rating_line(const char *line, char game[PROTO_NAME_MAX + 1],
                          int *klass, char fp[PROTO_FINGERPRINT_MAX],
                          unsigned *rating);

/*
 * club_list_add: one log, buf[0..len): verified and sorted
 * (club_game_from_log), its number the count of logs handed in before it
 * (for the conflict visit of club_list_text). *outcome says what became
 * of it, *verdict (may be NULL) the verdict of a log that verifies, why
 * (cap bytes, may be NULL) the reason of one that does not. Errors (the
 * log is then not counted): TB_E_ARG (NULL l or outcome), TB_E_STATE
 * (after club_list_text), TB_E_NOMEM.
 */
int club_list_add(Club_List *l, const uint8_t *buf, size_t len,
                  Club_List_Outcome *outcome, Club_Verdict *verdict,
                  char *why, size_t cap);

/* club_list_unreadable: count a log that could not be read as one
 * handed in and skipped. Errors: TB_E_ARG, TB_E_STATE (after
 * club_list_text). */
int club_list_unreadable(Club_List *l);

/* Logs skipped so far (failed, unrated, untrusted, unreadable). */
size_t club_list_skipped(const Club_List *l);

/*
 * club_list_text: rate the games (club_ratings_run: conflict, may be
 * NULL, is called for a match whose logs give two results, with the
 * logs' numbers) and make the list's text into *text (NUL-terminated,
 * owned by l until club_list_free; a second call gives the same text).
 * Errors: TB_E_ARG (NULL), TB_E_NOMEM; TB_E_STATE after a failed call.
 */
int club_list_text(Club_List *l, Club_Conflict_Visit conflict, void *ctx,
                   const char **text);

/* ==== end of ratings ================================================== */

#endif /* TABULA_CLUB_H */
