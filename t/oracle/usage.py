#!/usr/bin/env python3
"""usage.py: independent oracle for ovb-usage (python3 stdlib only).

    usage.py [--interval SECONDS] [--width [RES=]W]... [--res RES,...]
             [--pct P,...] ONOFF USAGEFILE
    usage.py [--len L] [--width RES=W]... SERIES USAGEFILE

The input is told apart by its magic line.  On an ovb-onoff trace:

Recomputes U of every capsule and chosen resource of ONOFF with exact
integer and Fraction arithmetic (intervals [t0 + kI, t0 + (k+1)I), partial
last interval dropped, intervals meeting a closed gap [START, END] left
out; cpu = CPU-ns / I, net = bytes * 1e9 / I) and compares with USAGEFILE:
blocks, interval, width, n and every bin count exactly; mean and
percentiles (nearest rank, sorted exact values) to a relative 1e-12.
Binning follows the format's definition on the double nearest each usage:
the least K >= 1 with x <= K*W in double arithmetic (bin 0: x == 0).
Exit 0 and a summary line when all agree, 1 with the differences.

On an ovb-series file: per (capsule, res) block of USAGEFILE, the
measurement intervals [kL, (k+1)L) (L the series interval unless --len)
whose L/I samples are all present; their values are exact means
(Fractions).  Checks the interval, the number of intervals, the width (the
default rule unless --width), every bin count, the mean (the exact mean
rounded once: equal as doubles) and the percentiles (nearest rank, exact:
equal as doubles).  A mem block (a level) is of window peaks instead:
windows [kW, (k+1)W) of W = --window (default 3600) with at least one
sample, each valued at its largest sample.  Prints "agree" or the
differences (exit 1)."""

import argparse
import math
import sys
from decimal import Decimal
from fractions import Fraction

import formats

RESES = ("cpu", "net", "net-rx")
TOL = 1e-12


def auto_width(res, peak):
    if res == "cpu":
        return 0.01
    if not peak > 0:
        return 1.0
    raw = peak / 100
    e = math.floor(math.log10(raw)) - 1
    while True:
        p = float(10 ** abs(e))
        for m in (1.0, 2.0, 5.0):
            w = m / p if e < 0 else m * p
            if w >= raw:
                return w
        e += 1


def usages(tr, cap, res, ilen):
    out = []
    for k in range((tr.t1 - tr.t0) // ilen):
        a = tr.t0 + k * ilen
        b = a + ilen
        if any(gs < b and ge >= a for gs, ge in tr.gaps):
            continue
        if res == "cpu":
            acc = sum(n * max(0, min(e, b) - max(s, a)) for s, e, n in cap.busy)
            out.append(Fraction(acc, ilen))
        else:
            acc = sum(nb for t, nb in cap.transfers(res) if a <= t < b)
            out.append(Fraction(acc * 10**9, ilen))
    return out


def expect(tr, cap, res, ilen, width, pcts):
    u = usages(tr, cap, res, ilen)
    xs = sorted(float(v) for v in u)
    w = width.get(res) or auto_width(res, xs[-1])
    bins = {}
    for x in xs:
        k = formats.hist_bin(x, w)
        bins[k] = bins.get(k, 0) + 1
    n = len(u)
    total = (tr.t1 - tr.t0) // ilen
    pct = {}
    for p in pcts:
        r = max(1, math.ceil(Fraction(p) * n / 100))
        pct[float(p)] = float(sorted(u)[r - 1])
    return {"interval": ilen / 1e9, "width": w, "n": n,
            "mean": float(sum(u) / n), "pct": pct, "bins": bins,
            "lost": total - n or None}


def parse_usage(path):
    blocks = {}
    for d in formats.read_dists(path):
        got = {"interval": d.interval, "width": d.width, "n": d.n,
               "mean": d.mean, "pct": d.pct, "bins": d.bins,
               "trace": d.trace and d.trace[:3] + (float(d.trace[3]),
                                                   d.trace[4]),
               "lost": d.lost, "unmeasured": d.unmeasured or None,
               "wait": d.wait}
        blocks[d.key] = {k: v for k, v in got.items() if v is not None}
    return blocks


def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b)) if a != b else 0.0


def compare(key, exp, got, worst):
    bad = []
    for f in ("interval", "width", "n", "bins"):
        if exp[f] != got.get(f):
            bad.append("%s: expected %r, got %r" % (f, exp[f], got.get(f)))
    e = rel(exp["mean"], got.get("mean", math.inf))
    worst["mean"] = max(worst["mean"], e)
    if e > TOL:
        bad.append("mean: expected %r, got %r" % (exp["mean"], got.get("mean")))
    if set(exp["pct"]) != set(got["pct"]):
        bad.append("pct: expected P %s, got %s" % (sorted(exp["pct"]),
                                                    sorted(got["pct"])))
    for p, v in exp["pct"].items():
        e = rel(v, got["pct"].get(p, math.inf))
        worst["pct"] = max(worst["pct"], e)
        worst["exact"] += v == got["pct"].get(p)
        worst["npct"] += 1
        if e > TOL:
            bad.append("pct %g: expected %r, got %r" % (p, v, got["pct"].get(p)))
    return ["%s %s: %s" % (key[0], key[1], b) for b in bad]


def pct_rank(p, n):
    x = p * n / 100
    r = round(x)
    rank = r if abs(x - r) <= 1e-9 * max(1, x) else math.ceil(x)
    return max(1, min(n, rank))


def check_series(series_path, usage_path, length, widths, window=3600):
    """The ovb-series check: a list of differences, and the number of
    blocks."""
    series = formats.read_series(series_path)
    blocks = formats.blocks(usage_path, "usage")
    bad = []
    for key in blocks:
        s = series[key]
        I = s['I']
        L = length or I
        if key[1] == 'mem':
            L = window
        k = L // I
        groups = {}
        for t, v in s['s']:
            groups.setdefault(t // L, []).append(v)
        if key[1] == 'mem':     # window peaks: block maxima
            vals = [Fraction(max(g)) for w, g in sorted(groups.items())]
        else:
            vals = [Fraction(sum(Fraction(x) for x in g), len(g))
                    for w, g in sorted(groups.items()) if len(g) == k]
        rec = {}
        bins, pcts = {}, {}
        for tok in blocks[key]:
            if tok[0] == 'bin':
                bins[int(tok[1])] = int(tok[2])
            elif tok[0] == 'pct':
                pcts[float(tok[1])] = float(tok[2])
            else:
                rec[tok[0]] = tok[1]
        n = len(vals)
        fv = [float(x) for x in vals]
        peak = max(fv)
        w = widths.get(key[1], auto_width(key[1], peak))
        want_bins = {}
        for x in fv:
            b = formats.hist_bin(x, w)
            want_bins[b] = want_bins.get(b, 0) + 1
        mean = float(sum(vals) / n)
        srt = sorted(vals)
        if float(rec['interval']) != L:
            bad.append('%s %s: interval %s, oracle %d' % (*key,
                       rec['interval'], L))
        if int(rec['intervals']) != n:
            bad.append('%s %s: intervals %s, oracle %d' % (*key,
                       rec['intervals'], n))
        if float(rec['width']) != w:
            bad.append('%s %s: width %s, oracle %r' % (*key, rec['width'], w))
        if bins != want_bins:
            bad.append('%s %s: bins %r, oracle %r' % (*key, bins, want_bins))
        if float(rec['mean']) != mean:
            bad.append('%s %s: mean %s, oracle %r' % (*key, rec['mean'], mean))
        for p, v in pcts.items():
            want = float(srt[pct_rank(p, n) - 1])
            if v != want:
                bad.append('%s %s: pct %r = %r, oracle %r' % (*key, p, v,
                           want))
    return bad, len(blocks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--interval", default="1")
    ap.add_argument("--width", action="append", default=[])
    ap.add_argument("--res", default="cpu,net")
    ap.add_argument("--pct", default="")
    ap.add_argument("--len", type=int)
    ap.add_argument("--window", type=int, default=3600)
    ap.add_argument("onoff")
    ap.add_argument("usage")
    o = ap.parse_args()
    if formats.kind(o.onoff) == "series":
        widths = {}
        for w in o.width:
            r, _, v = w.partition("=")
            widths[r] = float(v)
        bad, n = check_series(o.onoff, o.usage, o.len, widths, o.window)
        for b in bad:
            print(b)
        if bad:
            sys.exit(1)
        print("agree: %d blocks" % n)
        return
    ilen = int(round(Decimal(o.interval) * 10**9))
    reses = RESES if o.res == "all" else o.res.split(",")
    width = {}
    for w in o.width:
        r, _, v = w.rpartition("=")
        for x in (reses if not r else [r]):
            width[x] = float(v)
    pcts = ["50", "90", "95", "99", "100"] + [p for p in o.pct.split(",") if p]
    tr = formats.read_onoff(o.onoff)
    got = parse_usage(o.usage)
    bad, n, ntrace = [], 0, 0
    worst = {"mean": 0.0, "pct": 0.0, "exact": 0, "npct": 0}
    keys = [(c, r) for c in tr.caps for r in RESES if r in reses]
    for key in keys:
        if key not in got:
            bad.append("%s %s: missing" % key)
            continue
        if not tr.was_measured(key[1]):
            # formats/usage.md: said, not written as 0
            want = {"unmeasured": True, "trace": formats.trace_of(tr)}
            have = {k: v for k, v in got[key].items() if v not in ({}, None)}
            if have != {k: v for k, v in want.items() if v is not None}:
                bad.append("%s %s: not measured, but %r" % (key + (got[key],)))
            ntrace += tr.trace is not None
            n += 1
            continue
        exp = expect(tr, tr.caps[key[0]], key[1], ilen, width, pcts)
        bad += compare(key, exp, got[key], worst)
        if got[key].get("lost") != exp["lost"]:
            bad.append("%s %s: lost %r, expected %r (intervals that meet "
                       "a gap)" % (key + (got[key].get("lost"), exp["lost"])))
        # a cpu block carries its capsule's wait record as it is
        want = tr.caps[key[0]].wait if key[1] == "cpu" else None
        if got[key].get("wait") != want:
            bad.append("%s %s: wait %r, expected %r (the onoff file's)" % (
                key + (got[key].get("wait"), want)))
        if got[key].get("trace") != formats.trace_of(tr):
            bad.append("%s %s: trace %r, expected %r" % (
                key + (got[key].get("trace"), formats.trace_of(tr))))
        ntrace += tr.trace is not None
        n += 1
    bad += ["%s %s: not expected" % k for k in got if k not in keys]
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("usage.py: %d distributions agree (%d with a trace record); max "
          "relative error: mean %.3g, pct %.3g (%d of %d percentiles "
          "bit-identical)" % (n, ntrace, worst["mean"], worst["pct"],
                              worst["exact"], worst["npct"]))


main()
