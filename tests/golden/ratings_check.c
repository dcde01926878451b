/*
 * ratings_check.c: the ratings list of real signed match logs on every
 * build of the cross-build matrix (tests/crossbuild.sh, issue 38,
 * docs/determinism.md). It makes the calls `tabula ratings` makes
 * (client/cmd_ratings.c: proto_paths_logs, club_list_new,
 * proto_read_file, club_list_add or club_list_unreadable,
 * club_list_text) and prints the list's text on standard output, so its
 * bytes must equal those of `tabula ratings` over the same logs. It links
 * club/, proto/ (libsodium, msgpack-c) and core/, never client/, so it builds
 * for wasm32-wasi (run under Node's WASI, tests/wasm/wasi_run.mjs) and for
 * 32-bit x86 against the libraries of scripts/cross-deps.sh i386.
 *
 *   ratings_check PATH...
 *       each PATH a folder (its *.log files, in byte order of their names,
 *       as `tabula ratings` takes them) or a single log file, in the order
 *       given. A log that does not verify or gives no rated game is named
 *       on standard error and counts as `tabula ratings` counts it; so does
 *       a PATH that is neither a folder nor a readable file. Exit 0 with
 *       the list printed, 1 when out of memory or the crypto library
 *       fails, 2 with no PATH.
 */
#include <stdio.h>
#include <stdlib.h>

#include "club.h"
#include "proto.h"
#include "tb_error.h"

static void on_conflict(void *ctx, uint32_t a, uint32_t b)
{
    const Proto_Paths *p = ctx;
    fprintf(stderr,
            "ratings_check: %s and %s hold one match with two "
            "results; it is not rated\n",
            p->at[a], p->at[b]);
}

int main(int argc, char **argv)
{
    Proto_Paths paths = {NULL, 0, 0};
    Club_List *list = NULL;
    const char *text;
    int status = 1;

    if (argc < 2) {
        fputs("usage: ratings_check FOLDER|LOG...\n", stderr);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        /* a folder as `tabula ratings` lists it, else a file */
        int rc = proto_paths_logs(&paths, argv[i]);
        if (rc == TB_E_IO)
            rc = proto_paths_add(&paths, NULL, argv[i]);
        if (rc != 0)
            goto done;
    }
    if (proto_init() != 0 || club_list_new(&list) != 0)
        goto done;
    /* one log in memory at a time, so the wasm build's fixed memory
     * (tests/wasm/wasi_run.mjs) holds any number of them */
    for (size_t i = 0; i < paths.n; i++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        char why[256];
        Club_List_Outcome outcome = CLUB_LIST_FAILED;
        Club_Verdict verdict = CLUB_UNFINISHED;
        int rc = proto_read_file(paths.at[i], &buf, &len);
        if (rc == 0)
            rc = club_list_add(list, buf, len, &outcome, &verdict, why,
                               sizeof why);
        else {
            snprintf(why, sizeof why, "%s", tb_strerror(rc));
            rc = club_list_unreadable(list);
        }
        free(buf);
        if (rc != 0)
            goto done;
        if (outcome == CLUB_LIST_FAILED)
            fprintf(stderr, "ratings_check: %s skipped: %s\n", paths.at[i],
                    why);
        else if (outcome == CLUB_LIST_UNRATED)
            fprintf(stderr, "ratings_check: %s not rated (verdict %d)\n",
                    paths.at[i], (int)verdict);
    }
    if (club_list_text(list, on_conflict, &paths, &text) != 0)
        goto done;
    fputs(text, stdout);
    status = fflush(stdout) == 0 ? 0 : 1;
done:
    club_list_free(list);
    proto_paths_free(&paths);
    return status;
}
