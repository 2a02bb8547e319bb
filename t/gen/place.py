#!/usr/bin/env python3
"""place.py SEED DIR: writes a small random placement instance to DIR:
cluster, apps, profile (ovb formats).  Nodes 2-5 with CPU 1-4 and network
capacities; 3-7 applications of 1-4 capsules, profiled or plain, with
tolerances, periods, some trust 0, some pinning, some lower bounds.
Profiles share the bin width 0.1 cpu and 100000 B/s.

place.py SEED DIR spread: the same instance, its nodes labelled
rack=r0..r2 (some unlabelled) and some applications spread=rack (drawn
from a second generator, so the rest is the same bytes).

place.py SEED DIR rx: nodes with receive capacities (net-rx), profiles
with net-rx blocks and plain capsules with net-rx= (from a third
generator)."""
import os
import random
import sys


def main():
    generate(int(sys.argv[1]), sys.argv[2], "spread" in sys.argv[3:],
             "rx" in sys.argv[3:])


def generate(seed, out, spread=False, rx=False):
    rnd = random.Random(seed)
    rnd2 = random.Random(seed * 7919 + 1)
    rnd3 = random.Random(seed * 104729 + 3)
    nodes = ["n%d" % i for i in range(rnd.randint(2, 5))]
    with open(os.path.join(out, "cluster"), "w") as f:
        f.write("ovb-cluster 1\n")
        for n in nodes:
            f.write("node %s %d cpu %d B/s" % (n, rnd.randint(1, 4),
                                               rnd.choice([1000000, 2000000])))
            if rx:
                f.write(" net-rx %d B/s" % rnd3.choice([500000, 1000000, 2000000]))
            if spread and rnd2.random() < 0.9:
                f.write(" rack=r%d" % rnd2.randrange(3))
            f.write("\n")
    profs = []
    with open(os.path.join(out, "profile"), "w") as f:
        f.write("ovb-profile 1\n")
        for p in range(rnd.randint(2, 4)):
            name = "p%d" % p
            profs.append(name)
            for res, w, unit, amount in (("cpu", 0.1, "cpu", "cpu-s"),
                                         ("net", 100000, "B/s", "B")):
                if res == "net" and rnd.random() < 0.3:
                    continue
                self_write(f, rnd, name, res, w, unit, amount)
            if rx and rnd3.random() < 0.7:
                self_write(f, rnd3, name, "net-rx", 100000, "B/s", "B")
    napps = rnd.randint(3, 7)
    with open(os.path.join(out, "apps"), "w") as f:
        f.write("ovb-apps 1\n")
        for a in range(napps):
            f.write("app a%d%s\n" % (a, " spread=rack" if spread and
                                     rnd2.random() < 0.5 else ""))
            for c in range(rnd.randint(1, 4)):
                opts = []
                if rnd.random() < 0.6:
                    opts.append("profile=%s" % rnd.choice(profs))
                else:
                    opts.append("cpu=%g" % rnd.choice([0.2, 0.5, 1, 1.5]))
                    opts.append("net=%d" % rnd.choice([0, 100000, 500000]))
                    if rx:
                        opts.append("net-rx=%d" % rnd3.choice([0, 100000, 500000]))
                if rnd.random() < 0.15:
                    opts.append("node=%s" % rnd.choice(nodes))
                if rnd.random() < 0.2:
                    opts.append("O=%g" % rnd.choice([0, 0.05, 0.2]))
                if rnd.random() < 0.1 and opts[0].startswith("profile"):
                    opts.append("lb-cpu=%g" % rnd.choice([0.2, 0.8]))
                f.write("capsule c%d %s\n" % (c, " ".join(opts)))
            for b in range(a):
                if rnd.random() < 0.2:
                    f.write("trust a%d 0\n" % b)


def self_write(f, rnd, name, res, w, unit, amount):
    """One profile block of resource res, drawn from rnd."""
    nb = rnd.randint(1, 10)
    counts = [rnd.randint(0, 5) for _ in range(nb)]
    counts[-1] += 1
    n = sum(counts)
    f.write("profile %s %s\n" % (name, res))
    f.write("sigma %g %s\nrho %g %s\ntau %g s\nO %g\n" % (
        rnd.choice([0.1, 0.3, 0.5]) * (w / 0.1),
        unit, rnd.choice([0, 0.05, 0.2]) * (w / 0.1), amount,
        rnd.choice([0.5, 1, 2]), rnd.choice([0, 0.01, 0.05, 0.1, 0.2])))
    f.write("interval 1 s\nwidth %g %s\nintervals %d\n" % (w, unit, n))
    for k, c in enumerate(counts):
        if c:
            f.write("bin %d %d\n" % (k, c))


if __name__ == "__main__":
    main()
