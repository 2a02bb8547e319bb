#!/usr/bin/env python3
"""fit.py SEED DIR more|nodes: writes a small random ovb-fit instance to DIR.

more: cluster (2-4 nodes of 1-3 CPUs), profile (2-3 profiled capsules,
bins of 0.1 cpu and 100000 B/s), base.apps (1-3 applications already
there, to be placed by ovb-place into the plan), and apps: base.apps and
the candidate application "cand" (1-2 capsules, profiled or plain, at
times pinned, at times with trust 0 toward one of the others).

nodes: profile as above and apps (2-4 applications of 1-2 capsules, some
trust 0), and the shape "node s CPU cpu NET B/s" in DIR/shape (2 or 3 CPUs).

No lower bounds: a plan does not state them (formats/plan.md), so an
application already placed would be modelled without them."""
import os
import random
import sys


def profiles(rnd, out, names):
    with open(os.path.join(out, "profile"), "w") as f:
        f.write("ovb-profile 1\n")
        for name in names:
            for res, w, unit, amount in (("cpu", 0.1, "cpu", "cpu-s"),
                                         ("net", 100000, "B/s", "B")):
                if res == "net" and rnd.random() < 0.4:
                    continue
                nb = rnd.randint(2, 8)
                counts = [rnd.randint(0, 4) for _ in range(nb)]
                counts[-1] += 1
                n = sum(counts)
                f.write("profile %s %s\n" % (name, res))
                f.write("sigma %g %s\nrho %g %s\ntau %g s\nO %g\n" % (
                    rnd.choice([0.2, 0.3, 0.5]) * (w / 0.1), unit,
                    rnd.choice([0, 0.05, 0.2]) * (w / 0.1), amount,
                    rnd.choice([0.5, 1, 2]), rnd.choice([0, 0.01, 0.05, 0.2])))
                f.write("interval 1 s\nwidth %g %s\nintervals %d\n" % (w, unit, n))
                for k, c in enumerate(counts):
                    if c:
                        f.write("bin %d %d\n" % (k, c))


def capsule(rnd, profs, nodes, c, pin):
    opts = []
    if rnd.random() < 0.65:
        opts.append("profile=%s" % rnd.choice(profs))
    else:
        opts.append("cpu=%g" % rnd.choice([0.3, 0.5, 1]))
        opts.append("net=%d" % rnd.choice([0, 100000, 400000]))
    if pin and rnd.random() < 0.1:
        opts.append("node=%s" % rnd.choice(nodes))
    if rnd.random() < 0.2:
        opts.append("O=%g" % rnd.choice([0, 0.05, 0.2]))
    return "capsule c%d %s\n" % (c, " ".join(opts))


def generate(seed, out, what):
    rnd = random.Random(seed)
    profs = ["p%d" % i for i in range(rnd.randint(2, 3))]
    profiles(rnd, out, profs)
    if what == "nodes":
        with open(os.path.join(out, "shape"), "w") as f:
            f.write("node s %d cpu %d B/s\n" % (rnd.randint(2, 3),
                                                rnd.choice([1000000, 2000000])))
        with open(os.path.join(out, "apps"), "w") as f:
            f.write("ovb-apps 1\n")
            for a in range(rnd.randint(2, 4)):
                f.write("app a%d%s\n" % (a, " O=%g" % rnd.choice([0, 0.05, 0.2])
                                         if rnd.random() < 0.3 else ""))
                for c in range(rnd.randint(1, 2)):
                    f.write(capsule(rnd, profs, [], c, False))
                for b in range(a):
                    if rnd.random() < 0.15:
                        f.write("trust a%d 0\n" % b)
        return
    nodes = ["n%d" % i for i in range(rnd.randint(2, 4))]
    with open(os.path.join(out, "cluster"), "w") as f:
        f.write("ovb-cluster 1\n")
        for n in nodes:
            f.write("node %s %d cpu %d B/s\n" % (n, rnd.randint(1, 3),
                                                 rnd.choice([1000000, 2000000])))
    base = []
    for a in range(rnd.randint(1, 3)):
        s = "app a%d\n" % a
        for c in range(rnd.randint(1, 2)):
            s += capsule(rnd, profs, nodes, c, True)
        base.append(s)
    cand = "app cand%s\n" % (" O=%g" % rnd.choice([0, 0.05, 0.2])
                              if rnd.random() < 0.3 else "")
    for c in range(rnd.randint(1, 2)):
        cand += capsule(rnd, profs, nodes, c, True)
    if rnd.random() < 0.15:
        cand += "trust a0 0\n"
    with open(os.path.join(out, "base.apps"), "w") as f:
        f.write("ovb-apps 1\n" + "".join(base))
    with open(os.path.join(out, "apps"), "w") as f:
        f.write("ovb-apps 1\n" + "".join(base) + cand)


if __name__ == "__main__":
    generate(int(sys.argv[1]), sys.argv[2], sys.argv[3])
