/*
 * cmd_match.c: `tabula match`, engine against engine. Games come in
 * pairs over one opening (random legal plies from the start, or a
 * position from a file) with colours swapped; both sides get the same
 * budget. Results are counted in game order whatever finishes first, so
 * a seed with a node budget gives the same games, totals and SPRT stop
 * with any number of --jobs; only --time and --clock make a match depend
 * on the machine. With --clock each side's bot shares its own time out
 * (bot_time_for_move) and a fallen flag loses the game. Worker threads (libuv's) play whole games; the searches inside
 * stay single-threaded.
 */
#include <dirent.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

#include "i18n.h"
#include "engine.h"
#include "cli.h"
#include "engine.h"
#include "tb_error.h"

#define MATCH_GAMES_MAX 1000000L
#define MATCH_JOBS_MAX 64
#define MATCH_PLIES_MAX 200
#define MATCH_PLY_GUARD 20000 /* far beyond every game's own limits */
#define OPENINGS_BYTES_MAX (1L << 20)
#define OPENINGS_MAX 100000

static const char match_help[] = N_(
    "usage: tabula match GAME --a LEVEL[:OPTS] --b LEVEL[:OPTS] [--games N]\n"
    "         [--time MS_PER_MOVE | --nodes N] [--openings FILE] [--seed S]\n"
    "         [--sprt ELO0,ELO1] [--jobs J] [--plies P] [--options OPTS]\n"
    "         [--clock MS[+INC]] [--logs DIR]\n"
    "\n"
    "Plays bot A against bot B: pairs of games over one opening with\n"
    "colours swapped (A is White in the first of each pair), both sides\n"
    "given the same budget. Progress goes to standard error; at the end:\n"
    "  result games N wins W draws D losses L      (A's view)\n"
    "  elo E lo LO hi HI                           (A minus B, 95%)\n"
    "  sprt elo0 E0 elo1 E1 llr X lower A upper B DECISION   (with --sprt)\n"
    "  moves a NA b NB                             (moves each made)\n"
    "  movetime a MS b MS     (processor ms a move of each, its own thread)\n"
    "  --a, --b SPEC      a level 1..8, then options: ':new' today's search\n"
    "                     (the default), ':old' the original search,\n"
    "                     ':classic' it on the original evaluations,\n"
    "                     ':depth=D', ':nodes=N'\n"
    "  --games N          games to play, even (default 100)\n"
    "  --nodes N          work budget per move for both (deterministic)\n"
    "  --time MS          wall-clock milliseconds per move for both\n"
    "  --clock MS[+INC]   a clock for each: MS to start, INC added after\n"
    "                     each move; the bot shares it out itself, and a\n"
    "                     side whose clock runs out loses; with --time or\n"
    "                     --clock today's search also scores a position\n"
    "                     met again since its root a draw\n"
    "  --openings FILE    one position string per line ('#' comments);\n"
    "                     pair K plays line K (cycling)\n"
    "  --plies P          random legal plies per opening (default 4); a\n"
    "                     line that ends the game, or leaves the side to\n"
    "                     move a win in one move, is drawn again\n"
    "  --seed S           openings and tie-breaks (default 1)\n"
    "  --sprt E0,E1       stop once the log-likelihood ratio of Elo E1\n"
    "                     against E0 crosses a bound (alpha = beta = 0.05)\n"
    "                     at the end of a pair\n"
    "  --jobs J           games played at once (default 1)\n"
    "  --options OPTS     match options of the game, e.g. goals=3\n"
    "  --logs DIR         also write each game's signed match log into DIR\n"
    "                     (match-N.log; each bot's key comes from its\n"
    "                     --a or --b text): tabula ratings DIR rates them\n");

/* What one engine spent in one game: moves made and the processor time
 * of the thread that searched them (ns). */
typedef struct Side_Use {
    long moves;
    uint64_t cpu_ns;
} Side_Use;

typedef struct Match {
    const Core_Game *game;
    const char *options;
    Bot_Limits side[2]; /* A, B */
    const char *logs;   /* --logs DIR, or NULL */
    Proto_Identity id[2]; /* with --logs: A's and B's keys */
    uint64_t started;     /* with --logs: the match's start (Unix s) */
    long clock_ms, inc_ms; /* --clock: start and increment; 0: none */
    long games;
    uint64_t seed;
    int plies;
    char **openings;
    int nopenings;
    /* shared with the workers, under lock */
    uv_mutex_t lock;
    uv_cond_t done_cond;
    long next;          /* next game to hand out */
    int stop;
    signed char *result; /* per game: 1 A won, 0 draw, -1 B won, 2 pending */
    int *adjudicated;
    Side_Use *use; /* per game: A's and B's moves and processor time */
    int failed;    /* 0, MATCH_FAILED or MATCH_NO_OPENING */
    long failed_game; /* the lowest game that failed */
} Match;

enum { MATCH_FAILED = 1, MATCH_NO_OPENING = 2 };

/* How a game ended other than by the rules (Match.adjudicated). */
enum { ADJ_NONE = 0, ADJ_GUARD = 1, ADJ_TIME = 2 };

/* Set by SIGINT (Ctrl-C): the games stop at their next move and the
 * match reports the games finished before it. A second SIGINT kills. */
static atomic_int match_interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    atomic_store(&match_interrupted, 1);
}

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t match_clock_ms(void *ctx)
{
    (void)ctx;
    return (uint64_t)(cli_now() * 1000.0);
}

/* 1 when the side to move in pos has a move that wins the game at once
 * (Football chess: a goal of the deciding score), 0 when it has none or
 * the check could not be made. buf holds cap moves. */
static int wins_in_one(const Core_Position *pos, Core_Move *buf, size_t cap)
{
    size_t n = 0;
    int side = core_side_to_move(pos);
    Core_Outcome win = side == CORE_WHITE ? CORE_WIN_WHITE : CORE_WIN_BLACK;
    Core_Position *child = core_position_clone(pos);
    int found = 0;

    if (child == NULL || core_moves_distinct(pos, buf, cap, &n) != 0)
        n = 0;
    for (size_t i = 0; i < n && !found; i++) {
        core_position_copy(child, pos);
        core_make(child, &buf[i]);
        found = core_status(child).outcome == win;
    }
    core_position_free(child);
    return found;
}

/* Lines of random plies drawn for one opening before giving up. */
#define OPENING_TRIES 100

/*
 * The opening of pair p: a file position, or random plies from the
 * start. A line of plies that ends the game is drawn again, and so is
 * one after which the side to move can win with its first move: both
 * games of the pair would go to whoever has the move there, whatever the
 * bots (in Football chess one opening in ten of 4 plies was such a goal
 * in one, and counted 1-1 for any two bots, pulling the Elo toward 0).
 * NULL when out of memory or, with *none set, when OPENING_TRIES lines
 * all ended the game or left a win in one (too many plies for the game).
 */
static Core_Position *opening(const Match *m, long p, int *none,
                              Core_Move line[MATCH_PLIES_MAX], int *nline)
{
    Core_Position *pos = NULL;
    if (core_position_new(&pos, m->game, m->options) != 0)
        return NULL;
    if (m->nopenings > 0) {
        if (core_position_parse(pos, m->openings[p % m->nopenings], NULL,
                                0) != 0) {
            core_position_free(pos);
            return NULL;
        }
        return pos;
    }
    Core_Move *buf = malloc(core_game_max_moves(m->game) * sizeof *buf);
    Core_Position *start = core_position_clone(pos);
    uint64_t rng = m->seed ^ (UINT64_C(0x5851f42d4c957f2d) * (uint64_t)(p + 1));
    int found = 0;
    for (int attempt = 0;
         buf != NULL && start != NULL && attempt < OPENING_TRIES; attempt++) {
        core_position_copy(pos, start);
        if (nline != NULL)
            *nline = 0;
        for (int i = 0; i < m->plies; i++) {
            size_t n = 0, k;
            if (core_moves(pos, buf, core_game_max_moves(m->game), &n) != 0 ||
                n == 0)
                break;
            k = (size_t)(splitmix(&rng) % n);
            if (line != NULL)
                line[(*nline)++] = buf[k];
            core_make(pos, &buf[k]);
        }
        if (core_status(pos).outcome == CORE_ONGOING &&
            !wins_in_one(pos, buf, core_game_max_moves(m->game))) {
            found = 1;
            break;
        }
    }
    *none = buf != NULL && start != NULL && !found;
    free(buf);
    core_position_free(start);
    if (!found) {
        core_position_free(pos);
        return NULL;
    }
    return pos;
}

/* The calling thread's processor time in ns; 0 where it cannot be read
 * (the figure is a measurement, never an input to a search). */
static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* The note for game g (from 0) whose opening could not be drawn. */
static void no_opening_note(long g, int plies)
{
    fprintf(stderr,
            _("tabula match: game %ld: %d lines of %d random "
              "plies each ended the game or left a win in one; "
              "give fewer --plies\n"),
            g + 1, OPENING_TRIES, plies);
}

/* The moves of a game from its start, for its log (--logs). */
typedef struct Game_Line {
    Core_Move *moves;
    size_t n, cap;
} Game_Line;

static int line_add(Game_Line *l, const Core_Move *mv)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        Core_Move *more = realloc(l->moves, cap * sizeof *more);
        if (more == NULL)
            return -1;
        l->moves = more;
        l->cap = cap;
    }
    l->moves[l->n++] = *mv;
    return 0;
}

/* Write game g's log into --logs DIR: A's result r (1, 0, -1), the way
 * the runner ended it (adjudicated), the moves in line. 0, or 2 after
 * saying why on standard error. */
static int log_game(const Match *m, long g, int a_side, int r,
                    int adjudicated, const Game_Line *line)
{
    char path[4096];
    uint8_t match_id[PROTO_MATCH_ID_BYTES];
    uint64_t rng = m->seed ^ (UINT64_C(0x2545f4914f6cdd1d) * (uint64_t)(g + 1));
    const Proto_Identity *white = &m->id[a_side == CORE_WHITE ? 0 : 1];
    const Proto_Identity *black = &m->id[a_side == CORE_WHITE ? 1 : 0];
    int end = CLI_MATCH_END_BOARD, rc;
    int white_won = (r == 1) == (a_side == CORE_WHITE);

    for (size_t i = 0; i < sizeof match_id; i++)
        match_id[i] = (uint8_t)splitmix(&rng);
    if (adjudicated == ADJ_TIME)
        end = white_won ? CLI_MATCH_END_BLACK_RESIGNS
                        : CLI_MATCH_END_WHITE_RESIGNS;
    else if (adjudicated == ADJ_GUARD)
        end = CLI_MATCH_END_DRAW;
    snprintf(path, sizeof path, "%s/match-%06ld.log", m->logs, g + 1);
    rc = cli_match_log(path, m->game, m->options, white, black,
                       m->started + (uint64_t)g, match_id, line->moves,
                       line->n, end);
    if (rc != 0) {
        fprintf(stderr, _("tabula match: cannot write the log %s: %s\n"),
                cli_token(path), _(tb_strerror(rc)));
        return 2;
    }
    return 0;
}

/* Game g: 1 when A won, 0 drawn, -1 B won; 2 after an error or a stop,
 * 3 when no opening could be drawn (opening). use[0] and use[1] get A's
 * and B's moves and processor time. */
static int play_game(Match *m, long g, int *adjudicated, Side_Use use[2])
{
    int64_t left[2] = {m->clock_ms, m->clock_ms}; /* by colour */
    int none = 0, nopen = 0;
    Core_Move open_line[MATCH_PLIES_MAX];
    Game_Line line = {NULL, 0, 0};
    Core_Position *pos = opening(m, g / 2, &none, open_line, &nopen);
    int a_side = g % 2 == 0 ? CORE_WHITE : CORE_BLACK;
    uint64_t rng = m->seed ^ (UINT64_C(0xda942042e4dd58b5) * (uint64_t)(g + 1));
    uint64_t game_seed = splitmix(&rng);
    int r = 2;
    Bot_Table *table[2] = {NULL, NULL}; /* A, B */

    *adjudicated = ADJ_NONE;
    /* With a time limit the current search keeps its table through the
     * game, as an engine under a match runner keeps its hash; without
     * one each move is searched afresh, so the level rows' games are a
     * function of the command alone (docs/engines.md). */
    for (int i = 0; i < 2; i++)
        if ((m->clock_ms > 0 || m->side[i].time_ms > 0) && !m->side[i].old &&
            (table[i] = bot_table_new()) == NULL)
            goto done;
    if (pos == NULL && none)
        return 3;
    if (pos == NULL || core_status(pos).outcome != CORE_ONGOING)
        goto done;
    for (int i = 0; m->logs != NULL && i < nopen; i++)
        if (line_add(&line, &open_line[i]) != 0)
            goto done;
    while (core_status(pos).outcome == CORE_ONGOING) {
        int stop;
        uv_mutex_lock(&m->lock);
        stop = m->stop || atomic_load(&match_interrupted);
        uv_mutex_unlock(&m->lock);
        if (stop)
            goto done;
        if (core_ply(pos) >= MATCH_PLY_GUARD) {
            *adjudicated = ADJ_GUARD;
            r = 0;
            goto done;
        }
        int side = core_side_to_move(pos);
        Bot_Limits lim = m->side[side == a_side ? 0 : 1];
        lim.table = table[side == a_side ? 0 : 1];
        Core_Move mv;
        uint64_t t0 = 0;
        if (m->clock_ms > 0) {
            lim.time_ms = bot_time_for_move((uint64_t)left[side],
                                            (uint64_t)m->inc_ms);
            t0 = match_clock_ms(NULL);
        }
        uint64_t cpu0 = thread_cpu_ns();
        if (bot_search(pos, &lim, game_seed + core_ply(pos), &mv, NULL) != 0)
            goto done;
        Side_Use *u = &use[side == a_side ? 0 : 1];
        u->moves++;
        u->cpu_ns += thread_cpu_ns() - cpu0;
        if (m->clock_ms > 0) {
            left[side] -= (int64_t)(match_clock_ms(NULL) - t0);
            if (left[side] <= 0) { /* the flag fell: a loss on time */
                *adjudicated = ADJ_TIME;
                r = side == a_side ? -1 : 1;
                goto done;
            }
            left[side] += m->inc_ms;
        }
        if (core_play(pos, &mv) != 0)
            goto done;
        if (m->logs != NULL && line_add(&line, &mv) != 0)
            goto done;
    }
    Core_Outcome o = core_status(pos).outcome;
    if (o == CORE_WIN_WHITE || o == CORE_WIN_BLACK)
        r = (o == CORE_WIN_WHITE) == (a_side == CORE_WHITE) ? 1 : -1;
    else
        r = 0;
done:
    if (m->logs != NULL && r >= -1 && r <= 1 &&
        log_game(m, g, a_side, r, *adjudicated, &line) != 0)
        r = 2;
    free(line.moves);
    bot_table_free(table[0]);
    bot_table_free(table[1]);
    core_position_free(pos);
    return r;
}

static void worker(void *arg)
{
    Match *m = arg;
    for (;;) {
        uv_mutex_lock(&m->lock);
        /* Nothing after a failed game is handed out: it is not
         * reported. */
        long g = m->stop || atomic_load(&match_interrupted) ||
                         m->next >= m->games ||
                         (m->failed && m->next > m->failed_game)
                     ? -1
                     : m->next++;
        uv_mutex_unlock(&m->lock);
        if (g < 0)
            return;
        int adj = 0;
        Side_Use use[2] = {{0, 0}, {0, 0}};
        int r = play_game(m, g, &adj, use);
        uv_mutex_lock(&m->lock);
        /* The lowest game that failed: the games before it are played
         * out and reported, whatever the jobs. An interrupted game is
         * not a failure (match_interrupted). */
        if (r >= 2 && !m->stop && !atomic_load(&match_interrupted) &&
            (!m->failed || g < m->failed_game)) {
            m->failed = r == 3 ? MATCH_NO_OPENING : MATCH_FAILED;
            m->failed_game = g;
        }
        m->result[g] = (signed char)r;
        m->adjudicated[g] = adj;
        m->use[2 * g] = use[0];
        m->use[2 * g + 1] = use[1];
        uv_cond_broadcast(&m->done_cond);
        uv_mutex_unlock(&m->lock);
    }
}

static void free_openings(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Read FILE's position strings, each checked against the game: the file
 * is input like any other, so sizes are capped and every line parsed. */
static int read_openings(Match *m, const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long len = 0;
    int rc = CLI_EXIT_USAGE;
    Core_Position *probe = NULL;

    if (f == NULL) {
        fprintf(stderr, _("tabula match: cannot open '%s'\n"), cli_token(path));
        return CLI_EXIT_USAGE;
    }
    text = malloc(OPENINGS_BYTES_MAX + 1);
    if (text == NULL)
        goto done;
    len = (long)fread(text, 1, OPENINGS_BYTES_MAX + 1, f);
    if (ferror(f)) { /* a directory, a device that fails */
        fprintf(stderr, _("tabula match: cannot read '%s'\n"), cli_token(path));
        goto done;
    }
    if (len > OPENINGS_BYTES_MAX) {
        fprintf(stderr, _("tabula match: %s is over %ld bytes\n"),
                cli_token(path), OPENINGS_BYTES_MAX);
        goto done;
    }
    text[len] = '\0';
    if (memchr(text, '\0', (size_t)len) != NULL) {
        fprintf(stderr, _("tabula match: %s is not text\n"), cli_token(path));
        goto done;
    }
    if (core_position_new(&probe, m->game, m->options) != 0)
        goto done;
    m->openings = calloc(OPENINGS_MAX, sizeof *m->openings);
    if (m->openings == NULL)
        goto done;
    int lineno = 0;
    for (char *line = text; line != NULL && *line != '\0';) {
        char *nl = strchr(line, '\n');
        if (nl != NULL)
            *nl = '\0';
        lineno++;
        /* A blank line or an indented comment is no position. */
        char *pos_text = cli_trim(line);
        size_t l = strlen(pos_text);
        if (l > 0 && pos_text[0] != '#') {
            char why[128];
            if (core_position_parse(probe, pos_text, why, sizeof why) != 0) {
                fprintf(stderr, _("tabula match: %s line %d: %s\n"),
                        cli_token(path), lineno, why);
                goto done;
            }
            if (core_status(probe).outcome != CORE_ONGOING) {
                fprintf(stderr, _("tabula match: %s line %d: game is over\n"),
                        cli_token(path), lineno);
                goto done;
            }
            if (m->nopenings >= OPENINGS_MAX) {
                fprintf(stderr, _("tabula match: over %d openings\n"),
                        OPENINGS_MAX);
                goto done;
            }
            if ((m->openings[m->nopenings] = malloc(l + 1)) == NULL)
                goto done;
            memcpy(m->openings[m->nopenings++], pos_text, l + 1);
        }
        line = nl != NULL ? nl + 1 : NULL;
    }
    if (m->nopenings == 0) {
        fprintf(stderr, _("tabula match: %s has no positions\n"),
                cli_token(path));
        goto done;
    }
    rc = 0;
done:
    if (f != NULL)
        fclose(f);
    free(text);
    core_position_free(probe);
    return rc;
}

/* A whole number lo..hi (cli_uint: no sign, no leading zero). */
static int read_long(const char *text, long lo, long hi, long *out)
{
    uint64_t v;
    if (cli_uint(text, (uint64_t)lo, (uint64_t)hi, &v) != 0)
        return -1;
    *out = (long)v;
    return 0;
}

/* "MS" or "MS+INC", each 0..3600000, MS at least 1. */
static int read_clock(const char *text, long *ms, long *inc)
{
    char buf[32];
    size_t len = strlen(text);
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, text, len + 1);
    char *plus = strchr(buf, '+');
    *inc = 0;
    if (plus != NULL) {
        *plus = '\0';
        if (read_long(plus + 1, 0, 3600000, inc) != 0)
            return -1;
    }
    return read_long(buf, 1, 3600000, ms);
}

static int read_sprt(const char *text, double *e0, double *e1)
{
    char *end = NULL;
    *e0 = strtod(text, &end);
    if (end == text || *end != ',')
        return -1;
    const char *second = end + 1;
    *e1 = strtod(second, &end);
    if (end == second || *end != '\0' || !(*e0 > -1000 && *e0 < 1000) ||
        !(*e1 > -1000 && *e1 < 1000) || *e0 >= *e1)
        return -1;
    return 0;
}

static void print_elo(long w, long d, long l)
{
    Elo_Result e;
    if (w + d + l == 0) { /* no game: nothing known, the line is kept */
        printf("elo 0.0 lo -inf hi inf\n");
        return;
    }
    if (elo_estimate(w, d, l, &e) != 0)
        return;
    /* +0.0 for a -0.0 the arithmetic may give (all games drawn). */
    printf("elo %.1f lo %.1f hi %.1f\n", e.elo + 0.0, e.lo + 0.0, e.hi + 0.0);
}

/* Mean processor milliseconds a move of u (0 without moves). */
static double ms_a_move(const Side_Use *u)
{
    return u->moves > 0 ? (double)u->cpu_ns / 1e6 / (double)u->moves : 0.0;
}

/* Wait for the games in order, report each, stop on an SPRT decision. */
static int collect(Match *m, int sprt, double e0, double e1, long *wdl)
{
    double lower = 0, upper = 0;
    long played = 0, adjudicated = 0;
    long on_time[2] = {0, 0}; /* games A and B lost on time */
    Side_Use sum[2] = {{0, 0}, {0, 0}};
    const char *decision = "continue";
    double llr = 0;
    long stopped_at = -1;
    int stop_why = 0;

    elo_sprt_bounds(0.05, 0.05, &lower, &upper);
    for (long g = 0; g < m->games; g++) {
        uv_mutex_lock(&m->lock);
        /* Game g is waited for until it ends, a game at or before it
         * fails, or Ctrl-C: then the report is of the games before g. */
        while (m->result[g] == 2 && !atomic_load(&match_interrupted) &&
               !(m->failed && g >= m->failed_game))
            uv_cond_wait(&m->done_cond, &m->lock);
        int r = m->result[g];
        int failed = m->failed && g >= m->failed_game ? m->failed : 0;
        if (!failed && r < 2) {
            adjudicated += m->adjudicated[g] == ADJ_GUARD;
            if (m->adjudicated[g] == ADJ_TIME)
                on_time[r == 1 ? 1 : 0]++;
            for (int s = 0; s < 2; s++) {
                sum[s].moves += m->use[2 * g + s].moves;
                sum[s].cpu_ns += m->use[2 * g + s].cpu_ns;
            }
        }
        uv_mutex_unlock(&m->lock);
        if (failed || r >= 2) {
            /* The games before g are reported all the same: nothing
             * played is lost. */
            stopped_at = g;
            stop_why = atomic_load(&match_interrupted) ? 0
                       : failed == MATCH_NO_OPENING    ? MATCH_NO_OPENING
                                                       : MATCH_FAILED;
            break;
        }
        wdl[r == 1 ? 0 : r == 0 ? 1 : 2]++;
        played++;
        /* TRANSLATORS: a match's progress: game 3/100 and who won it, a
         * or b (the engines of --a and --b, kept as they are typed) or a
         * draw, then a's wins, draws and losses so far */
        fprintf(stderr,
                _("game %ld/%ld: %s (a wins-draws-losses "
                  "%ld-%ld-%ld)\n"),
                g + 1, m->games,
                r == 1   ? "a"
                : r == 0 ? _("draw")
                         : "b",
                wdl[0], wdl[1], wdl[2]);
        if (sprt) {
            llr = elo_llr(wdl[0], wdl[1], wdl[2], e0, e1);
            /* A decision only at the end of a pair: its two games share
             * an opening with colours swapped, and a stop between them
             * would count the opening for one colour only. */
            if (played % 2 == 0 && (llr >= upper || llr <= lower)) {
                decision = llr >= upper ? "H1" : "H0";
                break;
            }
        }
    }
    uv_mutex_lock(&m->lock);
    m->stop = 1;
    uv_mutex_unlock(&m->lock);
    printf("result games %ld wins %ld draws %ld losses %ld\n", played,
           wdl[0], wdl[1], wdl[2]);
    print_elo(wdl[0], wdl[1], wdl[2]);
    if (sprt)
        printf("sprt elo0 %.1f elo1 %.1f llr %.3f lower %.3f upper %.3f %s\n",
               e0, e1, llr, lower, upper, decision);
    printf("moves a %ld b %ld\n", sum[0].moves, sum[1].moves);
    printf("movetime a %.2f b %.2f\n", ms_a_move(&sum[0]), ms_a_move(&sum[1]));
    if (adjudicated > 0)
        fprintf(stderr,
                ngettext("tabula match: %ld game drawn at the %d-ply guard\n",
                         "tabula match: %ld games drawn at the %d-ply guard\n",
                         (unsigned long)adjudicated),
                adjudicated, MATCH_PLY_GUARD);
    if (on_time[0] + on_time[1] > 0)
        fprintf(stderr,
                ngettext("tabula match: %ld game lost on time (a %ld, b %ld)\n",
                         "tabula match: %ld games lost on time (a %ld, b "
                         "%ld)\n",
                         (unsigned long)(on_time[0] + on_time[1])),
                on_time[0] + on_time[1], on_time[0], on_time[1]);
    if (stopped_at < 0)
        return CLI_EXIT_OK;
    if (stop_why == 0)
        fprintf(stderr,
                ngettext("tabula match: interrupted at game %ld; the "
                         "result is of the %ld game before it\n",
                         "tabula match: interrupted at game %ld; the "
                         "result is of the %ld games before it\n",
                         (unsigned long)played),
                stopped_at + 1, played);
    else if (stop_why == MATCH_NO_OPENING)
        no_opening_note(stopped_at, m->plies);
    else
        fprintf(stderr, _("tabula match: game %ld failed\n"), stopped_at + 1);
    return CLI_EXIT_FAIL;
}

/* match's flags: every one takes a value. */
enum {
    MATCH_FLAG_A,
    MATCH_FLAG_B,
    MATCH_FLAG_GAMES,
    MATCH_FLAG_TIME,
    MATCH_FLAG_CLOCK,
    MATCH_FLAG_NODES,
    MATCH_FLAG_JOBS,
    MATCH_FLAG_PLIES,
    MATCH_FLAG_SEED,
    MATCH_FLAG_SPRT,
    MATCH_FLAG_OPENINGS,
    MATCH_FLAG_OPTIONS,
    MATCH_FLAG_LOGS
};
const Cli_Flag cli_flags_match[] = {
    {"--a", CLI_VALUE, MATCH_FLAG_A},
    {"--b", CLI_VALUE, MATCH_FLAG_B},
    {"--games", CLI_VALUE, MATCH_FLAG_GAMES},
    {"--time", CLI_VALUE, MATCH_FLAG_TIME},
    {"--clock", CLI_VALUE, MATCH_FLAG_CLOCK},
    {"--nodes", CLI_VALUE, MATCH_FLAG_NODES},
    {"--jobs", CLI_VALUE, MATCH_FLAG_JOBS},
    {"--logs", CLI_NONEMPTY, MATCH_FLAG_LOGS},
    {"--plies", CLI_VALUE, MATCH_FLAG_PLIES},
    {"--seed", CLI_VALUE, MATCH_FLAG_SEED},
    {"--sprt", CLI_VALUE, MATCH_FLAG_SPRT},
    {"--openings", CLI_VALUE, MATCH_FLAG_OPENINGS},
    {"--options", CLI_VALUE, MATCH_FLAG_OPTIONS},
    {NULL, CLI_SWITCH, 0}};

int cli_match(int argc, char **argv)
{
    Match m;
    const char *spec[2] = {NULL, NULL}, *openings = NULL, *game = NULL;
    long jobs = 1, v = 0, time_ms = 0, nodes = 0;
    int sprt = 0, rc = CLI_EXIT_USAGE, plies_given = 0;
    double e0 = 0, e1 = 0;
    long wdl[3] = {0, 0, 0};
    uv_thread_t threads[MATCH_JOBS_MAX];
    int nthreads = 0;

    memset(&m, 0, sizeof m);
    m.games = 100;
    m.seed = 1;
    m.plies = 4;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val;
        if (cli_is_help(a)) {
            fputs(_(match_help), stdout);
            return CLI_EXIT_OK;
        }
        int f = cli_arg("match", cli_flags_match, argc, argv, &i,
                        _(match_help), &val);
        if (f == CLI_ARG_WORD) {
            if (game != NULL)
                return cli_unexpected("match", a, _(match_help));
            game = a;
        } else if (f == CLI_ARG_BAD) {
            return CLI_EXIT_USAGE;
        } else if (f == MATCH_FLAG_A || f == MATCH_FLAG_B) {
            spec[f == MATCH_FLAG_B] = val;
        } else if (f == MATCH_FLAG_GAMES) {
            if (read_long(val, 2, MATCH_GAMES_MAX, &m.games) != 0 ||
                m.games % 2 != 0) {
                fprintf(stderr, _("tabula match: bad --games '%s'; expected an "
                                "even number 2..%ld\n"),
                        cli_token(val), MATCH_GAMES_MAX);
                return CLI_EXIT_USAGE;
            }
        } else if (f == MATCH_FLAG_TIME) {
            if (read_long(val, 1, 3600000, &time_ms) != 0) {
                fprintf(stderr,
                        _("tabula match: bad --time '%s'; expected "
                          "a whole number 1..3600000\n"),
                        cli_token(val));
                return CLI_EXIT_USAGE;
            }
        } else if (f == MATCH_FLAG_CLOCK) {
            if (read_clock(val, &m.clock_ms, &m.inc_ms) != 0) {
                fprintf(stderr, _("tabula match: bad --clock '%s'; expected "
                                  "MS or MS+INC\n"),
                        cli_token(val));
                return CLI_EXIT_USAGE;
            }
        } else if (f == MATCH_FLAG_NODES) {
            if (read_long(val, 1, 1L << 40, &nodes) != 0) {
                fprintf(stderr,
                        _("tabula match: bad --nodes '%s'; expected "
                          "a whole number 1..%ld\n"),
                        cli_token(val), 1L << 40);
                return CLI_EXIT_USAGE;
            }
        } else if (f == MATCH_FLAG_JOBS) {
            if (read_long(val, 1, MATCH_JOBS_MAX, &jobs) != 0) {
                fprintf(stderr, _("tabula match: bad --jobs '%s'; expected "
                                "1..%d\n"),
                        cli_token(val), MATCH_JOBS_MAX);
                return CLI_EXIT_USAGE;
            }
        } else if (f == MATCH_FLAG_PLIES) {
            if (read_long(val, 0, MATCH_PLIES_MAX, &v) != 0) {
                fprintf(stderr,
                        _("tabula match: bad --plies '%s'; expected "
                          "a whole number 0..%d\n"),
                        cli_token(val), MATCH_PLIES_MAX);
                return CLI_EXIT_USAGE;
            }
            m.plies = (int)v;
            plies_given = 1;
        } else if (f == MATCH_FLAG_SEED) {
            if (cli_seed("match", val, &m.seed) != 0)
                return CLI_EXIT_USAGE;
        } else if (f == MATCH_FLAG_SPRT) {
            if (read_sprt(val, &e0, &e1) != 0) {
                fprintf(stderr,
                        _("tabula match: bad --sprt '%s'; expected "
                          "ELO0,ELO1 with ELO0 below ELO1\n"),
                        cli_token(val));
                return CLI_EXIT_USAGE;
            }
            sprt = 1;
        } else if (f == MATCH_FLAG_OPENINGS) {
            openings = val;
        } else if (f == MATCH_FLAG_OPTIONS) {
            m.options = val;
        } else if (f == MATCH_FLAG_LOGS) {
            m.logs = val;
        }
    }
    if (game == NULL || spec[0] == NULL || spec[1] == NULL) {
        /* TRANSLATORS: %s is GAME, --a or --b, as the usage line names
         * them */
        fprintf(stderr, _("tabula match: missing %s\n"),
                game == NULL      ? _("GAME")
                : spec[0] == NULL ? "--a"
                                  : "--b");
        fputs(_(match_help), stderr);
        return CLI_EXIT_USAGE;
    }
    if ((time_ms > 0) + (nodes > 0) + (m.clock_ms > 0) > 1) {
        fprintf(stderr, _("tabula match: --time, --nodes and --clock exclude "
                          "each other\n"));
        return CLI_EXIT_USAGE;
    }
    if ((m.game = cli_game("match", game)) == NULL)
        return CLI_EXIT_USAGE;
    for (int s = 0; s < 2; s++) {
        char why[128];
        if (cli_bot_spec(spec[s], &m.side[s], why, sizeof why) != 0) {
            fprintf(stderr, _("tabula match: bad --%c '%s': %s\n"), 'a' + s,
                    cli_token(spec[s]), why);
            return CLI_EXIT_USAGE;
        }
        if (nodes > 0)
            m.side[s].nodes = (uint64_t)nodes;
        if (m.clock_ms > 0) {
            m.side[s].nodes = UINT64_C(1) << 40;
            m.side[s].clock_ms = match_clock_ms;
        }
        if (time_ms > 0) {
            m.side[s].time_ms = (uint32_t)time_ms;
            m.side[s].nodes = UINT64_C(1) << 40;
            m.side[s].clock_ms = match_clock_ms;
        }
    }
    /* A first position made here sets up the game's tables before any
     * worker runs, and checks the options. */
    Core_Position *probe = cli_setup_position("match", m.game, m.options,
                                              NULL, NULL, 0);
    if (probe == NULL)
        return CLI_EXIT_USAGE;
    core_position_free(probe);
    if (openings != NULL && plies_given) {
        fprintf(stderr, _("tabula match: --plies and --openings exclude each "
                          "other (a file's positions are played as they "
                          "are)\n"));
        return CLI_EXIT_USAGE;
    }
    if (m.logs != NULL && openings != NULL) {
        fprintf(stderr, _("tabula match: --logs and --openings exclude each "
                          "other (a log starts from the game's start)\n"));
        return CLI_EXIT_USAGE;
    }
    if (m.logs != NULL) {
        DIR *d = opendir(m.logs);
        if (d == NULL) {
            fprintf(stderr, _("tabula match: --logs %s is not a folder\n"),
                    cli_token(m.logs));
            return CLI_EXIT_USAGE;
        }
        closedir(d);
        if (proto_init() != 0 ||
            cli_match_bot_identity(spec[0], &m.id[0]) != 0 ||
            cli_match_bot_identity(spec[1], &m.id[1]) != 0)
            return CLI_EXIT_FAIL;
        m.started = (uint64_t)time(NULL);
    }
    if (openings != NULL && (rc = read_openings(&m, openings)) != 0)
        goto done;
    if (openings == NULL) {
        /* Too many plies for the game show at the first opening: say so
         * before any game is played. */
        int none = 0;
        Core_Position *first = opening(&m, 0, &none, NULL, NULL);
        if (first == NULL) {
            if (none)
                no_opening_note(0, m.plies);
            rc = none ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
            goto done;
        }
        core_position_free(first);
    }
    /* Time is wall time: a game waiting for a core spends its clock. */
    unsigned cores = uv_available_parallelism();
    if ((time_ms > 0 || m.clock_ms > 0) && (unsigned long)jobs > cores)
        fprintf(stderr,
                _("tabula match: note: --jobs %ld is more than the "
                  "%u processor cores; a side's time also runs while "
                  "its game waits for a core\n"),
                jobs, cores);
    rc = CLI_EXIT_FAIL;
    m.result = malloc((size_t)m.games);
    m.adjudicated = calloc((size_t)m.games, sizeof *m.adjudicated);
    m.use = calloc(2 * (size_t)m.games, sizeof *m.use);
    if (m.result == NULL || m.adjudicated == NULL || m.use == NULL)
        goto done;
    memset(m.result, 2, (size_t)m.games);
    if (uv_mutex_init(&m.lock) != 0)
        goto done;
    if (uv_cond_init(&m.done_cond) != 0) {
        uv_mutex_destroy(&m.lock);
        goto done;
    }
    /* Ctrl-C: report the games played (match_interrupted); a second one
     * kills, as the handler resets itself. */
    struct sigaction on_int, old_int;
    memset(&on_int, 0, sizeof on_int);
    on_int.sa_handler = on_interrupt;
    on_int.sa_flags = SA_RESETHAND;
    sigemptyset(&on_int.sa_mask);
    atomic_store(&match_interrupted, 0);
    sigaction(SIGINT, &on_int, &old_int);
    for (long j = 0; j < jobs; j++) {
        if (uv_thread_create(&threads[nthreads], worker, &m) != 0)
            break;
        nthreads++;
    }
    if (nthreads == 0) {
        fprintf(stderr, _("tabula match: cannot start a thread\n"));
    } else {
        rc = collect(&m, sprt, e0, e1, wdl);
        uv_mutex_lock(&m.lock);
        m.stop = 1;
        uv_mutex_unlock(&m.lock);
    }
    for (int j = 0; j < nthreads; j++)
        uv_thread_join(&threads[j]);
    sigaction(SIGINT, &old_int, NULL);
    uv_cond_destroy(&m.done_cond);
    uv_mutex_destroy(&m.lock);
done:
    free_openings(m.openings, m.nopenings);
    free(m.result);
    free(m.adjudicated);
    free(m.use);
    return rc;
}
