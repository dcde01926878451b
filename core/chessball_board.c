/*
 * chessball_board.c: the Chessball field (seed 2.1) as data. Everything is
 * derived once from the icosahedron's 20 faces as D-CB-1 names them: the
 * truncated icosahedron's pentagons are the icosahedron's vertices and its
 * hexagons its faces, so adjacency, the straight lines (D-CB-2), the rook
 * rings (D-CB-3), the knight's neighbours (D-CB-4) and the antipodes all
 * follow from which faces share which vertices. No coordinates, no
 * floating point. From the rays it then builds the slider reach tables
 * (multiply-shift hashing of the blocking fields) and the zobrist keys.
 */
#include <string.h>
#if defined(__wasi__)
/* wasm32-wasi has no <threads.h>: the page runs the core on one thread
 * per instance (a Web Worker is another instance), so a plain flag does
 * call_once's work there. */
typedef int once_flag;
#define ONCE_FLAG_INIT 0
static void call_once(once_flag *flag, void (*fn)(void))
{
    if (!*flag) {
        fn();
        *flag = 1;
    }
}
#else
#include <threads.h>
#endif

#include "chessball_internal.h"

/* Icosahedron vertices 0..11: a, c1..c5, f1..f5, h (D-CB-1). */
#define V_A 0
#define V_C(k) (1 + ((k) + 4) % 5) /* k = 1..5, wrapping */
#define V_F(k) (6 + ((k) + 4) % 5)
#define V_H 11

static int vertex_field(int v)
{
    if (v == V_A)
        return 0;
    if (v <= 5)
        return 5 + v; /* c1 = field 6 */
    if (v <= 10)
        return 21 + (v - 6); /* f1 = field 21 */
    return 31;
}

/* Face i (0..19) is hexagon field: b1..b5 = 1..5, d = 11.., e = 16.., g =
 * 26..; its vertex triple per D-CB-1. */
static int face_field(int f)
{
    static const int base[4] = {1, 11, 16, 26};
    return base[f / 5] + f % 5;
}

static void face_vertices(int f, int out[3])
{
    int k = f % 5 + 1;
    switch (f / 5) {
    case 0: /* bk = (a, ck, ck+1) */
        out[0] = V_A, out[1] = V_C(k), out[2] = V_C(k + 1);
        break;
    case 1: /* dk = (ck, ck+1, fk) */
        out[0] = V_C(k), out[1] = V_C(k + 1), out[2] = V_F(k);
        break;
    case 2: /* ek = (fk, fk+1, ck+1) */
        out[0] = V_F(k), out[1] = V_F(k + 1), out[2] = V_C(k + 1);
        break;
    default: /* gk = (h, fk, fk+1) */
        out[0] = V_H, out[1] = V_F(k), out[2] = V_F(k + 1);
        break;
    }
}

Cb_Tables core__cb_tables;
static once_flag tables_once = ONCE_FLAG_INIT;

/* Vertex sets of faces as 12-bit masks. */
static unsigned face_vmask(int f)
{
    int v[3];
    face_vertices(f, v);
    return (1u << v[0]) | (1u << v[1]) | (1u << v[2]);
}

static int popcount12(unsigned m)
{
    int n = 0;
    for (; m != 0; m &= m - 1)
        n++;
    return n;
}

static void set_ray(Cb_Ray *r, const uint8_t *sq, int len)
{
    memset(r, 0, sizeof *r);
    r->len = (uint8_t)len;
    for (int i = 0; i < len; i++) {
        r->sq[i] = sq[i];
        r->bit[i] = 1u << sq[i];
    }
}

/* Multipliers the search below found for these tables (bishops, then
 * rooks, by field). They are only a head start: each is checked like any
 * candidate, and a failing one falls back to the search. */
static const uint64_t magic_hint[2][CB_FIELDS] = {
    {
        UINT64_C(0x01080201060000d6), UINT64_C(0x1404a080000c0000),
        UINT64_C(0x1084100004019281), UINT64_C(0x9244085800420209),
        UINT64_C(0x4409100004000701), UINT64_C(0x1401000000480800),
        UINT64_C(0x0410010082000004), UINT64_C(0x5200102000108104),
        UINT64_C(0x010180202000a000), UINT64_C(0x000830008d028000),
        UINT64_C(0x40a8a00801002400), UINT64_C(0x2000280000000103),
        UINT64_C(0x0800448000002406), UINT64_C(0x1480600e00000014),
        UINT64_C(0x1804180001880000), UINT64_C(0x2400340004d80600),
        UINT64_C(0x8004042008004088), UINT64_C(0x0804808400190000),
        UINT64_C(0x1552000200340203), UINT64_C(0x000080842c020100),
        UINT64_C(0x0a08430201028000), UINT64_C(0x4210300480080860),
        UINT64_C(0x0681402120010041), UINT64_C(0x90010810c0000004),
        UINT64_C(0x0002481020008480), UINT64_C(0x00c4080088140200),
        UINT64_C(0x890020110202b003), UINT64_C(0x8400404c20110002),
        UINT64_C(0x0000081200008000), UINT64_C(0x00000802100088e0),
        UINT64_C(0x0a20046344010980), UINT64_C(0x1a00140008000000),
    },
    {
        UINT64_C(0x4801010100002400), UINT64_C(0x04080800003a0060),
        UINT64_C(0x0204200080080400), UINT64_C(0x419186000c000400),
        UINT64_C(0x404f801003000c00), UINT64_C(0x0c11040000002020),
        UINT64_C(0x1000001000412202), UINT64_C(0xe20044800a200048),
        UINT64_C(0x0000000600802130), UINT64_C(0x0210201100201600),
        UINT64_C(0x0000400020200000), UINT64_C(0x1104300580008004),
        UINT64_C(0x100014260000aa80), UINT64_C(0xb800110208b0000a),
        UINT64_C(0x0488020228200100), UINT64_C(0x0200183140022c10),
        UINT64_C(0x0404002010020200), UINT64_C(0x020068c280000000),
        UINT64_C(0x1810090080086020), UINT64_C(0x1004044200008030),
        UINT64_C(0x0200900038100000), UINT64_C(0x0003549090200200),
        UINT64_C(0x14c0040600082041), UINT64_C(0x0011106008440000),
        UINT64_C(0x0040000450008140), UINT64_C(0x4800200000000180),
        UINT64_C(0x8008004120041050), UINT64_C(0x1085c8001048c280),
        UINT64_C(0x000008208000000c), UINT64_C(0x1092040010180000),
        UINT64_C(0x001000a190e00504), UINT64_C(0x19009020408a0100),
    },
};

static uint32_t rays_reach(const Cb_Ray *rays, int n, uint32_t occ)
{
    uint32_t a = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < rays[r].len; i++) {
            a |= rays[r].bit[i];
            if (occ & rays[r].bit[i])
                break;
        }
    return a;
}

/* Find a multiplier that maps every blocker subset of a field's rays to
 * an index with the right reach; fill the table from off. Deterministic:
 * candidates come from the fixed generator. Returns the next free off. */
static uint32_t find_magic(Cb_Magic *m, const Cb_Ray *rays, int n, uint32_t off,
                           uint64_t hint, uint64_t *seed)
{
    static uint32_t occs[1024], reach[1024], seen[2048], stamp[2048];
    static uint32_t epoch;
    uint32_t mask = 0;
    int bits, count = 0;

    /* A ray's last field never blocks anything beyond it. */
    for (int r = 0; r < n; r++)
        for (int i = 0; i + 1 < rays[r].len; i++)
            mask |= rays[r].bit[i];
    bits = popcount12(mask);
    if (bits == 0)
        bits = 1;
    if (bits >= 9)
        bits++;
    /* Every subset of mask (carry-rippler). */
    uint32_t sub = 0;
    do {
        occs[count] = sub;
        reach[count] = rays_reach(rays, n, sub);
        count++;
        sub = (sub - mask) & mask;
    } while (sub != 0);
    m->mask = mask;
    m->shift = (uint8_t)(64 - bits);
    m->off = off;
    for (;;) {
        uint64_t magic = hint;
        if (magic == 0)
            magic = core__splitmix64(seed) & core__splitmix64(seed) &
                    core__splitmix64(seed);
        hint = 0;
        int ok = 1;
        epoch++;
        for (int i = 0; i < count && ok; i++) {
            uint32_t idx = (uint32_t)(((uint64_t)occs[i] * magic) >> m->shift);
            if (stamp[idx] != epoch) {
                stamp[idx] = epoch;
                seen[idx] = reach[i];
            } else if (seen[idx] != reach[i]) {
                ok = 0;
            }
        }
        if (!ok)
            continue;
        m->magic = magic;
        for (uint32_t i = 0; i < (1u << bits); i++)
            core__cb_tables.attack[off + i] = stamp[i] == epoch ? seen[i] : 0;
        return off + (1u << bits);
    }
}

static void derive(void)
{
    Cb_Tables *t = &core__cb_tables;
    unsigned fv[20];
    int field_of_face[20];

    memset(t, 0, sizeof *t);
    for (int f = 0; f < 20; f++) {
        fv[f] = face_vmask(f);
        field_of_face[f] = face_field(f);
    }

    /* Names (D-CB-1). */
    for (int i = 0; i < CB_FIELDS; i++) {
        if (i == 0 || i == 31) {
            t->name[i][0] = i == 0 ? 'a' : 'h';
        } else {
            t->name[i][0] = (char)('b' + (i - 1) / 5);
            t->name[i][1] = (char)('1' + (i - 1) % 5);
        }
    }

    /* Adjacency: a hexagon touches the pentagons of its triple and the
     * hexagons whose triples share two vertices; no two pentagons touch. */
    for (int f = 0; f < 20; f++) {
        int hf = field_of_face[f];
        for (int v = 0; v < 12; v++) {
            if (fv[f] & (1u << v)) {
                int pf = vertex_field(v);
                t->adj[hf] |= 1u << pf;
                t->adj[pf] |= 1u << hf;
            }
        }
        for (int g = 0; g < 20; g++)
            if (g != f && popcount12(fv[f] & fv[g]) == 2)
                t->adj[hf] |= 1u << field_of_face[g];
        int n = 0;
        for (int v = 0; v < 12; v++)
            if (fv[f] & (1u << v))
                t->tri[hf][n++] = (uint8_t)vertex_field(v);
    }
    /* Sort each triple by field index (vertex order already ascends with
     * field order, but keep it explicit). */
    for (int i = 0; i < CB_FIELDS; i++) {
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++)
                if (t->tri[i][b] < t->tri[i][a]) {
                    uint8_t x = t->tri[i][a];
                    t->tri[i][a] = t->tri[i][b];
                    t->tri[i][b] = x;
                }
    }

    /* Knight (D-CB-4): icosahedron neighbours, vertices sharing a face. */
    for (int v = 0; v < 12; v++)
        for (int w = 0; w < 12; w++) {
            if (v == w)
                continue;
            for (int f = 0; f < 20; f++)
                if ((fv[f] & (1u << v)) && (fv[f] & (1u << w)))
                    t->knight[vertex_field(v)] |= 1u << vertex_field(w);
        }

    /* Antipodes: a vertex's antipode is the one vertex at distance 3 in
     * the icosahedron (neither itself, a neighbour, nor a neighbour's
     * neighbour); a face's antipode is the face of the antipodal
     * vertices. */
    int vanti[12];
    for (int v = 0; v < 12; v++) {
        uint32_t near = t->knight[vertex_field(v)] | (1u << vertex_field(v));
        uint32_t near2 = near;
        for (int w = 0; w < 12; w++)
            if (near & (1u << vertex_field(w)))
                near2 |= t->knight[vertex_field(w)];
        vanti[v] = -1;
        for (int w = 0; w < 12; w++)
            if (!(near2 & (1u << vertex_field(w))))
                vanti[v] = w;
        t->antipode[vertex_field(v)] = (uint8_t)vertex_field(vanti[v]);
    }
    for (int f = 0; f < 20; f++) {
        unsigned m = 0;
        for (int v = 0; v < 12; v++)
            if (fv[f] & (1u << v))
                m |= 1u << vanti[v];
        for (int g = 0; g < 20; g++)
            if (fv[g] == m)
                t->antipode[field_of_face[f]] = (uint8_t)field_of_face[g];
    }

    /* Lines (D-CB-2): from vertex u through face F = (u, v, w), across the
     * edge vw opposite u into the face G = (v, w, x), ending on x. Each
     * line is met from both ends; keep the one starting at the lower
     * field. */
    int nline = 0;
    for (int f = 0; f < 20; f++) {
        for (int u = 0; u < 12; u++) {
            if (!(fv[f] & (1u << u)))
                continue;
            unsigned vw = fv[f] & ~(1u << u);
            for (int g = 0; g < 20; g++) {
                if (g == f || (fv[g] & vw) != vw)
                    continue;
                unsigned xm = fv[g] & ~vw;
                int x = 0;
                while (!(xm & (1u << x)))
                    x++;
                if (vertex_field(u) < vertex_field(x)) {
                    uint8_t *l = t->line[nline++];
                    l[0] = (uint8_t)vertex_field(u);
                    l[1] = (uint8_t)field_of_face[f];
                    l[2] = (uint8_t)field_of_face[g];
                    l[3] = (uint8_t)vertex_field(x);
                }
            }
        }
    }
    /* Bishop rays: along each line through a field, toward either end. */
    for (int l = 0; l < nline; l++) {
        for (int i = 0; i < 4; i++) {
            int s = t->line[l][i];
            uint8_t sq[4];
            int n = 0;
            for (int j = i + 1; j < 4; j++)
                sq[n++] = t->line[l][j];
            if (n > 0)
                set_ray(&t->bishop[s][t->nbishop[s]++], sq, n);
            n = 0;
            for (int j = i - 1; j >= 0; j--)
                sq[n++] = t->line[l][j];
            if (n > 0)
                set_ray(&t->bishop[s][t->nbishop[s]++], sq, n);
        }
    }

    /* Rings (D-CB-3): the 5 faces round a vertex, in cyclic order, each
     * sharing an edge with the next. Start at the lowest field; the first
     * step goes to the lower of its two ring neighbours. */
    for (int v = 0; v < 12; v++) {
        int p = vertex_field(v);
        uint32_t members = t->adj[p]; /* the 5 hexagons round p */
        int cur = 0, prev = -1;
        while (!(members & (1u << cur)))
            cur++;
        for (int k = 0; k < 5; k++) {
            t->ring[p][k] = (uint8_t)cur;
            uint32_t next = t->adj[cur] & members & ~(1u << cur);
            if (prev >= 0)
                next &= ~(1u << prev);
            int nx = 0;
            while (next != 0 && !(next & (1u << nx)))
                nx++;
            prev = cur;
            cur = nx;
        }
    }
    /* Rook rays: from a hexagon round each of its 3 pentagons, both
     * senses, 4 fields each. */
    for (int h = 0; h < CB_FIELDS; h++) {
        if ((CB_HEX_MASK & (1u << h)) == 0)
            continue;
        for (int k = 0; k < 3; k++) {
            int p = t->tri[h][k], at = 0;
            while (t->ring[p][at] != h)
                at++;
            uint8_t fw[4], bw[4];
            for (int j = 1; j <= 4; j++) {
                fw[j - 1] = t->ring[p][(at + j) % 5];
                bw[j - 1] = t->ring[p][(at + 5 - j) % 5];
            }
            set_ray(&t->rook[h][t->nrook[h]++], fw, 4);
            set_ray(&t->rook[h][t->nrook[h]++], bw, 4);
        }
    }

    /* Slider lookups (checked against ray walks in the tests). */
    uint32_t off = 0;
    uint64_t mseed = UINT64_C(0x6D61676963); /* "magic" */
    for (int s = 0; s < CB_FIELDS; s++)
        off = find_magic(&t->bishop_magic[s], t->bishop[s], t->nbishop[s], off,
                         magic_hint[0][s], &mseed);
    for (int s = 0; s < CB_FIELDS; s++)
        off = find_magic(&t->rook_magic[s], t->rook[s], t->nrook[s], off,
                         magic_hint[1][s], &mseed);

    /* Zobrist keys from the fixed generator. */
    uint64_t seed = UINT64_C(0x43686573736261); /* "Chessba" */
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < CB_KINDS; k++)
            for (int i = 0; i < CB_FIELDS; i++)
                t->zobrist[c][k][i] = core__splitmix64(&seed);
    t->zobrist_black = core__splitmix64(&seed);
}

void core__cb_tables_derive(void)
{
    call_once(&tables_once, derive);
}

int cb_field_parse(const char *s, int len)
{
    if (len == 1 && (s[0] == 'a' || s[0] == 'h'))
        return s[0] == 'a' ? 0 : 31;
    if (len == 2 && s[0] >= 'b' && s[0] <= 'g' && s[1] >= '1' && s[1] <= '5')
        return 1 + (s[0] - 'b') * 5 + (s[1] - '1');
    return -1;
}
