#!/usr/bin/env python3
"""onoff.py: random ovb-onoff traces for the tests (python3 stdlib only).

    onoff.py --seed S [--capsules N] [--cpus C] [--span NS] [--busy K]
           [--xfers K] [--gaps K] [--grid NS] [--t0 NS]

Every capsule gets up to K busy periods (ordered, disjoint, sometimes
touching, 1..C CPUs), up to K sends and K receives (sometimes several at
one instant, sometimes 0 bytes); the trace gets up to --gaps gaps (some of
length 0).  With --grid, about a third of all times fall on multiples of
NS from t0 (measurement-interval edges).  Written to stdout."""

import argparse
import random


def when(rng, a, b, t0, grid):
    if grid and rng.random() < 0.35:
        k0, k1 = -(-(a - t0) // grid), (b - t0) // grid
        if k0 <= k1:
            return t0 + grid * rng.randint(k0, k1)
    return rng.randint(a, b)


def times(rng, k, a, b, t0, grid):
    return sorted(when(rng, a, b, t0, grid) for _ in range(k))


def busy(rng, k, cpus, a, b, t0, grid):
    ts = times(rng, 2 * k, a, b, t0, grid)
    out, last = [], a
    for i in range(0, len(ts) - 1, 2):
        s, e = ts[i], ts[i + 1]
        if rng.random() < 0.25 and out:
            s = last                      # touching the previous period
        if s < last or s >= e:
            continue
        n = 1 if rng.random() < 0.5 else rng.randint(1, cpus)
        out.append((s, e, n))
        last = e
    return out


def xfers(rng, k, a, b, t0, grid):
    ts = times(rng, k, a, b, t0, grid)
    out = []
    for t in ts:
        if out and rng.random() < 0.3:
            t = out[-1][0]                # several at one instant
        nb = 0 if rng.random() < 0.05 else rng.choice(
            [rng.randint(1, 1500), rng.randint(1, 65536)])
        out.append((t, nb))
    return out


def gaps(rng, k, a, b, t0, grid):
    ts = times(rng, 2 * k, a, b, t0, grid)
    out, last = [], None
    for i in range(0, len(ts) - 1, 2):
        s, e = ts[i], ts[i + 1]
        if rng.random() < 0.2:
            e = s
        if last is not None and s <= last:
            continue
        out.append((s, e, rng.randint(1, 100)))
        last = e
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--capsules", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--span", type=int, default=2_000_000_000)
    ap.add_argument("--busy", type=int, default=20)
    ap.add_argument("--xfers", type=int, default=20)
    ap.add_argument("--gaps", type=int, default=2)
    ap.add_argument("--grid", type=int, default=0)
    ap.add_argument("--t0", type=int, default=None)
    o = ap.parse_args()
    rng = random.Random(o.seed)
    t0 = o.t0 if o.t0 is not None else rng.randint(1, 10**12)
    t1 = t0 + o.span
    print("ovb-onoff 1\ncpus %d\nspan %d %d" % (o.cpus, t0, t1))
    names = ["c%d" % i for i in range(o.capsules)]
    for n in names:
        print("capsule %s pid:%d" % (n, 1000 + names.index(n)))
    for n in names:
        kb = rng.randint(0, o.busy)
        for s, e, c in busy(rng, kb, o.cpus, t0, t1, t0, o.grid):
            print("busy %s %d %d %d" % (n, s, e, c))
        for kw in ("send", "recv"):
            kx = rng.randint(0, o.xfers)
            for t, nb in xfers(rng, kx, t0, t1, t0, o.grid):
                print("%s %s %d %d" % (kw, n, t, nb))
    for s, e, lost in gaps(rng, rng.randint(0, o.gaps), t0, t1, t0, o.grid):
        print("gap %d %d %d" % (s, e, lost))


main()
