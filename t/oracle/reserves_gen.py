#!/usr/bin/env python3
"""reserves_gen.py: random ovb-reserves inputs (python3 stdlib only).

    reserves_gen.py --seed S [--nodes N] [--classes C] [--rounds K]
                    [--sum-d PCT] [--no-r] [--walk F] [--decimals P]
                    [--usage random|blocky|zero]

Shares D: random, adding up to --sum-d (default: 100 for odd seeds, 60..100
for even ones), with now and then a class at 0 or below 1%.  Per node the
usage row is random with zeros, sometimes tiny (< 1%, an idle class) and
sometimes filling the node; r (unless --no-r) is random with about half
its cells above u (the usage cap applies) and some rows full.  Rounds after
the first move u by a random walk of relative size --walk (default 0.1)
and give no r (ovb-reserves uses the previous R).  Values have --decimals
digits (default 3) and rows never add up to more than 100.  --usage
blocky: the nodes form blocks (about one per 10 nodes, at most one per
class) and a node uses mostly the classes of its block (class j belongs to
block j mod B), little else; zero: no usage at all.  Written to stdout."""

import argparse
import random


def fmt(x, p):
    s = f"{x:.{p}f}".rstrip("0").rstrip(".")
    return s if s not in ("", "-0") else "0"


def row(rng, s, fill, p):
    """A random row of s percentages adding up to at most 100."""
    v = []
    for _ in range(s):
        k = rng.random()
        if k < 0.15:
            v.append(0.0)
        elif k < 0.25:
            v.append(rng.uniform(0, 1))
        else:
            v.append(rng.uniform(0, 100))
    tot = sum(v)
    if tot > 0:
        scale = fill / tot
        v = [x * scale for x in v]
    q = 10 ** p
    v = [int(x * q) / q for x in v]       # truncation keeps the sum <= fill
    return v


def shares(rng, s, total, p):
    w = [rng.expovariate(1) for _ in range(s)]
    for j in range(s):
        k = rng.random()
        if k < 0.05:
            w[j] = 0
        elif k < 0.12:
            w[j] = 1e-3 * rng.random()
    tot = sum(w) or 1
    q = 10 ** p
    return [int(x * total / tot * q) / q for x in w]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--nodes", type=int, default=5)
    ap.add_argument("--classes", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--sum-d", type=float)
    ap.add_argument("--no-r", action="store_true")
    ap.add_argument("--walk", type=float, default=0.1)
    ap.add_argument("--decimals", type=int, default=3)
    ap.add_argument("--usage", choices=("random", "blocky", "zero"),
                    default="random")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n, s, p = a.nodes, a.classes, a.decimals
    total = a.sum_d if a.sum_d is not None else (
        100 if a.seed % 2 else rng.uniform(60, 100))
    D = shares(rng, s, total, p)
    out = ["ovb-reserves 1"]
    out += [f"class c{j + 1} {fmt(D[j], p)}" for j in range(s)]
    out += [f"node n{i + 1}" for i in range(n)]
    u = [row(rng, s, 100 if rng.random() < 0.4 else rng.uniform(10, 100), p)
         for _ in range(n)]
    if a.usage == "zero":
        u = [[0.0] * s for _ in range(n)]
    elif a.usage == "blocky":
        nb = max(1, min(s, n // 10 if n >= 20 else 2))
        q = 10 ** p
        for i in range(n):
            b = i * nb // n
            v = [rng.uniform(20, 100) if j % nb == b else
                 (rng.uniform(0, 2) if rng.random() < 0.3 else 0.0)
                 for j in range(s)]
            fill = 100 if rng.random() < 0.5 else rng.uniform(30, 100)
            tot = sum(v)
            if tot > fill:
                v = [x * fill / tot for x in v]
            u[i] = [int(x * q) / q for x in v]
    for k in range(a.rounds):
        out.append(f"round {k + 1}")
        if k:
            q = 10 ** p
            for i in range(n):
                v = [max(0.0, x * (1 + rng.uniform(-a.walk, a.walk)))
                     for x in u[i]]
                tot = sum(v)
                if tot > 100:
                    v = [x * 100 / tot for x in v]
                u[i] = [int(x * q) / q for x in v]
        for i in range(n):
            for j in range(s):
                out.append(f"u n{i + 1} c{j + 1} {fmt(u[i][j], p)}")
        if k == 0 and not a.no_r:
            for i in range(n):
                if rng.random() < 0.5:
                    r = row(rng, s, 100 if rng.random() < 0.5 else
                            rng.uniform(10, 100), p)
                else:   # around u: about half the cells above it
                    q = 10 ** p
                    r = [int(max(0.0, x + rng.uniform(-5, 5)) * q) / q
                         for x in u[i]]
                    tot = sum(r)
                    if tot > 100:
                        r = [int(x * 100 / tot * q) / q for x in r]
                for j in range(s):
                    out.append(f"r n{i + 1} c{j + 1} {fmt(r[j], p)}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
