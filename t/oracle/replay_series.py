#!/usr/bin/env python3
"""Oracle for ovb-usage and ovb-tbucket on ovb-series input (Fractions).

usage: replay_series.py usage [--len L] [--width RES=W...] SERIES USAGE
       replay_series.py tbucket SERIES CURVE

usage: per (capsule, res) block of USAGE, the measurement intervals
[kL, (k+1)L) (L the series interval unless --len) whose L/I samples are
all present; their values are exact means.  Checks the interval, the
number of intervals, the width (the default rule unless --width), every
bin count, the mean (the exact mean rounded once: equal as doubles) and
the percentiles (nearest rank, exact: equal as doubles).

tbucket: per block of CURVE, the exact upper envelope of the lines
A(t) - A(s) - sigma (t - s) over sample boundaries s <= t within a run of
consecutive samples (A piecewise linear, slope V over each sample) and
the flat line 0; checks mean, peak and the breakpoints over [mean, peak]
to a relative 1e-12.  Prints "agree" or the differences (exit 1).
"""
import math
import sys
from fractions import Fraction as F


def read_series(path):
    out, order = {}, []
    cur = None
    with open(path) as f:
        for line in f:
            tok = line.split('#', 1)[0].split()
            if not tok or tok[0].startswith('ovb-'):
                continue
            if tok[0] == 'series':
                cur = (tok[1], tok[2])
                out[cur] = {'I': None, 's': []}
                order.append(cur)
            elif tok[0] == 'interval':
                out[cur]['I'] = int(tok[1])
            elif tok[0] == 'sample':
                out[cur]['s'].append((int(tok[1]), float(tok[2])))
    return out, order


def read_blocks(path, opener):
    blocks, order = {}, []
    cur = None
    with open(path) as f:
        for line in f:
            tok = line.split('#', 1)[0].split()
            if not tok or tok[0].startswith('ovb-'):
                continue
            if tok[0] == opener:
                cur = (tok[1], tok[2])
                blocks[cur] = []
                order.append(cur)
            else:
                blocks[cur].append(tok)
    return blocks, order


def auto_width(res, peak):
    if res == 'cpu':
        return 0.01
    if not peak > 0:
        return 1.0
    raw = peak / 100
    e = math.floor(math.log10(raw)) - 1
    while True:
        p = 1.0
        for _ in range(min(abs(e), 400)):
            p *= 10
        for m in (1.0, 2.0, 5.0):
            w = m / p if e < 0 else m * p
            if w >= raw:
                return w
        e += 1


def hist_bin(x, w):
    if not x > 0:
        return 0
    k = max(1, math.ceil(x / w))
    while k > 1 and (k - 1) * w >= x:
        k -= 1
    while k * w < x:
        k += 1
    return k


def pct_rank(p, n):
    x = p * n / 100
    r = round(x)
    rank = r if abs(x - r) <= 1e-9 * max(1, x) else math.ceil(x)
    return max(1, min(n, rank))


def check_usage(args):
    length, widths = None, {}
    while args and args[0].startswith('--'):
        if args[0] == '--len':
            length = int(args[1])
        elif args[0] == '--width':
            r, w = args[1].split('=')
            widths[r] = float(w)
        args = args[2:]
    series, _ = read_series(args[0])
    blocks, order = read_blocks(args[1], 'usage')
    bad = []
    for key in order:
        s = series[key]
        I = s['I']
        L = length or I
        k = L // I
        groups = {}
        for t, v in s['s']:
            groups.setdefault(t // L, []).append(v)
        vals = [F(sum(F(x) for x in g), len(g))
                for w, g in sorted(groups.items()) if len(g) == k]
        rec = {}
        bins, pcts = {}, {}
        for tok in blocks[key]:
            if tok[0] == 'bin':
                bins[int(tok[1])] = int(tok[2])
            elif tok[0] == 'pct':
                pcts[float(tok[1])] = float(tok[2])
            else:
                rec[tok[0]] = tok[1]
        n = len(vals)
        fv = [float(x) for x in vals]
        peak = max(fv)
        w = widths.get(key[1], auto_width(key[1], peak))
        want_bins = {}
        for x in fv:
            b = hist_bin(x, w)
            want_bins[b] = want_bins.get(b, 0) + 1
        mean = float(sum(vals) / n)
        srt = sorted(vals)
        if float(rec['interval']) != L:
            bad.append('%s %s: interval %s, oracle %d' % (*key,
                       rec['interval'], L))
        if int(rec['intervals']) != n:
            bad.append('%s %s: intervals %s, oracle %d' % (*key,
                       rec['intervals'], n))
        if float(rec['width']) != w:
            bad.append('%s %s: width %s, oracle %r' % (*key, rec['width'], w))
        if bins != want_bins:
            bad.append('%s %s: bins %r, oracle %r' % (*key, bins, want_bins))
        if float(rec['mean']) != mean:
            bad.append('%s %s: mean %s, oracle %r' % (*key, rec['mean'], mean))
        for p, v in pcts.items():
            want = float(srt[pct_rank(p, n) - 1])
            if v != want:
                bad.append('%s %s: pct %r = %r, oracle %r' % (*key, p, v,
                           want))
    return bad, len(order)


def envelope(lines, lo):
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
                x = F(best[act] - da, act - dt)
                if x > s and (nxt is None or x < nxt):
                    nxt = x
        s = nxt
    return pts


def check_tbucket(args):
    series, _ = read_series(args[0])
    blocks, order = read_blocks(args[1], 'curve')
    bad = []
    for key in order:
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
        total, n = F(0), 0
        for r in runs:
            A = [F(0)]
            for t, v in r:
                A.append(A[-1] + F(v))
            for i in range(len(A)):
                for j in range(i + 1, len(A)):
                    lines.append((j - i, A[j] - A[i]))
            total += A[-1]
            n += len(r)
        mean = total / n
        pts = envelope(lines, mean)
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
    return bad, len(order)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    bad, n = (check_usage if mode == 'usage' else check_tbucket)(args)
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('agree: %d blocks' % n)


if __name__ == '__main__':
    main()
