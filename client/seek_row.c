/*
 * seek_row.c: a seek's card read as a list shows it (seek_row.h), for
 * `tabula seeks` and the page's module alike.
 */
#include "seek_row.h"

int cli_seek_row(const uint8_t *card, size_t len, Cli_Seek_Row *out)
{
    Proto_Clock clock;
    const uint8_t *pk;
    int rc = lobby_seek_card_read(card, len, &out->seek);
    if (rc == 0)
        rc = proto_clock_split(out->seek.options, &clock, out->options,
                               sizeof out->options);
    if (rc == 0)
        rc = proto_clock_typed(&clock, out->clock, sizeof out->clock);
    if (rc != 0)
        return rc;
    pk = out->seek.named ? out->seek.who.pk : out->seek.host_pk;
    proto_fingerprint(pk, out->fp);
    return proto_name_display(out->seek.named ? out->seek.who.name : "", pk,
                              out->shown, sizeof out->shown);
}
