/*
 * fuzz_record.c: libFuzzer target for the plain game record reader
 * (tags, movetext, comments, moves through the game's parser). Besides
 * libFuzzer's own mutations, a custom mutator makes the changes real
 * files carry: line ends swapped between LF, CRLF and lone CR, a UTF-8
 * byte-order mark added or dropped, escape lines, Latin-1 and UTF-8
 * bytes, control bytes. And every input is checked against a property:
 * written with other line ends, or with a byte-order mark, a record reads
 * the same (same result, line, column, ply, next game and final
 * position), so no line-end style can make the reader skip part of a
 * game. Variations, null moves, NAGs and glyphs are among the pieces
 * inserted, so side lines (checked, nested) are reached.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);

typedef struct Outcome {
    int rc;
    uint32_t line, col, ply, next_game;
    uint8_t hash[PROTO_HASH_BYTES];
} Outcome;

static Outcome read_one(const char *text, size_t len)
{
    Proto_Record_Report rep;
    Core_Position *pos = NULL;
    Outcome o;

    memset(&o, 0, sizeof o);
    o.rc = proto_record_read(text, len, core_game_find("laska"), NULL, NULL,
                             &pos, &rep);
    if ((o.rc == 0) != (pos != NULL))
        __builtin_trap();
    o.line = rep.line;
    o.col = rep.col;
    o.ply = rep.ply;
    o.next_game = rep.next_game;
    if (pos != NULL && proto_state_hash(pos, o.hash) != 0)
        __builtin_trap();
    core_position_free(pos);
    return o;
}

/* text with every LF replaced by eol (1 or 2 bytes), into a new buffer. */
static char *with_line_ends(const char *text, size_t len, const char *eol,
                            size_t *out_len)
{
    size_t el = strlen(eol), n = 0;
    char *out = malloc(len * el + 4);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            memcpy(out + n, eol, el);
            n += el;
        } else {
            out[n++] = text[i];
        }
    }
    *out_len = n;
    return out;
}

static void same_or_trap(const Outcome *a, const Outcome *b)
{
    if (a->rc != b->rc || a->line != b->line || a->col != b->col ||
        a->ply != b->ply || a->next_game != b->next_game ||
        memcmp(a->hash, b->hash, PROTO_HASH_BYTES) != 0)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    Outcome base = read_one(text, size);
    static const char *const eols[] = {"\r", "\r\n"};

    /* The property holds for LF-only text without a mark of its own. */
    if (memchr(data, '\r', size) != NULL ||
        (size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0))
        return 0;
    for (size_t i = 0; i < 2; i++) {
        size_t n = 0;
        char *other = with_line_ends(text, size, eols[i], &n);
        if (other == NULL)
            return 0;
        Outcome o = read_one(other, n);
        free(other);
        same_or_trap(&base, &o);
    }
    char *marked = malloc(size + 3);
    if (marked == NULL)
        return 0;
    memcpy(marked, "\xef\xbb\xbf", 3);
    memcpy(marked + 3, data, size);
    Outcome o = read_one(marked, size + 3);
    free(marked);
    same_or_trap(&base, &o);
    return 0;
}

/* Insert ins (n bytes) at position at; returns the new size. */
static size_t insert(uint8_t *data, size_t size, size_t max, size_t at,
                     const char *ins, size_t n)
{
    if (size + n > max || at > size)
        return size;
    memmove(data + at + n, data + at, size - at);
    memcpy(data + at, ins, n);
    return size + n;
}

/* Replace every LF with CRLF or CR, or every CR and CRLF with LF. */
static size_t swap_line_ends(uint8_t *data, size_t size, size_t max,
                             unsigned how)
{
    uint8_t *tmp = malloc(max);
    size_t n = 0;
    if (tmp == NULL)
        return size;
    for (size_t i = 0; i < size && n < max; i++) {
        uint8_t c = data[i];
        if (how == 0 && c == '\n') { /* LF -> CRLF */
            tmp[n++] = '\r';
            if (n < max)
                tmp[n++] = '\n';
        } else if (how == 1 && c == '\n') { /* LF -> CR */
            tmp[n++] = '\r';
        } else if (how == 2 && c == '\r') { /* CR, CRLF -> LF */
            tmp[n++] = '\n';
            if (i + 1 < size && data[i + 1] == '\n')
                i++;
        } else {
            tmp[n++] = c;
        }
    }
    memcpy(data, tmp, n);
    free(tmp);
    return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed)
{
    static const char *const bits[] = {
        "\xef\xbb\xbf",    /* a byte-order mark in the middle */
        "\xe9",            /* Latin-1 e acute */
        "\xc3\xa9",        /* UTF-8 e acute */
        "\xc2\x9b",        /* C1 CSI in UTF-8 */
        "\x1b[2J",         /* an ESC sequence */
        "\x07",            /* a bell */
        "\n% escape\n",    /* an escape line */
        "\r",              /* a lone CR */
        "\r\n",            /* a CRLF */
        " 12. ... ",       /* move numbers */
        " 3 ",
        "{\r}",
        " (",              /* a variation opened */
        ") ",              /* and closed */
        " (1. a3-b4 c5xa3) ", /* a legal side line at the start */
        " -- ",            /* a null move */
        "$1",              /* a NAG, glued */
        "!?",              /* a glyph */
        "\n\n[Game \"laska\"]\n", /* a second game */
        "\\\"",           /* an escaped quote */
    };
    size_t nbits = sizeof bits / sizeof bits[0];
    unsigned pick = seed % 8;
    size_t at = size ? (seed / 8) % (size + 1) : 0;

    switch (pick) {
    case 0:
    case 1:
    case 2:
        return swap_line_ends(data, size, max_size, pick);
    case 3: /* add or drop a leading byte-order mark */
        if (size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
            memmove(data, data + 3, size - 3);
            return size - 3;
        }
        return insert(data, size, max_size, 0, "\xef\xbb\xbf", 3);
    case 4:
    case 5: {
        const char *b = bits[(seed / 97) % nbits];
        return insert(data, size, max_size, at, b, strlen(b));
    }
    default:
        return LLVMFuzzerMutate(data, size, max_size);
    }
}
