#!/usr/bin/python3
"""t/gen/trade.py: scenarios for ovb-trade (t/0340-trade.bats, bench/trade.sh).

    trade.py KIND DIR [options]

writes DIR/cluster, DIR/apps, DIR/series and DIR/scenario.json (the same
scenario for t/oracle/trade.py).  KIND:

  random SEED   2-4 nodes, 1-3 applications of 1-4 capsules, reservations
                fitting each node (admission), random LB, epsilon, trading,
                40 intervals of random usage with idle runs, late arrivals,
                early departures and missing samples
  table2        Table 2 of the Sharc paper (I = 60 s, 0..50 min): nodes
                N1-N4 of 1 cpu; Summarizer from 1 min, Scientific from 3
                min (its N2 capsule idle from 25 to 38 min), Disksim from
                36, Make from 37; every capsule busy (1 cpu) otherwise;
                --fixed APP,... makes those applications non-trading
  starve        one application, 2 capsules of R = 0.5 cpu on 2 nodes: x
                idle for one interval then busy, y always busy; --lb L
                gives x that lower bound; --n N intervals
  large N M     N capsules, M intervals of 300 s (the speed bench)
  split SEED    as random, but several applications name their capsules
                alike (c1, c2, ... as RSL does), the apps file is Sharc RSL
                for odd seeds, and the series are spread over 2-4 files
                DIR/s*.series (a capsule's series named APP/CAPSULE, or
                CAPSULE where no other application has that name; some
                series cut in time into two files); DIR/files lists them
"""
import json
import random
import sys


def write(d, nodes, apps, series, interval):
    """nodes: [(name, cap)]; apps: [(name, trade, [(cap, R, node, lb, eps)])];
    series: {capsule: {t: v}} (cpu)."""
    with open(d + "/cluster", "w") as f:
        f.write("ovb-cluster 1\n")
        for n, c in nodes:
            f.write("node %s %r cpu 1000000 B/s\n" % (n, c))
    with open(d + "/apps", "w") as f:
        f.write("ovb-apps 1\n")
        for a, trade, caps in apps:
            f.write("app %s trade=%s\n" % (a, "yes" if trade else "no"))
            for c, R, n, lb, eps in caps:
                f.write("capsule %s cpu=%r net=0 node=%s" % (c, R, n))
                if lb:
                    f.write(" lb-cpu=%r" % lb)
                if eps is not None:
                    f.write(" epsilon=%r" % eps)
                f.write("\n")
    with open(d + "/series", "w") as f:
        f.write("ovb-series 1\n")
        for c in sorted(series):
            f.write("series %s cpu\ninterval %d s\n" % (c, interval))
            for t in sorted(series[c]):
                f.write("sample %d %r\n" % (t, series[c][t]))
    with open(d + "/scenario.json", "w") as f:
        json.dump({"interval": interval, "nodes": nodes, "apps": apps,
                   "series": {c: sorted(s.items()) for c, s in
                              series.items()}}, f)


def gen_random(seed, d):
    rng = random.Random(seed)
    nn = rng.randint(2, 4)
    nodes = [("n%d" % i, rng.choice([1, 2, 4])) for i in range(nn)]
    free = {n: c for n, c in nodes}
    apps, series, k = [], {}, 0
    T, I = 40, 60
    for a in range(rng.randint(1, 3)):
        caps = []
        for j in range(rng.randint(1, 4)):
            n = rng.choice([x for x, _ in nodes])
            if free[n] < 0.05:
                continue
            R = round(rng.uniform(0.05, min(free[n], 1.5)), 3)
            free[n] -= R
            lb = round(R * rng.choice([0, 0, 0.2, 0.5]), 4)
            eps = rng.choice([None, 0.05, 0.1, 0.3])
            c = "c%d" % k
            k += 1
            caps.append((c, R, n, lb, eps))
            t0 = rng.choice([0, 0, 0, rng.randint(0, T // 2)])
            t1 = rng.choice([T, T, rng.randint(t0 + 1, T)])
            s, idle = {}, 0
            for t in range(t0, t1):
                if t not in (t0, t1 - 1) and rng.random() < 0.05:
                    continue                      # a missing report
                if idle == 0 and rng.random() < 0.1:
                    idle = rng.randint(1, 8)
                if idle:
                    idle -= 1
                    v = 0.0
                else:
                    v = round(rng.uniform(0, 2 * R), 4)
                s[t * I] = v
            series[c] = s
        if caps:
            apps.append(("a%d" % a, rng.random() < 0.8, caps))
    write(d, nodes, apps, series, I)


def write_rsl(d, apps):
    """apps as write's, every capsule with cpu R in (0, 1]."""
    with open(d + "/apps", "w") as f:
        for a, trade, caps in apps:
            f.write("Application %s New\nAggregateResv *\nTradeResources %s\n"
                    "Capsules %d\n" % (a, "yes" if trade else "no", len(caps)))
            for i, (c, R, n, lb, eps) in enumerate(caps):
                assert c == "c%d" % (i + 1)
                f.write("Capsule %d Resv %r Node %s LB %s Epsilon %s\n" %
                        (i + 1, R, n, repr(lb) if lb else "*",
                         "*" if eps is None else repr(eps)))
            f.write("\n")


def gen_split(seed, d):
    rng = random.Random(seed)
    rsl = seed % 2 == 1
    nn = rng.randint(2, 4)
    nodes = [("n%d" % i, rng.choice([1, 2, 4])) for i in range(nn)]
    free = {n: c for n, c in nodes}
    apps, series = [], {}
    T, I = 30, 60
    for a in range(rng.randint(2, 4)):
        caps = []
        for j in range(rng.randint(1, 3)):
            n = rng.choice([x for x, _ in nodes])
            if free[n] < 0.05:
                break
            R = round(rng.uniform(0.05, min(free[n], 1.0)), 3)
            free[n] -= R
            lb = round(R * rng.choice([0, 0, 0.2, 0.5]), 4)
            eps = rng.choice([None, 0.05, 0.1, 0.3])
            c = "c%d" % (len(caps) + 1)
            caps.append((c, R, n, lb, eps))
            t0 = rng.choice([0, 0, rng.randint(0, T // 2)])
            t1 = rng.choice([T, T, rng.randint(t0 + 1, T)])
            s = {}
            for t in range(t0, t1):
                if t not in (t0, t1 - 1) and rng.random() < 0.05:
                    continue
                s[t * I] = 0.0 if rng.random() < 0.15 else \
                    round(rng.uniform(0, 2 * R), 4)
            series["a%d/%s" % (a, c)] = s
        if caps:
            apps.append(("a%d" % a, rng.random() < 0.8, caps))
    write(d, nodes, apps, {}, I)
    if rsl:
        write_rsl(d, apps)
    # the series files: each block in one of nf files, some cut in two
    owners = {}
    for a, _, caps in apps:
        for c, *_ in caps:
            owners[c] = owners.get(c, 0) + 1
    nf = rng.randint(2, 4)
    files = [[] for _ in range(nf)]
    for key in sorted(series):
        a, c = key.split("/")
        name = key if owners[c] > 1 or rng.random() < 0.5 else c
        ts = sorted(series[key])
        if len(ts) > 1 and rng.random() < 0.4:
            k = rng.randint(1, len(ts) - 1)
            parts = [ts[:k], ts[k:]]
        else:
            parts = [ts]
        for p in parts:
            files[rng.randrange(nf)].append((name, [(t, series[key][t])
                                                    for t in p]))
    names = []
    for i, blocks in enumerate(files):
        if not blocks:
            continue
        path = "%s/s%d.series" % (d, i + 1)
        names.append(path)
        with open(path, "w") as f:
            f.write("ovb-series 1\n")
            seen = set()
            for name, samples in blocks:
                if name in seen:    # both parts in one file: one block
                    continue
                seen.add(name)
                got = sorted(x for nm, sm in blocks if nm == name
                             for x in sm)
                f.write("series %s cpu\ninterval %d s\n" % (name, I))
                for t, v in got:
                    f.write("sample %d %r\n" % (t, v))
    with open(d + "/files", "w") as f:
        f.write(" ".join(names) + "\n")
    with open(d + "/scenario.json", "w") as f:
        json.dump({"interval": I, "nodes": nodes, "apps": apps,
                   "series": {k: sorted(v.items()) for k, v in
                              series.items()}}, f)


def gen_table2(d, fixed):
    nodes = [("N%d" % i, 1) for i in range(1, 5)]
    table = [("Summarizer", 1, {"N1": .2, "N2": .3, "N3": .2}),
             ("Scientific", 3, {"N2": .2, "N3": .3, "N4": .2}),
             ("Disksim", 36, {"N1": .5, "N3": .5}),
             ("Make", 37, {"N2": .5, "N4": .5})]
    apps, series = [], {}
    for a, t0, res in table:
        caps = []
        for n, R in sorted(res.items()):
            c = "%s-%s" % (a, n)
            caps.append((c, R, n, 0, 0.1))
            series[c] = {60 * t: (0.0 if a == "Scientific" and n == "N2"
                                  and 25 <= t < 38 else 1.0)
                         for t in range(t0, 50)}
        apps.append((a, a not in fixed, caps))
    write(d, nodes, apps, series, 60)


def gen_starve(d, lb, n):
    nodes = [("n1", 1), ("n2", 1)]
    apps = [("app", True, [("x", 0.5, "n1", lb, 0.1),
                           ("y", 0.5, "n2", 0, 0.1)])]
    series = {"x": {60 * t: (0.0 if t == 0 else 1.0) for t in range(n)},
              "y": {60 * t: 1.0 for t in range(n)}}
    write(d, nodes, apps, series, 60)


def gen_large(d, ncap, m):
    rng = random.Random(1)
    nnodes = (ncap + 3) // 4
    nodes = [("n%d" % i, 4) for i in range(nnodes)]
    apps, series = [], {}
    for a in range((ncap + 9) // 10):
        caps = []
        for j in range(10):
            k = a * 10 + j
            if k >= ncap:
                break
            c = "c%d" % k
            caps.append((c, 0.9, "n%d" % (k % nnodes), 0, None))
            base = rng.uniform(0.2, 1.2)
            series[c] = {300 * t: round(max(0.0, base + rng.gauss(0, 0.3)),
                                        3) for t in range(m)}
        apps.append(("a%d" % a, True, caps))
    write(d, nodes, apps, series, 300)


def main(argv):
    kind, rest = argv[1], argv[2:]
    if kind == "random":
        gen_random(int(rest[0]), rest[1])
    elif kind == "split":
        gen_split(int(rest[0]), rest[1])
    elif kind == "table2":
        fixed = rest[2].split(",") if len(rest) > 2 and rest[1] == "--fixed" \
            else []
        gen_table2(rest[0], fixed)
    elif kind == "starve":
        lb = float(rest[rest.index("--lb") + 1]) if "--lb" in rest else 0
        n = int(rest[rest.index("--n") + 1]) if "--n" in rest else 60
        gen_starve(rest[0], lb, n)
    elif kind == "large":
        gen_large(rest[2], int(rest[0]), int(rest[1]))
    else:
        sys.exit("trade.py: unknown kind " + kind)


if __name__ == "__main__":
    main(sys.argv)
