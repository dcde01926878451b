/*
 * cmd_identity.c: `tabula identity`, the player's key pair: created on
 * first use in the XDG config directory, then printed as the fingerprint
 * opponents and match logs show, the public key and the file's path.
 */
#include <string.h>

#include "i18n.h"
#include "cli.h"
#include "proto.h"

static const char identity_help[] =
    N_("usage: tabula identity [--file PATH]\n"
    "\n"
    "Prints your player identity: the fingerprint that opponents, logs and\n"
    "exported records show, the Ed25519 public key in hex, and the file.\n"
    "The key pair is created on first use in\n"
    "$XDG_CONFIG_HOME/tabula/identity (default ~/.config/tabula/identity),\n"
    "mode 0600; a file that group or others may read is refused.\n"
    "  --file PATH   use this identity file instead\n");

/* identity's one flag. */
enum { IDENTITY_FLAG_FILE };
static const Cli_Flag identity_flags[] = {
    {"--file", CLI_NONEMPTY, IDENTITY_FLAG_FILE}, {NULL, CLI_SWITCH, 0}};

int cli_identity(int argc, char **argv)
{
    const char *file = NULL;
    char path[1024], fp[PROTO_FINGERPRINT_MAX], hex[2 * PROTO_KEY_BYTES + 1];
    Proto_Identity id;
    int created = 0, rc;

    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(identity_help), stdout);
            return CLI_EXIT_OK;
        }
        const char *v;
        int f = cli_arg("identity", identity_flags, argc, argv, &i, NULL, &v);
        if (f == CLI_ARG_BAD) /* --file needs a value */
            return CLI_EXIT_USAGE;
        if (f != IDENTITY_FLAG_FILE) {
            fprintf(stderr, _("tabula identity: unexpected '%s'\n"),
                    cli_token(argv[i]));
            fputs(_(identity_help), stderr);
            return CLI_EXIT_USAGE;
        }
        file = v;
    }
    if (file == NULL) {
        rc = proto_identity_path(path, sizeof path);
        if (rc != 0) {
            fprintf(stderr, _("tabula identity: no config directory (set "
                            "XDG_CONFIG_HOME or HOME)\n"));
            return CLI_EXIT_FAIL;
        }
        file = path;
    }
    rc = proto_init();
    if (rc == 0)
        rc = proto_identity_load(&id, file, &created);
    if (rc != 0) {
        fprintf(stderr, _("tabula identity: cannot use '%s': %s%s\n"),
                cli_token(file), _(tb_strerror(rc)),
                rc == TB_E_IO ? _(" (unreadable, or open to group or others: "
                                "chmod 600 it)")
                              : "");
        return CLI_EXIT_FAIL;
    }
    proto_fingerprint(id.pk, fp);
    proto_hex(id.pk, PROTO_KEY_BYTES, hex);
    proto_identity_wipe(&id);
    printf("fingerprint: %s\npublic-key: %s\nfile: %s\n", fp, hex, file);
    if (created)
        printf("created: a new identity\n");
    return CLI_EXIT_OK;
}
