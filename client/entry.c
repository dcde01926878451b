/*
 * entry.c: matching what a player types against the legal moves (see
 * entry.h). The loose form only removes letters the notation carries
 * for the reader (the action and the piece, both fixed by the squares
 * in the position at hand), so two legal moves share a loose form only
 * when they differ in those letters alone; then the player is asked to
 * choose rather than one being guessed. Failing both, the same
 * comparisons are made with letter case folded ("C3-D4", "B2XD4"): no
 * game writes two different moves with texts that differ in case alone
 * (squares are small letters and digits; volleyball's action and piece
 * letters are capitals at fixed places), so a folded text that fits one
 * legal move means that move, and one that fits several is ambiguous.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "entry.h"
#include "game_help.h"
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

/* ASCII only, so the locale (set for the translations) plays no part. */
static char fold(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Does a, with case folded, start with (prefix) or equal b folded? */
static int fold_match(const char *a, const char *b, int prefix)
{
    for (; *b != '\0'; a++, b++)
        if (fold(*a) != fold(*b))
            return 0;
    return prefix || *a == '\0';
}

/* The text without its one-letter action ("T Qd8-b6>a5" -> "Qd8-b6>a5"). */
static const char *no_action(const char *text)
{
    return text[0] != '\0' && text[0] != ' ' && text[1] == ' ' ? text + 2
                                                                : text;
}

/* Does typed, case folded, fit legal text: its whole text, the text
 * without the action, or its loose form (all folded)? */
static int folded_fits(const char *text, const char *typed, int prefix)
{
    char have[CORE_NOTATION_MAX];
    entry_loose(text, have, sizeof have);
    return fold_match(text, typed, prefix) ||
           fold_match(no_action(text), typed, prefix) ||
           fold_match(have, typed, prefix);
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
    int loose_found = found > 0;
    for (size_t i = 0; i < nlegal && want[0] != '\0' && !loose_found; i++)
        if (folded_fits(legal[i], want, 0) && found++ == 0)
            *index = i;
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
    return strncmp(have, want, strlen(want)) == 0 ||
           folded_fits(text, want, 1);
}

/* typed with its letters small: all of them ("B3XC4" to "b3xc4"), or
 * only a letter right before a digit (a square's file, keeping the capitals
 * of Chess volleyball's action and pieces: "T Qd8-b6>a5"). */
static void small_letters(const char *typed, int all, char *out, size_t cap)
{
    size_t n = 0;
    for (; *typed != '\0' && n + 1 < cap; typed++)
        out[n++] = all || (typed[1] >= '0' && typed[1] <= '9')
                       ? fold(*typed)
                       : *typed;
    if (cap > 0)
        out[n] = '\0';
}

int entry_parse_error(const Core_Position *pos, const char *typed, int rc)
{
    if (rc != TB_E_NOTATION)
        return rc;
    for (int all = 1; all >= 0; all--) {
        char small[CORE_NOTATION_MAX];
        Core_Move mv;
        small_letters(typed, all, small, sizeof small);
        if (strcmp(small, typed) == 0)
            continue;
        int again = core_move_parse(pos, small, &mv);
        if (again != TB_E_NOTATION)
            return again == 0 ? TB_E_ILLEGAL : again;
    }
    return rc;
}

char *entry_unquote(char *text)
{
    size_t n = strlen(text);
    if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
        memmove(text, text + 1, n - 2);
        text[n - 2] = '\0';
    }
    return text;
}

int entry_legal(const Core_Position *pos, Core_Move **moves,
                char (**texts)[CORE_NOTATION_MAX], size_t *n)
{
    size_t cap = core_game_max_moves(core_position_game(pos));
    *n = 0;
    *moves = malloc(cap * sizeof **moves);
    *texts = malloc(cap * sizeof **texts);
    if (*moves == NULL || *texts == NULL)
        return TB_E_NOMEM;
    int rc = core_moves(pos, *moves, cap, n);
    for (size_t i = 0; rc == 0 && i < *n; i++)
        rc = core_move_format(pos, &(*moves)[i], (*texts)[i],
                              sizeof (*texts)[i]);
    return rc;
}

int entry_read(const Core_Position *pos, const char *typed, char *canon,
               size_t cap, char *why, size_t why_cap)
{
    Core_Move *mv = NULL;
    char(*texts)[CORE_NOTATION_MAX] = NULL;
    size_t n = 0, index = 0, count = 0;
    Core_Move one;
    char bare[CORE_NOTATION_MAX + 2]; /* a move of a pv in its quotes */
    if (strlen(typed) < sizeof bare)
        typed = entry_unquote(strcpy(bare, typed));
    int rc = core_move_parse(pos, typed, &one);
    why[0] = '\0';
    if (rc == 0)
        rc = core_move_format(pos, &one, canon, cap);
    if (rc == 0 || rc == TB_E_OVER)
        goto out;
    int parse_rc = rc;
    if ((rc = entry_legal(pos, &mv, &texts, &n)) != 0)
        goto out;
    rc = entry_find((const char (*)[CORE_NOTATION_MAX])texts, n, typed,
                    &index, &count);
    if (rc == 0) {
        snprintf(canon, cap, "%s", texts[index]);
    } else if (rc == TB_E_AMBIGUOUS) {
        snprintf(why, why_cap, ngettext("%s: %zu move fits, e.g. %s",
                                        "%s: %zu moves fit, e.g. %s", count),
                 _(tb_strerror(rc)), count, texts[index]);
    } else {
        char hint[CORE_NOTATION_MAX + 96];
        rc = entry_parse_error(pos, typed, parse_rc);
        game_help_one_line(core_position_game(pos),
                           (const char (*)[CORE_NOTATION_MAX])texts, n, hint,
                           sizeof hint);
        snprintf(why, why_cap, "%s; %s", _(tb_strerror(rc)), hint);
    }
out:
    if (rc != 0 && why[0] == '\0')
        snprintf(why, why_cap, "%s", _(tb_strerror(rc)));
    free(mv);
    free(texts);
    return rc;
}
