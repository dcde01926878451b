/*
 * simtest.c: `tabula simtest`, deterministic simulation of whole network
 * matches (issue 13) in the spirit of FoundationDB's simulator and
 * TigerBeetle's VOPR: N matches per game, each in one process under one
 * seeded scheduler with simulated time and injected faults (sim/sim.h),
 * checked after every match. The k-th match (from 1) of a run with seed S
 * has seed S+k-1, so a failure is reproduced by `--seed S+k-1 --matches
 * 1` alone.
 *
 * The test-only switch TABULA_SIMTEST_PLANT (read here and nowhere else)
 * plants a known bug in the sessions of the guest and the spectators
 * (the host stays right): dup (a frame delivered twice
 * is applied twice), skip (a gap in lobby sequence numbers goes
 * unnoticed), ack (a frame is acknowledged before it is logged), clock (a
 * flag claim is taken without the claimant's signed readings). simtest
 * must catch each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "cli.h"
#include "match.h"
#include "sim.h"
#include "tb_error.h"

#define SIM_DEFAULT_MATCHES 100
#define SIM_MAX_MATCHES 10000000ull
#define SIM_PROGRESS_SECONDS 2.0

static const char simtest_help[] =
    N_("usage: tabula simtest [GAME] [--matches N] [--seed S] [--faults LIST]\n"
    "                      [--adversary LIST] [--correspondence] [--trace]\n"
    "\n"
    "Plays N whole network matches of each game (or of GAME) in this one\n"
    "process: a host, a guest, one to three spectators and the rooms of the\n"
    "lobby relay, all driven by one seeded scheduler in simulated time.\n"
    "Players are bots or random movers that also offer and answer draws,\n"
    "ask for takebacks, resign, abort and claim against an absent\n"
    "opponent; some matches have clocks. Faults drawn from the seed (LIST,\n"
    "comma separated, default all): drop (connections dropped and\n"
    "re-opened), delay (messages delayed, reordered across reconnects),\n"
    "crash (a peer crashes between two outputs and resumes from its log),\n"
    "restart (the relay restarts and loses its frames), dup (catch-up\n"
    "delivers frames twice), skew (clocks run at other rates), late\n"
    "(spectators join at any ply), gap (the relay loses a frame to one\n"
    "member), cheat (a forged early flag claim), or none.\n"
    "With --adversary the guest lies besides (LIST, comma separated):\n"
    "flag (a flag claim the relay's receipts refute), claim (the win\n"
    "claimed against an opponent who may be present), desync (a desync\n"
    "report of the true state), abort (an abort after both moved), log\n"
    "(its log edited: a receipt moved by 1 ms, a receipt replayed, another\n"
    "room named), all, or none (the default).\n"
    "After each match: the game ended in bounded simulated time, every\n"
    "seat and spectator holds the same result and final hash, every log\n"
    "verifies as 'tabula replay' verifies it, no ply was lost or applied\n"
    "twice, no desync was reported, and every edited log fails to verify.\n"
    "One summary line per game, then\n"
    "'simtest: N matches, F faults, 0 failures'. On the first failure: the\n"
    "seed, the match, its event trace and a 'rerun:' command; exit 1.\n"
    "  --matches N   matches per game (default 100)\n"
    "  --seed S      seed of the first match (default 1; the k-th has\n"
    "                S+k-1)\n"
    "  --faults LIST faults to inject (default all)\n"
    "  --adversary LIST the guest's lies (default none)\n"
    "  --correspondence a day a move: each player leaves once its move is\n"
    "                with the relay and comes back 1 to 8 hours later, so\n"
    "                the relay keeps rooms nobody is in over simulated days\n"
    "  --trace       print every match's event trace\n");

static unsigned read_plant(void)
{
    const char *p = getenv("TABULA_SIMTEST_PLANT");
    if (p == NULL || *p == '\0')
        return 0;
    if (strcmp(p, "dup") == 0)
        return MATCH_PLANT_DUP;
    if (strcmp(p, "skip") == 0)
        return MATCH_PLANT_SKIP;
    if (strcmp(p, "ack") == 0)
        return MATCH_PLANT_ACK;
    if (strcmp(p, "clock") == 0)
        return MATCH_PLANT_CLOCK;
    if (strcmp(p, "claim") == 0)
        return MATCH_PLANT_CLAIM;
    if (strcmp(p, "refused") == 0)
        return MATCH_PLANT_REFUSED;
    return ~0u;
}

static int read_count(const char *text, uint64_t *out)
{
    return cli_uint(text, 1, SIM_MAX_MATCHES, out);
}

static void report_failure(const Sim_Config *cfg, const Sim_Report *rep,
                           uint64_t k)
{
    char faults[128], lies[64];
    const char *plant = getenv("TABULA_SIMTEST_PLANT");
    sim_fault_names(cfg->faults, faults, sizeof faults);
    sim_lie_names(cfg->lies, lies, sizeof lies);
    printf("simtest: FAILED: game %s, seed %llu, match %llu: %s\n",
           core_game_name(cfg->game), (unsigned long long)cfg->seed,
           (unsigned long long)k + 1, rep->why);
    printf("trace:\n%s", rep->trace ? rep->trace : "(none)\n");
    printf("rerun: %s%s%stabula simtest %s --matches 1 --seed %llu "
           "--faults %s%s%s%s\n",
           plant && *plant ? "TABULA_SIMTEST_PLANT=" : "",
           plant && *plant ? plant : "", plant && *plant ? " " : "",
           core_game_name(cfg->game), (unsigned long long)cfg->seed, faults,
           cfg->lies ? " --adversary " : "", cfg->lies ? lies : "",
           cfg->correspondence ? " --correspondence" : "");
}

/* simtest's flags (--trace: every match's trace, for debugging). */
enum {
    SIMTEST_FLAG_MATCHES,
    SIMTEST_FLAG_SEED,
    SIMTEST_FLAG_FAULTS,
    SIMTEST_FLAG_ADVERSARY,
    SIMTEST_FLAG_TRACE,
    SIMTEST_FLAG_CORRESPONDENCE
};
const Cli_Flag cli_flags_simtest[] = {
    {"--matches", CLI_VALUE, SIMTEST_FLAG_MATCHES},
    {"--seed", CLI_VALUE, SIMTEST_FLAG_SEED},
    {"--faults", CLI_VALUE, SIMTEST_FLAG_FAULTS},
    {"--adversary", CLI_VALUE, SIMTEST_FLAG_ADVERSARY},
    {"--trace", CLI_SWITCH, SIMTEST_FLAG_TRACE},
    {"--correspondence", CLI_SWITCH, SIMTEST_FLAG_CORRESPONDENCE},
    {NULL, CLI_SWITCH, 0}};

int cli_simtest(int argc, char **argv)
{
    const Core_Game *only = NULL;
    uint64_t matches = SIM_DEFAULT_MATCHES, seed = 1;
    unsigned faults = SIM_FAULTS_ALL, plant, lies = 0;
    const char *bad = NULL;
    uint64_t total = 0, total_faults = 0;
    int trace_all = 0, corr = 0;
    double started = cli_now(), shown = started;

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(_(simtest_help), stdout);
            return CLI_EXIT_OK;
        }
        const char *v;
        switch (cli_arg("simtest", cli_flags_simtest, argc, argv, &i,
                        _(simtest_help), &v)) {
        case SIMTEST_FLAG_MATCHES:
            if (read_count(v, &matches) != 0) {
                fprintf(stderr, _("tabula simtest: bad --matches '%s'; "
                                "expected 1..%llu\n"),
                        cli_token(v), SIM_MAX_MATCHES);
                return CLI_EXIT_USAGE;
            }
            break;
        case SIMTEST_FLAG_SEED:
            if (cli_seed("simtest", v, &seed) != 0)
                return CLI_EXIT_USAGE;
            break;
        case SIMTEST_FLAG_FAULTS:
            if (sim_faults(v, &faults, &bad) != 0) {
                fprintf(stderr, _("tabula simtest: unknown fault '%s'\n%s"),
                        cli_token(bad), _(simtest_help));
                return CLI_EXIT_USAGE;
            }
            break;
        case SIMTEST_FLAG_ADVERSARY:
            if (sim_lies(v, &lies, &bad) != 0) {
                fprintf(stderr, _("tabula simtest: unknown lie '%s'\n%s"),
                        cli_token(bad), _(simtest_help));
                return CLI_EXIT_USAGE;
            }
            break;
        case SIMTEST_FLAG_TRACE:
            trace_all = 1;
            break;
        case SIMTEST_FLAG_CORRESPONDENCE:
            corr = 1;
            break;
        case CLI_ARG_WORD:
            if (only != NULL)
                return cli_unexpected("simtest", v, _(simtest_help));
            if ((only = cli_game("simtest", v)) == NULL)
                return CLI_EXIT_USAGE;
            break;
        default:
            return CLI_EXIT_USAGE;
        }
    }
    plant = read_plant();
    if (plant == ~0u) {
        fprintf(stderr, _("tabula simtest: TABULA_SIMTEST_PLANT must be dup, "
                        "skip, ack, clock, claim or refused\n"));
        return CLI_EXIT_USAGE;
    }
    if (proto_init() != 0) {
        fprintf(stderr, _("tabula simtest: cannot set up (%s)\n"),
                "libsodium");
        return CLI_EXIT_FAIL;
    }
    for (size_t gi = 0; gi < core_game_count(); gi++) {
        const Core_Game *g = core_game_at(gi);
        uint64_t plies = 0, faults_here = 0, ended[5] = {0};
        if (only != NULL && g != only)
            continue;
        for (uint64_t k = 0; k < matches; k++) {
            Sim_Config cfg = {g,         seed + k, faults,
                              plant,     trace_all, lies,
                              corr};
            Sim_Report rep;
            int rc = sim_run(&cfg, &rep);
            if (trace_all && rep.trace != NULL)
                printf("match %llu, seed %llu:\n%s",
                       (unsigned long long)k + 1,
                       (unsigned long long)cfg.seed, rep.trace);
            if (rc == 0 && rep.failed) {
                /* again, the same match, with its trace kept */
                cfg.trace = 1;
                free(rep.trace);
                rc = sim_run(&cfg, &rep);
                report_failure(&cfg, &rep, k);
                free(rep.trace);
                return CLI_EXIT_FAIL;
            }
            free(rep.trace);
            if (rc != 0) {
                fprintf(stderr, "tabula simtest: %s\n", _(tb_strerror(rc)));
                return CLI_EXIT_FAIL;
            }
            plies += rep.plies;
            faults_here += rep.faults;
            ended[rep.status.outcome < 5 ? rep.status.outcome : 0]++;
            if (cli_now() - shown >= SIM_PROGRESS_SECONDS) {
                shown = cli_now();
                fprintf(stderr, "simtest: %s %llu/%llu matches, %.0f s\n",
                        core_game_name(g), (unsigned long long)k + 1,
                        (unsigned long long)matches, shown - started);
            }
        }
        printf("%s: %llu matches, %llu plies, %llu faults, 0 failures; "
               "1-0 %llu, 0-1 %llu, draw %llu, aborted %llu\n",
               core_game_name(g), (unsigned long long)matches,
               (unsigned long long)plies, (unsigned long long)faults_here,
               (unsigned long long)ended[CORE_WIN_WHITE],
               (unsigned long long)ended[CORE_WIN_BLACK],
               (unsigned long long)ended[CORE_DRAW],
               (unsigned long long)ended[CORE_ABORTED]);
        fflush(stdout);
        total += matches;
        total_faults += faults_here;
    }
    printf("simtest: %llu matches, %llu faults, 0 failures\n",
           (unsigned long long)total, (unsigned long long)total_faults);
    return CLI_EXIT_OK;
}
