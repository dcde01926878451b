/*
 * tourney.h: a tournament's core without I/O (the club layer, after
 * proto/): round robins by FIDE's Berger tables, results per player and
 * round, standings with FIDE's tie-breaks, the crosstable in text and in
 * HTML, and FIDE's Tournament Report File (TRF-16) written and read.
 *
 * No floating point: every score is an integer of half points (a chess
 * win is 2, a draw 1), tie-breaks too (Sonneborn-Berger as a fraction
 * with a documented denominator). The same tournament gives the same
 * bytes on every build. docs/tournaments.md says which rules apply and
 * where they come from.
 *
 * Players are numbered by their starting rank, 1..nplayers; 0 is "no
 * player" (the dummy of a round robin with an odd count, a bye's empty
 * opponent). Rounds are numbered 1..nrounds.
 *
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_CLUB_TOURNEY_H
#define TABULA_CLUB_TOURNEY_H

#include <stddef.h>
#include <stdint.h>

/* Players of a round robin by Berger tables: 3..16 (FIDE's tables). */
#define CLUB_BERGER_MIN 3
#define CLUB_BERGER_MAX 16
/* Players and rounds a tournament holds (a TRF may bring a Swiss). */
#define CLUB_TOURNEY_MAX_PLAYERS 2048
#define CLUB_TOURNEY_MAX_ROUNDS 40
/* Bytes of a player's or tournament's name, NUL excluded (TRF: 33). */
#define CLUB_NAME_MAX 64

/* One board of a round: White and Black by starting rank; 0 on one side
 * is the dummy (the other player has the bye). */
typedef struct Club_Pairing {
    int white;
    int black;
} Club_Pairing;

/*
 * club_berger_rounds: rounds of a round robin of nplayers (3..16),
 * single (double_rr 0) or double (1): n-1 for an even n, n for an odd n
 * (the dummy makes it even), twice that for a double round robin.
 * Returns the count, or TB_E_ARG for a player count outside 3..16.
 */
int club_berger_rounds(int nplayers, int double_rr);

/*
 * club_berger_round: the pairings of one round of FIDE's Berger tables
 * (Handbook C.05 Annex 1) for nplayers (3..16), in the table's board
 * order, into out (room for CLUB_BERGER_MAX / 2 boards); *count gets the
 * boards (n/2 rounded up). With an odd n the highest number n+1 is the
 * dummy, written 0. In a double round robin (double_rr 1) rounds after
 * the first cycle repeat it with colours reversed. round is 1-based.
 * Returns 0, or TB_E_ARG (a count outside 3..16, a round outside
 * 1..club_berger_rounds, a NULL pointer).
 */
int club_berger_round(int nplayers, int double_rr, int round, Club_Pairing *out,
                      int *count);

/* A player's result in one round. */
typedef enum Club_Result {
    CLUB_RES_ABSENT = 0,    /* not paired: zero-point bye (TRF Z, blank) */
    CLUB_RES_PENDING,       /* paired, no result yet */
    CLUB_RES_WIN,           /* played and won */
    CLUB_RES_WIN_TIEBREAK,  /* won after a tie-break (volleyball 2-1) */
    CLUB_RES_DRAW,          /* played, drawn */
    CLUB_RES_LOSS_TIEBREAK, /* lost after a tie-break (volleyball 1-2) */
    CLUB_RES_LOSS,          /* played and lost */
    CLUB_RES_FORFEIT_WIN,   /* the opponent did not play (TRF +) */
    CLUB_RES_FORFEIT_LOSS,  /* did not play against a paired opponent (-) */
    CLUB_RES_BYE_FULL,      /* full-point bye (TRF F) */
    CLUB_RES_BYE_HALF,      /* half-point bye (TRF H) */
    CLUB_RES_BYE_PAIRING    /* pairing-allocated bye (TRF U) */
} Club_Result;

/* Colour of a player in one round. */
enum { CLUB_COLOUR_NONE = 0, CLUB_COLOUR_WHITE = 1, CLUB_COLOUR_BLACK = 2 };

/*
 * Table points, a per-game policy, in half points of the game's table:
 * what each result is worth to the player who has it. draw is also what
 * an unplayed game counts for in the tie-breaks (FIDE's "considered
 * drawn"), and win what a forfeit is measured against.
 */
typedef struct Club_Points {
    int win, win_tiebreak, draw, loss_tiebreak, loss;
    int forfeit_win, forfeit_loss;
    int bye_full, bye_half, bye_pairing, absent;
} Club_Points;

/* Chess and the games scored like it: 1, 1/2, 0; byes F 1, H 1/2, a
 * pairing-allocated bye 1 (FIDE: as the tournament decides; our
 * default), absence 0. */
extern const Club_Points club_points_chess;
/* Chess volleyball (the seed; docs/rules): 3 for a 2-0 win in sets, 2
 * for a 2-1 win (and a chess stage not caught), 1 for a 2-1 loss, 0 for
 * 0-2; a forfeit or a pairing-allocated bye as a 2-0 win; draw 3/2 (the
 * half of a win, for unplayed games in tie-breaks and a half-point bye). */
extern const Club_Points club_points_volleyball;

/*
 * club_result_points: what result r is worth under policy p (half
 * points). CLUB_RES_PENDING and an unknown value are worth 0.
 */
int club_result_points(const Club_Points *p, Club_Result r);

/* One player's entry of one round. */
typedef struct Club_Game {
    uint16_t opponent; /* starting rank, 0 for none */
    uint8_t colour;    /* CLUB_COLOUR_* */
    uint8_t result;    /* Club_Result */
} Club_Game;

typedef struct Club_Player {
    char name[CLUB_NAME_MAX + 1]; /* UTF-8, no control characters */
    int rating;                   /* 0 unknown */
    Club_Game games[CLUB_TOURNEY_MAX_ROUNDS];
} Club_Player;

/* A tournament's state: its players by starting rank (players[0] is
 * rank 1) and every round's entries. Made by club_tourney_new. */
typedef struct Club_Tourney {
    char name[CLUB_NAME_MAX + 1];
    int nplayers;
    int nrounds;
    Club_Player players[CLUB_TOURNEY_MAX_PLAYERS];
} Club_Tourney;

/*
 * club_tourney_new: an empty tournament (no players, no rounds) on the
 * heap, or NULL when memory is short. club_tourney_free releases it
 * (NULL is fine).
 */
Club_Tourney *club_tourney_new(void);
void club_tourney_free(Club_Tourney *t);

/*
 * club_tourney_add_player: a player with the next starting rank; name is
 * UTF-8 (1..CLUB_NAME_MAX bytes, no control characters), rating 0..9999
 * (0 unknown). Returns the starting rank (1..), TB_E_ARG for a bad name
 * or rating, TB_E_LIMIT past CLUB_TOURNEY_MAX_PLAYERS.
 */
int club_tourney_add_player(Club_Tourney *t, const char *name, int rating);

/*
 * club_tourney_round_robin: schedules every round of a round robin of
 * the tournament's players (3..16) by the Berger tables: single or double
 * (double_rr 1). Every game is PENDING; the player the dummy meets gets
 * a pairing-allocated bye (CLUB_RES_BYE_PAIRING). Replaces any earlier
 * rounds. Returns 0, or TB_E_ARG for a player count outside 3..16.
 */
int club_tourney_round_robin(Club_Tourney *t, int double_rr);

/*
 * club_tourney_set_result: the result of the game of round round that
 * player plays: r is player's result (WIN, WIN_TIEBREAK, DRAW,
 * LOSS_TIEBREAK, LOSS, FORFEIT_WIN, FORFEIT_LOSS), and the opponent gets
 * the mirror (a forfeit win's opponent a forfeit loss). Returns 0,
 * TB_E_ARG for a bad round, player or result, TB_E_STATE when player has
 * no opponent in that round.
 */
int club_tourney_set_result(Club_Tourney *t, int round, int player,
                            Club_Result r);

/*
 * club_tourney_withdraw: player leaves before round from: each of their
 * games from that round on that has no result yet becomes a forfeit
 * (their opponent wins by forfeit), a bye becomes an absence. Results
 * already in stay. Returns 0 or TB_E_ARG.
 */
int club_tourney_withdraw(Club_Tourney *t, int player, int from);

/* Tie-breaks (FIDE C.07; docs/tournaments.md). */
typedef enum Club_Tiebreak {
    CLUB_TB_DIRECT = 1,    /* direct encounter among the tied */
    CLUB_TB_BUCHHOLZ,      /* sum of the opponents' scores */
    CLUB_TB_BUCHHOLZ_CUT1, /* Buchholz without the lowest opponent */
    CLUB_TB_SONNEBORN      /* Sonneborn-Berger */
} Club_Tiebreak;

/* The order used when none is given: direct encounter, Buchholz cut 1,
 * Buchholz, Sonneborn-Berger. */
#define CLUB_TB_DEFAULT_COUNT 4
extern const Club_Tiebreak club_tb_default[CLUB_TB_DEFAULT_COUNT];

/* One line of the standings, in half points of the table: points,
 * Buchholz and its cut 1 (an opponent's unplayed rounds counted as
 * draws, the player's own unplayed rounds as games against FIDE's
 * "virtual opponent": docs/tournaments.md). sonneborn is the sum over
 * the games of own half points times the opponent's half points:
 * Sonneborn-Berger in points is sonneborn / (2 * p->win), for chess / 4.
 * direct is the half points scored against the players still tied when
 * the direct encounter was applied, if every pair of them met, else 0
 * (0 too when the order has no direct encounter or nobody was tied). */
typedef struct Club_Standing {
    int player; /* starting rank */
    int rank;   /* 1-based place; players tied on everything share it */
    int points;
    int buchholz;
    int buchholz_cut1;
    int sonneborn;
    int direct;
} Club_Standing;

/*
 * club_standings: the standings after the first `rounds` rounds (0: all)
 * under policy p (NULL: chess) and the tie-breaks order[0..norder) (NULL:
 * club_tb_default), best first, into out (room for t->nplayers). Players
 * tied on points and on every tie-break share a rank and stay in
 * starting-rank order. Returns 0, or TB_E_ARG (bad rounds, a tie-break
 * code outside the list, NULL t or out).
 */
int club_standings(const Club_Tourney *t, int rounds, const Club_Points *p,
                   const Club_Tiebreak *order, int norder, Club_Standing *out);

/*
 * club_format_points: half points h as text ("3", "2.5", "-0.5") into buf
 * (size bytes). Returns the length, or TB_E_SPACE when it does not fit.
 */
int club_format_points(int h, char *buf, size_t size);

/*
 * club_crosstable_text / club_crosstable_html: the crosstable after the
 * standings s (from club_standings, same t and p; NULL p: chess): one row
 * per player in the standings' order: rank, name, one cell per player in
 * the standings' order (their games in round order: 1 = 0 won, drawn,
 * lost; w l won, lost after a tie-break; + - forfeits; . not played yet;
 * x on the diagonal: a double round robin shows two marks), points and
 * the tie-breaks BH, BH-C1 (points) and SB (points, two decimals, rounded
 * half up). Text is fixed-width (a character a column: names cut to 24
 * characters and padded), lines end in \n; HTML is one <table> with
 * every text escaped (& < > " '). headers[0..6) are the column titles
 * (rank, name, points, BH, BH-C1, SB) in the caller's language; NULL
 * gives English. Writes at most size bytes, NUL included; returns the
 * length, or TB_E_SPACE (too small: out holds a NUL-terminated prefix),
 * TB_E_ARG (NULL t, s or out, size 0, a standing naming no player).
 */
int club_crosstable_text(const Club_Tourney *t, const Club_Points *p,
                         const Club_Standing *s, const char *const *headers,
                         char *out, size_t size);
int club_crosstable_html(const Club_Tourney *t, const Club_Points *p,
                         const Club_Standing *s, const char *const *headers,
                         char *out, size_t size);

/*
 * club_trf_write: the tournament as a TRF-16 file (FIDE Handbook C.04
 * Annex 2): 012 (name), 062 (player count), XXR (rounds, the pairing
 * engines' extension), then one 001 line per player with the points and
 * rank of the standings s (as club_standings gives them under the same
 * policy) and each round's opponent, colour and result code. Lines end
 * in \r\n (the format's CR). Names longer than the 33 columns are cut
 * at a whole UTF-8 character; sex, title, federation, FIDE number and
 * birth date are left blank; a win after a tie-break is written 1, a
 * loss after one 0 (TRF has no code for them). Writes at most size
 * bytes, NUL included; returns the length, TB_E_SPACE, or TB_E_ARG (NULL
 * pointers, a standing naming no player or with points over 99.5).
 */
int club_trf_write(const Club_Tourney *t, const Club_Standing *s, char *out,
                   size_t size);

/* Where club_trf_read stopped: line and column are 1-based (column 0:
 * the whole line or file); why is a fixed English phrase. */
typedef struct Club_Trf_Error {
    int line;
    int column;
    const char *why;
} Club_Trf_Error;

/*
 * club_trf_read: a TRF-16 file (len bytes, untrusted) into t (emptied
 * first): 012 the name, XXR the round count (else the longest player
 * line's), each 001 line a player (starting ranks 1..n, each once) and
 * its rounds. Every opponent must name the player back in the same round
 * with the other colour and the mirrored result. Lines may end in \n,
 * \r\n or \r; ### lines and other tags are skipped. Points and rank on a
 * 001 line are checked for form only. W, D, L (games of less than a
 * move) read as 1, =, 0.
 * Returns 0, or TB_E_FORMAT (err says the line, the column and why),
 * TB_E_LIMIT (more than CLUB_TOURNEY_MAX_PLAYERS players or _ROUNDS
 * rounds, a line over 1024 bytes: err says where), TB_E_ARG (NULL).
 */
int club_trf_read(Club_Tourney *t, const char *text, size_t len,
                  Club_Trf_Error *err);

#endif /* TABULA_CLUB_TOURNEY_H */
