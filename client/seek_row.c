/*
 * seek_row.c: a seek's card read as a list shows it (seek_row.h), for
 * `tabula seeks` and the page's module alike.
 */
#include <stdio.h>
#include <string.h>

#include "seek_row.h"
#include "tb_error.h"

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
    /* a rated seek's range is the reader's to see (docs/pool.md "Rated
     * seeks"): shown among the options */
    uint16_t lo, hi;
    if (rc == 0 && proto_options_rating(out->seek.options, &lo, &hi) == 1) {
        size_t n = strlen(out->options);
        int w = snprintf(out->options + n, sizeof out->options - n,
                         "%s" PROTO_OPTION_RATING "%u..%u", n ? "," : "",
                         (unsigned)lo, (unsigned)hi);
        if (w < 0 || (size_t)w >= sizeof out->options - n)
            rc = TB_E_SPACE;
    }
    if (rc != 0)
        return rc;
    pk = out->seek.named ? out->seek.who.pk : out->seek.host_pk;
    proto_fingerprint(pk, out->fp);
    return proto_name_display(out->seek.named ? out->seek.who.name : "", pk,
                              out->shown, sizeof out->shown);
}
