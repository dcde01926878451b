/*
 * game_help.c: the per-game help texts (see game_help.h). Each game has a
 * table of its kinds of move (a description, and which legal moves are of
 * that kind, told by their notation alone) and a paragraph on its board's
 * symbols, with the page's own words where the terminal's name what only
 * the terminal has (its cell line, Tab completion); the examples are picked from the legal moves handed in, so they
 * are always moves the player could type now.
 */
#include <stdio.h>
#include <string.h>

#include "game_help.h"
#include "i18n.h"

/* A kind of move: its description and a test on a legal move's text. */
typedef struct Help_Kind {
    const char *what;
    const char *prefix;   /* the text starts with this, or NULL */
    const char *contains; /* the text holds this, or NULL */
    const char *lacks;    /* and does not hold this, or NULL */
    const char *only;     /* the one game it belongs to, or NULL: all */
} Help_Kind;

typedef struct Help_Game {
    const char *name; /* core_game_name, or its first letters */
    const char *ball; /* the ball's glyph when the board may lack it */
    const char *moves;
    Help_Kind kinds[9];
    const char *board;
    const char *short_form;
    int repeats;
    /* the capture mark when capturing is compulsory (Laska: Lasker's
     * rules, docs/rules/laska.md), else NULL */
    const char *compulsory;
    /* a sentence on the board screen's keys for moves, or NULL */
    const char *keys;
    /* the page's own words where the terminal's would name what only the
     * terminal has (GAME_HELP_PAGE), or NULL for the same text */
    const char *board_page;
    const char *keys_page;
    /* the board's paragraph for a board of chess figurines (the page's,
     * and the terminal's in UTF-8, tui_figurines), or NULL: letters;
     * {K} {Q} {R} {B} {N} {P} {ball} stand for the figurines (put_board),
     * so the catalogues' msgids stay ASCII (xgettext's template has no
     * charset) and a translation moves them with their words */
    const char *board_figurines;
} Help_Game;

/* The page's move box, in place of a board screen's Tab completion. */
#define PAGE_KEYS                                                          \
    N_("In the move box the page offers the legal moves that fit what you " \
       "type (type d8, then pick one).")

static const Help_Game games[] = {
    {"laska", NULL,
     N_("A move goes from square to square: c3-d4. A capture lists every\n"
     "square it lands on: b2xd4, or b2xd4xf6 for a double capture; the\n"
     "first and last squares are enough when only one capture fits\n"
     "(b2xf6). Capturing is compulsory.\n"),
     {{N_("a move"), NULL, "-", NULL, NULL},
      {N_("a capture"), NULL, "x", NULL, NULL},
      {NULL, NULL, NULL, NULL, NULL}},
     N_("w, b: a White or Black soldier; W, B: an officer. A column of\n"
     "several pieces shows them top first (bw: a Black soldier on a White\n"
     "one; a column of more than three shows its top two and +, as bw+);\n"
     "the cell's line under the board lists it whole, top first.\n"),
     N_("c3-d4, captures b2xd4"), 0, "x", NULL,
     /* the page has no cell line: a square's tooltip and name for screen
      * readers (web/board.js) describe its column */
     N_("w, b: a White or Black soldier; W, B: an officer. A column of\n"
     "several pieces shows them top first (bw: a Black soldier on a White\n"
     "one; a column of more than three shows its top two and +, as bw+);\n"
     "a square's description (shown when pointing at it, and read out by\n"
     "screen readers) lists it whole, top first.\n"),
     NULL, NULL},
    {"chessball", NULL,
     N_("A move goes from field to field: b2-d2; a capture is written with\n"
     "x: b3xc4. Fields are named on the board itself (the ball's map):\n"
     "the poles a and h, rows b to g with fields 1 to 5.\n"),
     /* (at the start every field is full: "Not now: a move" read as
      * nonsense to issue 39's new user) */
     {{N_("a move to an empty field"), NULL, "-", NULL, NULL},
      {N_("a capture"), NULL, "x", NULL, NULL},
      {NULL, NULL, NULL, NULL, NULL}},
     N_("Each cell shows a piece letter and the field's name (Kb3: a king\n"
     "on b3). Capitals White, small letters Black: K king, Q queen, R\n"
     "rook, B bishop, N knight, P pawn. Dark cells are the ball's black\n"
     "pentagons, light ones its white hexagons.\n"),
     N_("b2-d2, captures b3xc4"), 0, NULL, NULL, NULL, NULL,
     /* TRANSLATORS: {K} {Q} {R} {B} {N} {P} {ball} become the chess
      * figurines and the ball on the screen: keep each before its name. */
     N_("Each cell shows a piece and the field's name ({K}b3: a king on\n"
     "b3). White's pieces are drawn white, Black's black: {K} king,\n"
     "{Q} queen, {R} rook, {B} bishop, {N} knight, {P} pawn. Dark cells are\n"
     "the ball's black pentagons, light ones its white hexagons.\n")},
    {"football", NULL,
     N_("A turn is an optional piece move from-to, then kicks, written\n"
     "kicker*landing and separated by spaces: b1-c3 d4*d7 e8*c6. A piece\n"
     "next to the ball kicks it the way the piece moves; the kicker is\n"
     "named by its square, the landing is where the ball stops. A turn\n"
     "with neither is 'pass'. Score by kicking the ball into the goal.\n"),
     {{N_("a piece move"), NULL, "-", "*", NULL},
      {N_("a move with kicks"), NULL, "*", NULL, NULL},
      {N_("no move at all"), "pass", NULL, NULL, NULL},
      {NULL, NULL, NULL, NULL, NULL}},
     N_("Capitals White, small letters Black: K king, Q queen, R rook, B\n"
     "bishop, N knight; * is the ball. The coloured squares are the\n"
     "goals: e1 White's, e9 Black's. The line under the board gives the\n"
     "score.\n"),
     N_("b1-c3 d4*d7 (piece move, then kicks), or pass"), 0, NULL, NULL,
     NULL, NULL,
     /* TRANSLATORS: {K} {Q} {R} {B} {N} {P} {ball} become the chess
      * figurines and the ball on the screen: keep each before its name. */
     N_("White's pieces are drawn white, Black's black: {K} king, {Q} queen,\n"
     "{R} rook, {B} bishop, {N} knight; {ball} is the ball. The coloured squares\n"
     "are the goals: e1 White's, e9 Black's. The line under the board\n"
     "gives the score.\n")},
    {"volleyball", "o",
     N_("Every action starts with its letter and a space, then the piece\n"
     "letter and squares: - is the piece's step, > where the ball flies.\n"
     "The action letter and the piece letter may be left out when only\n"
     "one legal action fits (d8-b6>a5 plays T Qd8-b6>a5).\n"),
     {{N_("S serve: the server steps onto the ball and throws"), "S ", NULL,
       NULL, NULL},
      {N_("T touch: a piece steps onto the ball and throws"), "T ", NULL, NULL, NULL},
      {N_("P penalty manoeuvre"), "P ", NULL, NULL, NULL},
      {N_("X removal of a piece"), "X ", NULL, NULL, NULL},
      {N_("+ placement of a returning piece"), "+ ", NULL, NULL, NULL},
      {N_("@ placement of the ball"), "@ ", NULL, NULL, NULL},
      {N_("C chess stage move"), "C ", NULL, NULL, NULL},
      {N_("R retreat (10x10)"), "R ", NULL, NULL, "volleyball10"},
      {NULL, NULL, NULL, NULL, NULL}},
     N_("Capitals White, small letters Black: Q queen, R rook, B bishop, N\n"
     "knight, V vizier, M moor, and on 10x10 J jack and C cat; o is the\n"
     "ball; the empty row is the net.\n"
     "Before a serve the ball is in the server's hand, not on the board:\n"
     "the serve's square after - is where it is tossed. The line under\n"
     "the board: set, minute, points, and who serves or touches next.\n"),
     N_("T Qd8-g5>f6 (action letter, piece, from-to>landing)"), 1, NULL,
     N_("On the board screen Tab completes from the first square (type d8,\n"
        "then Tab).\n"),
     NULL, PAGE_KEYS,
     /* TRANSLATORS: {K} {Q} {R} {B} {N} {P} {ball} become the chess
      * figurines and the ball on the screen: keep each before its name. */
     N_("White's pieces are drawn white, Black's black: {Q} Q queen, {R} R\n"
     "rook, {B} B bishop, {N} N knight, {K} K the chess stage's king; V vizier,\n"
     "M moor, and on 10x10 J jack and C cat stay letters (small letters\n"
     "Black's). Moves name pieces by these letters. {ball} is the ball; the\n"
     "empty row is the net.\n"
     "Before a serve the ball is in the server's hand, not on the board:\n"
     "the serve's square after - is where it is tossed. The line under\n"
     "the board: set, minute, points, and who serves or touches next.\n")},
};

static const Help_Game *find(const Core_Game *g)
{
    const char *name = core_game_name(g);
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strncmp(name, games[i].name, strlen(games[i].name)) == 0)
            return &games[i];
    return NULL;
}

static int of_kind(const Help_Kind *k, const char *text)
{
    if (k->prefix != NULL && strncmp(text, k->prefix, strlen(k->prefix)) != 0)
        return 0;
    if (k->contains != NULL && strstr(text, k->contains) == NULL)
        return 0;
    return k->lacks == NULL || strstr(text, k->lacks) == NULL;
}

/* Append text to out[*n..cap), whole or not at all. */
static void put(char *out, size_t cap, size_t *n, const char *text)
{
    size_t len = strlen(text);
    if (*n + len < cap) {
        memcpy(out + *n, text, len + 1);
        *n += len;
    }
}

/* Append text as put does (whole or not at all), each {K} {Q} {R} {B}
 * {N} {P} {ball} in it as the figurine cli_piece_figurine draws. */
static void put_board(char *out, size_t cap, size_t *n, const char *text)
{
    static const struct {
        const char *mark;
        int piece;
    } marks[] = {{"{K}", CLI_PIECE_KING},   {"{Q}", CLI_PIECE_QUEEN},
                 {"{R}", CLI_PIECE_ROOK},   {"{B}", CLI_PIECE_BISHOP},
                 {"{N}", CLI_PIECE_KNIGHT}, {"{P}", CLI_PIECE_PAWN},
                 {"{ball}", CLI_PIECE_BALL}};
    const size_t nmarks = sizeof marks / sizeof marks[0];
    char board[2048];
    size_t used = 0;
    board[0] = '\0';
    while (*text != '\0') {
        size_t k = 0;
        while (k < nmarks &&
               strncmp(text, marks[k].mark, strlen(marks[k].mark)) != 0)
            k++;
        if (k < nmarks) {
            put(board, sizeof board, &used,
                cli_piece_figurine(marks[k].piece));
            text += strlen(marks[k].mark);
        } else {
            char c[2] = {*text++, '\0'};
            put(board, sizeof board, &used, c);
        }
    }
    put(out, cap, n, board);
}

size_t game_help_text(const Core_Game *g,
                      const char (*legal)[CORE_NOTATION_MAX], size_t nlegal,
                      char *out, size_t cap)
{
    return game_help_text_for(g, legal, nlegal, GAME_HELP_TERMINAL, out, cap);
}

size_t game_help_text_for(const Core_Game *g,
                          const char (*legal)[CORE_NOTATION_MAX],
                          size_t nlegal, Game_Help_Where where, char *out,
                          size_t cap)
{
    const Help_Game *h = find(g);
    int page = where == GAME_HELP_PAGE;
    char line[CORE_NOTATION_MAX + 256];
    size_t n = 0;
    if (cap == 0)
        return 0;
    out[0] = '\0';
    snprintf(line, sizeof line, _("%s\n\nMoves\n"), _(core_game_title(g)));
    put(out, cap, &n, line);
    if (h == NULL) {
        snprintf(line, sizeof line, "%s\n", _(core_game_move_hint(g)));
        put(out, cap, &n, line);
        return n;
    }
    put(out, cap, &n, _(h->moves));
    if (page && h->keys_page != NULL) {
        put(out, cap, &n, _(h->keys_page));
        put(out, cap, &n, "\n");
    } else if (!page && h->keys != NULL) {
        put(out, cap, &n, _(h->keys));
    }
    put(out, cap, &n, nlegal > 0 ? _("Now, for example:\n")
                                 : _("No move now: the game is over.\n"));
    for (size_t k = 0; nlegal > 0 && h->kinds[k].what != NULL; k++) {
        size_t i = 0;
        while (i < nlegal && !of_kind(&h->kinds[k], legal[i]))
            i++;
        if (i == nlegal)
            continue; /* none of this kind now: listed below */
        snprintf(line, sizeof line, "  %-20s %s\n", legal[i],
                 _(h->kinds[k].what));
        put(out, cap, &n, line);
    }
    /* Every kind of the game is explained, legal now or not (issue 39:
     * the action letters were explained only when an example fit). */
    int others = 0;
    for (size_t k = 0; h->kinds[k].what != NULL; k++) {
        const Help_Kind *kind = &h->kinds[k];
        size_t i = 0;
        while (i < nlegal && !of_kind(kind, legal[i]))
            i++;
        if (i < nlegal ||
            (kind->only != NULL && strcmp(kind->only, core_game_name(g)) != 0))
            continue;
        if (!others++)
            put(out, cap, &n, _("Not now:\n"));
        snprintf(line, sizeof line, "  %s\n", _(kind->what));
        put(out, cap, &n, line);
    }
    put(out, cap, &n, _("\nBoard\n"));
    if (where != GAME_HELP_TERMINAL && h->board_figurines != NULL)
        put_board(out, cap, &n, _(h->board_figurines));
    else
        put(out, cap, &n,
            _(page && h->board_page != NULL ? h->board_page : h->board));
    return n;
}

void game_help_one_line(const Core_Game *g,
                        const char (*legal)[CORE_NOTATION_MAX], size_t nlegal,
                        char *out, size_t cap)
{
    const Help_Game *h = find(g);
    const char *form = h != NULL ? _(h->short_form) : _(core_game_move_hint(g));
    size_t captures = 0;
    if (h != NULL && h->compulsory != NULL)
        for (size_t i = 0; i < nlegal; i++)
            captures += strstr(legal[i], h->compulsory) != NULL;
    size_t used;
    if (nlegal > 0 && captures == nlegal) {
        /* Only captures are legal: say so first (a narrow screen cuts
         * the end of the line), naming them (a few), then the form. */
        used = (size_t)snprintf(out, cap,
                                ngettext("capturing is compulsory, the "
                                         "capture now: %s",
                                         "capturing is compulsory, the "
                                         "captures now: %s",
                                         (unsigned long)nlegal),
                                legal[0]);
        for (size_t i = 1; i < nlegal && i < 4 && used < cap; i++)
            used += (size_t)snprintf(out + used, cap - used, ", %s", legal[i]);
        if (nlegal > 4 && used < cap)
            used += (size_t)snprintf(out + used, cap - used, _(" (%zu in all)"),
                                     nlegal);
        if (used < cap)
            snprintf(out + used, cap - used, _("; moves look like %s"), form);
        return;
    }
    used = (size_t)snprintf(out, cap, _("moves look like %s"), form);
    /* One move offered: the only one, or one of several (not "one
     * legal", which a trial read as the only one). */
    if (nlegal == 1 && used < cap)
        snprintf(out + used, cap - used, _("; the only legal move now: %s"),
                 legal[0]);
    else if (nlegal > 1 && used < cap)
        snprintf(out + used, cap - used, _("; a legal move now: %s"), legal[0]);
}

const char *game_help_board_note(const Core_Game *g, const Core_View *v)
{
    const Help_Game *h = find(g);
    if (h == NULL || h->ball == NULL)
        return "";
    for (int r = 0; r < v->rows; r++)
        for (int c = 0; c < v->cols; c++)
            if (strcmp(v->cell[r][c].glyph, h->ball) == 0)
                return "";
    return _("ball: in the server's hand");
}

int game_help_repeats(const Core_Game *g)
{
    const Help_Game *h = find(g);
    return h != NULL && h->repeats;
}
