#!/usr/bin/env python3
"""mem.py: random memory series for the tests of mem as a resource.

    mem.py series SEED [NCAPS]

An ovb-series file with NCAPS (default 4) mem series (levels in B: a base
of a few hundred MiB to a few GiB, daily swings, rare spikes; some whole
numbers, some fractional like Bitbrains' KB x 1024 of 1.6703488E6), all
with the same interval I in {60, 300, 600} s, over two to four days,
with a few missing samples; and a cpu series per capsule, so that files
mix resources."""
import random
import sys


def series(seed, ncaps):
    rng = random.Random(seed)
    I = rng.choice((60, 300, 600))
    t0 = 1372629600 // I * I + rng.randrange(0, 24) * 3600 // I * I
    n = rng.randrange(2, 5) * 86400 // I
    out = ['ovb-series 1']
    for c in range(ncaps):
        base = rng.choice((256, 512, 1024, 3072)) * 2**20
        swing = rng.random() * base
        out += ['series vm%d mem' % c, 'interval %d s' % I]
        cpu = []
        for i in range(n):
            if rng.random() < 0.01:
                continue
            t = t0 + i * I
            ph = (t % 86400) / 86400
            v = base + swing * (1 - abs(2 * ph - 1))
            if rng.random() < 0.005:
                v *= rng.choice((2, 3))
            kb = rng.choice((int(v / 1024), v / 1024))
            out.append('sample %d %r' % (t, float(kb) * 1024))
            cpu.append('sample %d %r' % (t, round(rng.random(), 3)))
        out += ['series vm%d cpu' % c, 'interval %d s' % I] + cpu
    return '\n'.join(out) + '\n'


if __name__ == '__main__':
    if sys.argv[1] == 'series':
        n = int(sys.argv[3]) if len(sys.argv) > 3 else 4
        sys.stdout.write(series(int(sys.argv[2]), n))
