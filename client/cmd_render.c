/*
 * cmd_render.c: `tabula render chessball --svg FILE`: the position drawn
 * on the ball as an SVG picture to look at and share. The truncated
 * icosahedron (client/ball.c) is turned to a pleasant angle and projected
 * orthographically, twice: the near side with the north pole a tipped
 * towards the viewer, and beside it the far side (the same ball turned
 * half a turn about the vertical), so every one of the 32 fields shows
 * once. Only faces turned towards the viewer are drawn (back-face
 * culling). Hexagons are white and pentagons black as on a football,
 * shaded by a light from the upper left; each field carries its name and
 * its piece (a disc with the piece's letter, White light, Black dark),
 * upright and foreshortened with the face so they sit on the ball. The fields
 * of the last move given are gold.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "ball.h"
#include "cli.h"

static const char render_help[] =
    N_("usage: tabula render chessball --svg FILE [--position POS] [MOVE ...]\n"
    "\n"
    "Draws the Chessball position (the start, or POS, after the moves) on\n"
    "the ball as an SVG picture: the near side and the far side, so all 32\n"
    "fields show, with field names, pieces (White light discs, Black dark\n"
    "discs, letters K Q R B N P) and the last move's fields in gold.\n"
    "FILE '-' writes to standard output. Convert it with e.g.\n"
    "  rsvg-convert -o ball.png FILE\n"
    "  --svg FILE       where to write the picture (required)\n"
    "  --position POS   start from this position string\n"
    "                   (docs/rules/chessball.md)\n"
    "A bad position or move exits with status 2.\n");

/* Picture layout, in pixels. */
#define R_SCALE 150.0 /* pixels per unit of ball.h coordinates */
#define R_VIEW_W 560.0
#define R_TOP 92.0
#define R_WIDTH 1160
#define R_HEIGHT 720
#define R_MIN_SQUASH 0.45 /* least height of a label, face-on = 1 */

typedef struct Render_View {
    double yaw;    /* turn about the north axis, radians */
    double tilt;   /* north pole towards the viewer, radians */
    int flip;      /* 1: seen from behind (half a turn about vertical) */
    double cx, cy; /* picture centre, pixels */
    const char *caption;
} Render_View;

/* World (z north) to view coordinates: X right, Y up, Z to the viewer. */
static void to_view(const Render_View *rv, const double p[3], double out[3])
{
    double x1 = p[0] * cos(rv->yaw) - p[1] * sin(rv->yaw);
    double y1 = p[0] * sin(rv->yaw) + p[1] * cos(rv->yaw);
    double X = x1, Y = p[2], Z = -y1;
    double Y2 = Y * cos(rv->tilt) - Z * sin(rv->tilt);
    double Z2 = Y * sin(rv->tilt) + Z * cos(rv->tilt);
    if (rv->flip) {
        X = -X;
        Z2 = -Z2;
    }
    out[0] = X;
    out[1] = Y2;
    out[2] = Z2;
}

/* Text made safe for XML character data and attribute values. */
static void put_xml(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            fputc((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f ? *s
                                                                        : '?',
                  out);
        }
    }
}

/* What the picture shows of one field. */
typedef struct Render_Field {
    char name[8];
    char glyph[8]; /* position letter, "" when empty */
    int owner;     /* CORE_WHITE, CORE_BLACK, -1 */
    char detail[48];
    int last; /* a field of the last move */
} Render_Field;

/* The face's polygon, in a group of its own with its title; 0 when the
 * face is turned away (and nothing is drawn). */
static int draw_face(FILE *out, const Render_View *rv, const Ball_Face *f,
                     const Render_Field *rf)
{
    static const double light[3] = {-0.45, 0.55, 0.70};
    double n[3], c[3];
    to_view(rv, f->normal, n);
    if (n[2] <= 1e-6)
        return 0; /* turned away */
    to_view(rv, f->centre, c);
    double ln =
        sqrt(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
    double lit = (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / ln;
    if (lit < 0)
        lit = 0;
    int r, g, b;
    if (rf->last && f->pentagon) {
        r = (int)(110 + 60 * lit), g = (int)(82 + 45 * lit), b = 10;
    } else if (rf->last) {
        r = (int)(205 + 50 * lit), g = (int)(170 + 50 * lit),
        b = (int)(60 + 40 * lit);
    } else if (f->pentagon) {
        r = g = b = (int)(22 + 50 * lit);
    } else {
        r = g = b = (int)(168 + 87 * lit);
    }
    fprintf(out, "<g class=\"field\" data-field=\"%s\">", rf->name);
    fputs("<title>", out);
    put_xml(out, rf->name);
    fputs(": ", out);
    put_xml(out, rf->detail);
    fputs("</title>\n<polygon points=\"", out);
    for (int i = 0; i < f->nvert; i++) {
        double p[3];
        to_view(rv, f->vert[i], p);
        fprintf(out, "%s%.1f,%.1f", i ? " " : "", rv->cx + R_SCALE * p[0],
                rv->cy - R_SCALE * p[1]);
    }
    fprintf(out,
            "\" fill=\"rgb(%d,%d,%d)\" stroke=\"%s\" stroke-width=\"%s\" "
            "stroke-linejoin=\"round\"/>\n",
            r, g, b, rf->last ? "#b07a00" : "#3a3a3a", rf->last ? "3" : "1.5");
    fputs("</g>\n", out);
    return 1;
}

/* The face's piece and name, drawn after every polygon of the view: a
 * label near the rim reaches past its foreshortened face, and a
 * neighbour's polygon drawn later would cut it off. */
static void draw_label(FILE *out, const Render_View *rv, const Ball_Face *f,
                       const Render_Field *rf)
{
    double n[3], c[3];
    to_view(rv, f->normal, n);
    to_view(rv, f->centre, c);
    fprintf(out, "<g class=\"label\" data-field=\"%s\">", rf->name);

    /* Labels stand upright and are foreshortened as the face is: by nz
     * along the line from the ball's centre through the face (seen edge
     * on at the rim). Near the rim they would shrink to a line, so they
     * keep at least R_MIN_SQUASH of their height (and get a little
     * smaller): every field stays readable in one of the views. One
     * local unit is one pixel where a face looks straight at the viewer. */
    double rx = c[0], ry = -c[1], rl = sqrt(rx * rx + ry * ry);
    double squash = n[2] > R_MIN_SQUASH ? n[2] : R_MIN_SQUASH;
    double k = n[2] > R_MIN_SQUASH ? 1.0 : 0.7 + 0.3 * n[2] / R_MIN_SQUASH;
    if (rl > 1e-9)
        rx /= rl, ry /= rl;
    else
        rx = 0, ry = 1;
    double m_a = k * (1 - (1 - squash) * rx * rx);
    double m_b = -k * (1 - squash) * rx * ry;
    double m_d = k * (1 - (1 - squash) * ry * ry);
    fprintf(out, "<g transform=\"matrix(%.4f %.4f %.4f %.4f %.1f %.1f)\">\n",
            m_a, m_b, m_b, m_d, rv->cx + R_SCALE * c[0],
            rv->cy - R_SCALE * c[1]);
    const char *ink = f->pentagon && !rf->last ? "#f0f0f0" : "#202020";
    if (rf->glyph[0] != '\0') {
        char letter = rf->glyph[0];
        if (letter >= 'a' && letter <= 'z')
            letter = (char)(letter - 'a' + 'A');
        int white = rf->owner == CORE_WHITE;
        fprintf(out,
                "<g class=\"piece\" data-field=\"%s\" data-piece=\"%c\">"
                "<circle cx=\"0\" cy=\"-8\" r=\"27\" fill=\"%s\" "
                "stroke=\"%s\" stroke-width=\"3\"/>"
                "<text x=\"0\" y=\"4\" text-anchor=\"middle\" "
                "font-family=\"DejaVu Serif, serif\" font-weight=\"bold\" "
                "font-size=\"34\" fill=\"%s\">%c</text></g>\n",
                rf->name, rf->glyph[0], white ? "#fbf6e6" : "#2b2420",
                white ? "#5a4a30" : "#d8b25a", white ? "#2b2420" : "#fbf6e6",
                letter);
        fprintf(out,
                "<text x=\"0\" y=\"38\" text-anchor=\"middle\" "
                "font-family=\"DejaVu Sans, sans-serif\" font-size=\"15\" "
                "fill=\"%s\">%s</text>\n",
                ink, rf->name);
    } else {
        fprintf(out,
                "<text x=\"0\" y=\"8\" text-anchor=\"middle\" "
                "font-family=\"DejaVu Sans, sans-serif\" font-size=\"22\" "
                "fill=\"%s\">%s</text>\n",
                ink, rf->name);
    }
    fputs("</g></g>\n", out);
}

/* The field names of a move's notation ("b3xc4", "a-b1") marked last. */
static void mark_last(Render_Field *fields, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p < 'a' || *p > 'h')
            continue;
        char name[3] = {p[0], 0, 0};
        if (p[1] >= '1' && p[1] <= '5')
            name[1] = p[1];
        for (int i = 0; i < BALL_FACES; i++)
            if (strcmp(fields[i].name, name) == 0)
                fields[i].last = 1;
        if (name[1] != '\0')
            p++;
    }
}

static void write_svg(FILE *out, const Core_Position *pos,
                      const Render_Field *fields, const char *last)
{
    Ball ball;
    Core_Status st = core_status(pos);
    Render_View views[2] = {
        {0.95, 0.50, 0, 20 + R_VIEW_W / 2, R_TOP + 290,
         "near side: north pole a at the top"},
        {0.95, 0.50, 1, 20 + R_VIEW_W * 1.5 + 20, R_TOP + 290,
         "far side: the ball turned half a turn, h at the bottom"},
    };
    ball_build(&ball);
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#5b8f4e\"/>\n",
            R_WIDTH, R_HEIGHT, R_WIDTH, R_HEIGHT);
    fputs("<text x=\"24\" y=\"40\" font-family=\"DejaVu Sans, sans-serif\" "
          "font-size=\"26\" font-weight=\"bold\" fill=\"#ffffff\">",
          out);
    put_xml(out, core_game_title(core_position_game(pos)));
    fputs("</text>\n<text x=\"24\" y=\"70\" font-family=\"DejaVu Sans, "
          "sans-serif\" font-size=\"18\" fill=\"#f0f0e0\">",
          out);
    if (st.outcome != CORE_ONGOING)
        fprintf(out, "ply %u, game over: %s (%s)", core_ply(pos),
                core_outcome_name(st.outcome), core_reason_name(st.reason));
    else
        fprintf(out, "ply %u, %s to move", core_ply(pos),
                core_side_to_move(pos) == CORE_WHITE ? "White" : "Black");
    if (last != NULL) {
        fputs("; last move ", out);
        put_xml(out, last);
    }
    fputs("</text>\n", out);
    for (int k = 0; k < 2; k++) {
        const Render_View *rv = &views[k];
        fprintf(out,
                "<g class=\"view\" id=\"%s\">\n"
                "<ellipse cx=\"%.1f\" cy=\"%.1f\" rx=\"200\" ry=\"22\" "
                "fill=\"#000000\" fill-opacity=\"0.25\"/>\n",
                k == 0 ? "near" : "far", rv->cx, rv->cy + 268);
        int shown[BALL_FACES];
        for (int i = 0; i < BALL_FACES; i++)
            shown[i] = draw_face(out, rv, &ball.face[i], &fields[i]);
        for (int i = 0; i < BALL_FACES; i++)
            if (shown[i])
                draw_label(out, rv, &ball.face[i], &fields[i]);
        fprintf(out,
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                "font-family=\"DejaVu Sans, sans-serif\" font-size=\"16\" "
                "fill=\"#f0f0e0\">%s</text>\n</g>\n",
                rv->cx, R_HEIGHT - 16, rv->caption);
    }
    fputs("</svg>\n", out);
}

/* render's flags. */
enum { RENDER_FLAG_SVG, RENDER_FLAG_POSITION };
static const Cli_Flag render_flags[] = {
    {"--svg", CLI_VALUE, RENDER_FLAG_SVG},
    {"--position", CLI_VALUE, RENDER_FLAG_POSITION},
    {NULL, CLI_SWITCH, 0}};

int cli_render(int argc, char **argv)
{
    const char *svg = NULL, *position = NULL, *game = NULL;
    char **moves = calloc((size_t)argc + 1, sizeof *moves);
    int nmoves = 0, status = CLI_EXIT_USAGE;
    Core_Position *pos = NULL, *before = NULL;
    char last[CORE_NOTATION_MAX] = "";

    if (moves == NULL)
        return CLI_EXIT_FAIL;
    for (int i = 0; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            fputs(_(render_help), stdout);
            status = CLI_EXIT_OK;
            goto done;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            const char *v;
            int f = cli_arg("render", render_flags, argc, argv, &i, NULL, &v);
            if (f == RENDER_FLAG_SVG) {
                svg = v;
            } else if (f == RENDER_FLAG_POSITION) {
                position = v;
            } else if (f == CLI_ARG_UNKNOWN) {
                fprintf(stderr, _("tabula render: unknown flag '%s'\n"),
                        cli_token(argv[i]));
                fputs(_(render_help), stderr);
                goto done;
            } else { /* needs a value */
                goto done;
            }
        } else if (game == NULL) {
            game = argv[i];
        } else {
            moves[nmoves++] = argv[i];
        }
    }
    if (game == NULL || svg == NULL) {
        fprintf(stderr, "tabula render: %s\n",
                game == NULL ? _("which game? (chessball)")
                             : _("--svg FILE is required"));
        fputs(_(render_help), stderr);
        goto done;
    }
    const Core_Game *g = cli_game("render", game);
    if (g == NULL)
        goto done;
    if (strcmp(core_game_name(g), "chessball") != 0) {
        fprintf(stderr,
                _("tabula render: only chessball is drawn on a ball; "
                "'%s' has a flat board\n"),
                core_game_name(g));
        goto done;
    }
    pos = cli_setup_position("render", g, NULL, position, moves, nmoves);
    if (pos == NULL)
        goto done;
    if (nmoves > 0) {
        /* The last move once more, from the position before it, for its
         * canonical notation (it was just found legal there). */
        Core_Move mv;
        before =
            cli_setup_position("render", g, NULL, position, moves, nmoves - 1);
        if (before == NULL ||
            core_move_parse(before, moves[nmoves - 1], &mv) != 0 ||
            core_move_format(before, &mv, last, sizeof last) != 0) {
            status = CLI_EXIT_FAIL;
            goto done;
        }
    }

    Core_View view;
    Render_Field fields[BALL_FACES];
    Ball ball;
    ball_build(&ball);
    memset(fields, 0, sizeof fields);
    if (core_view(pos, &view) != 0) {
        status = CLI_EXIT_FAIL;
        goto done;
    }
    for (int i = 0; i < BALL_FACES; i++) {
        memcpy(fields[i].name, ball.face[i].name, sizeof ball.face[i].name);
        fields[i].owner = -1;
    }
    for (int r = 0; r < view.rows; r++)
        for (int c = 0; c < view.cols; c++) {
            const Core_Cell *cell = &view.cell[r][c];
            for (int i = 0; i < BALL_FACES; i++)
                if (cell->name[0] != '\0' &&
                    strcmp(cell->name, fields[i].name) == 0) {
                    memcpy(fields[i].glyph, cell->glyph, sizeof cell->glyph);
                    fields[i].glyph[7] = '\0';
                    fields[i].owner = cell->owner;
                    memcpy(fields[i].detail, cell->detail, sizeof cell->detail);
                    fields[i].detail[47] = '\0';
                }
        }
    if (last[0] != '\0')
        mark_last(fields, last);

    FILE *out = strcmp(svg, "-") == 0 ? stdout : fopen(svg, "w");
    if (out == NULL) {
        fprintf(stderr, _("tabula render: cannot write '%s'\n"), cli_token(svg));
        goto done;
    }
    write_svg(out, pos, fields, last[0] ? last : NULL);
    int bad = ferror(out);
    if (out != stdout)
        bad |= fclose(out) != 0;
    else
        bad |= fflush(out) != 0;
    if (bad) {
        fprintf(stderr, _("tabula render: writing '%s' failed\n"), cli_token(svg));
        status = CLI_EXIT_FAIL;
        goto done;
    }
    status = CLI_EXIT_OK;
done:
    core_position_free(pos);
    core_position_free(before);
    free(moves);
    return status;
}
