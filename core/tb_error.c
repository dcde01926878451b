/*
 * tb_error.c: names and messages for the TB_E_* codes of tb_error.h.
 */
#include "tb_error.h"

const char *tb_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define TB_ERROR_MSG_(name, value, msg) \
    case value:                         \
        return msg;
        TB_ERRNO_MAP(TB_ERROR_MSG_)
#undef TB_ERROR_MSG_
    default:
        return "unknown error";
    }
}

const char *tb_errname(int err)
{
    switch (err) {
    case 0:
        return "TB_OK";
#define TB_ERROR_NAME_(name, value, msg) \
    case value:                          \
        return #name;
        TB_ERRNO_MAP(TB_ERROR_NAME_)
#undef TB_ERROR_NAME_
    default:
        return "TB_E_UNKNOWN";
    }
}
