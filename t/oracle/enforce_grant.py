#!/usr/bin/python3
"""enforce_grant.py TARGET CLUSTER APPS PROFILE PLAN: checks a plan placed
with `ovb-place --enforce TARGET` (formats/plan.md, `enforce`)
independently of lib/enforce.c, in exact rationals of the doubles the
files' decimals round to.  Prints one line per violation and exits 1 if
any; prints "ok N" (N capsules checked) otherwise.

Checked, for every placed profiled capsule on TARGET's resource (tc: net;
the others: cpu):
- the plan's record `enforce` names TARGET, with HZ, MTU and DLCAP;
- its qos burst rho' is at least its profile's rho, and so is tbucket's;
- tc: rho' is exactly the burst tc grants, computed here: from rho, the
  least whole byte b with b >= MTU and b >= ceil(ceil(8 max(sigma,
  rate)) / 8 / HZ), rate = ceil(8 (sigma tau + rho')(1 - O)/tau) / 8
  (htb's rate, the Eq. 1 term, in whole bit/s), repeated until it holds
  (ceil(rho) when it already does: then rho' = rho);
- Eq. 1 on the stated numbers, per node: sum over its capsules of
  max((sigma tau_min + rho')(1 - O)/tau_min, lb) <= C, exactly (lb the
  apps file's lb-cpu=/lb-net=; a plain capsule's sigma, rho 0)."""
import math
import sys
from fractions import Fraction as F

from formats import records


def num(s):
    return F(float(s))


def main():
    target, cl, apps, prof, plan = sys.argv[1:6]
    res = "net" if target == "tc" else "cpu"
    cap = {}
    for t in records(cl):
        if t[0] == "node":
            cap[t[1]] = {"cpu": num(t[2]), "net": num(t[4])}
    lb = {}
    app = None
    for t in records(apps):
        if t[0] == "app":
            app = t[1]
        elif t[0] == "capsule":
            kv = dict(x.split("=", 1) for x in t[2:] if "=" in x)
            key = "lb-" + res
            lb[(app, t[1])] = num(kv[key]) if key in kv else F(0)
    pr = {}
    cur = None
    for t in records(prof):
        if t[0] == "profile":
            cur = (t[1], t[2])
            pr[cur] = {}
        elif t[0] in ("sigma", "rho"):
            pr[cur][t[0]] = t[1]
    enforce = None
    place, qos, tbucket = {}, {}, {}
    for t in records(plan):
        if t[0] == "enforce":
            enforce = t
        elif t[0] == "place":
            place[(t[1], t[2])] = (t[3], t[4])
        elif t[0] == "qos" and t[3] == res:
            qos[(t[1], t[2])] = t[4:8]
        elif t[0] == "tbucket":
            tbucket[(t[1], t[2])] = t[3:5]
    bad = []
    if not enforce or target not in enforce[1].split(","):
        bad.append("the plan has no 'enforce' record naming %s" % target)
        print("\n".join(bad))
        sys.exit(1)
    hz, mtu = int(enforce[2]), int(enforce[3])
    n = 0
    bynode = {}
    for key, (node, profile) in place.items():
        if key not in qos:
            continue
        sigma, rho2, tau, O = qos[key]
        bynode.setdefault(node, []).append((key, sigma, rho2, tau, O))
        if profile == "-":
            continue
        n += 1
        p = pr[(profile, res)]
        if float(p["sigma"]) != float(sigma):
            bad.append("%s/%s: sigma %s, its profile's %s" % (key + (sigma, p["sigma"])))
        if float(rho2) < float(p["rho"]):
            bad.append("%s/%s: rho %s below its profile's %s" % (key + (rho2, p["rho"])))
        if target == "tc":
            if key in tbucket and float(tbucket[key][1]) != float(rho2):
                bad.append("%s/%s: tbucket rho %s, qos %s" % (key + (tbucket[key][1], rho2)))
            want = granted_tc(num(p["sigma"]), num(p["rho"]), num(tau),
                              num(O), lb[key], hz, mtu)
            if num(rho2) != want:
                bad.append("%s/%s: rho %s, tc grants %s" % (key + (rho2, want)))
    for node, caps in bynode.items():
        tmin = min(num(c[3]) for c in caps)
        load = sum(max((num(s) * tmin + num(r)) * (1 - num(o)) / tmin,
                       lb.get(k, F(0))) for k, s, r, _, o in caps)
        if load > cap[node][res]:
            bad.append("node %s %s: Eq. 1 load %s > C %s" % (
                node, res, float(load), float(cap[node][res])))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("ok %d" % n)


def granted_tc(sigma, rho, tau, O, lb, hz, mtu):
    """The burst tc grants: see the head comment (htb's rate is at least
    8 bit/s, its ceil at least the rate)."""
    b = F(math.ceil(rho))
    r = rho
    for _ in range(64):
        term = max((sigma * tau + r) * (1 - O) / tau, lb)
        rate = max(math.ceil(8 * term), 8)
        ceil_ = max(math.ceil(8 * sigma), rate, 8)
        # in doubles, as the kernel's rule is stated: ceil(ceil/8/HZ)
        need = max(mtu, math.ceil(float(ceil_) / 8 / float(hz)))
        if math.ceil(r) >= need:
            return r
        r = F(need)
    raise SystemExit("no burst converges")


main()
