#!/usr/bin/env python3
"""profile.py: oracle for ovb-profile (python3 stdlib only).

    profile.py -O O -t TAU [--set CAP:KEY=V[,KEY=V]]... USAGE CURVE PROFILE

Checks every block of PROFILE against the usage and curve files: one block
per (capsule, resource) in both, in the usage file's order; O and tau as
given (or overridden); sigma = U's own pct (1-O)*100 when U has it, else
the upper edge K*W (in doubles, as in usage.c) of the bin that holds the nearest rank
max(1, ceil((1-O) n)); rho = the curve at sigma (linear between points,
constant beyond; exact Fractions of the doubles, to a relative 1e-12);
U's records copied verbatim (lost D and wait too); the curve's points copied as `curve` records
unless sigma < the curve's mean (then rho = the first point's rho and no
curve records).  Exit 0 with a summary line, 1 with the differences."""

import argparse
import math
import sys
from fractions import Fraction

from formats import blocks

U_KW = ("interval", "width", "intervals", "mean", "pct", "bin", "trace", "forecast",
        "lost", "wait")


def num(x):
    """The exact value of the double that the text x denotes."""
    return Fraction(float(x))


def curve_at(pts, s):
    if s <= pts[0][0]:
        return pts[0][1]
    if s >= pts[-1][0]:
        return pts[-1][1]
    i = 1
    while pts[i][0] < s:
        i += 1
    (s0, r0), (s1, r1) = pts[i - 1], pts[i]
    return r0 + (s - s0) / (s1 - s0) * (r1 - r0)


def sigma_of(u, O):
    p = 100 - 100 * Fraction(O)
    for t in u:
        if t[0] == "pct" and Fraction(t[1]) == p:
            return num(t[2])
    w = float([t for t in u if t[0] == "width"][0][1])
    n = int([t for t in u if t[0] == "intervals"][0][1])
    rank = max(1, math.ceil(p * n / 100))
    cum = 0
    for k, c in sorted((int(t[1]), int(t[2])) for t in u if t[0] == "bin"):
        cum += c
        if cum >= rank:
            return Fraction(k * w)          # the bin's edge, as a double
    raise AssertionError("counts do not reach the rank")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-O", required=True)
    ap.add_argument("-t", required=True)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("usage")
    ap.add_argument("curve")
    ap.add_argument("profile")
    o = ap.parse_args()
    over = {}
    for s in o.set:
        cap, _, kvs = s.partition(":")
        for kv in kvs.split(","):
            k, _, v = kv.partition("=")
            over.setdefault(cap, {})[k] = v
    us, cs = blocks(o.usage, "usage"), blocks(o.curve, "curve")
    ps = blocks(o.profile, "profile")
    want = [k for k in us if k in cs]
    bad = []
    if list(ps) != want:
        bad.append("blocks %s, expected %s" % (list(ps), want))
    worst = 0.0
    for key in want:
        if key not in ps:
            continue
        p, u, c = ps[key], us[key], cs[key]
        O = over.get(key[0], {}).get("O", o.O)
        tau = over.get(key[0], {}).get("tau", o.t)
        get = {t[0]: t[1:] for t in p}
        pts = [(num(t[1]), num(t[2])) for t in c if t[0] == "point"]
        sigma = sigma_of(u, O)
        rho = curve_at(pts, sigma)
        name = "%s %s" % key
        if Fraction(get["O"][0]) != Fraction(O) or \
                Fraction(get["tau"][0]) != Fraction(tau):
            bad.append("%s: O %s tau %s, expected %s %s" % (
                name, get["O"][0], get["tau"][0], O, tau))
        if num(get["sigma"][0]) != sigma:
            bad.append("%s: sigma %s, expected %s" % (
                name, get["sigma"][0], float(sigma)))
        e = abs(num(get["rho"][0]) - rho) / max(rho, Fraction(1, 10**300))
        worst = max(worst, float(e))
        if e > Fraction(1, 10**12):
            bad.append("%s: rho %s, expected %.17g" % (name, get["rho"][0], rho))
        if [t for t in p if t[0] in U_KW] != u:
            bad.append("%s: U differs from the usage file" % name)
        curve = [(num(t[1]), num(t[2])) for t in p if t[0] == "curve"]
        expect = [] if sigma < pts[0][0] else pts
        if curve != expect:
            bad.append("%s: %d curve records, expected %d" % (
                name, len(curve), len(expect)))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("profile.py: %d profiles agree; max relative rho error %.3g"
          % (len(want), worst))


main()
