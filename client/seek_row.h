/*
 * seek_row.h: a public seek's card (issue 37) read as a list shows it:
 * checked, its clock (as --clock takes it) apart from its other options,
 * and the fingerprint of the player's own key. `tabula seeks` and the
 * page's list of seeks (web/wasm/web_seek.c) both read cards with it, so
 * a card one shows the other shows alike, and one they refuse neither
 * shows.
 */
#ifndef TABULA_SEEK_ROW_H
#define TABULA_SEEK_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "lobby_wire.h"
#include "proto.h"

typedef struct Cli_Seek_Row {
    Lobby_Seek seek;                     /* the card as it says it */
    char clock[PROTO_CLOCK_TEXT_MAX];    /* as typed (5+3); "" for none */
    char options[PROTO_OPTIONS_MAX + 1]; /* the rest; "" for none */
    char fp[PROTO_FINGERPRINT_MAX];      /* of the name's key (the
                                            player's own; the game's key
                                            is new each game), else of
                                            the host's */
    char shown[PROTO_NAME_SHOWN_MAX];    /* proto_name_display: "NAME
                                            (FINGERPRINT)" or FINGERPRINT */
} Cli_Seek_Row;

/*
 * cli_seek_row: card[0..len) as a list shows it, into *out, once
 * lobby_seek_card_read took it (its signature, code, name record) and its
 * options' clock reads (proto_clock_split). A name is there only as
 * proto_name_verify took it: no control or bidi character, no tab, no
 * line end. Errors: those of lobby_seek_card_read, proto_clock_split and
 * proto_name_display (the card is not to be shown).
 */
int cli_seek_row(const uint8_t *card, size_t len, Cli_Seek_Row *out);

#endif /* TABULA_SEEK_ROW_H */
