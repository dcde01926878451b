/*
 * cli_util.c: helpers every command shares: finding a game by name with
 * an error message that names the bad token, untrusted text made
 * printable, and a monotonic clock (the start position of a command is
 * cli_position.c's).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "cli.h"
#include "i18n.h"
#include "proto.h"

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

const char cli_letters_help[] =
    N_("--letters shows the board's pieces as letters (capitals White), not\n"
       "chess figurines; so does a terminal whose character set is not UTF-8.\n");

const Core_Game *cli_game(const char *cmd, const char *name)
{
    /* Game names are small letters; "Laska" is what people type too. */
    char lower[32];
    size_t n = 0;
    for (; name[n] != '\0' && n + 1 < sizeof lower; n++)
        lower[n] = name[n] >= 'A' && name[n] <= 'Z' ? (char)(name[n] + 32)
                                                    : name[n];
    lower[n] = '\0';
    const Core_Game *g = name[n] == '\0' ? core_game_find(lower) : NULL;
    if (g != NULL)
        return g;
    fprintf(stderr, _("tabula %s: unknown game '%s'; expected one of:"), cmd,
            cli_token(name));
    for (size_t i = 0; i < core_game_count(); i++)
        fprintf(stderr, " %s", core_game_name(core_game_at(i)));
    fprintf(stderr, "\n");
    return NULL;
}

static char program[CLI_PROGRAM_MAX + 1] = "tabula";

void cli_program_set(const char *argv0)
{
    size_t n = argv0 != NULL ? strlen(argv0) : 0;
    if (n == 0 || n > CLI_PROGRAM_MAX || argv0[0] == '/')
        return;
    for (size_t i = 0; i < n; i++)
        if (argv0[i] <= 0x20 || argv0[i] >= 0x7f || argv0[i] == '\'' ||
            argv0[i] == '"' || argv0[i] == '\\')
            return;
    memcpy(program, argv0, n + 1);
}

const char *cli_program(void) { return program; }

const char *cli_token(const char *s)
{
    static char ring[4][64];
    static unsigned next;
    char *out = ring[next++ % 4];
    size_t n = 0;

    /* A tab shows as the space it separates like. */
    for (; s[n] != '\0' && n < 60; n++)
        out[n] = s[n] == '\t'                    ? ' '
                 : (s[n] >= 0x20 && s[n] < 0x7f) ? s[n]
                                                 : '?';
    if (s[n] != '\0') {
        memcpy(out + 57, "...", 3);
        n = 60;
    }
    out[n] = '\0';
    return out;
}

/* Length of the well-formed UTF-8 character at p (at most n bytes, n
 * >= 1) and its code point in *cp; 0 when malformed, overlong or a
 * surrogate. */
static size_t utf8_char(const unsigned char *p, size_t n, uint32_t *cp)
{
    size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 0;
    uint32_t c;

    if (p[0] >= 0xf5 || len == 0 || len > n)
        return 0;
    c = p[0] & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (p[i] & 0x3fu);
    }
    if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
        (len == 4 && c < 0x10000) || c > 0x10ffff ||
        (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

/* Code points a terminal acts on instead of showing: C1 controls and
 * the bidirectional marks that reorder what follows. */
static int unsafe_code_point(uint32_t c)
{
    return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f ||
           c == 0x061c;
}

char *cli_trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\r\n", s[n - 1]) != NULL)
        s[--n] = '\0';
    return s + strspn(s, " \t\r\n");
}

char *cli_printable(const char *s, char *out, size_t cap)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0, o = 0;

    while (i < n) {
        uint32_t cp = 0;
        size_t len = 1;
        const char *put = NULL;
        char one[1];

        if (p[i] == '\t') {
            one[0] = ' ';
        } else if (p[i] < 0x20 || p[i] == 0x7f) {
            one[0] = '?';
        } else if (p[i] < 0x80) {
            one[0] = (char)p[i];
        } else {
            len = utf8_char(p + i, n - i, &cp);
            if (len == 0 || unsafe_code_point(cp)) {
                one[0] = '?';
                len = len ? len : 1;
            } else {
                put = s + i;
            }
        }
        size_t w = put != NULL ? len : 1;
        if (o + w + 1 > cap)
            break;
        memcpy(out + o, put != NULL ? put : one, w);
        o += w;
        i += len;
    }
    out[o] = '\0';
    return out;
}

int cli_uint(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v;
    if (core_read_uint_all(text, strlen(text), hi, &v) != 0 || v < lo)
        return -1;
    *out = v;
    return 0;
}

int cli_seed(const char *cmd, const char *text, uint64_t *out)
{
    if (cli_uint(text, 0, UINT64_MAX, out) == 0)
        return 0;
    fprintf(stderr, _("tabula %s: bad seed '%s'; expected a whole number "
                    "0..18446744073709551615\n"), cmd, cli_token(text));
    return -1;
}

int cli_options_check(const char *cmd, const Core_Game *g, const char *opts,
                      const char *shown)
{
    Core_Position *probe = NULL;
    int err = core_position_new(&probe, g, opts);
    core_position_free(probe);
    if (err != 0)
        fprintf(stderr,
                _("tabula %s: bad options '%s' for %s: %s (see "
                  "docs/rules/%s.md)\n"),
                cmd, cli_token(shown), core_game_name(g), _(tb_strerror(err)),
                core_game_name(g));
    return err;
}

int cli_bot_arg(const char *cmd, int argc, char **argv, int *i, int dflt,
                int *level)
{
    const char *a = argv[*i], *s;
    if (strncmp(a, "--bot=", 6) == 0 || strncmp(a, "--level=", 8) == 0) {
        s = strchr(a, '=') + 1;
    } else if (strcmp(a, "--level") == 0) {
        if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0) {
            fprintf(stderr, _("tabula %s: %s needs a value\n"), cmd, a);
            return -1;
        }
        s = argv[++*i];
    } else if (strcmp(a, "--bot") != 0) {
        return 0;
    } else if (*i + 1 < argc && argv[*i + 1][0] != '\0' &&
               /* digits only: a code such as 66FM-... is no level */
               argv[*i + 1][strspn(argv[*i + 1], "0123456789")] == '\0') {
        s = argv[++*i];
    } else {
        /* A level given before (--level 5 --bot) stands. */
        if (*level < BOT_LEVEL_MIN || *level > BOT_LEVEL_MAX)
            *level = dflt;
        return 1;
    }
    /* Digits only, as `--bot N` reads them: no sign, no spaces. */
    uint64_t v = 0;
    if (cli_uint(s, BOT_LEVEL_MIN, BOT_LEVEL_MAX, &v) != 0) {
        fprintf(stderr, _("tabula %s: bad bot level '%s'; expected 1..8\n"),
                cmd, cli_token(s));
        return -1;
    }
    *level = (int)v;
    return 1;
}

int cli_flag_value(const Cli_Flag *flags, const char *name)
{
    for (size_t k = 0; flags != NULL && flags[k].name != NULL; k++)
        if (strcmp(flags[k].name, name) == 0)
            return (int)flags[k].value;
    return -1;
}

int cli_arg(const char *cmd, const Cli_Flag *flags, int argc, char **argv,
            int *i, const char *help, const char **value)
{
    const char *a = argv[*i];
    *value = NULL;
    if (a[0] != '-') {
        *value = a;
        return CLI_ARG_WORD;
    }
    for (size_t k = 0; flags != NULL && flags[k].name != NULL; k++) {
        if (strcmp(flags[k].name, a) != 0)
            continue;
        if (flags[k].value == CLI_SWITCH)
            return flags[k].id;
        if (*i + 1 >= argc ||
            (flags[k].value == CLI_NONEMPTY && argv[*i + 1][0] == '\0')) {
            fprintf(stderr, _("tabula %s: %s needs a value\n"), cmd, a);
            return CLI_ARG_BAD;
        }
        *value = argv[++*i];
        return flags[k].id;
    }
    if (help == NULL)
        return CLI_ARG_UNKNOWN;
    cli_unexpected(cmd, a, help);
    return CLI_ARG_BAD;
}

int cli_unexpected(const char *cmd, const char *a, const char *help)
{
    fprintf(stderr, _("tabula %s: unexpected argument '%s'\n"), cmd,
            cli_token(a));
    fputs(help, stderr);
    return CLI_EXIT_USAGE;
}

int cli_report_over(const Core_Position *pos)
{
    Core_Status st = core_status(pos);
    if (st.outcome == CORE_ONGOING)
        return 0;
    fprintf(stderr, "result: %s (%s)\n", core_outcome_name(st.outcome),
            core_reason_name(st.reason));
    return 1;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_bot_spec(const char *text, Bot_Limits *lim, char *why,
                   size_t why_cap)
{
    char buf[128];
    uint64_t v = 0;
    size_t len = text == NULL ? 0 : strlen(text);

    if (why != NULL && why_cap > 0)
        why[0] = '\0';
    if (len == 0 || len >= sizeof buf) {
        if (why != NULL)
            snprintf(why, why_cap, _("expected LEVEL[:OPTS]"));
        return TB_E_ARG;
    }
    memcpy(buf, text, len + 1);
    char *opt = strchr(buf, ':');
    if (opt != NULL)
        *opt++ = '\0';
    if (cli_uint(buf, BOT_LEVEL_MIN, BOT_LEVEL_MAX, &v) != 0) {
        if (why != NULL)
            snprintf(why, why_cap, _("level must be %d..%d"), BOT_LEVEL_MIN,
                     BOT_LEVEL_MAX);
        return TB_E_ARG;
    }
    *lim = bot_limits_level((int)v);
    int searches = 0; /* old, classic and new name the search: one only */
    while (opt != NULL) {
        char *next = strchr(opt, ':');
        if (next != NULL)
            *next++ = '\0';
        int search = strcmp(opt, "old") == 0 || strcmp(opt, "classic") == 0 ||
                     strcmp(opt, "new") == 0;
        if (search && searches++ > 0) {
            if (why != NULL)
                snprintf(why, why_cap,
                         _("one search only: old, classic or new"));
            return TB_E_ARG;
        }
        if (strcmp(opt, "old") == 0) {
            lim->old = 1;
            lim->classic = 0;
        } else if (strcmp(opt, "classic") == 0) {
            lim->old = 1;
            lim->classic = 1;
        } else if (strcmp(opt, "new") == 0) {
            lim->old = 0;
            lim->classic = 0;
        } else if (strncmp(opt, "depth=", 6) == 0) {
            if (cli_uint(opt + 6, 1, BOT_DEPTH_MAX, &v) != 0) {
                if (why != NULL)
                    snprintf(why, why_cap, _("depth must be 1..%d"),
                             BOT_DEPTH_MAX);
                return TB_E_ARG;
            }
            lim->depth = (int)v;
        } else if (strncmp(opt, "nodes=", 6) == 0) {
            if (cli_uint(opt + 6, 1, BOT_NODES_MAX, &v) != 0) {
                if (why != NULL)
                    snprintf(why, why_cap, _("nodes must be 1..2^40"));
                return TB_E_ARG;
            }
            lim->nodes = v;
        } else {
            if (why != NULL)
                snprintf(why, why_cap,
                         _("unknown option; expected old, classic, new, "
                           "depth=1..%d or nodes=N"),
                         BOT_DEPTH_MAX);
            return TB_E_ARG;
        }
        opt = next;
    }
    return 0;
}

void cli_name_why(const Proto_Name_Fault *f, char *buf, size_t cap)
{
    const char *rule;

    switch (f->rule) {
    case PROTO_NAME_UTF8:
        rule = _("not valid UTF-8 (a malformed or overlong sequence, a "
                 "surrogate or a noncharacter)");
        break;
    case PROTO_NAME_LONG:
        rule = _("longer than 24 characters");
        break;
    case PROTO_NAME_EMPTY:
        snprintf(buf, cap, "%s", _("the name is empty (or only spaces)"));
        return;
    case PROTO_NAME_CONTROL:
        rule = _("a control character");
        break;
    case PROTO_NAME_BIDI:
        rule = _("a bidirectional control character (it reorders the text "
                 "shown around it)");
        break;
    case PROTO_NAME_INVISIBLE:
        rule = _("an invisible character (zero-width, a filler or a "
                 "variation selector)");
        break;
    case PROTO_NAME_COMBINING:
        rule = _("a combining mark (type the accented letter as one "
                 "character)");
        break;
    default:
        rule = _("a character outside the letters, digits, spaces and - _ . "
                 "' that names may hold");
        break;
    }
    /* The character as U+XXXX, never itself: it may be a control or a
     * bidi override that would rewrite the terminal's line. */
    if (f->has_cp)
        snprintf(buf, cap, _("%s: U+%04X, character %u"), rule,
                 (unsigned)f->cp, (unsigned)f->index + 1);
    else
        snprintf(buf, cap, _("%s: byte 0x%02X at byte %zu"), rule,
                 (unsigned)f->cp, f->offset + 1);
}

void cli_waited(uint64_t now, uint64_t since, char *out, size_t cap)
{
    uint64_t s = now > since ? (now - since) / 1000 : 0;
    if (s < 60)
        snprintf(out, cap, "%llus", (unsigned long long)s);
    else if (s < 3600)
        snprintf(out, cap, "%llum", (unsigned long long)(s / 60));
    else if (s < 86400)
        snprintf(out, cap, "%lluh", (unsigned long long)(s / 3600));
    else
        snprintf(out, cap, "%llud", (unsigned long long)(s / 86400));
}
