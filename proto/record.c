/*
 * record.c: plain game records, read as PGN's import format is (the
 * standard's section 3.1, and what lichess, python-chess and scalachess
 * accept): a UTF-8 byte-order mark, LF, CRLF or lone CR line ends, escape
 * lines starting with '%', tag lines `[Name "value"]`, then movetext with
 * move number indications in any written form ("12", "12.", "12...",
 * "12. ...", glued to the move or not), moves in any notation the game's
 * parser accepts (for Laska the lasca.org style "c3-d4", "b2xd4xf6", and
 * whatever else its parser reads), brace and rest-of-line comments,
 * variations, NAGs, annotation suffixes and a result. There are no
 * signatures to check: every move must be legal, the Result tag must agree
 * with the movetext's result, and a finished board with both. Nothing is
 * skipped silently: a record verifies whole or fails at a line and ply.
 * Only the first game of a file is read.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proto_internal.h"

typedef struct Reader {
    const char *p;
    const char *end;
    const char *start;
    uint32_t line;
} Reader;

/* At a line end: LF, CR or CRLF. */
static int at_eol(const Reader *r)
{
    return r->p < r->end && (*r->p == '\n' || *r->p == '\r');
}

/* Step over one line end (CRLF counts once) and count the line. */
static void eat_eol(Reader *r)
{
    if (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')
        r->p++;
    r->p++;
    r->line++;
}

/* At the first column of a line. */
static int at_bol(const Reader *r)
{
    return r->p == r->start || r->p[-1] == '\n' || r->p[-1] == '\r';
}

/* Step to the end of the line (not over it). */
static void skip_line(Reader *r)
{
    while (r->p < r->end && !at_eol(r))
        r->p++;
}

static int fail(Proto_Record_Report *rep, int err, const Reader *r,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(Proto_Record_Report *rep, int err, const Reader *r,
                const char *fmt, ...)
{
    va_list ap;
    rep->err = err;
    rep->line = r->line;
    va_start(ap, fmt);
    vsnprintf(rep->why, sizeof rep->why, fmt, ap);
    va_end(ap);
    return err;
}

/* Copy a result token ("1-0", "*", ...) into rep; others are cut. */
static void set_result(Proto_Record_Report *rep, const char *s)
{
    size_t n = strlen(s);
    if (n >= sizeof rep->result)
        n = sizeof rep->result - 1;
    memcpy(rep->result, s, n);
    rep->result[n] = '\0';
}

static int ieq(const char *a, const char *b)
{
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == '\0' && *b == '\0';
}

const char *proto_record_tag(const Proto_Record_Report *rep, const char *name)
{
    for (size_t i = 0; i < rep->ntags; i++)
        if (ieq(rep->tags[i].name, name))
            return rep->tags[i].value;
    return NULL;
}

/* Skip blanks, line ends (counted), escape lines ('%' in the first
 * column), brace and semicolon comments, variations in parentheses and
 * NAGs ("$12"). */
static int skip_space(Reader *r, Proto_Record_Report *rep)
{
    int depth = 0;
    while (r->p < r->end) {
        char c = *r->p;
        if (at_eol(r)) {
            eat_eol(r);
        } else if (c == '%' && at_bol(r)) {
            skip_line(r);
        } else if (c == '{') {
            uint32_t opened = r->line;
            while (r->p < r->end && *r->p != '}') {
                if (at_eol(r))
                    eat_eol(r);
                else
                    r->p++;
            }
            if (r->p == r->end) {
                r->line = opened;
                return fail(rep, TB_E_FORMAT, r,
                            "comment opened with '{' never closed");
            }
            r->p++;
        } else if (c == ';') {
            skip_line(r);
        } else if (c == '(') {
            depth++;
            r->p++;
        } else if (c == ')' && depth > 0) {
            depth--;
            r->p++;
        } else if (depth > 0 || isspace((unsigned char)c) || c == '\0') {
            r->p++;
        } else if (c == '$') {
            r->p++;
            while (r->p < r->end && isdigit((unsigned char)*r->p))
                r->p++;
        } else {
            break;
        }
    }
    return depth > 0 ? fail(rep, TB_E_FORMAT, r, "unclosed variation") : 0;
}

static int read_tag(Reader *r, Proto_Record_Report *rep)
{
    Proto_Tag *tag;
    size_t n = 0;

    if (rep->ntags == PROTO_TAGS_MAX)
        return fail(rep, TB_E_TOOLONG, r, "more tags than allowed");
    tag = &rep->tags[rep->ntags];
    r->p++; /* '[' */
    while (r->p < r->end && (isalnum((unsigned char)*r->p) || *r->p == '_')) {
        if (n == PROTO_TAG_NAME_MAX)
            return fail(rep, TB_E_TOOLONG, r, "tag name too long");
        tag->name[n++] = *r->p++;
    }
    tag->name[n] = '\0';
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
        r->p++;
    if (n == 0 || r->p == r->end || *r->p != '"')
        return fail(rep, TB_E_FORMAT, r, "bad tag line");
    r->p++;
    n = 0;
    while (r->p < r->end && *r->p != '"' && !at_eol(r)) {
        char c = *r->p++;
        if (c == '\\' && r->p < r->end && (*r->p == '"' || *r->p == '\\'))
            c = *r->p++;
        if (n == PROTO_TAG_VALUE_MAX)
            return fail(rep, TB_E_TOOLONG, r, "tag value too long");
        tag->value[n++] = c;
    }
    tag->value[n] = '\0';
    if (r->p == r->end || *r->p != '"')
        return fail(rep, TB_E_FORMAT, r, "unclosed tag value");
    r->p++;
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
        r->p++;
    if (r->p == r->end || *r->p != ']')
        return fail(rep, TB_E_FORMAT, r, "bad tag line");
    r->p++;
    rep->ntags++;
    return 0;
}

static const Core_Game *find_game(const char *name)
{
    char lower[PROTO_TAG_VALUE_MAX + 1];
    size_t i;
    for (i = 0; name[i] != '\0' && i < PROTO_TAG_VALUE_MAX; i++)
        lower[i] = (char)tolower((unsigned char)name[i]);
    lower[i] = '\0';
    return core_game_find(lower);
}

static int is_result(const char *tok)
{
    return strcmp(tok, "1-0") == 0 || strcmp(tok, "0-1") == 0 ||
           strcmp(tok, "1/2-1/2") == 0 || strcmp(tok, "*") == 0;
}

/* Skip a move number indication at the front of tok (digits, then any
 * number of periods: "12", "12.", "12...") and periods alone ("..." of
 * "12. ..."); returns what follows (may be empty). A token that only
 * begins with digits and goes on otherwise ("9-13") is a move. */
static const char *after_move_number(const char *tok)
{
    const char *p = tok;
    while (isdigit((unsigned char)*p))
        p++;
    if (p > tok && *p != '\0' && *p != '.')
        return tok;
    while (*p == '.')
        p++;
    return p;
}

/* Read one movetext token (up to a blank, comment or variation) into
 * tok[0..CORE_INPUT_MAX]. */
static int read_token(Reader *r, Proto_Record_Report *rep, char *tok)
{
    size_t n = 0;
    while (r->p < r->end && !isspace((unsigned char)*r->p) && *r->p != '{' &&
           *r->p != ';' && *r->p != '(') {
        if (n == CORE_INPUT_MAX)
            return fail(rep, TB_E_TOOLONG, r, "token too long");
        tok[n++] = *r->p++;
    }
    tok[n] = '\0';
    return 0;
}

/* A token that is or starts with a move number indication ("12",
 * "12.", "12...", "3.c3-d4", "..."). */
static int is_move_number(const char *tok)
{
    return after_move_number(tok) != tok;
}

/*
 * Some games write one move as several words: Chess volleyball's
 * "S Bc3-d2>g5", Football chess's turn "d1-d6 d6*h2 h1*f3" (a move, then
 * kicks; every prefix may itself be a legal turn). After the word text,
 * try it joined with the following words (up to JOIN_WORDS, stopping at a
 * move number, a result or a new tag section) and keep the longest join
 * that is a legal move: maximal munch (gap G-PR-6). On success the words
 * used are consumed, *mv is the move and best (CORE_INPUT_MAX + 1 bytes)
 * its text; returns 0, or TB_E_NOTATION when no join is legal (the reader
 * is then unchanged).
 */
#define JOIN_WORDS 8
static int longest_move(Reader *r, const Core_Position *pos, const char *text,
                        Core_Move *mv, char *best)
{
    Reader look = *r, found = *r;
    Proto_Record_Report scratch;
    char joined[CORE_INPUT_MAX + 1], next[CORE_INPUT_MAX + 1];
    size_t len = strlen(text);
    int ok = 0;

    memcpy(joined, text, len + 1);
    for (int k = 0; k < JOIN_WORDS; k++) {
        Core_Move m;
        size_t b;
        if (skip_space(&look, &scratch) != 0 || look.p == look.end ||
            *look.p == '[' || read_token(&look, &scratch, next) != 0 ||
            is_result(next) || is_move_number(next))
            break;
        b = strlen(next);
        if (b == 0 || len + 1 + b > CORE_INPUT_MAX)
            break;
        joined[len] = ' ';
        memcpy(joined + len + 1, next, b + 1);
        len += 1 + b;
        if (core_move_parse(pos, joined, &m) == 0) {
            *mv = m;
            memcpy(best, joined, len + 1);
            found = look;
            ok = 1;
        }
    }
    if (!ok)
        return TB_E_NOTATION;
    *r = found;
    return 0;
}

/* Set up the position the tags describe. */
static int setup(Reader *r, Proto_Record_Report *rep, const Core_Game *game,
                 Core_Position **pos)
{
    const char *name = proto_record_tag(rep, "Game");
    const char *opts = proto_record_tag(rep, "Options");
    const char *start = proto_record_tag(rep, "Position");
    char why[128] = "";
    int rc;

    if (name == NULL)
        name = proto_record_tag(rep, "Variant");
    if (name != NULL) {
        game = find_game(name);
        if (game == NULL)
            return fail(rep, TB_E_GAME, r, "unknown game '%s'", name);
    }
    if (game == NULL)
        return fail(rep, TB_E_GAME, r, "no Game tag names the game (give one)");
    rep->game = game;
    if (start == NULL)
        start = proto_record_tag(rep, "FEN");
    rc = core_position_new(pos, game, opts);
    if (rc != 0)
        return fail(rep, rc, r, "bad Options tag '%s'", opts ? opts : "");
    if (start != NULL) {
        rc = core_position_parse(*pos, start, why, sizeof why);
        if (rc != 0)
            return fail(rep, rc, r, "bad Position tag: %s", why);
    }
    return 0;
}

int proto_record_read(const char *text, size_t len, const Core_Game *game,
                      Proto_Record_Visit visit, void *ctx, Core_Position **out,
                      Proto_Record_Report *rep)
{
    Reader r = {text, text + len, text, 1};
    Core_Position *pos = NULL;
    const char *stated = NULL;
    int rc = 0;

    memset(rep, 0, sizeof *rep);
    if (out != NULL)
        *out = NULL;
    /* A UTF-8 byte-order mark, as ChessBase and others write. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        r.p += 3, r.start += 3;
    /* Tag section. */
    for (;;) {
        rc = skip_space(&r, rep);
        if (rc != 0)
            return rc;
        if (r.p == r.end || *r.p != '[')
            break;
        rc = read_tag(&r, rep);
        if (rc != 0)
            return rc;
    }
    rc = setup(&r, rep, game, &pos);
    if (rc != 0)
        goto done;
    /* Movetext. */
    for (;;) {
        char tok[CORE_INPUT_MAX + 1], joined[CORE_INPUT_MAX + 1];
        Core_Move mv;

        rc = skip_space(&r, rep);
        if (rc != 0)
            goto done;
        if (r.p == r.end || (*r.p == '[' && at_bol(&r)))
            break; /* the end, or a second game's tags */
        if (*r.p == '[' || *r.p == ']' || *r.p == '}' || *r.p == ')') {
            rep->ply = core_ply(pos) + 1;
            rc = fail(rep, TB_E_FORMAT, &r, "stray '%c' in the movetext",
                      *r.p);
            goto done;
        }
        rc = read_token(&r, rep, tok);
        if (rc != 0)
            goto done;
        if (is_result(tok)) {
            set_result(rep, tok);
            stated = rep->result;
            rc = skip_space(&r, rep);
            if (rc != 0)
                goto done;
            if (r.p != r.end && !(*r.p == '[' && at_bol(&r))) {
                rc = fail(rep, TB_E_FORMAT, &r, "moves after the result");
                goto done;
            }
            break;
        }
        /* Move numbers: "12", "12." or "12..." alone or glued to the
         * move, and the "..." of "12. ...". */
        char *mvtext = tok + (after_move_number(tok) - tok);
        /* Annotation glyphs after a move: "!", "?", "!?". */
        size_t ml = strlen(mvtext);
        while (ml > 0 && (mvtext[ml - 1] == '!' || mvtext[ml - 1] == '?'))
            mvtext[--ml] = '\0';
        if (ml == 0)
            continue;
        rep->ply = core_ply(pos) + 1;
        rc = core_move_parse(pos, mvtext, &mv);
        if (longest_move(&r, pos, mvtext, &mv, joined) == 0) {
            rc = 0;
            mvtext = joined;
        }
        int mover = core_side_to_move(pos);
        if (rc == 0)
            rc = core_play(pos, &mv);
        if (rc != 0) {
            fail(rep, rc, &r, "move '%s': %s%s%s", mvtext, tb_strerror(rc),
                 rc == TB_E_NOTATION ? "; expected " : "",
                 rc == TB_E_NOTATION ? core_game_move_hint(rep->game) : "");
            goto done;
        }
        if (visit != NULL)
            visit(ctx, pos, mover, &mv, mvtext);
    }
    const char *tag = proto_record_tag(rep, "Result");
    if (stated != NULL && tag != NULL && strcmp(tag, stated) != 0) {
        rc = fail(rep, TB_E_FORMAT, &r,
                  "the Result tag says %.16s; the movetext ends with %s",
                  tag, stated);
        goto done;
    }
    if (stated == NULL && tag != NULL) {
        set_result(rep, tag);
        stated = rep->result;
    }
    Core_Status st = core_status(pos);
    if (stated != NULL && strcmp(stated, "*") != 0 &&
        st.outcome != CORE_ONGOING &&
        strcmp(stated, core_outcome_name(st.outcome)) != 0) {
        rc = fail(rep, TB_E_FORMAT, &r,
                  "the record says %s; the board says %s (%s)", stated,
                  core_outcome_name(st.outcome), core_reason_name(st.reason));
    }
done:
    if (rc == 0 && out != NULL)
        *out = pos;
    else
        core_position_free(pos);
    return rc;
}
