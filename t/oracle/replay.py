#!/usr/bin/env python3
"""Oracle for ovb-replay: recomputes its --tsv report.

usage: replay.py [--grid N] [--alpha P] [--missing-as-zero] [--guard G]...
                       PLAN CLUSTER TSV SERIES...

Per risk record of PLAN (in file order): the capsules placed on the node
(a capsule's series: the one named after its profile, else after the
capsule), the slots where all of them have a sample, the overflows (the
exact sum of the samples, as Fractions of the doubles, above the
cluster's capacity), the fraction as a double, kept = fraction <= O_min.
With --guard: the same over the guard series, and the independence-based
Pr(Y > C): each capsule's values binned with width C/N (the least k with
x <= k w, in doubles, as the tool does), at the upper edge k w, the
histograms convolved (floats; compared to a relative 1e-9), and the
binomial p-value Pr(X >= overflows) under that probability (relative
1e-6); correlated = empirical above it and p-value <= alpha.  Prints
"agree" or the differences (exit 1).
"""
import argparse
import math
import sys
from fractions import Fraction as F

import formats

RES = ('cpu', 'net')


def read_series(paths):
    """{(capsule, res): {'I': interval, 's': {t: v}}}"""
    return {k: {'I': v['I'], 's': dict(v['s'])}
            for k, v in formats.read_series(paths).items()}


def independent(cols, cap, w):
    """Pr(sum > cap) of independent histograms, grid w, upper edges."""
    y = {0: 1.0}
    for col in cols:
        u = {}
        for x in col:
            k = formats.hist_bin(x, w)
            u[k] = u.get(k, 0) + 1
        n = len(col)
        r = {}
        for i, p in y.items():
            for j, c in u.items():
                r[i + j] = r.get(i + j, 0.0) + p * c / n
        # lump the mass above cap (keeps Pr(Y > cap) and all later sums)
        top = None
        lump = 0.0
        for k in list(r):
            if k * w > cap:
                lump += r.pop(k)
                top = k if top is None or k < top else top
        if lump:
            first = next(k for k in range(10 ** 9) if k * w > cap)
            r[first] = lump
        y = r
    return sum(p for k, p in y.items() if k * w > cap)


def binomial_tail(n, k, p):
    if k == 0:
        return 1.0
    if not p > 0:
        return 0.0
    if p >= 1:
        return 1.0
    s = 0.0
    for j in range(k, n + 1):
        s += math.exp(math.lgamma(n + 1) - math.lgamma(j + 1) -
                      math.lgamma(n - j + 1) + j * math.log(p) +
                      (n - j) * math.log1p(-p))
    return min(s, 1.0)


def replay(members, cap, zero):
    common = None
    for s in members:
        ts = set(s['s'])
        common = ts if common is None else common | ts if zero else \
            common & ts
    slots = sorted(common)
    over = 0
    cols = [[s['s'].get(t, 0.0) for t in slots] for s in members]
    for i in range(len(slots)):
        tot = sum(F(c[i]) for c in cols)
        over += tot > F(cap)
    return len(slots), over, cols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--grid', type=int, default=1000)
    ap.add_argument('--alpha', type=float, default=1.0)
    ap.add_argument('--missing-as-zero', action='store_true')
    ap.add_argument('--guard', action='append', default=[])
    ap.add_argument('plan')
    ap.add_argument('cluster')
    ap.add_argument('tsv')
    ap.add_argument('series', nargs='+')
    a = ap.parse_args()
    plan = formats.read_plan(a.plan)
    place = [(c, node, None if prof == '-' else prof)
             for _, c, node, prof in plan.place]
    risk = [r[:4] for r in plan.risk]
    caps = {}
    for node, c in formats.read_cluster(a.cluster).items():
        caps[(node, 'cpu')] = c['cpu']
        caps[(node, 'net')] = c['net']
    series = read_series(a.series)
    guard = read_series(a.guard) if a.guard else None

    def find(db, capsule, prof, res):
        if prof and (prof, res) in db:
            return db[(prof, res)]
        return db[(capsule, res)]

    with open(a.tsv) as f:
        got = [line.rstrip('\n').split('\t') for line in f]
    head, got = got[0], got[1:]
    bad = []
    if len(got) != len(risk):
        bad.append('%d rows, oracle %d' % (len(got), len(risk)))
    for row, (node, res, pr, omin) in zip(got, risk):
        cap = caps[(node, res)]
        on = [(c, p) for c, n, p in place if n == node]
        members = [find(series, c, p, res) for c, p in on]
        slots, over, _ = replay(members, cap, a.missing_as_zero)
        emp = over / slots
        want = [node, res, str(len(on)), str(slots), str(over)]
        if row[:5] != want:
            bad.append('row %r, oracle %r' % (row, want))
            continue
        if float(row[5]) != emp:
            bad.append('%s %s: empirical %s, oracle %r' % (node, res,
                       row[5], emp))
        if float(row[6]) != pr or float(row[7]) != omin:
            bad.append('%s %s: promised %s %s, plan %r %r' % (node, res,
                       row[6], row[7], pr, omin))
        if row[8] != ('yes' if emp <= omin else 'no'):
            bad.append('%s %s: kept %s' % (node, res, row[8]))
        if guard is None:
            continue
        gm = [find(guard, c, p, res) for c, p in on]
        gs, go, cols = replay(gm, cap, a.missing_as_zero)
        if int(row[9]) != gs:
            bad.append('%s %s: guard slots %s, oracle %d' % (node, res,
                       row[9], gs))
            continue
        if not gs:
            continue
        ge = go / gs
        gi = independent(cols, cap, cap / a.grid)
        if float(row[10]) != ge:
            bad.append('%s %s: guard empirical %s, oracle %r' % (node, res,
                       row[10], ge))
        if abs(float(row[11]) - gi) > 1e-9 * max(gi, 1e-300) + 1e-15:
            bad.append('%s %s: guard independent %s, oracle %r' %
                       (node, res, row[11], gi))
        gp = binomial_tail(gs, go, gi)
        if abs(float(row[12]) - gp) > 1e-6 * gp + 1e-12:
            bad.append('%s %s: guard p-value %s, oracle %r' % (node, res,
                       row[12], gp))
        corr = ge > gi * (1 + 1e-9) + 1e-12 and gp <= a.alpha
        if abs(ge - gi) > 1e-9 and abs(gp - a.alpha) > 1e-6 and \
                row[13] != ('yes' if corr else 'no'):
            bad.append('%s %s: correlated %s' % (node, res, row[13]))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('agree: %d rows' % len(risk))


if __name__ == '__main__':
    main()
