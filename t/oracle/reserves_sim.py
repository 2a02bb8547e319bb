#!/usr/bin/env python3
"""reserves_sim.py: the manager loop closed over simulated nodes, for the
experiments of section 4 of the hierarchical bank paper (stdlib only).

    reserves_sim.py SCENARIO [--rounds K] [--warmup W] [--emit FILE]
                    [--history] [--] [OVB-RESERVES OPTIONS...]

Each round: usage u = what every node's ideal proportional-share scheduler
gives each class for its demand under the allocation r (a class gets
min(demand, r); capacity left over goes to classes with unmet demand in
proportion to r, repeatedly: work-conserving, as resource containers);
then ovb-reserves computes R from u and r, and R is the next r.  Round 1
starts from r = D on every node.  By default each round is its own
one-round file (r given); --history runs ovb-reserves on the whole file so
far (its manager loop; needed for the bank's temporal compensation).

Scenarios (demand in percent of a node; 100 = saturating):
  steady4     4 nodes, D 60/30/10; c1, c2 everywhere, c3 only on n4
              (Fig. 3, section 4.2);
  steady100   100 nodes, c3 only on the first 30 (Fig. 5);
  steady900   900 nodes, c3 only on the first 300 (Fig. 7);
  dynamic100  100 nodes, all classes everywhere; c1 stops in rounds
              10-14 and 25-29 (Fig. 8);
  blocks1000  1000 nodes, 20 classes with shares 1/j (Zipf); class j's
              requests go to one block of 50-600 consecutive nodes
              (wrapping), a different random block per class (--seed);
  random1000  1000 nodes, 50 classes, random demands with 2% noise per
              round (RSV_NOISE in the environment; for warm-start
              timings; --seed).

Writes a TSV to stdout: per round and class the desired share, the
allocated share (sum R / N) and the used share (sum u / N under that R,
i.e. the next round's usage); then '#' lines with, per class, the mean and
largest |allocated - desired| and |used - desired| over the rounds after
--warmup (default 3).  --emit FILE writes the trajectory as one
ovb-reserves input (round 1's r, every round's u) that ovb-reserves
replays exactly (R is unique)."""

import argparse
import os
import random
import subprocess
import sys
import tempfile

NOISE = float(os.environ.get("RSV_NOISE", "0.02"))


def scenario(name, seed):
    rng = random.Random(seed)
    if name == "steady4":
        D, n = [60, 30, 10], 4
        dem = lambda k, i, j: 100.0 if j < 2 or i == 3 else 0.0
    elif name in ("steady100", "steady900"):
        n = 100 if name == "steady100" else 900
        D = [60, 30, 10]
        dem = lambda k, i, j: 100.0 if j < 2 or i < 0.3 * n else 0.0
    elif name == "dynamic100":
        D, n = [60, 30, 10], 100
        off = lambda k: 10 <= k < 15 or 25 <= k < 30
        dem = lambda k, i, j: 0.0 if j == 0 and off(k) else 100.0
    elif name == "blocks1000":
        n, s = 1000, 20
        w = [1 / (j + 1) for j in range(s)]
        D = [round(x / sum(w) * 100, 3) for x in w]
        D[-1] = round(100 - sum(D[:-1]), 3)
        blk = []
        for j in range(s):
            ln = rng.randint(50, 600)
            a = rng.randrange(n)
            blk.append((a, ln))

        def dem(k, i, j):
            a, ln = blk[j]
            return 100.0 if (i - a) % n < ln else 0.0
    elif name == "random1000":
        n, s = 1000, 50
        w = [rng.expovariate(1) for _ in range(s)]
        D = [round(x / sum(w) * 100, 3) for x in w]
        D[-1] = round(100 - sum(D[:-1]), 3)
        base = [[rng.choice([0, 0, rng.uniform(0, 10), rng.uniform(0, 60)])
                 for _ in range(s)] for _ in range(n)]
        noise = random.Random(seed + 1)

        def dem(k, i, j):
            return base[i][j] * (1 + noise.uniform(-NOISE, NOISE))
    else:
        raise SystemExit(f"unknown scenario {name}")
    return D, n, dem


def usage(d, r):
    """One node: work-conserving proportional share of 100."""
    s = len(d)
    u = [min(d[j], r[j]) for j in range(s)]
    left = 100 - sum(u)
    for _ in range(s + 1):
        unmet = [j for j in range(s) if d[j] > u[j] + 1e-12]
        if not unmet or left <= 1e-12:
            break
        w = [r[j] for j in unmet]
        if sum(w) <= 0:
            w = [1.0] * len(unmet)
        tw = sum(w)
        given = 0.0
        for j, x in zip(unmet, w):
            g = min(left * x / tw, d[j] - u[j])
            u[j] += g
            given += g
        left -= given
    q = 1e9                                 # exact decimals in the file
    u = [int(x * q) / q for x in u]
    return u


def fmt(x):
    return repr(float(x)) if x != int(x) else str(int(x))


def header(D, n):
    out = ["ovb-reserves 1"]
    out += [f"class c{j + 1} {fmt(D[j])}" for j in range(len(D))]
    out += [f"node n{i + 1}" for i in range(n)]
    return out


def rounds_text(k, u, r=None):
    n, s = len(u), len(u[0])
    out = [f"round {k}"]
    out += [f"u n{i + 1} c{j + 1} {fmt(u[i][j])}"
            for i in range(n) for j in range(s)]
    if r is not None:
        out += [f"r n{i + 1} c{j + 1} {fmt(r[i][j])}"
                for i in range(n) for j in range(s)]
    return out


def run(path, opts, n, s, last):
    out = subprocess.run(["ovb-reserves", "-q", *opts, path], check=True,
                         capture_output=True, text=True).stdout
    R = [[0.0] * s for _ in range(n)]
    k = 0
    for line in out.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "round":
            k = int(f[1])
        elif f[0] == "R" and k == last:
            R[int(f[1][1:]) - 1][int(f[2][1:]) - 1] = float(f[3])
    return R


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--emit")
    ap.add_argument("--history", action="store_true")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    opts = argv[cut + 1:]
    D, n, dem = scenario(a.scenario, a.seed)
    s = len(D)
    r = [list(map(float, D)) for _ in range(n)]
    hist = header(D, n)
    emit = header(D, n)
    rows, stats = [], [[] for _ in range(s)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sim.reserves")
        for k in range(1, a.rounds + 1):
            u = [usage([dem(k, i, j) for j in range(s)], r[i])
                 for i in range(n)]
            emit += rounds_text(k, u, r if k == 1 else None)
            if a.history:
                hist += rounds_text(k, u, r if k == 1 else None)
                text, last = hist, k
            else:
                text, last = header(D, n) + rounds_text(1, u, r), 1
            with open(path, "w") as f:
                f.write("\n".join(text) + "\n")
            R = run(path, opts, n, s, last)
            used = [usage([dem(k + 1, i, j) for j in range(s)], R[i])
                    for i in range(n)]
            for j in range(s):
                al = sum(R[i][j] for i in range(n)) / n
                us = sum(used[i][j] for i in range(n)) / n
                rows.append((k, j, D[j], al, us))
                if k > a.warmup:
                    stats[j].append((abs(al - D[j]), abs(us - D[j])))
            r = R
    if a.emit:
        with open(a.emit, "w") as f:
            f.write("\n".join(emit) + "\n")
    print("round\tclass\tdesired\tallocated\tused")
    for k, j, d, al, us in rows:
        print(f"{k}\tc{j + 1}\t{d}\t{al:.6f}\t{us:.6f}")
    tot_a = tot_u = 0.0
    for j in range(s):
        if not stats[j]:
            continue
        ea = [x for x, _ in stats[j]]
        eu = [y for _, y in stats[j]]
        tot_a += sum(ea) / len(ea)
        tot_u += sum(eu) / len(eu)
        print(f"# c{j + 1}: allocated mean |dev| {sum(ea) / len(ea):.4f} max "
              f"{max(ea):.4f}; used mean |dev| {sum(eu) / len(eu):.4f} max "
              f"{max(eu):.4f}")
    print(f"# total: allocated {tot_a:.4f} used {tot_u:.4f}")


if __name__ == "__main__":
    main()
