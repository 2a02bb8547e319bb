#!/usr/bin/env python3
"""Independent oracle of the time-of-day windows (formats/usage.md
"Time-of-day windows", lib/tod.c) and of the node test per window
(ovb-check --mode tod), computed from an ovb-series file alone.

  tod.py windows SERIES OFFSET MIN CAPSULE...
      the window and wbin records ovb-usage --tod MIN --tod-offset OFFSET
      -r cpu writes for the capsules' cpu series (bins of 0.01 cpu)
  tod.py check SERIES OFFSET MIN C O TAU POINTS CAPSULE...
      the violations ovb-check reports for the capsules on one node "n" of C
      cpu (O and tau of every capsule, grid POINTS), as "KIND DAYS FROM-TO"
      lines in --mode tod, then one line "eq1-plain holds|fails" and
      "eq3-plain holds|fails" for the whole-U test (the paper's Eq. 1 and
      Eq. 3: sigma the (1-O) percentile, rho the token-bucket burst there)
  tod.py table SERIES OFFSET MIN C O TAU POINTS TSV CAPSULE[:MIN]...
      compares ovb-report --mode tod -f tsv -t windows (the file TSV) for
      the same node: a row per run of hours of a day type in which every
      capsule's window is the same, its Eq. 1 load and Pr(Y > C) (relative
      1e-9), O_min, status (ok, eq1, eq3, eq1+eq3 or unmeasured, with the
      capsules unmeasured: the capsules are the apps a, b, ... of one
      capsule c each, in order) exactly; prints "agree", else each
      difference and exits 1; CAPSULE:MIN: that capsule's windows merged
      with a MIN of its own

Nothing here calls the C code: slots from the calendar, the merge rule,
bins by the documented edges, rho by a direct scan of the samples (exact
Fractions of the series' doubles), Y by integer convolution of counts."""
import math
import sys
from fractions import Fraction as F

import formats

DAY = 86400
WIDTH = 0.01                    # ovb-usage's cpu bin width


def read_series(path, want):
    """{capsule: [(T, v)]} of the cpu series of the capsules in want."""
    out, cur, interval = {}, None, {}
    for line in open(path):
        t = line.split()
        if not t or t[0].startswith('#'):
            continue
        if t[0] == 'series':
            cur = t[1] if t[2] == 'cpu' and t[1] in want else None
            if cur:
                out[cur] = []
        elif t[0] == 'interval' and cur:
            interval[cur] = int(t[1])
        elif t[0] == 'sample' and cur:
            out[cur].append((int(t[1]), float(t[2])))
    return out, interval


def slot(T, off):
    local = T + off
    day, sec = divmod(local, DAY)
    dow = (day + 3) % 7         # 1970-01-01 was a Thursday; Monday 0
    return (24 if dow >= 5 else 0) + sec // 3600


def windows(samples, off, mn):
    """[(days, from, to, [(T, v)...])] by the merge rule."""
    cnt = [0] * 48
    for T, _ in samples:
        cnt[slot(T, off)] += 1
    wins = []
    for days in (0, 1):
        first, acc, frm = len(wins), 0, 0
        for h in range(24):
            acc += cnt[24 * days + h]
            if acc >= mn:
                wins.append([days, frm, h + 1])
                frm, acc = h + 1, 0
        if frm < 24:
            if len(wins) > first:
                wins[-1][2] = 24
            else:
                wins.append([days, 0, 24])
    out = []
    for days, a, b in wins:
        out.append((days, a, b, [(T, v) for T, v in samples
                                 if slot(T, off) // 24 == days and
                                 a <= slot(T, off) % 24 < b]))
    return out


def rank(p, n):
    """Nearest rank of the p-th percentile among n (usage.md)."""
    x = p * n / 100
    r = round(x)
    k = r if abs(x - r) <= 1e-9 * max(1, x) else math.ceil(x)
    return min(max(k, 1), n)


def pct_edge(vals, p):
    """The upper edge of the bin of the nearest-rank p-th percentile."""
    k = sorted(formats.hist_bin(v, WIDTH) for v in vals)[rank(p, len(vals)) - 1]
    return k * WIDTH


def pct_exact(vals, p):
    return sorted(vals)[rank(p, len(vals)) - 1]


def rho(samples, interval, s):
    """max over intervals within runs of consecutive samples of
    A(b) - A(a) - s (b - a): the usage is v over each [T, T + I)."""
    s = F(s)
    best, cur, last = F(0), F(0), None
    for T, v in samples:
        if last is None or T != last + interval:
            cur = F(0)          # a gap (or time outside the window)
        cur = max(F(0), cur + (F(v) - s) * interval)
        best = max(best, cur)
        last = T
    return best


def y_tail(hists, C, g):
    """Pr(Y > C) as a Fraction: each value k*WIDTH moved up to the grid."""
    def up(x):                  # the least grid point at or above x
        return formats.hist_bin(x, g)
    K = math.floor(C / g)
    while (K + 1) * g <= C:
        K += 1
    while K > 0 and K * g > C:
        K -= 1
    y = {0: 1}
    den = 1
    for h in hists:
        u = {}
        for k, c in h.items():
            j = up(k * WIDTH)
            u[j] = u.get(j, 0) + c
        den *= sum(h.values())
        z = {}
        for a, ca in y.items():
            for b, cb in u.items():
                j = min(a + b, K + 1)   # everything above C lumped
                z[j] = z.get(j, 0) + ca * cb
        y = z
    return F(sum(c for j, c in y.items() if j > K), den)


def table(tsv, caps, need, win, verdict, nums, C, O):
    """Compare the windows table of ovb-report (TSV) with the runs of
    hours in which every capsule's window is the same."""
    want = []
    for sl in range(48):
        if sl % 24 == 0 or any(win[c, sl] != win[c, sl - 1] for c in caps):
            want.append([sl, sl + 1])
        else:
            want[-1][1] = sl + 1
    rows = [l.rstrip('\n').split('\t') for l in open(tsv)
            if l.strip() and not l.startswith('#')]
    head, rows = rows[0], rows[1:]
    bad = []
    if len(rows) != len(want):
        bad.append('%d rows, want %d' % (len(rows), len(want)))
    for (s, e), r in zip(want, rows):
        r = dict(zip(head, r))
        where = '%s %d-%d' % (('weekday', 'weekend')[s // 24], s % 24,
                              (e - 1) % 24 + 1)
        got = '%s %s-%s' % (r['days'], r['from_h'], r['to_h'])
        if got != where:
            bad.append('row %s, want %s' % (got, where))
            continue
        if r['node'] != 'n' or r['res'] != 'cpu' or \
                float(r['capacity']) != C or float(r['omin']) != O:
            bad.append('%s: node, res, capacity or omin %s' % (where, r))
        v = verdict[s] or 'ok'
        if r['status'] != v:
            bad.append('%s: status %s, want %s' % (where, r['status'], v))
        if nums[s] is None:
            un = ','.join('%s/c' % a for a, c in zip('ab', caps)
                          if need[c, s] is None)
            if (r['load'], r['pr'], r['unmeasured']) != ('-', '-', un):
                bad.append('%s: unmeasured shown as load %s pr %s (%s), '
                           'want -, -, %s' % (where, r['load'], r['pr'],
                                              r['unmeasured'], un))
            continue
        for k, x in zip(('load', 'pr'), nums[s]):
            if r[k] == '-' or not abs(F(float(r[k])) - x) <= \
                    F(1, 10**9) * max(abs(x), F(1, 10**9)):
                bad.append('%s: %s %s, want %s' % (where, k, r[k],
                                                   float(x)))
    print('\n'.join(bad) if bad else 'agree')
    return 1 if bad else 0


def main():
    cmd = sys.argv[1]
    if cmd == 'windows':
        path, off, mn = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        caps = sys.argv[5:]
        ser, _ = read_series(path, set(caps))
        for c in caps:
            print('usage', c, 'cpu')
            for days, a, b, s in windows(ser[c], off, mn):
                d = ('weekday', 'weekend')[days]
                print('window', d, a, b, len(s))
                bins = {}
                for _, v in s:
                    k = formats.hist_bin(v, WIDTH)
                    bins[k] = bins.get(k, 0) + 1
                for k in sorted(bins):
                    print('wbin', d, a, k, bins[k])
        return
    (path, off, mn, C, O, tau, points) = (sys.argv[2], int(sys.argv[3]),
        int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]),
        float(sys.argv[7]), int(sys.argv[8]))
    caps = sys.argv[10 if cmd == 'table' else 9:]
    # table: CAPSULE:MIN, that capsule's windows made with MIN of its own
    mins = {c.split(':')[0]: int(c.split(':')[1]) if ':' in c else mn
            for c in caps}
    caps = [c.split(':')[0] for c in caps]
    ser, ival = read_series(path, set(caps))
    p = 100 - 100 * O
    keep = F(1) - F(O)
    g = max(WIDTH, C / points)
    # per capsule and slot: (sigma, rho, hist) or None (unmeasured)
    need, win = {}, {}
    for c in caps:
        wins = windows(ser[c], off, mins[c])
        for days, a, b, s in wins:
            for h in range(a, b):
                win[c, 24 * days + h] = (days, a)
                if not s:
                    need[c, 24 * days + h] = None
                    continue
                # at least the window's mean, where its curve starts
                # (below it no finite burst bounds the trace: curve.md)
                sg = max(F(pct_edge([v for _, v in s], p)),
                         sum(F(v) for _, v in s) / len(s))
                hist = {}
                for _, v in s:
                    k = formats.hist_bin(v, WIDTH)
                    hist[k] = hist.get(k, 0) + 1
                need[c, 24 * days + h] = (sg, rho(s, ival[c], sg), hist)
    verdict, nums = [], []
    for sl in range(48):
        ns = [need[c, sl] for c in caps]
        if any(x is None for x in ns):
            verdict.append('unmeasured')
            nums.append(None)
            continue
        load = sum((F(sg) * F(tau) + r) * keep / F(tau) for sg, r, _ in ns)
        pr = y_tail([h for _, _, h in ns], C, g)
        e1 = load <= F(C)
        e3 = pr <= F(O)
        verdict.append('' if e1 and e3 else 'eq1' if e3 else 'eq3'
                       if e1 else 'eq1+eq3')
        nums.append((load, pr))
    if cmd == 'table':
        sys.exit(table(sys.argv[9], caps, need, win, verdict, nums, C, O))
    s = 0
    while s < 48:
        e = s + 1
        while e % 24 and verdict[e] == verdict[s]:
            e += 1
        d = ('weekday', 'weekend')[s // 24]
        for kind in verdict[s].split('+') if verdict[s] else []:
            print(kind, d, '%d-%d' % (s % 24, (e - 1) % 24 + 1))
        s = e
    # the plain test on the whole U
    load, hists = F(0), []
    for c in caps:
        vals = [v for _, v in ser[c]]
        sg = pct_exact(vals, p)
        load += (F(sg) * F(tau) + rho(ser[c], ival[c], sg)) * keep / F(tau)
        h = {}
        for v in vals:
            k = formats.hist_bin(v, WIDTH)
            h[k] = h.get(k, 0) + 1
        hists.append(h)
    print('eq1-plain', 'holds' if load <= F(C) else 'fails')
    print('eq3-plain', 'holds' if y_tail(hists, C, g) <= F(O) else 'fails')


if __name__ == '__main__':
    main()
