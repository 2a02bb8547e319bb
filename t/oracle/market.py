#!/usr/bin/python3
"""Independent oracle for ovb-market and ovb-rebalance (Merkat market).

Reads the ovb-cluster and ovb-bids files itself, computes in Fractions
(the exact values of the files' decimals read as doubles, as --exact does)
by its own water-filling: raise a common level L, a VM's share b_j L
stopped at its cap, until the capacity is used (iterating over the caps
that bind, not sorting), and searches all N^M placements exhaustively.

  market.py exact CLUSTER BIDS         the ovb-market --exact lines
  market.py best CLUSTER BIDS [M]      min over placements of the max error
                                       (as a Fraction), and how many reach it;
                                       with M, over the placements reached
                                       from the input by at most M moves,
                                       mem fitting after every step
  market.py policy CLUSTER BIDS VM PERF VREF VLOW VHIGH BIDMAX AMIN
                                       Algorithm 2 (fixed) replayed: per
                                       period v, then alloc and bid per res
  market.py check CLUSTER BIDS MIGR M  the migration plan's claims: moves
                                       applied in order give 'error after';
                                       <= M moves (staging ones too); mem
                                       fits after every step; never worse
                                       than the input (recomputed when it
                                       has no new VM); bound <= after
"""
import itertools
import sys
from fractions import Fraction as F


def fr(s):
    return F(float(s))


def read_cluster(path):
    nodes = []
    for line in open(path):
        t = line.split('#', 1)[0].split()
        if t and t[0] == 'node':
            # node NAME CPU cpu NET B/s [net-rx RX B/s] [mem MEM B
            # [mem-pool P B]] [KEY=VALUE...]: mem in MiB, the field's
            # bytes / 2^20 or the label
            mem, rest = None, t[6:]
            while rest and '=' not in rest[0]:
                if rest[0] == 'mem':
                    mem = fr(rest[1]) / 1048576
                rest = rest[3:]
            labels = dict(x.split('=', 1) for x in rest)
            if 'mem' in labels:
                mem = fr(labels['mem'])
            nodes.append((t[1], fr(t[2]), mem))
    return nodes


def read_bids(path):
    vms, order, reserve = {}, [], {}
    for line in open(path):
        t = line.split('#', 1)[0].split()
        if not t:
            continue
        if t[0] == 'vm':
            vms[t[1]] = {'node': None if t[2] == '-' else t[2]}
            order.append(t[1])
        elif t[0] == 'bid':
            vms[t[1]][t[2]] = (fr(t[3]), fr(t[5]))
        elif t[0] == 'reserve':
            reserve[t[1]] = fr(t[2])
    return order, vms, reserve


def share(bids, caps, C):
    """Capped proportional share: x_j = min(cap_j, b_j L), sum x = C."""
    n = len(bids)
    if sum(caps) <= C:
        return list(caps)
    capped = set()
    while True:
        R = C - sum(caps[j] for j in capped)
        B = sum(bids[j] for j in range(n) if j not in capped)
        L = R / B
        new = {j for j in range(n) if j not in capped and bids[j] * L >= caps[j]}
        if not new:
            return [caps[j] if j in capped else bids[j] * L for j in range(n)]
        capped |= new


def resources(vms, order):
    return ['cpu'] + (['mem'] if 'mem' in vms[order[0]] else [])


def market(nodes, order, vms, place):
    """alloc_i[r][vm], alloc_r[r][vm], err[vm] for placement place[vm]."""
    res = resources(vms, order)
    ai, ar, err = {}, {}, {v: F(0) for v in order}
    for r in res:
        k = 1 if r == 'cpu' else 2
        C = sum(n[k] for n in nodes)
        x = share([vms[v][r][0] for v in order], [vms[v][r][1] for v in order], C)
        ai[r] = dict(zip(order, x))
        ar[r] = {}
        for n in nodes:
            on = [v for v in order if place[v] == n[0]]
            y = share([vms[v][r][0] for v in on], [vms[v][r][1] for v in on], n[k])
            ar[r].update(zip(on, y))
        for v in order:
            if place[v] is not None:
                err[v] = max(err[v], abs(ai[r][v] - ar[r][v]) / ai[r][v])
    return ai, ar, err


def q(x):
    return str(x.numerator) if x.denominator == 1 else str(x)


def exact(cpath, bpath):
    nodes = read_cluster(cpath)
    order, vms, reserve = read_bids(bpath)
    place = {v: vms[v]['node'] for v in order}
    ai, ar, err = market(nodes, order, vms, place)
    price = {}
    for r in resources(vms, order):
        k = 1 if r == 'cpu' else 2
        p = sum(vms[v][r][0] for v in order) / sum(n[k] for n in nodes)
        price[r] = max(p, reserve.get(r, F(0)))
        print('price %s %s credit/%s' % (r, q(price[r]), 'cpu' if r == 'cpu' else 'MiB'))
    for v in order:
        for r in resources(vms, order):
            node = place[v]
            if node is None:
                print('alloc %s - %s %s - -' % (v, r, q(ai[r][v])))
            else:
                e = abs(ai[r][v] - ar[r][v]) / ai[r][v]
                print('alloc %s %s %s %s %s %s' % (v, node, r, q(ai[r][v]), q(ar[r][v]), q(e)))
    for v in order:
        node = place[v]
        ch = sum(price[r] * (ar[r][v] if node else ai[r][v]) for r in price)
        print('vm %s %s %s %s credit' % (v, node or '-', q(err[v]) if node else '-', q(ch)))
    print('error max %s' % q(max(err.values())))


def mem_ok(nodes, order, vms, place):
    if 'mem' not in vms[order[0]]:
        return True
    for n in nodes:
        if sum(vms[v]['mem'][1] for v in order if place[v] == n[0]) > n[2]:
            return False
    return True


def reach(nodes, order, vms, mmax):
    """The least number of moves to every placement reachable from the
    input with mem fitting after every step (a deployment costs 0, a move
    1): Dijkstra on 0/1 weights, placements as tuples (None: new)."""
    import heapq
    names = [n[0] for n in nodes]
    cap = {n[0]: n[2] for n in nodes}
    mem = 'mem' in vms[order[0]]
    start = tuple(vms[v]['node'] for v in order)
    dist, heap, tick = {start: 0}, [(0, 0, start)], 0
    while heap:
        d, _, x = heapq.heappop(heap)
        if d > dist[x] or d > mmax:
            continue
        used = {n: 0 for n in names}
        for i, v in enumerate(order):
            if x[i] is not None and mem:
                used[x[i]] += vms[v]['mem'][1]
        for i, v in enumerate(order):
            for n in names:
                if n == x[i]:
                    continue
                if mem and used[n] + vms[v]['mem'][1] > cap[n]:
                    continue
                y = x[:i] + (n,) + x[i + 1:]
                e = d + (0 if x[i] is None else 1)
                if e <= mmax and e < dist.get(y, mmax + 1):
                    dist[y] = e
                    tick += 1
                    heapq.heappush(heap, (e, tick, y))
    return {x: d for x, d in dist.items() if None not in x}


def best(cpath, bpath, mmax=None):
    """min max error over the placements that fit in memory; with mmax,
    over those reached from the input by an executable order of at most
    mmax moves."""
    nodes = read_cluster(cpath)
    order, vms, _ = read_bids(bpath)
    if mmax is not None:
        top, count = None, 0
        for x in reach(nodes, order, vms, mmax):
            e = max(market(nodes, order, vms, dict(zip(order, x)))[2].values())
            if top is None or e < top:
                top, count = e, 1
            elif e == top:
                count += 1
        print('%s %r %d reachable' % (q(top), float(top), count))
        return
    top, count, total = None, 0, 0
    for combo in itertools.product([n[0] for n in nodes], repeat=len(order)):
        place = dict(zip(order, combo))
        if not mem_ok(nodes, order, vms, place):
            continue
        total += 1
        e = max(market(nodes, order, vms, place)[2].values())
        if top is None or e < top:
            top, count = e, 1
        elif e == top:
            count += 1
    print('%s %r %d %d' % (q(top), float(top), count, total))


def check(cpath, bpath, mpath, mmax):
    nodes = read_cluster(cpath)
    order, vms, _ = read_bids(bpath)
    place = {v: vms[v]['node'] for v in order}
    errs, moves = {}, 0
    steps = []
    for line in open(mpath):
        t = line.split('#', 1)[0].split()
        if t and t[0] == 'error':
            errs[t[1]] = float(t[2])
        elif t and t[0] in ('move', 'deploy'):
            steps.append(t)
    # mem at every step: running VMs hold theirs from the start, new ones
    # from their deployment
    for t in steps:
        if t[0] == 'move':
            assert place[t[1]] == t[2], 'move %s from %s: it is on %s' % (t[1], t[2], place[t[1]])
            place[t[1]] = t[3]
            moves += 1
        else:
            assert place[t[1]] is None, 'deploy of a placed vm %s' % t[1]
            place[t[1]] = t[2]
        assert mem_ok(nodes, order, vms, place), 'mem overcommitted after %s' % t
    assert all(place[v] is not None for v in order), 'a new vm was not deployed'
    assert mem_ok(nodes, order, vms, place), 'mem overcommitted at the end'
    assert moves <= mmax, '%d moves > M_max %d' % (moves, mmax)
    after = float(max(market(nodes, order, vms, place)[2].values()))
    assert abs(after - errs['after']) <= 1e-9 * max(1, after), \
        'error after %r, recomputed %r' % (errs['after'], after)
    assert errs['after'] <= errs['before'] + 1e-12, 'worse than the input'
    assert errs['bound'] <= errs['after'] + 1e-12, 'bound above the result'
    if all(vms[v]['node'] is not None for v in order):
        start = {v: vms[v]['node'] for v in order}
        before = float(max(market(nodes, order, vms, start)[2].values()))
        assert abs(before - errs['before']) <= 1e-9 * max(1, before), \
            'error before %r, recomputed %r' % (errs['before'], before)
    print('ok %d moves, after %r' % (moves, after))


def vertical(p, v, alloc, bid, last):
    """Algorithm 2 with the fixes of README.md, in floats, per resource."""
    import math
    f = max(2.0, 1 + math.floor(abs(p['vref'] - v) / min(v, p['vref'])))
    prev = list(bid)
    for r in range(len(bid)):
        if (v < p['vlow'] and alloc[r] > p['amin'][r]) or alloc[r] >= p['amax'][r]:
            new = max(bid[r] / f, p['bmin'])
            d = bid[r] - new
            if last[r] > 0 and d > 0 and abs((d - last[r]) / d) < 0.1:
                new = max(bid[r] - d / 2, p['bmin'])
        elif (v > p['vhigh'] and alloc[r] < p['amax'][r]) or alloc[r] < p['amin'][r]:
            new = bid[r] * f
            d = new - bid[r]
            if last[r] < 0 and d > 0 and abs((d + last[r]) / d) < 0.1:
                new = bid[r] + d / 2
        else:
            new = bid[r]
        bid[r] = new
    if sum(bid) > p['bmax']:
        budget, w = p['bmax'], [0.0] * len(bid)
        for r in range(len(bid)):
            if alloc[r] >= p['amax'][r]:
                budget -= bid[r]
            else:
                w[r] = 1 - alloc[r] / p['amax'][r]
        total = sum(bid)
        for r in range(len(bid)):
            if sum(w) > 0 and w[r] > 0:
                bid[r] = max(budget, 0) * w[r] / sum(w)
            elif sum(w) == 0:
                bid[r] *= p['bmax'] / total
    for r in range(len(bid)):
        last[r] = bid[r] - prev[r]


def policy(cpath, bpath, vm, perf, vref, vlow, vhigh, bmax, amin):
    """The policy lines of ovb-market --policy, floats to 1e-9."""
    nodes = read_cluster(cpath)
    order, vms, _ = read_bids(bpath)
    res = resources(vms, order)
    place = {v: vms[v]['node'] for v in order}
    p = {'vref': vref, 'vlow': vlow, 'vhigh': vhigh, 'bmin': 0.0, 'bmax': bmax,
         'amax': [float(vms[vm][r][1]) for r in res],
         'amin': [amin * float(vms[vm][r][1]) for r in res]}
    bid = [float(vms[vm][r][0]) for r in res]
    last = [0.0] * len(res)
    out = []
    for k, v in enumerate(perf):
        for i, r in enumerate(res):
            vms[vm][r] = (F(bid[i]), vms[vm][r][1])
        ai, ar, _ = market(nodes, order, vms, place)
        alloc = [float((ar if place[vm] else ai)[r][vm]) for r in res]
        vertical(p, v, alloc, bid, last)
        out.append([v] + [x for i in range(len(res)) for x in (alloc[i], bid[i])])
    return out


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'exact':
        exact(sys.argv[2], sys.argv[3])
    elif cmd == 'best':
        best(sys.argv[2], sys.argv[3],
             int(sys.argv[4]) if len(sys.argv) > 4 else None)
    elif cmd == 'policy':
        a = sys.argv
        rows = policy(a[2], a[3], a[4], [float(x) for x in a[5].split(',')],
                      float(a[6]), float(a[7]), float(a[8]), float(a[9]), float(a[10]))
        for row in rows:
            print(' '.join(repr(x) for x in row))
    elif cmd == 'check':
        check(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
