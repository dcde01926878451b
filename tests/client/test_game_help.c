/*
 * test_game_help.c: the per-game help (client/game_help.c, `tabula rules`)
 * and the board as a player reads it (tui_board.c's turned view and
 * field names, line_cmd_board): issue 18, findings 3, 5 and 6. Expected
 * squares come from the rules pages' start positions.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "game_help.h"
#include "line_cmd.h"
#include "tui_board.h"

static char page[4096];

/* The help of game name in its start position, shown at where. */
static const char *help_at_start_for(const char *name, Game_Help_Where where)
{
    Core_Position *pos = NULL;
    const Core_Game *g = core_game_find(name);
    size_t cap = core_game_max_moves(g), n = 0;
    Core_Move *mv = malloc(cap * sizeof *mv);
    char(*texts)[CORE_NOTATION_MAX] = malloc(cap * sizeof *texts);
    cr_assert(mv != NULL && texts != NULL);
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    cr_assert_eq(core_moves(pos, mv, cap, &n), 0);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(core_move_format(pos, &mv[i], texts[i], sizeof texts[i]),
                     0);
    game_help_text_for(g, (const char (*)[CORE_NOTATION_MAX])texts, n, where,
                       page, sizeof page);
    core_position_free(pos);
    free(mv);
    free(texts);
    return page;
}

static const char *help_at_start(const char *name)
{
    return help_at_start_for(name, GAME_HELP_TERMINAL);
}

/* The page's help names only what the page has (issue 14, new-user
 * trials): its move box, not the board screen's Tab completion; a
 * square's description, not the board screen's cell line. The rest is
 * the terminal's text. */
Test(game_help, the_page_form_names_no_terminal_key_or_line)
{
    static const char *const names[] = {"laska", "chessball", "football",
                                        "volleyball", "volleyball10"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *h = help_at_start_for(names[i], GAME_HELP_PAGE);
        cr_assert_null(strstr(h, "Tab"), "%s: %s", names[i], h);
        cr_assert_null(strstr(h, "board screen"), "%s: %s", names[i], h);
        cr_assert_null(strstr(h, "cell's line"), "%s: %s", names[i], h);
        cr_assert_not_null(strstr(h, "\nMoves\n"), "%s: %s", names[i], h);
    }
    const char *vb = help_at_start_for("volleyball", GAME_HELP_PAGE);
    cr_assert_not_null(strstr(vb, "(d8-b6>a5 plays T Qd8-b6>a5).\nIn the move "
                                  "box the page offers the legal moves that "
                                  "fit what you type (type d8, then pick "
                                  "one).\nNow, for example:\n"),
                       "%s", vb);
    const char *lk = help_at_start_for("laska", GAME_HELP_PAGE);
    cr_assert_not_null(strstr(lk, "as bw+);\na square's description (shown "
                                  "when pointing at it, and read out by\n"
                                  "screen readers) lists it whole, top "
                                  "first.\n"),
                       "%s", lk);
    /* The terminal's own words stay in its form. */
    cr_assert_not_null(strstr(help_at_start("volleyball"),
                              "On the board screen Tab completes"));
    cr_assert_not_null(strstr(help_at_start("laska"),
                              "the cell's line under the board"));
}

/* With figurines (the page, a UTF-8 terminal) the Board part names each
 * chess piece by its figurine (U+265A BLACK CHESS KING .. U+265F BLACK
 * CHESS PAWN, U+25CF BLACK CIRCLE for the ball: the code charts' names),
 * and no longer calls capitals White; Laska's is the letters' in every
 * form; with letters the chess games keep the letters' legend. */
Test(game_help, figurine_boards_are_explained_by_figurine)
{
    static const struct {
        const char *name;
        const char *legend; /* as the figurine form says it */
    } games[] = {
        {"chessball", "\u265A king,\n\u265B queen, \u265C rook, \u265D bishop, "
                      "\u265E knight, \u265F pawn."},
        {"football", "\u265A king, \u265B queen,\n\u265C rook, \u265D bishop, "
                     "\u265E knight; \u25CF is the ball."},
        {"volleyball", "\u265B Q queen, \u265C R\nrook, \u265D B bishop, "
                       "\u265E N knight, \u265A K the chess stage's king; V "
                       "vizier,\nM moor"},
        {"volleyball10", "and on 10x10 J jack and C cat stay letters"},
    };
    static const Game_Help_Where figurines[] = {GAME_HELP_PAGE,
                                                GAME_HELP_TERMINAL_FIGURINES};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        for (size_t w = 0; w < 2; w++) {
            const char *h = help_at_start_for(games[i].name, figurines[w]);
            cr_assert_not_null(strstr(h, games[i].legend), "%s: %s",
                               games[i].name, h);
            cr_assert_null(strstr(h, "Capitals White"), "%s: %s",
                           games[i].name, h);
        }
        const char *h = help_at_start(games[i].name);
        cr_assert_not_null(strstr(h, "Capitals White"), "%s", h);
        cr_assert_null(strstr(h, "\u265B"), "%s", h);
    }
    cr_assert_not_null(
        strstr(help_at_start_for("laska", GAME_HELP_TERMINAL_FIGURINES),
               "w, b: a White or Black soldier; W, B: an officer."));
}

Test(game_help, laska_examples_are_legal_at_the_start)
{
    const char *h = help_at_start("laska");
    /* a3's soldier steps to the empty b4 (docs/rules/laska.md); a3 is
     * the first square in canonical order with a move. No capture is
     * possible at the start: captures are explained with no example. */
    cr_assert_not_null(strstr(h, "  a3-b4 "), "%s", h);
    cr_assert_not_null(strstr(h, "Not now:\n  a capture\n"), "%s", h);
    cr_assert_not_null(strstr(h, "w, b: a White or Black soldier"), "%s", h);
}

/* At Chessball's start all 32 fields are full and every move is a
 * capture: what is not legal now says why (issue 39's new user read
 * "Not now: a move" as nonsense). */
Test(game_help, chessball_says_which_moves_the_full_board_rules_out)
{
    const char *h = help_at_start("chessball");
    cr_assert_not_null(strstr(h, "Now, for example:\n  axc4 "), "%s", h);
    cr_assert_not_null(strstr(h, "Not now:\n  a move to an empty field\n"),
                       "%s", h);
}

Test(game_help, football_explains_kicks_and_pass)
{
    const char *h = help_at_start("football");
    cr_assert_not_null(strstr(h, "kicker*landing"), "%s", h);
    cr_assert_not_null(strstr(h, "  pass "), "%s", h);
    cr_assert_not_null(strstr(h, "a move with kicks"), "%s", h);
    cr_assert_not_null(strstr(h, "* is the ball"), "%s", h);
}

Test(game_help, volleyball_explains_the_action_letters)
{
    const char *h = help_at_start("volleyball");
    /* The game opens with White's serve: every first action is an S. */
    cr_assert_not_null(strstr(h, "  S B"), "%s", h);
    cr_assert_not_null(strstr(h, "S serve"), "%s", h);
    /* Every other action letter is explained too, with no example (issue
     * 39: they were explained only when an example fitted); the 10x10
     * retreat is not this game's. */
    const char *later = strstr(h, "Not now:\n");
    cr_assert_not_null(later, "%s", h);
    static const char *const kinds[] = {
        "  T touch: a piece steps onto the ball and throws\n",
        "  P penalty manoeuvre\n", "  X removal of a piece\n",
        "  + placement of a returning piece\n",
        "  @ placement of the ball\n", "  C chess stage move\n"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        cr_assert_not_null(strstr(later, kinds[i]), "%s", h);
    cr_assert_null(strstr(h, "retreat"), "%s", h);
    cr_assert_not_null(strstr(h, "Before a serve the ball is in the server's "
                                 "hand"),
                       "%s", h);
}

/* The 10x10 board's own pieces and action are explained (issue 39: J and
 * C were explained nowhere; P-03, P-04, P-08). */
Test(game_help, volleyball10_explains_jack_cat_and_retreat)
{
    const char *h = help_at_start("volleyball10");
    cr_assert_not_null(strstr(h, "J jack and C cat"), "%s", h);
    cr_assert_not_null(strstr(h, "  R retreat (10x10)\n"), "%s", h);
    cr_assert_not_null(strstr(h, "  S Qe1-e2>"), "%s", h);
}

/* The chessball start (docs/rules/chessball.md section 3): White's king
 * b1, queen b2, knights a and c2, bishops c1 and c3, rooks b5 and d1. */
Test(game_help, chessball_board_names_its_fields)
{
    Core_Position *pos = NULL;
    Core_View v;
    char buf[4096];
    cr_assert_eq(core_position_new(&pos, core_game_find("chessball"), NULL),
                 0);
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_eq(tui_view_names_in_cells(&v), 1);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    line_cmd_board(f, pos, 0);
    fclose(f);
    static const char *const fields[] = {"Kb1", "Qb2", "Na ", "Nc2", "Bc1",
                                         "Bc3", "Rb5", "Rd1"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        cr_assert_not_null(strstr(buf, fields[i]), "%s in\n%s", fields[i],
                           buf);
    cr_assert_null(strstr(buf, "324"), "longitudes are no field names\n%s",
                   buf);
    core_position_free(pos);
}

/* Laska (docs/rules/laska.md): 7x7, White's soldiers on ranks 1-3, the
 * playable corner squares a1 and g1 (and g7 at the top right). Turned
 * for Black, rank 1 is on top and g1 in the top-left corner. */
Test(game_help, board_is_turned_for_black)
{
    Core_Position *pos = NULL;
    Core_View v;
    char buf[4096];
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), NULL), 0);
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_eq(tui_view_names_in_cells(&v), 0);
    cr_assert_str_eq(v.row_label[0], "7");
    cr_assert_str_eq(v.cell[0][6].name, "g7");
    tui_view_turn(&v);
    cr_assert_str_eq(v.row_label[0], "1");
    cr_assert_str_eq(v.row_label[6], "7");
    cr_assert_str_eq(v.col_label[0], "g");
    cr_assert_str_eq(v.col_label[6], "a");
    cr_assert_str_eq(v.cell[0][0].name, "g1");
    cr_assert_str_eq(v.cell[6][0].name, "g7");
    cr_assert_str_eq(v.cell[0][0].glyph, "w");
    FILE *f = fmemopen(buf, sizeof buf, "w");
    line_cmd_board(f, pos, 1);
    fclose(f);
    cr_assert_eq(strncmp(buf, "  1 w ", 6), 0, "%s", buf);
    cr_assert_not_null(strstr(buf, "    g   f   e   d   c   b   a"), "%s",
                       buf);
    core_position_free(pos);
}

/* Line mode's board shows a Laska column as its pieces top first, the
 * top two and + above three (docs/rules/laska.md): rows written out by
 * hand from the position, four characters a cell, " ." an empty dark
 * square. */
Test(game_help, line_board_shows_laska_columns_in_letters)
{
    Core_Position *pos = NULL;
    char buf[4096], why[128] = "";
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), NULL), 0);
    cr_assert_eq(core_position_parse(pos, "w a1w c3bw e5Bww d4WbbBw g7b 0 0",
                                     why, sizeof why),
                 0, "%s", why);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    line_cmd_board(f, pos, 0);
    fclose(f);
    cr_assert_not_null(strstr(buf, "  5 .       .       Bww     .  \n"), "%s",
                       buf);
    cr_assert_not_null(strstr(buf, "  4     .       Wb+     .      \n"), "%s",
                       buf);
    cr_assert_not_null(strstr(buf, "  3 .       bw      .       .  \n"), "%s",
                       buf);
    core_position_free(pos);
}

Test(game_help, one_line_names_a_legal_move)
{
    static const char legal[2][CORE_NOTATION_MAX] = {"c3-d4", "e3-f4"};
    char out[200];
    game_help_one_line(core_game_find("laska"), legal, 2, out, sizeof out);
    cr_assert_str_eq(out, "moves look like c3-d4, captures b2xd4; a legal "
                          "move now: c3-d4");
    /* One legal move is named as the only one (a trial read "one legal
     * now: pass" as that). */
    game_help_one_line(core_game_find("laska"), legal, 1, out, sizeof out);
    cr_assert_str_eq(out, "moves look like c3-d4, captures b2xd4; the only "
                          "legal move now: c3-d4");
    cr_assert_eq(game_help_repeats(core_game_find("volleyball")), 1);
    cr_assert_eq(game_help_repeats(core_game_find("volleyball10")), 1);
    cr_assert_eq(game_help_repeats(core_game_find("football")), 0);
}

/* Chess volleyball's ball is on no square before the first serve (the
 * serve tosses it to the server's step square); the board says so. */
Test(game_help, volleyball_board_notes_the_ball_in_hand)
{
    Core_Position *pos = NULL;
    Core_View v;
    Core_Move mv;
    cr_assert_eq(core_position_new(&pos, core_game_find("volleyball"), NULL),
                 0);
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_str_eq(game_help_board_note(core_game_find("volleyball"), &v),
                     "ball: in the server's hand");
    cr_assert_eq(core_move_parse(pos, "S Bc3-d4>b6", &mv), 0);
    cr_assert_eq(core_play(pos, &mv), 0);
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_str_eq(game_help_board_note(core_game_find("volleyball"), &v),
                     "");
    core_position_free(pos);
    cr_assert_eq(core_position_new(&pos, core_game_find("laska"), NULL), 0);
    cr_assert_eq(core_view(pos, &v), 0);
    cr_assert_str_eq(game_help_board_note(core_game_find("laska"), &v), "");
    core_position_free(pos);
}
