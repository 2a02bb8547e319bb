#!/usr/bin/env python3
"""place_large.py DIR NODES CAPSULES [SEED [mem]]: a large placement instance
for bench/place.sh: NODES heterogeneous nodes (4-64 CPUs, 1-10 Gbit/s), 50
profiles with 100-bin CPU and network distributions (widths 0.002 cpu and
20 kB/s; skewed: most mass low, a long tail up to 0.2 cpu and 2 MB/s),
applications of 2-10 capsules adding up to CAPSULES, tolerances 0.01-0.1,
a few trust-0 pairs.  With "mem", a third resource: nodes of 4 GiB a cpu
with a pool of 1 GiB a cpu, and per profile a mem block (hourly window
peaks in 100 bins of 8 MiB, the same skew: up to 800 MiB; the request the
upper edge of the p99 bin, the limit the top bin's x 1.15)."""
import os
import random
import sys


def histogram(r):
    """100 bins drawn from r (skewed to the low ones, the first and last
    never empty): the counts, their sum and the bin of the 99th
    percentile."""
    counts = [int(1000 * r.random() ** 3 * (0.97 ** k)) for k in range(100)]
    counts[0] += 1
    counts[99] = max(counts[99], 1)
    n = sum(counts)
    cum = 0
    for k, c in enumerate(counts):
        cum += c
        if cum >= 0.99 * n:
            return counts, n, k
    return counts, n, 99


def write_bins(f, counts):
    for k, c in enumerate(counts):
        if c:
            f.write("bin %d %d\n" % (k, c))


def main():
    out, nnodes, ncaps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rnd = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    mem = len(sys.argv) > 5 and sys.argv[5] == "mem"
    rmem = random.Random(7)   # its own stream: the rest is as without mem
    with open(os.path.join(out, "cluster"), "w") as f:
        f.write("ovb-cluster 1\n")
        for i in range(nnodes):
            cpus = rnd.choice([4, 8, 16, 32, 64])
            f.write("node n%04d %d cpu %d B/s" % (
                i, cpus, rnd.choice([125000000, 1250000000])))
            if mem:
                f.write(" mem %d B mem-pool %d B" % (cpus << 32, cpus << 30))
            f.write("\n")
    with open(os.path.join(out, "profile"), "w") as f:
        f.write("ovb-profile 1\n")
        for p in range(50):
            for res, w, unit, amount in (("cpu", 0.002, "cpu", "cpu-s"),
                                         ("net", 20000, "B/s", "B")):
                counts, n, p99 = histogram(rnd)
                f.write("profile p%02d %s\nsigma %g %s\nrho %g %s\ntau 1 s\nO 0.01\n"
                        % (p, res, p99 * w, unit, 2 * w, amount))
                f.write("interval 1 s\nwidth %g %s\nintervals %d\n" % (w, unit, n))
                write_bins(f, counts)
            if mem:
                w = 8 << 20
                counts, n, p99 = histogram(rmem)
                f.write("profile p%02d mem\nrequest %d B\nlimit %d B\nO 0.01\n"
                        % (p, (p99 + 1) * w, int(100 * w * 1.15)))
                f.write("interval 3600 s\nwidth %d B\nintervals %d\n" % (w, n))
                write_bins(f, counts)
    with open(os.path.join(out, "apps"), "w") as f:
        f.write("ovb-apps 1\n")
        made, a = 0, 0
        while made < ncaps:
            m = min(rnd.randint(2, 10), ncaps - made)
            if m < 2 and made:
                m = 2
            f.write("app a%06d O=%g\n" % (a, rnd.choice([0.01, 0.02, 0.05, 0.1])))
            for c in range(m):
                f.write("capsule c%d profile=p%02d\n" % (c, rnd.randrange(50)))
            if a > 10 and rnd.random() < 0.01:
                f.write("trust a%06d 0\n" % rnd.randrange(a))
            made += m
            a += 1


if __name__ == "__main__":
    main()
