/*
 * test_render.c: `tabula render chessball --svg`: the ball's geometry
 * (client/ball.c) against the core's adjacency, and the picture: well
 * formed, every field named once, the pieces of the position on their
 * fields, the last move marked, and bad input refused with status 2.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ball.h"
#include "core.h"

static char svg_path[64];
static char svg[262144];
static char err[4096];

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    if (f != NULL) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
}

/* Run `tabula render ARGS --svg TMP`; returns the exit status, the
 * picture in svg and standard error in err. */
static int render(const char *args)
{
    char errp[64], cmd[2048];
    snprintf(svg_path, sizeof svg_path, "/tmp/tabula-render-%d.svg",
             (int)getpid());
    snprintf(errp, sizeof errp, "/tmp/tabula-render-%d.err", (int)getpid());
    remove(svg_path);
    snprintf(cmd, sizeof cmd, "%s render %s --svg %s 2>%s </dev/null",
             TABULA_BINARY, args, svg_path, errp);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "'%s' did not exit normally", args);
    slurp(svg_path, svg, sizeof svg);
    slurp(errp, err, sizeof err);
    remove(errp);
    return WEXITSTATUS(st);
}

/* How often needle occurs in hay. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The group of kind ("field": the face, "label": its piece and name) of
 * name, from its opening tag to its closing "</g>\n" at the same depth. */
static void group_of(const char *kind, const char *name, char *out,
                     size_t cap)
{
    char tag[64];
    snprintf(tag, sizeof tag, "<g class=\"%s\" data-field=\"%s\">", kind,
             name);
    const char *p = strstr(svg, tag), *e = p;
    cr_assert_not_null(p, "no %s group for field %s", kind, name);
    for (int depth = 0; e != NULL;) {
        const char *open = strstr(e + 1, "<g"), *close = strstr(e, "</g>");
        cr_assert_not_null(close, "%s group of %s never closes", kind, name);
        if (open != NULL && open < close) {
            depth++;
            e = open;
        } else if (depth-- > 0) {
            e = close + 1;
        } else {
            e = close + 4;
            break;
        }
    }
    size_t n = (size_t)(e - p);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

/* The face group and the label group of name, one after the other. */
static void field_group(const char *name, char *out, size_t cap)
{
    size_t n;
    group_of("field", name, out, cap);
    n = strlen(out);
    group_of("label", name, out + n, cap - n);
}

/* Field names of the core, in index order, from its view. */
static const char *const names[BALL_FACES] = {
    "a",  "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c3", "c4", "c5",
    "d1", "d2", "d3", "d4", "d5", "e1", "e2", "e3", "e4", "e5", "f1",
    "f2", "f3", "f4", "f5", "g1", "g2", "g3", "g4", "g5", "h"};

static int name_index(const char *s, size_t len)
{
    for (int i = 0; i < BALL_FACES; i++)
        if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
            return i;
    return -1;
}

Test(render, geometry_names_follow_d_cb_1)
{
    Ball b;
    ball_build(&b);
    int pent = 0;
    for (int i = 0; i < BALL_FACES; i++) {
        cr_assert_str_eq(b.face[i].name, names[i]);
        pent += b.face[i].pentagon;
        cr_assert_eq(b.face[i].nvert, b.face[i].pentagon ? 5 : 6);
        /* a, c, f, h are the pentagons (D-CB-1). */
        char l = names[i][0];
        cr_assert_eq(b.face[i].pentagon,
                     l == 'a' || l == 'c' || l == 'f' || l == 'h');
    }
    cr_assert_eq(pent, 12);
    /* a is the north pole, h the south pole. */
    cr_assert_gt(b.face[0].normal[2], 0.999);
    cr_assert_lt(b.face[31].normal[2], -0.999);
    /* c1 at longitude 0, c2 72 degrees east of it (counter-clockwise
     * seen from the north), so the picture agrees with the rules' map. */
    const double *c1 = b.face[6].normal, *c2 = b.face[7].normal;
    cr_assert_gt(c1[0], 0.5);
    cr_assert_lt(c1[1] * c1[1], 1e-18);
    cr_assert_gt(c2[1], 0.5, "c2 lies east of c1");
    cr_assert_lt(c2[0] * c2[0] - 0.0954915 * (c2[0] * c2[0] + c2[1] * c2[1]),
                 1e-6, "cos^2 72 degrees");
}

Test(render, geometry_adjacency_is_the_cores)
{
    /* The core lists each field's neighbours in its view's detail text
     * ("... next to b1 b2 ..."); the ball must agree face by face. */
    const Core_Game *g = core_game_find("chessball");
    Core_Position *pos = NULL;
    Core_View v;
    Ball b;
    int seen = 0;
    cr_assert_eq(core_position_new(&pos, g, NULL), 0);
    cr_assert_eq(core_view(pos, &v), 0);
    ball_build(&b);
    for (int r = 0; r < v.rows; r++)
        for (int c = 0; c < v.cols; c++) {
            const Core_Cell *cell = &v.cell[r][c];
            if (cell->name[0] == '\0')
                continue;
            int f = name_index(cell->name, strlen(cell->name));
            cr_assert_geq(f, 0, "unknown field %s", cell->name);
            const char *p = strstr(cell->detail, "next to");
            cr_assert_not_null(p, "%s: '%s'", cell->name, cell->detail);
            int core_adj[BALL_FACES] = {0}, n = 0;
            p += strlen("next to");
            while (*p == ' ') {
                const char *s = ++p;
                while (*p != ' ' && *p != '\0')
                    p++;
                int j = name_index(s, (size_t)(p - s));
                cr_assert_geq(j, 0, "%s: bad neighbour in '%s'", cell->name,
                              cell->detail);
                core_adj[j] = 1;
                n++;
            }
            cr_assert_eq(n, b.face[f].pentagon ? 5 : 6, "%s", cell->name);
            for (int j = 0; j < BALL_FACES; j++)
                cr_assert_eq(ball_adjacent(&b, f, j), core_adj[j],
                             "%s and %s: ball %d, core %d", names[f], names[j],
                             ball_adjacent(&b, f, j), core_adj[j]);
            seen++;
        }
    cr_assert_eq(seen, BALL_FACES);
    core_position_free(pos);
}

Test(render, start_picture_is_well_formed_and_names_every_field)
{
    cr_assert_eq(render("chessball"), 0, "%s", err);
    cr_assert_not_null(
        strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    cr_assert_not_null(strstr(svg, "</svg>"));
    if (system("command -v xmllint >/dev/null 2>&1") == 0) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "xmllint --noout %s", svg_path);
        cr_assert_eq(system(cmd), 0, "xmllint refuses the picture");
    } else {
        /* Structural check: tags open and close in balance. */
        cr_assert_eq(count(svg, "<g"), count(svg, "</g>"));
        cr_assert_eq(count(svg, "<text"), count(svg, "</text>"));
    }
    /* Each field drawn exactly once over the two views. */
    for (int i = 0; i < BALL_FACES; i++) {
        char tag[64];
        snprintf(tag, sizeof tag, "<g class=\"field\" data-field=\"%s\">",
                 names[i]);
        cr_assert_eq(count(svg, tag), 1, "field %s", names[i]);
        /* and labelled with its name in visible text */
        snprintf(tag, sizeof tag, ">%s</text>", names[i]);
        cr_assert_eq(count(svg, tag), 1, "label %s", names[i]);
    }
    cr_assert_eq(count(svg, "<g class=\"piece\""), 32); /* D-CB-8 */
    cr_assert_null(strstr(svg, "b07a00"), "no last move at the start");
    /* Issue 18, finding 10: in each view every label comes after every
     * face, so no face is drawn over a label at the rim. */
    const char *far = strstr(svg, "<g class=\"view\" id=\"far\"");
    cr_assert_not_null(far);
    const char *first_label = strstr(svg, "<g class=\"label\"");
    const char *last_poly = NULL;
    for (const char *p = strstr(svg, "<polygon"); p && p < far;
         p = strstr(p + 1, "<polygon"))
        last_poly = p;
    cr_assert(last_poly != NULL && first_label != NULL &&
              last_poly < first_label && first_label < far);
    first_label = strstr(far, "<g class=\"label\"");
    last_poly = NULL;
    for (const char *p = strstr(far, "<polygon"); p;
         p = strstr(p + 1, "<polygon"))
        last_poly = p;
    cr_assert(last_poly != NULL && first_label != NULL &&
              last_poly < first_label);
    remove(svg_path);
}

Test(render, pieces_of_a_hand_built_position)
{
    /* The rules doc's mate: k on a, r p p p r on b1..b5, N on c1, K on h,
     * Black to move and mated. */
    cr_assert_eq(render("chessball --position 'k/rpppr/N4/5/5/5/5/K b 0 0'"), 0,
                 "%s", err);
    static const char *const expect[][2] = {
        {"a", "k"},  {"b1", "r"}, {"b2", "p"}, {"b3", "p"},
        {"b4", "p"}, {"b5", "r"}, {"c1", "N"}, {"h", "K"}};
    char group[4096], want[64];
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        field_group(expect[i][0], group, sizeof group);
        snprintf(want, sizeof want, "data-piece=\"%s\"", expect[i][1]);
        cr_assert_not_null(strstr(group, want), "%s should hold %s",
                           expect[i][0], expect[i][1]);
    }
    cr_assert_eq(count(svg, "<g class=\"piece\""), 8);
    field_group("c2", group, sizeof group);
    cr_assert_null(strstr(group, "class=\"piece\""), "c2 is empty");
    cr_assert_not_null(strstr(svg, "game over: 1-0 (checkmate)"));
    remove(svg_path);
}

Test(render, last_move_is_marked)
{
    cr_assert_eq(render("chessball b3xc4"), 0, "%s", err);
    cr_assert_not_null(strstr(svg, "last move b3xc4"));
    char group[4096];
    field_group("b3", group, sizeof group);
    cr_assert_not_null(strstr(group, "#b07a00"), "b3 marked");
    cr_assert_null(strstr(group, "class=\"piece\""), "b3 left empty");
    field_group("c4", group, sizeof group);
    cr_assert_not_null(strstr(group, "#b07a00"), "c4 marked");
    cr_assert_not_null(strstr(group, "data-piece=\"P\""), "white pawn on c4");
    cr_assert_eq(count(svg, "#b07a00"), 2);
    remove(svg_path);
}

Test(render, bad_input_exits_2_with_a_message)
{
    cr_assert_eq(render("chessball --position 'k/rpppr/N4/5/5/5/5/X b'"), 2);
    cr_assert_not_null(strstr(err, "bad position"), "%s", err);
    cr_assert_eq(render("chessball b3-c4"), 2);
    cr_assert_not_null(strstr(err, "move 1 'b3-c4'"), "%s", err);
    cr_assert_eq(render("chessball zz9"), 2);
    cr_assert_not_null(strstr(err, "'zz9'"), "%s", err);
    cr_assert_eq(render("laska"), 2);
    cr_assert_not_null(strstr(err, "only chessball"), "%s", err);
    cr_assert_eq(render("nosuchgame"), 2);
    cr_assert_eq(render("chessball --bogus"), 2);
    cr_assert_not_null(strstr(err, "unknown flag"), "%s", err);
    remove(svg_path);

    /* No --svg at all. */
    int st = system(TABULA_BINARY " render chessball >/dev/null 2>&1");
    cr_assert(WIFEXITED(st));
    cr_assert_eq(WEXITSTATUS(st), 2);
    /* A flag without its value. */
    st = system(TABULA_BINARY " render chessball --svg /dev/null --position"
                              " >/dev/null 2>&1");
    cr_assert(WIFEXITED(st));
    cr_assert_eq(WEXITSTATUS(st), 2);
}

Test(render, help_exits_0)
{
    int st = system(TABULA_BINARY " render --help >/dev/null 2>&1");
    cr_assert(WIFEXITED(st));
    cr_assert_eq(WEXITSTATUS(st), 0);
}
