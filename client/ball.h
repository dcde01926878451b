/*
 * ball.h: the Chessball field as a solid in space, for pictures. The
 * truncated icosahedron is built in floating point (client/ only; core/
 * derives the same board without coordinates) from the standard
 * coordinates of the icosahedron (0, +-1, +-phi) and cyclic permutations,
 * turned so that one vertex is the north pole, and its 32 faces are named
 * by the construction of D-CB-1: a = the north pole vertex, c1..c5 its
 * neighbours eastward (c1 at longitude 0), fk the vertex next to ck and
 * ck+1, h the south pole; hexagons bk = (a,ck,ck+1), dk = (ck,ck+1,fk),
 * ek = (fk,fk+1,ck+1), gk = (h,fk,fk+1). Pentagons are the icosahedron's
 * vertices cut off at a third of each edge.
 */
#ifndef TABULA_BALL_H
#define TABULA_BALL_H

#define BALL_FACES 32

typedef struct Ball_Face {
    char name[4];      /* "a", "b1", ... "h" (D-CB-1) */
    int pentagon;      /* 1 for the 12 black pentagons, 0 for hexagons */
    int nvert;         /* 5 or 6 */
    double vert[6][3]; /* corners, counter-clockwise seen from outside */
    double centre[3];  /* mean of the corners */
    double normal[3];  /* outward unit normal */
} Ball_Face;

/* Faces in the core's field order: a, b1..b5, c1..c5, ..., g5, h.
 * Coordinates: z points to the north pole a, x to longitude 0; the
 * icosahedron's edge is 2, so the truncated solid's edge is 2/3. */
typedef struct Ball {
    Ball_Face face[BALL_FACES];
} Ball;

/* Build the solid into b. Never fails. */
void ball_build(Ball *b);

/* 1 when faces i and j (0..31) share an edge (two corners), else 0. */
int ball_adjacent(const Ball *b, int i, int j);

#endif /* TABULA_BALL_H */
