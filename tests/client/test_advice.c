/*
 * test_advice.c: the wording of network failures (client/advice.c):
 * each names what happened in the player's terms and the command to type
 * instead (issue 18, findings 1, 2 and 9).
 */
#include <criterion/criterion.h>
#include <string.h>
#include <uv.h>

#include "advice.h"
#include "net.h"
#include "cli.h"
#include "seat.h"
#include "tb_error.h"

static char text[640];

/* The terminal's connection errors, as main sets them. */
static void setup(void) { advice_set_transport(net_strerror); }

TestSuite(advice, .init = setup);

static const char *failure(int reason, Lobby_Role role)
{
    advice_lobby_failure(text, sizeof text, "127.0.0.1:4000", reason, role,
                         "ABCD-EFGH");
    return text;
}

Test(advice, each_refusal_says_what_to_type)
{
    cr_assert_str_eq(failure(TB_E_WATCH_CODE, LOBBY_ROLE_GUEST),
                     "ABCD-EFGH is a watch code: it lets you watch, not "
                     "play. To watch: tabula spectate ABCD-EFGH --lobby "
                     "127.0.0.1:4000; to play, ask the host for the invite "
                     "code");
    cr_assert_not_null(strstr(failure(TB_E_SEAT, LOBBY_ROLE_GUEST),
                              "has its second player already (or is over). "
                              "To watch it: tabula spectate ABCD-EFGH "
                              "--lobby 127.0.0.1:4000"),
                       "%s", text);
    cr_assert_not_null(strstr(failure(TB_E_CODE, LOBBY_ROLE_GUEST),
                              "has no game with code ABCD-EFGH"),
                       "%s", text);
    cr_assert_str_eq(failure(UV_ECONNREFUSED, LOBBY_ROLE_GUEST),
                     "cannot reach the lobby at 127.0.0.1:4000 (connection "
                     "refused): give the host's lobby address, as the host's "
                     "screen shows it: tabula join ABCD-EFGH --lobby "
                     "HOST:PORT");
    cr_assert_not_null(strstr(failure(UV_ECONNREFUSED, LOBBY_ROLE_SPECTATOR),
                              "tabula spectate ABCD-EFGH --lobby HOST:PORT"),
                       "%s", text);
    cr_assert_not_null(strstr(failure(UV_ECONNREFUSED, LOBBY_ROLE_HOST),
                              "is `tabula lobby` running there?"),
                       "%s", text);
    /* No message starts with the old catch-all. */
    static const int all[] = {TB_E_WATCH_CODE, TB_E_SEAT,   TB_E_CODE,
                              TB_E_RATE,       TB_E_FULL,   TB_E_VERSION,
                              TB_E_SIGNATURE,  UV_ETIMEDOUT, TB_E_ADDRESS};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        cr_assert_null(
            strstr(failure(all[i], LOBBY_ROLE_GUEST), "refused or unreachable"),
            "%s", text);
}

/* Issue 20, finding 4: the lobby's --http port given to --lobby said
 * "size limit exceeded" (the HTTP answer read as a frame length). */
/* The relay-limits issue: at its address's share a club was told "the
 * lobby is full". The address's share is named as such, with what to do
 * (the operator's --trust). */
Test(advice, an_address_share_is_not_a_full_lobby)
{
    cr_assert_str_eq(failure(TB_E_ADDRESS, LOBBY_ROLE_HOST),
                     "the lobby at 127.0.0.1:4000 already holds as many games "
                     "and connections from your address as it gives one "
                     "address: finish one, or close one (a game nobody joined "
                     "counts for 30 s after its host left), and try again, or "
                     "ask the lobby's operator to trust your network (tabula "
                     "lobby --trust)");
}

Test(advice, a_web_address_is_named_with_the_address_to_give)
{
    cr_assert_str_eq(failure(TB_E_HTTP, LOBBY_ROLE_GUEST),
                     "127.0.0.1:4000 is the lobby's web address; give its "
                     "--listen address (the host's 'lobby:' line, or the "
                     "'listening:' line of `tabula lobby`): tabula join "
                     "ABCD-EFGH --lobby HOST:PORT");
    cr_assert_not_null(strstr(failure(TB_E_HTTP, LOBBY_ROLE_SPECTATOR),
                              "tabula spectate ABCD-EFGH --lobby HOST:PORT"),
                       "%s", text);
    cr_assert_not_null(strstr(failure(TB_E_HTTP, LOBBY_ROLE_HOST),
                              "is the lobby's web address; give its --listen "
                              "address"),
                       "%s", text);
    cr_assert_null(strstr(text, "size limit"), "%s", text);
}

/* A seat stops only for a lobby that is there and keeps refusing it (one
 * that is away is tried for ever: seat.h); it says so, not "gone". */
Test(advice, giving_up_names_the_refusal)
{
    advice_gave_up_refused(text, sizeof text, "127.0.0.1:4000", 60, TB_E_SEAT,
                           1);
    cr_assert_str_eq(text, "the lobby at 127.0.0.1:4000 refused this seat "
                           "for 60 s (seat already taken): stopped trying. "
                           "The game is not over: run the same command again "
                           "to try again");
}

/* The commands advice names start with the program as the user ran it
 * (a new user ran build/tabula and was told to type tabula). */
Test(advice, commands_name_the_program_as_run)
{
    cli_program_set("build/tabula");
    cr_assert_str_eq(cli_program(), "build/tabula");
    cr_assert_not_null(strstr(failure(TB_E_WATCH_CODE, LOBBY_ROLE_GUEST),
                              "To watch: build/tabula spectate ABCD-EFGH "
                              "--lobby 127.0.0.1:4000;"),
                       "%s", text);
    /* absolute, long, or with blanks or quotes: the plain name */
    static const char *const plain[] = {"/usr/local/bin/tabula",
                                        "../../a/very/long/path/tabula",
                                        "my tabula", "it's", ""};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        cli_program_set("tabula");
        cli_program_set(plain[i]);
        cr_assert_str_eq(cli_program(), "tabula", "%s", plain[i]);
    }
    cli_program_set(NULL);
    cr_assert_str_eq(cli_program(), "tabula");
}

/* A seat the lobby refused before it was let in, for a reason the
 * lobby-failure words have no sentence for (a connection with the same
 * key took the seat at once): the lobby was reached, so it is "refused",
 * not "cannot reach" (a cheating-player trial saw the latter); one it
 * could not reach still says so. */
Test(advice, a_refusal_before_admission_is_no_unreachable_lobby)
{
    char out[640];
    advice_seat_stopped(out, sizeof out, "127.0.0.1:7", LOBBY_ROLE_GUEST,
                        "ABCD-EFGH-JKLM-NPQR", SEAT_FAIL_ADMISSION,
                        TB_E_REPLACED, 1, 0);
    cr_expect_str_eq(out, "the lobby at 127.0.0.1:7 refused this seat "
                          "(another connection with this seat's key took "
                          "it)");
    advice_seat_stopped(out, sizeof out, "127.0.0.1:7", LOBBY_ROLE_GUEST,
                        "ABCD-EFGH-JKLM-NPQR", SEAT_FAIL_ADMISSION,
                        UV_ECONNREFUSED, 0, 0);
    static const char reach[] = "cannot reach the lobby at 127.0.0.1:7 (";
    cr_expect(strncmp(out, reach, strlen(reach)) == 0, "%s", out);
}
