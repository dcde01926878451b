/*
 * test_session.c: session_tokens, which finds the square names inside a
 * move's notation for the play screen's square selection and the replay
 * viewer's last-move marks: the capture sign 'x' separates names.
 */
#include <criterion/criterion.h>

#include "session.h"

static const char names[][8] = {"a", "b3", "c4", "e5", "c3", "d4", "f6", "h"};
#define NNAMES (sizeof names / sizeof names[0])

static size_t tokens(const char *text, int *out)
{
    return session_tokens(text, names, NNAMES, out, SESSION_MAX_TOKENS);
}

Test(session, quiet_move_gives_both_squares)
{
    int t[SESSION_MAX_TOKENS];
    cr_assert_eq(tokens("b3-c4", t), 2);
    cr_assert_eq(t[0], 1);
    cr_assert_eq(t[1], 2);
}

Test(session, capture_sign_separates_names)
{
    int t[SESSION_MAX_TOKENS];
    cr_assert_eq(tokens("b3xc4", t), 2); /* Chessball capture */
    cr_assert_eq(t[0], 1);
    cr_assert_eq(t[1], 2);
    cr_assert_eq(tokens("axc4", t), 2); /* from the pole a */
    cr_assert_eq(t[0], 0);
    cr_assert_eq(tokens("c3xe5xh", t), 3); /* a Laska-style chain */
    cr_assert_eq(t[0], 4);
    cr_assert_eq(t[1], 3);
    cr_assert_eq(t[2], 7);
}

Test(session, letters_inside_words_are_no_squares)
{
    int t[SESSION_MAX_TOKENS];
    cr_assert_eq(tokens("pass", t), 0); /* the 'a' of pass */
    cr_assert_eq(tokens("hb3", t), 0);  /* no name touching another */
    cr_assert_eq(tokens("b34", t), 0);
}

Test(session, square_named_twice_running_is_one_selection)
{
    /* Football chess: the piece moved to d4 kicks from d4 to f6; the
     * player selects c3, d4, f6. */
    int t[SESSION_MAX_TOKENS];
    cr_assert_eq(tokens("c3-d4 d4*f6", t), 3);
    cr_assert_eq(t[0], 4);
    cr_assert_eq(t[1], 5);
    cr_assert_eq(t[2], 6);
    /* Not twice running: both kept (a kick back to where it began). */
    cr_assert_eq(tokens("d4*f6 f6*d4", t), 3);
}
