/*
 * test_catalogue.c: the catalogue the page's module is handed in
 * (client/catalogue.c, layout in client/i18n.h): lookups, plural forms by
 * the handed-in rule beyond its 200 counts, and hostile bytes refused
 * with the catalogue in use kept. Expected forms are worked out by hand
 * from the Russian plural rule (n%10 == 1 && n%100 != 11: one; n%10 in
 * 2..4 and n%100 not in 12..14: few; else many).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "i18n.h"
#include "tb_error.h"

/* The Russian rule, written out here as the page's i18n.js has it. */
static unsigned char ru_form(unsigned n)
{
    if (n % 10 == 1 && n % 100 != 11)
        return 0;
    if (n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20))
        return 1;
    return 2;
}

/* rule bytes then the entries (given with their NULs) into buf. */
static size_t blob(unsigned char *buf, const char *entries, size_t elen)
{
    for (unsigned n = 0; n < CLI_CATALOGUE_PLURALS; n++)
        buf[n] = ru_form(n);
    memcpy(buf + CLI_CATALOGUE_PLURALS, entries, elen);
    return CLI_CATALOGUE_PLURALS + elen;
}

static const char ru_entries[] =
    "Board\0Доска\0\0"
    "%u ply\0%u полуход\0%u полухода\0%u полуходов\0\0"
    "Moves\0Ходы\0\0";

static void load_ru(void)
{
    unsigned char buf[512];
    size_t n = blob(buf, ru_entries, sizeof ru_entries - 1);
    cr_assert_eq(cli_catalogue_set(buf, n), 0);
}

Test(catalogue, looks_up_and_keeps_unknown_english)
{
    load_ru();
    cr_assert_str_eq(cli_catalogue_get("Board"), "Доска");
    cr_assert_str_eq(cli_catalogue_get("Moves"), "Ходы");
    cr_assert_str_eq(cli_catalogue_get("Now, for example:\n"),
                     "Now, for example:\n");
    /* a plural entry is not a plain translation */
    cr_assert_str_eq(cli_catalogue_get("%u ply"), "%u ply");
    cli_catalogue_clear();
    cr_assert_str_eq(cli_catalogue_get("Board"), "Board");
}

Test(catalogue, plural_forms_follow_the_rule_past_its_table)
{
    load_ru();
    /* n: the form by hand (1 one, 2 few, 3 many) */
    const struct {
        unsigned long n;
        const char *form;
    } cases[] = {
        {0, "%u полуходов"},          {1, "%u полуход"},
        {2, "%u полухода"},           {5, "%u полуходов"},
        {11, "%u полуходов"},         {21, "%u полуход"},
        {112, "%u полуходов"},        {199, "%u полуходов"},
        {201, "%u полуход"},          {1012, "%u полуходов"},
        {1021, "%u полуход"},         {1022, "%u полухода"},
        {4294967291ul, "%u полуход"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_assert_str_eq(cli_catalogue_nget("%u ply", "%u plies", cases[i].n),
                         cases[i].form, "n = %lu", cases[i].n);
    cli_catalogue_clear();
    cr_assert_str_eq(cli_catalogue_nget("%u ply", "%u plies", 1), "%u ply");
    cr_assert_str_eq(cli_catalogue_nget("%u ply", "%u plies", 3), "%u plies");
}

Test(catalogue, hostile_bytes_are_refused_and_the_language_stays)
{
    unsigned char buf[512];
    load_ru();
    size_t n = blob(buf, "Board\0Deska", 11); /* no end */
    cr_assert_eq(cli_catalogue_set(buf, n), TB_E_TRUNCATED);
    n = blob(buf, "Board\0Deska\0", 12); /* forms not ended */
    cr_assert_eq(cli_catalogue_set(buf, n), TB_E_TRUNCATED);
    n = blob(buf, "Board\0\0", 7); /* no form */
    cr_assert_eq(cli_catalogue_set(buf, n), TB_E_FORMAT);
    n = blob(buf, "\0Deska\0\0", 8); /* empty msgid */
    cr_assert_eq(cli_catalogue_set(buf, n), TB_E_FORMAT);
    n = blob(buf, "x\0a\0b\0c\0d\0e\0f\0g\0\0", 17); /* seven forms */
    cr_assert_eq(cli_catalogue_set(buf, n), TB_E_FORMAT);
    n = blob(buf, "Board\0Deska\0\0", 13);
    buf[7] = CLI_CATALOGUE_MAX_FORMS; /* a form the rule cannot name */
    cr_assert_eq(cli_catalogue_set(buf, n), TB_E_FORMAT);
    cr_assert_eq(cli_catalogue_set(buf, 150), TB_E_TRUNCATED);
    cr_assert_eq(cli_catalogue_set(buf, CLI_CATALOGUE_MAX_BYTES + 1),
                 TB_E_LIMIT);
    cr_assert_eq(cli_catalogue_set(NULL, 5), TB_E_ARG);
    cr_assert_str_eq(cli_catalogue_get("Board"), "Доска");
    cli_catalogue_clear();
}
