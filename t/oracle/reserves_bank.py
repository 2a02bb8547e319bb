#!/usr/bin/env python3
"""reserves_bank.py: the bank algorithm of ovb-reserves (--help, README),
implemented again from its description, checked against the tool on random
multi-round instances (python3 stdlib only).

    reserves_bank.py [--count K] [--seed0 S] [--c C] [--keep F]

Per instance (t/oracle/reserves_gen.py, 1-4 rounds, random floor) it runs
`ovb-reserves -m bank --bank-c C --bank-keep F` and this file's own bank
over the same rounds (r of round k+1 = R of round k, as written: the tool
writes R on a 1e-9 grid, so this file reads each round's r back from the
tool's output) and requires every R to agree within 1e-7.  Prints "agree K
instances, largest difference X" or the first difference and exits 1."""

import argparse
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def bank(D, u, r, floor, c, keep, B):
    """One round; B (per class balances) is updated in place."""
    n, s = len(u), len(D)
    T = [n * d for d in D]
    needy = [[not r[i][j] > u[i][j] + 1e-6 for j in range(s)]
             for i in range(n)]
    # 1: deposit unused allocation
    for j in range(s):
        B[j] += sum(max(0.0, r[i][j] - u[i][j]) for i in range(n))
    # 2: towards usage
    R = [[min(max(u[i][j] + (c if needy[i][j] else -c), floor), 100.0)
          for j in range(s)] for i in range(n)]

    def add(j, amount):
        nodes = [i for i in range(n) if needy[i][j]]
        if not nodes or not amount > 0:
            return 0.0
        W = sum(R[i][j] for i in nodes)
        for i in nodes:
            R[i][j] += amount * R[i][j] / W if W > 0 else amount / len(nodes)
        return amount

    for j in range(s):
        A = sum(R[i][j] for i in range(n))
        room = sum(R[i][j] - floor for i in range(n))
        # 3: excess back in proportion above the floor; deficit to needy
        if A > T[j] and room > 0:
            f = 1 - min(1.0, (A - T[j]) / room)
            for i in range(n):
                R[i][j] = floor + (R[i][j] - floor) * f
        elif A < T[j]:
            add(j, T[j] - A)
        # 4: withdraw what could not be taken, deposit what was not given
        A = sum(R[i][j] for i in range(n))
        B[j] -= A - T[j]
        # 5: pay out a positive balance on needy nodes
        if B[j] > 0:
            B[j] -= add(j, B[j])
    # 6: each node to exactly 100 above the floors; keep some balance
    for i in range(n):
        tot, L = sum(R[i]), s * floor
        for j in range(s):
            R[i][j] = (floor + (R[i][j] - floor) * (100 - L) / (tot - L)
                       if tot > L else floor + (100 - L) / s)
    for j in range(s):
        B[j] *= keep
    return R


def parse(text):
    D, nodes, cls, rounds = [], [], [], []
    for line in text.splitlines():
        f = line.split("#")[0].split()
        if not f:
            continue
        if f[0] == "class":
            cls.append(f[1])
            D.append(float(f[2]))
        elif f[0] == "node":
            nodes.append(f[1])
        elif f[0] == "round":
            rounds.append({"u": {}, "r": {}, "R": {}})
        elif f[0] in ("u", "r", "R"):
            rounds[-1][f[0]][(f[1], f[2])] = float(f[3])
    mat = lambda d: [[d[(a, b)] for b in cls] for a in nodes] if d else None
    return D, [{k: mat(v) for k, v in rd.items()} for rd in rounds]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed0", type=int, default=1)
    ap.add_argument("--c", type=float, default=2)
    ap.add_argument("--keep", type=float, default=0)
    ap.add_argument("--tmp", default=os.environ.get("BATS_TEST_TMPDIR", "/tmp"))
    a = ap.parse_args()
    worst = 0.0
    for seed in range(a.seed0, a.seed0 + a.count):
        rng = random.Random(seed * 104729)
        n, s = rng.randint(1, 9), rng.randint(1, 7)
        k = rng.randint(1, 4)
        floor = rng.choice([1, 0, 0.5])
        text = subprocess.run(
            [sys.executable, os.path.join(HERE, "reserves_gen.py"), "--seed",
             str(seed), "--nodes", str(n), "--classes", str(s), "--rounds",
             str(k)], check=True, capture_output=True, text=True).stdout
        path = os.path.join(a.tmp, f"bank{seed}.reserves")
        with open(path, "w") as f:
            f.write(text)
        out = subprocess.run(
            ["ovb-reserves", "-q", "-m", "bank", "--bank-c", str(a.c),
             "--bank-keep", str(a.keep), "--floor", str(floor), path],
            check=True, capture_output=True, text=True).stdout
        D, rounds = parse(out)
        B = [0.0] * s
        for kk, rd in enumerate(rounds):
            R = bank(D, rd["u"], rd["r"], floor, a.c, a.keep, B)
            d = max(abs(R[i][j] - rd["R"][i][j]) for i in range(n)
                    for j in range(s))
            worst = max(worst, d)
            if d > 1e-7:
                print(f"seed {seed} round {kk + 1}: R differs by {d} "
                      f"({path}, floor {floor})")
                return 1
    print(f"agree {a.count} instances, largest difference {worst:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
