#!/usr/bin/env python3
"""check.py: an independent placement checker for the ovb-check
tests (python3 stdlib only).

    check.py --cluster F --apps F [--apps F]... [--profile F]...
                    --plan SKELETON --fill OUT --expect OUT

Reads a cluster, apps (several: one arrival stream; op=modify replaces,
op=terminate removes), profiles and a plan of which only the place, grid,
mode and reject records count, and writes:

  --fill    the plan with every stated record recomputed: qos (effective
            sigma, rho, tau, O per resource used), cpu-resv (section 4.1:
            x = (1-O) rho, y = rho/sigma, weight (1-O) sigma; without rho or
            sigma y = tau, x = (1-O) sigma tau), tbucket (net sigma, rho),
            risk (PR = the double nearest the exact Pr(Y > C), OMIN, LOAD,
            CAPACITY) for every cluster node and resource that a capsule
            uses, in canonical order;
  --expect  the violations that plan has, one "NODE RES KIND" per line,
            sorted (kinds eq1, lb, eq3, distinct, trust, pin, node, profile,
            unplaced, incomplete; "-" for no node or resource).

The semantics are the shared contract of ovb-place and ovb-check:
effective values (capsule O=/tau= over app O=/tau= over the profile's;
plain: sigma = X, rho = 0, tau 1, O 0, U a point mass, X = 0 uses none);
Eq. 1 decided exactly (rationals of the doubles; LOAD stated as the sum
in doubles, term by term in plan order): t = (sigma tau_min + rho)
(1 - O) / tau_min, LOAD = sum max(t, lb), an lb violation when LOAD > C
but the sum of the t's is not (a plan of "mode aggregate": t = 0, LOAD the
sum of the lower bounds); Eq. 3 exactly: every histogram bin's upper
edge k*w (a double) to grid index grid_up(k*w, g) (doubles, as risk.c),
g the largest bin width (at least C/POINTS with a grid record), plain
reservations at grid_up(X, g), Y's integer counts by convolution,
Pr(Y > C) = Fraction(counts above grid_down(C, g), product of the n's)
against Fraction(O_min) (the double's exact value); with no profiled
capsule, Pr = 1 if the exact sum of the X's exceeds C, else 0."""

import argparse
from fractions import Fraction

import formats
from formats import grid_down, grid_up

RES = ("cpu", "net")   # and net-rx where the cluster gives it (main)


def read_profiles(paths):
    prof = {}
    for d in formats.read_dists(paths):
        if d.kind == "profile":
            prof[d.key] = dict(sigma=d.sigma, rho=d.rho, tau=d.tau, O=d.O,
                               width=d.width, bins={k: c for k, c in
                                                    d.bins.items() if c})
    return prof


def read_apps(paths):
    """name -> app dict, the live definitions, in first-arrival order."""
    apps = {}
    for a in formats.read_apps(paths):
        cur = {"name": a.name, "O": a.kv.get("O"), "tau": a.kv.get("tau"),
               "op": a.kv.get("op", "new"), "caps": [], "trust": a.trust}
        if cur["op"] == "terminate":
            apps.pop(a.name, None)
        else:
            apps[a.name] = cur
        for name, kv in a.caps:
            c = {"name": name}
            for k in ("profile", "node", "O", "tau"):
                c[k] = kv.get(k)
            for k in ("cpu", "net", "net-rx", "lb-cpu", "lb-net",
                      "lb-net-rx"):
                c[k] = float(kv.get(k, "0"))
            cur["caps"].append(c)
    return apps


def pick(*v):
    for x in v:
        if x is not None:
            return float(x)


def effective(app, c, prof):
    e = {}
    for r in RES:
        lb = c["lb-" + r]
        if c["profile"]:
            q = prof.get((c["profile"], r))
            if q is None:
                continue
            e[r] = dict(sigma=q["sigma"], rho=q["rho"],
                        tau=pick(c["tau"], app["tau"], q["tau"]),
                        O=pick(c["O"], app["O"], q["O"]), lb=lb,
                        width=q["width"], bins=q["bins"])
        elif c[r] > 0:
            e[r] = dict(sigma=c[r], rho=0.0, tau=pick(c["tau"], app["tau"],
                        1.0), O=pick(c["O"], app["O"], 0.0), lb=lb,
                        width=None, bins=None)
    return e


def pr_exceed(members, C, grid):
    """Exact Pr(Y > C) of the members' effective needs."""
    widths = [e["width"] for e in members if e["width"]]
    if not widths:
        s = sum(Fraction(e["sigma"]) for e in members)
        return Fraction(1 if s > Fraction(C) else 0)
    g = max(widths)
    if grid and C / float(grid) > g:
        g = C / float(grid)
    y, total = {0: 1}, 1
    for e in members:
        if e["bins"] is not None:
            u = {}
            for k, c in e["bins"].items():
                j = grid_up(float(k) * e["width"], g)
                u[j] = u.get(j, 0) + c
        else:
            u = {grid_up(e["sigma"], g): 1}
        r = {}
        for i, a in y.items():
            for j, b in u.items():
                r[i + j] = r.get(i + j, 0) + a * b
        y = r
        total *= sum(u.values())
    K = grid_down(C, g)
    return Fraction(sum(v for k, v in y.items() if k > K), total)


def fmt(x):
    if x == int(x) and abs(x) < 2 ** 53:
        return str(int(x))
    return repr(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--apps", action="append", required=True)
    ap.add_argument("--profile", action="append", default=[])
    ap.add_argument("--plan", required=True)
    ap.add_argument("--fill", required=True)
    ap.add_argument("--expect", required=True)
    a = ap.parse_args()
    nodes = formats.read_cluster(a.cluster)
    global RES
    if nodes and all("net-rx" in n for n in nodes.values()):
        RES = ("cpu", "net", "net-rx")
    prof = read_profiles(a.profile)
    apps = read_apps(a.apps)
    plan = formats.read_plan(a.plan)
    grid, places = plan.grid or 0, plan.place
    rejects = [" ".join(t) for t in plan.reject]
    out = ["ovb-plan 1"]
    if grid:
        out.append(f"grid {grid}")
    agg = plan.mode == "aggregate"
    if agg:
        out.append("mode aggregate")
    viol = []
    caps = []   # (app, capsule dict, node, effective)
    for an, cn, node, pname in places:
        app = apps[an]
        c = next(x for x in app["caps"] if x["name"] == cn)
        e = effective(app, c, prof)
        caps.append((app, c, node, e))
        out.append(f"place {an} {cn} {node} {pname}")
        for r in RES:
            if r in e:
                q = e[r]
                out.append(f"qos {an} {cn} {r} {fmt(q['sigma'])} "
                           f"{fmt(q['rho'])} {fmt(q['tau'])} {fmt(q['O'])}")
        if "cpu" in e:
            q = e["cpu"]
            w = (1 - q["O"]) * q["sigma"]
            if q["rho"] > 0 and q["sigma"] > 0:
                x, y = (1 - q["O"]) * q["rho"], q["rho"] / q["sigma"]
            else:
                x, y = (1 - q["O"]) * q["sigma"] * q["tau"], q["tau"]
            out.append(f"cpu-resv {an} {cn} {fmt(x)} {fmt(y)} {fmt(w)}")
        if "net" in e:
            out.append(f"tbucket {an} {cn} {fmt(e['net']['sigma'])} "
                       f"{fmt(e['net']['rho'])}")
        if c["node"] and c["node"] != node:
            viol.append((node, "-", "pin"))
        if (c["profile"] or "-") != pname:
            viol.append((node, "-", "profile"))
    seen = set()
    for app, c, node, e in caps:
        key = (app["name"], node)
        if key in seen:
            continue
        seen.add(key)
        if sum(1 for x in caps if (x[0]["name"], x[2]) == key) > 1:
            viol.append((node, "-", "distinct"))
    unknown = []
    for app, c, node, e in caps:
        if node not in nodes and node not in unknown:
            unknown.append(node)
            viol.append((node, "-", "node"))
    rejected = {r.split()[1] for r in rejects}
    for an, app in apps.items():
        if not app["caps"]:
            continue
        placed = [c for c in app["caps"]
                  if any(x[1] is c for x in caps)]
        if not placed and an not in rejected:
            viol.append(("-", "-", "unplaced"))
        elif placed and len(placed) < len(app["caps"]):
            viol.append(("-", "-", "incomplete"))
    risk = []
    for nn, capa in nodes.items():
        here = [x for x in caps if x[2] == nn]
        napps = []
        for x in here:
            if x[0] not in napps:
                napps.append(x[0])
        for i in range(len(napps)):
            for j in range(i + 1, len(napps)):
                A, B = napps[i], napps[j]
                if min(A["trust"].get(B["name"], 1.0),
                       B["trust"].get(A["name"], 1.0)) <= 0:
                    viol.append((nn, "-", "trust"))
        for r in RES:
            m = [x[3][r] for x in here if r in x[3]]
            if not m:
                continue
            C = capa[r]
            tmin = min(q["tau"] for q in m)
            omin = min(q["O"] for q in m)
            load = load0 = 0.0
            for q in m:
                t = 0.0 if agg else \
                    (q["sigma"] * tmin + q["rho"]) * (1 - q["O"]) / tmin
                load0 += t
                load += t if t > q["lb"] else q["lb"]
            # the decision is exact (formats/plan.md): rationals of the
            # doubles; the stated LOAD stays the double sum
            T = Fraction(tmin)
            xt = [Fraction(0) if agg else
                  (Fraction(q["sigma"]) * T + Fraction(q["rho"])) *
                  (1 - Fraction(q["O"])) / T for q in m]
            xload0 = sum(xt, Fraction(0))
            xload = sum((max(t, Fraction(q["lb"])) for t, q in zip(xt, m)),
                        Fraction(0))
            if xload > Fraction(C):
                viol.append((nn, r, "lb" if xload0 <= Fraction(C) else "eq1"))
            pr = pr_exceed(m, C, grid)
            if pr > Fraction(omin):
                viol.append((nn, r, "eq3"))
            risk.append(f"risk {nn} {r} {fmt(float(pr))} {fmt(omin)} "
                        f"{fmt(load)} {fmt(C)}")
    out += risk + rejects
    with open(a.fill, "w") as f:
        f.write("\n".join(out) + "\n")
    with open(a.expect, "w") as f:
        for v in sorted(viol):
            f.write(" ".join(v) + "\n")


if __name__ == "__main__":
    main()
