/*
 * core.h: the game-neutral rules interface of Tabula.
 *
 * Every game (Laska, Chessball, Football chess, Chess volleyball) is one
 * Core_Game. A Core_Position is an opaque heap object holding one game's
 * whole state: placement, side to move, counters, repetition history and
 * match options, everything that decides future legal moves and results.
 * The core is deterministic and needs only libc: no floating point, no
 * clock, no unseeded randomness. Peers compare a hash of the canonical
 * encoding (core_encode), computed outside core/.
 *
 * Errors are the negative TB_E_* codes of tb_error.h.
 */
#ifndef TABULA_CORE_H
#define TABULA_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "tb_error.h"

/* Sides. D-ALL-4: White starts unless a game says otherwise. */
#define CORE_WHITE 0
#define CORE_BLACK 1

/* Bytes of game data a move can carry (a Laska path, a Football turn). */
#define CORE_MOVE_BYTES 30

/* Longest notation or position text any game produces, NUL included. */
#define CORE_NOTATION_MAX 128
#define CORE_POSITION_TEXT_MAX 2048

/* Longest text the parsers accept; longer input is TB_E_TOOLONG. */
#define CORE_INPUT_MAX 4096

/*
 * A move (D-ALL-5): a game-defined byte string. Two moves are the same move
 * exactly when core_move_equal says so. Unused bytes of b are zero, so a
 * move can be compared and hashed as plain bytes.
 */
typedef struct Core_Move {
    uint8_t len;                  /* bytes of b in use, 0..CORE_MOVE_BYTES */
    uint8_t flags;                /* game-defined */
    uint8_t b[CORE_MOVE_BYTES];   /* game-defined */
} Core_Move;

/* D-ALL-1: how a game stands. */
typedef enum Core_Outcome {
    CORE_ONGOING = 0,
    CORE_WIN_WHITE,
    CORE_WIN_BLACK,
    CORE_DRAW,
    CORE_ABORTED
} Core_Outcome;

/* D-ALL-1: why it ended. Board reasons come from the core; resign,
 * agreement, time and the desync reasons are recorded by the match layer. */
typedef enum Core_Reason {
    CORE_REASON_NONE = 0,
    CORE_REASON_CHECKMATE,
    CORE_REASON_STALEMATE,
    CORE_REASON_NO_MOVES,
    CORE_REASON_GOAL,
    CORE_REASON_RESIGN,
    CORE_REASON_AGREEMENT,
    CORE_REASON_REPETITION,
    CORE_REASON_MOVE_RULE,
    CORE_REASON_TIME,
    CORE_REASON_DESYNC_ABORT,
    CORE_REASON_POINTS,
    CORE_REASON_FORFEIT,
    CORE_REASON_ABORT,
    CORE_REASON_ABANDON,
    CORE_REASON_NOT_CAUGHT, /* volleyball chess stage: King not mated */
    CORE_REASON_DESYNC_FORFEIT, /* G-PR-3: signed a state the signed moves
                                   do not give (recorded by proto/) */
    CORE_REASON_COUNT_
} Core_Reason;

typedef struct Core_Status {
    Core_Outcome outcome;
    Core_Reason reason;
} Core_Status;

typedef struct Core_Game Core_Game;         /* static, never freed */
typedef struct Core_Position Core_Position; /* opaque, heap */

/* ---- games ---------------------------------------------------------- */

/* Number of games compiled in, and the i-th in a fixed order
 * (NULL when i >= count). */
size_t core_game_count(void);
const Core_Game *core_game_at(size_t i);

/* The game with this name ("laska", "chessball", "football",
 * "volleyball", ...), or NULL. */
const Core_Game *core_game_find(const char *name);

const char *core_game_name(const Core_Game *g);   /* "laska" */
const char *core_game_title(const Core_Game *g);  /* "Laska (Lasker 1911)" */

/* A one-line example of the game's move notation, for error messages. */
const char *core_game_move_hint(const Core_Game *g);

/* A move buffer of this many entries always holds every legal move of
 * any position of the game. */
size_t core_game_max_moves(const Core_Game *g);

/* core_encode never writes more than this many bytes for the game. */
size_t core_game_encode_max(const Core_Game *g);

/* ---- positions ------------------------------------------------------ */

/*
 * core_position_new: the start position of game g with match options
 * (a comma-separated "key=value" list, NULL or "" for the defaults; the
 * keys are the game's own, see docs/rules/GAME.md).
 * Errors: TB_E_ARG (NULL out or g), TB_E_OPTION (unknown key or bad value),
 * TB_E_TOOLONG (options over CORE_INPUT_MAX), TB_E_NOMEM.
 */
int core_position_new(Core_Position **out, const Core_Game *g,
                      const char *options);

/* Release a position; NULL is fine. */
void core_position_free(Core_Position *pos);

/* A new copy of pos, or NULL when out of memory. */
Core_Position *core_position_clone(const Core_Position *pos);

/* Copy src over dst. Errors: TB_E_MISMATCH when the games differ. */
int core_position_copy(Core_Position *dst, const Core_Position *src);

const Core_Game *core_position_game(const Core_Position *pos);

/* CORE_WHITE or CORE_BLACK: the side whose move it is. */
int core_side_to_move(const Core_Position *pos);

/* Plies (moves, D-ALL-5) played since the game's start. */
uint32_t core_ply(const Core_Position *pos);

/* A 64-bit zobrist key of everything repetition compares (D-ALL-2). */
uint64_t core_key(const Core_Position *pos);

/* The game's status and, when over, its winner and reason. */
Core_Status core_status(const Core_Position *pos);

/*
 * core_table_points: the table points a finished game gives each side, in
 * half points (out[0] White's, out[1] Black's: 2 is one point), for
 * series and tournaments (issue 38). st is how the game ended: the
 * board's status (core_status) or one decided off the board (a signed
 * resignation, agreement, flag or forfeit: proto_transcript_status), and
 * pos the final position. Every game but Chess volleyball: a win 1 : 0, a
 * draw 1/2 : 1/2. Chess volleyball (docs/rules/volleyball.md §6.4, A-45,
 * G-VB-10): won 2-0 in sets 3 : 0, 2-1 in sets 2 : 1 (also after a mate
 * in the chess stage), not caught or stalemated in the chess stage 2 : 1
 * to the volleyball winner; won off the board 3 : 0 and drawn by
 * agreement 3/2 : 3/2 (G-VB-10). An aborted game gives 0 : 0.
 * Errors: TB_E_ARG (pos or out NULL), TB_E_STATE (st is ongoing).
 */
int core_table_points(const Core_Position *pos, Core_Status st,
                      unsigned out[2]);

/* ---- moves ---------------------------------------------------------- */

/*
 * core_moves: every legal move, each once (D-ALL-5), in the game's
 * canonical order, into buf[0..cap). *count gets the number. A finished
 * game has no moves. No allocation.
 * Errors: TB_E_ARG, TB_E_TOOMANY (cap too small; use
 * core_game_max_moves).
 */
int core_moves(const Core_Position *pos, Core_Move *buf, size_t cap,
               size_t *count);

/*
 * core_moves_distinct: the legal moves of pos as core_moves lists them,
 * in the same order, less moves that the game can cheaply tell reach the
 * same position as an earlier one (what core_key covers), for a search,
 * to which such moves are one. Football chess lists the
 * first turn in canonical order for each piece move (or none) and
 * square the ball ends on, so a position lists at most 81 turns a piece
 * move where core_moves lists every kick chain; its walk skips the
 * chains that can reach only squares already listed, so it is far
 * cheaper too. Goals end in a reset placement: turns of different piece
 * moves that score may still reach one position. The other games list
 * exactly what core_moves lists. Errors as core_moves.
 */
int core_moves_distinct(const Core_Position *pos, Core_Move *buf, size_t cap,
                        size_t *count);

/*
 * core_play: validate mv against the legal moves and apply it.
 * Errors: TB_E_OVER (game finished), TB_E_ILLEGAL (not a legal move; pos
 * is unchanged), TB_E_NOMEM.
 */
int core_play(Core_Position *pos, const Core_Move *mv);

/*
 * core_make: apply a move that core_moves listed for this very position,
 * without checking (search and perft). Anything else is a caller bug.
 */
void core_make(Core_Position *pos, const Core_Move *mv);

/* Same game-defined bytes. */
int core_move_equal(const Core_Move *a, const Core_Move *b);

/*
 * core_move_format: the canonical notation of mv (legal in pos) into buf,
 * NUL-terminated. Errors: TB_E_SPACE, TB_E_ARG.
 */
int core_move_format(const Core_Position *pos, const Core_Move *mv,
                     char *buf, size_t cap);

/*
 * core_move_parse: read text (canonical notation, or any input form the
 * game accepts) and resolve it to a legal move of pos.
 * Errors: TB_E_TOOLONG, TB_E_NOTATION (not a move's shape),
 * TB_E_SQUARE (Laska: a square named as a letter and a digit that is
 * not one of the board's, such as a light square), TB_E_ILLEGAL (well
 * formed, not legal here), TB_E_AMBIGUOUS (matches several legal
 * moves), TB_E_OVER (game finished).
 */
int core_move_parse(const Core_Position *pos, const char *text,
                    Core_Move *out);

/*
 * core_move_forcing: what mv, a move core_moves listed for pos, wins at
 * once, told from the move and the position without making it, so a
 * search can order and quiesce on it cheaply. In hundredths of a
 * soldier/pawn, the scale of core_evaluate:
 *   Laska       100 per jump (every jump takes a prisoner, seed 003;
 *               captures are compulsory, D-LA-4, so a position has
 *               either only captures or none);
 *   Chessball   the captured piece's value (P 100, N 300, B 325, R 450,
 *               Q 850, the weights of core_evaluate);
 *   Football    CORE_FORCING_GOAL for a turn whose ball ends in the goal
 *               the mover attacks (D-FC-5, D-FC-7);
 *   Chess volleyball  1 for a shot or serve that crosses the net (spec
 *               4.3-4.5): it may win a point, which only making it shows
 *               (the receiver's options decide, spec 6.1).
 * 0 for every other move (quiet, or a game without the query). Checks are
 * not reported. Anything but a listed move gives an unspecified value in
 * 0..CORE_FORCING_GOAL, never undefined behaviour.
 */
#define CORE_FORCING_GOAL 10000
int32_t core_move_forcing(const Core_Position *pos, const Core_Move *mv);

/*
 * core_forcing_find: a forcing move of pos (core_move_forcing > 0) found
 * without listing every move, for a game whose lists are too long to
 * list at each leaf of a search (Football chess: its generator walks the
 * turns and stops at the first that scores, so a leaf learns whether the
 * side to move can score now). Returns 1 with the move, the first such
 * in the canonical order of core_moves, in *out and its value in *gain;
 * 0 when pos has none (also a finished game; *out and *gain untouched).
 * Errors: TB_E_ARG (a NULL pointer), TB_E_STATE (the game has no such
 * query: list the moves instead).
 */
int core_forcing_find(const Core_Position *pos, Core_Move *out,
                      int32_t *gain);

/*
 * core_in_check: 1 when the side to move is in check (its king attacked:
 * Chessball, D-CB-7), else 0; always 0 in games without check (Laska,
 * Football chess, Chess volleyball). A search extends checks and does
 * not stand pat in check (docs/engines.md). No errors.
 */
int core_in_check(const Core_Position *pos);

/* ---- numbers -------------------------------------------------------- */

/*
 * core_read_uint: the one reader of a whole decimal number, in core's
 * texts (positions, options, Lasker's square numbers) and in what a
 * person types to the program (client/cli_util.c cli_uint): one digit or more
 * at *p, no sign, no leading zero (the form core writes: "0"
 * alone is zero, "07" is refused, so each number has one spelling), at
 * most max. On success *out holds it and *p points past it: 0. Else -1
 * (no digit, a leading zero, over max) and *p is unmoved.
 */
int core_read_uint(const char **p, uint64_t max, uint64_t *out);

/* core_read_uint_all: as core_read_uint for the whole of s[0..len)
 * (nothing before or after the number). */
int core_read_uint_all(const char *s, size_t len, uint64_t max,
                       uint64_t *out);

/* ---- text and bytes ------------------------------------------------- */

/* core_position_format: the position string (see docs/rules/GAME.md).
 * Errors: TB_E_SPACE. */
int core_position_format(const Core_Position *pos, char *buf, size_t cap);

/*
 * core_position_parse: replace pos (keeping its game and options) with the
 * position the string describes. Repetition history starts afresh.
 * why (may be NULL) gets a one-line reason on failure.
 * Errors: TB_E_TOOLONG, TB_E_POSITION (malformed or impossible); pos is
 * unchanged on error.
 */
int core_position_parse(Core_Position *pos, const char *text, char *why,
                        size_t why_cap);

/* The canonical options string of pos ("" when all defaults). */
int core_options_format(const Core_Position *pos, char *buf, size_t cap);

/*
 * core_encode: the canonical byte encoding of the whole state (first byte:
 * the game's id). Equal states give equal bytes on every build.
 * Errors: TB_E_SPACE (cap < core_game_encode_max is always enough).
 */
int core_encode(const Core_Position *pos, uint8_t *buf, size_t cap,
                size_t *len);

/*
 * core_decode: replace pos with the state encoded in buf[0..len). The
 * bytes are hostile: every field is checked, and bytes that do not
 * re-encode to themselves are refused. pos is unchanged on error.
 * Errors: TB_E_ENCODING (malformed, impossible or non-canonical),
 * TB_E_MISMATCH (another game's encoding), TB_E_NOMEM.
 */
int core_decode(Core_Position *pos, const uint8_t *buf, size_t len);

/* ---- counting ------------------------------------------------------- */

/*
 * core_perft: the number of move sequences of exactly depth moves from pos
 * (D-ALL-5); depth 0 gives 1.
 * Errors: TB_E_NOMEM, TB_E_ARG (depth > 64).
 */
int core_perft(const Core_Position *pos, unsigned depth, uint64_t *nodes);

/*
 * core_evaluate: a static score of pos for the side to move, in
 * hundredths of a soldier/pawn (positive: better for the side to move).
 * Deterministic integer heuristics for bots; 0 where a game has none.
 */
int32_t core_evaluate(const Core_Position *pos);

/*
 * core_evaluate_classic: the static score core_evaluate gave when issue
 * 17 (stronger bots) was filed, the same scale and view: Laska's
 * hand-set weights (soldier 100, officer 300, advance 6, reserve 40,
 * prisoner 25), Football chess's two hand-set terms (the ball's rank 15,
 * pieces next to it 8), Chess volleyball's score alone (points 100, sets
 * 1000); Chessball's evaluation is unchanged. Kept only so that a match
 * can play the bot as it was (`tabula match ... --b 8:classic`,
 * docs/engines.md); no bot in play, demo or network games uses it.
 */
int32_t core_evaluate_classic(const Core_Position *pos);

/*
 * core_evaluate_terms: the terms of pos's evaluation before weighting,
 * each counted White minus Black, for fitting the weights to self-play
 * offline (tests/bench/texel_data, docs/engines.md). Writes them to
 * out[0..cap) and their number to *n. Only Chess volleyball lists its
 * terms this way (its terms need the rules' geometry, which a tuning
 * script could not cheaply repeat).
 * Errors: TB_E_ARG (a NULL argument), TB_E_STATE (the game lists no
 * terms), TB_E_SPACE (cap is smaller than the number of terms).
 */
int core_evaluate_terms(const Core_Position *pos, int32_t *out, size_t cap,
                        size_t *n);

/* ---- a drawable view -------------------------------------------------- */

#define CORE_VIEW_MAX_ROWS 16
#define CORE_VIEW_MAX_COLS 16

/* What a cell of the drawn board is. */
typedef enum Core_Cell_Kind {
    CORE_CELL_BLANK = 0, /* not part of the board: draw nothing */
    CORE_CELL_LIGHT,     /* a light square (or a white hexagon) */
    CORE_CELL_DARK,      /* a dark square (or a black pentagon) */
    CORE_CELL_GOAL,      /* a goal square (Football chess) */
    CORE_CELL_NET        /* the net (Chess volleyball) */
} Core_Cell_Kind;

/*
 * Core_Said: one piece of a text core writes for people (a view's status
 * line or a cell's description), so a front end says it in its language
 * from what it is, never by reading the English: a phrase of
 * core_phrase_words' table with its numbers n (code > 0), or (code
 * CORE_PHRASE_TEXT) the English text's bytes at..at+len as they are (a
 * field's name, a separator).
 */
typedef struct Core_Said {
    uint8_t code;  /* a Core_Phrase_Code */
    uint8_t at;    /* CORE_PHRASE_TEXT: where the run starts in the text */
    uint8_t len;   /* and its length */
    uint16_t n[3]; /* a phrase's numbers, in its format's order */
} Core_Said;

#define CORE_CELL_SAID 4  /* pieces of a cell's description */
#define CORE_VIEW_SAID 12 /* pieces of a view's status line */

typedef struct Core_Cell {
    uint8_t kind;    /* Core_Cell_Kind */
    int8_t owner;    /* CORE_WHITE, CORE_BLACK, or -1 for none / neutral */
    char name[8];    /* square or field name ("c3"), "" when not playable */
    char glyph[8];   /* what stands there, e.g. "Wb" or "K"; "" if empty */
    char detail[48]; /* longer description, e.g. a column top first */
    uint8_t nsaid;   /* detail as pieces (0: none, say detail as it is) */
    Core_Said said[CORE_CELL_SAID];
} Core_Cell;

/*
 * A board as rows of cells, row 0 drawn at the top, as White sees it.
 * Labels name the rows and columns (the column labels all "" where the
 * columns are no part of the cells' names: Chessball's map); status is a
 * game line such as the score, set or serve ("" when the game has none).
 */
typedef struct Core_View {
    int rows;
    int cols;
    Core_Cell cell[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS];
    char row_label[CORE_VIEW_MAX_ROWS][4];
    char col_label[CORE_VIEW_MAX_COLS][4];
    char status[96];
    uint8_t nsaid; /* status as pieces (0: none, say status as it is) */
    Core_Said said[CORE_VIEW_SAID];
} Core_View;

/* The phrases core writes for people in views (core/phrase.c). */
typedef enum Core_Phrase_Code {
    CORE_PHRASE_TEXT = 0, /* a run of the English text as it is */
    /* Chessball (chessball.c cb_view) */
    CORE_PHRASE_WHITE_IN_CHECK,
    CORE_PHRASE_BLACK_IN_CHECK,
    CORE_PHRASE_NO_CAPTURE, /* plies */
    CORE_PHRASE_CB_PIECE,   /* white pawn .. black king: 12 in a row */
    CORE_PHRASE_NEXT_TO = CORE_PHRASE_CB_PIECE + 12,
    /* Football chess (football.c fc_view) */
    CORE_PHRASE_GOALS,      /* White's, Black's, to win */
    CORE_PHRASE_SINCE_GOAL, /* plies */
    CORE_PHRASE_WHITE_GOAL,
    CORE_PHRASE_BLACK_GOAL,
    CORE_PHRASE_BALL,
    /* Football chess and Chess volleyball: White king .. Black cat, the
     * white ones then the black ones, in CORE_PIECE_* order */
    CORE_PHRASE_PIECE,
    /* Chess volleyball (volleyball.c vb_view) */
    CORE_PHRASE_TOUCHED = CORE_PHRASE_PIECE + 18,
    CORE_PHRASE_ATTACKER,
    CORE_PHRASE_CHESS_STAGE, /* attacker's moves */
    CORE_PHRASE_KING_IN_CHECK,
    CORE_PHRASE_SET,         /* set, minute, minutes */
    CORE_PHRASE_OVERTIME,
    CORE_PHRASE_POINTS,      /* White's, Black's */
    CORE_PHRASE_SETS,        /* White's, Black's */
    CORE_PHRASE_WHITE_SERVES, /* serve 1 or 2 */
    CORE_PHRASE_BLACK_SERVES,
    CORE_PHRASE_WHITE_TOUCH,  /* touch */
    CORE_PHRASE_BLACK_TOUCH,
    CORE_PHRASE_MUST_PASS,
    CORE_PHRASE_MUST_SHOOT,
    CORE_PHRASE_COUNT
} Core_Phrase_Code;

/* The pieces CORE_PHRASE_PIECE names, in order (each side's nine). */
enum {
    CORE_PIECE_KING,
    CORE_PIECE_QUEEN,
    CORE_PIECE_ROOK,
    CORE_PIECE_BISHOP,
    CORE_PIECE_KNIGHT,
    CORE_PIECE_VIZIER,
    CORE_PIECE_MOOR,
    CORE_PIECE_JACK,
    CORE_PIECE_CAT
};

/*
 * core_phrase_words: the English words of phrase code as a format, "%u"
 * where its numbers go in order; *plural (may be NULL) the format for a
 * first number other than one, NULL when it has none. NULL for
 * CORE_PHRASE_TEXT or an unknown code. Each format is also the
 * catalogues' msgid, so a front end translates it by code.
 */
const char *core_phrase_words(int code, const char **plural);

/*
 * core_view: fill v with a drawable picture of pos. Square names in the
 * cells are the ones the game's notation uses, so a front end can match
 * the squares of a move's notation to cells.
 * Errors: TB_E_STATE (the game has no view).
 */
int core_view(const Core_Position *pos, Core_View *v);

/* Names for results, stable for logs and scripts. */
const char *core_outcome_name(Core_Outcome o);  /* "1-0", "0-1", "1/2-1/2", "*", "aborted" */
const char *core_reason_name(Core_Reason r);    /* "checkmate", "repetition", ... */

#endif /* TABULA_CORE_H */
