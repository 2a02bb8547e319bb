#!/usr/bin/env python3
"""Oracle for the drift-aware, calibrated profiles (lib/drift.c) as
ovb-backtest's method `calibrated` uses them: recency weights, the trend
of daily quantiles, the forecast samples, their weighted percentile, and
the calibration of the inflation k on the folds held out of the training
window.

usage: drift.py STDERR --series SERIES... --start S --maxtrain W
                [--replay R] [--half-life H] [--trend-quantile Q]
                [--growth-max G] [--k-min K] [--k-step K] [--k-max K]

STDERR is what `ovb-backtest -vv -m calibrated --plan rolling` wrote on
stderr: per configuration and period, one line per node of every plan
tried in the calibration (fold, the part held out, k, the node's VMs,
its slots, overflows and verdict), and per VM the final profile (k, the
sum of its weights, sigma).  Everything is recomputed here from the
series, independently, in doubles in the order the definitions give
(formats/backtest.md, `calibrated`):

- a sample at T (interval I) in the window [A, B) weighs
  round(1024 * 2^-((B - T - I) / H)), at least 1;
- the trend: the days [A + jD, A + (j+1)D) inside the window with at
  least half their D/I samples; each day's nearest-rank Q quantile at its
  middle, weighted 2^-((B - A - mid) / H); the weighted least-squares
  line L; a sample's factor L(horizon) / L(T + I/2) within [1, G] (1
  without a line, or when L(horizon) <= 0; G when only L(T + I/2) <= 0);
- sigma: the nearest-rank (100 - 100 O) percentile of k * v * factor,
  each counted with its weight;
- the folds: L = min(R, W/2); the held-out parts [B - fL, B - (f-1)L)
  for f = 1 and, when W >= 4L, f = 2; the plan of a fold is made on
  [A, held-out start) forecast to the held-out end, from the VMs with
  samples both there and in the part held out;
- a node's verdict on the part held out: the slots where all its VMs
  have a sample, those whose exact sum exceeds CPUS, held when
  OVER/SLOTS <= O (Fractions) and SLOTS > 0;
- the k tried are K-MIN + i K-STEP in order; every one before the chosen
  k has a broken node, the chosen one none (or it is K-MAX);
- the final profile is made on [A, B) forecast to the end of the period.

The placement itself (first fit decreasing by the aggregate Eq. 3 test)
is not recomputed: it is lib/node.c's, checked by the ovb-place oracles;
only the VMs placed are checked to be those eligible.

With --usage FILE instead of STDERR: FILE is what `ovb-usage
[--half-life H] [--horizon D] [--calibrate O] [--holdout X]` wrote from
SERIES (its own interval, widths 0.01 cpu); every block's N, bins and
percentiles are recomputed the same way on the whole series (A its first
sample, E the end of its last: the weights from E, the trend, when --horizon is
given, to E + D), k by the held-out test of formats/usage.md (at most a
fraction O of the held-out samples above k times the percentile of the
U made without them).

Prints "agree" and exits 0, or prints the differences and exits 1.
"""
import argparse
import bisect
import math
import sys
from fractions import Fraction

import formats

SCALE = 1024


def pct_rank(p, n):
    x = p * n / 100
    r = round(x)
    k = r if abs(x - r) <= 1e-9 * max(1.0, x) else math.ceil(x)
    return max(1, min(n, int(k)))


def weight(t, I, end, h):
    if not h > 0:
        return SCALE
    age = float(end - t - I) if t + I < end else 0.0
    w = round(SCALE * math.pow(2.0, -age / h))
    return int(w) if w >= 1 else 1


def trend(samples, I, a, b, h, q, day=86400):
    """(c0, c1) or None; samples [(t, v)] sorted, t in [a, b)."""
    pts = []
    for j in range((b - a) // day):
        lo, hi = a + j * day, a + (j + 1) * day
        vs = sorted(v for t, v in samples if lo <= t < hi)
        if not vs or 2 * len(vs) < day // I:
            continue
        mid = float(lo - a) + day / 2
        y = vs[pct_rank(100 * q, len(vs)) - 1]
        w = math.pow(2.0, -(float(b - a) - mid) / h) if h > 0 else 1.0
        pts.append((mid, y, w))
    if len(pts) < 2:
        return None
    W = xm = ym = 0.0
    for x, y, w in pts:
        W += w
        xm += w * x
        ym += w * y
    xm /= W
    ym /= W
    sxx = sxy = 0.0
    for x, y, w in pts:
        sxx += w * (x - xm) * (x - xm)
        sxy += w * (x - xm) * (y - ym)
    c1 = sxy / sxx if sxx > 0 else 0.0
    return (ym - c1 * xm, c1)


def factor(tr, a, t, I, horizon, gmax):
    if tr is None:
        return 1.0
    c0, c1 = tr
    lh = c0 + c1 * (float(horizon) - float(a))
    lt = c0 + c1 * (float(t) - float(a) + float(I) / 2)
    if not lh > 0:
        return 1.0
    if not lt > 0:
        return gmax
    f = lh / lt
    return 1.0 if f < 1 else gmax if f > gmax else f


def forecast(series, I, a, b, horizon, o):
    s = sorted((t, v) for t, v in series.items() if a <= t < b)
    tr = None if getattr(o, 'trend_off', False) else \
        trend(s, I, a, b, o.half_life, o.trend_quantile)
    return [(v * factor(tr, a, t, I, horizon, o.growth_max),
             weight(t, I, b, o.half_life)) for t, v in s]


def sigma(xw, k, O):
    s = sorted((k * x, w) for x, w in xw)
    W = sum(w for _, w in s)
    r, cum = pct_rank(100 - 100 * O, W), 0
    for i, (x, w) in enumerate(s):
        cum += w
        if cum >= r or i == len(s) - 1:
            return x, W


def check_usage(o):
    """The --usage mode: returns the list of differences."""
    series = {}
    for p in o.series:
        for key, blk in formats.read_series(p).items():
            series[key] = blk
    bad = []
    if o.horizon is None:
        o.trend_off = True
    for d in formats.read_dists(o.usage):
        blk = series[(d.capsule, d.res)] if hasattr(d, 'capsule') else None
        if blk is None:
            bad.append('no series for block %s' % d)
            continue
        I, smp = blk['I'], dict(blk['s'])
        ts = sorted(smp)
        a, end = ts[0], ts[-1] + I
        k = 1.0
        if o.calibrate is not None:
            L = min(o.holdout, (end - a) // 2)
            fit = forecast(smp, I, a, end - L, end, o)
            s0 = sigma(fit, 1.0, o.calibrate)[0]
            y = [smp[t] for t in ts if t >= end - L]
            k, i = None, 0
            while True:
                kk = o.k_min + i * o.k_step
                if kk > o.k_max + o.k_step / 2:
                    k = o.k_max
                    break
                over = sum(v > kk * s0 for v in y)
                if Fraction(over, len(y)) <= Fraction(o.calibrate):
                    k = kk
                    break
                i += 1
        H = end + (o.horizon or 0)
        xw = forecast(smp, I, a, end, H, o)
        W = sum(w for _, w in xw)
        tag = 'usage %s %s' % (d.capsule, d.res)
        if d.n != W:
            bad.append('%s: intervals %d, want %d' % (tag, d.n, W))
        bins = {}
        for x, w in xw:
            b = formats.hist_bin(k * x, d.width)
            bins[b] = bins.get(b, 0) + w
        got = {b: c for b, c in d.bins.items() if c}
        if got != bins:
            bad.append('%s: bins differ (k %g): %d of %d' % (
                tag, k, sum(got.get(b) != c for b, c in bins.items()),
                len(bins)))
        for P, V in d.pct.items():
            want = sigma(xw, k, (100 - P) / 100)[0] if P < 100 else \
                max(k * x for x, _ in xw)
            r = pct_rank(P, W)
            srt, cum = sorted((k * x, w) for x, w in xw), 0
            for x, w in srt:
                cum += w
                if cum >= r:
                    want = x
                    break
            if not math.isclose(V, want, rel_tol=1e-12, abs_tol=1e-12):
                bad.append('%s: pct %g %r, want %r' % (tag, P, V, want))
        # forecast T: the horizon, when there is one
        want = H if o.horizon else None
        if d.forecast != want:
            bad.append('%s: forecast %r, want %r' % (tag, d.forecast, want))
    return bad


def exceeds(xs, C):
    f = math.fsum(xs)
    if f != C:
        return f > C
    return sum(Fraction(x) for x in xs) > Fraction(C)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('stderr', nargs='?')
    ap.add_argument('--usage')
    ap.add_argument('--horizon', type=int)
    ap.add_argument('--calibrate', type=float)
    ap.add_argument('--holdout', type=int, default=7 * 86400)
    ap.add_argument('--series', nargs='+', required=True)
    ap.add_argument('--start', type=int)
    ap.add_argument('--maxtrain', type=int)
    ap.add_argument('--replay', type=int, default=7 * 86400)
    ap.add_argument('--half-life', type=float, default=7 * 86400)
    ap.add_argument('--trend-quantile', type=float, default=0.9)
    ap.add_argument('--growth-max', type=float, default=4)
    ap.add_argument('--k-min', type=float, default=0.5)
    ap.add_argument('--k-step', type=float, default=0.05)
    ap.add_argument('--k-max', type=float, default=4)
    o = ap.parse_args()
    if o.usage:
        bad = check_usage(o)
        print('\n'.join(bad[:40]) if bad else 'agree')
        return 1 if bad else 0
    if o.stderr is None or o.start is None or o.maxtrain is None:
        ap.error('STDERR, --start and --maxtrain, or --usage')
    vms, I = {}, None
    for p in o.series:
        for (cap, res), blk in formats.read_series(p).items():
            if res == 'cpu':
                vms.setdefault(cap, {}).update(dict(blk['s']))
                I = blk['I']
    times = {v: sorted(x) for v, x in vms.items()}

    def within(v, lo, hi):
        ts = times[v]
        return ts[bisect.bisect_left(ts, lo):bisect.bisect_left(ts, hi)]

    bad = []
    tries = {}      # (cpus, O, W, P) -> [(k, fold, held, vms)]
    final = {}      # (cpus, O, W, P) -> {vm: (k, weight, sigma)}
    nlines = 0
    for ln in open(o.stderr):
        t = ln.split()
        if len(t) < 11 or t[1] != 'calibrated:' or t[2] != 'cpus' or \
                t[10] not in ('fold', 'vm'):
            continue
        nlines += 1
        key = (float(t[3]), float(t[5]), int(t[7]), int(t[9]))
        if t[10] == 'fold':
            f, ha, hb, k = int(t[11]), int(t[13]), int(t[14]), float(t[16])
            slots, over = int(t[20]), int(t[22])
            verdict = t[23].rstrip(':')
            on = t[24:]
            tries.setdefault(key, []).append(
                (k, f, ha, hb, slots, over, verdict, on))
        elif t[10] == 'vm':
            final.setdefault(key, {})[t[11]] = (
                float(t[13]), int(t[15]), float(t[17]))
    if not nlines:
        print('no calibration lines in %s' % o.stderr)
        return 1
    R = o.replay
    for key in sorted(set(tries) | set(final)):
        C, O, W, P = key
        a = o.start + o.maxtrain + (P - 1) * R
        ta, b = a - W, a + R
        L = R if R < W // 2 else W // 2
        nfold = 2 if W >= 4 * L else 1
        tag = 'cpus %g O %g train %d period %d' % key
        ks = []
        for (k, f, ha, hb, slots, over, verdict, on) in tries.get(key, []):
            if not ks or ks[-1][0] != k:
                ks.append([k, [], set()])
            ks[-1][1].append(verdict)
            ks[-1][2].add(f)
            hb_want = ta + W - (f - 1) * L
            if (ha, hb) != (hb_want - L, hb_want) or not 1 <= f <= nfold:
                bad.append('%s fold %d: held out [%d, %d), want [%d, %d)'
                           % (tag, f, ha, hb, hb_want - L, hb_want))
                continue
            elig = [v for v in on if within(v, ta, ha) and
                    within(v, ha, hb)]
            if elig != on:
                bad.append('%s fold %d k %g: %s placed without samples '
                           'in the fit or held-out part' % (
                               tag, f, k, set(on) - set(elig)))
            common = sorted(set.intersection(*[
                set(within(v, ha, hb)) for v in on]))
            ov = sum(exceeds([vms[v][t] for v in on], C) for t in common)
            ok = bool(common) and Fraction(ov, len(common)) <= Fraction(O)
            want = (len(common), ov, 'held' if ok else 'broken')
            if (slots, over, verdict) != want:
                bad.append('%s fold %d k %g node %s: %s, want %s' % (
                    tag, f, k, on, (slots, over, verdict), want))
        for i, (k, verdicts, folds) in enumerate(ks):
            kw = o.k_min + i * o.k_step
            if k != kw:
                bad.append('%s: try %d has k %r, want %r' % (tag, i + 1,
                                                            k, kw))
            last = i == len(ks) - 1
            if not last and 'broken' not in verdicts:
                bad.append('%s: k %g held on every node yet a larger k '
                           'was tried' % (tag, k))
            if last and 'broken' not in verdicts and len(folds) != nfold:
                bad.append('%s: k %g chosen on folds %s, want %d' % (
                    tag, k, sorted(folds), nfold))
        chosen = None
        if ks:
            chosen = ks[-1][0] if 'broken' not in ks[-1][1] else o.k_max
        fin = final.get(key, {})
        for vm, (k, wsum, sg) in sorted(fin.items()):
            if chosen is not None and k != chosen:
                bad.append('%s vm %s: k %r, the calibration chose %r' % (
                    tag, vm, k, chosen))
            xw = forecast(vms[vm], I, ta, a, b, o)
            want_s, want_w = sigma(xw, k, O)
            if wsum != want_w or not math.isclose(sg, want_s,
                                                  rel_tol=1e-12,
                                                  abs_tol=1e-12):
                bad.append('%s vm %s: weight %d sigma %r, want %d %r' % (
                    tag, vm, wsum, sg, want_w, want_s))
        want_vms = {v for v in vms if within(v, ta, a)}
        if fin and set(fin) != want_vms:
            bad.append('%s: final profiles of %s, want %s' % (
                tag, sorted(fin), sorted(want_vms)))
    if bad:
        print('\n'.join(bad[:40]))
        return 1
    print('agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
