/*
 * Tabula's error codes: one list for every folder. Functions that can fail
 * return int, 0 on success or one of the negative codes below. libuv's own
 * negative codes pass through unchanged in net/; tb_strerror() names them
 * as "libuv error" unless net/ gives a better name.
 *
 * The list is an X-macro so the enum and the message table cannot drift.
 */
#ifndef TABULA_TB_ERROR_H
#define TABULA_TB_ERROR_H

/* X(NAME, value, message) */
#define TB_ERRNO_MAP(X)                                                        \
    X(TB_E_ARG, -1001, "invalid argument")                                     \
    X(TB_E_NOMEM, -1002, "out of memory")                                      \
    X(TB_E_SPACE, -1003, "buffer too small")                                   \
    X(TB_E_GAME, -1004, "unknown game")                                        \
    X(TB_E_OPTION, -1005, "bad match option")                                  \
    X(TB_E_NOTATION, -1006, "malformed move notation")                         \
    X(TB_E_ILLEGAL, -1007, "illegal move")                                     \
    X(TB_E_AMBIGUOUS, -1008, "ambiguous move")                                 \
    X(TB_E_POSITION, -1009, "malformed or impossible position")                \
    X(TB_E_OVER, -1010, "game is over")                                        \
    X(TB_E_ENCODING, -1011, "malformed or non-canonical state encoding")       \
    X(TB_E_TOOLONG, -1012, "input too long")                                   \
    X(TB_E_TOOMANY, -1013, "too many moves for the buffer")                    \
    X(TB_E_MISMATCH, -1014, "positions of different games")                    \
    X(TB_E_IO, -1015, "input/output error")                                    \
    X(TB_E_FORMAT, -1016, "malformed data")                                    \
    X(TB_E_LIMIT, -1017, "size limit exceeded")                                \
    X(TB_E_SIGNATURE, -1018, "bad signature")                                  \
    X(TB_E_CHAIN, -1019, "broken transcript chain")                            \
    X(TB_E_VERSION, -1020, "unsupported protocol version")                     \
    X(TB_E_KIND, -1021, "unknown message kind")                                \
    X(TB_E_DESYNC, -1022, "state hash mismatch (desync)")                      \
    X(TB_E_CRYPTO, -1023, "cryptography library failure")                      \
    X(TB_E_STATE, -1024, "operation not allowed in this state")                \
    X(TB_E_TRUNCATED, -1025, "truncated input")                                \
    X(TB_E_CODE, -1026, "unknown invite or watch code")                        \
    X(TB_E_RATE, -1027, "too many wrong codes from this address; try later")   \
    X(TB_E_FULL, -1028, "room or lobby is full")                               \
    X(TB_E_SEAT, -1029, "seat already taken")                                  \
    X(TB_E_WATCH_CODE, -1030, "a watch code: it watches a game, not joins it") \
    X(TB_E_HTTP, -1031, "the peer answered in HTTP: a web address")            \
    X(TB_E_NOTFOUND, -1032, "no address found for that host name")            \
    X(TB_E_REPLACED, -1033, "another connection with this seat's key took it") \
    X(TB_E_AUTH, -1034, "authentication refused")                              \
    X(TB_E_ADDRESS, -1035, "too many games or connections from this address") \
    X(TB_E_SQUARE, -1036, "no such square on this board")                     \
    X(TB_E_NAME_EMPTY, -1037, "the name is empty")                             \
    X(TB_E_NAME_CHAR, -1038, "a character not allowed in a name")              \
    X(TB_E_SEEKS, -1039, "too many open seeks from this player or address")   \
    X(TB_E_NOFILE, -1040, "no such file there")                               \
    X(TB_E_RATING, -1041, "your rating is outside the seek's rating range")

typedef enum Tb_Error {
#define TB_ERROR_ENUM_(name, value, msg) name = (value),
    TB_ERRNO_MAP(TB_ERROR_ENUM_)
#undef TB_ERROR_ENUM_
    TB_OK = 0
} Tb_Error;

/*
 * tb_strerror: a short English message for an error code. Never NULL: an
 * unknown negative code gives "unknown error", 0 gives "success".
 */
const char *tb_strerror(int err);

/*
 * tb_errname: the constant's name ("TB_E_ILLEGAL") for logs and tests;
 * "TB_OK" for 0 and "TB_E_UNKNOWN" for a code outside the list.
 */
const char *tb_errname(int err);

#endif /* TABULA_TB_ERROR_H */
