/*
 * test_entry.c: moves typed the way players type them (client/entry.c):
 * the loose form, the one legal move a loose text finds, ambiguity, and
 * the refusal of line_cmd_move that names a legal move (issue 18,
 * finding 3 and 7). Expected moves are derived from the rules pages.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "entry.h"
#include "line_cmd.h"
#include "match.h"
#include "core.h"
#include "tb_error.h"

static void loose(const char *text, const char *want)
{
    char out[CORE_NOTATION_MAX];
    entry_loose(text, out, sizeof out);
    cr_assert_str_eq(out, want, "loose '%s'", text);
}

Test(entry, loose_form_drops_action_and_piece_letters_only)
{
    loose("T Qd8-b6>a5", "d8-b6>a5");
    loose("S Bc3-d2>g5", "c3-d2>g5");
    loose("+ Nf6", "f6");
    loose("@ d3", "d3");
    loose("Qd8-b6>a5", "d8-b6>a5");
    loose("b1-c3 d4*d7 e8*c6", "b1-c3 d4*d7 e8*c6"); /* Football */
    loose("axc4", "axc4");                           /* Chessball's pole */
    loose("pass", "pass");
    loose("  c3-d4  ", "c3-d4");
}

/* Chess volleyball after White's serve S Bc3-d4>b6 (docs/rules/
 * volleyball.md: the bishop steps to d4 and throws diagonally over the
 * single block Nc5 to b6). Black's queen d8 reaches the ball on b6 along
 * the empty c7 and throws it diagonally: a5 (own half), c7, d8 (free
 * now); a7 holds Black's rook, c5 its knight. */
static Core_Position *after_serve(void)
{
    Core_Position *pos = NULL;
    Core_Move mv;
    cr_assert_eq(core_position_new(&pos, core_game_find("volleyball"), NULL),
                 0);
    cr_assert_eq(core_move_parse(pos, "S Bc3-d4>b6", &mv), 0);
    cr_assert_eq(core_play(pos, &mv), 0);
    return pos;
}

/* Each of typed[0..n), after the serve, is read as the queen's throw. */
static void all_read_as_the_throw(const char *const *typed, size_t n)
{
    Core_Position *pos = after_serve();
    char canon[CORE_NOTATION_MAX], why[400];
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(line_cmd_move(pos, typed[i], canon, sizeof canon, why,
                                   sizeof why),
                     0, "'%s': %s", typed[i], why);
        cr_assert_str_eq(canon, "T Qd8-b6>a5", "'%s'", typed[i]);
    }
    core_position_free(pos);
}

Test(entry, loose_text_finds_the_one_legal_move)
{
    static const char *const typed[] = {"d8-b6>a5", "Qd8-b6>a5", "T Qd8-b6>a5",
                                        " d8-b6>a5 ",
                                        /* as tabula analyse's pv has it */
                                        "\"T Qd8-b6>a5\""};
    all_read_as_the_throw(typed, sizeof typed / sizeof typed[0]);
}

Test(entry, refusal_names_a_legal_move_not_the_refused_one)
{
    Core_Position *pos = after_serve();
    char canon[CORE_NOTATION_MAX], why[400];
    int rc = line_cmd_move(pos, "d8-b6", canon, sizeof canon, why, sizeof why);
    cr_assert_eq(rc, TB_E_NOTATION, "%s", why);
    /* The first legal move in canonical order (touches by origin square,
     * then landing): the queen's throw to a5, index 32, the lowest. */
    cr_assert_not_null(strstr(why, "a legal move now: T Qd8-b6>a5"), "%s", why);
    cr_assert_null(strstr(why, "d8-b6;"), "%s", why);
    rc = line_cmd_move(pos, "T Qd8-b6>h1", canon, sizeof canon, why,
                       sizeof why);
    cr_assert(rc == TB_E_ILLEGAL || rc == TB_E_NOTATION, "%d", rc);
    core_position_free(pos);
}

Test(entry, several_loose_fits_are_ambiguous)
{
    /* Two actions on one square differ only in their action letter. */
    static const char legal[3][CORE_NOTATION_MAX] = {"X Ba2", "P Ba2-b3",
                                                     "+ Ba2"};
    size_t index = 99, count = 0;
    cr_assert_eq(entry_find(legal, 3, "a2", &index, &count), TB_E_AMBIGUOUS);
    cr_assert_eq(count, 2);
    cr_assert_eq(index, 0);
    cr_assert_eq(entry_find(legal, 3, "+ Ba2", &index, &count), 0);
    cr_assert_eq(index, 2);
    cr_assert_eq(entry_find(legal, 3, "a2-b3", &index, &count), 0);
    cr_assert_eq(index, 1);
    cr_assert_eq(entry_find(legal, 3, "c4", &index, &count), TB_E_ILLEGAL);
    cr_assert_eq(count, 0);
    /* In capitals the same: folding case finds no more than before. */
    cr_assert_eq(entry_find(legal, 3, "A2", &index, &count), TB_E_AMBIGUOUS);
    cr_assert_eq(count, 2);
    cr_assert_eq(entry_find(legal, 3, "A2-B3", &index, &count), 0);
    cr_assert_eq(index, 1);
    cr_assert_eq(entry_find(legal, 3, "C4", &index, &count), TB_E_ILLEGAL);
}

Test(entry, completion_fits_from_the_first_square)
{
    cr_assert(entry_fits("T Qd8-b6>a5", "d8"));
    cr_assert(entry_fits("T Qd8-b6>a5", "Qd8-b"));
    cr_assert(entry_fits("T Qd8-b6>a5", "T Q"));
    cr_assert(entry_fits("T Qd8-b6>a5", ""));
    cr_assert(!entry_fits("T Qd8-b6>a5", "d7"));
    cr_assert(entry_fits("c3-d4", "c3"));
    cr_assert(!entry_fits("c3-d4", "d4"));
    cr_assert(entry_fits("c3-d4", "C3-"));
    cr_assert(entry_fits("T Qd8-b6>a5", "QD8"));
    cr_assert(!entry_fits("c3-d4", "D4"));
}

/* One move typed in capitals or any mix of cases, in a game from its
 * start (or from moves), must be read as the legal move want. */
static void typed_as(const char *game, const char *const *before,
                     const char *typed, const char *want)
{
    Core_Position *pos = NULL;
    char canon[CORE_NOTATION_MAX], why[400];
    Core_Move mv;
    cr_assert_eq(core_position_new(&pos, core_game_find(game), NULL), 0);
    for (; before != NULL && *before != NULL; before++) {
        cr_assert_eq(core_move_parse(pos, *before, &mv), 0, "%s", *before);
        cr_assert_eq(core_play(pos, &mv), 0);
    }
    cr_assert_eq(line_cmd_move(pos, typed, canon, sizeof canon, why,
                               sizeof why),
                 0, "%s '%s': %s", game, typed, why);
    cr_assert_str_eq(canon, want, "%s '%s'", game, typed);
    core_position_free(pos);
}

/* Issue 20, finding 1: "C3-D4" was refused in every game. The moves are
 * the rules pages' own examples: Laska's c3-d4 (docs/rules/laska.md,
 * 9-13), after which Black's man on e5 jumps White's on d4 to the c3 it
 * left: e5xc3 (17-13-9 on the same page); Football's first turn d1-d5
 * d5*i5; Chessball's pawn b3 takes the black pawn on its neighbour c4
 * (start position, section 3: every first move is a capture). */
Test(entry, capital_letters_are_read_as_the_move)
{
    static const char *const laska_first[] = {"c3-d4", NULL};
    typed_as("laska", NULL, "C3-D4", "c3-d4");
    typed_as("laska", NULL, "c3-D4", "c3-d4");
    typed_as("laska", laska_first, "E5XC3", "e5xc3");
    typed_as("football", NULL, "D1-D5 D5*I5", "d1-d5 d5*i5");
    typed_as("chessball", NULL, "B3XC4", "b3xc4");
}

Test(entry, capitals_keep_volleyballs_action_and_piece_letters)
{
    static const char *const typed[] = {"T QD8-B6>A5", "t qd8-b6>a5",
                                        "QD8-B6>A5", "D8-B6>A5"};
    all_read_as_the_throw(typed, sizeof typed / sizeof typed[0]);
}

/* typed in game from its start is refused with want; its refusal's
 * text (into why, cap bytes) starts with want's message. */
static void refused_as(const char *game, const char *typed, int want,
                       char *why, size_t cap)
{
    Core_Position *pos = NULL;
    char canon[CORE_NOTATION_MAX];
    cr_assert_eq(core_position_new(&pos, core_game_find(game), NULL), 0);
    int rc = line_cmd_move(pos, typed, canon, sizeof canon, why, cap);
    cr_assert_eq(rc, want, "%s '%s': %s", game, typed, why);
    cr_assert_eq(strncmp(why, tb_strerror(want), strlen(tb_strerror(want))),
                 0, "%s '%s': %s", game, typed, why);
    core_position_free(pos);
}

/* small and capital, the same move typed two ways, get the same
 * refusal, want. */
static void same_refusal(const char *game, const char *small,
                         const char *capital, int want)
{
    char a[400], b[400];
    refused_as(game, small, want, a, sizeof a);
    refused_as(game, capital, want, b, sizeof b);
    cr_assert_str_eq(a, b, "%s '%s' and '%s'", game, small, capital);
}

/* A trial found: an illegal move typed in capitals was called malformed
 * while the same move in small letters was called illegal. At the start
 * (docs/rules/): Laska has no soldier on d4, and c3 steps one square
 * diagonally, never straight on to c5; Chessball's b3 pawn has no step
 * to b5 (every first move is a capture); Football chess has no piece on
 * b3. A text of no move's shape stays malformed in either case. */
Test(entry, capital_illegal_move_is_illegal_not_malformed)
{
    char why[400];
    same_refusal("laska", "d4-e5", "D4-E5", TB_E_ILLEGAL);
    same_refusal("laska", "c3-c5", "C3-C5", TB_E_ILLEGAL);
    same_refusal("laska", "c3-c5", "C3-c5", TB_E_ILLEGAL);
    same_refusal("chessball", "b3-b5", "B3-B5", TB_E_ILLEGAL);
    same_refusal("chessball", "b3xb5", "B3XB5", TB_E_ILLEGAL);
    same_refusal("football", "b3-b5", "B3-B5", TB_E_ILLEGAL);
    refused_as("laska", "C3-D", TB_E_NOTATION, why, sizeof why);
    refused_as("laska", "HELLO", TB_E_NOTATION, why, sizeof why);
}

/* The seat's conduct commands are whole words, with their argument after
 * a space; a move or a word that only begins like one is none. */
Test(line_cmd, conduct_commands_are_told_from_moves)
{
    cr_assert(match_conduct_line("resign"));
    cr_assert(match_conduct_line("takeback 2"));
    cr_assert(match_conduct_line("claim win"));
    cr_assert(match_conduct_line("draw"));
    cr_assert_not(match_conduct_line("drawn"));
    cr_assert_not(match_conduct_line("c3-d4"));
    cr_assert_not(match_conduct_line("T Qd8-b6>a5"));
    cr_assert_not(match_conduct_line(""));
    /* malformed commands go to the session, which says what is wrong */
    cr_assert(match_conduct_line("takeback x"));
    cr_assert(match_conduct_line("claim now"));
    cr_assert(match_conduct_line("abort\tnow"));
    cr_assert_not(match_conduct_line("Resign"));
    cr_assert_not(match_conduct_line(" resign"));
}

Test(entry, unquote_drops_one_pair_around_the_whole_text)
{
    char a[] = "\"T Qd8-b6>a5\"", b[] = "\"a", c[] = "\"\"", d[] = "e2 \"x\"",
         e[] = "\"";
    cr_assert_str_eq(entry_unquote(a), "T Qd8-b6>a5");
    cr_assert_str_eq(entry_unquote(b), "\"a");
    cr_assert_str_eq(entry_unquote(c), "");
    cr_assert_str_eq(entry_unquote(d), "e2 \"x\"");
    cr_assert_str_eq(entry_unquote(e), "\"");
}
