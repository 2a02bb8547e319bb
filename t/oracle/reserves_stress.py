#!/usr/bin/env python3
"""reserves_stress.py: many random ovb-reserves runs; none may fail
(python3 stdlib only).

    reserves_stress.py [--count K] [--seed0 S] [--max-nodes N]
                       [--max-classes C] [--tmp DIR]

Instance i (seed S + i) is drawn by t/oracle/reserves_gen.py: usage
random, blocky or zero, 1..N nodes, 1..C classes, 1..6 rounds (the manager
loop: each round's R is the next r), with or without r, shares adding up
to 100 or less, now and then a class at 0 or idle; run with a random
--floor (up to 100/C), --steps 1..3, --cold, flat or --fanout with every
grouping and 1..10 --iterate passes, and one in six with the bank.  Every
run must exit 0, and its output must hold what the tool promises, checked
here from the file alone: 0 <= R <= 100, each node's R add up to at most
100 (+1e-6), R >= floor (lp), r of round k+1 = R of round k; for the
hierarchy (steps 1-2) the printed lower bound is at most the flat V of
the same instance (+1e-7 (1 + V)) and the deviation after step 2,
recomputed here from R, is at least the flat V.
Prints "ok K runs: ..." or the first failure (with its command) and exits
1."""

import argparse
import contextlib
import io
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reserves_gen  # noqa: E402


def gen_text(args):
    """reserves_gen.py's output for args, in this process."""
    out, argv = io.StringIO(), sys.argv
    sys.argv = ["reserves_gen.py", *args]
    try:
        with contextlib.redirect_stdout(out):
            reserves_gen.main()
    finally:
        sys.argv = argv
    return out.getvalue()


def parse(text):
    D, nodes, rounds = {}, [], []
    for line in text.splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "class":
            D[f[1]] = float(f[2])
        elif f[0] == "node":
            nodes.append(f[1])
        elif f[0] == "round":
            rounds.append({"u": {}, "r": {}, "R": {}})
        elif f[0] in ("u", "r", "R"):
            rounds[-1][f[0]][(f[1], f[2])] = float(f[3])
    return D, nodes, rounds


def note(text, what):
    m = re.search(r"^# round 1: " + what + r" ([-0-9.e+]+)", text, re.M)
    return float(m.group(1)) if m else None


def fail(msg, cmd):
    print("FAIL: %s\n  command: %s" % (msg, " ".join(cmd)))
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail("exit %d: %s" % (p.returncode, p.stderr.strip()[:400]), cmd)
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed0", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=40)
    ap.add_argument("--max-classes", type=int, default=12)
    ap.add_argument("--tmp", default=os.environ.get("BATS_TEST_TMPDIR",
                                                    "/tmp"))
    a = ap.parse_args()
    path = os.path.join(a.tmp, "stress.reserves")
    kinds = {"random": 0, "blocky": 0, "zero": 0}
    hier = bank = 0
    worst = 0.0
    for i in range(a.count):
        seed = a.seed0 + i
        rng = random.Random(seed * 7919)
        n = rng.randint(1, a.max_nodes)
        s = rng.randint(1, a.max_classes)
        usage = rng.choice(("random", "random", "blocky", "blocky", "zero"))
        kinds[usage] += 1
        gen = ["--seed", str(seed), "--nodes", str(n), "--classes", str(s),
               "--rounds", str(rng.randint(1, 6)), "--usage", usage]
        if rng.random() < 0.5:
            gen.append("--no-r")
        if rng.random() < 0.3:
            gen += ["--walk", "0.5"]
        text = gen_text(gen)
        with open(path, "w") as f:
            f.write(text)
        floor = rng.choice((0, 0.5, 1, 1, 100.0 / s))
        opts = ["-q", "--floor", repr(floor)]
        is_bank = rng.random() < 1 / 6
        fan = rng.random() < 0.5 and n > 1
        if is_bank:
            opts += ["-m", "bank", "--bank-keep", rng.choice(("0", "1"))]
            bank += 1
        else:
            opts += ["--steps", str(rng.choice((1, 2, 3, 3)))]
            if rng.random() < 0.2:
                opts.append("--cold")
        if fan:
            hier += 1
            opts += ["--fanout", str(rng.randint(1, max(1, n - 1))),
                     "--grouping", rng.choice(("contiguous", "random",
                                               "similar")),
                     "--iterate", str(rng.randint(1, 10))]
        cmd = ["ovb-reserves", *opts, path]
        out = run(cmd)
        D, nodes, rounds = parse(out)
        for k, rd in enumerate(rounds):
            for node in nodes:
                tot = 0.0
                for c in D:
                    R = rd["R"][(node, c)]
                    if not (-1e-12 <= R <= 100 + 1e-9):
                        fail("R %s %s = %g" % (node, c, R), cmd)
                    if not is_bank and R < min(floor, 100) - 1e-9:
                        fail("R %s %s = %g below the floor" % (node, c, R),
                             cmd)
                    tot += R
                    if k + 1 < len(rounds) and \
                            rounds[k + 1]["r"][(node, c)] != R:
                        fail("r of round %d is not R of round %d" %
                             (k + 2, k + 1), cmd)
                if tot > 100 + 1e-6:
                    fail("node %s round %d adds up to %.9g" %
                         (node, k + 1, tot), cmd)
        if fan and not is_bank and "--steps 1" not in " ".join(opts):
            lb = note(out, "lower bound")
            if lb is not None:
                hopts = [o for o in opts]
                si = hopts.index("--steps")
                hopts[si + 1] = "2"
                hout = run(["ovb-reserves", *hopts, path])
                lb = note(hout, "lower bound")
                flat = run(["ovb-reserves", "-q", "--floor", repr(floor),
                            "--steps", "2", path])
                V = note(flat, "V")
                if lb > V + 1e-7 * (1 + V):
                    fail("lower bound %.17g above the flat V %.17g" %
                         (lb, V), cmd)
                Dh, nh, rh = parse(hout)
                dev = sum(abs(sum(rh[0]["R"][(x, c)] for x in nh) -
                              len(nh) * Dh[c]) for c in Dh)
                if dev < V - 1e-6 * (1 + V):
                    fail("hierarchy deviation %.17g below the flat V %.17g"
                         % (dev, V), cmd)
                if V > 1e-6:
                    worst = max(worst, (dev - V) / V)
    print("ok %d runs (%s; %d hierarchical, %d bank): exit 0 and every "
          "promise held; hierarchy at most %.3g%% above the flat V" %
          (a.count, ", ".join("%d %s" % (v, k) for k, v in kinds.items()),
           hier, bank, 100 * worst))


if __name__ == "__main__":
    main()
