/*
 * spawn_lobby.h: a `tabula lobby` process for the benchmarks, on a free
 * loopback port: bench_spawn_lobby(bin, args, &port) runs `BIN lobby
 * --listen 127.0.0.1:0 ARGS...` (args: NULL-ended), waits for its
 * 'listening:' line and gives its port; -1 when it did not start.
 * bench_stop_lobby ends it (SIGTERM) and waits. Header-only; the
 * includer has <signal.h>, <stdio.h>, <stdlib.h>, <string.h>,
 * <sys/wait.h> and <unistd.h>.
 */
#ifndef TABULA_BENCH_SPAWN_LOBBY_H
#define TABULA_BENCH_SPAWN_LOBBY_H

static pid_t bench_spawn_lobby(const char *bin, char *const *args, int *port)
{
    char *argv[40], line[128];
    int out[2], n = 0;
    pid_t pid;
    FILE *f;

    argv[n++] = (char *)bin;
    argv[n++] = "lobby";
    argv[n++] = "--listen";
    argv[n++] = "127.0.0.1:0";
    for (int i = 0; args[i] != NULL && n < 39; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    if (pipe(out) != 0)
        return -1;
    pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        execv(bin, argv);
        _exit(127);
    }
    close(out[1]);
    f = fdopen(out[0], "r");
    if (f == NULL || fgets(line, sizeof line, f) == NULL ||
        strncmp(line, "listening: ", 11) != 0) {
        kill(pid, SIGTERM);
        return -1;
    }
    *port = (int)strtol(strrchr(line, ':') + 1, NULL, 10);
    fclose(f);
    return pid;
}

static void bench_stop_lobby(pid_t pid)
{
    int st;
    kill(pid, SIGTERM);
    waitpid(pid, &st, 0);
}

#endif /* TABULA_BENCH_SPAWN_LOBBY_H */
