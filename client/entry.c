/*
 * entry.c: matching what a player types against the legal moves (see
 * entry.h). The loose form only removes letters the notation carries
 * for the reader (the action and the piece, both fixed by the squares
 * in the position at hand), so two legal moves share a loose form only
 * when they differ in those letters alone; then the player is asked to
 * choose rather than one being guessed.
 */
#include <string.h>

#include "entry.h"
#include "tb_error.h"

void entry_loose(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    while (*text == ' ')
        text++;
    if (text[0] != '\0' && text[0] != ' ' && text[1] == ' ')
        text += 2; /* "T ", "+ ", "@ ": the action */
    for (; *text != '\0' && n + 1 < cap; text++) {
        char c = *text;
        if (c >= 'A' && c <= 'Z' && text[1] >= 'a' && text[1] <= 'z')
            continue; /* a piece letter before its square */
        out[n++] = c;
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    if (cap > 0)
        out[n] = '\0';
}

int entry_find(const char (*legal)[CORE_NOTATION_MAX], size_t nlegal,
               const char *typed, size_t *index, size_t *count)
{
    char want[CORE_NOTATION_MAX], have[CORE_NOTATION_MAX];
    size_t found = 0;
    for (size_t i = 0; i < nlegal; i++)
        if (strcmp(legal[i], typed) == 0) {
            *index = i;
            if (count != NULL)
                *count = 1;
            return 0;
        }
    entry_loose(typed, want, sizeof want);
    for (size_t i = 0; i < nlegal && want[0] != '\0'; i++) {
        entry_loose(legal[i], have, sizeof have);
        if (strcmp(have, want) == 0 && found++ == 0)
            *index = i;
    }
    if (count != NULL)
        *count = found;
    return found == 1 ? 0 : found > 1 ? TB_E_AMBIGUOUS : TB_E_ILLEGAL;
}

int entry_fits(const char *text, const char *typed)
{
    char want[CORE_NOTATION_MAX], have[CORE_NOTATION_MAX];
    if (strncmp(text, typed, strlen(typed)) == 0)
        return 1;
    entry_loose(typed, want, sizeof want);
    entry_loose(text, have, sizeof have);
    return strncmp(have, want, strlen(want)) == 0;
}
