/*
 * redis_util.h: a redis-server (the Debian package) of a test's own, on a
 * free loopback port, for the lobby-node tests. Header-only, static
 * functions; the includer has <criterion/criterion.h>, <netinet/in.h>,
 * <sys/socket.h>, <fcntl.h> and <unistd.h>.
 */
#ifndef TABULA_TEST_REDIS_UTIL_H
#define TABULA_TEST_REDIS_UTIL_H

/* A loopback port nothing listens on now. */
static inline int free_port(void)
{
    struct sockaddr_in a;
    socklen_t n = sizeof a;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(s, 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(getsockname(s, (struct sockaddr *)&a, &n), 0);
    close(s);
    return ntohs(a.sin_port);
}

/* Start redis-server on port with its files in folder and its output
 * appended to out (NULL: discarded); with aof every write is in its
 * append-only file before it is answered, else nothing is saved. The
 * caller waits for it to be ready. */
static inline pid_t redis_spawn(int port, const char *folder, const char *out,
                                int aof)
{
    char portv[16];
    pid_t pid;
    snprintf(portv, sizeof portv, "%d", port);
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fo = open(out != NULL ? out : "/dev/null",
                      O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fo < 0 || chdir(folder) != 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fo, 2);
        execlp("redis-server", "redis-server", "--port", portv, "--bind",
               "127.0.0.1", "--dir", folder, "--save", "", "--appendonly",
               aof ? "yes" : "no", "--appendfsync", "always", (char *)NULL);
        _exit(127);
    }
    return pid;
}

#endif /* TABULA_TEST_REDIS_UTIL_H */
