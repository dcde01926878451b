/*
 * web_seek.h: the exports of the page's module for public seeks (issue
 * 37): the SEEKS hello that asks the lobby for its list, each LIST
 * answer read and every card in it checked (lobby_seek_card_read: the
 * host's signature, the code's fingerprint, the player's signed name
 * record) as `tabula seeks` checks them, a display name checked
 * (proto_name_check) with the rule's words, and the relay's answer to a
 * host's SEEK in words. The page's JavaScript only opens the WebSocket,
 * carries the bytes and draws these lines; the card a seeking host puts
 * up is made in web_match.c (web_net_seek).
 */
#ifndef TABULA_WEB_SEEK_H
#define TABULA_WEB_SEEK_H

#include <stddef.h>
#include <stdint.h>

/* web_seeks_hello: the SEEKS hello (lobby_wire_seeks) asking for the
 * open seeks of game (NULL or "": of every game), bytes in web_out /
 * web_out_len; NULL on TB_E_ARG (a game name over LOBBY_SEEK_GAME_MAX)
 * or TB_E_NOMEM. The lobby answers with LIST messages (web_seeks_list),
 * then closes the connection. */
const uint8_t *web_seeks_hello(const char *game);

/*
 * web_seeks_list: one message msg[0..len) the lobby sent on a SEEKS
 * connection, read at now (Unix ms, Date.now(): for the waiting times).
 * A LIST: one line per seek whose card checks, oldest first,
 *   "seek\tCODE\tGAME\tCLOCK\tOPTIONS\tSINCE\tWAITED\tSHOWN\tNAME\tFP\tCARD"
 * CODE the invite code that takes its guest seat (tabula join CODE);
 * CLOCK the clock as --clock takes it ("5+3"; "" none); OPTIONS the match
 * options without the clock (""); SINCE the relay's time of listing
 * (Unix ms); WAITED as `tabula seeks` shows it ("45s", "3m"); SHOWN the
 * player as proto_name_display shows one ("NAME (XXXX-XXXX-XXXX-XXXX)",
 * or the fingerprint alone); NAME the canonical name ("" none: no field
 * holds a tab, a newline, a control or a bidi character); FP the
 * fingerprint of the name's key (of the game's key without a name); CARD
 * the match options as the card says them (clock included), which a
 * taker holds the host to (web_net_take).
 * Then "end\tLAST\tFORGED": LAST 1 on the list's last message, FORGED
 * the cards that did not check (not shown). The text in web_out, or
 * NULL: web_last_error TB_E_FORMAT (not a LIST, lengths that do not add
 * up), the lobby's refusal when msg is an ERROR (TB_E_RATE: asked too
 * often), TB_E_NOMEM.
 */
const char *web_seeks_list(const uint8_t *msg, size_t len, double now);

/* web_name_check: a display name typed in the page, decided by
 * proto_name_check_at: its canonical form (spaces trimmed and folded)
 * in web_out, or NULL with web_last_error the refusal (TB_E_FORMAT,
 * TB_E_LIMIT, TB_E_NAME_EMPTY, TB_E_NAME_CHAR) and web_last_why the
 * rule's words in the page's language, as `tabula identity --name` says
 * them (the character as U+XXXX). */
const char *web_name_check(const char *name);

/* web_seeked_text: the relay's answer to a host's SEEK (web_net_poll's
 * SEEKED: reason 0, or the TB_E_* refusal, as LOBBY_WIRE_SEEKED says)
 * as the terminal's line: "seek: listed", or "seek: not listed: WHY" in
 * the page's language (TB_E_SEEKS: the limit's words). NULL on
 * TB_E_NOMEM. */
const char *web_seeked_text(int reason);

#endif /* TABULA_WEB_SEEK_H */
