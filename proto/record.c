/*
 * record.c: plain game records, read as PGN's import format is (the
 * standard's section 3.1) and as python-chess's read_game tokenises
 * movetext (chess/pgn.py, MOVETEXT_REGEX): a UTF-8 byte-order mark, LF,
 * CRLF or lone CR line ends, escape lines starting with '%', tag lines
 * `[Name "value"]` (python-chess's name characters, \" and \\ escapes,
 * and a bare quote inside a value as python-chess takes it), then
 * movetext with move number indications in any written form ("12", "12.",
 * "12...", "12. ...", glued to the move or not), moves in any notation the
 * game's parser accepts (for Laska the lasca.org style "c3-d4",
 * "b2xd4xf6", and whatever else its parser reads), brace and rest-of-line
 * comments, NAGs, annotation glyphs, null moves (the game's pass, where it
 * has one), variations and a result. There are no signatures to check:
 * every move must be legal, side lines included (each from the position
 * before the move it replaces); the Result tag must agree with the
 * movetext's result, and a finished board with both. Nothing is skipped
 * silently: a record verifies whole or fails at a line, column and ply;
 * where python-chess skips what it cannot read, this reader refuses it.
 * Only the first game of a file is read, and the report says where a
 * second one begins.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto_internal.h"

typedef struct Reader {
    const char *p;
    const char *end;
    const char *start;
    const char *bol; /* the first byte of the current line */
    uint32_t line;
} Reader;

/* A place in the text, to name in a failure: its line and where the
 * line begins (for the column). */
typedef struct Mark {
    const char *p;
    const char *bol;
    uint32_t line;
} Mark;

static Mark mark(const Reader *r)
{
    Mark m = {r->p, r->bol, r->line};
    return m;
}

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
    r->bol = r->p;
}

/* At the first column of a line. */
static int at_bol(const Reader *r)
{
    return r->p == r->bol;
}

/* Only blanks before r->p on its line (a tag line may be indented). */
static int at_line_head(const Reader *r)
{
    for (const char *q = r->bol; q < r->p; q++)
        if (*q != ' ' && *q != '\t')
            return 0;
    return 1;
}

/* Step to the end of the line (not over it). */
static void skip_line(Reader *r)
{
    while (r->p < r->end && !at_eol(r))
        r->p++;
}

/* 1-based column of m: characters (UTF-8 sequences; a tab is one) from
 * the start of its line. */
static uint32_t column(const Mark *m)
{
    uint32_t col = 1;
    for (const char *q = m->bol; q < m->p; q++)
        if (((unsigned char)*q & 0xc0) != 0x80)
            col++;
    return col;
}

static int vfail(Proto_Record_Report *rep, int err, const Mark *m,
                 const char *fmt, va_list ap)
{
    rep->err = err;
    rep->line = m->line;
    rep->col = column(m);
    vsnprintf(rep->why, sizeof rep->why, fmt, ap);
    return err;
}

static int fail_at(Proto_Record_Report *rep, int err, const Mark *m,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail_at(Proto_Record_Report *rep, int err, const Mark *m,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(rep, err, m, fmt, ap);
    va_end(ap);
    return err;
}

/* A failure where the reader stands. */
static int fail(Proto_Record_Report *rep, int err, const Reader *r,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(Proto_Record_Report *rep, int err, const Reader *r,
                const char *fmt, ...)
{
    Mark m = mark(r);
    va_list ap;
    va_start(ap, fmt);
    vfail(rep, err, &m, fmt, ap);
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
 * column), brace and semicolon comments and NAGs ("$12"). Variations are
 * the caller's. */
static int skip_space(Reader *r, Proto_Record_Report *rep)
{
    while (r->p < r->end) {
        char c = *r->p;
        if (at_eol(r)) {
            eat_eol(r);
        } else if (c == '%' && at_bol(r)) {
            skip_line(r);
        } else if (c == '{') {
            Mark opened = mark(r);
            while (r->p < r->end && *r->p != '}') {
                if (at_eol(r))
                    eat_eol(r);
                else
                    r->p++;
            }
            if (r->p == r->end)
                return fail_at(rep, TB_E_FORMAT, &opened,
                               "comment opened with '{' never closed");
            r->p++;
        } else if (c == ';') {
            skip_line(r);
        } else if (isspace((unsigned char)c) || c == '\0') {
            r->p++;
        } else if (c == '$') {
            Mark nag = mark(r);
            r->p++;
            if (r->p == r->end || !isdigit((unsigned char)*r->p))
                return fail_at(rep, TB_E_FORMAT, &nag,
                               "'$' without a number (a NAG is '$' and "
                               "digits, as $1)");
            while (r->p < r->end && isdigit((unsigned char)*r->p))
                r->p++;
        } else {
            break;
        }
    }
    return 0;
}

/* A character of a tag name after the first (python-chess's set). */
static int tag_name_char(char c)
{
    return isalnum((unsigned char)c) || (c != '\0' && strchr("_+#=:-", c));
}

/* At a '"' that closes a tag value: blanks and ']' follow. A quote that
 * does not is part of the value, as python-chess reads [Event "a "b""]. */
static int closes_value(const Reader *r)
{
    const char *q = r->p + 1;
    while (q < r->end && (*q == ' ' || *q == '\t'))
        q++;
    return q < r->end && *q == ']';
}

/* Read a tag pair `[Name "value"]` at r->p; in the value \" and \\ stand
 * for " and \. */
static int read_tag(Reader *r, Proto_Record_Report *rep)
{
    Mark open = mark(r);
    Proto_Tag *tag;
    size_t n = 0;

    if (rep->ntags == PROTO_TAGS_MAX)
        return fail(rep, TB_E_TOOLONG, r, "more than %d tags", PROTO_TAGS_MAX);
    tag = &rep->tags[rep->ntags];
    r->p++; /* '[' */
    while (r->p < r->end && *r->p == ' ')
        r->p++;
    while (r->p < r->end &&
           (n == 0 ? isalnum((unsigned char)*r->p) : tag_name_char(*r->p))) {
        if (n == PROTO_TAG_NAME_MAX)
            return fail(rep, TB_E_TOOLONG, r, "tag name longer than %d bytes",
                        PROTO_TAG_NAME_MAX);
        tag->name[n++] = *r->p++;
    }
    tag->name[n] = '\0';
    if (n == 0)
        return fail(rep, TB_E_FORMAT, r,
                    "bad tag line: a tag name (letters, digits) must follow "
                    "'['");
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
        r->p++;
    if (r->p == r->end || *r->p != '"')
        return fail(rep, TB_E_FORMAT, r,
                    "bad tag line: a value in quotes must follow the tag "
                    "name %s",
                    tag->name);
    r->p++;
    n = 0;
    while (r->p < r->end && !at_eol(r) && !(*r->p == '"' && closes_value(r))) {
        char c = *r->p++;
        /* \" is a quote unless it ends the value: [Site "C:\"] */
        if (c == '\\' && r->p < r->end &&
            (*r->p == '\\' || (*r->p == '"' && !closes_value(r))))
            c = *r->p++;
        if (n == PROTO_TAG_VALUE_MAX)
            return fail(rep, TB_E_TOOLONG, r,
                        "value of tag %s longer than %d bytes", tag->name,
                        PROTO_TAG_VALUE_MAX);
        tag->value[n++] = c;
    }
    tag->value[n] = '\0';
    if (r->p == r->end || *r->p != '"')
        return fail_at(rep, TB_E_FORMAT, &open,
                       "tag %s: the value's closing '\"]' is missing on its "
                       "line",
                       tag->name);
    r->p++;
    while (*r->p != ']') /* blanks: closes_value saw the ']' */
        r->p++;
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

/* Read one movetext token (up to a blank, comment, NAG or either
 * parenthesis, as python-chess ends one) into tok[0..CORE_INPUT_MAX]. */
static int read_token(Reader *r, Proto_Record_Report *rep, char *tok)
{
    size_t n = 0;
    while (r->p < r->end && !isspace((unsigned char)*r->p) &&
           strchr("{;()$", *r->p) == NULL) {
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
        while (b > 0 && (next[b - 1] == '!' || next[b - 1] == '?'))
            next[--b] = '\0'; /* "h1*f3!?": glyphs end the last word */
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

/* Null-move tokens of other programs (python-chess reads all four). */
static int is_null_move(const char *tok)
{
    return strcmp(tok, "--") == 0 || strcmp(tok, "Z0") == 0 ||
           strcmp(tok, "0000") == 0 || strcmp(tok, "@@@@") == 0;
}

/* The game's own turn without a move, standing for a null move: the one
 * legal move written "pass" or ending in " pass" (Football chess's
 * "pass", Chess volleyball's "C pass"). Returns 0 with *mv, TB_E_ILLEGAL
 * when no such move is legal (Laska has none), TB_E_NOMEM. */
static int pass_move(const Core_Position *pos, Core_Move *mv)
{
    size_t max = core_game_max_moves(core_position_game(pos)), n = 0;
    Core_Move *all = malloc(max * sizeof *all);
    int rc = TB_E_ILLEGAL;

    if (all == NULL)
        return TB_E_NOMEM;
    if (core_moves(pos, all, max, &n) != 0)
        n = 0;
    for (size_t i = 0; i < n && rc != 0; i++) {
        char text[CORE_NOTATION_MAX];
        size_t len;
        if (core_move_format(pos, &all[i], text, sizeof text) != 0)
            continue;
        len = strlen(text);
        if (strcmp(text, "pass") == 0 ||
            (len > 5 && strcmp(text + len - 5, " pass") == 0)) {
            *mv = all[i];
            rc = 0;
        }
    }
    free(all);
    return rc;
}

/* Deepest nesting of variations; each level holds two positions. */
#define VARIATION_DEPTH_MAX 32

/* The reading of one game's movetext. */
typedef struct Movetext {
    Reader r;
    Proto_Record_Report *rep;
    Proto_Record_Visit visit; /* main line only */
    void *ctx;
    const char *stated; /* the movetext's result, or NULL */
    Mark result_at;     /* where it stands */
    /* The token being read and its join with the words after it: here,
     * not in each nested read_line's frame. */
    char tok[CORE_INPUT_MAX + 1];
    char joined[CORE_INPUT_MAX + 1];
} Movetext;

/* One line of play: the main line or a variation. */
typedef struct Line {
    Core_Position *pos;    /* after the line's moves so far */
    Core_Position *before; /* before its last move, when has_before */
    int has_before;
    int depth;   /* 0 for the main line */
    Mark opened; /* the '(' of a variation */
} Line;

static int read_line(Movetext *mt, Line *ln);

/* A variation at mt->r.p ('('): its moves replace the line's last move,
 * so they are checked from the position before it; read to its ')'. */
static int read_variation(Movetext *mt, Line *ln)
{
    Line var = {NULL, NULL, 0, ln->depth + 1, mark(&mt->r)};
    int rc;

    if (!ln->has_before)
        return fail(mt->rep, TB_E_FORMAT, &mt->r,
                    "variation before any move: '(' must follow the move "
                    "it replaces");
    if (var.depth > VARIATION_DEPTH_MAX)
        return fail(mt->rep, TB_E_TOOLONG, &mt->r,
                    "variations nested deeper than %d", VARIATION_DEPTH_MAX);
    var.pos = core_position_clone(ln->before);
    var.before = core_position_clone(ln->before);
    if (var.pos == NULL || var.before == NULL) {
        rc = fail(mt->rep, TB_E_NOMEM, &mt->r, "out of memory");
        goto done;
    }
    mt->r.p++; /* '(' */
    rc = read_line(mt, &var);
done:
    core_position_free(var.pos);
    core_position_free(var.before);
    return rc;
}

/* After the result of the main line: nothing but the end of the text,
 * or a second game's tags. */
static int after_result(Movetext *mt)
{
    int rc = skip_space(&mt->r, mt->rep);
    if (rc != 0)
        return rc;
    if (mt->r.p == mt->r.end)
        return 0;
    if (*mt->r.p == '[' && at_line_head(&mt->r)) {
        mt->rep->next_game = mt->r.line;
        return 0;
    }
    return fail(mt->rep, TB_E_FORMAT, &mt->r,
                "moves after the result (a second game must begin with its "
                "tags)");
}

/* Read and check the moves of ln up to the end of the text or a second
 * game's tags (the main line) or its ')' (a variation). */
static int read_line(Movetext *mt, Line *ln)
{
    Reader *r = &mt->r;
    Proto_Record_Report *rep = mt->rep;
    const char *in_var = ln->depth > 0 ? " in a variation" : "";

    for (;;) {
        char *tok = mt->tok, *joined = mt->joined;
        Core_Move mv;
        Mark at;
        int rc;

        rc = skip_space(r, rep);
        if (rc != 0)
            return rc;
        at = mark(r);
        if (r->p == r->end || (*r->p == '[' && at_line_head(r))) {
            if (ln->depth > 0) {
                rep->ply = core_ply(ln->pos) + 1;
                return fail_at(rep, TB_E_FORMAT, &ln->opened,
                               "variation opened with '(' never closed");
            }
            if (r->p != r->end)
                rep->next_game = r->line;
            return 0; /* the end, or a second game's tags */
        }
        if (*r->p == '(') {
            rc = read_variation(mt, ln);
            if (rc != 0)
                return rc;
            continue;
        }
        if (*r->p == ')' && ln->depth > 0) {
            r->p++;
            return 0;
        }
        if (strchr("[]})", *r->p) != NULL) {
            rep->ply = core_ply(ln->pos) + 1;
            return fail(rep, TB_E_FORMAT, r, "stray '%c' in the movetext%s",
                        *r->p, in_var);
        }
        rc = read_token(r, rep, tok);
        if (rc != 0)
            return rc;
        if (is_result(tok)) {
            if (ln->depth > 0)
                return fail_at(rep, TB_E_FORMAT, &at,
                               "result %s inside a variation", tok);
            set_result(rep, tok);
            mt->stated = rep->result;
            mt->result_at = at;
            return after_result(mt);
        }
        /* Move numbers: "12", "12." or "12..." alone or glued to the
         * move, and the "..." of "12. ..." (but "0000" is a null move). */
        char *mvtext =
            is_null_move(tok) ? tok : tok + (after_move_number(tok) - tok);
        /* Annotation glyphs after a move: "!", "?", "!!", "!?"... */
        size_t ml = strlen(mvtext);
        while (ml > 0 && (mvtext[ml - 1] == '!' || mvtext[ml - 1] == '?'))
            mvtext[--ml] = '\0';
        if (ml == 0)
            continue;
        at.p += mvtext - tok; /* the move, after a glued number */
        rep->ply = core_ply(ln->pos) + 1;
        if (is_null_move(mvtext)) {
            rc = pass_move(ln->pos, &mv);
            if (rc != 0)
                return fail_at(rep, rc, &at, "null move '%s'%s: %s", mvtext,
                               in_var,
                               rc == TB_E_ILLEGAL
                                   ? "the game has no null move, and no turn "
                                     "without a move (pass) is legal here"
                                   : tb_strerror(rc));
        } else {
            rc = core_move_parse(ln->pos, mvtext, &mv);
            if (longest_move(r, ln->pos, mvtext, &mv, joined) == 0) {
                rc = 0;
                mvtext = joined;
            }
        }
        int mover = core_side_to_move(ln->pos);
        if (rc == 0) {
            rc = core_position_copy(ln->before, ln->pos);
            ln->has_before = rc == 0;
        }
        if (rc == 0)
            rc = core_play(ln->pos, &mv);
        if (rc != 0)
            return fail_at(
                rep, rc, &at, "move '%s'%s: %s%s%s", mvtext, in_var,
                tb_strerror(rc), rc == TB_E_NOTATION ? "; expected " : "",
                rc == TB_E_NOTATION ? core_game_move_hint(rep->game) : "");
        if (mt->visit != NULL && ln->depth == 0)
            mt->visit(mt->ctx, ln->pos, mover, &mv, mvtext);
    }
}

int proto_record_read(const char *text, size_t len, const Core_Game *game,
                      Proto_Record_Visit visit, void *ctx, Core_Position **out,
                      Proto_Record_Report *rep)
{
    Movetext mt = {.r = {text, text + len, text, text, 1},
                   .rep = rep,
                   .visit = visit,
                   .ctx = ctx};
    Reader *r = &mt.r;
    Line main_line = {NULL, NULL, 0, 0, {text, text, 1}};
    int rc = 0;

    memset(rep, 0, sizeof *rep);
    if (out != NULL)
        *out = NULL;
    /* A UTF-8 byte-order mark, as ChessBase and others write. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        r->p += 3, r->start += 3, r->bol += 3;
    /* Tag section. */
    for (;;) {
        rc = skip_space(r, rep);
        if (rc != 0)
            return rc;
        if (r->p == r->end || *r->p != '[')
            break;
        rc = read_tag(r, rep);
        if (rc != 0)
            return rc;
    }
    rc = setup(r, rep, game, &main_line.pos);
    if (rc != 0)
        goto done;
    main_line.before = core_position_clone(main_line.pos);
    if (main_line.before == NULL) {
        rc = fail(rep, TB_E_NOMEM, r, "out of memory");
        goto done;
    }
    /* Movetext. */
    rc = read_line(&mt, &main_line);
    if (rc != 0)
        goto done;
    const char *tag = proto_record_tag(rep, "Result");
    Mark res = mt.stated != NULL ? mt.result_at : mark(r);
    if (mt.stated != NULL && tag != NULL && strcmp(tag, mt.stated) != 0) {
        rc = fail_at(rep, TB_E_FORMAT, &res,
                     "the Result tag says %.16s; the movetext ends with %s",
                     tag, mt.stated);
        goto done;
    }
    if (mt.stated == NULL && tag != NULL) {
        set_result(rep, tag);
        mt.stated = rep->result;
    }
    Core_Status st = core_status(main_line.pos);
    if (mt.stated != NULL && strcmp(mt.stated, "*") != 0 &&
        st.outcome != CORE_ONGOING &&
        strcmp(mt.stated, core_outcome_name(st.outcome)) != 0) {
        rc =
            fail_at(rep, TB_E_FORMAT, &res,
                    "the record says %s; the board says %s (%s)", mt.stated,
                    core_outcome_name(st.outcome), core_reason_name(st.reason));
    }
done:
    core_position_free(main_line.before);
    if (rc == 0 && out != NULL)
        *out = main_line.pos;
    else
        core_position_free(main_line.pos);
    return rc;
}
