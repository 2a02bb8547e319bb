#!/usr/bin/env python3
"""reserves_hier.py: the hierarchy (ovb-reserves --fanout) against the flat
optimum computed independently (needs python3-scipy).

    reserves_hier.py [--count K] [--seed0 S] [--max-nodes N]
                     [--max-classes C]

For each instance (t/oracle/reserves_gen.py: random or blocky usage, r = D
or given, a random floor) and each grouping (contiguous, random, similar)
with a random --fanout, runs `ovb-reserves --steps 2 --fanout K` and
checks against V', scipy's linprog (HiGHS) optimum of the flat step-1 LP:
  - the printed lower bound is at most V' (+1e-7 (1 + V'));
  - the deviation after step 2, recomputed here from R, is V' within the
    tool's stated tolerance (1e-7 sum_j (1 + N D_j), GLPK's on the class
    rows) plus the 1e-9 grid R is written on (N S 5e-10): never below
    V' (that would be a bug), and not above it (the column generation
    closes the gap).
Prints "agree K instances ..." with the largest relative excess over V',
or the first disagreement and exits 1."""

import argparse
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reserves_lp import lp_v, model, parse  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed0", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=150)
    ap.add_argument("--max-classes", type=int, default=15)
    ap.add_argument("--tmp", default=os.environ.get("BATS_TEST_TMPDIR",
                                                    "/tmp"))
    a = ap.parse_args()
    worst = 0.0
    runs = 0
    for seed in range(a.seed0, a.seed0 + a.count):
        rng = random.Random(seed * 104729)
        n = rng.randint(4, a.max_nodes)
        s = rng.randint(2, a.max_classes)
        floor = rng.choice([1, 1, 0, 0.5])
        usage = rng.choice(("random", "blocky"))
        opts = ["--seed", str(seed), "--nodes", str(n), "--classes", str(s),
                "--usage", usage]
        if rng.random() < 0.5:
            opts.append("--no-r")
        text = subprocess.run([sys.executable, os.path.join(
            HERE, "reserves_gen.py"), *opts], check=True,
            capture_output=True, text=True).stdout
        path = os.path.join(a.tmp, "hier%d.reserves" % seed)
        with open(path, "w") as f:
            f.write(text)
        cls, D, nodes, U, Rm = parse(text)
        lb, ub, _, _, T = model(D, U, Rm, floor)
        V = lp_v(lb, ub, T)
        tol = 1e-7 * sum(1 + x for x in T) + n * s * 5e-10 + 1e-9 * (1 + V)
        fanout = rng.randint(2, max(2, n // 2))
        for g in ("contiguous", "random", "similar"):
            cmd = ["ovb-reserves", "-q", "--steps", "2", "--floor",
                   repr(float(floor)), "--fanout", str(fanout),
                   "--grouping", g, "--seed", str(seed), path]
            out = subprocess.run(cmd, check=True, capture_output=True,
                                 text=True).stdout
            runs += 1
            C = dict.fromkeys(cls, 0.0)
            bound = None
            rnd = 0
            for line in out.splitlines():
                f = line.split()
                if f and f[0] == "round":
                    rnd = int(f[1])
                elif f and f[0] == "R" and rnd == 1:
                    C[f[2]] += float(f[3])
                elif line.startswith("# round 1: lower bound "):
                    bound = float(f[5])
            dev = sum(abs(C[c] - len(nodes) * d) for c, d in zip(cls, D))
            where = "seed %d (%s), %s" % (seed, path, " ".join(cmd[1:-1]))
            if bound is None:
                print("%s: no lower bound in the notes" % where)
                return 1
            if bound > V + 1e-7 * (1 + V):
                print("%s: lower bound %r above the flat V %r" %
                      (where, bound, V))
                return 1
            if dev < V - tol:
                print("%s: deviation %r below the flat V %r" %
                      (where, dev, V))
                return 1
            if dev > V + tol:
                print("%s: deviation %r above the flat V %r (by %.3g%%)" %
                      (where, dev, V, 100 * (dev - V) / max(V, 1e-12)))
                return 1
            if V > 1e-6:
                worst = max(worst, (dev - V) / V)
    print("agree %d instances, %d hierarchical runs: the deviation is the "
          "flat V (HiGHS), at most %.3g%% above it; the lower bound never "
          "above it" % (a.count, runs, 100 * worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
