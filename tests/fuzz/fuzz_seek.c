/*
 * fuzz_seek.c: libFuzzer target for public seeks as a reader of the
 * lobby's list meets them (issue 37): the input whole as a seek card
 * (lobby_seek_card_read), and after a LIST type byte as a LIST message
 * (lobby_wire_list_read), each of its cards read too. Built with
 * TABULA_FUZZ_UNSIGNED (run.sh), so mutated cards and name records reach
 * the checks after their signatures.
 * Properties: no crash or undefined behaviour; a card taken has a game of
 * 1..16 characters [a-z0-9], options of printable ASCII without spaces,
 * a code its host key fingerprints, and a name (when it has one) that
 * proto_name_check takes as it is (canonical: nothing a terminal would
 * act on); a LIST taken is walked to its end.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lobby_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const Lobby_Seek *s)
{
    size_t g = strlen(s->game);
    char canon[PROTO_DISPLAY_NAME_MAX + 1];
    if (g == 0 || g > LOBBY_SEEK_GAME_MAX)
        __builtin_trap();
    for (size_t i = 0; i < g; i++)
        if (!((s->game[i] >= 'a' && s->game[i] <= 'z') ||
              (s->game[i] >= '0' && s->game[i] <= '9')))
            __builtin_trap();
    for (const char *o = s->options; *o != '\0'; o++)
        if (*o <= 0x20 || *o > 0x7e)
            __builtin_trap();
    if (lobby_code_check_host(&s->invite, s->host_pk) != 0)
        __builtin_trap();
    if (s->named &&
        (proto_name_check(s->who.name, strlen(s->who.name), canon,
                          sizeof canon) != 0 ||
         strcmp(canon, s->who.name) != 0))
        __builtin_trap();
}

static int each(void *user, uint64_t since, const uint8_t *card, size_t len)
{
    Lobby_Seek s;
    (void)since;
    ++*(unsigned *)user;
    if (lobby_seek_card_read(card, len, &s) == 0)
        check(&s);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t msg[LOBBY_WIRE_LIST_MAX];
    Lobby_Seek s;
    unsigned seen = 0;
    int last = 0;

    if (proto_init() != 0)
        __builtin_trap();
    if (lobby_seek_card_read(data, size, &s) == 0)
        check(&s);
    if (size + 1 > sizeof msg)
        return 0;
    msg[0] = LOBBY_WIRE_LIST_TYPE;
    memcpy(msg + 1, data, size);
    if (lobby_wire_list_read(msg, size + 1, each, &seen, &last) == 0 &&
        seen != ((unsigned)msg[2] << 8 | msg[3]))
        __builtin_trap(); /* a LIST taken was walked to its end */
    return 0;
}
