/*
 * test_i18n_screens.c: every board, the replay viewer and the network
 * waiting screen in Czech and Russian through a real terminal (tmux):
 * the translated text appears whole (no line cut short), the board and
 * the move list sit where they sit in English (widths measured in
 * columns, not bytes: a Cyrillic letter is two bytes, one column), and
 * the help pages come in the language. The expected texts are written
 * out by hand from po/cs.po and po/ru.po; the English layout comes from
 * the same screen run in English.
 */
#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/tmux_util.h"
#include "i18n.h"

static void setup(void)
{
    /* tmux and cli_width read UTF-8 in this process. */
    setenv("LC_ALL", "C.UTF-8", 1);
    cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"));
}

TestSuite(i18n_screens, .init = setup, .fini = tmux_stop, .timeout = 120);

/* Start `tabula ARGS` in language lang ("en", "cs", "ru") in a new tmux
 * session of cols x rows (the previous one stopped). */
static void start_in(const char *lang, const char *args, int cols, int rows)
{
    char cmd[1024];
    tmux_stop();
    snprintf(tmux_session, sizeof tmux_session, "tabula-i18n-%s-%d", lang,
             (int)getpid());
    snprintf(cmd, sizeof cmd,
             "'env LANGUAGE=%s LC_ALL=C.UTF-8 TERM=xterm-256color %s %s; "
             "sleep 60'",
             lang, TABULA_BINARY, args);
    tmux_new_session(cmd, cols, rows);
}

/* The index of the screen's line that is exactly want, or -1. */
static int line_index(const char *scr, const char *want)
{
    char line[1024];
    for (int k = 0; k < 60; k++) {
        line_of(scr, k, line, sizeof line);
        if (strcmp(line, want) == 0)
            return k;
    }
    return -1;
}

typedef struct Lang {
    const char *code;
    const char *to_move;  /* the side-to-move line */
    const char *prompt;   /* the first message line */
    const char *moves;    /* the move list's heading */
    const char *board;    /* the help page's Board heading */
    const char *esc_line; /* a line of the keys page */
} Lang;

static const Lang langs[] = {
    {"cs", " Na tahu: Bílý (vy)",
     " ? nápověda; vyberte pole nebo napište tah (Tab vypíše tahy)", "Tahy",
     "  Šachovnice", "    Esc              zruší výběr a napsaný text"},
    {"ru", " Ход: Белые (вы)",
     " ? — справка; выберите поле или наберите ход (Tab выводит ходы)",
     "Ходы", "  Доска", "    Esc              сбросить выбор и набранный текст"},
};

/* One game's board in English, then in Czech and Russian: the title,
 * the side to move, the status line (status[k] for langs[k], NULL: not
 * checked) and the cursor cell's line (detail[k]) whole; the board rows
 * and the move list where English has them; the help pages translated. */
static void board_in_both(const char *game, const char *const title[2],
                          const char *const status[2],
                          const char *const detail[2])
{
    char args[128], en_screen[16384], line[1024], en_line[1024];
    snprintf(args, sizeof args, "play %s --bot=1 --seed 1", game);
    start_in("en", args, 100, 30);
    snprintf(en_screen, sizeof en_screen, "%s", wait_for("White to move (you)"));
    int en_status = line_index(en_screen, " White to move (you)");
    cr_assert_geq(en_status, 4, "%s", en_screen);
    line_of(en_screen, 2, en_line, sizeof en_line);
    const char *m = strstr(en_line, "Moves");
    cr_assert_not_null(m, "%s", en_screen);
    /* in columns: a board of chess figurines has three bytes a piece */
    size_t side_x = (size_t)cli_width(en_line, (size_t)(m - en_line));

    for (size_t k = 0; k < 2; k++) {
        const Lang *l = &langs[k];
        start_in(l->code, args, 100, 30);
        const char *scr = wait_for(l->prompt + 1);
        char want[256];
        snprintf(want, sizeof want, " Tabula - %s", title[k]);
        line_of(scr, 0, line, sizeof line);
        /* A title ending in '(' is checked up to there. */
        if (want[strlen(want) - 1] == '(')
            cr_assert(strncmp(line, want, strlen(want)) == 0, "%s:\n%s",
                      l->code, scr);
        else
            cr_assert_str_eq(line, want, "%s:\n%s", l->code, scr);
        /* Whole lines: nothing cut at the window's edge. */
        cr_assert_eq(line_index(scr, l->to_move), en_status, "%s:\n%s",
                     l->code, scr);
        cr_assert_eq(line_index(scr, l->prompt), en_status + 4, "%s:\n%s",
                     l->code, scr);
        if (status[k] != NULL)
            cr_assert_eq(line_index(scr, status[k]), en_status + 1,
                         "%s: '%s' missing:\n%s", l->code, status[k], scr);
        if (detail[k] != NULL)
            cr_assert_eq(line_index(scr, detail[k]), en_status + 2,
                         "%s: '%s' missing:\n%s", l->code, detail[k], scr);
        /* The board rows and column labels: as in English, byte for byte
         * up to the move list. */
        for (int y = 2; y < en_status - 1; y++) {
            line_of(en_screen, y, en_line, sizeof en_line);
            line_of(scr, y, line, sizeof line);
            size_t n = cli_fit(en_line, (int)side_x);
            cr_assert(strncmp(line, en_line, n) == 0,
                      "%s row %d:\n'%s'\n'%s'", l->code, y, line, en_line);
        }
        /* The move list's heading in the same column, counted in
         * columns (the translated line holds multi-byte letters). */
        line_of(scr, 2, line, sizeof line);
        const char *h = strstr(line, l->moves);
        cr_assert_not_null(h, "%s: '%s'", l->code, line);
        cr_assert_eq(cli_width(line, (size_t)(h - line)), (int)side_x,
                     "%s: '%s'", l->code, line);
        /* The help pages: the game's, then the keys. */
        keys("?");
        scr = wait_for(l->board + 2);
        cr_assert_geq(line_index(scr, l->board), 0, "%s:\n%s", l->code, scr);
        keys("x");
        scr = wait_for(l->esc_line + 4);
        cr_assert_geq(line_index(scr, l->esc_line), 0, "%s:\n%s", l->code,
                      scr);
    }
}

Test(i18n_screens, laska)
{
    static const char *const title[2] = {"Laska (Lasker 1911)",
                                         "Ласка (Ласкер, 1911)"};
    static const char *const status[2] = {NULL, NULL};
    /* The cursor starts on a1, a White soldier: its column "w". */
    static const char *const detail[2] = {" a1: w", " a1: w"};
    board_in_both("laska", title, status, detail);
    /* A move and the bot's answer, said in Russian. */
    keys("x c3-d4 Enter");
    wait_for("бот сыграл e5xc3");
}

Test(i18n_screens, chessball)
{
    static const char *const title[2] = {
        "Chessball (šachy na fotbalovém míči, 1998)",
        "Chessball (шахматы на футбольном мяче, 1998)"};
    static const char *const status[2] = {NULL, NULL};
    /* The cursor starts on a cell of no field. */
    static const char *const detail[2] = {NULL, NULL};
    board_in_both("chessball", title, status, detail);
}

Test(i18n_screens, football)
{
    static const char *const title[2] = {"Fotbalové šachy (Boyer 1951)",
                                         "Футбольные шахматы (Бойер, 1951)"};
    static const char *const status[2] = {
        " góly 0-0, hraje se do 1; 0 půltahů od posledního gólu",
        " голы 0-0, игра до 1; 0 полуходов после "
        "последнего гола"};
    static const char *const detail[2] = {" a1: bílá věž", " a1: белая ладья"};
    board_in_both("football", title, status, detail);
}

Test(i18n_screens, volleyball)
{
    static const char *const title[2] = {"Šachový volejbal (Kriušenkov), 8x8",
                                         "Шахматный волейбол (Криушенков), 8x8"};
    static const char *const status[2] = {
        " set 1 min 0/12 body 0:0 sety 0:0 | podává bílý 1/2 | míč: v ruce "
        "podávajícího",
        " сет 1 мин 0/12 очки 0:0 сеты 0:0 | подают белые 1/2 | мяч: в руке "
        "подающего"};
    static const char *const detail[2] = {" a1: prázdné", " a1: пусто"};
    board_in_both("volleyball", title, status, detail);
}

Test(i18n_screens, volleyball10)
{
    /* The rest of the title is being reworded on main. */
    static const char *const title[2] = {"Šachový volejbal 10x10 (",
                                         "Шахматный волейбол 10x10 ("};
    static const char *const status[2] = {NULL, NULL};
    static const char *const detail[2] = {" a1: prázdné", " a1: пусто"};
    board_in_both("volleyball10", title, status, detail);
}

Test(i18n_screens, a_small_window_asks_in_the_language)
{
    char want[128];
    int w = 0, h = 0;
    start_in("en", "play football --bot=1", 40, 12);
    const char *scr = wait_for("Tabula: make the window larger");
    const char *p = strstr(scr, "(this board needs ");
    cr_assert_not_null(p, "%s", scr);
    cr_assert_eq(sscanf(p, "(this board needs %dx%d,", &w, &h), 2, "%s", scr);
    start_in("ru", "play football --bot=1", 40, 12);
    scr = wait_for("Tabula: увеличьте окно");
    snprintf(want, sizeof want, "(этой доске нужно %dx%d,", w, h);
    cr_assert_geq(line_index(scr, want), 0, "%s", scr);
    cr_assert_geq(line_index(scr, " окно 40x12)"), 0, "%s", scr);
    cr_assert_geq(line_index(scr, "q — выход"), 0, "%s", scr);
}

Test(i18n_screens, replay_viewer_in_czech)
{
    char path[128], args[256];
    snprintf(path, sizeof path, "/tmp/tabula-i18n-replay-%d.pgn",
             (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[Game \"laska\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n\n"
          "1. c3-d4 e5xc3 2. b2xd4 *\n",
          f);
    fclose(f);
    snprintf(args, sizeof args, "replay %s", path);
    start_in("cs", args, 100, 30);
    const char *scr = wait_for("Základní postavení (půltah 0 z 3)");
    cr_assert_geq(line_index(scr, " Tabula, přehrávání - Laska (Lasker 1911)"),
                  0, "%s", scr);
    cr_assert_geq(line_index(scr, " <- -> půltah   Home/End začátek/konec   "
                                  "PgUp/PgDn 10 půltahů   g N Enter: půltah "
                                  "N   q konec"),
                  0, "%s", scr);
    cr_assert_geq(line_index(scr, " ověřeny 3 půltahy"), 0, "%s", scr);
    /* The result in words, not the result: line's tokens. */
    cr_assert_not_null(strstr(scr, "(výsledek: * (nedokončeno))"), "%s", scr);
    keys("Right");
    wait_for("Půltah 1 z 3: Bílý táhl c3-d4");
    /* A record that states its end: the reason's word, and the words
     * for "as the record states". */
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("[Game \"laska\"]\n[Result \"1-0\"]\n[Termination \"resign\"]\n"
          "\n1. a3-b4 1-0\n",
          f);
    fclose(f);
    start_in("cs", args, 100, 30);
    scr = wait_for("Základní postavení (půltah 0 z 1)");
    cr_assert_not_null(
        strstr(scr, "(výsledek: 1-0 (vzdání partie, jak uvádí záznam))"), "%s",
        scr);
    remove(path);
}

Test(i18n_screens, network_waiting_screen_in_russian)
{
    start_in("ru", "host laska", 100, 30);
    const char *scr = wait_for("Соединение: ожидание соперника");
    /* The codes' lines keep their English keys, the words are Russian. */
    cr_assert_not_null(strstr(scr, "   (код для соперника)"), "%s", scr);
    cr_assert_not_null(strstr(scr, " Соперник набирает в своём терминале:"),
                       "%s", scr);
    cr_assert_not_null(strstr(scr, "\n invite: "), "%s", scr);
}
