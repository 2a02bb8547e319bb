#!/usr/bin/env python3
"""Writes the synthetic ovb-series of t/0336-calibrated.bats on stdout:
four VMs, hourly samples over 49 days from the epoch, each a level that
grows (or shrinks) linearly, a daily sine and Gaussian noise (seed 14);
c has no sample in days 35-41."""
import math
import random

random.seed(14)
I, DAYS = 3600, 49
print('ovb-series 1')
for name, base, growth, amp, gap in (
        ('a', 0.6, 0.02, 0.3, None), ('b', 1.0, 0.0, 0.5, None),
        ('c', 0.4, 0.03, 0.2, (35, 42)), ('d', 0.8, -0.005, 0.4, None)):
    print('series %s cpu' % name)
    print('interval %d s' % I)
    for k in range(DAYS * 24):
        t = k * I
        d = t / 86400
        if gap and gap[0] <= d < gap[1]:
            continue
        v = base * (1 + growth * d) + amp * math.sin(2 * math.pi * (d % 1)) \
            + random.gauss(0, 0.1)
        print('sample %d %.4f' % (t, max(0.0, v)))
