#!/usr/bin/env python3
"""place_nsigma.py CLUSTER APPS PLAN PROFILE...: an independent check of
a plan of `ovb-place --mode nsigma N` (formats/plan.md, "mode nsigma N"),
from the rule alone, in exact rationals (python3 stdlib).

A capsule's mean and variance on a resource are those of its profile's
U: bin k valued k*w (the double product, its upper edge), each with
probability count/N; a plain capsule (cpu=, net=) is a point mass at its
reservation, variance 0.  A node holds on a resource when D = C - the sum
of its capsules' means is >= 0 and N^2 * the sum of their variances <=
D^2, every number the exact value of its double (no margin).

Checks: the plan states `mode nsigma N`; every node holds on cpu and net
(and net-rx where the cluster gives it); every rejected application of
one capsule, pinned nowhere, fits on no node by this rule (a one-capsule
application has no distinctness, trust 1 by default).  Prints one line
per node and resource ("NODE RES holds|breaks D V") and "agree" (exit 0),
else the differences (exit 1)."""

import sys
from fractions import Fraction as F

import formats

RES = ('cpu', 'net', 'net-rx')


def moments(d):
    """(mean, variance) of profile block d's U, exactly."""
    n = sum(d.bins.values())
    if not n:
        return F(0), F(0)
    s = sum(F(c) * F(float(k) * d.width) for k, c in d.bins.items())
    s2 = sum(F(c) * F(float(k) * d.width) ** 2 for k, c in d.bins.items())
    mean = s / n
    return mean, s2 / n - mean * mean


def holds(ms, C, N):
    D = F(C) - sum(m for m, _ in ms)
    V = sum(v for _, v in ms)
    return D >= 0 and F(N) ** 2 * V <= D * D, D, V


def main():
    cl = formats.read_cluster(sys.argv[1])
    apps = formats.read_apps(sys.argv[2])
    plan = formats.read_plan(sys.argv[3])
    prof = {(d.capsule, d.res): d for d in formats.read_dists(sys.argv[4:])
            if d.kind == 'profile'}
    N = None
    for t in plan.recs:
        if t[0] == 'mode':
            N = float(t[2]) if t[1] == 'nsigma' else None
    bad = []
    if N is None:
        print('the plan is not of mode nsigma N')
        sys.exit(1)
    caps = {(a.name, c): kv for a in apps for c, kv in a.caps}

    def need(app, cap, r):
        kv = caps[app, cap]
        if 'profile' in kv:
            d = prof.get((kv['profile'], r))
            return moments(d) if d else None
        x = float(kv.get(r, 0))
        return (F(x), F(0)) if x > 0 else None

    on = {(n, r): [] for n in cl for r in RES if r in cl[n]}
    for app, cap, node, _ in plan.place:
        for r in RES:
            m = need(app, cap, r)
            if m is not None and (node, r) in on:
                on[node, r].append(m)
    for (node, r), ms in on.items():
        if not ms:
            continue
        ok, D, V = holds(ms, cl[node][r], N)
        print('%s %s %s %r %r' % (node, r, 'holds' if ok else 'breaks',
                                  float(D), float(V)))
        if not ok:
            bad.append('%s %s: breaks the nsigma rule' % (node, r))
    rejected = {t[1] for t in plan.reject}
    for a in apps:
        if a.name not in rejected or len(a.caps) != 1 or \
           'node' in a.caps[0][1]:
            continue
        c = a.caps[0][0]
        for node in cl:
            if all(need(a.name, c, r) is None or (node, r) not in on or
                   holds(on[node, r] + [need(a.name, c, r)],
                         cl[node][r], N)[0] for r in RES):
                bad.append('%s: rejected, but fits on %s' % (a.name, node))
                break
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('agree')


if __name__ == '__main__':
    main()
