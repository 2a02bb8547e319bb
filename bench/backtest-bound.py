#!/usr/bin/env python3
"""The fewest nodes any placement could have used: a clairvoyant lower
bound on an ovb-backtest file's node counts, and so the largest density
any method could have reached.

usage: backtest-bound.py [--check] [--mem-margin 0.15]
                         [--mem-window 3600] TABLE SERIES...

For every configuration and period of TABLE (an ovb-backtest file made
from the ovb-series files SERIES), with P the VMs the period places, C
the node size, O the tolerance and R the grid's slots in the period
(t/oracle/backtest.py computes both bounds, and checks the bound records
ovb-backtest writes against them):

- cpu: a placement of P on K nodes in which every node keeps its promise
  (OVER <= O SLOTS, SLOTS <= R) overflows somewhere in at most K O R
  slots; in a slot in which every VM of P has a sample and no node
  overflows, the sum of P is at most K C.  So K >= the least K with
  #{t: sum of P at t > K C} <= K O R (exact sums), and at most the
  number of VMs (no placement uses more nodes).  When a VM of P has no
  sample in the period a node is `missing`, never held, and the bound
  is 1.
- memory (MEM > 0): every method keeps a node's limits within MEM + POOL
  (ovb-backtest(1)), so K >= ceil(sum of P's limits / (MEM + POOL)),
  each limit the VM's largest training window peak x (1 + margin),
  rounded up to a byte, as t/oracle/backtest.py computes it.  This holds
  whether or not the nodes keep their promises, for plans made afresh
  (rolling, one-shot); under rolling:M (at most M moves from the last
  plan) a node may stay above MEM + POOL, and there is no memory bound.
- the bound is the largest of 1 and the two.

Prints one line per configuration: its nodes and the bound summed over
its periods, its density (VMs per node), the density placing its VMs on
the bound's nodes, and both against the group's pct (the configuration
of method pct with the same node size, O, windows, plan and memory) and
against the group's sum of p99s (pct at O = 0.01, when TABLE has it).
With --check, verifies instead that every period uses at least the
memory bound of nodes and, when every node held its cpu promise, at
least the cpu bound; prints "sound" and exits 0, else the periods that
do not and exits 1 (a bound that a real placement beats is wrong).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 't', 'oracle'))
import backtest  # noqa: E402  (the oracle's readers and limit rule)


def mem_bound(P, mem, ta, tb, a, M, pool, plan):
    if M == 0 or plan.startswith(('rolling:', 'compact:')):
        return 0
    return backtest.mem_bound([limit(vm, mem, ta, tb, a) for vm in P],
                              M + pool)


LIMITS = {}


def limit(vm, mem, ta, tb, a):
    """VM's memory limit for the training window [ta, tb), computed once
    per window."""
    if (vm, ta, tb) not in LIMITS:
        LIMITS[vm, ta, tb] = backtest.limit_of(backtest.window_peaks(
            mem.get(vm, {}), ta, tb, a.mem_window, a.interval), a.mem_margin)
    return LIMITS[vm, ta, tb]


def training(c, p, first):
    if c['plan'] == 'one-shot':
        return first - c['train'], first
    return p['start'] - c['train'], p['start']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--interval', type=int, default=300,
                    help=argparse.SUPPRESS)   # the oracle's helpers' default
    ap.add_argument('--mem-margin', type=float, default=0.15)
    ap.add_argument('--mem-window', type=int, default=3600)
    ap.add_argument('table')
    ap.add_argument('series', nargs='+')
    a = ap.parse_args()
    mem = {}
    vms = backtest.from_series(a.series, mem)
    confs = backtest.read_table(a.table)
    grid = a.interval = min(backtest.SERIES_I)   # the series' interval [s]
    bad, rows = [], []
    for c in confs:
        nodes = placed = bsum = 0
        first = c['per'][0]['start'] if c['per'] else 0
        for p in c['per']:
            P = sorted(p['place'])
            nn = len(set(p['place'].values()))
            ta, tb = training(c, p, first)
            kc = backtest.cpu_bound(P, vms, p['start'], p['end'], grid,
                                    c['cpus'], c['O']) if P else 0
            km = mem_bound(P, mem, ta, tb, a, c['mem'], c['pool'],
                           c['plan']) if P else 0
            allheld = all(n[3] == 'held' for n in p['node'].values())
            tag = '%s period %d' % (c['id'], p['k'])
            if nn < km:
                bad.append('%s: %d nodes < the memory bound %d' % (tag, nn, km))
            if allheld and nn < kc:
                bad.append('%s: %d nodes, every one held, < the cpu bound %d'
                           % (tag, nn, kc))
            nodes += nn
            placed += len(P)
            bsum += max(kc, km, 1 if P else 0)
        rows.append((c, placed, nodes, bsum))
    if a.check:
        print('\n'.join(bad) if bad else 'sound')
        return 1 if bad else 0
    key = lambda c: (c['cpus'], c['O'], c['train'], c['replay'], c['plan'],
                     c['mem'], c['pool'])
    pct = {key(c): pl / n for c, pl, n, _ in rows
           if c['method'] == 'pct' and n}
    p99 = lambda c: dict(c, O=0.01)

    def ratio(x, y):
        return '%.2f' % (x / y) if y else '-'
    print('# id method cpus O train[d] mem[GiB] plan nodes bound density '
          'best-density density/pct best/pct best/p99')
    for c, pl, n, b in rows:
        d = pl / n if n else 0
        best = pl / b if b else 0
        dp, d99 = pct.get(key(c), 0), pct.get(key(p99(c)), 0)
        print('%s %s %g %g %g %g %s %d %d %.2f %.2f %s %s %s' % (
            c['id'], c['method'], c['cpus'], c['O'], c['train'] / 86400,
            c['mem'] / 2**30, c['plan'], n, b, d, best, ratio(d, dp),
            ratio(best, dp), ratio(best, d99)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
