/*
 * ball.c: the truncated icosahedron in coordinates, its faces named as
 * D-CB-1 names the fields (see ball.h). Used by `tabula render` to draw
 * the ball; the tests check that its face adjacency is the core's.
 */
#include <math.h>
#include <string.h>

#include "ball.h"

#define ICO_VERTS 12
#define BALL_PI 3.14159265358979323846

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}

static void normalize(double v[3])
{
    double n = sqrt(dot(v, v));
    if (n > 0)
        for (int i = 0; i < 3; i++)
            v[i] /= n;
}

static double dist2(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return dot(d, d);
}

/* Icosahedron vertices turned so that std[0] = (0, 1, phi) is the north
 * pole and its first neighbour lies at longitude 0. */
static void icosahedron(double v[ICO_VERTS][3])
{
    const double phi = (1.0 + sqrt(5.0)) / 2.0;
    double std[ICO_VERTS][3];
    int n = 0;
    for (int s1 = 1; s1 >= -1; s1 -= 2)
        for (int s2 = 1; s2 >= -1; s2 -= 2) {
            double a = s1, b = s2 * phi;
            double p[3][3] = {{0, a, b}, {a, b, 0}, {b, 0, a}};
            for (int k = 0; k < 3; k++)
                memcpy(std[n + 4 * k], p[k], sizeof p[k]);
            n++;
        }
    /* std[0] = (0, 1, phi); an axis frame with z' on it. */
    double z[3], x[3], y[3];
    memcpy(z, std[0], sizeof z);
    normalize(z);
    int first = -1;
    for (int i = 1; i < ICO_VERTS && first < 0; i++)
        if (fabs(dist2(std[0], std[i]) - 4.0) < 1e-9)
            first = i;
    for (int k = 0; k < 3; k++)
        x[k] = std[first][k] - dot(std[first], z) * z[k];
    normalize(x);
    cross(z, x, y);
    for (int i = 0; i < ICO_VERTS; i++) {
        double p[3] = {dot(std[i], x), dot(std[i], y), dot(std[i], z)};
        memcpy(v[i], p, sizeof p);
    }
}

static int ico_adjacent(double v[ICO_VERTS][3], int i, int j)
{
    return i != j && fabs(dist2(v[i], v[j]) - 4.0) < 1e-9;
}

static double longitude(const double p[3])
{
    double l = atan2(p[1], p[0]);
    if (l < -1e-9)
        l += 2 * BALL_PI;
    return l < 0 ? 0 : l;
}

/* Order a face's corners counter-clockwise seen from outside. */
static void order_corners(Ball_Face *f)
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < f->nvert; i++)
        for (int k = 0; k < 3; k++)
            c[k] += f->vert[i][k] / f->nvert;
    memcpy(f->centre, c, sizeof c);
    memcpy(f->normal, c, sizeof c);
    normalize(f->normal);
    double e1[3], e2[3], ang[6];
    for (int k = 0; k < 3; k++)
        e1[k] = f->vert[0][k] - c[k];
    normalize(e1);
    cross(f->normal, e1, e2);
    for (int i = 0; i < f->nvert; i++) {
        double d[3] = {f->vert[i][0] - c[0], f->vert[i][1] - c[1],
                       f->vert[i][2] - c[2]};
        ang[i] = atan2(dot(d, e2), dot(d, e1));
    }
    for (int i = 1; i < f->nvert; i++) /* insertion sort by angle */
        for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
            double ta = ang[j], tv[3];
            ang[j] = ang[j - 1];
            ang[j - 1] = ta;
            memcpy(tv, f->vert[j], sizeof tv);
            memcpy(f->vert[j], f->vert[j - 1], sizeof tv);
            memcpy(f->vert[j - 1], tv, sizeof tv);
        }
}

/* The point a third of the way from vertex u to vertex w. */
static void third(double v[ICO_VERTS][3], int u, int w, double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = v[u][k] + (v[w][k] - v[u][k]) / 3.0;
}

void ball_build(Ball *b)
{
    double v[ICO_VERTS][3];
    int c[5], f[5], a = 0, h = -1;

    memset(b, 0, sizeof *b);
    icosahedron(v);
    /* c1..c5: a's neighbours by longitude, eastward. */
    int nc = 0;
    for (int i = 1; i < ICO_VERTS; i++)
        if (ico_adjacent(v, a, i))
            c[nc++] = i;
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && longitude(v[c[j]]) < longitude(v[c[j - 1]]);
             j--) {
            int t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    /* fk: the vertex next to ck and ck+1 that is not a. */
    for (int k = 0; k < 5; k++)
        for (int i = 1; i < ICO_VERTS; i++)
            if (ico_adjacent(v, i, c[k]) && ico_adjacent(v, i, c[(k + 1) % 5]))
                f[k] = i;
    for (int i = 0; i < ICO_VERTS; i++)
        if (dist2(v[i], v[a]) > 4 * dot(v[a], v[a]) - 1e-9)
            h = i; /* the antipode */

    /* Hexagons: 20 icosahedron faces. */
    static const char layer[4] = {'b', 'd', 'e', 'g'};
    static const int base[4] = {1, 11, 16, 26};
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < 5; k++) {
            int t[3], k1 = (k + 1) % 5;
            switch (l) {
            case 0:
                t[0] = a, t[1] = c[k], t[2] = c[k1];
                break;
            case 1:
                t[0] = c[k], t[1] = c[k1], t[2] = f[k];
                break;
            case 2:
                t[0] = f[k], t[1] = f[k1], t[2] = c[k1];
                break;
            default:
                t[0] = h, t[1] = f[k], t[2] = f[k1];
                break;
            }
            Ball_Face *fc = &b->face[base[l] + k];
            fc->name[0] = layer[l];
            fc->name[1] = (char)('1' + k);
            fc->nvert = 6;
            for (int e = 0; e < 3; e++) {
                third(v, t[e], t[(e + 1) % 3], fc->vert[2 * e]);
                third(v, t[(e + 1) % 3], t[e], fc->vert[2 * e + 1]);
            }
            order_corners(fc);
        }
    /* Pentagons: 12 icosahedron vertices. */
    int pent_vertex[12], pent_field[12];
    pent_vertex[0] = a, pent_field[0] = 0;
    for (int k = 0; k < 5; k++) {
        pent_vertex[1 + k] = c[k], pent_field[1 + k] = 6 + k;
        pent_vertex[6 + k] = f[k], pent_field[6 + k] = 21 + k;
    }
    pent_vertex[11] = h, pent_field[11] = 31;
    for (int p = 0; p < 12; p++) {
        Ball_Face *fc = &b->face[pent_field[p]];
        int u = pent_vertex[p];
        if (p == 0 || p == 11) {
            fc->name[0] = p == 0 ? 'a' : 'h';
        } else {
            fc->name[0] = p <= 5 ? 'c' : 'f';
            fc->name[1] = (char)('1' + (p - 1) % 5);
        }
        fc->pentagon = 1;
        for (int w = 0; w < ICO_VERTS; w++)
            if (ico_adjacent(v, u, w))
                third(v, u, w, fc->vert[fc->nvert++]);
        order_corners(fc);
    }
}

int ball_adjacent(const Ball *b, int i, int j)
{
    int shared = 0;
    if (i == j || i < 0 || j < 0 || i >= BALL_FACES || j >= BALL_FACES)
        return 0;
    for (int p = 0; p < b->face[i].nvert; p++)
        for (int q = 0; q < b->face[j].nvert; q++)
            shared += dist2(b->face[i].vert[p], b->face[j].vert[q]) < 1e-12;
    return shared >= 2;
}
