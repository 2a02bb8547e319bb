#!/usr/bin/env python3
"""tbucket.py: brute-force oracle for ovb-tbucket (python3 stdlib only).

    tbucket.py [--res RES,...] [--seed S] [--samples K] ONOFF CURVEFILE
    tbucket.py SERIES CURVEFILE

The input is told apart by its magic line.  On an ovb-onoff trace:

For every capsule and chosen resource of ONOFF, builds the cumulative
usage A of each gap-free part of the span (cpu: CPU-ns at every busy
start and end, linear between; net, net-rx: bytes per instant, an
interval [s, t] counting the bytes at s and t) and forms the lines
dA - sigma dt of ALL pairs of points s <= t of one part, O(n^2) of them,
plus the empty interval (0, 0).  Then, exactly (integers and Fractions):

  - rho(sigma) = max over the lines, at K random rates in [mean, 1.5 peak],
    at each breakpoint of CURVEFILE and at each exact breakpoint;
  - the exact breakpoints: the upper envelope of the lines over
    [mean, oo) by a convex-hull sweep (a different algorithm from
    ovb-tbucket's), mean = A over the gap-free time, peak = the last
    breakpoint (or mean);

and compares with CURVEFILE evaluated as ovb_curve_at does (linear between
points, constant beyond the ends): every rho to a relative 1e-9 of
max(rho, 1e-9 rho(mean)), mean and peak to a relative 1e-12, the number of
points exactly, convexity and rho = 0 for cpu at and beyond the peak.
Exit 0 with a summary line, or 1 with the differences.

On an ovb-series file: per block of CURVEFILE, the exact upper envelope of
the lines A(t) - A(s) - sigma (t - s) over sample boundaries s <= t within
a run of consecutive samples (A piecewise linear, slope V over each
sample) and the flat line 0, found by walking right from the mean (yet
another algorithm); checks mean, peak and the breakpoints over [mean,
peak] to a relative 1e-12.  Prints "agree" or the differences (exit 1)."""

import argparse
import random
import sys
from fractions import Fraction

import formats

RESES = ("cpu", "net", "net-rx")
TOL = 1e-9


def parts(tr):
    """Gap-free parts [lo, hi] of the span; gaps are closed."""
    out, lo = [], tr.t0
    for gs, ge in tr.gaps:
        out.append((lo, gs))
        lo = ge
    out.append((lo, tr.t1))
    return out


def in_gap(tr, t):
    return any(gs <= t <= ge for gs, ge in tr.gaps)


def cpu_points(tr, cap, lo, hi):
    ts = {lo, hi}
    for s, e, _ in cap.busy:
        for t in (s, e):
            if lo <= t <= hi:
                ts.add(t)
    def A(t):
        return sum(n * max(0, min(e, t) - max(s, lo)) for s, e, n in cap.busy)
    return [(t, A(t), A(t)) for t in sorted(ts)]


def net_points(tr, cap, res, lo, hi):
    by = {}
    for t, nb in cap.transfers(res):
        if lo <= t <= hi and not in_gap(tr, t):
            by[t] = by.get(t, 0) + nb
    out, c = [], 0
    for t in sorted(by):
        out.append((t, c, c + by[t]))
        c += by[t]
    return out


def lines(pts):
    """(dt, dA) of all pairs s <= t: a0 at s, a1 at t."""
    return {(pts[j][0] - pts[i][0], pts[j][2] - pts[i][1])
            for i in range(len(pts)) for j in range(i, len(pts))}


def model(tr, cap, res):
    ls, total, length = {(0, 0)}, 0, 0
    for lo, hi in parts(tr):
        length += hi - lo
        pts = (cpu_points(tr, cap, lo, hi) if res == "cpu"
               else net_points(tr, cap, res, lo, hi))
        if pts:
            ls |= lines(pts)
            total += pts[-1][2] - pts[0][1]
    scale = 10**9 if res == "cpu" else 1      # amount unit per output unit
    rate = 1 if res == "cpu" else Fraction(1, 10**9)  # output rate -> per ns
    return sorted(ls), Fraction(total, length) / rate, scale, rate


def rho_brute(ls, sigma, scale, rate):
    s = Fraction(sigma) * rate
    p, q = s.numerator, s.denominator
    return Fraction(max(q * da - p * dt for dt, da in ls), q * scale)


def envelope(ls, mean, scale, rate):
    """Breakpoints (sigma, rho) of max(lines) over [mean, oo)."""
    best = {}
    for dt, da in ls:
        best[dt] = max(best.get(dt, da), da)
    hull = []                           # slopes -dt increasing
    def x(l1, l2):                      # crossing, in amount per ns
        return Fraction(l1[1] - l2[1], l1[0] - l2[0])
    for dt in sorted(best, reverse=True):
        l = (dt, best[dt])
        while len(hull) >= 2 and x(hull[-2], l) <= x(hull[-2], hull[-1]):
            hull.pop()
        hull.append(l)
    m = mean * rate
    pts = [(mean, rho_brute(ls, mean, scale, rate))]
    for i in range(len(hull) - 1):
        s = x(hull[i], hull[i + 1])
        if s > m:
            v = Fraction(hull[i][1], 1) - s * hull[i][0]
            pts.append((s / rate, v / scale))
    return pts


def curve_at(pts, s):
    """ovb_curve_at, in exact arithmetic on the file's doubles."""
    if s <= pts[0][0]:
        return pts[0][1]
    if s >= pts[-1][0]:
        return pts[-1][1]
    i = 1
    while pts[i][0] < s:
        i += 1
    (s0, r0), (s1, r1) = pts[i - 1], pts[i]
    return r0 + (s - s0) / (s1 - s0) * (r1 - r0)


def parse_curves(path):
    out = {}
    for key, c in formats.read_curves(path).items():
        out[key] = {"pts": [(Fraction(x), Fraction(y)) for x, y in c["pts"]]}
        for k in ("mean", "peak"):
            if k in c:
                out[key][k] = Fraction(c[k])
    return out


class Check:
    def __init__(self):
        self.bad, self.worst, self.n, self.evals = [], 0.0, 0, 0

    def close(self, what, got, exp, floor):
        self.evals += 1
        den = max(abs(exp), floor)
        e = float(abs(got - exp) / den) if den else float(got != exp)
        self.worst = max(self.worst, e)
        if e > TOL:
            self.bad.append("%s: expected %.17g, got %.17g (relative %.3g)"
                            % (what, exp, got, e))


def convex(pts):
    for i in range(2, len(pts)):
        (a, ra), (b, rb), (c, rc) = pts[i - 2], pts[i - 1], pts[i]
        if (rc - rb) / (c - b) < (rb - ra) / (b - a) - Fraction(1, 10**9) * (
                abs((rc - rb) / (c - b)) + abs((rb - ra) / (b - a))):
            return False
    return all(pts[i][1] <= pts[i - 1][1] for i in range(1, len(pts)))


def check_one(ck, key, tr, got, rng, k):
    ls, mean, scale, rate = model(tr, tr.caps[key[0]], key[1])
    exact = envelope(ls, mean, scale, rate)
    peak = exact[-1][0]
    pts = got["pts"]
    name = "%s %s" % key
    ck.close(name + " mean", got["mean"], mean, 0)
    ck.close(name + " peak", got["peak"], peak, 0)
    if len(pts) != len(exact):
        ck.bad.append("%s: %d points, expected %d: %s" % (
            name, len(pts), len(exact),
            [(float(s), float(r)) for s, r in exact]))
    if not convex(pts):
        ck.bad.append(name + ": not convex and non-increasing")
    floor = exact[0][1] * Fraction(1, 10**9)
    sig = [s for s, _ in exact] + [s for s, _ in pts]
    hi = max(peak * 3 / 2, mean + 1)
    sig += [mean + (hi - mean) * Fraction(rng.randrange(10**6), 10**6)
            for _ in range(k)]
    for s in sig:
        exp = rho_brute(ls, s, scale, rate)
        ck.close("%s rho(%.17g)" % (name, s), curve_at(pts, s), exp, floor)
        if key[1] == "cpu" and s >= peak and exp != 0:
            ck.bad.append("%s: rho(%g) = %g beyond the peak" % (name, s, exp))
    ck.n += 1


def walk_envelope(lines, lo):
    """Breakpoints (sigma, rho) of max over lines (dt, da) of da - sigma dt
    for sigma >= lo, ending with the flat line (0, 0); Fractions."""
    best = {}
    for dt, da in lines:
        if dt not in best or da > best[dt]:
            best[dt] = da
    best[0] = max(best.get(0, 0), 0)

    def val(s):
        return max(da - s * dt for dt, da in best.items())

    # walk right from lo: at each step the active line is the one with
    # the largest value (ties: the smallest dt, which wins to the right)
    pts = []
    s = lo
    while True:
        v = val(s)
        pts.append((s, v))
        act = min(dt for dt, da in best.items() if da - s * dt == v)
        if act == 0:
            break
        nxt = None
        for dt, da in best.items():
            if dt < act:
                x = Fraction(best[act] - da, act - dt)
                if x > s and (nxt is None or x < nxt):
                    nxt = x
        s = nxt
    return pts


def check_series(series_path, curve_path):
    """The ovb-series check: a list of differences, and the number of
    blocks."""
    series = formats.read_series(series_path)
    blocks = formats.blocks(curve_path, 'curve')
    bad = []
    for key in blocks:
        s = series[key]
        I = s['I']
        runs, run = [], []
        for t, v in s['s']:
            if run and t != run[-1][0] + I:
                runs.append(run)
                run = []
            run.append((t, v))
        runs.append(run)
        lines = []
        total, n = Fraction(0), 0
        for r in runs:
            A = [Fraction(0)]
            for t, v in r:
                A.append(A[-1] + Fraction(v))
            for i in range(len(A)):
                for j in range(i + 1, len(A)):
                    lines.append((j - i, A[j] - A[i]))
            total += A[-1]
            n += len(r)
        mean = total / n
        pts = walk_envelope(lines, mean)
        want = []
        for a_, b_ in pts:
            # breakpoints closer than a double apart are one point (the
            # tool keeps the later, see put() in tbucket.c)
            if want and float(a_) == want[-1][0]:
                want.pop()
            want.append((float(a_), float(b_ * I)))
        got, rec = [], {}
        for tok in blocks[key]:
            if tok[0] == 'point':
                got.append((float(tok[1]), float(tok[2])))
            else:
                rec[tok[0]] = float(tok[1])

        def close(a, b):
            return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300)
        if not close(rec['mean'], float(mean)):
            bad.append('%s %s: mean %r, oracle %r' % (*key, rec['mean'],
                       float(mean)))
        if not close(rec['peak'], want[-1][0]):
            bad.append('%s %s: peak %r, oracle %r' % (*key, rec['peak'],
                       want[-1][0]))
        if len(got) != len(want) or not all(
                close(a[0], b[0]) and (close(a[1], b[1]) or
                                       abs(a[1] - b[1]) < 1e-9)
                for a, b in zip(got, want)):
            bad.append('%s %s: points %r, oracle %r' % (*key, got, want))
    return bad, len(blocks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--res", default="cpu,net")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("onoff")
    ap.add_argument("curve")
    o = ap.parse_args()
    if formats.kind(o.onoff) == "series":
        bad, n = check_series(o.onoff, o.curve)
        for b in bad:
            print(b)
        if bad:
            sys.exit(1)
        print("agree: %d blocks" % n)
        return
    reses = RESES if o.res == "all" else o.res.split(",")
    tr = formats.read_onoff(o.onoff)
    got = parse_curves(o.curve)
    rng = random.Random(o.seed)
    ck = Check()
    keys = [(c, r) for c in tr.caps for r in RESES if r in reses]
    for key in keys:
        if key not in got:
            ck.bad.append("%s %s: missing" % key)
        else:
            check_one(ck, key, tr, got[key], rng, o.samples)
    ck.bad += ["%s %s: not expected" % k for k in got if k not in keys]
    if ck.bad:
        print("\n".join(ck.bad[:50]))
        sys.exit(1)
    print("tbucket.py: %d curves agree; %d values compared, max relative "
          "error %.3g" % (ck.n, ck.evals, ck.worst))


main()
