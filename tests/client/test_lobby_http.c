/*
 * test_lobby_http.c: `tabula lobby --http` serves the browser page
 * (issue 14): the files of the site folder with the types a browser needs
 * (a module must be application/wasm), nothing outside it, a clear
 * refusal when the folder has no page or the port is taken, and a clean
 * exit on SIGTERM; with --tls-cert and --tls-key (issue 37) the same over
 * HTTPS only, and a certificate or key that cannot serve named at start.
 * A real lobby process; HTTP spoken over a plain socket, HTTPS with
 * OpenSSL against a certificate the test makes with the openssl command.
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
#include "client/http_util.h"

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

    http_get(port, "/", buf, sizeof buf);
    cr_assert(strstr(buf, " 200 ") != NULL, "%s", buf);
    cr_assert(strstr(buf, "page-index") != NULL, "%s", buf);
    http_get(port, "/m.wasm", buf, sizeof buf);
    cr_assert(strstr(buf, " 200 ") != NULL, "%s", buf);
    cr_assert(http_head_has(buf, "content-type: application/wasm"), "%s", buf);
    http_get(port, "/a.js", buf, sizeof buf);
    cr_assert(http_head_has(buf, "content-type: text/javascript") ||
                  http_head_has(buf, "content-type: application/javascript"),
              "%s", buf);
    http_get(port, "/../secret.txt", buf, sizeof buf);
    cr_assert(strstr(buf, "not-for-the-web") == NULL, "%s", buf);
    http_get(port, "/%2e%2e/secret.txt", buf, sizeof buf);
    cr_assert(strstr(buf, "not-for-the-web") == NULL, "%s", buf);
    http_get(port, "/no-such-file.html", buf, sizeof buf);
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
    http_get(port, "/", buf, sizeof buf);
    cr_assert(strstr(buf, " 200 ") != NULL, "%s", buf);
    cr_assert(http_head_has(buf, want), "%s", buf);
    http_get(port, "/no-such-file.html", buf, sizeof buf);
    cr_assert(http_head_has(buf, want), "%s", buf);
    /* no archive here: no X-Tabula-Archive, so the page asks for no
     * ratings list (web/club.js; test_cmd_archive's lobby has one) */
    cr_assert(!http_head_has(buf, "\r\nx-tabula-archive:"), "%s", buf);

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

/* A self-signed certificate for 127.0.0.1, NAME.pem, and its key,
 * NAME.key, in the test's folder (the openssl command). */
static void make_cert(const char *name)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && openssl req -x509 -newkey ec -pkeyopt "
             "ec_paramgen_curve:prime256v1 -nodes -keyout %s.key -out %s.pem "
             "-days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 "
             "2>/dev/null",
             dir, name, name);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* `tabula lobby --http 127.0.0.1:0 --tls-cert cert --tls-key key` (files
 * of the test's folder) serving site, its output in the files name.*:
 * minus its exit status, its standard error in *err; or, when it
 * started, its port (the process in p). */
static int start_tls(Proc *p, const char *name, const char *site,
                     const char *cert, const char *key, char **err)
{
    char url[128];
    int port = 0;
    char *args[] = {"lobby",      "--listen", "127.0.0.1:0", "--http",
                    "127.0.0.1:0", "--web",   (char *)site,  "--tls-cert",
                    (char *)cert, "--tls-key", (char *)key,  NULL};
    start(p, name, NULL, args);
    double until = now_ms() + WAIT_MS;
    while (strstr(slurp(p->out), "relay key: ") == NULL) {
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->exited = 1;
            *err = slurp(p->err);
            return WIFEXITED(st) ? -WEXITSTATUS(st) : -128;
        }
        cr_assert_lt(now_ms(), until, "no start lines:\n%s", slurp(p->err));
        pause_ms(5);
    }
    await_line(p, "http: https://127.0.0.1:", url, sizeof url);
    cr_assert_eq(sscanf(url, "%d/", &port), 1, "%s", url);
    return port;
}

Test(lobby_http, tls_serves_the_page_over_https_and_nothing_over_http)
{
    static const char page[] = "<!doctype html><title>t</title>page-tls\n";
    char site[300], ca[300], buf[8192], *err;
    Proc lobby;
    make_dir();
    snprintf(site, sizeof site, "%s/site", dir);
    cr_assert_eq(mkdir(site, 0700), 0);
    write_file("site/index.html", page);
    make_cert("cert");
    snprintf(ca, sizeof ca, "%s/cert.pem", dir);
    int port = start_tls(&lobby, "lobby", site, "cert.pem", "cert.key", &err);
    cr_assert_gt(port, 0, "exit %d: %s", -port, err);

    /* The page's bytes, under a certificate verified for the address. */
    https_get(port, "/", ca, buf, sizeof buf);
    cr_assert_eq(strncmp(buf, "HTTP/1.1 200 ", 13), 0, "%s", buf);
    char *body = strstr(buf, "\r\n\r\n");
    cr_assert_not_null(body, "%s", buf);
    cr_assert_str_eq(body + 4, page);
    /* The counters too. */
    https_get(port, "/metrics", ca, buf, sizeof buf);
    cr_assert_eq(strncmp(buf, "HTTP/1.1 200 ", 13), 0, "%s", buf);
    cr_assert(strstr(buf, "\ntabula_lobby_rooms 0\n") != NULL, "%s", buf);
    /* Plain HTTP to the same port: no page, no answer in HTTP at all. */
    http_get(port, "/", buf, sizeof buf);
    cr_assert_null(strstr(buf, "page-tls"), "%s", buf);
    cr_assert_null(strstr(buf, "HTTP/1.1 200"), "%s", buf);

    kill(lobby.pid, SIGTERM);
    cr_assert_eq(finish(&lobby), 0, "%s", slurp(lobby.err));
    remove_dir();
}

/* A file named wrong is refused at start, with its name and what is
 * wrong with it (exit status 2, as for a bad address): never a lobby
 * that serves without it, or crashes in libwebsockets. */
Test(lobby_http, a_tls_file_that_cannot_serve_exits_2_naming_it)
{
    static const struct {
        const char *cert, *key, *said;
    } cases[] = {
        {"missing.pem", "cert.key",
         "tabula lobby: cannot read the TLS certificate file 'missing.pem': "
         "No such file or directory\n"},
        {"cert.pem", "missing.key",
         "tabula lobby: cannot read the TLS key file 'missing.key': No such "
         "file or directory\n"},
        {"cert.key", "cert.key",
         "tabula lobby: no certificate in the TLS certificate file "
         "'cert.key' (PEM expected)\n"},
        {"cert.pem", "cert.pem",
         "tabula lobby: no private key in the TLS key file 'cert.pem' (PEM, "
         "without a passphrase, expected)\n"},
        {"cert.pem", "other.key",
         "tabula lobby: the TLS key file 'other.key' is not the key of the "
         "certificate in 'cert.pem'\n"},
    };
    char site[300], *err;
    Proc lobby;
    make_dir();
    snprintf(site, sizeof site, "%s/site", dir);
    cr_assert_eq(mkdir(site, 0700), 0);
    write_file("site/index.html", "x\n");
    make_cert("cert");
    make_cert("other");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[16];
        snprintf(name, sizeof name, "case%zu", i);
        int rc =
            start_tls(&lobby, name, site, cases[i].cert, cases[i].key, &err);
        cr_assert_eq(rc, -2, "%s %s: %d %s", cases[i].cert, cases[i].key, rc,
                     err);
        cr_assert_str_eq(err, cases[i].said);
        cr_assert_str_eq(slurp(lobby.out), "");
    }
    /* Half of the pair, or TLS without --http: a usage error. */
    char *half[] = {"lobby", "--listen", "127.0.0.1:0", "--http",
                    "127.0.0.1:0", "--web", site, "--tls-cert", "cert.pem",
                    NULL};
    start(&lobby, "half", NULL, half);
    cr_assert_eq(finish(&lobby), 2);
    cr_assert_not_null(strstr(slurp(lobby.err), "--tls-cert and --tls-key go "
                                                "together, with --http"));
    remove_dir();
}
