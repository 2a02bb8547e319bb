#!/usr/bin/env python3
"""place.py DIR PLAN: an independent check of ovb-place by
exhaustive search, written from the placement rules alone.

Replays the applications of DIR/apps in order on the cluster and profiles
of DIR.  For each one, enumerates every assignment of its capsules to
distinct nodes and decides with exact rational arithmetic whether any
satisfies every rule (pinning, trust 0, Eq. 1 and Eq. 3 for cpu and net,
and net-rx where the cluster gives receive capacities, on each node, decided exactly with no safety margin: formats/plan.md).  Then:
ovb-place must have placed the application exactly when one exists, and
its assignment must be one of the feasible ones; the placed capsules join
the state.  Exit 0 and "agree N apps (P placed)" when all agree.
With --ffd (ovb-place --policy first-fit-decreasing) the applications
are replayed largest first (the largest over resources of the sum of its
capsules' Eq. 1 terms over the cluster's capacity; ties in arrival
order), and the assignment must use the lowest node indexes any feasible
one can (their least sum: first fit).
Grid: --grid 0, every profile of a resource has the same bin width g, and
plain reservations go up to the next multiple of g (as in risk.c)."""
import itertools
import math
import sys
from fractions import Fraction as F

import formats
from formats import grid_up

MARGIN = 0  # the exact rule of formats/plan.md: no safety margin


def load(d):
    cl = formats.read_cluster(d + "/cluster")
    rx = all("net-rx" in c for c in cl.values())
    res = ("cpu", "net", "net-rx") if rx else ("cpu", "net")
    nodes = {n: tuple(c[r] for r in res) for n, c in cl.items()}
    labels = {n: c["labels"] for n, c in cl.items()}
    prof = {}
    for q in formats.read_dists([d + "/profile"]):
        prof[q.key] = {"sigma": q.sigma, "rho": q.rho, "tau": q.tau,
                       "O": q.O, "width": q.width,
                       "intervals": float(q.n), "bins": q.bins}
    apps = [{"name": a.name, "caps": a.caps, "trust": a.trust,
             "spread": a.kv.get("spread")}
            for a in formats.read_apps(d + "/apps")]
    return nodes, prof, apps, labels, res


def needs(app, cap, prof, resources=("cpu", "net")):
    """Per resource (0 cpu, 1 net, 2 net-rx where placed): dict or None."""
    name, kv = cap
    out = []
    for r, res in enumerate(resources):
        lb = float(kv.get("lb-" + res, 0))
        O = kv.get("O")
        if "profile" in kv:
            q = prof.get((kv["profile"], res))
            if q is None:
                out.append(None)
                continue
            n = q["intervals"]
            pmf = {k: F(c, int(n)) for k, c in q["bins"].items()}
            out.append(dict(sigma=q["sigma"], rho=q["rho"], tau=q["tau"],
                            O=float(O) if O else q["O"], lb=lb, pmf=pmf))
        else:
            x = float(kv.get(res, 0))
            if not x > 0:
                out.append(None)
                continue
            g = 0.1 if r == 0 else 100000
            out.append(dict(sigma=x, rho=0.0, tau=1.0,
                            O=float(O) if O else 0.0, lb=lb,
                            pmf={grid_up(x, g): F(1)}, plain=x))
    return out


def term(n, tau_min):
    t = (F(n["sigma"]) * F(tau_min) + F(n["rho"])) * (1 - F(n["O"])) / F(tau_min)
    return max(t, F(n["lb"]))


def node_ok(members, cap, r):
    """members: list of needs on this node for resource r."""
    if not members:
        return True
    tmin = min(m["tau"] for m in members)
    load = sum(term(m, tmin) for m in members)
    if load > F(cap) * (1 - F(MARGIN)):
        return False
    omin = min(m["O"] for m in members)
    g = 0.1 if r == 0 else 100000
    if all("plain" in m for m in members):
        risk = F(1) if sum(F(m["plain"]) for m in members) > F(cap) else F(0)
    else:
        y = {0: F(1)}
        for m in members:
            z = {}
            for a, pa in y.items():
                for b, pb in m["pmf"].items():
                    z[a + b] = z.get(a + b, 0) + pa * pb
            y = z
        # values above cap: indices above the largest k with k g <= cap
        K = math.floor(cap / g)
        while (K + 1) * g <= cap:
            K += 1
        while K > 0 and K * g > cap:
            K -= 1
        risk = sum(p for k, p in y.items() if k > K)
    limit = F(omin) - (F(MARGIN) if omin > 0 else 0)
    return risk <= limit


def main():
    if sys.argv[1] == "--seeds":
        return many(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    print(check(sys.argv[1], sys.argv[2]))


def many(first, last, place_args):
    spread = "--spread" in place_args
    rx = "--rx" in place_args
    ffd = "--ffd" in place_args
    place_args = [a for a in place_args if a not in ("--spread", "--rx",
                                                     "--ffd")]
    if ffd:
        place_args += ["--policy", "first-fit-decreasing"]
    """Generates instances first..last, runs ovb-place on each, checks."""
    import os
    import subprocess
    import tempfile
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_place", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "gen", "place.py"))
    place_gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(place_gen)
    apps = placed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, last + 1):
            d = os.path.join(tmp, str(seed))
            os.mkdir(d)
            place_gen.generate(seed, d, spread, rx)
            with open(d + "/plan", "w") as out:
                subprocess.run(["ovb-place", "--grid", "0", *place_args,
                                d + "/cluster", d + "/apps", d + "/profile"],
                               stdout=out, check=True)
            try:
                msg = check(d, d + "/plan", ffd)
            except SystemExit as e:
                sys.exit("seed %d: %s" % (seed, e))
            a, p = msg.split()[1], msg.split()[3].lstrip("(")
            apps += int(a)
            placed += int(p)
    print("agree %d instances, %d apps (%d placed)" % (last - first + 1,
                                                       apps, placed))


def size(app, prof, nodes, res):
    """first-fit-decreasing's order: over the resources, the largest sum of
    the capsules' Eq. 1 terms (each over its own tau) relative to the
    cluster's capacity; 0 when a capsule has no need at all."""
    tot = [F(0)] * len(res)
    for c in app["caps"]:
        n = needs(app, c, prof, res)
        if all(x is None for x in n):
            return F(0)
        for r, x in enumerate(n):
            if x:
                tot[r] += term(x, x["tau"])
    caps = [sum(F(v[r]) for v in nodes.values()) for r in range(len(res))]
    return max([tot[r] / caps[r] for r in range(len(res)) if caps[r] > 0],
               default=F(0))


def check(d, plan, ffd=False):
    nodes, prof, apps, labels, res = load(d)
    if ffd:
        apps = sorted(apps, key=lambda a: -size(a, prof, nodes, res))
    index = {n: i for i, n in enumerate(nodes)}
    R = range(len(res))
    pl = formats.read_plan(plan)
    placed = {(a, c): node for a, c, node, _ in pl.place}
    rejected = {t[1] for t in pl.reject}
    state = {n: [[] for _ in R] for n in nodes}  # node -> needs per resource
    on_node = {n: set() for n in nodes}
    trust = {a["name"]: a["trust"] for a in apps}

    def t(a, b):
        return min(trust.get(a, {}).get(b, 1), trust.get(b, {}).get(a, 1))

    nplaced = 0
    for app in apps:
        caps = app["caps"]
        ns = [needs(app, c, prof, res) for c in caps]
        names = list(nodes)

        def ok(assign):
            key = app["spread"]
            if key:         # labelled nodes, distinct values of the label
                vals = [labels[node].get(key) for node in assign]
                if None in vals or len(set(vals)) < len(vals):
                    return False
            for (cname, kv), n, node in zip(caps, ns, assign):
                if "node" in kv and kv["node"] != node:
                    return False
                if any(t(app["name"], other) == 0 for other in on_node[node]):
                    return False
            for r in R:
                for node in set(assign):
                    mem = list(state[node][r]) + [n[r] for n, a in zip(ns, assign)
                                                  if a == node and n[r]]
                    if not node_ok(mem, nodes[node][r], r):
                        return False
            return True

        exists = any(ok(a) for a in itertools.permutations(names, len(caps)))
        got = [placed.get((app["name"], c[0])) for c in caps]
        if app["name"] in rejected:
            if exists:
                sys.exit("%s: rejected, but a placement exists" % app["name"])
            continue
        if None in got:
            sys.exit("%s: neither placed whole nor rejected" % app["name"])
        if not exists:
            sys.exit("%s: placed on %s, but no placement is feasible" % (app["name"], got))
        if not ok(got):
            sys.exit("%s: placed on %s, which breaks a rule" % (app["name"], got))
        if ffd:
            least = min(sum(index[n] for n in a) for a in
                        itertools.permutations(names, len(caps)) if ok(a))
            if sum(index[n] for n in got) != least:
                sys.exit("%s: placed on %s, not on the first nodes that "
                         "take it (index sum %d)" % (app["name"], got, least))
        for n, node in zip(ns, got):
            for r in R:
                if n[r]:
                    state[node][r].append(n[r])
            on_node[node].add(app["name"])
        nplaced += 1
    return "agree %d apps (%d placed)" % (len(apps), nplaced)


if __name__ == "__main__":
    main()
