#!/usr/bin/env python3
"""convolve.py: independent checks of ovb-convolve's output.

    convolve.py MODE [--res R] [--capsule C]... [--grid G]
                       --cap C [--cap C]... --output OUT INPUT...

INPUTs are ovb-usage and ovb-profile files; the selection (--res,
--capsule) and the grid (the largest bin width, or --grid) are as
ovb-convolve's.  A bin k of width w has the value k*w (a double); on the
grid g it moves up to index grid_up(k*w, g), and "Y > C" is "index sum >
grid_down(C, g)", both computed in doubles exactly as formats/risk.c
does.  MODE:

  numpy   (python3-numpy) each U as count/n float64 vectors on the grid,
          numpy.convolve, tail sums; OUT (ovb-convolve's text lines
          "Pr(Y > C UNIT) = P") must agree to 1e-12 absolute.
  enum    every combination of the inputs' measurement intervals (the
          histograms expanded to one value per interval), counted with
          exact integers: OUT (ovb-convolve --exact lines "= A/B ..." or
          "= 0" / "= 1") must be exactly that Fraction.
  owngrid no common grid: each value k*w stays the exact rational k*w (w
          the decimal of the width record), Y's distribution by exact
          convolution of Fractions, Pr(Y > C) with C's decimal; OUT (an
          --exact output) must never be smaller (conservative).
  dist    OUT is ovb-convolve --dist's ovb-usage file: its counts must be
          the exact integer convolution of the inputs' counts on the grid,
          divided by their gcd, and its width the grid.

Exit 0 with a line saying what agreed, 1 with the differences."""

import argparse
import itertools
import math
import re
import sys
from decimal import Decimal
from fractions import Fraction

import formats
from formats import grid_down, grid_up


def read_dists(paths):
    """[(capsule, res, width_text, {k: count})] in input order."""
    return [[d.capsule, d.res, d.width_text,
             {k: c for k, c in d.bins.items() if c}]
            for d in formats.read_dists(paths)]


def select(ds, res, caps):
    return [d for d in ds if (res is None or d[1] == res)
            and (not caps or d[0] in caps)]


def on_grid(d, g):
    """{grid index: count} of distribution d."""
    w = float(d[2])
    out = {}
    for k, c in d[3].items():
        j = grid_up(float(k) * w, g)
        out[j] = out.get(j, 0) + c
    return out


def parse_output(path):
    """[(C text, value text)] of the 'Pr(Y > C UNIT) = ...' lines."""
    res = []
    with open(path) as f:
        for line in f:
            m = re.match(r"^(?:# )?Pr\(Y > (\S+) \S+\) = (.*)$", line.strip())
            if m:
                res.append((m.group(1), m.group(2)))
    return res


def exact_value(text):
    """The rational of '--exact' output text 'A/B = D', 'A/B ~ D' or 'D'."""
    first = text.split()[0]
    return Fraction(first)


def int_convolve(vecs):
    y = {0: 1}
    for u in vecs:
        r = {}
        for i, a in y.items():
            for j, b in u.items():
                r[i + j] = r.get(i + j, 0) + a * b
        y = r
    return y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["numpy", "enum", "owngrid", "dist"])
    ap.add_argument("--res")
    ap.add_argument("--capsule", action="append", default=[])
    ap.add_argument("--grid", type=float)
    ap.add_argument("--cap", action="append", default=[])
    ap.add_argument("--output", required=True)
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    ds = select(read_dists(a.inputs), a.res, a.capsule)
    if not ds:
        sys.exit("oracle: nothing selected")
    g = a.grid if a.grid else max(float(d[2]) for d in ds)
    bad = []
    if a.mode == "dist":
        y = int_convolve([on_grid(d, g) for d in ds])
        gcd = 0
        for v in y.values():
            gcd = math.gcd(gcd, v)
        want = {k: v // gcd for k, v in y.items() if v}
        got, width = {}, None
        for t in read_dists([a.output]):
            width = t[2]
            got = t[3]
        if float(width) != g:
            bad.append(f"width {width} is not the grid {g!r}")
        if got != want:
            bad.append(f"counts differ: got {sorted(got.items())[:8]}..., "
                       f"want {sorted(want.items())[:8]}...")
        if bad:
            print("\n".join(bad))
            sys.exit(1)
        print(f"dist: agree ({len(want)} grid points, "
              f"n = {sum(want.values())})")
        return
    out = parse_output(a.output)
    if [float(c) for c, _ in out] != [float(c) for c in a.cap]:
        print(f"capacities in the output {[c for c, _ in out]} are not "
              f"{a.cap}")
        sys.exit(1)
    if a.mode == "numpy":
        import numpy as np
        y = np.array([1.0])
        for d in ds:
            u = on_grid(d, g)
            n = sum(d[3].values())
            v = np.zeros(max(u) + 1)
            for j, c in u.items():
                v[j] += c / n
            y = np.convolve(y, v)
        worst = 0.0
        for c, text in out:
            K = grid_down(float(c), g)
            want = float(np.sum(y[K + 1:])) if float(c) >= 0 else 1.0
            got = float(text)
            worst = max(worst, abs(got - want))
            if abs(got - want) > 1e-12:
                bad.append(f"C={c}: got {got!r}, numpy {want!r}")
        summary = f"numpy: agree within {worst:.3g} ({len(out)} capacities)"
    elif a.mode == "enum":
        samples = []
        for d in ds:
            u = on_grid(d, g)
            samples.append([j for j, c in sorted(u.items())
                            for _ in range(c)])
        total = math.prod(len(s) for s in samples)
        if total > 200000:
            sys.exit(f"oracle: {total} combinations is too many")
        for c, text in out:
            K = grid_down(float(c), g)
            above = sum(1 for combo in itertools.product(*samples)
                        if sum(combo) > K)
            want = Fraction(above, total)
            got = exact_value(text)
            if got != want:
                bad.append(f"C={c}: got {got}, enumeration {want}")
        summary = (f"enum: agree exactly over {total} combinations "
                   f"({len(out)} capacities)")
    else:  # owngrid
        y = {Fraction(0): Fraction(1)}
        for d in ds:
            w = Fraction(Decimal(d[2]))
            n = sum(d[3].values())
            r = {}
            for v, p in y.items():
                for k, cnt in d[3].items():
                    x = v + k * w
                    r[x] = r.get(x, 0) + p * Fraction(cnt, n)
            y = r
        margin, most = None, Fraction(0)
        for c, text in out:
            C = Fraction(Decimal(c))
            want = sum((p for v, p in y.items() if v > C), Fraction(0))
            got = exact_value(text)
            if got < want:
                bad.append(f"C={c}: grid {got} < own grids {want}")
            m = got - want
            margin = m if margin is None else min(margin, m)
            most = max(most, m)
        summary = (f"owngrid: conservative ({len(out)} capacities, margin "
                   f"{float(margin):.3g} to {float(most):.3g})")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(summary)


if __name__ == "__main__":
    main()
