#!/usr/bin/env python3
"""Oracle for ovb-backtest: replays every plan of a backtest table again,
independently, and compares every count with the table's, exactly.

usage: backtest.py [--interval 300] [--prefix vm] [--mem-margin 0.15]
                   [--mem-window 3600] TABLE (--csv CSV... |
                   --series SERIES...)

The VMs' cpu samples come from the raw Bitbrains CSV files (converted as
formats/bitbrains.md says: cpu = usage / (capacity / cores) in doubles,
the timestamp rounded to the nearest multiple of the interval, ties up,
the first row of a slot in input order kept, rows without cores or
capacity giving no cpu sample; mem = Memory usage [KB] x 1024 bytes, in
every row) or from ovb-series files.  Then, for every configuration and
period of TABLE:

- the period's bounds follow from the previous one (END - START = REPLAY);
- REJECTED = the VMs with a cpu series - PLACED; PLACED and NODES are the
  place records and the distinct nodes they name;
- each node: the slots in [START, END) where at least one VM on it has a
  sample (missing samples as zero usage), the slots whose exact sum of
  the samples there (math.fsum, a Fraction when it rounds to the
  capacity) exceeds CPUS, its status (missing: no slot; held:
  OVER/SLOTS <= O as Fractions; else broken), and FULL, the slots where
  every VM on it has a sample (0: the old `missing`; the summary's
  PARTIAL counts those nodes);
- memory, when the configuration's MEM is not 0: each node's slots where
  every VM on it has a mem sample, those whose exact sum exceeds MEM, its
  status as for cpu (else `none` and zeros); each placed VM's limit
  (the largest of its window peaks in the period's training window, the
  largest sample of each window [kW, (k+1)W) there that has all its
  W/interval samples, W = --mem-window; times 1 + --mem-margin in
  doubles, rounded up), the slots of the period in which its memory
  exceeds the limit (the oom records: KILLS, LIMIT, TPEAK its largest
  sample in training, RPEAK in the period, unseen when RPEAK > TPEAK),
  and that every VM placed has a complete window in training;
- MOVED: VMs placed in periods K-1 and K on different nodes;
- with --validity, for a one-shot configuration's `valid` record, how
  many broken node-periods start before it (the plan's stated validity);
- a one-shot configuration's held-out test (heldout, hplace, hnode): its
  plan replayed on the second half of the training window as a period's
  nodes are, and the validity at most the window's end plus that half
  when some node was measured and none broke, the window's end if not;
- the summary: the sums, DENSITY = PLACED/NODES, WORST, and VS-PEAK
  against the peak configuration of the same size, O, windows and plan
  when the table has it;
- for the methods peak, pct and mean, the plan itself: on every node the
  sum of the VMs' peaks (pct: nearest-rank (1-O) percentiles; mean: the
  means) over the training window is at most CPUS (exact; mean within a
  relative 1e-12); with memory, the sum of their largest memory window
  peaks (pct: the nearest-rank (1-O) percentile, mean: the mean of the
  window peaks) at most MEM, and for every
  method the sum of the limits at most MEM + POOL; with rolling:M (kept in
  place, at most M moves a period, so a node may stay broken) the moves
  are at most M.

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


def from_csv(paths, I, prefix, mem=None):
    rows, names, order = {}, [], 0
    mrows = {}
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
            mrows.setdefault(cap, []).append((t, order, x[6] * 1024))
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
        if mem is not None:
            kept = []
            for z in sorted(mrows[cap]):
                if kept and kept[-1][0] == z[0]:
                    continue
                kept.append(z)
            mem[cap] = {t: v for t, _, v in kept}
    return vms


# placed on the replayed period's own samples, not forecasts
YARDSTICKS = ('hindsight', 'clairvoyant', 'clairvoyant-pct')
SERIES_I = set()     # the intervals of the series read by from_series


def from_series(paths, mem=None):
    vms = {}
    for p in paths:
        for (cap, res), blk in formats.read_series(p).items():
            SERIES_I.add(blk['I'])
            if res == 'cpu':
                vms.setdefault(cap, {}).update(dict(blk['s']))
            elif res == 'mem' and mem is not None:
                mem.setdefault(cap, {}).update(dict(blk['s']))
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
                          'periods': int(t[8]), 'mem': float(t[9]),
                          'pool': float(t[10]), 'per': [], 'sum': None,
                          'promise': len(t) > 11 and t[11] == 'promise',
                          'valid': None, 'heldout': None, 'hplace': {},
                          'hnode': {}})
        elif t[0] == 'heldout':
            confs[-1]['heldout'] = (int(t[2]), int(t[3]))
        elif t[0] == 'hplace':
            confs[-1]['hplace'][t[2]] = t[3]
        elif t[0] == 'hnode':
            confs[-1]['hnode'][t[2]] = (int(t[3]), int(t[4]), int(t[5]),
                                        t[6])
        elif t[0] == 'valid':
            confs[-1]['valid'] = int(t[2])
        elif t[0] == 'period':
            confs[-1]['per'].append({
                'k': int(t[2]), 'start': int(t[3]), 'end': int(t[4]),
                'nums': [int(x) for x in t[5:9]], 'place': {},
                'node': {}, 'oom': {}, 'bound': None})
        elif t[0] == 'place':
            confs[-1]['per'][-1]['place'][t[3]] = t[4]
        elif t[0] == 'node':
            confs[-1]['per'][-1]['node'][t[3]] = (
                int(t[4]), int(t[5]), int(t[6]), t[7], int(t[8]),
                int(t[9]), t[10], int(t[11]) if len(t) > 11 else None)
        elif t[0] == 'bound':
            confs[-1]['per'][-1]['bound'] = tuple(int(x) for x in t[3:6])
        elif t[0] == 'oom':
            confs[-1]['per'][-1]['oom'][t[3]] = (
                t[4], int(t[5]), float(t[6]), float(t[7]), float(t[8]),
                t[9])
        elif t[0] == 'summary':
            confs[-1]['sum'] = t[2:]
        elif t[0] == 'gap':
            assert t[1] == confs[-1]['id'], t
            confs[-1]['gap'] = tuple([float(t[2])] + [int(x) for x in t[3:]])
        else:
            raise SystemExit('unknown record %s' % t[0])
    return confs


def pct_rank(p, n):
    x = p * n / 100
    r = round(x)
    k = r if abs(x - r) <= 1e-9 else math.ceil(x)
    return max(1, int(k))


def window_peaks(series, ta, tb, W, I):
    """The largest sample of each window [kW, (k+1)W) with a sample in
    [ta, tb), in time order (a window with missing samples counts too: a
    level seen is held, so the largest peak is the largest sample)."""
    pk = {}
    for t, v in series.items():
        if ta <= t < tb:
            j = t // W
            pk[j] = max(pk.get(j, v), v)
    return [pk[j] for j in sorted(pk)]


def limit_of(peaks, margin):
    return float(math.ceil(max(peaks) * (1 + margin)))


def cpu_bound(P, vms, start, end, I, C, O):
    """The fewest nodes a placement of the VMs P can use with every node
    keeping its cpu promise in [start, end): a node overflows in each slot
    where some of P have a sample and the sum (missing samples as zero
    usage) exceeds K C, and the nodes overflow in at most K O R slots (R
    the grid's slots in [start, end)), so K >= the least K with #{such
    slots} <= K O R; at most len(P); 1 when none has a sample there."""
    n = len(P)
    R = -(-end // I) - -(-start // I)
    sums = [[vms.get(vm, {}).get(t, 0.0) for vm in P]
            for t in range(-(-start // I) * I, end, I)
            if any(t in vms.get(vm, {}) for vm in P)]
    for K in range(1, n):
        over = sum(1 for xs in sums if exceeds(xs, K * C))
        if Fraction(over, K * R) <= Fraction(O):
            return K
    return n


def mem_bound(lims, cap):
    """The fewest nodes of MEM + POOL = cap bytes holding these limits
    (at most their number)."""
    tot = sum(Fraction(x) for x in lims)
    return min(len(lims), max(1, math.ceil(tot / Fraction(cap))))


def mem_plan(c, on, ta, tb, mem, a, bad, tag):
    """A fresh plan's memory: every node's limits at most MEM + POOL;
    peak: the sum of the largest window peaks at most MEM; pct: the sum of
    the (1-O) percentiles of the window peaks."""
    M = c['mem']
    if M == 0:
        return
    for nd, members in on.items():
        lims, tot = [], Fraction(0)
        for vm in members:
            pk = sorted(window_peaks(mem.get(vm, {}), ta, tb, a.mem_window,
                                     a.interval))
            if not pk:
                return      # reported with the oom records
            lims.append(Fraction(limit_of(pk, a.mem_margin)))
            if c['method'] == 'peak':
                tot += Fraction(pk[-1])
            elif c['method'] == 'mean':
                tot += Fraction(math.fsum(pk) / len(pk))
            elif c['method'] == 'pct':
                tot += Fraction(pk[pct_rank(100 - 100 * c['O'],
                                            len(pk)) - 1])
        if not c['promise'] and sum(lims) > Fraction(M + c['pool']):
            bad.append('%s node %s: the memory limits %s > MEM + POOL %s'
                       % (tag, nd, float(sum(lims)), M + c['pool']))
        if tot > Fraction(M) * slack(c):
            bad.append('%s node %s: the %s memory sum %s > %s' % (
                tag, nd, c['method'], float(tot), M))


def slack(c):
    """The sums are exact; a mean is a double the tool summed in its own
    order, so mean's sums get a relative 1e-12 (the others none)."""
    return Fraction(1) + (Fraction(1, 10**12) if c['method'] == 'mean'
                          else 0)


def heldout(c, vms, want):
    """A one-shot configuration's held-out test: [MID, END) is the second
    half of its training window (END the first period's start, MID = END
    - TRAIN + TRAIN // 2); each hplace node replayed there with the
    honest counts, as a period's nodes; the test passed when some node
    was measured and none broke, and the validity is at most END + (END -
    MID) then, END otherwise."""
    mid, end = c['heldout']
    tag = '%s heldout' % c['id']
    want(tag + ' plan', c['plan'], 'one-shot')
    if c['per']:
        want(tag + ' END', end, c['per'][0]['start'])
    want(tag + ' MID', mid, end - c['train'] + c['train'] // 2)
    on = {}
    for vm, nd in c['hplace'].items():
        on.setdefault(nd, []).append(vm)
    want(tag + ' nodes', sorted(c['hnode']), sorted(on))
    seen = broke = False
    for nd, members in on.items():
        sers = [vms.get(vm, {}) for vm in members]
        common = sorted({t for s in sers for t in s if mid <= t < end})
        over = sum(1 for t in common
                   if exceeds([s.get(t, 0.0) for s in sers], c['cpus']))
        st = ('missing' if not common else 'held'
              if Fraction(over, len(common)) <= Fraction(c['O'])
              else 'broken')
        seen = seen or st != 'missing'
        broke = broke or st == 'broken'
        want('%s hnode %s' % (tag, nd), c['hnode'].get(nd),
             (len(members), len(common), over, st))
    cap = end + (end - mid if seen and not broke else 0)
    if c['valid'] is not None and c['valid'] > cap:
        want(tag + ' valid at most', c['valid'], cap)
    c['test_passed'] = seen and not broke


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
    ap.add_argument('--mem-margin', type=float, default=0.15)
    ap.add_argument('--mem-window', type=int, default=3600)
    a = ap.parse_args()
    mem = {}
    vms = from_csv(a.csv, a.interval, a.prefix, mem) if a.csv else \
        from_series(a.series, mem)
    confs = read_table(a.table)
    bad = []
    # the slots' grid: the series' own interval (the CSVs': --interval)
    grid = min(SERIES_I) if a.series and SERIES_I else a.interval

    def want(what, got, exp):
        if got != exp:
            bad.append('%s: table %r, oracle %r' % (what, got, exp))

    density = {}
    for c in confs:
        placed = nodes = held = broken = missing = moved = partial = 0
        worst = 0.0
        mcount = {'held': 0, 'broken': 0, 'missing': 0, 'none': 0}
        mworst, mover_all, noom, kills = 0.0, 0, 0, 0
        M = c['mem']
        prev = None
        want('%s periods' % c['id'], len(c['per']), c['periods'])
        if c['heldout'] is not None:
            heldout(c, vms, want)
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
            if prev is not None and c['plan'] != 'one-shot':
                mv = sum(1 for vm, nd in p['place'].items()
                         if vm in prev['place'] and prev['place'][vm] != nd)
            want(tag + ' PLACED REJECTED NODES MOVED', p['nums'],
                 [np_, len(vms) - np_, nn, mv])
            C = c['cpus']
            if c['plan'] == 'one-shot':
                ta = c['per'][0]['start'] - c['train']
            else:
                ta = p['start'] - c['train']
            tb = ta + c['train']
            # the yardsticks are profiled on the period itself
            if c['method'] in YARDSTICKS:
                ta, tb = p['start'], p['end']
            for nd in sorted(on, key=lambda s: int(s[1:])):
                members = on[nd]
                sers = [vms.get(vm, {}) for vm in members]
                full = [t for t in sorted(sers[0])
                        if p['start'] <= t < p['end'] and
                        all(t in s for s in sers[1:])]
                common = sorted({t for s in sers for t in s
                                 if p['start'] <= t < p['end']})
                over = sum(1 for t in common
                           if exceeds([s.get(t, 0.0) for s in sers], C))
                partial += not full
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
                if M > 0 and all(vm in mem for vm in members):
                    ms = [mem[vm] for vm in members]
                    mcommon = [t for t in sorted(ms[0])
                               if p['start'] <= t < p['end'] and
                               all(t in s for s in ms[1:])]
                else:
                    mcommon = []
                mover = sum(1 for t in mcommon
                            if exceeds([s[t] for s in ms], M))
                if M == 0:
                    mst = 'none'
                elif not mcommon:
                    mst = 'missing'
                elif Fraction(mover, len(mcommon)) <= Fraction(c['O']):
                    mst = 'held'
                else:
                    mst = 'broken'
                mcount[mst] += 1
                mover_all += mover
                if mcommon:
                    mworst = max(mworst, mover / len(mcommon))
                want('%s node %s' % (tag, nd), p['node'].get(nd),
                     (len(members), len(common), over, st, len(mcommon),
                      mover, mst, len(full)))
                p.setdefault('statuses', []).append((nd, st))
            want(tag + ' node records', sorted(p['node']), sorted(on))
            # OOM kills: each placed VM's memory against its limit
            ooms = {}
            for vm, nd in (p['place'].items() if M > 0 else ()):
                tr = [v for t, v in mem.get(vm, {}).items() if ta <= t < tb]
                pk = window_peaks(mem.get(vm, {}), ta, tb, a.mem_window,
                                  a.interval)
                if not pk:
                    bad.append('%s: vm %s placed without a memory sample '
                               'in training' % (tag, vm))
                    continue
                lim = limit_of(pk, a.mem_margin)
                rp = [v for t, v in mem[vm].items()
                      if p['start'] <= t < p['end']]
                k = sum(1 for v in rp if v > lim)
                if k:
                    top = max(rp)
                    ooms[vm] = (nd, k, lim, max(tr), top,
                                'unseen' if top > max(tr) else 'seen')
                    noom += 1
                    kills += k
            want(tag + ' oom records', p['oom'], ooms)
            # the bound: the fewest nodes any placement of these VMs uses
            P = sorted(p['place'])
            bc = cpu_bound(P, vms, p['start'], p['end'], grid, C,
                           c['O']) if P else 0
            bm = 0
            if P and M > 0 and not c['plan'].startswith(('rolling:', 'compact:')) and \
                    not c['promise']:
                bm = mem_bound([limit_of(window_peaks(
                    mem.get(vm, {}), ta, tb, a.mem_window, a.interval),
                    a.mem_margin) for vm in P], M + c['pool'])
            want(tag + ' bound', p['bound'],
                 (max(bc, bm), bc, bm) if P else (0, 0, 0))
            if c['plan'].startswith(('rolling:', 'compact:')):
                # the hindsight is re-packed every period, whatever the plan
                if mv > int(c['plan'][8:]) and c['method'] != 'hindsight':
                    bad.append('%s: %d moves > %s' % (tag, mv, c['plan']))
            else:
                mem_plan(c, on, ta, tb, mem, a, bad, tag)
            if c['method'] in ('peak', 'pct', 'mean', 'clairvoyant-pct') and \
                    not c['plan'].startswith(('rolling:', 'compact:')):
                for nd, members in on.items():
                    tot = Fraction(0)
                    for vm in members:
                        xs = sorted(v for t, v in vms[vm].items()
                                    if ta <= t < tb)
                        if not xs:
                            bad.append('%s node %s: %s has no sample in '
                                       '[%d, %d)' % (tag, nd, vm, ta, tb))
                            continue
                        if c['method'] == 'peak':
                            tot += Fraction(xs[-1])
                        elif c['method'] == 'mean':
                            tot += Fraction(math.fsum(xs) / len(xs))
                        else:
                            r = pct_rank(100 - 100 * c['O'], len(xs))
                            tot += Fraction(xs[r - 1])
                    if tot > Fraction(C) * slack(c):
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
               int(s[6]), float(s[7]), int(s[8]), int(s[9]), int(s[10]),
               int(s[11]), float(s[12]), int(s[13]), int(s[14]),
               int(s[15]), int(s[16]) if len(s) > 16 else None]
        want(c['id'] + ' summary', got,
             [placed, nodes, d, held, broken, missing, worst, moved,
              mcount['held'], mcount['broken'], mcount['missing'], mworst,
              mover_all, noom, kills, partial])
        c['density'], c['key'], c['vs'] = d, key, float(s[3])
        c['nodes'], c['placed'] = nodes, placed
    # the gap closed in nodes a VM placed: pct's and hindsight's of the
    # same group (node size, O, windows, plan, memory), recounted from the
    # period records; a file of before the placed counts: in nodes
    grp = {}
    for c in confs:
        g = (c['key'], c['periods'], c['mem'], c['pool'])
        grp.setdefault(g, {})[c['method']] = (c['nodes'], c['placed'])
    for c in confs:
        g = grp[(c['key'], c['periods'], c['mem'], c['pool'])]
        P, H = g.get('pct'), g.get('hindsight')
        want_gap = None
        old = c.get('gap') is not None and len(c['gap']) == 3
        if old and P is not None and H is not None and P[0] > H[0]:
            want_gap = ((P[0] - c['nodes']) / (P[0] - H[0]), P[0], H[0])
        elif (not old and P is not None and H is not None and P[1] and
              H[1] and c['placed'] and
              Fraction(P[0], P[1]) > Fraction(H[0], H[1])):
            pa = Fraction(P[0], P[1])
            want_gap = (float((pa - Fraction(c['nodes'], c['placed'])) /
                              (pa - Fraction(H[0], H[1]))),
                        P[0], H[0], P[1], H[1])
        want(c['id'] + ' gap', c.get('gap'), want_gap)
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
