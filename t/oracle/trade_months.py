#!/usr/bin/python3
"""t/oracle/trade_months.py FILE...: per replay and calendar month (UTC),
the figures ovb-report's trade table gives, from ovb-trade files read
here, written from the definitions in lib/ovb.h (ovb_trade_months):

  lent = sum over intervals and capsules of R - A where A < R, divided by
  the month's intervals; above = capsule-intervals with USED > A (1 + 1e-9)
  over all capsule-intervals; node_over = node-intervals with USED above
  the capacity (1 + 1e-9); reclaims from a capsule's first interval of
  class reclaim to the interval whose NEXT >= R (1 - 1e-9), counted in the
  month it ends, abandoned when the class is under first; median and 90th
  percentile by nearest rank.

One TSV line per (file, month): file month intervals lent above node_over
node_intervals reclaims median p90 max abandoned (lent and above as
floats, compared by the test within 1e-9)."""
import math
import sys
import time


def month(t):
    g = time.gmtime(t)
    return '%04d-%02d' % (g.tm_year, g.tm_mon)


def main():
    for path in sys.argv[1:]:
        R, cap = {}, {}
        months = []
        cur = None
        inrec, length = {}, {}
        for line in open(path):
            t = line.split('#', 1)[0].split()
            if not t:
                continue
            if t[0] == 'node':
                cap[t[1]] = float(t[2])
            elif t[0] == 'capsule':
                R[t[1]] = float(t[4])
            elif t[0] == 'at':
                m = month(int(t[1]))
                if cur is None or cur['month'] != m:
                    cur = dict(month=m, n=0, rows=0, above=0, lent=0.0,
                               nover=0, nint=0, rec=[], ab=0)
                    months.append(cur)
                cur['n'] += 1
            elif t[0] == 'c':
                c, A, used, cls, nxt = t[1], float(t[2]), float(t[3]), t[5], float(t[6])
                cur['rows'] += 1
                if A < R[c]:
                    cur['lent'] += R[c] - A
                if used > A * (1 + 1e-9):
                    cur['above'] += 1
                if cls == 'reclaim' and not inrec.get(c):
                    inrec[c], length[c] = True, 0
                if inrec.get(c):
                    length[c] += 1
                    if nxt >= R[c] * (1 - 1e-9):
                        cur['rec'].append(length[c])
                        inrec[c] = False
                    elif cls == 'under':
                        inrec[c] = False
                        cur['ab'] += 1
            elif t[0] == 'n':
                cur['nint'] += 1
                if float(t[2]) > cap[t[1]] * (1 + 1e-9):
                    cur['nover'] += 1
        for m in months:
            r = sorted(m['rec'])
            k = len(r)
            stats = (r[(k + 1) // 2 - 1], r[math.ceil(0.9 * k) - 1], r[-1]) if k else ('-', '-', '-')
            print('\t'.join(str(x) for x in (
                path, m['month'], m['n'], repr(m['lent'] / m['n']),
                repr(m['above'] / m['rows'] if m['rows'] else 0.0),
                m['nover'], m['nint'], k) + stats + (m['ab'],)))


main()
