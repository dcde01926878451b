/*
 * test_errors.c: the error list and the game registry's edges.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "core.h"

Test(errors, every_code_has_a_message_and_name)
{
    cr_assert_str_eq(tb_strerror(TB_E_ILLEGAL), "illegal move");
    cr_assert_str_eq(tb_errname(TB_E_ILLEGAL), "TB_E_ILLEGAL");
    cr_assert_str_eq(tb_strerror(0), "success");
    cr_assert_str_eq(tb_strerror(-424242), "unknown error");
    cr_assert_str_eq(tb_errname(-424242), "TB_E_UNKNOWN");
}

Test(registry, unknown_game_is_null)
{
    cr_assert_null(core_game_find("chess"));
    cr_assert_null(core_game_find(NULL));
    cr_assert_null(core_game_at(core_game_count()));
}

Test(registry, names_are_unique)
{
    for (size_t i = 0; i < core_game_count(); i++)
        for (size_t j = i + 1; j < core_game_count(); j++)
            cr_assert_str_neq(core_game_name(core_game_at(i)),
                              core_game_name(core_game_at(j)));
}

Test(results, names_are_stable)
{
    cr_assert_str_eq(core_outcome_name(CORE_WIN_WHITE), "1-0");
    cr_assert_str_eq(core_outcome_name(CORE_DRAW), "1/2-1/2");
    cr_assert_str_eq(core_reason_name(CORE_REASON_MOVE_RULE), "move-rule");
    cr_assert_str_eq(core_reason_name(CORE_REASON_COUNT_), "unknown");
}
