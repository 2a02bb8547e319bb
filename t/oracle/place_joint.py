#!/usr/bin/env python3
"""place_joint.py: an independent oracle of ovb-place --mode joint
(formats/plan.md, "joint").

usage: place_joint.py [--from T] [--to T] [--slots any|overlap] CLUSTER
                      APPS PLAN SERIES PROFILE...

Reads the series, the cluster, the apps and the plan with t/oracle's own
readers and recomputes, per node and rate (cpu, net, net-rx) used by a
capsule on it, in exact rationals (fractions.Fraction of each double):
the slots in [from, to) where at least one of the node's capsules has a
sample (a capsule's samples: the series named as its profile), OVER the
slots whose sum is above C (a capsule without a sample there counting
0), and whether OVER/SLOTS <= the least O of the node's capsules (their
qos records).  With --slots overlap (or a plan of "mode joint overlap")
only the slots from the latest first sample to the earliest last sample
of the node's capsules (in the window) count, and a node of two capsules
or more with fewer such slots than ceil(10 / O_min) (the quotient in
doubles, as --tod-min's; O_min 0: never enough) breaks.  Prints one line per node and resource,

    NODE RES holds|breaks OVER SLOTS

then checks every capsule placed has samples of each rate it uses, and
every application rejected with "no samples" has a capsule that lacks
them for a rate it uses (its profile's blocks, or a plain reservation,
which has no series; net-rx only where the cluster gives it); prints "agree"
and exits 0 when every node holds and those checks pass, else says what
fails and exits 1."""

import math
import sys
from fractions import Fraction

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import formats  # noqa: E402

RATES = ("cpu", "net", "net-rx")


def main(argv):
    lo, hi, overlap = 0, 1 << 62, None
    while argv and argv[0] in ("--from", "--to", "--slots"):
        if argv[0] == "--from":
            lo = int(argv[1])
        elif argv[0] == "--to":
            hi = int(argv[1])
        else:
            overlap = argv[1] == "overlap"
        argv = argv[2:]
    cfile, afile, pfile, sfile = argv[:4]
    pfiles = argv[4:]
    cluster = formats.read_cluster(cfile)
    apps = {a.name: a for a in formats.read_apps(afile)}
    plan = formats.read_plan(pfile)
    if overlap is None:     # the plan's mode line says
        overlap = any(list(t[:3]) == ["mode", "joint", "overlap"]
                      for t in plan.recs)
    series = formats.read_series(sfile)
    win = {}
    for (cap, res), s in series.items():
        win[(cap, res)] = {t: Fraction(v) for t, v in s["s"] if lo <= t < hi}
    profile = {}        # (app, capsule) -> profile name or None
    for app, cap, node, prof in plan.place:
        profile[(app, cap)] = None if prof == "-" else prof
    O = {}              # (app, capsule, res) -> O
    for t in plan.recs:
        if t[0] == "qos" and t[3] in RATES:
            O[(t[1], t[2], t[3])] = Fraction(float(t[7]))
    bad = []
    members = {}        # (node, res) -> [(app, capsule)]
    for app, cap, node, prof in plan.place:
        for res in RATES:
            if (app, cap, res) not in O:
                continue
            members.setdefault((node, res), []).append((app, cap))
            p = profile[(app, cap)]
            if p is None or not win.get((p, res)):
                bad.append("%s/%s placed without samples of %s" % (app, cap,
                           res))
    for node in cluster:
        for res in RATES:
            m = members.get((node, res))
            if not m:
                continue
            C = Fraction(cluster[node][res])
            omin = min(O[(a, c, res)] for a, c in m)
            rows = [win.get((profile[(a, c)], res), {}) for a, c in m]
            times = set()
            for r in rows:
                times.update(r)
            if overlap:
                first = max(min(r) for r in rows if r)
                last = min(max(r) for r in rows if r)
                times = {t for t in times if first <= t <= last}
            over = sum(1 for t in times if sum(r.get(t, 0) for r in rows) > C)
            slots = len(times)
            held = slots > 0 and Fraction(over, slots) <= omin
            if overlap and len(m) >= 2:
                need = math.ceil(10 / float(omin)) if omin > 0 else None
                held = held and need is not None and slots >= need
            print("%s %s %s %d %d" % (node, res, "holds" if held else
                                      "breaks", over, slots))
            if not held:
                bad.append("%s %s breaks: %d of %d slots above C, O_min %s" %
                           (node, res, over, slots, float(omin)))
    blocks = {(d.capsule, d.res) for d in formats.read_dists(pfiles)}
    rates = [r for r in RATES if all(r in n for n in cluster.values())]
    for t in plan.reject:
        if "no samples" not in " ".join(t[2:]):
            continue
        lacks = False
        for cname, kv in apps[t[1]].caps:
            p = kv.get("profile")
            for res in rates:
                used = (p, res) in blocks if p else res in kv
                if used and (p is None or not win.get((p, res))):
                    lacks = True
        if not lacks:
            bad.append("%s rejected for no samples, but it has them" % t[1])
    for b in bad:
        print(b)
    if bad:
        return 1
    print("agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
