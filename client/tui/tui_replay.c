/*
 * tui_replay.c: the full-screen replay viewer (ncurses) of `tabula
 * replay`: steps through a verified game ply by ply, showing the board
 * after each ply with the last move's squares marked (larger in a large
 * window), the move list with the current ply in brackets, and the
 * result. The board is drawn by
 * tui_board.c, as in `tabula play`.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "session.h"
#include "tui.h"
#include "tui_board.h"

#define REPLAY_MAX_NAMES (CORE_VIEW_MAX_ROWS * CORE_VIEW_MAX_COLS)

typedef struct Viewer {
    const Tui_Replay *r;
    char (*text)[CORE_NOTATION_MAX]; /* notation of each ply */
    int *mover;                      /* side that played each ply */
    size_t n;                        /* plies that could be shown */
    size_t ply;                      /* shown: the board after ply plies */
    Core_Position *pos;              /* the board after ply plies */
    Core_View view;
    int view_ok;
    int colours;
    int jumping; /* 'g' pressed: reading a ply number */
    int too_small; /* the last draw asked for a larger window */
    char number[12];
    size_t nnumber;
    char message[256];
} Viewer;

/* Set v->pos to the position after ply plies, from the start. */
static void go_to(Viewer *v, size_t ply)
{
    if (ply > v->n)
        ply = v->n;
    core_position_copy(v->pos, v->r->start);
    for (size_t i = 0; i < ply; i++)
        core_make(v->pos, &v->r->moves[i]);
    v->ply = ply;
    v->view_ok = core_view(v->pos, &v->view) == 0;
}

/* The squares of the ply just shown, marked on the board. */
static void
last_move_marks(const Viewer *v,
                unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS])
{
    char names[REPLAY_MAX_NAMES][8];
    int row[REPLAY_MAX_NAMES], col[REPLAY_MAX_NAMES],
        tokens[SESSION_MAX_TOKENS];
    size_t nnames = 0;

    memset(mark, TUI_MARK_NONE, CORE_VIEW_MAX_ROWS * CORE_VIEW_MAX_COLS);
    if (v->ply == 0)
        return;
    for (int r = 0; r < v->view.rows; r++)
        for (int c = 0; c < v->view.cols; c++)
            if (v->view.cell[r][c].name[0] != '\0') {
                memcpy(names[nnames], v->view.cell[r][c].name, 8);
                names[nnames][7] = '\0';
                row[nnames] = r;
                col[nnames] = c;
                nnames++;
            }
    size_t nt = session_tokens(v->text[v->ply - 1], (const char(*)[8])names,
                               nnames, tokens, SESSION_MAX_TOKENS);
    for (size_t k = 0; k < nt; k++)
        mark[row[tokens[k]]][col[tokens[k]]] = TUI_MARK_PATH;
}

/* One move of the list at (y, x): in brackets and reversed when it is
 * the ply shown. */
static void draw_list_move(const Viewer *v, int y, int x, size_t i)
{
    int current = v->ply > 0 && i == v->ply - 1;
    if (current)
        attrset(A_REVERSE | A_BOLD);
    mvprintw(y, x, "%c%.14s%c", current ? '[' : ' ', v->text[i],
             current ? ']' : ' ');
    attrset(A_NORMAL);
}

static void draw_moves(const Viewer *v, int x, int y0, int lines)
{
    size_t nlines = (v->n + 1) / 2, first = 0;
    mvaddstr(y0, x, _("Moves"));
    if (lines < 2)
        return;
    size_t fit = (size_t)lines - 1;
    /* Keep the line of the ply shown in view, a third of the way down. */
    size_t cur = v->ply > 0 ? (v->ply - 1) / 2 : 0;
    if (nlines > fit) {
        first = cur > fit / 3 ? cur - fit / 3 : 0;
        if (first + fit > nlines)
            first = nlines - fit;
    }
    for (size_t l = first; l < nlines && l < first + fit; l++) {
        int y = y0 + 1 + (int)(l - first);
        mvprintw(y, x, "%3zu.", l + 1);
        draw_list_move(v, y, x + 5, 2 * l);
        if (2 * l + 1 < v->n)
            draw_list_move(v, y, x + 22, 2 * l + 1);
    }
}

static const char keys_line[] =
    N_("<- -> ply   Home/End start/end   PgUp/PgDn 10 plies   g N Enter: "
       "ply N   q quit");

/* The columns the move list keeps beside a board drawn larger. */
#define REPLAY_MOVES_W 40

/* Rows of the block under the board and the list: the ply, the result,
 * the view's status, the keys (two rows when one is too narrow for
 * them), the message. */
#define REPLAY_STATUS_ROWS 6

/* The window this viewer draws in without lines over each other: the
 * header, the board with its labels and a blank row, the block below;
 * the board's width and the keys at 44 columns or more (as `tabula
 * play`'s board screen). */
static void needed(const Viewer *v, int *rows, int *cols)
{
    int board_rows = v->view_ok ? v->view.rows + 1 : 1;
    int board_cols = v->view_ok ? 4 + v->view.cols * TUI_CELL_W + 2 : 0;
    *rows = 3 + board_rows + 1 + REPLAY_STATUS_ROWS;
    *cols = board_cols > 44 ? board_cols : 44;
}

/* The header, the board and the move list beside it from row 3 down to
 * the block at the foot of the window; the move list stops above that
 * block, so no line is drawn over another at any size the viewer
 * accepts (issue 20, finding 3: at 100x40 the keys line ran through the
 * move list). */
static void draw(Viewer *v)
{
    const Tui_Replay *r = v->r;
    int rows, cols, need_rows, need_cols, y;
    unsigned char mark[CORE_VIEW_MAX_ROWS][CORE_VIEW_MAX_COLS];
    char line[512];

    getmaxyx(stdscr, rows, cols);
    erase();
    needed(v, &need_rows, &need_cols);
    v->too_small = rows < need_rows || cols < need_cols;
    if (v->too_small) {
        tui_put(0, 0, _("Tabula: make the window larger"), cols);
        snprintf(line, sizeof line, _("(this board needs %dx%d,"), need_cols,
                 need_rows);
        tui_put(1, 0, line, cols);
        snprintf(line, sizeof line, _(" the window is %dx%d)"), cols, rows);
        tui_put(2, 0, line, cols);
        tui_put(3, 0, _("q quits"), cols);
        refresh();
        return;
    }
    attrset(A_BOLD);
    snprintf(line, sizeof line, _("Tabula replay - %s"),
             _(core_game_title(r->game)));
    tui_put(0, 1, line, cols - 2);
    attrset(A_NORMAL);
    snprintf(line, sizeof line, _("White: %.30s   Black: %.30s   %.40s"),
             r->white, r->black, r->file);
    tui_put(1, 1, line, cols - 2);
    y = rows - REPLAY_STATUS_ROWS;
    if (v->view_ok) {
        last_move_marks(v, mark);
        /* A window with room to spare draws the board larger, centred
         * left of the move list (which keeps REPLAY_MOVES_W columns),
         * down to the blank row above the block. */
        int scale = tui_board_scale(&v->view, cols - 5 - REPLAY_MOVES_W,
                                    y - 1 - 3);
        int x = 4, side_x = 4 + v->view.cols * TUI_CELL_W + 3;
        if (scale > 1) {
            int bw, bh;
            tui_board_size(&v->view, scale, &bw, &bh);
            side_x = cols - 1 - REPLAY_MOVES_W;
            x = 1 + (side_x - 4 - bw) / 2 + 3;
        }
        tui_board_draw(&v->view, 3, x, scale, mark, -1, -1, v->colours,
                       tui_board_figurines(v->colours));
        if (side_x + 38 < cols)
            draw_moves(v, side_x, 3, y - 1 - 3);
    } else {
        tui_put(3, 1, _("(this game has no board view)"), cols - 2);
    }
    if (v->ply == 0)
        snprintf(line, sizeof line, _("Start position (ply 0 of %s)"),
                 cli_num(v->n));
    else
        snprintf(line, sizeof line, _("Ply %s of %s: %s played %s"),
                 cli_num(v->ply), cli_num(v->n),
                 v->mover[v->ply - 1] == CORE_WHITE ? _("White") : _("Black"),
                 v->text[v->ply - 1]);
    tui_put(y, 1, line, cols - 2);
    Core_Status st = core_status(v->pos);
    if (v->ply == v->n)
        snprintf(line, sizeof line, _("Result: %s"), r->result);
    else if (st.outcome == CORE_ONGOING)
        snprintf(line, sizeof line, _("%s to move   (result: %s)"),
                 core_side_to_move(v->pos) == CORE_WHITE ? _("White") : _("Black"),
                 r->result);
    else
        line[0] = '\0';
    tui_put(y + 1, 1, line, cols - 2);
    if (v->view_ok && v->view.status[0] != '\0')
    {
        char status[sizeof v->view.status * 3];
        tui_put(y + 2, 1,
                cli_core_said(v->view.status, v->view.said, v->view.nsaid, status,
                              sizeof status),
                cols - 2);
    }
    tui_put_wrapped(y + 3, 1, _(keys_line), cols - 2, 2);
    if (v->jumping)
    {
        snprintf(line, sizeof line, _("go to ply: %s"), v->number);
        tui_put(y + 5, 1, line, cols - 2);
    }
    else
        tui_put(y + 5, 1, v->message, cols - 2);
    refresh();
}

static void jump(Viewer *v)
{
    char *end = NULL;
    unsigned long want = strtoul(v->number, &end, 10);
    v->jumping = 0;
    if (v->nnumber == 0 || end == v->number || *end != '\0') {
        snprintf(v->message, sizeof v->message, "%s", _("no ply number given"));
        return;
    }
    if (want > v->n) {
        snprintf(v->message, sizeof v->message,
                 ngettext("no ply %.11s: the game has %s ply",
                          "no ply %.11s: the game has %s plies", v->n),
                 v->number, cli_num(v->n));
        return;
    }
    go_to(v, (size_t)want);
    v->message[0] = '\0';
}

/* Returns 1 to quit. */
static int handle_key(Viewer *v, int ch)
{
    /* The window too small shows neither the board nor the ply number
     * being typed: q quits, as that screen says, even after a g. */
    if (v->too_small && ch == 'q')
        return 1;
    if (v->jumping) {
        if (ch >= '0' && ch <= '9' && v->nnumber + 1 < sizeof v->number) {
            v->number[v->nnumber++] = (char)ch;
            v->number[v->nnumber] = '\0';
        } else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) &&
                   v->nnumber > 0) {
            v->number[--v->nnumber] = '\0';
        } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
            jump(v);
        } else if (ch == 27 || ch == 'q') {
            v->jumping = 0;
            v->message[0] = '\0';
        }
        return 0;
    }
    v->message[0] = '\0';
    switch (ch) {
    case KEY_RIGHT:
    case 'l':
    case ' ':
        if (v->ply < v->n)
            go_to(v, v->ply + 1);
        else
            snprintf(v->message, sizeof v->message, _("the last ply"));
        return 0;
    case KEY_LEFT:
    case 'h':
        if (v->ply > 0)
            go_to(v, v->ply - 1);
        else
            snprintf(v->message, sizeof v->message, _("the start"));
        return 0;
    case KEY_HOME:
        go_to(v, 0);
        return 0;
    case KEY_END:
        go_to(v, v->n);
        return 0;
    case KEY_NPAGE:
        go_to(v, v->ply + 10);
        return 0;
    case KEY_PPAGE:
        go_to(v, v->ply > 10 ? v->ply - 10 : 0);
        return 0;
    case 'g':
        v->jumping = 1;
        v->nnumber = 0;
        v->number[0] = '\0';
        return 0;
    case 'q':
    case 3: /* Ctrl-C in raw mode */
        return 1;
    default:
        return 0;
    }
}

int tui_replay(const Tui_Replay *r)
{
    Viewer v;
    Core_Position *walk = NULL;
    int rc = 0;

    memset(&v, 0, sizeof v);
    v.r = r;
    v.text = malloc((r->nmoves ? r->nmoves : 1) * sizeof *v.text);
    v.mover = malloc((r->nmoves ? r->nmoves : 1) * sizeof *v.mover);
    v.pos = core_position_clone(r->start);
    walk = core_position_clone(r->start);
    if (v.text == NULL || v.mover == NULL || v.pos == NULL || walk == NULL) {
        rc = TB_E_NOMEM;
        goto done;
    }
    /* Notation of every ply; the log was verified, so each move is legal
     * where it stands (stop at the first that is not, to be safe). */
    for (v.n = 0; v.n < r->nmoves; v.n++) {
        v.mover[v.n] = core_side_to_move(walk);
        if (core_move_format(walk, &r->moves[v.n], v.text[v.n],
                             sizeof v.text[v.n]) != 0 ||
            core_play(walk, &r->moves[v.n]) != 0)
            break;
    }
    if (initscr() == NULL) {
        rc = TB_E_IO;
        goto done;
    }
    raw();
    noecho();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    v.colours = tui_board_colours();
    go_to(&v, r->start_ply <= v.n ? r->start_ply : v.n);
    snprintf(v.message, sizeof v.message, ngettext("%s ply verified", "%s plies verified", v.n),
             cli_num(v.n));
    for (;;) {
        draw(&v);
        if (handle_key(&v, getch()))
            break;
    }
    endwin();
done:
    core_position_free(walk);
    core_position_free(v.pos);
    free(v.text);
    free(v.mover);
    return rc;
}
