/*
 * cmd_identity.c: `tabula identity`, the player's key pair: created on
 * first use in the XDG config directory, then printed as the fingerprint
 * opponents and match logs show, the public key and the file's path; and
 * the player's display name (--name), checked, stored beside the key and
 * shown with its fingerprint.
 */
#include <string.h>

#include "i18n.h"
#include "cli.h"
#include "proto.h"

static const char identity_help[] =
    N_("usage: tabula identity [--file PATH] [--name NAME]\n"
    "\n"
    "Prints your player identity: the fingerprint that opponents, logs and\n"
    "exported records show, the Ed25519 public key in hex, and the file;\n"
    "then, once you have set one, your display name with the fingerprint\n"
    "beside it, as others see it.\n"
    "The key pair is created on first use in\n"
    "$XDG_CONFIG_HOME/tabula/identity (default ~/.config/tabula/identity),\n"
    "mode 0600; a file that group or others may read is refused.\n"
    "  --file PATH   use this identity file instead\n"
    "  --name NAME   set your display name (signed by your key; no account):\n"
    "                1 to 24 characters: letters (English, Latin with\n"
    "                accents, Cyrillic), digits, spaces and - _ . '\n"
    "                (spaces at the ends dropped, inner runs made one).\n"
    "                Kept in the identity file's path + \".name\".\n");

/* identity's flags. */
enum { IDENTITY_FLAG_FILE, IDENTITY_FLAG_NAME };
static const Cli_Flag identity_flags[] = {
    {"--file", CLI_NONEMPTY, IDENTITY_FLAG_FILE},
    {"--name", CLI_VALUE, IDENTITY_FLAG_NAME}, /* (empty: refused below) */
    {NULL, CLI_SWITCH, 0}};

int cli_identity(int argc, char **argv)
{
    const char *file = NULL, *name = NULL;
    char path[1024], fp[PROTO_FINGERPRINT_MAX], hex[2 * PROTO_KEY_BYTES + 1];
    char shown[PROTO_NAME_SHOWN_MAX], stored[PROTO_DISPLAY_NAME_MAX + 1];
    char why[256];
    Proto_Name_Fault fault;
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
        if (f != IDENTITY_FLAG_FILE && f != IDENTITY_FLAG_NAME) {
            fprintf(stderr, _("tabula identity: unexpected '%s'\n"),
                    cli_token(argv[i]));
            fputs(_(identity_help), stderr);
            return CLI_EXIT_USAGE;
        }
        if (f == IDENTITY_FLAG_FILE)
            file = v;
        else
            name = v;
    }
    /* A refused name is a usage error, said before any key is made. */
    if (name != NULL && proto_name_check_at(name, strlen(name), stored,
                                            sizeof stored, &fault) != 0) {
        cli_name_why(&fault, why, sizeof why);
        fprintf(stderr, _("tabula identity: name refused: %s\n"), why);
        return CLI_EXIT_USAGE;
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
    rc = name != NULL ? proto_name_save(file, name, NULL) : 0;
    if (rc == 0)
        rc = proto_name_load(file, stored, sizeof stored);
    if (rc == 0)
        rc = proto_name_display(stored, id.pk, shown, sizeof shown);
    if (rc != 0) {
        proto_identity_wipe(&id);
        if (name != NULL)
            fprintf(stderr, _("tabula identity: cannot store the name beside "
                              "'%s': %s\n"),
                    cli_token(file), _(tb_strerror(rc)));
        else
            fprintf(stderr, _("tabula identity: cannot read the name beside "
                              "'%s': %s\n"),
                    cli_token(file), _(tb_strerror(rc)));
        return CLI_EXIT_FAIL;
    }
    proto_identity_wipe(&id);
    printf("fingerprint: %s\npublic-key: %s\nfile: %s\n", fp, hex, file);
    if (stored[0] != '\0')
        printf("name: %s\n", shown);
    if (created)
        printf("created: a new identity\n");
    return CLI_EXIT_OK;
}
