#!/usr/bin/env python3
"""Random ovb-series files for the backtest bound (t/0337): SEED -> 2 to
7 VMs, cpu samples every 300, 600 or 3600 s over 21 or 35 days, drawn
from a few levels (0.1, 0.2, 0.3 and 0.7 are not exact in binary; 0.5,
1, 2, 4 add up to node sizes of 1, 2 and 4 cpu exactly), a fifth of a
VM's samples missing in some, and mem series (1-3 GiB, doubling now and
then) for most.

usage: bound_series.py SEED"""
import random
import sys


def main():
    rng = random.Random(int(sys.argv[1]))
    I = rng.choice([300, 600, 3600])
    n = rng.randint(2, 7)
    T = rng.choice([21, 35]) * 86400 // I
    levels = [0, 0.1, 0.2, 0.3, 0.5, 1, 1.5, 2, 2.5, 3, 0.7, 1.1, 4]
    out = ['ovb-series 1']
    for v in range(n):
        base = rng.choice(levels)
        gap = rng.random() < 0.3
        g0 = rng.randint(0, T)
        hole = range(g0, g0 + T // 5) if gap else range(0)
        out += ['series vm%d cpu' % (v + 1), 'interval %d s' % I]
        for k in range(T):
            if k in hole:
                continue
            x = base if rng.random() < 0.7 else rng.choice(levels)
            out.append('sample %d %r' % (k * I, float(x)))
        if rng.random() < 0.7:
            mb = rng.choice([1, 2, 3]) * 2**30
            out += ['series vm%d mem' % (v + 1), 'interval %d s' % I]
            for k in range(T):
                if k in hole:
                    continue
                out.append('sample %d %d' % (
                    k * I, mb if rng.random() < 0.9 else
                    mb * rng.choice([1, 2])))
    print('\n'.join(out))


if __name__ == '__main__':
    main()
