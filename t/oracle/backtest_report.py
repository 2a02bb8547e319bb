#!/usr/bin/env python3
"""backtest_report.py: an independent check of ovb-report on an
ovb-backtest file (formats/backtest.md): its backtest table and the points,
the method of each point and the Pareto front of its plot.

    backtest_report.py table BACKTEST TSV
    backtest_report.py plot BACKTEST SCRIPT [ID]

The backtest file is read here with a parser of its own, and every number
is recounted from the period and node records, in exact fractions: per
configuration the VMs placed (place records) and the nodes used (node
records) summed over its periods, density = placed / nodes, the node
records held, broken and missing, the moves (period records); a group is
the configurations that differ only in their method (and id); against pct
and peak: density over the density of the group's pct (peak)
configuration; at most: placed over the bound records summed ("-" when
a period has none); the share held = held / (held + broken); a configuration
dominates another when its share held and its density are both at least
as large, one strictly (configurations without a measured node neither
dominate nor are dominated).

table: TSV is `ovb-report -f tsv -t backtest BACKTEST`; every row and
column must agree (exact integers, fractions to 1e-12 relative, the
dominating methods as sets; a one-shot configuration's broken
node-periods whose period starts before its `valid` date).  The file must hold a pct and a peak
configuration in every group for their columns (else "-").

plot: SCRIPT is the gnuplot script of `ovb-report -p backtest [--config
ID] BACKTEST` (or of one figure of the page).  The configurations drawn
are every one, or those of ID's group; a point for each with a measured
node, at x = its density when they all have one node size, else its
density over peak's (then the x label says "peak"), y = 100 x its share
held; each data block $Mk holds the points of the method its plot title
names, $F the points of the Pareto front among the points drawn (by brute
force here); coordinates to 1e-10 relative (the script's numbers have 12
significant digits).  Against peak, every group drawn must hold a peak
configuration.  Prints "agree", or the first difference and exits 1."""

import re
import sys
from fractions import Fraction

# placed on the replayed period's own samples: they dominate no method
YARDSTICKS = ('hindsight', 'clairvoyant', 'clairvoyant-pct')


def fail(msg):
    print(msg)
    sys.exit(1)


def read_backtest(path):
    conf = {}
    order = []
    cur = None
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith('#') or f[0] == 'ovb-backtest':
            continue
        if f[0] == 'config':
            cur = f[1]
            order.append(cur)
            conf[cur] = dict(id=cur, method=f[2], cpus=Fraction(f[3]),
                             O=Fraction(f[4]), train=int(f[5]),
                             replay=int(f[6]), plan=f[7], periods=int(f[8]),
                             placed=0, nodes=0, held=0, broken=0, missing=0,
                             moved=0, valid=None, starts={},
                             broken_starts=[], bounds={})
        elif f[0] == 'valid':
            conf[f[1]]['valid'] = int(f[2])
        elif f[0] == 'period':
            conf[f[1]]['moved'] += int(f[8])
            conf[f[1]]['starts'][f[2]] = int(f[3])
        elif f[0] == 'bound':
            conf[f[1]]['bounds'][f[2]] = int(f[3])
        elif f[0] == 'place':
            conf[f[1]]['placed'] += 1
        elif f[0] == 'node':
            c = conf[f[1]]
            c['nodes'] += 1
            c[f[7]] += 1
            # the missing column: nodes with a VM without samples (FULL
            # 0; held or broken as zero usage), missing in older files
            if f[7] != 'missing' and len(f) > 11 and f[11] == '0':
                c['missing'] += 1
            if f[7] == 'broken':
                c['broken_starts'].append(c['starts'][f[2]])
        elif f[0] == 'summary':
            c = conf[f[1]]
            c['vs_peak_file'] = float(f[5])
    for i in order:
        c = conf[i]
        c['group'] = (c['cpus'], c['O'], c['train'], c['replay'], c['plan'],
                      c['periods'])
        c['density'] = Fraction(c['placed'], c['nodes']) if c['nodes'] \
            else Fraction(0)
        c['measured'] = c['held'] + c['broken']
        # the bound: every period's, summed; 0 when one has none
        c['bound'] = sum(c['bounds'].values()) \
            if set(c['bounds']) == set(c['starts']) else 0
        c['best'] = Fraction(c['placed'], c['bound']) if c['bound'] \
            else None
        c['share'] = Fraction(c['held'], c['measured']) if c['measured'] \
            else None
    for i in order:
        c = conf[i]
        grp = [conf[j] for j in order if conf[j]['group'] == c['group']]
        for m in ('pct', 'peak'):
            o = [g for g in grp if g['method'] == m]
            c['vs_' + m] = c['density'] / o[0]['density'] \
                if o and o[0]['density'] else None
        # the yardsticks (hindsight, clairvoyant, clairvoyant-pct)
        # dominate no method
        c['dom'] = [g['method'] for g in grp
                    if g is not c and
                    g['method'] not in YARDSTICKS
                    and dominates(g, c, 'density')]
        # the gap closed in nodes a VM placed: (pct's - its) / (pct's -
        # hindsight's)
        p = [g for g in grp if g['method'] == 'pct']
        h = [g for g in grp if g['method'] == 'hindsight']
        c['gap'] = None
        if p and h and p[0]['placed'] and h[0]['placed'] and c['placed']:
            a = Fraction(p[0]['nodes'], p[0]['placed'])
            b = Fraction(h[0]['nodes'], h[0]['placed'])
            if a > b:
                c['gap'] = (a - Fraction(c['nodes'], c['placed'])) / (a - b)
    return conf, order


def dominates(a, b, key):
    if not a['measured'] or not b['measured']:
        return False
    h = (a['share'] > b['share']) - (a['share'] < b['share'])
    d = (a[key] > b[key]) - (a[key] < b[key])
    return h >= 0 and d >= 0 and (h > 0 or d > 0)


def close(x, want, tol=1e-12):
    want = float(want)
    return abs(x - want) <= tol * max(1.0, abs(want))


def table(bt, tsv):
    conf, order = read_backtest(bt)
    rows = [l.rstrip('\n').split('\t') for l in open(tsv)]
    head, rows = rows[0], rows[1:]
    if len(rows) != len(order):
        fail('%d rows, %d configurations' % (len(rows), len(order)))
    for r, i in zip(rows, order):
        c = conf[i]
        v = dict(zip(head, r))
        want = dict(config=c['id'], method=c['method'], plan=c['plan'],
                    train_s=str(c['train']), replay_s=str(c['replay']),
                    periods=str(c['periods']), placed=str(c['placed']),
                    nodes=str(c['nodes']), held=str(c['held']),
                    measured=str(c['measured']), broken=str(c['broken']),
                    missing=str(c['missing']), moved=str(c['moved']),
                    valid_until_s=str(c['valid']) if c['valid'] else '-',
                    bound_nodes=str(c['bound']) if c['bound'] else '-',
                    broken_while_valid=str(sum(1 for t in c['broken_starts']
                                               if t < c['valid']))
                    if c['valid'] else '-')
        for k, w in want.items():
            if v[k] != w:
                fail('%s %s: %s, want %s' % (i, k, v[k], w))
        nums = dict(cpus=c['cpus'], O=c['O'], density_vms_per_node=c['density'],
                    density_vs_pct=c['vs_pct'], density_vs_peak=c['vs_peak'],
                    best_density=c['best'], gap_closed=c['gap'],
                    held_fraction=c['share'],
                    moved_fraction=Fraction(c['moved'], c['placed'])
                    if c['placed'] else Fraction(0))
        for k, w in nums.items():
            if w is None:
                if v[k] != '-':
                    fail('%s %s: %s, want -' % (i, k, v[k]))
            elif v[k] == '-' or not close(float(v[k]), w):
                fail('%s %s: %s, want %s' % (i, k, v[k], float(w)))
        got = v['dominated_by']
        want_dom = '-' if not c['measured'] else \
            ', '.join(c['dom']) if c['dom'] else 'none'
        if sorted(got.split(', ')) != sorted(want_dom.split(', ')):
            fail('%s dominated_by: %s, want %s' % (i, got, want_dom))
    print('agree')


def blocks(text):
    out = {}
    for m in re.finditer(r'^\$(\w+) << EOD\n(.*?)^EOD\n', text, re.M | re.S):
        rows = []
        for l in m.group(2).splitlines():
            x, y, name = l.split()
            rows.append((float(x), float(y), name.strip('"')))
        out[m.group(1)] = rows
    return out


def plot(bt, script, cid=None):
    conf, order = read_backtest(bt)
    text = open(script).read()
    drawn = [conf[i] for i in order if cid is None or
             conf[i]['group'] == conf[cid]['group']]
    cpus = set(c['cpus'] for c in drawn)
    key = 'density' if len(cpus) == 1 else 'vs_peak'
    if ('peak provisioning' in text) != (key == 'vs_peak'):
        fail('x axis: want %s' % key)
    pts = [c for c in drawn if c['measured'] and c[key]]
    want = {c['id']: c for c in pts}
    front = set(c['id'] for c in pts
                if not any(dominates(o, c, key) for o in pts if o is not c))
    b = blocks(text)
    titles = dict(re.findall(r"\$(M\d+) using 1:2 with points [^,\n]*? "
                             r"title '([^']*)'", text))
    got = {}
    for name, rows in b.items():
        if not name.startswith('M'):
            continue
        for x, y, i in rows:
            if i in got:
                fail('%s drawn twice' % i)
            got[i] = (x, y)
            if i not in want:
                fail('%s drawn, not wanted' % i)
            if titles.get(name) != want[i]['method']:
                fail('%s in block %s titled %s, its method is %s' % (
                    i, name, titles.get(name), want[i]['method']))
    for i, c in want.items():
        if i not in got:
            fail('%s not drawn' % i)
        x, y = got[i]
        # gnuplot scripts hold 12 significant digits
        if not close(x, c[key], 1e-10) or not close(y, 100 * c['share'],
                                                     1e-10):
            fail('%s drawn at (%r, %r), want (%r, %r)' % (
                i, x, y, float(c[key]), float(100 * c['share'])))
    gf = [r[2] for r in b.get('F', [])]
    if set(gf) != front or len(gf) != len(front):
        fail('front %s, want %s' % (sorted(gf), sorted(front)))
    if not re.search(r"^plot 95 with lines .*title '95% held'", text, re.M):
        fail('no 95% line')
    print('agree')


if __name__ == '__main__':
    if len(sys.argv) >= 4 and sys.argv[1] == 'table':
        table(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == 'plot':
        plot(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) == 5
             else None)
    else:
        sys.exit(__doc__)
