/*
 * test_lobby_http.c: `tabula lobby --http` serves the browser page
 * (issue 14): the files of the site folder with the types a browser needs
 * (a module must be application/wasm), nothing outside it, a clear
 * refusal when the folder has no page or the port is taken, and a clean
 * exit on SIGTERM. A real lobby process; HTTP spoken over a plain socket.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <ctype.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

#define PROC_DIR_NAME "http"
/* Only the process helpers are used here, not the log helpers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "client/proc_util.h"
#pragma GCC diagnostic pop

static void write_file(const char *name, const char *text)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* GET path from 127.0.0.1:port; the whole answer into buf. */
static void get(int port, const char *path, char *buf, size_t cap)
{
    struct sockaddr_in a;
    char req[512];
    size_t n = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    snprintf(req, sizeof req,
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
             path);
    cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    close(fd);
}

/* Does the answer's head (lower-cased) hold text? */
static int head_has(const char *answer, const char *text)
{
    char low[2048];
    size_t n = 0;
    for (; answer[n] != '\0' && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)answer[n]);
    low[n] = '\0';
    char *end = strstr(low, "\r\n\r\n");
    if (end != NULL)
        *end = '\0';
    return strstr(low, text) != NULL;
}

static int start_lobby(Proc *p, const char *site)
{
    char url[128];
    int port = 0;
    char *args[] = {"lobby", "--listen", "127.0.0.1:0", "--http",
                    "127.0.0.1:0", "--web", (char *)site, NULL};
    start(p, "lobby", NULL, args);
    await_line(p, "http: http://127.0.0.1:", url, sizeof url);
    cr_assert_eq(sscanf(url, "%d/", &port), 1, "%s", url);
    return port;
}

/* A lobby serving a one-page site of the test's folder; its web port. */
static int start_lobby_with_a_page(Proc *p, char *site, size_t cap)
{
    snprintf(site, cap, "%s/site", dir);
    cr_assert_eq(mkdir(site, 0700), 0);
    write_file("site/index.html", "x\n");
    return start_lobby(p, site);
}

Test(lobby_http, serves_the_site_and_nothing_outside_it)
{
    char site[300], buf[8192];
    Proc lobby;
    make_dir();
    snprintf(site, sizeof site, "%s/site", dir);
    cr_assert_eq(mkdir(site, 0700), 0);
    write_file("site/index.html", "<!doctype html><title>t</title>page-index\n");
    write_file("site/m.wasm", "\x01\x02wasm-bytes");
    write_file("site/a.js", "export const a = 1;\n");
    write_file("secret.txt", "not-for-the-web\n");
    int port = start_lobby(&lobby, site);

    get(port, "/", buf, sizeof buf);
    cr_assert(strstr(buf, " 200 ") != NULL, "%s", buf);
    cr_assert(strstr(buf, "page-index") != NULL, "%s", buf);
    get(port, "/m.wasm", buf, sizeof buf);
    cr_assert(strstr(buf, " 200 ") != NULL, "%s", buf);
    cr_assert(head_has(buf, "content-type: application/wasm"), "%s", buf);
    get(port, "/a.js", buf, sizeof buf);
    cr_assert(head_has(buf, "content-type: text/javascript") ||
                  head_has(buf, "content-type: application/javascript"),
              "%s", buf);
    get(port, "/../secret.txt", buf, sizeof buf);
    cr_assert(strstr(buf, "not-for-the-web") == NULL, "%s", buf);
    get(port, "/%2e%2e/secret.txt", buf, sizeof buf);
    cr_assert(strstr(buf, "not-for-the-web") == NULL, "%s", buf);
    get(port, "/no-such-file.html", buf, sizeof buf);
    cr_assert(strstr(buf, " 404 ") != NULL, "%s", buf);

    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    remove_dir();
}

/* A page hosting a game showed no lobby address for a terminal joiner
 * (a new-user trial): every answer names the framed TCP address the
 * lobby printed on its listening: line. */
Test(lobby_http, answers_name_the_lobbys_tcp_address)
{
    char site[300], buf[8192], tcp[64], want[96];
    Proc lobby;
    make_dir();
    int port = start_lobby_with_a_page(&lobby, site, sizeof site);
    await_line(&lobby, "listening: ", tcp, sizeof tcp);
    cr_assert_eq(strncmp(tcp, "127.0.0.1:", 10), 0, "%s", tcp);
    snprintf(want, sizeof want, "\r\nx-tabula-lobby: %s\r\n", tcp);
    get(port, "/", buf, sizeof buf);
    cr_assert(strstr(buf, " 200 ") != NULL, "%s", buf);
    cr_assert(head_has(buf, want), "%s", buf);
    get(port, "/no-such-file.html", buf, sizeof buf);
    cr_assert(head_has(buf, want), "%s", buf);

    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    remove_dir();
}

/* Issue 20, finding 4: a new user gave `tabula join` the lobby's web
 * address (the page's, from the --http line) and was told "size limit
 * exceeded". The client is told it reached a web server, and the next
 * command names the address to give instead. */
Test(lobby_http, joining_at_the_web_address_says_to_give_the_listen_one)
{
    char site[300], addr[64], listen[64];
    Proc lobby, guest;
    make_dir();
    int port = start_lobby_with_a_page(&lobby, site, sizeof site);
    await_line(&lobby, "listening: ", listen, sizeof listen);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    char *args[] = {"join", "2345-6789-ABCD-EFGH", "--lobby", addr, NULL};
    start(&guest, "guest", NULL, args);
    int status = finish(&guest);
    char *err = slurp(guest.err);
    cr_assert_eq(status, 1, "%s", err);
    char want[200];
    snprintf(want, sizeof want, "%s is the lobby's web address; give its "
             "--listen address", addr);
    cr_assert_not_null(strstr(err, want), "%s", err);
    cr_assert_not_null(strstr(err, "join 2345-6789-ABCD-EFGH --lobby HOST:PORT"),
                       "%s", err);
    cr_assert_null(strstr(err, "size limit"), "%s", err);
    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    remove_dir();
}

Test(lobby_http, a_folder_without_a_page_is_refused_with_what_to_do)
{
    Proc lobby;
    make_dir();
    char *args[] = {"lobby", "--listen", "127.0.0.1:0", "--http",
                    "127.0.0.1:0", "--web", dir, NULL};
    start(&lobby, "lobby", NULL, args);
    cr_assert_eq(finish(&lobby), 1);
    char *err = slurp(lobby.err);
    cr_assert(strstr(err, "no web page in") != NULL, "%s", err);
    cr_assert(strstr(err, "scripts/build-wasm.sh") != NULL, "%s", err);
    remove_dir();
}

Test(lobby_http, a_taken_port_is_refused_not_a_crash)
{
    char site[300];
    Proc first, second;
    make_dir();
    int port = start_lobby_with_a_page(&first, site, sizeof site);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    char *args[] = {"lobby", "--listen", "127.0.0.1:0", "--http", addr,
                    "--web", site, NULL};
    start(&second, "second", NULL, args);
    cr_assert_eq(finish(&second), 1, "%s", slurp(second.err));
    char *err = slurp(second.err);
    cr_assert(strstr(err, "cannot bind") != NULL, "%s", err);
    kill(first.pid, SIGTERM);
    cr_assert_eq(finish(&first), 0);
    remove_dir();
}

Test(lobby_http, a_bad_address_is_a_usage_error)
{
    Proc lobby;
    make_dir();
    char *args[] = {"lobby", "--listen", "127.0.0.1:0", "--http", "nowhere",
                    NULL};
    start(&lobby, "lobby", NULL, args);
    cr_assert_eq(finish(&lobby), 2);
    cr_assert(strstr(slurp(lobby.err), "expected HOST:PORT") != NULL);
    remove_dir();
}
