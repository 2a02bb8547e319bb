#!/usr/bin/env python3
"""mem.py: independent oracle for memory as a resource (python3 stdlib).

    mem.py profile [--window W] [--margin M] -O O SERIES PROFILE

From the raw ovb-series (not from ovb-usage's output): every mem series
is cut into windows [kW, (k+1)W) (W seconds, default 3600); the windows
with all their W/I samples count, each valued at its largest sample (the
window peak, a block maximum).  Then, per capsule, the request is the
nearest-rank (1-O)*100th percentile of the peaks (rank max(1, ceil((1-O)
n)), exact: O must be one whose percentile ovb-usage always writes), the
limit is ceil(largest peak * (1 + M)) in doubles (M default 0.15).
Checks PROFILE's mem blocks: one per mem series, interval W, intervals n,
request and limit equal.  Prints "agree: N mem profiles" (exit 0) or the
differences (exit 1)."""

import argparse
import math
import sys

import formats


def pct_rank(p, n):
    x = p * n / 100
    r = round(x)
    rank = r if abs(x - r) <= 1e-9 * max(1, x) else math.ceil(x)
    return max(1, min(n, rank))


def window_peaks(s, W):
    """The peaks of the complete windows of series block s, in time
    order."""
    I = s['I']
    assert W % I == 0, (W, I)
    k = W // I
    groups = {}
    for t, v in s['s']:
        groups.setdefault(t // W, []).append(v)
    return [max(g) for w, g in sorted(groups.items()) if len(g) == k]


def profile_blocks(path):
    out = {}
    cur = None
    for t in formats.records(path):
        if t[0] == 'profile':
            cur = out.setdefault((t[1], t[2]), {})
        elif cur is not None:
            cur.setdefault(t[0], t[1])
    return out


def cmd_profile(a):
    series = formats.read_series(a.series)
    got = profile_blocks(a.profile)
    bad = []
    n = 0
    for (cap, res), s in series.items():
        if res != 'mem':
            continue
        n += 1
        peaks = window_peaks(s, a.window)
        g = got.get((cap, 'mem'))
        if g is None:
            bad.append('%s mem: no profile block' % cap)
            continue
        srt = sorted(peaks)
        req = srt[pct_rank(100 - 100 * a.O, len(srt)) - 1]
        lim = float(math.ceil(max(peaks) * (1 + a.margin)))
        want = {'interval': float(a.window), 'intervals': len(peaks),
                'request': req, 'limit': lim}
        for k, v in want.items():
            x = g.get(k)
            if x is None or (int(x) if k == 'intervals' else float(x)) != v:
                bad.append('%s mem: %s %s, oracle %r' % (cap, k, x, v))
    for (cap, res) in got:
        if res == 'mem' and (cap, 'mem') not in series:
            bad.append('%s mem: a profile without a series' % cap)
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('agree: %d mem profiles' % n)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('profile')
    p.add_argument('--window', type=int, default=3600)
    p.add_argument('--margin', type=float, default=0.15)
    p.add_argument('-O', type=float, required=True)
    p.add_argument('series')
    p.add_argument('profile')
    a = ap.parse_args()
    if a.cmd == 'profile':
        cmd_profile(a)


if __name__ == '__main__':
    main()
