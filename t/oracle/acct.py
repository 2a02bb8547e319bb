#!/usr/bin/env python3
"""acct.py: compare an ovb-onoff trace with the kernel's accounting.

Usage: acct.py ACCT ONOFF CAPSULE
Sums the busy CPU time (end - start) * CPUS of CAPSULE in the ovb-onoff
file ONOFF, clipped to the accounting window [start_monotonic_ns,
end_monotonic_ns] of the fixture accounting file ACCT, and prints

    trace_ns T kernel_ns K rel R

where K is cpu_ns of ACCT (the cgroup's cpuacct.usage over the window) and
R = (T - K) / K.  An independent computation: it parses the files itself."""
import sys


def fields(path):
    out = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if line:
            out.setdefault(line[0], line[1:])
    return out


def main():
    acct, onoff, capsule = sys.argv[1:4]
    a = fields(acct)
    w0, w1 = int(a["start_monotonic_ns"][0]), int(a["end_monotonic_ns"][0])
    kernel = int(a["cpu_ns"][0])
    total = 0
    for line in open(onoff):
        f = line.split()
        if len(f) == 5 and f[0] == "busy" and f[1] == capsule:
            s, e, n = max(int(f[2]), w0), min(int(f[3]), w1), int(f[4])
            if e > s:
                total += (e - s) * n
    print("trace_ns %d kernel_ns %d rel %.6f" % (total, kernel,
                                                (total - kernel) / kernel))


if __name__ == "__main__":
    main()
