/*
 * tourney_trf.c: FIDE's Tournament Report File, TRF-16 (FIDE Handbook
 * C.04 Annex 2), written from a tournament and read back into one
 * (club/tourney.h club_trf_write, club_trf_read). A read file is hostile
 * input: every byte is checked, and a refusal names its line and column.
 *
 * A 001 line by column (1-based): 1-3 "001", 5-8 starting rank, 10 sex,
 * 11-13 title, 15-47 name, 49-52 rating, 54-56 federation, 58-68 FIDE
 * number, 70-79 birth date, 81-84 points, 86-89 rank; then round k's
 * block at 92 + 10 (k-1): 4 columns of opponent, a blank, the colour
 * (w, b, -), a blank, the result code.
 */
#include <string.h>

#include "tb_error.h"
#include "tourney.h"
#include "tourney_internal.h"

/* Marks a refusal's phrase for the catalogue (scripts/po.sh reads this
 * file): the client shows it through _(), club/ knows no gettext. */
#define N_(s) s

/* Bytes of a line the reader takes (40 rounds need 491). */
#define LINE_MAX_BYTES 1024
/* Bytes of a name on a 001 line (columns 15-47). */
#define TRF_NAME 33

/* TRF code of each result. */
static const char code[] = {
    [CLUB_RES_ABSENT] = 'Z',       [CLUB_RES_PENDING] = ' ',
    [CLUB_RES_WIN] = '1',          [CLUB_RES_WIN_TIEBREAK] = '1',
    [CLUB_RES_DRAW] = '=',         [CLUB_RES_LOSS_TIEBREAK] = '0',
    [CLUB_RES_LOSS] = '0',         [CLUB_RES_FORFEIT_WIN] = '+',
    [CLUB_RES_FORFEIT_LOSS] = '-', [CLUB_RES_BYE_FULL] = 'F',
    [CLUB_RES_BYE_HALF] = 'H',     [CLUB_RES_BYE_PAIRING] = 'U'};

/* Half points (0..199) as the TRF's "11.5". */
static void trf_points(int h, char *buf)
{
    char *q = buf;
    int whole = h / 2;
    if (whole >= 10)
        *q++ = (char)('0' + whole / 10);
    *q++ = (char)('0' + whole % 10);
    *q++ = '.';
    *q++ = h % 2 ? '5' : '0';
    *q = '\0';
}

int club_trf_write(const Club_Tourney *t, const Club_Standing *s, char *out,
                   size_t size)
{
    if (t == NULL || s == NULL || out == NULL || size == 0)
        return TB_E_ARG;
    int points[CLUB_TOURNEY_MAX_PLAYERS], rank[CLUB_TOURNEY_MAX_PLAYERS];
    for (int i = 0; i < t->nplayers; i++) {
        int p = s[i].player;
        if (p < 1 || p > t->nplayers || s[i].points < 0 || s[i].points > 199 ||
            s[i].rank < 1 || s[i].rank > 9999)
            return TB_E_ARG;
        points[p - 1] = s[i].points;
        rank[p - 1] = s[i].rank;
    }
    Club_Out o = {out, size, 0, 0};
    out[0] = '\0';
    if (t->name[0] != '\0')
        club__put(&o, "012 %s\r\n", t->name);
    club__put(&o, "062 %d\r\nXXR %d\r\n", t->nplayers, t->nrounds);
    for (int i = 0; i < t->nplayers; i++) {
        const Club_Player *pl = &t->players[i];
        char pts[8], rating[8] = "    ";
        size_t chars = strlen(pl->name);
        /* cut at a whole UTF-8 character within the 33 columns */
        if (chars > TRF_NAME) {
            chars = TRF_NAME;
            while (chars > 0 && (pl->name[chars] & 0xc0) == 0x80)
                chars--;
        }
        trf_points(points[i], pts);
        club__put(&o, "001 %4d %4s ", i + 1, ""); /* sex, title */
        club__putn(&o, pl->name, chars);
        for (size_t k = chars; k < TRF_NAME; k++)
            club__putn(&o, " ", 1);
        if (pl->rating > 0)
            club__put(&o, " %4d", pl->rating);
        else
            club__put(&o, " %s", rating);
        /* federation, FIDE number, birth date: not kept */
        club__put(&o, " %3s %11s %10s %4s %4d", "", "", "", pts, rank[i]);
        for (int r = 0; r < t->nrounds; r++) {
            const Club_Game *g = &pl->games[r];
            char c = g->colour == CLUB_COLOUR_WHITE   ? 'w'
                     : g->colour == CLUB_COLOUR_BLACK ? 'b'
                                                      : '-';
            char res = g->result < sizeof code ? code[g->result] : 'Z';
            club__put(&o, "  %04d %c %c", g->opponent, c, res);
        }
        club__put(&o, "\r\n");
    }
    return club__out_end(&o);
}

/* The reader's place in the text. */
typedef struct Reader {
    Club_Tourney *t;
    Club_Trf_Error *err;
    int line;
    const char *s; /* the current line, without its end */
    size_t len;
} Reader;

static int fail(Reader *rd, int rc, int column, const char *why)
{
    rd->err->line = rd->line;
    rd->err->column = column;
    rd->err->why = why;
    return rc;
}

/* Columns from..to (1-based) of the line, clipped to its length. */
static size_t field(const Reader *rd, int from, int to, const char **p)
{
    size_t a = (size_t)from - 1, b = (size_t)to;
    if (a >= rd->len) {
        *p = rd->s + rd->len;
        return 0;
    }
    if (b > rd->len)
        b = rd->len;
    *p = rd->s + a;
    return b - a;
}

/* A number right or left in columns from..to, blanks around it: *v gets
 * it (-1 when the field is blank). Returns 0 or the column at fault. */
static int number(const Reader *rd, int from, int to, long max, long *v)
{
    const char *p;
    size_t n = field(rd, from, to, &p), i = 0;
    *v = -1;
    while (i < n && p[i] == ' ')
        i++;
    if (i == n)
        return 0;
    long x = 0;
    size_t start = i;
    while (i < n && p[i] >= '0' && p[i] <= '9') {
        x = x * 10 + (p[i] - '0');
        if (x > max)
            return from + (int)i;
        i++;
    }
    if (i == start)
        return from + (int)i;
    while (i < n && p[i] == ' ')
        i++;
    if (i != n)
        return from + (int)i;
    *v = x;
    return 0;
}

/* Points as "11.5", " 4.0" or "3": form only. Returns 0 or the column. */
static int points_form(const Reader *rd)
{
    const char *p;
    size_t n = field(rd, 81, 84, &p), i = 0;
    while (i < n && p[i] == ' ')
        i++;
    size_t digits = i;
    while (i < n && p[i] >= '0' && p[i] <= '9')
        i++;
    if (i == digits && i < n)
        return 81 + (int)i;
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || (p[i] != '0' && p[i] != '5'))
            return 81 + (int)i;
        i++;
    }
    return i == n ? 0 : 81 + (int)i;
}

static int blank(const Reader *rd, int column)
{
    return (size_t)column > rd->len || rd->s[column - 1] == ' ';
}

/* One round's block of a 001 line into g. Returns 0 or an error. */
static int read_round(Reader *rd, int player, int k, Club_Game *g)
{
    int c0 = 92 + 10 * k;
    long opp;
    if (!blank(rd, c0 - 2) || !blank(rd, c0 - 1))
        return fail(rd, TB_E_FORMAT, blank(rd, c0 - 2) ? c0 - 1 : c0 - 2,
                    N_("a round's block must start with two blanks"));
    int bad = number(rd, c0, c0 + 3, CLUB_TOURNEY_MAX_PLAYERS, &opp);
    if (bad)
        return fail(rd, TB_E_FORMAT, bad,
                    N_("not an opponent's starting rank"));
    if (!blank(rd, c0 + 4) || !blank(rd, c0 + 6))
        return fail(rd, TB_E_FORMAT, blank(rd, c0 + 4) ? c0 + 6 : c0 + 4,
                    N_("a blank column expected here"));
    char colour = blank(rd, c0 + 5) ? '-' : rd->s[c0 + 4];
    char res = blank(rd, c0 + 7) ? ' ' : rd->s[c0 + 6];
    if (res >= 'a' && res <= 'z')
        res = (char)(res - 'a' + 'A'); /* letter codes: any case */
    if (opp <= 0) {
        if (colour != '-')
            return fail(rd, TB_E_FORMAT, c0 + 5,
                        N_("a colour without an opponent"));
        g->opponent = 0;
        g->colour = CLUB_COLOUR_NONE;
        switch (res) {
        case 'H':
            g->result = CLUB_RES_BYE_HALF;
            break;
        case 'F':
            g->result = CLUB_RES_BYE_FULL;
            break;
        case 'U':
            g->result = CLUB_RES_BYE_PAIRING;
            break;
        case 'Z':
        case ' ':
        case '-':
            g->result = CLUB_RES_ABSENT;
            break;
        default:
            return fail(rd, TB_E_FORMAT, c0 + 7,
                        N_("a game's result without an opponent"));
        }
        return 0;
    }
    if (opp == player)
        return fail(rd, TB_E_FORMAT, c0, N_("a player paired with themself"));
    if (colour != 'w' && colour != 'b' && colour != 'W' && colour != 'B')
        return fail(rd, TB_E_FORMAT, c0 + 5,
                    N_("a game's colour must be w or b"));
    g->opponent = (uint16_t)opp;
    g->colour =
        colour == 'w' || colour == 'W' ? CLUB_COLOUR_WHITE : CLUB_COLOUR_BLACK;
    switch (res) {
    case '1':
    case 'W':
        g->result = CLUB_RES_WIN;
        break;
    case '=':
    case 'D':
        g->result = CLUB_RES_DRAW;
        break;
    case '0':
    case 'L':
        g->result = CLUB_RES_LOSS;
        break;
    case '+':
        g->result = CLUB_RES_FORFEIT_WIN;
        break;
    case '-':
        g->result = CLUB_RES_FORFEIT_LOSS;
        break;
    case ' ':
        g->result = CLUB_RES_PENDING;
        break;
    default:
        return fail(rd, TB_E_FORMAT, c0 + 7, N_("not a game's result code"));
    }
    return 0;
}

/* Bytes of s up to n, less blanks at the end. */
static size_t trim(const char *s, size_t n)
{
    while (n > 0 && s[n - 1] == ' ')
        n--;
    return n;
}

static int read_player(Reader *rd, int *line_of, int *rounds_seen)
{
    Club_Tourney *t = rd->t;
    long rank, v;
    int bad;
    /* Blanks at the end are no round: a column past the end reads as
     * blank, so a game without its result yet keeps its blank. */
    rd->len = trim(rd->s, rd->len);
    if (!blank(rd, 4))
        return fail(rd, TB_E_FORMAT, 4, N_("a blank column expected here"));
    if ((bad = number(rd, 5, 8, 9999, &rank)) != 0 || rank < 1)
        return fail(rd, TB_E_FORMAT, bad ? bad : 5,
                    N_("not a starting rank (1 and up)"));
    if (rank > CLUB_TOURNEY_MAX_PLAYERS)
        return fail(rd, TB_E_LIMIT, 5,
                    N_("more players than a tournament holds"));
    if (line_of[rank - 1] != 0)
        return fail(rd, TB_E_FORMAT, 5, N_("a starting rank given twice"));
    Club_Player *pl = &t->players[rank - 1];
    memset(pl, 0, sizeof *pl);
    const char *p;
    size_t n = trim(rd->s, rd->len > 47 ? 47 : rd->len);
    n = n > 14 ? n - 14 : 0;
    p = rd->s + 14;
    while (n > 0 && *p == ' ') {
        p++;
        n--;
    }
    if (n == 0)
        return fail(rd, TB_E_FORMAT, 15, N_("a player without a name"));
    memcpy(pl->name, p, n);
    pl->name[n] = '\0';
    if ((bad = number(rd, 49, 52, 9999, &v)) != 0)
        return fail(rd, TB_E_FORMAT, bad, N_("not a rating"));
    pl->rating = v < 0 ? 0 : (int)v;
    /* the blanks between the fields; sex, title, federation, FIDE
     * number and birth date are not kept, any text passes */
    static const int gaps[] = {9, 14, 48, 53, 57, 69, 80, 85};
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++)
        if (!blank(rd, gaps[g]))
            return fail(rd, TB_E_FORMAT, gaps[g],
                        N_("a blank column expected here"));
    if ((bad = points_form(rd)) != 0)
        return fail(rd, TB_E_FORMAT, bad, N_("points are written as 11.5"));
    if ((bad = number(rd, 86, 89, 9999, &v)) != 0)
        return fail(rd, TB_E_FORMAT, bad, N_("not a rank"));
    int k = 0;
    for (; (size_t)(90 + 10 * k) <= rd->len; k++) {
        if (k >= CLUB_TOURNEY_MAX_ROUNDS)
            return fail(rd, TB_E_LIMIT, 92 + 10 * k,
                        N_("more rounds than a tournament holds"));
        int rc = read_round(rd, (int)rank, k, &pl->games[k]);
        if (rc != 0)
            return rc;
    }
    line_of[rank - 1] = rd->line;
    if (k > *rounds_seen)
        *rounds_seen = k;
    if ((int)rank > t->nplayers)
        t->nplayers = (int)rank;
    return 0;
}

/* Every game as its opponent has it: the same round, the other colour,
 * the mirrored result; at most one pairing-allocated bye a round. */
static int check_games(Reader *rd, const int *line_of)
{
    Club_Tourney *t = rd->t;
    for (int r = 0; r < t->nrounds; r++) {
        int byes = 0;
        for (int i = 0; i < t->nplayers; i++) {
            const Club_Game *g = &t->players[i].games[r];
            rd->line = line_of[i];
            if (g->result == CLUB_RES_BYE_PAIRING && ++byes > 1)
                return fail(rd, TB_E_FORMAT, 99 + 10 * r,
                            N_("a second pairing-allocated bye in a round"));
            if (g->opponent == 0)
                continue;
            if (g->opponent > t->nplayers)
                return fail(rd, TB_E_FORMAT, 92 + 10 * r,
                            N_("an opponent who is not a player"));
            const Club_Game *o = &t->players[g->opponent - 1].games[r];
            if (o->opponent != i + 1)
                return fail(rd, TB_E_FORMAT, 92 + 10 * r,
                            N_("the opponent's line names someone else"));
            if (o->colour == g->colour)
                return fail(rd, TB_E_FORMAT, 97 + 10 * r,
                            N_("both players have the same colour"));
            /* (a double forfeit: both lost, '-' on both lines) */
            if (o->result != club__mirror(g->result) &&
                !(o->result == CLUB_RES_FORFEIT_LOSS &&
                  g->result == CLUB_RES_FORFEIT_LOSS))
                return fail(rd, TB_E_FORMAT, 99 + 10 * r,
                            N_("the opponent's line has another result"));
        }
    }
    return 0;
}

int club_trf_read(Club_Tourney *t, const char *text, size_t len,
                  Club_Trf_Error *err)
{
    Club_Trf_Error ignored;
    if (err == NULL)
        err = &ignored;
    err->line = 0;
    err->column = 0;
    err->why = "";
    if (t == NULL || (text == NULL && len > 0))
        return TB_E_ARG;
    memset(t, 0, sizeof *t);
    Reader rd = {t, err, 0, NULL, 0};
    int line_of[CLUB_TOURNEY_MAX_PLAYERS] = {0};
    int rounds_seen = 0, xxr = -1;
    size_t at = 0;
    while (at < len) {
        size_t end = at;
        while (end < len && text[end] != '\n' && text[end] != '\r')
            end++;
        rd.line++;
        rd.s = text + at;
        rd.len = end - at;
        at = end < len ? end + 1 : end; /* \n, \r or \r\n */
        if (end < len && text[end] == '\r' && at < len && text[at] == '\n')
            at++;
        if (rd.len > LINE_MAX_BYTES)
            return fail(&rd, TB_E_LIMIT, LINE_MAX_BYTES + 1,
                        N_("a line longer than 1024 bytes"));
        size_t bad = club__text_bad(rd.s, rd.len);
        if (bad != rd.len)
            return fail(&rd, TB_E_FORMAT, (int)bad + 1,
                        N_("a control character or malformed UTF-8"));
        if (trim(rd.s, rd.len) == 0)
            continue;
        if (rd.len < 3)
            return fail(&rd, TB_E_FORMAT, 1, N_("a line shorter than its tag"));
        if (memcmp(rd.s, "001", 3) == 0) {
            int rc = read_player(&rd, line_of, &rounds_seen);
            if (rc != 0)
                return rc;
        } else if (memcmp(rd.s, "012", 3) == 0) {
            /* (the blank also keeps the name a whole UTF-8 text) */
            if (!blank(&rd, 4))
                return fail(&rd, TB_E_FORMAT, 4,
                            N_("a blank column expected here"));
            const char *p;
            size_t n = trim(p = rd.s, rd.len);
            n = n > 4 ? n - 4 : 0;
            p += 4;
            if (n > CLUB_NAME_MAX) { /* cut at a whole character */
                n = CLUB_NAME_MAX;
                while (n > 0 && (p[n] & 0xc0) == 0x80)
                    n--;
            }
            memcpy(t->name, p, n);
            t->name[n] = '\0';
        } else if (memcmp(rd.s, "XXR", 3) == 0) {
            long v;
            int col = number(&rd, 4, (int)rd.len, CLUB_TOURNEY_MAX_ROUNDS, &v);
            if (col != 0 || v < 0)
                return fail(&rd, TB_E_FORMAT, col ? col : 5,
                            N_("XXR wants the number of rounds (0..40)"));
            xxr = (int)v;
        }
        /* ### comments and the other tags carry nothing kept here */
    }
    for (int i = 0; i < t->nplayers; i++)
        if (line_of[i] == 0) {
            rd.line = 0;
            return fail(&rd, TB_E_FORMAT, 0,
                        N_("starting ranks must run 1..n without a gap"));
        }
    if (t->nplayers == 0) {
        rd.line = 0;
        return fail(&rd, TB_E_FORMAT, 0, N_("no player (001) line"));
    }
    for (int i = 0; xxr >= 0 && i < t->nplayers; i++)
        for (int r = xxr; r < rounds_seen; r++)
            if (t->players[i].games[r].opponent != 0 ||
                t->players[i].games[r].result != CLUB_RES_ABSENT) {
                rd.line = line_of[i];
                return fail(&rd, TB_E_FORMAT, 92 + 10 * r,
                            N_("a round past the XXR count"));
            }
    t->nrounds = xxr >= 0 ? xxr : rounds_seen;
    return check_games(&rd, line_of);
}
