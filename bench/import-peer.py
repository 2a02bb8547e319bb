#!/usr/bin/env python3
"""import-peer.py: the conversion a user would write without ovb-import
(python3's csv and gzip modules): Bitbrains CSV files (VM N in month M
as .../2013-M/N.csv.gz) to one ovb-series file on stdout, the same rules
(the slot is the timestamp rounded to the nearest multiple of 300 s,
ties up; the first row of a slot kept; cpu = usage / (capacity / cores),
none when either is 0; net, net-rx, mem = KB/s or KB x 1024), numbers
as Python writes them (repr, integers plainly).  The peer of
bench/import-250.sh.  It reads a VM's files, writes its series, then
goes on: memory for one VM, not the fleet.

usage: import-peer.py FILE..."""
import csv
import gzip
import os
import sys

I = 300


def num(v):
    if v == int(v) and abs(v) < 2 ** 53:
        return str(int(v))
    return repr(v)


def main():
    vms = {}
    for path in sys.argv[1:]:
        name = os.path.basename(path)
        for ext in ('.gz', '.csv'):
            if name.endswith(ext):
                name = name[:-len(ext)]
        vms.setdefault('vm' + name, []).append(path)
    out = sys.stdout
    out.write('ovb-series 1\n# series CAPSULE RES; interval I s; sample T V: '
              'the mean usage over [T, T+I)\n# in cpu, B/s or B (mem), T in s '
              'since the epoch, a multiple of I, increasing\n')
    for vm, paths in vms.items():
        slots = {}
        for path in paths:
            with gzip.open(path, 'rt', newline='') as f:
                rows = csv.reader(f, delimiter=';')
                next(rows)
                for r in rows:
                    t = (int(r[0]) + I // 2) // I * I
                    if t in slots:
                        continue
                    cores, cap, use = float(r[1]), float(r[2]), float(r[3])
                    cpu = use / (cap / cores) if cores > 0 and cap > 0 \
                        else None
                    slots[t] = (cpu, float(r[10]) * 1024,
                                float(r[9]) * 1024, float(r[6]) * 1024)
        times = sorted(slots)
        for k, res in enumerate(('cpu', 'net', 'net-rx', 'mem')):
            s = [(t, slots[t][k]) for t in times if slots[t][k] is not None]
            if not s:
                continue
            out.write('series %s %s\ninterval %d s\n' % (vm, res, I))
            out.write(''.join('sample %d %s\n' % (t, num(v)) for t, v in s))


if __name__ == '__main__':
    main()
