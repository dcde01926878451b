/*
 * advice.c: the wording of network failures (see advice.h). Each refusal
 * is named in the player's terms (a code, a seat, a lobby address) and
 * ends with the command to type instead; the codes and addresses are
 * repeated so the line can be copied as it is.
 */
#include <stdio.h>

#include "i18n.h"
#include "advice.h"
#include "cli.h"
#include "seat.h"
#include "tb_error.h"

/* A connection error's words: the terminal's (set by main: net/'s), else
 * its TB_E_* text. */
static const char *(*transport_words)(int reason);

void advice_set_transport(const char *(*words)(int reason))
{
    transport_words = words;
}

static const char *transport(int reason)
{
    return transport_words != NULL ? transport_words(reason)
                                   : _(tb_strerror(reason));
}

/* The words both the terminal and the page say, one msgid each. */
static void rate_words(char *out, size_t cap, const char *lobby)
{
    snprintf(out, cap, _("the lobby at %s refuses this address for a while "
             "after too many wrong codes: wait a minute, then check the "
             "code and try again"), lobby);
}

static void signature_words(char *out, size_t cap, const char *lobby,
                            const char *c)
{
    snprintf(out, cap, _("the game at %s was not made by the host of code "
             "%s: is the code mistyped? Check its last group"), lobby, c);
}

void advice_lobby_failure(char *out, size_t cap, const char *lobby,
                          int reason, Lobby_Role role, const char *code)
{
    const char *c = code != NULL ? code : "CODE";
    switch (reason) {
    case TB_E_WATCH_CODE:
        snprintf(out, cap, _("%s is a watch code: it lets you watch, not play. "
                 "To watch: %s spectate %s --lobby %s; to play, ask the "
                 "host for the invite code"), c, cli_program(), c, lobby);
        break;
    case TB_E_SEAT:
        snprintf(out, cap, _("the game of code %s has its second player "
                 "already (or is over). To watch it: %s spectate %s "
                 "--lobby %s; to play, ask the host for a new game"), c,
                 cli_program(), c, lobby);
        break;
    case TB_E_CODE:
        snprintf(out, cap, _("the lobby at %s has no game with code %s: check "
                 "the code against the host's invite: line, and that "
                 "--lobby is the host's lobby: address"), lobby, c);
        break;
    case TB_E_RATE:
        rate_words(out, cap, lobby);
        break;
    case TB_E_FULL:
        snprintf(out, cap, _("the lobby at %s is full: try again later, or "
                 "host the game on another lobby (--lobby HOST:PORT)"), lobby);
        break;
    case TB_E_ADDRESS:
        snprintf(out, cap, _("the lobby at %s already holds as many games and "
                 "connections from your address as it gives one address: "
                 "finish one, or close one (a game nobody joined counts for "
                 "30 s after its host left), and try again, or ask the "
                 "lobby's operator to trust your network (tabula lobby "
                 "--trust)"),
                 lobby);
        break;
    case TB_E_VERSION:
        snprintf(out, cap, _("the lobby at %s speaks another protocol version: "
                 "use the same version of tabula as the host"), lobby);
        break;
    case TB_E_SIGNATURE:
        signature_words(out, cap, lobby, c);
        break;
    case TB_E_HTTP:
        /* The lobby's --http port (the page's address) given to --lobby:
         * the page and its address are what a new user sees first. */
        if (role == LOBBY_ROLE_HOST)
            snprintf(out, cap, _("%s is the lobby's web address; give its "
                     "--listen address (the 'listening:' line of `%s "
                     "lobby`): %s host GAME --lobby HOST:PORT"), lobby,
                     cli_program(), cli_program());
        else
            snprintf(out, cap, _("%s is the lobby's web address; give its "
                     "--listen address (the host's 'lobby:' line, or the "
                     "'listening:' line of `%s lobby`): %s %s %s --lobby "
                     "HOST:PORT"), lobby, cli_program(), cli_program(),
                     role == LOBBY_ROLE_GUEST ? "join" : "spectate", c);
        break;
    default:
        if (role == LOBBY_ROLE_HOST)
            snprintf(out, cap, _("cannot reach the lobby at %s (%s): is "
                     "`%s lobby` running there? Without --lobby, host "
                     "starts its own"), lobby, transport(reason),
                     cli_program());
        else
            snprintf(out, cap, _("cannot reach the lobby at %s (%s): give the "
                     "host's lobby address, as the host's screen shows it: "
                     "%s %s %s --lobby HOST:PORT"), lobby,
                     transport(reason), cli_program(),
                     role == LOBBY_ROLE_GUEST ? "join" : "spectate", c);
        break;
    }
}

void advice_seat_refused(char *out, size_t cap, const char *lobby, int reason)
{
    if (reason == TB_E_RATING)
        snprintf(out, cap, _("the lobby at %s did not seat you: your rating "
                 "is outside the seek's rating range (its list rates the key "
                 "you join with; a key it does not know counts as 1500)"),
                 lobby);
    else if (reason == TB_E_REPLACED)
        snprintf(out, cap, _("the lobby at %s gave this seat to another "
                 "connection with its key (the same command run again "
                 "elsewhere, or a page that took it back): this one stops; "
                 "the game is not over and goes on there"), lobby);
    else
        snprintf(out, cap, _("the lobby at %s refused this seat (%s): it "
                 "stops; the game is not over"), lobby, _(tb_strerror(reason)));
}

void advice_gave_up_refused(char *out, size_t cap, const char *lobby,
                            unsigned give_up_s, int reason, int has_log)
{
    if (has_log)
        snprintf(out, cap, _("the lobby at %s refused this seat for %u s (%s): "
                 "stopped trying. The game is not over: run the same command "
                 "again to try again"), lobby, give_up_s,
                 _(tb_strerror(reason)));
    else
        snprintf(out, cap, _("the lobby at %s refused this seat for %u s (%s): "
                 "stopped trying. The game is not over, but this seat kept no "
                 "log (--log FILE), so it cannot take its seat back"), lobby,
                 give_up_s, _(tb_strerror(reason)));
}

void advice_seat_stopped(char *out, size_t cap, const char *lobby,
                         Lobby_Role role, const char *code, int failure,
                         int reason, int refused, int has_log)
{
    if (reason == TB_E_RATING) { /* (never seated, whatever the seat thought) */
        advice_seat_refused(out, cap, lobby, reason);
        return;
    }
    int worded = reason == TB_E_WATCH_CODE || reason == TB_E_SEAT ||
                 reason == TB_E_CODE || reason == TB_E_RATE ||
                 reason == TB_E_FULL || reason == TB_E_ADDRESS ||
                 reason == TB_E_VERSION ||
                 reason == TB_E_SIGNATURE || reason == TB_E_HTTP;
    if (failure == SEAT_FAIL_ADMISSION && refused && !worded)
        /* the lobby was reached, and answered no: not "cannot reach" */
        snprintf(out, cap, _("the lobby at %s refused this seat (%s)"), lobby,
                 _(tb_strerror(reason)));
    else if (failure == SEAT_FAIL_ADMISSION)
        advice_lobby_failure(out, cap, lobby, reason, role, code);
    else if (failure == SEAT_FAIL_ENDED)
        advice_seat_refused(out, cap, lobby, reason);
    else /* there, but refusing (one that is away is tried for ever) */
        advice_gave_up_refused(out, cap, lobby, SEAT_GIVE_UP_MS / 1000,
                               reason, has_log);
}

/* ---- the page's words (web/wasm/web_match.c, web_net_advice) ---- */

/* Why a page's seat never got in, and what to do instead. */
static void page_admission(char *out, size_t cap, const char *lobby,
                           int reason, const char *c, int refused)
{
    switch (refused ? reason : 0) {
    case TB_E_WATCH_CODE:
        snprintf(out, cap, _("%s is a watch code: it lets you watch, not "
                 "play. To watch, open the spectators' link; to play, ask "
                 "the host for the invite code"), c);
        break;
    case TB_E_SEAT:
        snprintf(out, cap, _("the game of code %s has its second player "
                 "already (or is over): to watch it, open its spectators' "
                 "link; to play, ask the host for a new game"), c);
        break;
    case TB_E_CODE:
        snprintf(out, cap, _("the lobby at %s has no game with code %s: "
                 "check the code against the host's invite"), lobby, c);
        break;
    case TB_E_RATE:
        rate_words(out, cap, lobby);
        break;
    case TB_E_FULL:
        snprintf(out, cap, _("the lobby at %s is full: try again later"),
                 lobby);
        break;
    case TB_E_ADDRESS:
        snprintf(out, cap, _("the lobby at %s already holds as many games and "
                 "connections from your address as it gives one address: "
                 "close another game or tab of it and try again in half a "
                 "minute"), lobby);
        break;
    case TB_E_VERSION:
        snprintf(out, cap, _("the lobby at %s speaks another protocol "
                 "version: reload the page (this one may be an old copy)"),
                 lobby);
        break;
    case TB_E_SIGNATURE:
        signature_words(out, cap, lobby, c);
        break;
    case 0:
        snprintf(out, cap, _("cannot reach the lobby at %s"), lobby);
        break;
    default:
        snprintf(out, cap, _("the lobby at %s refused this seat (%s)"), lobby,
                 _(tb_strerror(reason)));
        break;
    }
}

void advice_page_stopped(char *out, size_t cap, const char *lobby,
                         const char *code, int failure, int reason,
                         int refused)
{
    const char *c = code != NULL ? code : "CODE";
    if (reason == TB_E_RATING)
        advice_seat_refused(out, cap, lobby, reason);
    else if (failure == SEAT_FAIL_ADMISSION)
        page_admission(out, cap, lobby, reason, c, refused);
    else if (failure == SEAT_FAIL_ENDED)
        advice_seat_refused(out, cap, lobby, reason);
    else /* there, but refusing (one that is away is tried for ever) */
        snprintf(out, cap, _("the lobby at %s refused this seat for %u s "
                 "(%s): stopped trying. The game is not over: reload the "
                 "page to try again"), lobby, SEAT_GIVE_UP_MS / 1000,
                 _(tb_strerror(reason)));
}
