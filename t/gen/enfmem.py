#!/usr/bin/env python3
"""enfmem.py SEED DIR: a random cluster with memory and a plan on it with
cpu and mem qos records, for ovb-enforce's memory (t/0500-enforce.bats).

Writes DIR/cluster, DIR/plan and DIR/fits: one line per granule, "page
yes|no" and "mi yes|no", whether every node's requests, each rounded up
to a page of 4096 B (cgroup, cgroup1, systemd) or to a MiB (kubernetes),
add up to at most its memory (computed here in integers, not by the tool).
Requests are whole, fractional or page multiples, some 0; a node is
sometimes filled exactly (its requests add up to MEM in doubles), so the
rounding may push it over; a limit is sometimes beyond the page counter
(no limit); capsules have cpu, mem or both; the cpu load is small, so
that only memory decides."""
import math
import os
import random
import sys
from fractions import Fraction


def gen(seed, d):
    rng = random.Random(seed)
    cl = ["ovb-cluster 1"]
    pl = ["ovb-plan 1"]
    fits = {4096: True, 2**20: True}
    for i in range(rng.randint(1, 4)):
        nd = "n%d" % (i + 1)
        M = rng.choice((2**30, 4 * 2**30, 3 * 10**9, 7.5e9 + 0.5,
                        2**34 + 1000))
        cpu = rng.choice((2, 4, 8))
        cl.append("node %s %d cpu 125000000 B/s mem %.17g B mem-pool %d B"
                  % (nd, cpu, M, rng.choice((0, 2**30))))
        k = rng.randint(1, 5)
        # exact: may be pushed over by the pages; tight: fits in pages,
        # maybe not in MiB
        frac = rng.choice((0.3, 0.8, 0.8, 0.9, "exact", "tight"))
        frac = {"exact": 1.0, "tight": (M - k * 4096) / M}.get(frac, frac)
        w = [rng.random() + 0.05 for _ in range(k)]
        reqs = [M * frac * x / sum(w) for x in w]
        tot = {4096: 0, 2**20: 0}
        for j, r in enumerate(reqs):
            app, cap = "a%d" % rng.randint(1, 3), "%s-c%d" % (nd, j)
            has_cpu = rng.random() < 0.6
            has_mem = not has_cpu or rng.random() < 0.8
            pl.append("place %s %s %s -" % (app, cap, nd))
            if has_cpu:
                pl.append("qos %s %s cpu %.17g %.17g %.17g %.17g" % (
                    app, cap, 0.05 * cpu / k, rng.choice((0, 0.01)),
                    rng.choice((1, 2)), rng.choice((0, 0.01))))
            if not has_mem:
                continue
            kind = rng.random()
            if kind < 0.1:
                r = 0.0
            elif kind < 0.3:
                r = float(math.floor(r / 4096) * 4096)
            elif kind < 0.5:
                r = float(math.floor(r))
            lim = r * rng.choice((1, 1.15, 2)) + rng.choice((0, 1, 4095))
            if rng.random() < 0.05:
                lim = 1e19
            pl.append("qos %s %s mem %.17g %.17g %d %.17g" % (
                app, cap, r, lim, rng.choice((300, 3600)),
                rng.choice((0, 0.05))))
            for g in tot:
                tot[g] += math.ceil(Fraction(r) / g) * g
        for g in tot:
            if tot[g] > M:
                fits[g] = False
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "cluster"), "w") as f:
        f.write("\n".join(cl) + "\n")
    with open(os.path.join(d, "plan"), "w") as f:
        f.write("\n".join(pl) + "\n")
    with open(os.path.join(d, "fits"), "w") as f:
        f.write("page %s\nmi %s\n" % ("yes" if fits[4096] else "no",
                                     "yes" if fits[2**20] else "no"))


if __name__ == "__main__":
    gen(int(sys.argv[1]), sys.argv[2])
