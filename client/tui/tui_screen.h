/*
 * tui_screen.h: the board screen shared by `tabula play` (tui.c) and the
 * network screen of host/join/spectate (tui_net.c): its state, the square
 * selection and typed entry of moves, and its drawing. A front end fills a
 * Tui, sets send to route chosen moves elsewhere (the network) instead of
 * playing them on the session, and feeds it keys.
 */
#ifndef TABULA_TUI_SCREEN_H
#define TABULA_TUI_SCREEN_H

#include "session.h"

#define TUI_MAX_NAMES (CORE_VIEW_MAX_ROWS * CORE_VIEW_MAX_COLS)
#define TUI_MAX_CHOICES 9
#define TUI_EXTRA_LINES 4
#define TUI_EXTRA_LINE_W 320

typedef struct Tui Tui;

struct Tui {
    Session *s;
    const char *white_name;
    const char *black_name;
    Core_View view;
    char names[TUI_MAX_NAMES][8];
    int name_row[TUI_MAX_NAMES], name_col[TUI_MAX_NAMES];
    size_t nnames;
    int *tokens;   /* per legal move: SESSION_MAX_TOKENS name indices */
    size_t *ntok;  /* per legal move: how many */
    size_t tok_cap; /* legal moves the two arrays hold */
    int cur_r, cur_c;
    int clicked[SESSION_MAX_TOKENS];
    size_t nclicked;
    size_t choice[TUI_MAX_CHOICES]; /* legal move indices offered */
    size_t nchoice;
    char input[CORE_NOTATION_MAX];
    size_t ninput;
    int too_small; /* the last draw asked for a larger window */
    char message[512];
    int listing;   /* the message heads the legal moves that fit
                      list_filter, listed below it as room allows */
    char list_filter[CORE_NOTATION_MAX];
    int help;      /* 1: the game's help page shown, 2: the keys page */
    char help_page[16384];
    int help_top;     /* the help's first row shown (scrolled) */
    int help_scrolls; /* the last draw of the help could not show it whole */
    int colours;
    int from_side; /* the side the board is drawn for (CORE_WHITE or
                      CORE_BLACK), or -1: the side to move */
    int board_y, board_x;
    int scale; /* of the board drawn last (tui_board_draw) */
    /* Set by a network front end (all zero for `tabula play`): */
    int (*send)(Tui *t, const char *line); /* a chosen move or "resign":
                                              0 when sent, else TB_E_* */
    void *user;
    int pending;  /* a move was sent and has not come back yet */
    int asked;    /* a command was sent: the seat's next note answers it */
    int watching; /* no side is entered from this screen */
    const char *help_text; /* the keys page; NULL: `tabula play`'s */
    char extra[TUI_EXTRA_LINES][TUI_EXTRA_LINE_W]; /* lines under the players' names */
};

/* tui_screen_init: t for session s, drawn for the one side a person
 * plays (the side to move when both are, White when none is).
 * Errors: TB_E_NOMEM. */
int tui_screen_init(Tui *t, Session *s);
void tui_screen_free(Tui *t);

/* tui_screen_curses: start ncurses (raw keys, keypad, mouse, colours);
 * *colours becomes 1 when the terminal has colours. Errors: TB_E_IO. */
int tui_screen_curses(int *colours);

/* tui_screen_sync: rebuild the view and legal move squares after s
 * changed; the selection is cleared. */
void tui_screen_sync(Tui *t);

/* tui_say: the message line becomes a, b, c joined (b, c may be NULL);
 * a list of moves under it goes. */
void tui_say(Tui *t, const char *a, const char *b, const char *c);

/* tui_screen_draw: draw the whole screen. */
void tui_screen_draw(Tui *t);

/* tui_screen_key: handle one key of getch(); 1 when it asks to quit (q
 * with nothing typed). */
int tui_screen_key(Tui *t, int ch);

#endif /* TABULA_TUI_SCREEN_H */
