#!/usr/bin/env python3
"""mem.py: independent oracle for memory as a resource (python3 stdlib).

    mem.py profile [--window W] [--margin M] -O O SERIES PROFILE
    mem.py node CLUSTER PLAN PROFILE...

From the raw ovb-series (not from ovb-usage's output): every mem series
is cut into windows [kW, (k+1)W) (W seconds, default 3600); every window
with a sample counts, valued at its largest sample (the window peak, a
block maximum; a window missing samples too).  Then, per capsule, the request is the
nearest-rank (1-O)*100th percentile of the peaks (rank max(1, ceil((1-O)
n)), exact: O must be one whose percentile ovb-usage always writes), the
limit is ceil(largest peak * (1 + M)) in doubles (M default 0.15).
Checks PROFILE's mem blocks: one per mem series, interval W, intervals n,
request and limit equal.  Prints "agree: N mem profiles" (exit 0) or the
differences (exit 1).

node: the memory rules of every node of PLAN, recomputed from CLUSTER
and the profiles' mem blocks (request, limit, O, U's width and bins; no
O= overrides in the apps) and, with --apps, the plain capsules' mem= and
mem-limit= (request mem=, limit the larger of the two, O the capsule's
or application's O= or 0, U a point mass at mem=; a node of plain
capsules alone has Y their exact sum, and exposure (Y - C)+): the sum of the requests <= C and of the
limits <= C + pool, exactly (Fractions); Y = the sum of the window
peaks, independent, on the grid g = the largest bin width (at least
C/POINTS with the plan's grid record), each bin at its upper edge moved
up to the grid, as integer counts: Pr(Y > C) exactly, <= the least O;
the OOM exposure E[(Y - C)+] exactly (each grid point's value the double
k*g).  Checks each node's stated `risk NODE mem PR OMIN LOAD CAPACITY
EXPOSURE` (PR to 1e-9, LOAD to a relative 1e-9, EXPOSURE to a relative
1e-9 or 1e-9 C) and, for every rejected application of one capsule, that
no node could take it by the memory rules.  Prints one line per node
("NODE holds|breaks requests R limits L pr P exposure E") and "agree"
(exit 0) when the plan's statements are right, every node holds and no
rejection could have been placed; else the differences (exit 1).

The rules are the plan's `mem-rule` record's: pool (no record) the three
above; `mem-rule promise [O]` (memory as a promise) Pr(Y > C) <= O_mem
alone, O_mem = O (its double, exactly) or the least O without it, and
the stated OMIN is O_mem.  --rule pool|promise [--tolerance O] says which
rule the plan must record (a difference otherwise)."""

import argparse
import math
import sys
from fractions import Fraction

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
    return [max(g) for w, g in sorted(groups.items())]


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


def mem_profiles(paths):
    """{capsule: {'request', 'limit', 'O', 'width', 'bins'}} of the mem
    blocks."""
    out = {}
    for path in paths:
        cur = None
        for t in formats.records(path):
            if t[0] == 'profile':
                cur = None
                if t[2] == 'mem':
                    cur = out.setdefault(t[1], {'bins': {}})
            elif cur is None:
                continue
            elif t[0] in ('request', 'limit', 'O', 'width'):
                cur[t[0]] = float(t[1])
            elif t[0] == 'bin':
                cur['bins'][int(t[1])] = int(t[2])
    return out


def plain_members(apps):
    """{(app, capsule): member} of the plain capsules of APPS with mem=
    or mem-limit=."""
    out = {}
    for app in formats.read_apps(apps):
        for name, kv in app.caps:
            if 'profile' in kv:
                continue
            r = float(kv.get('mem', 0))
            lim = max(r, float(kv.get('mem-limit', 0)))
            if r > 0 or lim > 0:
                out[app.name, name] = {
                    'request': r, 'limit': lim, 'plain': r,
                    'O': float(kv.get('O', app.kv.get('O', 0)))}
    return out


def node_y(members, C, points):
    """(g, {k: count}, total) of Y, the sum of the members' peaks; g 0
    (and Y None) when every member is plain."""
    prof = [m for m in members if 'plain' not in m]
    if not prof:
        return 0, None, 1
    g = max(m['width'] for m in prof)
    if points and C / float(points) > g:
        g = C / float(points)
    y, total = {0: 1}, 1
    for m in members:
        u = {}
        if 'plain' in m:
            u[formats.grid_up(m['plain'], g)] = 1
        for k, c in m.get('bins', {}).items():
            j = formats.grid_up(float(k) * m['width'], g)
            u[j] = u.get(j, 0) + c
        r = {}
        for i, a in y.items():
            for j, b in u.items():
                r[i + j] = r.get(i + j, 0) + a * b
        y = r
        total *= sum(u.values())
    return g, y, total


def node_rules(members, C, pool, points, rule=('pool', None)):
    """(requests, limits, Pr(Y > C), E[(Y - C)+], O_min, holds) exactly;
    rule ('promise', O or None): Pr(Y > C) <= O_mem alone."""
    req = sum(Fraction(m['request']) for m in members)
    lim = sum(Fraction(m['limit']) for m in members)
    g, y, total = node_y(members, C, points)
    if y is None:       # plain alone: Y is the exact sum of the requests
        pr = Fraction(1 if req > Fraction(C) else 0)
        expo = max(Fraction(0), req - Fraction(C))
    else:
        K = formats.grid_down(C, g)
        pr = Fraction(sum(v for k, v in y.items() if k > K), total)
        expo = sum(Fraction(v) * (Fraction(float(k) * g) - Fraction(C))
                   for k, v in y.items() if k > K) / total
    omin = min(m['O'] for m in members)
    if rule[0] == 'promise':
        if rule[1] is not None:
            omin = rule[1]
        return req, lim, pr, expo, omin, pr <= Fraction(omin)
    holds = req <= Fraction(C) and lim <= Fraction(C) + Fraction(pool) \
        and pr <= Fraction(omin)
    return req, lim, pr, expo, omin, holds


def close(a, b, rel, absol=0.0):
    return a == b or abs(a - b) <= rel * max(abs(a), abs(b)) + absol


def cmd_node(a):
    cl = formats.read_cluster(a.cluster)
    plan = formats.read_plan(a.plan)
    prof = mem_profiles(a.profiles)
    plain = plain_members(a.apps) if a.apps else {}
    on = {n: [] for n in cl}
    for app, cap, node, pname in plan.place:
        if pname in prof:
            on[node].append(prof[pname])
        elif pname == '-' and (app, cap) in plain:
            on[node].append(plain[app, cap])
    stated = {}
    rule = ('pool', None)
    for t in plan.recs:
        if t[0] == 'risk' and t[2] == 'mem':
            stated[t[1]] = [float(x) for x in t[3:8]]
        if t[0] == 'mem-rule':
            rule = (t[1], float(t[2]) if len(t) > 2 else None)
    bad = []
    if a.rule and (a.rule, a.tolerance) != rule:
        bad.append('the plan records mem-rule %r, not %r' % (
            rule, (a.rule, a.tolerance)))
    for node, ms in on.items():
        C, pool = cl[node]['mem'], cl[node]['mem-pool']
        if not ms:
            if node in stated:
                bad.append('%s: a mem risk record, but no capsule' % node)
            continue
        req, lim, pr, expo, omin, holds = node_rules(ms, C, pool, plan.grid,
                                                     rule)
        print('%s %s requests %r limits %r pr %r exposure %r' % (
            node, 'holds' if holds else 'breaks', float(req), float(lim),
            float(pr), float(expo)))
        if not holds:
            bad.append('%s: breaks the memory rules' % node)
        st = stated.get(node)
        if st is None:
            bad.append('%s: no mem risk record' % node)
            continue
        PR, OMIN, LOAD, CAP, EXPO = st
        if not close(PR, float(pr), 0, 1e-9) or OMIN != omin or \
           not close(LOAD, float(req), 1e-9) or CAP != C or \
           not close(EXPO, float(expo), 1e-9, 1e-9 * C):
            bad.append('%s: stated %r, oracle %r' % (node, st, [
                float(pr), omin, float(req), C, float(expo)]))
    # a rejected one-capsule application fits nowhere by the mem rules
    apps = {}
    for t in plan.recs:
        if t[0] == 'reject':
            apps[t[1]] = True
    for app in formats.read_apps(a.apps) if a.apps else []:
        if app.name not in apps or len(app.caps) != 1:
            continue
        pname = app.caps[0][1].get('profile')
        m = prof.get(pname) or plain.get((app.name, app.caps[0][0]))
        if m is None:
            continue
        for node, ms in on.items():
            C, pool = cl[node]['mem'], cl[node]['mem-pool']
            if node_rules(ms + [m], C, pool, plan.grid, rule)[5]:
                bad.append('%s: rejected, but fits on %s' % (app.name,
                                                             node))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('agree')


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('profile')
    p.add_argument('--window', type=int, default=3600)
    p.add_argument('--margin', type=float, default=0.15)
    p.add_argument('-O', type=float, required=True)
    p.add_argument('series')
    p.add_argument('profile')
    p = sub.add_parser('node')
    p.add_argument('--apps', action='append')
    p.add_argument('--rule', choices=('pool', 'promise'))
    p.add_argument('--tolerance', type=float)
    p.add_argument('cluster')
    p.add_argument('plan')
    p.add_argument('profiles', nargs='*')
    a = ap.parse_args()
    if a.cmd == 'profile':
        cmd_profile(a)
    else:
        cmd_node(a)


if __name__ == '__main__':
    main()
