#!/usr/bin/env python3
"""TEST-ONLY placement for the Bitbrains walk of t/0330-replay.bats, used
only when ovb-place is not installed.  It is not ovb-place's algorithm.

usage: firstfit.py CLUSTER APPS PROFILE > PLAN

First fit: capsules in the order of APPS, nodes in the order of CLUSTER;
a capsule goes on the first node where Eq. 1 of the overbooking paper
holds for cpu and net with it added,
    sum_i (sigma_i tau_min + rho_i) (1 - O_i) / tau_min <= C,
and capsules of one application go on distinct nodes.  Eq. 3 is not
checked; each used node's risk record gets Pr(Y > C) of the independent
sum of its capsules' U (bins at their upper edges, on a grid of C/1000,
as ovb-place's default), O_min, the Eq. 1 load and C.  Capsules with
profile=NAME only; a capsule that fits nowhere rejects its application.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "oracle"))
import formats  # noqa: E402  (t/oracle/formats.py, the shared reader)


def fmt(v):
    if v == int(v) and abs(v) < 2 ** 53:
        return '%d' % v
    for p in range(1, 18):
        s = '%.*g' % (p, v)
        if float(s) == v:
            return s
    return repr(v)


def grid_up(x, g):
    if not x > 0:
        return 0
    k = max(1, math.ceil(x / g))
    while k > 1 and (k - 1) * g >= x:
        k -= 1
    while k * g < x:
        k += 1
    return k


def risk(dists, cap):
    g = cap / 1000
    y = {0: 1.0}
    for d in dists:
        u = {}
        for k, c in d['bins'].items():
            j = grid_up(k * d['width'], g)
            u[j] = u.get(j, 0.0) + c / d['n']
        r = {}
        first = grid_up(cap, g)
        if first * g <= cap:
            first += 1
        for i, p in y.items():
            for j, q in u.items():
                k = min(i + j, first)
                r[k] = r.get(k, 0.0) + p * q
        y = r
    return min(1.0, sum(p for k, p in y.items() if k * g > cap))


def main():
    cl, apps, prof = sys.argv[1:4]
    nodes, C = [], {}
    for n, c in formats.read_cluster(cl).items():
        nodes.append(n)
        C[(n, 'cpu')], C[(n, 'net')] = c['cpu'], c['net']
    P = {d.key: {'sigma': d.sigma, 'rho': d.rho, 'tau': d.tau, 'O': d.O,
                 'width': d.width, 'n': d.n, 'bins': d.bins}
         for d in formats.read_dists(prof)}
    order, caps = [], {}
    for a in formats.read_apps(apps):
        order.append(a.name)
        caps[a.name] = [(c, kv['profile']) for c, kv in a.caps]
    on = {n: [] for n in nodes}

    def load(members, res):
        q = [P[(p, res)] for _, _, p in members if (p, res) in P]
        if not q:
            return 0.0, 1.0
        tmin = min(x['tau'] for x in q)
        return sum((x['sigma'] * tmin + x['rho']) * (1 - x['O'])
                   for x in q) / tmin, min(x['O'] for x in q)

    out, rej = [], []
    for app in order:
        chosen, used = [], set()
        for cname, p in caps[app]:
            for n in nodes:
                if n in used:
                    continue
                trial = on[n] + [(app, cname, p)]
                if all(load(trial, r)[0] <= C[(n, r)] for r in ('cpu', 'net')):
                    chosen.append((cname, p, n))
                    used.add(n)
                    break
            else:
                rej.append('reject %s capsule %s: no node satisfies Eq. 1' %
                           (app, cname))
                chosen = None
                break
        if chosen is None:
            continue
        for cname, p, n in chosen:
            on[n].append((app, cname, p))
            out.append('place %s %s %s %s' % (app, cname, n, p))
            for r in ('cpu', 'net'):
                if (p, r) in P:
                    x = P[(p, r)]
                    out.append('qos %s %s %s %s %s %s %s' % (
                        app, cname, r, fmt(x['sigma']), fmt(x['rho']),
                        fmt(x['tau']), fmt(x['O'])))
    for n in nodes:
        if not on[n]:
            continue
        for r in ('cpu', 'net'):
            ld, omin = load(on[n], r)
            ds = [P[(p, r)] for _, _, p in on[n] if (p, r) in P]
            out.append('risk %s %s %s %s %s %s' % (
                n, r, fmt(risk(ds, C[(n, r)])), fmt(omin), fmt(ld),
                fmt(C[(n, r)])))
    print('ovb-plan 1')
    print('# written by t/gen/firstfit.py (TEST-ONLY first fit)')
    print('\n'.join(out + rej))


if __name__ == '__main__':
    main()
