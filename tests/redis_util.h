/*
 * redis_util.h: a redis-server (the Debian package) of a test's own, on a
 * free loopback port, for the lobby-node tests. Header-only, static
 * functions; the includer has <criterion/criterion.h>, <netinet/in.h>,
 * <sys/socket.h>, <sys/wait.h>, <fcntl.h> and <unistd.h> (and
 * <hiredis/hiredis.h> for redis_await_own).
 *
 * A free port is only free when it is looked at: ctest runs two tests at
 * once, and between free_port() and redis-server's bind another test's
 * server or outgoing connection may take it. A test that can choose its
 * port again starts its server with redis_await_own and, when that says
 * no, kills it and tries a new port (a cluster test once failed in CI
 * with "redis-cli --cluster create failed" when one of its ports
 * answered as another test's standalone Redis).
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
static inline pid_t redis_spawn_more(int port, const char *folder,
                                     const char *out, int aof,
                                     const char *const *more);

static inline pid_t redis_spawn(int port, const char *folder, const char *out,
                                int aof)
{
    return redis_spawn_more(port, folder, out, aof, NULL);
}

/* As redis_spawn, with more configuration arguments (more: NULL or a
 * NULL-ended list, e.g. "--requirepass", "s3cret"). */
static inline pid_t redis_spawn_more(int port, const char *folder,
                                     const char *out, int aof,
                                     const char *const *more)
{
    char portv[16];
    const char *argv[32] = {"redis-server", "--port", portv, "--bind",
                            "127.0.0.1", "--dir", folder, "--save", "",
                            "--appendonly", aof ? "yes" : "no",
                            "--appendfsync", "always"};
    int n = 13;
    pid_t pid;
    for (int i = 0; more != NULL && more[i] != NULL && n < 31; i++)
        argv[n++] = more[i];
    argv[n] = NULL;
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
        execvp("redis-server", (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Stop pid (a server of the test's) and reap it. */
static inline void redis_kill(pid_t pid)
{
    int st;
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
}

#ifdef __HIREDIS_H
/* 1 when the Redis answering on port is the process pid (its INFO
 * server section names that process_id), else 0. */
static inline int redis_answers_as(int port, pid_t pid)
{
    struct timeval tv = {0, 200000};
    char want[40];
    redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
    redisReply *r;
    int ours = 0;

    if (c == NULL || c->err != 0) {
        redisFree(c);
        return 0;
    }
    snprintf(want, sizeof want, "process_id:%ld\r\n", (long)pid);
    r = redisCommand(c, "INFO server");
    ours = r != NULL && r->type == REDIS_REPLY_STRING &&
           strstr(r->str, want) != NULL;
    freeReplyObject(r);
    redisFree(c);
    return ours;
}

/* Wait (up to about 5 s) until the server started as pid answers on
 * port: 1. -1 when pid exited first (its port, or a cluster bus port,
 * was taken: "Address already in use" in its output; it is reaped), 0
 * when the time ran out (the caller stops it with redis_kill); either
 * way the caller tries another port. */
static inline int redis_await_own(int port, pid_t pid)
{
    for (int t = 0; t < 100; t++) {
        int st;
        if (redis_answers_as(port, pid))
            return 1;
        if (waitpid(pid, &st, WNOHANG) != 0)
            return -1;
        usleep(50000);
    }
    return 0;
}

/* A redis-server of the test's on a free loopback port, with no
 * persistence, its address as "redis://127.0.0.1:PORT" in url (cap
 * bytes): its pid, or 0 when none came up after five ports. */
static inline pid_t redis_up(char *url, size_t cap)
{
    for (int attempt = 0; attempt < 5; attempt++) {
        int port = free_port(), rc;
        pid_t pid = redis_spawn(port, "/tmp", NULL, 0);
        snprintf(url, cap, "redis://127.0.0.1:%d", port);
        rc = redis_await_own(port, pid);
        if (rc == 1)
            return pid;
        if (rc == 0)
            redis_kill(pid);
    }
    return 0;
}
#endif

#endif /* TABULA_TEST_REDIS_UTIL_H */
