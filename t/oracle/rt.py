#!/usr/bin/python3
"""rt.py admit FILE OUT: checks ovb-rt's admission output OUT for the
ovb-rt FILE by exhaustive search (every assignment of tasks to CPUs, exact
Fractions of the doubles): a node's tasks are all assigned exactly when
some partition with sum slice/period <= CAP per CPU exists, and the
assignment printed is such a partition.  Prints "ok N" or the problems
(exit 1).

rt.py search FILE U TARGET EPS P0 DP PMIN: prints the period search of
the VSched paper (section 4.2) replayed on FILE's rate table, in the
format ovb-rt --search prints (try/reset/converged/cycle lines, numbers
as %.17g; the cycle line is only its first word), independently."""
import itertools
import sys
from fractions import Fraction as F


def read(path):
    nodes, tasks, rates = {}, [], []
    for line in open(path):
        t = line.split("#", 1)[0].split()
        if not t or t[0].startswith("ovb-"):
            continue
        if t[0] == "node":
            nodes[t[1]] = (int(t[2]), F(float(t[3])))
        elif t[0] == "task":
            tasks.append((t[1], t[2], F(float(t[4])) / F(float(t[3]))))
        elif t[0] == "rate":
            rates.append((float(t[1]), float(t[2]), float(t[3])))
    return nodes, tasks, rates


def feasible(us, cpus, cap):
    cpus = min(cpus, len(us))
    for a in itertools.product(range(max(cpus, 1)), repeat=len(us)):
        load = [F(0)] * max(cpus, 1)
        for u, c in zip(us, a):
            load[c] += u
        if all(x <= cap for x in load):
            return True
    return not us


def admit(path, out):
    nodes, tasks, _ = read(path)
    got = {}
    rejected = set()
    for line in open(out):
        t = line.split()
        if t and t[0] == "assign":
            got[(t[1], t[2])] = int(t[3])
        elif t and t[0] == "reject":
            rejected.add(t[1])
    bad = []
    for nd, (cpus, cap) in nodes.items():
        mine = [(name, u) for n, name, u in tasks if n == nd]
        ok = feasible([u for _, u in mine], cpus, cap)
        if ok != (nd not in rejected):
            bad.append("node %s: exhaustive says %s, ovb-rt %s" %
                       (nd, ok, "rejects" if nd in rejected else "admits"))
        if ok:
            load = {}
            for name, u in mine:
                c = got.get((nd, name))
                if c is None or not 0 <= c < cpus:
                    bad.append("%s/%s: not assigned" % (nd, name))
                    continue
                load[c] = load.get(c, 0) + u
            for c, s in load.items():
                if s > cap:
                    bad.append("%s cpu %d: %s > %s" % (nd, c, s, cap))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print("ok", len(nodes))


def search(path, U, target, eps, p0, dp, pmin):
    _, _, rates = read(path)
    table = {}
    for p, u, r in rates:
        table[(p, u)] = r
    nper = int((p0 - pmin) // dp) + 1
    k, resets, step = 0, 0, 0
    while True:
        p = p0 - k * dp
        r = next(v for (q, u), v in table.items()
                 if u == U and abs(q - p) <= 1e-9 * p)
        e = r - target
        print("try %d %.17g %.17g %.17g %.17g" % (step, p, U * p, r, e))
        if abs(e) <= eps:
            print("converged %.17g %.17g" % (p, U * p))
            return
        k += 1
        step += 1
        if k >= nper or p0 - k * dp <= pmin:
            k = 0
            print("reset")
            resets += 1
            if resets == 2:
                print("cycle")
                return


if sys.argv[1] == "admit":
    admit(sys.argv[2], sys.argv[3])
else:
    search(sys.argv[2], *(float(v) for v in sys.argv[3:9]))
