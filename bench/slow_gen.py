#!/usr/bin/env python3
"""slow_gen.py trust DIR | check DIR [NODES [SEED [PROFILES]]]: the two shapes issue 25
found slow, made by a generator of their own (not t/gen/place_large.py).

trust: 33,000 one-capsule applications on 4 nodes (8 CPUs, 10 Gbit/s),
each capsule a plain reservation of 0.0009-0.002 cpu and 5-20 kB/s, and
each application with `trust` 0.5 to the one before it (never 0: trust
only weighs, it does not forbid).  Files cluster, apps.

check: NODES (default 10,000) heterogeneous nodes (1-8 CPUs, 1-10
Gbit/s), PROFILES (default 10,000) profiles of three shapes (web: most mass low, a long tail;
db: a hump in the middle; stream: steady near the top), 100 bins each for
cpu and net, and applications of 2-10 capsules until their Eq. 1 terms
reach 90% of the cluster's CPU (about 100 capsules a node: 1,000,000 on
10,000 nodes); about 1% of the applications have trust 0 to another,
0.5% of the capsules an lb-cpu, 0.2% are pinned to a node.  Files
cluster, apps, profile.  The same SEED gives the same files."""
import os
import random
import sys


def trust(d):
    r = random.Random(25)
    with open(os.path.join(d, "cluster"), "w") as f:
        f.write("ovb-cluster 1\n")
        for i in range(4):
            f.write("node n%d 8 cpu 1250000000 B/s\n" % i)
    with open(os.path.join(d, "apps"), "w") as f:
        f.write("ovb-apps 1\n")
        for i in range(33000):
            f.write("app a%05d\ncapsule c cpu=%.6f net=%d\n" % (
                i, r.uniform(0.0009, 0.002), r.randint(5000, 20000)))
            if i:
                f.write("trust a%05d 0.5\n" % (i - 1))


def shape(r, kind):
    """100 bin counts of a web, db or stream shape."""
    if kind == "web":
        c = [int(2000 * (0.93 ** k) * r.uniform(0.5, 1.5)) for k in range(100)]
    elif kind == "db":
        m = r.randint(30, 60)
        c = [int(1500 * 2.0 ** (-((k - m) / 8.0) ** 2) * r.uniform(0.7, 1.3))
             for k in range(100)]
    else:
        m = r.randint(75, 90)
        c = [int(3000 * 2.0 ** (-((k - m) / 3.0) ** 2)) for k in range(100)]
    c[0] += 1
    c[99] = max(c[99], 1)
    return c


def check(d, nnodes, seed, nprof):
    r = random.Random(seed)
    totcpu = 0
    nodes = []
    with open(os.path.join(d, "cluster"), "w") as f:
        f.write("ovb-cluster 1\n")
        for i in range(nnodes):
            cpus = r.randint(1, 8)
            net = r.randint(1, 10) * 125000000
            nodes.append("n%05d" % i)
            totcpu += cpus
            f.write("node n%05d %d cpu %d B/s\n" % (i, cpus, net))
    term = {}
    with open(os.path.join(d, "profile"), "w") as f:
        f.write("ovb-profile 1\n")
        for p in range(nprof):
            kind = ("web", "db", "stream")[p % 3]
            O = r.choice([0.01, 0.02, 0.05, 0.1])
            for res, w, unit, amount in (("cpu", 0.0005, "cpu", "cpu-s"),
                                         ("net", 2000, "B/s", "B")):
                c = shape(r, kind)
                n = sum(c)
                cum, p99 = 0, 99
                for k, x in enumerate(c):
                    cum += x
                    if cum >= 0.99 * n:
                        p99 = k
                        break
                sigma, rho = (p99 + 1) * w, 2 * w
                f.write("profile %s%05d %s\nsigma %.10g %s\nrho %.10g %s\n"
                        "tau 1 s\nO %g\n" % (kind, p, res, sigma, unit, rho,
                                            amount, O))
                f.write("interval 1 s\nwidth %g %s\nintervals %d\n" % (
                    w, unit, n))
                for k, x in enumerate(c):
                    if x:
                        f.write("bin %d %d\n" % (k, x))
                if res == "cpu":
                    term["%s%05d" % (kind, p)] = (sigma + rho) * (1 - O)
    names = sorted(term)
    load, a = 0.0, 0
    apps = []
    while load < 0.9 * totcpu:
        m = r.randint(2, 10)
        caps = []
        for k in range(m):
            p = r.choice(names)
            load += term[p]
            extra = ""
            u = r.random()
            if u < 0.005:
                extra = " lb-cpu=%.4g" % (0.5 * term[p])
            elif u < 0.007:
                extra = " node=%s" % r.choice(nodes)
            caps.append("capsule c%d profile=%s%s\n" % (k, p, extra))
        apps.append(["app a%06d\n" % a] + caps)
        a += 1
    for i in range(len(apps)):
        if i and r.random() < 0.01:
            apps[i].append("trust a%06d 0\n" % r.randrange(i))
    with open(os.path.join(d, "apps"), "w") as f:
        f.write("ovb-apps 1\n")
        for x in apps:
            f.write("".join(x))


if __name__ == "__main__":
    what, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    if what == "trust":
        trust(d)
    else:
        check(d, int(sys.argv[3]) if len(sys.argv) > 3 else 10000,
              int(sys.argv[4]) if len(sys.argv) > 4 else 1,
              int(sys.argv[5]) if len(sys.argv) > 5 else 10000)
