#!/usr/bin/env python3
"""Random inputs for the ovb-replay and series tests (seeded).

usage: replay.py replay SEED DIR   writes DIR/plan, DIR/cluster,
                                       DIR/a.series, DIR/b.series (a second
                                       file), DIR/guard.series
       replay.py series SEED       an ovb-series file on stdout

Values are drawn so that sums often land exactly on a capacity (dyadic
values), near it (0.1 + 0.2 against 0.3), or anywhere (random doubles);
samples go missing at random; capsules are found by profile name or by
capsule name.
"""
import random
import sys

I = 300
T0 = 1372629600


def value(rng, res, scale):
    r = rng.random()
    if r < 0.15:
        return 0.0
    if r < 0.45:
        return rng.choice([0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0]) * scale
    if r < 0.7:
        return rng.choice([0.1, 0.2, 0.3, 0.7]) * scale
    return rng.uniform(0, 1.6) * scale


def fmt(v):
    if v == int(v) and abs(v) < 2 ** 53:
        return '%d' % v
    for p in range(1, 18):
        s = '%.*g' % (p, v)
        if float(s) == v:
            return s
    return repr(v)


def series_block(out, rng, name, res, n, miss, scale, base=None):
    """A block; slot 0 is never missing (so aligned series meet)."""
    out.append('series %s %s' % (name, res))
    out.append('interval %d s' % I)
    for k in range(n):
        if k and rng.random() < miss:
            continue
        v = value(rng, res, scale) if base is None else base[k]
        out.append('sample %d %s' % (T0 + k * I, fmt(v)))


def gen_replay(seed, d):
    rng = random.Random(seed)
    nodes = ['n%d' % i for i in range(1, rng.randint(2, 4) + 1)]
    cpu = {n: rng.choice([1, 2, 0.3, 2.5, 3]) for n in nodes}
    net = {n: rng.choice([1000, 1500, 2500]) for n in nodes}
    with open(d + '/cluster', 'w') as f:
        f.write('ovb-cluster 1\n')
        for n in nodes:
            f.write('node %s %s cpu %s B/s\n' % (n, fmt(cpu[n]), net[n]))
    caps = []
    for i in range(rng.randint(3, 8)):
        app = 'app%d' % (i % 3)
        cname = 'c%d' % i
        prof = rng.choice(['p%d' % i, '-', 'c%d' % i])
        caps.append((app, cname, rng.choice(nodes), prof))
    used = sorted({c[2] for c in caps}, key=nodes.index)
    with open(d + '/plan', 'w') as f:
        f.write('ovb-plan 1\n')
        for app, cname, node, prof in caps:
            f.write('place %s %s %s %s\n' % (app, cname, node, prof))
        for n in used:
            for res in ('cpu', 'net'):
                omin = rng.choice([0, 0.01, 0.1, 0.25, 0.5])
                f.write('risk %s %s %s %s 1 %s\n' % (
                    n, res, fmt(rng.choice([0, 0.001, 0.2])), fmt(omin),
                    fmt(cpu[n] if res == 'cpu' else net[n])))
    nslots = rng.randint(5, 60)
    files = {'a': [], 'b': [], 'guard': []}
    for i, (app, cname, node, prof) in enumerate(caps):
        sname = prof if prof != '-' else cname
        where = 'ab'[i] if i < 2 else rng.choice(['a', 'b'])
        for res, scale in (('cpu', cpu[node] / 2), ('net', net[node] / 2)):
            series_block(files[where], rng, sname, res, nslots,
                         rng.choice([0, 0.1, 0.3]), scale)
            series_block(files['guard'], rng, sname, res, nslots,
                         rng.choice([0, 0.1]), scale)
    for k, lines in files.items():
        with open('%s/%s.series' % (d, k), 'w') as f:
            f.write('ovb-series 1\n')
            f.write('\n'.join(lines) + '\n')


def gen_series(seed):
    rng = random.Random(seed)
    out = ['ovb-series 1']
    for i in range(rng.randint(1, 3)):
        n = rng.randint(1, 50)
        for res, scale in (('cpu', rng.choice([1, 4, 0.01])),
                           ('net', rng.choice([1e3, 1e6, 3.7])),
                           ('net-rx', 1e5)):
            series_block(out, rng, 'c%d' % i, res, n,
                         rng.choice([0, 0.05, 0.3]), scale)
    print('\n'.join(out))


if __name__ == '__main__':
    if sys.argv[1] == 'replay':
        gen_replay(int(sys.argv[2]), sys.argv[3])
    else:
        gen_series(int(sys.argv[2]))
