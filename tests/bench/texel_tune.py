#!/usr/bin/env python3
"""texel_tune.py: fit the integer weights of a game's core_evaluate to
self-play results (Texel's method), offline tooling for docs/engines.md.

Input: the lines of tests/bench/texel_data (RESULT MOVES POSITION). Each
position's evaluation is a sum of weights times features read from the
position string, the same terms as the game's evaluation in core/; the
tuner finds the scale K that best maps the current weights' scores to
results through 1 / (1 + 10^(-K * score / 400)), then moves one weight at
a time by 16, 4 and 1 while the mean squared error falls. The first
weight (a soldier's or pawn's 100) stays fixed: it sets the scale.
Every tenth position is held out and its error reported.

Chess volleyball's terms need the rules' geometry: texel_data writes
them (core_evaluate_terms) before the position, as t=T1,T2,..., and they
are read from there.

With --point (Chess volleyball) a position is labelled with the winner
of the next point rather than of the match: a match result says little
about a position dozens of points before its end, and the terms score
what holds between two points.

Usage: texel_tune.py [--point] GAME FILE [TERM ...]   (GAME: laska,
       chessball, football, volleyball or volleyball10;
       the named terms keep their start weights)
Floating point here is fine: only the integer weights it prints go into
core/, whose evaluation stays integer and deterministic.
"""
import sys

# name, start weight (the hand-set values in core/, before tuning)
TERMS = {
    "laska": [("soldier", 100), ("officer", 300), ("advance", 6),
              ("reserve", 40), ("prisoner", 25), ("tempo", 0)],
    "chessball": [("pawn", 100), ("knight", 300), ("bishop", 325),
                  ("rook", 450), ("queen", 850), ("mobility", 2),
                  ("tempo", 0)],
    # Football chess: the ball's rank (2 * rank - 8 from White's side,
    # 15 a step: fc_evaluate's distance term, whose file parts cancel),
    # pieces next to the ball, the ones of them that may kick it
    # (D-FC-3), those whose kick sends it forward, pieces within two
    # steps of the ball, pieces guarding their own goal (next to it), the
    # ball's centrality in the half it is in, and the tempo.
    "football": [("rank", 15), ("adjacent", 8), ("kicker", 0),
                 ("forward", 0), ("near", 0), ("guard", 0),
                 ("central", 0), ("tempo", 0)],
    # Chess volleyball (core/volleyball_eval.c, both boards): points,
    # sets, own-half squares no own piece can approach on the near and the
    # far lines, squares two pieces cover, pieces on the board, the
    # server, the side holding a live ball, its untouched pieces that can
    # take it, its touches left, a first touch that must be a pass.
    "volleyball": [("point", 100), ("set", 1000), ("hole_near", -10),
                   ("hole_far", -10), ("cover2", 3), ("pieces", 20),
                   ("serve", 0), ("rally", 0), ("reach", 5),
                   ("touches", 5), ("must_pass", 0)],
}
TERMS["volleyball10"] = TERMS["volleyball"]

FC_KICK_DIRS = {  # piece letter -> may kick along (df, dr)?
    "K": lambda df, dr: True, "Q": lambda df, dr: True,
    "N": lambda df, dr: True,
    "R": lambda df, dr: df == 0 or dr == 0,
    "B": lambda df, dr: df != 0 and dr != 0,
}


def football_features(pos):
    """White-minus-Black counts of the terms above (rank 0 is rank 1)."""
    parts = pos.split()
    board = {}
    ball = None
    for i, row in enumerate(parts[0].split("/")):
        r, f = 8 - i, 0
        for c in row:
            if c.isdigit():
                f += int(c)
                continue
            if c == "*":
                ball = (f, r)
            else:
                board[(f, r)] = c
            f += 1
    bf, br = ball
    x = [0] * 8
    x[0] = 2 * br - 8
    for (f, r), c in board.items():
        sign = 1 if c.isupper() else -1
        df, dr = bf - f, br - r
        if max(abs(df), abs(dr)) == 1:
            x[1] += sign
            if FC_KICK_DIRS[c.upper()](df, dr):
                x[2] += sign
                if dr * sign > 0:
                    x[3] += sign
        if max(abs(df), abs(dr)) <= 2:
            x[4] += sign
        own_goal = (4, 0) if sign > 0 else (4, 8)
        if max(abs(f - own_goal[0]), abs(r - own_goal[1])) == 1:
            x[5] += sign
    x[6] = (4 - abs(bf - 4)) * (br - 4)
    x[7] = 1 if parts[1] == "w" else -1
    return x


def laska_features(pos):
    """White-minus-Black counts of laska_evaluate's terms; tempo is +1
    with White to move, -1 with Black (a bonus for the side to move)."""
    parts = pos.split()
    f = [0] * 6
    f[5] = 1 if parts[0] == "w" else -1
    for col in parts[1:]:
        if not col[0].isalpha():
            break
        rank = int(col[1]) - 1
        pieces = col[2:]
        top = pieces[0]
        white = top in "wW"
        sign = 1 if white else -1
        if top in "WB":
            f[1] += sign
        else:
            f[0] += sign
            f[2] += sign * (rank if white else 6 - rank)
        for p in pieces[1:]:
            if (p in "wW") == white:
                f[3] += sign
            else:
                f[4] += sign
    return f


def chessball_features(pos, moves):
    """White-minus-Black piece counts, the mover's legal moves signed by
    side (cb_evaluate's mobility term), and the tempo as for Laska."""
    placement, side = pos.split()[0], pos.split()[1]
    f = [0] * 7
    f[6] = 1 if side == "w" else -1
    for c in placement:
        i = "PNBRQ".find(c.upper())
        if i >= 0:
            f[i] += 1 if c.isupper() else -1
    f[5] = moves if side == "w" else -moves
    return f


def next_point_labels(rows, plies):
    """Chess volleyball: relabel each position with the winner of the
    next point instead of the match (1: White), found as the next change
    of the score terms (point, set: White minus Black) within the same
    game (its ply numbers rise); a position after the game's last point
    keeps the match result."""
    out = []
    for i, (f, r) in enumerate(rows):
        label = r
        for j in range(i + 1, len(rows)):
            if plies[j] <= plies[j - 1]:
                break
            g = rows[j][0]
            if g[1] != f[1]:
                label = 1.0 if g[1] > f[1] else 0.0
                break
            if g[0] != f[0]:
                label = 1.0 if g[0] > f[0] else 0.0
                break
        out.append((f, label))
    return out


def load(game, path, point=False):
    rows = []
    plies = []
    with open(path) as fh:
        for line in fh:
            res, moves, pos = line.rstrip("\n").split(" ", 2)
            if pos.startswith("t="):
                text, pos = pos.split(" ", 1)
                f = [int(v) for v in text[2:].split(",")]
                plies.append(int(pos.split(" ply=")[1].split()[0]))
            elif game == "laska":
                f = laska_features(pos)
            elif game == "football":
                f = football_features(pos)
            else:
                f = chessball_features(pos, int(moves))
            rows.append((tuple(f), float(res)))
    if point:
        rows = next_point_labels(rows, plies)
    # Equal feature vectors are one term with a count and a result sum.
    groups = {}
    for i, (f, r) in enumerate(rows):
        key = (f, i % 10 == 0)
        n, s = groups.get(key, (0, 0.0))
        groups[key] = (n + 1, s + r)
    train = [(f, n, s) for (f, held), (n, s) in groups.items() if not held]
    test = [(f, n, s) for (f, held), (n, s) in groups.items() if held]
    return rows, train, test


def scores_of(data, w):
    return [sum(a * b for a, b in zip(w, f)) for f, _, _ in data]


def error(data, w, k, scores=None):
    """Mean squared error; scores (the groups' weighted sums, when the
    caller keeps them) saves recomputing every term."""
    total = 0.0
    count = 0
    if scores is None:
        scores = scores_of(data, w)
    c = -k / 400.0
    for (f, n, s), score in zip(data, scores):
        p = 1.0 / (1.0 + 10.0 ** (c * score))
        # sum over the group of (r - p)^2 with r's mean s / n: expand.
        total += n * p * p - 2.0 * p * s + s  # r^2 = r for r in {0, 1};
        count += n                            # 0.5^2 is corrected below
    return total / count


def fit_k(data, w):
    best = (error(data, w, 1.0), 1.0)
    k = 0.1
    while k <= 4.0:
        e = error(data, w, k)
        if e < best[0]:
            best = (e, k)
        k += 0.05
    return best[1]


def main():
    args = sys.argv[1:]
    point = "--point" in args
    args = [a for a in args if a != "--point"]
    game, path, fixed = args[0], args[1], set(args[2:])
    rows, train, test = load(game, path, point)
    names = [t[0] for t in TERMS[game]]
    w = [t[1] for t in TERMS[game]]
    if point:
        # The score does not predict the next point: the fit runs without
        # it, on a fixed K = 1, and the weights are printed also as
        # hundredths of a point, 100 * (2p - 1) ~ s * ln(10) / 8.
        w[0] = w[1] = 0
        fixed |= {names[1]}
        k = 1.0
    else:
        k = fit_k(train, w)
    before = (error(train, w, k), error(test, w, k))
    scores = scores_of(train, w)
    for step in (16, 4, 1):
        improved = True
        while improved:
            improved = False
            base = error(train, w, k, scores)
            for i in range(1, len(w)):
                if names[i] in fixed:
                    continue
                for d in (step, -step):
                    moved = [sc + d * f[i]
                             for sc, (f, _, _) in zip(scores, train)]
                    e = error(train, w, k, moved)
                    if e < base:
                        w[i] += d
                        scores = moved
                        base = e
                        improved = True
                        break
    after = (error(train, w, k), error(test, w, k))
    draws = sum(1 for _, r in rows if r == 0.5)
    print(f"game {game} positions {len(rows)} draws {draws} K {k:.2f}")
    print("weights before " + " ".join(
        f"{n}={v}" for n, v in zip(names, [t[1] for t in TERMS[game]])))
    print("weights after  " + " ".join(f"{n}={v}" for n, v in zip(names, w)))
    if point:
        print("in hundredths of a point " + " ".join(
            f"{n}={round(v * 0.2878)}" for n, v in zip(names, w)))
    # The expansion above counts a draw's r^2 as 0.5 instead of 0.25: the
    # same constant for every weight set, so comparisons hold; report the
    # exact error by subtracting it.
    corr_train = 0.25 * sum(1 for i, (_, r) in enumerate(rows)
                            if r == 0.5 and i % 10 != 0)
    corr_test = 0.25 * sum(1 for i, (_, r) in enumerate(rows)
                           if r == 0.5 and i % 10 == 0)
    n_train = sum(1 for i in range(len(rows)) if i % 10 != 0)
    n_test = len(rows) - n_train
    print("mse train before %.5f after %.5f; held out before %.5f after %.5f"
          % (before[0] - corr_train / n_train, after[0] - corr_train / n_train,
             before[1] - corr_test / n_test, after[1] - corr_test / n_test))


if __name__ == "__main__":
    main()
