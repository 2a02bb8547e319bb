#!/usr/bin/env python3
"""usage_time.py: independent oracle for ovb-report's usage over time
(python3 stdlib only).

    usage_time.py [--interval SECONDS] INPUT CAPSULE RES SCRIPT [TSV]

INPUT is an ovb-onoff or ovb-series file (told apart by its magic line),
SCRIPT the gnuplot script of `ovb-report --plot usage` (or of the page's
figure) for CAPSULE and RES, TSV optionally the output of
`ovb-report -f tsv -t usage`.

Recomputes the usage in each measurement interval from INPUT with
Fractions, as formats/onoff.md and formats/series.md define it:

- onoff: intervals [t0 + kI, t0 + (k+1)I) inside the span, those meeting
  a closed gap [START, END] left out; cpu = CPU-ns / I, net and net-rx =
  bytes * 1e9 / I (I in ns: --interval rounded to ns, default 1 s);
- series: intervals [kL, (k+1)L) (L = --interval, default the series'
  own I) whose L/I samples are all present, the exact mean of them.

Then the plot's reduction: the slots of I from the first kept interval to
the end of the last, in buckets of per = ceil(slots / 2000) (1 when slots
<= 2000); a bucket with kept intervals is one point, at the bucket's start
(onoff: ns from t0; series: s since the epoch), as high as the largest
usage in it.  The script's $U block must hold exactly these points (the
usage compared as doubles: equal), with a blank line wherever a bucket is
skipped.  With TSV: its row for CAPSULE RES has the same intervals,
points, intervals_per_point and peak (exactly) and mean (to 1e-12).
Exit 0 and "agree: ..." when all agree, 1 with the first difference."""

import argparse
import math
import sys
from fractions import Fraction

import formats

MAXPTS = 2000


def onoff_usage(path, capsule, res, ilen):
    tr = formats.read_onoff(path)
    cap = tr.caps[capsule]
    out = []
    for k in range((tr.t1 - tr.t0) // ilen):
        a = tr.t0 + k * ilen
        b = a + ilen
        if any(gs < b and ge >= a for gs, ge in tr.gaps):
            continue
        if res == "cpu":
            acc = sum(n * max(0, min(e, b) - max(s, a)) for s, e, n in cap.busy)
            out.append((a, Fraction(acc, ilen)))
        else:
            acc = sum(nb for t, nb in cap.transfers(res) if a <= t < b)
            out.append((a, Fraction(acc * 10**9, ilen)))
    return tr.t0, ilen, out


def series_usage(path, capsule, res, length):
    s = formats.read_series(path)[(capsule, res)]
    i = s["I"]
    L = length or i
    k = L // i
    groups = {}
    for t, v in s["s"]:
        groups.setdefault(t // L, []).append(Fraction(v))
    out = [(w * L, sum(vs) / k) for w, vs in sorted(groups.items())
           if len(vs) == k]
    return 0, L, out


def points(usage, step, origin):
    first = usage[0][0]
    slots = (usage[-1][0] - first) // step + 1
    per = -(-slots // MAXPTS) if slots > MAXPTS else 1
    pts = {}
    for t, v in usage:
        b = (t - first) // step // per
        pts[b] = max(pts.get(b, v), v)
    out, prev = [], None
    for b in sorted(pts):
        if prev is not None and b != prev + 1:
            out.append(None)            # a blank line
        out.append((first + b * per * step - origin, float(pts[b])))
        prev = b
    return per, out


def script_points(path):
    text = open(path).read()
    block = text.split("$U << EOD\n")[1].split("EOD\n")[0]
    out = []
    for line in block.split("\n")[:-1]:
        if not line.strip():
            out.append(None)
            continue
        t, v = line.split()
        out.append((int(t), float(v)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--interval", type=Fraction)
    ap.add_argument("input")
    ap.add_argument("capsule")
    ap.add_argument("res")
    ap.add_argument("script")
    ap.add_argument("tsv", nargs="?")
    a = ap.parse_args()
    if formats.kind(a.input) == "onoff":
        ilen = round(a.interval * 10**9) if a.interval else 10**9
        t0, step, usage = onoff_usage(a.input, a.capsule, a.res, ilen)
        origin = t0
    else:
        L = int(a.interval) if a.interval else None
        _, step, usage = series_usage(a.input, a.capsule, a.res, L)
        origin = 0
    if not usage:
        print("no complete interval")
        return 1
    per, exp = points(usage, step, origin)
    got = script_points(a.script)
    if len(got) != len(exp):
        print("%d lines in $U, expected %d" % (len(got), len(exp)))
        return 1
    for i, (e, g) in enumerate(zip(exp, got)):
        if e != g:
            print("line %d of $U: expected %r, got %r" % (i + 1, e, g))
            return 1
    npts = sum(p is not None for p in exp)
    if a.tsv:
        rows = [l.rstrip("\n").split("\t") for l in open(a.tsv)
                if not l.startswith("#")]
        head = rows[0]
        row = [dict(zip(head, r)) for r in rows[1:]
               if r[:2] == [a.capsule, a.res]]
        if len(row) != 1:
            print("TSV: %d rows of %s %s" % (len(row), a.capsule, a.res))
            return 1
        r = row[0]
        vals = [v for _, v in usage]
        mean = float(sum(vals) / len(vals))
        want = {"intervals": len(usage), "points": npts,
                "intervals_per_point": per}
        for k, v in want.items():
            if int(r[k]) != v:
                print("TSV %s: expected %d, got %s" % (k, v, r[k]))
                return 1
        if float(r["peak"]) != float(max(vals)):
            print("TSV peak: expected %r, got %s" % (float(max(vals)),
                                                     r["peak"]))
            return 1
        m = float(r["mean"])
        if abs(m - mean) > 1e-12 * max(abs(mean), 1e-300):
            print("TSV mean: expected %r, got %s" % (mean, r["mean"]))
            return 1
    print("agree: %d intervals, %d points (%d per point)"
          % (len(usage), npts, per))
    return 0


if __name__ == "__main__":
    sys.exit(main())
