#!/usr/bin/env python3
"""Oracle for ovb-backtest: replays every plan of a backtest table again,
independently, and compares every count with the table's, exactly.

usage: backtest.py [--interval 300] [--prefix vm] TABLE (--csv CSV... |
                   --series SERIES...)

The VMs' cpu samples come from the raw Bitbrains CSV files (converted as
formats/bitbrains.md says: cpu = usage / (capacity / cores) in doubles,
the timestamp rounded to the nearest multiple of the interval, ties up,
the first row of a slot in input order kept, rows without cores or
capacity giving no cpu sample) or from ovb-series files.  Then, for every
configuration and period of TABLE:

- the period's bounds follow from the previous one (END - START = REPLAY);
- REJECTED = the VMs with a cpu series - PLACED; PLACED and NODES are the
  place records and the distinct nodes they name;
- each node: the slots in [START, END) where every VM on it has a sample,
  the slots whose exact sum (math.fsum, a Fraction when it rounds to the
  capacity) exceeds CPUS, and its status (missing: no slot; held:
  OVER/SLOTS <= O as Fractions; else broken);
- MOVED: VMs placed in periods K-1 and K on different nodes;
- with --validity, for a one-shot configuration's `valid` record, how
  many broken node-periods start before it (the plan's stated validity);
- the summary: the sums, DENSITY = PLACED/NODES, WORST, and VS-PEAK
  against the peak configuration of the same size, O, windows and plan
  when the table has it;
- for the methods peak and pct, the plan itself: on every node the sum of
  the VMs' peaks (pct: nearest-rank (1-O) percentiles) over the training
  window is at most CPUS (exact); with rolling:M (kept in place, at most M
  moves a period, so a node may stay broken) the moves are at most M.

Prints "agree" and exits 0, or prints the differences and exits 1.
"""
import argparse
import math
import os
import sys
from fractions import Fraction

import formats


def name_of(path, prefix):
    base = os.path.basename(path)
    if len(base) > 3 and base.endswith('.gz'):
        base = base[:-3]
    if len(base) > 4 and base.endswith('.csv'):
        base = base[:-4]
    return prefix + base


def from_csv(paths, I, prefix):
    rows, names, order = {}, [], 0
    for path in paths:
        cap = name_of(path, prefix)
        if cap not in rows:
            rows[cap] = []
            names.append(cap)
        for ts, x in formats.read_bitbrains(path):
            t = (ts + I // 2) // I * I
            cores, capmhz, use = x[1], x[2], x[3]
            cpu = use / (capmhz / cores) if cores > 0 and capmhz > 0 \
                else None
            rows[cap].append((t, order, cpu))
            order += 1
    vms = {}
    for cap in names:
        kept = []
        for z in sorted(rows[cap]):
            if kept and kept[-1][0] == z[0]:
                continue
            kept.append(z)
        s = [(t, v) for t, _, v in kept if v is not None]
        if s:
            vms[cap] = dict(s)
    return vms


def from_series(paths):
    vms = {}
    for p in paths:
        for (cap, res), blk in formats.read_series(p).items():
            if res == 'cpu':
                vms.setdefault(cap, {}).update(dict(blk['s']))
    return vms


def exceeds(xs, C):
    f = math.fsum(xs)
    if f != C:
        return f > C
    return sum(Fraction(x) for x in xs) > Fraction(C)


def read_table(path):
    confs = []
    with open(path) as f:
        lines = [ln.split('#')[0].split() for ln in f]
    lines = [ln for ln in lines if ln]
    assert lines[0] == ['ovb-backtest', '1'], lines[0]
    for t in lines[1:]:
        if t[0] == 'config':
            confs.append({'id': t[1], 'method': t[2], 'cpus': float(t[3]),
                          'O': float(t[4]), 'train': int(t[5]),
                          'replay': int(t[6]), 'plan': t[7],
                          'periods': int(t[8]), 'per': [], 'sum': None,
                          'valid': None})
        elif t[0] == 'valid':
            confs[-1]['valid'] = int(t[2])
        elif t[0] == 'period':
            confs[-1]['per'].append({
                'k': int(t[2]), 'start': int(t[3]), 'end': int(t[4]),
                'nums': [int(x) for x in t[5:9]], 'place': {},
                'node': {}})
        elif t[0] == 'place':
            confs[-1]['per'][-1]['place'][t[3]] = t[4]
        elif t[0] == 'node':
            confs[-1]['per'][-1]['node'][t[3]] = (
                int(t[4]), int(t[5]), int(t[6]), t[7])
        elif t[0] == 'summary':
            confs[-1]['sum'] = t[2:]
        else:
            raise SystemExit('unknown record %s' % t[0])
    return confs


def pct_rank(p, n):
    x = p * n / 100
    r = round(x)
    k = r if abs(x - r) <= 1e-9 else math.ceil(x)
    return max(1, int(k))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--interval', type=int, default=300)
    ap.add_argument('--prefix', default='vm')
    ap.add_argument('table')
    ap.add_argument('--csv', nargs='+', default=[])
    ap.add_argument('--series', nargs='+', default=[])
    ap.add_argument('--validity', action='store_true',
                    help='print, per one-shot configuration with a valid '
                    'record, the broken node-periods that start before it')
    a = ap.parse_args()
    vms = from_csv(a.csv, a.interval, a.prefix) if a.csv else \
        from_series(a.series)
    confs = read_table(a.table)
    bad = []

    def want(what, got, exp):
        if got != exp:
            bad.append('%s: table %r, oracle %r' % (what, got, exp))

    density = {}
    for c in confs:
        placed = nodes = held = broken = missing = moved = 0
        worst = 0.0
        prev = None
        want('%s periods' % c['id'], len(c['per']), c['periods'])
        for p in c['per']:
            tag = '%s period %d' % (c['id'], p['k'])
            if prev is not None:
                want(tag + ' START', p['start'], prev['end'])
            want(tag + ' END', p['end'] - p['start'], c['replay'])
            on = {}
            for vm, nd in p['place'].items():
                on.setdefault(nd, []).append(vm)
            np_, nn = len(p['place']), len(on)
            mv = 0
            if prev is not None and c['plan'].startswith('rolling'):
                mv = sum(1 for vm, nd in p['place'].items()
                         if vm in prev['place'] and prev['place'][vm] != nd)
            want(tag + ' PLACED REJECTED NODES MOVED', p['nums'],
                 [np_, len(vms) - np_, nn, mv])
            C = c['cpus']
            for nd in sorted(on, key=lambda s: int(s[1:])):
                members = on[nd]
                sers = [vms.get(vm, {}) for vm in members]
                common = [t for t in sorted(sers[0])
                          if p['start'] <= t < p['end'] and
                          all(t in s for s in sers[1:])]
                over = sum(1 for t in common
                           if exceeds([s[t] for s in sers], C))
                if not common:
                    st = 'missing'
                    missing += 1
                elif Fraction(over, len(common)) <= Fraction(c['O']):
                    st = 'held'
                    held += 1
                else:
                    st = 'broken'
                    broken += 1
                if common:
                    worst = max(worst, over / len(common))
                want('%s node %s' % (tag, nd), p['node'].get(nd),
                     (len(members), len(common), over, st))
                p.setdefault('statuses', []).append((nd, st))
            want(tag + ' node records', sorted(p['node']), sorted(on))
            if c['plan'].startswith('rolling:'):
                if mv > int(c['plan'][8:]):
                    bad.append('%s: %d moves > %s' % (tag, mv, c['plan']))
            elif c['method'] in ('peak', 'pct'):
                if c['plan'] == 'rolling':
                    ta = p['start'] - c['train']
                else:
                    ta = c['per'][0]['start'] - c['train']
                for nd, members in on.items():
                    tot = Fraction(0)
                    for vm in members:
                        xs = sorted(v for t, v in vms[vm].items()
                                    if ta <= t < ta + c['train'])
                        if c['method'] == 'peak':
                            tot += Fraction(xs[-1])
                        else:
                            r = pct_rank(100 - 100 * c['O'], len(xs))
                            tot += Fraction(xs[r - 1])
                    if tot > Fraction(C):
                        bad.append('%s node %s: the %s sum %s > %s' % (
                            tag, nd, c['method'], float(tot), C))
            placed += np_
            nodes += nn
            moved += mv
            prev = p
        d = placed / nodes if nodes else 0.0
        key = (c['cpus'], c['O'], c['train'], c['replay'], c['plan'])
        if c['method'] == 'peak':
            density[key] = d
        s = c['sum']
        got = [int(s[0]), int(s[1]), float(s[2]), int(s[4]), int(s[5]),
               int(s[6]), float(s[7]), int(s[8])]
        want(c['id'] + ' summary', got,
             [placed, nodes, d, held, broken, missing, worst, moved])
        c['density'], c['key'], c['vs'] = d, key, float(s[3])
    for c in confs:
        if a.validity and c['valid'] is not None:
            nb = sum(1 for p in c['per'] for nd, st in p['statuses']
                     if st == 'broken')
            early = sum(1 for p in c['per'] for nd, st in p['statuses']
                        if st == 'broken' and p['start'] < c['valid'])
            print('%s %s valid-until %d: %d of %d broken node-periods '
                  'start before it' % (c['id'], c['method'], c['valid'],
                                       early, nb))
        if c['key'] in density:
            pd = density[c['key']]
            want(c['id'] + ' VS-PEAK', c['vs'],
                 c['density'] / pd if pd > 0 else 0.0)
    if bad:
        print('\n'.join(bad[:50]))
        print('%d differences' % len(bad))
        sys.exit(1)
    print('agree')


if __name__ == '__main__':
    main()
