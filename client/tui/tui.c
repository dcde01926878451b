/*
 * tui.c: the full-screen terminal board (ncurses) for any game with a
 * core view. A move is entered by selecting squares one after another
 * (keyboard cursor or mouse): after each selection the squares that can
 * follow are highlighted, so a Laska capture path or a Football kick
 * chain is entered square by square. Or it is typed in notation, with Tab
 * completing among the legal moves. Bots answer in turn. The screen
 * (tui_screen.h) is shared with the network screen of tui_net.c, which
 * sends the chosen moves instead of playing them here.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry.h"
#include "game_help.h"
#include "i18n.h"
#include "match.h"
#include "session.h"
#include "tui.h"
#include "tui_board.h"
#include "tui_screen.h"


void tui_say(Tui *t, const char *a, const char *b, const char *c)
{
    char tmp[sizeof t->message];
    snprintf(tmp, sizeof tmp, "%s%s%s", a, b ? b : "", c ? c : "");
    memcpy(t->message, tmp, sizeof tmp);
    t->listing = 0;
}

/* Rebuild the view, the cell names and each legal move's squares. */
void tui_screen_sync(Tui *t)
{
    Session *s = t->s;
    core_view(s->pos, &t->view);
    int side = t->from_side >= 0 ? t->from_side : core_side_to_move(s->pos);
    if (side == CORE_BLACK)
        tui_view_turn(&t->view);
    t->nnames = 0;
    for (int r = 0; r < t->view.rows; r++)
        for (int c = 0; c < t->view.cols; c++)
            if (t->view.cell[r][c].name[0] != '\0') {
                memcpy(t->names[t->nnames], t->view.cell[r][c].name, 8);
                t->names[t->nnames][7] = '\0';
                t->name_row[t->nnames] = r;
                t->name_col[t->nnames] = c;
                t->nnames++;
            }
    if (s->legal_cap > t->tok_cap) {
        int *tokens = realloc(t->tokens, s->legal_cap * SESSION_MAX_TOKENS *
                                             sizeof *tokens);
        size_t *ntok = tokens ? realloc(t->ntok, s->legal_cap * sizeof *ntok)
                              : NULL;
        if (tokens != NULL)
            t->tokens = tokens;
        if (ntok == NULL) {
            s->nlegal = 0; /* no memory: offer nothing rather than crash */
            return;
        }
        t->ntok = ntok;
        t->tok_cap = s->legal_cap;
    }
    for (size_t i = 0; i < s->nlegal; i++)
        t->ntok[i] = session_tokens(s->legal_text[i],
                                    (const char (*)[8])t->names, t->nnames,
                                    t->tokens + i * SESSION_MAX_TOKENS,
                                    SESSION_MAX_TOKENS);
    t->nclicked = 0;
    t->nchoice = 0;
    if (t->listing) /* the moves listed are gone */
        tui_say(t, "", NULL, NULL);
}

static int name_at(const Tui *t, int r, int c)
{
    for (size_t k = 0; k < t->nnames; k++)
        if (t->name_row[k] == r && t->name_col[k] == c)
            return (int)k;
    return -1;
}

/* Is (r, c) a cell of the drawn board (not a blank between Chessball's
 * fields)? */
static int on_board(const Tui *t, int r, int c)
{
    return t->view.cell[r][c].kind != CORE_CELL_BLANK;
}

/* Move the cursor one cell by (dr, dc): past the blanks that are no part
 * of the board (Chessball's view has them between its fields), and up
 * or down to the nearest cell of the next row that has one; where there
 * is none it stays (a trial found it stopping on the blanks, where Enter
 * said "not a square of the board"). */
static void cursor_step(Tui *t, int dr, int dc)
{
    int rows = t->view.rows, cols = t->view.cols;
    for (int r = t->cur_r + dr, c = t->cur_c + dc;
         r >= 0 && r < rows && c >= 0 && c < cols; r += dr, c += dc) {
        for (int d = 0; d < (dr != 0 ? cols : 1); d++) {
            int near[2] = {c - d, c + d};
            for (int k = 0; k < (d ? 2 : 1); k++)
                if (near[k] >= 0 && near[k] < cols &&
                    on_board(t, r, near[k])) {
                    t->cur_r = r;
                    t->cur_c = near[k];
                    return;
                }
        }
    }
}

/* Does legal move i start with the clicked squares? */
static int move_matches(const Tui *t, size_t i)
{
    if (t->ntok[i] < t->nclicked)
        return 0;
    for (size_t k = 0; k < t->nclicked; k++)
        if (t->tokens[i * SESSION_MAX_TOKENS + k] != t->clicked[k])
            return 0;
    return 1;
}

/* 2: a square that can come next; 1: a square already clicked. */
static int mark_of(const Tui *t, int name)
{
    for (size_t k = 0; k < t->nclicked; k++)
        if (t->clicked[k] == name)
            return 1;
    if (t->nclicked == 0)
        return 0;
    for (size_t i = 0; i < t->s->nlegal; i++)
        if (move_matches(t, i) && t->ntok[i] > t->nclicked &&
            t->tokens[i * SESSION_MAX_TOKENS + t->nclicked] == name)
            return 2;
    return 0;
}

static int human_to_move(const Tui *t)
{
    return session_status(t->s).outcome == CORE_ONGOING && !t->pending &&
           !t->watching &&
           t->s->player[core_side_to_move(t->s->pos)] == SESSION_HUMAN;
}

/* Why the side at the board cannot move now: watching, the game is
 * over, or it is the other side's (or a bot's) move. */
static const char *why_no_move(const Tui *t)
{
    if (t->watching)
        return _("you are watching: no moves here");
    if (session_status(t->s).outcome != CORE_ONGOING)
        return _("the game is over");
    return _("it is not your move");
}

static void after_move(Tui *t, const char *who, const char *text)
{
    tui_screen_sync(t);
    tui_say(t, who, text, NULL);
}

/* A network screen sends the move; it is shown when it comes back. The
 * text is copied first: sending can play it on the seat at once, which
 * refills the legal-move list text may point into (seen: a move typed in
 * capitals was announced as "sent b9-d8", the opponent's first move).
 * For the same reason the move is pending before it is sent: a move the
 * seat plays at once comes back inside send, which clears pending; set
 * after it, pending stayed until the opponent moved, and a side acting
 * again (Chess volleyball's touches) could not (found in a new-user
 * trial). */
static int send_move(Tui *t, const char *move)
{
    char text[CORE_NOTATION_MAX];
    snprintf(text, sizeof text, "%s", move);
    t->pending = 1;
    int rc = t->send(t, text);
    if (rc != 0) {
        t->pending = 0;
        tui_say(t, _("cannot send: "), _(tb_strerror(rc)), NULL);
        return rc;
    }
    t->nclicked = 0;
    t->nchoice = 0;
    tui_say(t, _("sent "), text, NULL);
    return 0;
}

static void play_index(Tui *t, size_t i)
{
    char text[CORE_NOTATION_MAX];
    memcpy(text, t->s->legal_text[i], sizeof text);
    if (t->send != NULL) {
        send_move(t, text);
        return;
    }
    int rc = session_play_index(t->s, i);
    if (rc != 0)
        tui_say(t, _("cannot play: "), _(tb_strerror(rc)), NULL);
    else
        after_move(t, _("played "), text);
}

/* The clicked squares are exactly these legal moves' squares. */
static size_t exact_moves(Tui *t)
{
    t->nchoice = 0;
    for (size_t i = 0; i < t->s->nlegal && t->nchoice < TUI_MAX_CHOICES; i++)
        if (move_matches(t, i) && t->ntok[i] == t->nclicked)
            t->choice[t->nchoice++] = i;
    return t->nchoice;
}

static void select_cell(Tui *t, int r, int c)
{
    int name = name_at(t, r, c);
    t->nchoice = 0;
    if (!human_to_move(t)) {
        tui_say(t, why_no_move(t), NULL, NULL);
        return;
    }
    if (name < 0) {
        tui_say(t, _("not a square of the board"), NULL, NULL);
        return;
    }
    if (t->nclicked > 0 && t->clicked[t->nclicked - 1] == name) {
        t->nclicked = 0; /* clicking the last square again: start over */
        tui_say(t, _("selection cleared"), NULL, NULL);
        return;
    }
    if (t->nclicked == SESSION_MAX_TOKENS)
        return;
    t->clicked[t->nclicked++] = name;
    size_t continuing = 0, longer = 0;
    for (size_t i = 0; i < t->s->nlegal; i++)
        if (move_matches(t, i)) {
            continuing++;
            longer += t->ntok[i] > t->nclicked;
        }
    if (continuing == 0 && t->nclicked > 1) {
        /* Not a continuation: perhaps a new start (another piece). */
        t->nclicked = 0;
        select_cell(t, r, c);
        return;
    }
    if (continuing == 0) {
        t->nclicked = 0;
        tui_say(t, _("no legal move from "), t->names[name], NULL);
        return;
    }
    size_t exact = exact_moves(t);
    if (exact == 1 && longer == 0) {
        play_index(t, t->choice[0]);
        t->nchoice = 0;
    } else if (exact == 1) {
        tui_say(t, _("Enter plays "), t->s->legal_text[t->choice[0]],
            _(", or select the next square"));
    } else if (exact > 1) {
        tui_say(t, _("several moves fit: press their number"), NULL, NULL);
    } else {
        tui_say(t, _("select the next square (Esc to cancel)"), NULL, NULL);
        t->nchoice = 0;
    }
}

/* Tab: complete the typed text to what all the legal moves it fits
 * share (entry_fits: the action and piece letters may be left out), and
 * list them; on an empty prompt, list the moves. */
static void complete_input(Tui *t)
{
    size_t n = 0, first = 0, common = 0;
    for (size_t i = 0; i < t->s->nlegal; i++) {
        const char *m = t->s->legal_text[i];
        if (!entry_fits(m, t->input))
            continue;
        if (n == 0) {
            first = i;
            common = strlen(m);
        } else {
            size_t k = 0;
            while (k < common && m[k] == t->s->legal_text[first][k])
                k++;
            common = k;
        }
        n++;
    }
    if (n == 0) {
        tui_say(t, _("no legal move fits '"), t->input, _("' (Esc clears, Tab on "
                                                      "an empty line lists)"));
        return;
    }
    if (common >= sizeof t->input)
        common = sizeof t->input - 1;
    if (common >= t->ninput || n == 1) {
        memcpy(t->input, t->s->legal_text[first], common);
        t->input[common] = '\0';
        t->ninput = common;
    }
    if (n == 1) {
        tui_say(t, _("Enter plays it"), NULL, NULL);
        return;
    }
    /* The moves themselves are drawn under the head, in the rows the
     * screen has (draw_listing). */
    char head[96];
    snprintf(head, sizeof head, ngettext("%zu move fits:", "%zu moves fit:", n), n);
    tui_say(t, head, NULL, NULL);
    memcpy(t->list_filter, t->input, sizeof t->list_filter);
    t->listing = 1;
}

/* A typed move that is no legal move's text, read by the one reader of
 * typed moves (entry_read): the legal move it means as *index, 0; else
 * says why (for several loose fits, that Tab lists them) and returns the
 * error. */
static int typed_move(Tui *t, const char *text, size_t *index)
{
    char canon[CORE_NOTATION_MAX], why[sizeof t->message];
    int rc = entry_read(t->s->pos, text, canon, sizeof canon, why, sizeof why);
    for (size_t i = 0; rc == 0 && i < t->s->nlegal; i++)
        if (strcmp(t->s->legal_text[i], canon) == 0) {
            *index = i;
            return 0;
        }
    if (rc == 0) /* read, yet not in the screen's list: a stale list */
        snprintf(why, sizeof why, "%s", _(tb_strerror(rc = TB_E_ILLEGAL)));
    tui_say(t, "'", text, "': ");
    size_t at = strlen(t->message);
    snprintf(t->message + at, sizeof t->message - at, "%s%s%s", why,
             rc == TB_E_AMBIGUOUS ? "; " : "",
             rc == TB_E_AMBIGUOUS ? _("press Tab to list them") : "");
    return rc;
}

static const char help_text[] =
    N_("Keys\n"
    "\n"
    "  arrows / mouse   move the cursor / select a square\n"
    "  Enter            select the square under the cursor, or play\n"
    "                   the typed move\n"
    "  type a move      as on the first page; Tab completes among the\n"
    "                   legal moves, Tab on an empty line lists them\n"
    "  1-9              choose when several moves fit the squares\n"
    "  Esc              clear the selection and the typed text\n"
    "  resign, takeback, moves, help   typed and Enter\n"
    "  ?                this help       q  quit\n"
    "\n"
    "Selected squares are yellow, squares that can come next green.\n"
    "The rules in full: docs/rules/, or tabula rules GAME.\n"
    "\n"
    "Any key closes this help.");

/* Help, page 1: the game's moves and board, from the position now. */
static void open_help(Tui *t)
{
    size_t n = game_help_text_for(
        t->s->game, (const char (*)[CORE_NOTATION_MAX])t->s->legal_text,
        t->s->nlegal,
        tui_board_figurines(t->colours) ? GAME_HELP_TERMINAL_FIGURINES
                                        : GAME_HELP_TERMINAL,
        t->help_page, sizeof t->help_page);
    snprintf(t->help_page + n, sizeof t->help_page - n,
             _("\nAny key: the keys of this screen."));
    t->help = 1;
    t->help_top = 0;
}

/* Typed text on a network screen: a conduct command (the session's one
 * grammar, match_conduct_line) passed to the seat, which answers on its
 * own (netgame.h); else a move of ours (on our turn). */
static void submit_remote(Tui *t, const char *text)
{
    Core_Move mv;
    int rc;
    if (t->watching || session_status(t->s).outcome != CORE_ONGOING) {
        tui_say(t, why_no_move(t), NULL, NULL);
        return;
    }
    rc = core_move_parse(t->s->pos, text, &mv);
    if (rc != 0 && match_conduct_line(text)) {
        /* (the seat may answer within send: the answer is then said) */
        t->asked = 1;
        if (t->send(t, text) != 0) {
            t->asked = 0;
            tui_say(t, _("cannot send '"), text, "'");
        } else if (t->asked) {
            tui_say(t, _("sent '"), text, _("' to the seat"));
        }
    } else if (!human_to_move(t)) {
        tui_say(t, _("it is not your move"), NULL, NULL);
    } else if (rc != 0) {
        size_t i;
        if (typed_move(t, text, &i) == 0)
            send_move(t, t->s->legal_text[i]);
    } else {
        send_move(t, text);
    }
}

static void submit_input(Tui *t)
{
    char *in = t->input;
    while (*in == ' ')
        in++;
    size_t n = strlen(in);
    while (n > 0 && in[n - 1] == ' ')
        in[--n] = '\0';
    n = strlen(entry_unquote(in));
    unsigned count = 0; /* of a takeback */
    int takeback;
    if (strcmp(in, "resign") == 0) {
        if (session_status(t->s).outcome != CORE_ONGOING)
            tui_say(t, _("the game is over"), NULL, NULL);
        else if (t->send != NULL && t->watching)
            tui_say(t, _("you are watching: nothing to resign"), NULL, NULL);
        else if (t->send != NULL) {
            if (t->send(t, "resign") != 0)
                tui_say(t, _("cannot send the resignation"), NULL, NULL);
            else
                tui_say(t, human_to_move(t) ? _("resigning...")
                                            : _("you resign when your turn "
                                              "comes"),
                        NULL, NULL);
        } else {
            session_resign(t->s, core_side_to_move(t->s->pos));
            tui_say(t, _("you resigned"), NULL, NULL);
        }
    } else if (strcmp(in, "help") == 0) {
        open_help(t);
    } else if (strcmp(in, "moves") == 0 || strcmp(in, "board") == 0) {
        /* line mode's words: the board is on screen; the moves are
         * listed as Tab on an empty line lists them */
        int list = in[0] == 'm';
        t->input[0] = '\0';
        t->ninput = 0;
        if (list)
            complete_input(t);
        else
            tui_say(t, _("the board is above; ? explains it"), NULL, NULL);
        return;
    } else if (n > 0 && t->send != NULL) {
        submit_remote(t, in);
    } else if ((takeback = match_parse_takeback(in, &count)) != 0) {
        /* Against a bot, take back the whole move: the bot's replies too
         * (session_takeback_plies). */
        size_t plies = count > 0 ? count : session_takeback_plies(t->s);
        if (takeback < 0)
            tui_say(t, _("a takeback is of 1 to 255 plies"), NULL, NULL);
        else if (plies == 0 || session_takeback(t->s, plies) != 0)
            tui_say(t, _("nothing to take back"), NULL, NULL);
        else {
            tui_screen_sync(t);
            tui_say(t, _("taken back"), NULL, NULL);
        }
    } else if (match_conduct_line(in)) { /* draw, claim win, ... */
        tui_say(t, "'", in, "': ");
        size_t at = strlen(t->message);
        snprintf(t->message + at, sizeof t->message - at, "%s",
                 _("not a command of a game on this device (these are "
                   "resign and takeback [N])"));
    } else if (n > 0) {
        char text[CORE_NOTATION_MAX];
        memcpy(text, in, n + 1);
        if (!human_to_move(t)) {
            tui_say(t, why_no_move(t), NULL, NULL);
        } else {
            size_t i;
            int rc = session_play_text(t->s, text);
            if (rc == 0)
                after_move(t, _("played "), text);
            else if (typed_move(t, text, &i) == 0)
                play_index(t, i);
        }
    }
    t->input[0] = '\0';
    t->ninput = 0;
}

/* ---- drawing -------------------------------------------------------- */

/* Does one side act twice running anywhere in s's game (Chess
 * volleyball)? Then the move list gives each ply its own line. */
static int side_repeats(const Session *s, Core_Position *replay)
{
    int repeats = 0, side = core_side_to_move(replay);
    for (size_t i = 0; i < s->nplayed; i++) {
        core_make(replay, &s->played[i]);
        int next = core_side_to_move(replay);
        repeats |= next == side;
        side = next;
    }
    return repeats;
}

/* The last plies that fit in lines rows of width w from (y0, x): "N.
 * white black" pairs, or "N. W move" lines when a side acts several
 * times running. */
static void draw_moves(Tui *t, int x, int y0, int lines, int w)
{
    Session *s = t->s;
    Core_Position *replay = core_position_clone(s->start);
    size_t total = s->nplayed, first_ply;
    char text[CORE_NOTATION_MAX];

    mvaddstr(y0, x, _("Moves"));
    if (replay == NULL || lines < 2) {
        core_position_free(replay);
        return;
    }
    int single = game_help_repeats(s->game) || side_repeats(s, replay);
    core_position_copy(replay, s->start);
    size_t per_line = single ? 1 : 2;
    size_t fit = (size_t)(lines - 1) * per_line;
    first_ply = total > fit ? total - fit : 0;
    if (!single)
        first_ply = (first_ply + 1) & ~(size_t)1;
    /* Columns 16 wide, wider when a shown ply needs it (a long Football
     * chess turn, itself made of words) and the width allows: then at
     * least three blanks part it from the next. */
    int col = 16, room = single ? w - 8 : (w - 6) / 2;
    for (size_t i = 0; i < total; i++) {
        if (i >= first_ply &&
            core_move_format(replay, &s->played[i], text, sizeof text) == 0 &&
            (int)strlen(text) + 2 > col)
            col = (int)strlen(text) + 2;
        core_make(replay, &s->played[i]);
    }
    core_position_copy(replay, s->start);
    if (col > room)
        col = room > 4 ? room : 4;
    int y = y0 + 1;
    for (size_t i = 0; i < total; i++) {
        int side = core_side_to_move(replay);
        if (core_move_format(replay, &s->played[i], text, sizeof text) != 0)
            text[0] = '\0';
        if (i >= first_ply && single)
            /* TRANSLATORS: W and B mark White's and Black's plies in
             * the move list: one letter each. */
            mvprintw(y++, x, "%3zu. %s %-*.*s", i + 1,
                     side == CORE_WHITE ? _("W") : _("B"), col, col, text);
        else if (i >= first_ply && i % 2 == 0)
            mvprintw(y, x, "%3zu. %-*.*s", i / 2 + 1, col, col, text);
        else if (i >= first_ply)
            mvprintw(y++, x + 6 + col, "%-*.*s", col, col, text);
        core_make(replay, &s->played[i]);
    }
    core_position_free(replay);
}

/* The width of the move list beside a grown board, and the rows kept
 * free under the lines below it for the message and a list of moves: a
 * board grows (tui_board_scale) only where both keep their room, so the
 * board screen at its smallest sizes is drawn as it always was. */
#define TUI_MOVES_W 40
#define TUI_ROOM_BELOW 8

/* One help page from its row t->help_top, as a pager shows it: wrapped
 * to the window's width (tui_put_text); a page longer than the window
 * has a last row that says which rows are shown and how to scroll. */
static void draw_help(Tui *t, const char *p, int rows, int cols)
{
    int width = cols - 3, height = rows - 1;
    int total = tui_put_text(1, 2, p, width, 0, 0);
    t->help_scrolls = total > height;
    if (t->help_scrolls)
        height = rows - 2;
    if (t->help_top > total - height)
        t->help_top = total - height;
    if (t->help_top < 0)
        t->help_top = 0;
    tui_put_text(1, 2, p, width, t->help_top, height);
    if (t->help_scrolls) {
        char line[160];
        snprintf(line, sizeof line, _("%d-%d of %d: arrows, PgUp, PgDn scroll"),
                 t->help_top + 1, t->help_top + height, total);
        attrset(A_REVERSE);
        tui_put(rows - 1, 2, line, width);
        attrset(A_NORMAL);
    }
}

/* The line s at row y, wrapped onto as many more rows as *spare holds
 * (they are taken from it), else cut with "..." (tui_put_wrapped).
 * Returns the rows used, 1 at least. */
static int put_grown(int y, const char *s, int cols, int *spare)
{
    int need = tui_wrapped_rows(s, cols - 2);
    int use = need - 1 <= *spare ? need : 1 + *spare;
    if (use < 1)
        use = 1;
    *spare -= use - 1;
    tui_put_wrapped(y, 1, s, cols - 2, use);
    return use;
}

/* The message (the head, "75 moves fit:") and after it the legal moves
 * that fit t->list_filter, parted by " | ", in rows from row y on, at
 * most max_rows of them; when they do not all fit, the last row ends
 * "... and N more". Returns the rows used. */
static int draw_listing(const Tui *t, int y, int max_rows, int cols)
{
    const Session *s = t->s;
    int right = cols - 1, row = 0, fresh = 0; /* (at a row's start) */
    int x = 1 + cli_width(t->message, (size_t)-1) + 1;
    size_t n = 0, k = 0;
    char more[96];

    for (size_t i = 0; i < s->nlegal; i++)
        n += entry_fits(s->legal_text[i], t->list_filter) != 0;
    tui_put(y, 1, t->message, cols - 2);
    for (size_t i = 0; i < s->nlegal; i++) {
        const char *m = s->legal_text[i];
        if (!entry_fits(m, t->list_filter))
            continue;
        int w = cli_width(m, (size_t)-1);
        for (;;) {
            int sep = fresh || k == 0 ? 0 : 3, last = row + 1 >= max_rows;
            int tail = 0;
            if (last && k + 1 < n) {
                snprintf(more, sizeof more,
                         ngettext("... and %zu more", "... and %zu more",
                                  n - k - 1),
                         n - k - 1);
                tail = 1 + cli_width(more, (size_t)-1);
            }
            /* (a move wider than a row has one of its own, cut) */
            if (x + sep + w + tail <= right || (fresh && !last)) {
                mvaddstr(y + row, x, sep ? " | " : "");
                tui_put(y + row, x + sep, m, right - x - sep);
                x += sep + w;
                fresh = 0;
                break;
            }
            if (!last) {
                row++;
                x = 3;
                fresh = 1;
                continue;
            }
            snprintf(more, sizeof more,
                     ngettext("... and %zu more", "... and %zu more", n - k),
                     n - k);
            tui_put(y + row, x + !fresh, more, right - x - !fresh);
            return row + 1;
        }
        k++;
    }
    return row + 1;
}

void tui_screen_draw(Tui *t)
{
    Session *s = t->s;
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    erase();
    if (t->help) {
        draw_help(t,
                  t->help == 1    ? t->help_page
                  : t->help_text ? _(t->help_text)
                                 : _(help_text),
                  rows, cols);
        refresh();
        return;
    }
    /* Everything below the board needs a line of its own and the move
     * list a column beside it: a smaller window gets a word instead of
     * lines drawn over each other. */
    int nextra = 0;
    for (int k = 0; k < TUI_EXTRA_LINES; k++)
        nextra += t->extra[k][0] != '\0';
    /* A network screen (extra lines) has a blank line after them and
     * two under the board when there is room, one under the board when
     * the window is short: so Chess volleyball 10x10's (4 extra lines,
     * 11 board rows) fits 80x24 with its move line (a trial found it one
     * row short). */
    int gap_top = nextra > 0, gap_below = 2;
    if (nextra > 0 && rows < 2 + nextra + gap_top + t->view.rows + 2 + 5) {
        gap_top = 0;
        gap_below = 1;
    }
    int y_board = 2 + nextra + gap_top;
    int need_rows = y_board + t->view.rows + gap_below + 5;
    int need_cols = 4 + t->view.cols * TUI_CELL_W + 2;
    if (need_cols < 44)
        need_cols = 44;
    t->too_small = rows < need_rows || cols < need_cols;
    if (t->too_small) {
        tui_put(0, 0, _("Tabula: make the window larger"), cols);
        mvprintw(1, 0, _("(this board needs %dx%d,"), need_cols, need_rows);
        mvprintw(2, 0, _(" the window is %dx%d)"), cols, rows);
        tui_put(3, 0, _("q quits"), cols);
        /* The message line too: a network game's first q asks before
         * it leaves, and the question must show where the q was typed. */
        tui_put_wrapped(4, 0, t->message, cols, rows - 4);
        refresh();
        return;
    }
    attrset(A_BOLD);
    char line[TUI_EXTRA_LINE_W + 64];
    snprintf(line, sizeof line, "%s%s", _("Tabula - "),
             _(core_game_title(s->game)));
    tui_put(0, 1, line, cols - 2);
    attrset(A_NORMAL);
    snprintf(line, sizeof line, _("White: %s   Black: %s"), t->white_name,
             t->black_name);
    tui_put(1, 1, line, cols - 2);
    int y_extra = 2;
    for (int k = 0; k < TUI_EXTRA_LINES; k++)
        if (t->extra[k][0] != '\0')
            tui_put(y_extra++, 1, t->extra[k], cols - 2);
    /* A window with room to spare draws the board larger (the move list
     * keeping TUI_MOVES_W columns beside it, TUI_ROOM_BELOW rows kept
     * under the lines below it), centred left of the move list. */
    t->board_y = y_board;
    t->board_x = 4;
    t->scale = tui_board_scale(&t->view, cols - 5 - TUI_MOVES_W,
                               rows - TUI_ROOM_BELOW - y_board - gap_below -
                                   4);
    int side_x = t->board_x + t->view.cols * TUI_CELL_W + 3;
    if (t->scale > 1) {
        int bw, bh;
        tui_board_size(&t->view, t->scale, &bw, &bh);
        side_x = cols - 1 - TUI_MOVES_W;
        t->board_x = 1 + (side_x - 4 - bw) / 2 + 3;
    }
    unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS];
    for (int r = 0; r < t->view.rows; r++)
        for (int c = 0; c < t->view.cols; c++) {
            int name = name_at(t, r, c);
            int m = name >= 0 ? mark_of(t, name) : 0;
            mark[r][c] = m == 2   ? TUI_MARK_TARGET
                         : m == 1 ? TUI_MARK_PATH
                                  : TUI_MARK_NONE;
        }
    tui_board_draw(&t->view, t->board_y, t->board_x, t->scale, mark, t->cur_r,
                   t->cur_c, t->colours, tui_board_figurines(t->colours));
    int below = t->board_y + t->view.rows * t->scale;
    if (side_x + 30 < cols) /* beside the board only */
        draw_moves(t, side_x, t->board_y, t->view.rows * t->scale + 1,
                   cols - side_x - 1);

    Core_Status st = session_status(s);
    int y = below + gap_below;
    if (st.outcome != CORE_ONGOING)
        snprintf(line, sizeof line, _("Game over: %s (%s)   q quits%s"),
                 core_outcome_name(st.outcome),
                 cli_reason_words(core_reason_name(st.reason)),
                 t->send ? "" : _(", 'takeback' undoes"));
    else
        snprintf(line, sizeof line, _("%s to move%s"),
                 core_side_to_move(s->pos) == CORE_WHITE ? _("White")
                                                         : _("Black"),
                 human_to_move(t) ? _(" (you)") : "");
    const char *note = game_help_board_note(s->game, &t->view);
    char status[sizeof t->view.status * 3];
    cli_core_said(t->view.status, t->view.said, t->view.nsaid, status,
                  sizeof status);
    /* The board's note goes after its status line where both fit, after
     * the side to move otherwise: Chess volleyball's status and "ball:
     * in the server's hand" are wider than 80 columns together. */
    size_t used = strlen(line);
    if (note[0] != '\0' && status[0] != '\0' &&
        cli_width(status, (size_t)-1) + 3 + cli_width(note, (size_t)-1) >
            cols - 2 &&
        used < sizeof line) {
        snprintf(line + used, sizeof line - used, "   %s", note);
        note = "";
    }
    /* A line wider than the window takes the rows the window has beyond
     * the smallest layout (spare), else ends in "...". */
    int spare = rows - (y + 5);
    y += put_grown(y, line, cols, &spare);
    snprintf(line, sizeof line, "%s%s%s", status,
             status[0] && note[0] ? " | " : "", note);
    y += put_grown(y, line, cols, &spare);
    const Core_Cell *cur = &t->view.cell[t->cur_r][t->cur_c];
    if (cur->name[0] != '\0') {
        char detail[sizeof cur->detail * 3];
        cli_core_said(cur->detail, cur->said, cur->nsaid, detail,
                      sizeof detail);
        snprintf(line, sizeof line, "%s: %s", cur->name,
                 detail[0] ? detail
                           : (cur->glyph[0] ? cur->glyph : _("empty")));
        y += put_grown(y, line, cols, &spare);
    } else {
        y++;
    }
    int cx = 0;
    if (t->watching) {
        tui_put(y, 1, _("watching: ? help, q leaves"), cols - 2);
    } else {
        snprintf(line, sizeof line, _("move> %s"), t->input);
        tui_put(y, 1, line, cols - 2);
        cx = 1 + cli_width(line, (size_t)-1);
    }
    /* The message takes the rows left (an illegal move's line names the
     * move, its forms and a legal one, longer in Czech and Russian; a
     * list of moves fills them), but for the choices that follow it. */
    int room = rows - (y + 1) - (int)t->nchoice;
    if (room < 1)
        room = 1;
    int yc = y + 1 + (t->listing ? draw_listing(t, y + 1, room, cols)
                                 : tui_put_wrapped(y + 1, 1, t->message,
                                                   cols - 2, room));
    if (yc == y + 1)
        yc++;
    for (size_t k = 0; k < t->nchoice && yc + (int)k < rows; k++) {
        snprintf(line, sizeof line, "%zu) %s", k + 1,
                 s->legal_text[t->choice[k]]);
        tui_put(yc + (int)k, 3, line, cols - 4);
    }
    if (t->watching)
        move(y, 1);
    else
        move(y, cx < cols - 1 ? cx : cols - 1);
    refresh();
}

/* ---- input ---------------------------------------------------------- */

/* The cell under screen row my, column mx of the board drawn last, at
 * its scale (tui_board_draw). */
static int mouse_cell(Tui *t, int my, int mx, int *r, int *c)
{
    int scale = t->scale > 0 ? t->scale : 1;
    if (my < t->board_y || mx < t->board_x)
        return 0;
    int rr = (my - t->board_y) / scale;
    int cc = (mx - t->board_x) / (TUI_CELL_W * scale);
    if (rr >= t->view.rows || cc >= t->view.cols)
        return 0;
    *r = rr;
    *c = cc;
    return 1;
}

int tui_screen_key(Tui *t, int ch)
{
    /* The window too small shows no board and no typed line: q quits,
     * whatever was typed before, as that screen says. */
    if (t->too_small && ch == 'q')
        return 1;
    if (t->help) {
        /* A page longer than the window scrolls, as a pager's; other
         * keys go on: the game's page, then the keys', then the board. */
        int page = getmaxy(stdscr) - 3 > 1 ? getmaxy(stdscr) - 3 : 1;
        int step = ch == KEY_UP     ? -1
                   : ch == KEY_DOWN  ? 1
                   : ch == KEY_PPAGE ? -page
                   : ch == KEY_NPAGE ? page
                   : ch == KEY_HOME  ? -(1 << 20)
                   : ch == KEY_END   ? 1 << 20
                                     : 0;
        if (ch == KEY_RESIZE)
            return 0; /* (no key: the window's new size, drawn anew) */
        if (step != 0 && t->help_scrolls) {
            /* (draw_help keeps the top within the page) */
            t->help_top = t->help_top + step < 0 ? 0 : t->help_top + step;
            return 0;
        }
        t->help = t->help == 1 ? 2 : 0; /* the game, then the keys */
        t->help_top = 0;
        return 0;
    }
    if (ch == KEY_RESIZE)
        return 0;
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        int r, c;
        if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_CLICKED |
                                                 BUTTON1_PRESSED)) &&
            mouse_cell(t, ev.y, ev.x, &r, &c)) {
            t->cur_r = r;
            t->cur_c = c;
            select_cell(t, r, c);
        }
        return 0;
    }
    if (t->nchoice > 1 && t->ninput == 0 && ch >= '1' &&
        ch < '1' + (int)t->nchoice) {
        play_index(t, t->choice[ch - '1']);
        t->nchoice = 0;
        return 0;
    }
    switch (ch) {
    case KEY_UP: cursor_step(t, -1, 0); return 0;
    case KEY_DOWN: cursor_step(t, 1, 0); return 0;
    case KEY_LEFT: cursor_step(t, 0, -1); return 0;
    case KEY_RIGHT: cursor_step(t, 0, 1); return 0;
    case 27: /* Esc */
        t->nclicked = 0;
        t->nchoice = 0;
        t->ninput = 0;
        t->input[0] = '\0';
        tui_say(t, "", NULL, NULL);
        return 0;
    case '\t':
        complete_input(t);
        return 0;
    case KEY_BACKSPACE:
    case 127:
    case 8:
        if (t->ninput > 0)
            t->input[--t->ninput] = '\0';
        return 0;
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (t->ninput > 0)
            submit_input(t);
        else if (t->nclicked > 0 && exact_moves(t) == 1 &&
                 name_at(t, t->cur_r, t->cur_c) ==
                     t->clicked[t->nclicked - 1])
            play_index(t, t->choice[0]);
        else
            select_cell(t, t->cur_r, t->cur_c);
        return 0;
    default:
        break;
    }
    if (t->ninput == 0 && ch == 'q')
        return 1;
    if (t->ninput == 0 && ch == '?') {
        open_help(t);
        return 0;
    }
    if (ch >= 0x20 && ch < 0x7f && t->ninput + 1 < sizeof t->input) {
        t->input[t->ninput++] = (char)ch;
        t->input[t->ninput] = '\0';
    }
    return 0;
}

int tui_screen_init(Tui *t, Session *s)
{
    size_t cap = s->legal_cap;
    memset(t, 0, sizeof *t);
    t->s = s;
    t->white_name = _("White");
    t->black_name = _("Black");
    t->tokens = malloc(cap * SESSION_MAX_TOKENS * sizeof *t->tokens);
    t->ntok = malloc(cap * sizeof *t->ntok);
    t->tok_cap = cap;
    if (t->tokens == NULL || t->ntok == NULL) {
        tui_screen_free(t);
        return TB_E_NOMEM;
    }
    tui_screen_sync(t);
    t->scale = 1;
    t->cur_r = t->view.rows - 1;
    t->cur_c = 0;
    if (!on_board(t, t->cur_r, t->cur_c)) { /* the first cell from there */
        t->cur_c = -1;
        cursor_step(t, 0, 1);
        for (int r = t->view.rows - 1; r >= 0 && t->cur_c < 0; r--) {
            t->cur_r = r;
            cursor_step(t, 0, 1);
        }
        if (t->cur_c < 0)
            t->cur_c = 0;
    }
    t->from_side = s->player[CORE_WHITE] == s->player[CORE_BLACK]
                       ? (s->player[CORE_WHITE] == SESSION_HUMAN ? -1
                                                                 : CORE_WHITE)
                   : s->player[CORE_BLACK] == SESSION_HUMAN ? CORE_BLACK
                                                            : CORE_WHITE;
    tui_screen_sync(t);
    tui_say(t, _("? for help; select a square or type a move (Tab lists them)"),
            NULL, NULL);
    return 0;
}

void tui_screen_free(Tui *t)
{
    free(t->tokens);
    free(t->ntok);
    t->tokens = NULL;
    t->ntok = NULL;
    t->tok_cap = 0;
}

int tui_screen_curses(int *colours)
{
    /* A second screen in one process (the next game of a series) takes
     * up the first one again: ncurses has one screen, and initscr twice
     * is not allowed. */
    if (stdscr != NULL && isendwin())
        refresh();
    else if (initscr() == NULL)
        return TB_E_IO;
    raw();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    *colours = tui_board_colours();
    return 0;
}

int tui_play(Session *s, const char *white_name, const char *black_name)
{
    Tui t;
    int quit = 0, armed = 0;
    int rc = tui_screen_init(&t, s);

    if (rc != 0)
        return rc;
    t.white_name = white_name;
    t.black_name = black_name;
    if (tui_screen_curses(&t.colours) != 0) {
        tui_screen_free(&t);
        return TB_E_IO;
    }
    while (!quit) {
        if (session_status(s).outcome == CORE_ONGOING &&
            s->player[core_side_to_move(s->pos)] == SESSION_BOT) {
            char text[CORE_NOTATION_MAX];
            tui_say(&t, _("bot is thinking..."), NULL, NULL);
            tui_screen_draw(&t);
            int brc = session_bot_move(s, text, sizeof text);
            if (brc != 0) {
                tui_say(&t, _("bot failed: "), _(tb_strerror(brc)), NULL);
                s->player[core_side_to_move(s->pos)] = SESSION_HUMAN;
            } else {
                after_move(&t, _("bot played "), text);
            }
            continue;
        }
        tui_screen_draw(&t);
        int ch = getch();
        if (ch == 3) /* Ctrl-C in raw mode */
            break;
        quit = tui_screen_key(&t, ch);
        /* A game under way is not kept: a stray q would lose it, so q
         * asks once (as a network seat's does), unless the window is
         * too small, whose screen says q quits; before the first move
         * and after the end there is nothing to lose. */
        if (quit && !armed && !t.too_small && s->nplayed > 0 &&
            session_status(s).outcome == CORE_ONGOING) {
            quit = 0;
            armed = 1;
            tui_say(&t, _("q again quits (this game is not kept); any "
                          "other key plays on"),
                    NULL, NULL);
        } else if (!quit && ch != KEY_MOUSE && ch != KEY_RESIZE && armed) {
            armed = 0;
            tui_say(&t, "", NULL, NULL);
        }
    }
    endwin();
    tui_screen_free(&t);
    return 0;
}
