#!/usr/bin/env python3
"""convolve.py: random usage distributions for the ovb-convolve tests
(python3 stdlib only).

    convolve.py --seed S --usage FILE --profile FILE [--dists K]
                    [--res cpu|net] [--small] [--max-bins B]

Writes K distributions of RES (capsules d0, d1, ...), about half as
ovb-usage blocks in FILE (--usage) and half as ovb-profile blocks (U plus
sigma, rho, tau, O) in the other, with bin widths drawn from a mix of
"round" and awkward decimals (0.3, 0.07, 2500, 3000...), so the common grid
moves values of most of them.  Some bins are empty, some distributions are
a single bin, bin 0 (usage exactly 0) is common.  --small keeps the number
of intervals per distribution at 1..6 (for enumeration over all
combinations).  Every distribution has a measurement interval of 1 s;
K >= 2, so each file has a block.  Prints capacities worth asking about
on stdout: 0, nine spread up to the largest possible sum, one beyond."""

import argparse
import random

WIDTHS = {
    "cpu": ["0.01", "0.05", "0.1", "0.25", "0.3", "0.07", "0.5", "1", "0.125"],
    "net": ["1000", "2500", "3000", "10000", "7", "50000", "0.5"],
}
UNIT = {"cpu": "cpu", "net": "B/s"}
BURST = {"cpu": "cpu-s", "net": "B"}


def dist(rng, small, max_bins):
    nb = rng.choice([1, 2, 3, rng.randint(1, max_bins)])
    bins = {}
    for k in range(nb):
        if small:
            c = rng.choice([0, 1, 1, 2, 3])
        else:
            c = rng.choice([0, rng.randint(1, 9), rng.randint(1, 200)])
        if c:
            bins[k] = c
    if not bins or max(bins) != nb - 1:
        bins[nb - 1] = 1
    if small:
        while sum(bins.values()) > 6:
            k = rng.choice([k for k in bins if k != nb - 1 or bins[k] > 1])
            bins[k] -= 1
            if not bins[k]:
                del bins[k]
    return bins


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--usage", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--dists", type=int, default=4)
    ap.add_argument("--res", default="cpu", choices=["cpu", "net"])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--max-bins", type=int, default=30)
    a = ap.parse_args()
    if a.dists < 2:
        ap.error("--dists must be at least 2 (one block in each file)")
    rng = random.Random(a.seed)
    top = 0.0
    with open(a.usage, "w") as fu, open(a.profile, "w") as fp:
        fu.write("ovb-usage 1\n")
        fp.write("ovb-profile 1\n")
        for i in range(a.dists):
            w = rng.choice(WIDTHS[a.res])
            bins = dist(rng, a.small, a.max_bins)
            if i % 2 == 0:
                fu.write(f"usage d{i} {a.res}\n")
                f = fu
            else:
                fp.write(f"profile d{i} {a.res}\n")
                fp.write(f"sigma {rng.randint(0, 9)} {UNIT[a.res]}\n"
                         f"rho {rng.randint(0, 9)} {BURST[a.res]}\n"
                         f"tau 1 s\nO 0.01\n")
                f = fp
            top += max(bins) * float(w)
            f.write(f"interval 1 s\nwidth {w} {UNIT[a.res]}\n")
            f.write(f"intervals {sum(bins.values())}\n")
            for k in sorted(bins):
                f.write(f"bin {k} {bins[k]}\n")
    # capacities worth asking about: 0, a spread over (0, largest sum],
    # and one beyond
    caps = [0.0] + [float(f"{top * i / 9:.3g}") for i in range(1, 10)]
    caps.append(float(f"{top * 1.1 + 1:.3g}"))
    print(" ".join(f"{c:.10g}" for c in caps))

if __name__ == "__main__":
    main()
