#!/usr/bin/env python3
"""Oracle for ovb-import --bitbrains: recomputes the series from the CSV
files and compares them with ovb-import's output, exactly.

usage: import.py [--kb 1024] [--interval 300] [--prefix vm]
                        [--from T] [--to T] [-r RES,...] SERIES CSV...

cpu = CPU usage [MHZ] / (capacity [MHZ] / cores) as IEEE doubles (the
same operations in the same order as the tool), missing where cores or
capacity is 0; net = transmitted * kb; net-rx = received * kb; mem =
memory usage [KB] * kb (bytes in use, a level); the slot
is the timestamp rounded to the nearest multiple of the interval (ties
up); per capsule the first row of a slot (in input order) wins.  Prints
"agree" and exits 0, or prints the differences and exits 1.
"""
import argparse
import os
import sys

import formats


def read_series(path):
    return {k: v['s'] for k, v in formats.read_series(path).items()}


def name_of(path, prefix):
    base = os.path.basename(path)
    if len(base) > 3 and base.endswith('.gz'):
        base = base[:-3]
    if len(base) > 4 and base.endswith('.csv'):
        base = base[:-4]
    return prefix + base


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kb', type=int, default=1024)
    ap.add_argument('--interval', type=int, default=300)
    ap.add_argument('--prefix', default='vm')
    ap.add_argument('--from', dest='frm', type=int)
    ap.add_argument('--to', type=int)
    ap.add_argument('-r', dest='res', default='cpu,net,net-rx,mem')
    ap.add_argument('series')
    ap.add_argument('csv', nargs='+')
    a = ap.parse_args()
    I = a.interval
    rows = {}      # capsule -> list of (t, order, cpu or None, net, rx, mem)
    order = 0
    names = []
    for path in a.csv:
        cap = name_of(path, a.prefix)
        if cap not in rows:
            rows[cap] = []
            names.append(cap)
        for ts, x in formats.read_bitbrains(path):
            t = (ts + I // 2) // I * I
            if (a.frm is not None and t < a.frm) or \
               (a.to is not None and t >= a.to):
                continue
            cores, capmhz, use = x[1], x[2], x[3]
            cpu = use / (capmhz / cores) if cores > 0 and capmhz > 0 \
                else None
            rows[cap].append((t, order, cpu, x[10] * a.kb, x[9] * a.kb,
                              x[6] * a.kb))
            order += 1
    want = {}
    for cap in names:
        r = sorted(rows[cap], key=lambda z: (z[0], z[1]))
        kept = []
        for z in r:
            if kept and kept[-1][0] == z[0]:
                continue
            kept.append(z)
        for res, k in (('cpu', 2), ('net', 3), ('net-rx', 4), ('mem', 5)):
            s = [(z[0], z[k]) for z in kept if z[k] is not None]
            if s and res in a.res.split(','):
                want[(cap, res)] = s
    got = read_series(a.series)
    bad = 0
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key), got.get(key)
        if w is None or g is None:
            print('only in %s: %s %s' % ('output' if w is None else
                                         'oracle', *key))
            bad += 1
            continue
        if len(w) != len(g):
            print('%s %s: %d samples, oracle %d' % (*key, len(g), len(w)))
            bad += 1
            continue
        for (tw, vw), (tg, vg) in zip(w, g):
            if tw != tg or vw != vg:
                print('%s %s: sample %d %r, oracle %d %r' %
                      (*key, tg, vg, tw, vw))
                bad += 1
                break
    if bad:
        sys.exit(1)
    print('agree: %d series, %d samples' %
          (len(want), sum(len(v) for v in want.values())))


if __name__ == '__main__':
    main()
