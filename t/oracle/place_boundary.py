#!/usr/bin/python3
"""place_boundary.py: ovb-place and ovb-check against an exhaustive exact
oracle, on instances built to sit on the boundaries (t/gen/boundary.py).

  place_boundary.py [--kind KIND] [--place-args ARGS] [--keep DIR] A B
      for each seed A..B: generate the instance (t/gen/boundary.py), run
      `ovb-place` (from PATH) on it, `ovb-check` on the plan (it must exit 0
      with no violation), then the oracle below.  --keep copies each
      instance with a disagreement, with its plan, to DIR/SEED/ (also
      reproducible by `t/gen/boundary.py --kind KIND SEED DIR`).
  place_boundary.py --plan DIR PLAN
      the same checks on a given plan of DIR/cluster, DIR/apps and
      DIR/profile (when present).

The oracle is written from the placement contract alone (formats/plan.md,
formats/apps.md), with every decision exact: each number of a file means
the double it rounds to, and the arithmetic is over those doubles' exact
values (fractions.Fraction), with no safety margin.  It replays the plan's
placements in application order; for an application the plan rejects it
enumerates every assignment of its capsules to distinct nodes, given the
state at that point, and asserts that none satisfies every rule; for an
application the plan places it asserts that the assignment satisfies every
rule.  The rules: Sharc's cluster-wide admission, pinning, trust 0, Eq. 1
(tau_min, (1 - O), lower bounds) and Eq. 3 (the grid rule of lib/pmf.c,
Pr(Y > C) from the histograms' integer counts) per node and resource.

Applications are new arrivals (no op=modify or terminate, no Sharc RSL):
what t/gen/boundary.py writes.

Prints each disagreement as "seed S (KIND): reason", then one summary line
"N instances, A apps, P placed, R rejected: D disagreements" (with counts
by kind when D > 0); exits 1 on any disagreement, 2 on a tool error."""
import itertools
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction as F

RES = ("cpu", "net")


# ---- the double arithmetic of lib/pmf.c, replicated with Python floats ----

def grid_up(x, g):
    """ovb_grid_up: the least k with k*g >= x (0 for x <= 0)."""
    if not x > 0:
        return 0
    q = math.ceil(x / g)
    k = 1 if q < 1 else int(q)
    while k > 1 and float(k - 1) * g >= x:
        k -= 1
    while float(k) * g < x:
        k += 1
    return k


def grid_down(c, g):
    """ovb_grid_down: the largest k with k*g <= c."""
    q = math.floor(c / g)
    k = 0 if q < 0 else int(q)
    while float(k + 1) * g <= c:
        k += 1
    while k > 0 and float(k) * g > c:
        k -= 1
    return k


# ---- reading the files (only what the contract needs) ----

def records(path):
    with open(path) as f:
        for line in f:
            t = line.split("#", 1)[0].split()
            if t:
                yield t


def read_cluster(path):
    nodes = []
    for t in records(path):
        if t[0] == "node":
            nodes.append((t[1], (float(t[2]), float(t[4]))))
    return nodes


def read_profiles(path):
    prof = {}
    if not path or not os.path.exists(path):
        return prof
    cur = None
    for t in records(path):
        if t[0] == "profile":
            cur = prof.setdefault((t[1], t[2]), {"bins": {}})
        elif cur is not None and t[0] in ("sigma", "rho", "tau", "O",
                                          "width"):
            cur[t[0]] = float(t[1])
        elif cur is not None and t[0] == "intervals":
            cur["n"] = int(t[1])
        elif cur is not None and t[0] == "bin":
            if int(t[2]):
                cur["bins"][int(t[1])] = int(t[2])
    return prof


def read_apps(path):
    apps = []
    for t in records(path):
        if t[0] == "app":
            kv = dict(x.split("=", 1) for x in t[2:])
            apps.append({"name": t[1], "kv": kv, "caps": [], "trust": {}})
        elif t[0] == "capsule":
            apps[-1]["caps"].append((t[1], dict(x.split("=", 1)
                                                for x in t[2:])))
        elif t[0] == "trust":
            apps[-1]["trust"][t[1]] = float(t[2])
    return apps


def read_plan(path):
    placed, rejected, grid = {}, set(), 0
    for t in records(path):
        if t[0] == "place":
            placed[(t[1], t[2])] = t[3]
        elif t[0] == "reject":
            rejected.add(t[1])
        elif t[0] == "grid":
            grid = int(t[1])
    return placed, rejected, grid


# ---- the contract ----

class Need:
    """One capsule's effective QoS on one resource."""
    __slots__ = ("sigma", "rho", "tau", "O", "lb", "w", "n", "bins", "x",
                 "own")

    def __init__(self, sigma, rho, tau, O, lb, hist=None):
        self.sigma, self.rho = F(sigma), F(rho)
        self.tau, self.O, self.lb = F(tau), F(O), F(lb)
        if hist:
            self.w, self.n, self.bins = hist
            self.x = None
        else:
            self.w = self.n = self.bins = None
            self.x = sigma          # the double of a plain reservation
        self.own = self.term(self.tau)   # admission: tau_min = own tau

    def term(self, tmin):
        t = (self.sigma * tmin + self.rho) * (1 - self.O) / tmin
        return max(t, self.lb)


def pick(*v):
    for x in v:
        if x is not None:
            return float(x)
    return None


def effective(app, cap, prof):
    """[cpu Need or None, net Need or None] of one capsule."""
    name, kv = cap
    out = []
    for res in RES:
        lb = float(kv.get("lb-" + res, 0))
        if "profile" in kv:
            q = prof.get((kv["profile"], res))
            if q is None:
                out.append(None)
                continue
            tau = pick(kv.get("tau"), app["kv"].get("tau"), q["tau"])
            O = pick(kv.get("O"), app["kv"].get("O"), q["O"])
            out.append(Need(q["sigma"], q["rho"], tau, O, lb,
                            (q["width"], q["n"], q["bins"])))
        else:
            x = float(kv.get(res, 0))
            if not x > 0:
                out.append(None)
                continue
            tau = pick(kv.get("tau"), app["kv"].get("tau"), 1)
            O = pick(kv.get("O"), app["kv"].get("O"), 0)
            out.append(Need(x, 0.0, tau, O, lb))
    return out


def eq1(members, C):
    """None when Eq. 1 holds, else the reason."""
    tmin = min(m.tau for m in members)
    load = sum(m.term(tmin) for m in members)
    if load > F(C):
        return "Eq. 1: load %s > C %r (by %.3g, tau_min %s)" % (
            short(load), C, float(load - F(C)), short(tmin))
    return None


def risk(members, C, grid):
    """Eq. 3's Pr(Y > C), exact; and the grid width (0: deterministic)."""
    prof = [m for m in members if m.bins is not None]
    if not prof:
        s = sum(F(m.x) for m in members)
        return (F(1) if s > F(C) else F(0)), 0.0
    g = max(m.w for m in prof)
    if grid and C / grid > g:
        g = C / grid
    K = grid_down(C, g)
    top = K + 1                      # every index above K, lumped
    y, den = {0: 1}, 1
    for m in members:
        if m.bins is not None:
            u = {}
            for k, c in m.bins.items():
                j = min(grid_up(k * m.w, g), top)
                u[j] = u.get(j, 0) + c
            n = m.n
        else:
            u, n = {min(grid_up(m.x, g), top): 1}, 1
        z = {}
        for a, ca in y.items():
            for b, cb in u.items():
                j = min(a + b, top)
                z[j] = z.get(j, 0) + ca * cb
        y, den = z, den * n
    return F(y.get(top, 0), den), g


def eq3(members, C, grid):
    omin = min(m.O for m in members)
    pr, g = risk(members, C, grid)
    if pr > omin:
        return "Eq. 3: Pr(Y>C) %s > O_min %s (C %r, %s)" % (
            short(pr), short(omin), C,
            "grid %r" % g if g else "deterministic")
    return None


def short(q):
    """An exact rational, shortly: p/q when small, else a decimal."""
    if q.denominator < 10 ** 6:
        return str(q)
    return "%.17g(+%.2g)" % (float(q), float(q - F(float(q))))


def tightness(members, C, grid):
    """How close a feasible node is to its limits (for the reason)."""
    out = []
    tmin = min(m.tau for m in members)
    load = sum(m.term(tmin) for m in members)
    slack = F(C) - load
    if slack == 0:
        out.append("Eq. 1 load = C")
    elif slack <= F(C) * F(1, 10 ** 12):
        out.append("Eq. 1 load within C*1e-12 of C")
    omin = min(m.O for m in members)
    pr, g = risk(members, C, grid)
    if pr == omin:
        out.append("Eq. 3 Pr(Y>C) = O_min = %s" % short(pr))
    elif omin - pr <= F(1, 10 ** 12):
        out.append("Eq. 3 Pr(Y>C) %s within 1e-12 of O_min" % short(pr))
    elif pr:
        out.append("Eq. 3 Pr(Y>C) %s < O_min %s" % (short(pr), short(omin)))
    return out


def node_fits(members, C, grid):
    """None when Eq. 1 and Eq. 3 hold, else the reasons."""
    return "; ".join(x for x in (eq1(members, C), eq3(members, C, grid))
                     if x) or None


class State:
    def __init__(self, nodes, apps, grid):
        self.nodes = nodes                      # [(name, (Ccpu, Cnet))]
        self.idx = {n: i for i, (n, _) in enumerate(nodes)}
        self.grid = grid
        self.members = [([], []) for _ in nodes]
        self.on = [set() for _ in nodes]        # application names
        self.total = [F(0), F(0)]
        self.cap = [sum((F(c[r]) for _, c in nodes), F(0)) for r in (0, 1)]
        self.trust = {a["name"]: a["trust"] for a in apps}

    def t0(self, a, b):
        return (self.trust.get(a, {}).get(b, 1) == 0 or
                self.trust.get(b, {}).get(a, 1) == 0)

    def admission(self, ns):
        for r in (0, 1):
            load = self.total[r] + sum(n[r].own for n in ns if n[r])
            if load > self.cap[r]:
                return "admission: %s load %s > cluster %s" % (
                    RES[r], short(load), short(self.cap[r]))
        return None

    def fits(self, app, cap, need, j):
        """None when the capsule may go on node j now, else the reason."""
        name, (C) = self.nodes[j]
        pin = cap[1].get("node")
        if pin is not None and pin != name:
            return "pinned to %s" % pin
        for other in self.on[j]:
            if self.t0(app["name"], other):
                return "trust 0 with %s" % other
        for r in (0, 1):
            if need[r]:
                why = node_fits(self.members[j][r] + [need[r]], C[r],
                                self.grid)
                if why:
                    return "%s %s: %s" % (name, RES[r], why)
        return None

    def tight(self, ns, assign):
        out = []
        for n, j in zip(ns, assign):
            for r in (0, 1):
                if n[r]:
                    out += ["%s %s %s" % (self.nodes[j][0], RES[r], t)
                            for t in tightness(self.members[j][r] + [n[r]],
                                               self.nodes[j][1][r],
                                               self.grid)]
        return "; ".join(out) or "no limit reached"

    def add(self, app, ns, assign):
        for n, j in zip(ns, assign):
            for r in (0, 1):
                if n[r]:
                    self.members[j][r].append(n[r])
                    self.total[r] += n[r].own
            self.on[j].add(app["name"])


def oracle(d, plan):
    """Replays the plan: [(kind, reason)], apps, placed, rejected."""
    nodes = read_cluster(os.path.join(d, "cluster"))
    prof = read_profiles(os.path.join(d, "profile"))
    apps = read_apps(os.path.join(d, "apps"))
    placed, rejected, grid = read_plan(plan)
    st = State(nodes, apps, grid)
    out = []
    nplaced = nrej = 0
    for app in apps:
        caps, an = app["caps"], app["name"]
        ns = [effective(app, c, prof) for c in caps]
        got = [placed.get((an, c[0])) for c in caps]
        adm = st.admission(ns)
        if an in rejected:
            nrej += 1
            if any(got):
                out.append(("incomplete", "%s: both placed and rejected" % an))
            if adm:
                continue
            ok = [[st.fits(app, c, n, j) is None for j in range(len(nodes))]
                  for c, n in zip(caps, ns)]
            for perm in itertools.permutations(range(len(nodes)), len(caps)):
                if all(ok[i][j] for i, j in enumerate(perm)):
                    where = " ".join("%s->%s" % (c[0], nodes[j][0])
                                     for c, j in zip(caps, perm))
                    out.append(("rejected-placeable", "%s rejected, but "
                                "placeable: %s (%s)" % (
                                    an, where, st.tight(ns, perm))))
                    break
            continue
        if None in got:
            out.append(("incomplete", "%s: neither placed whole nor "
                        "rejected (%s)" % (an, got)))
            continue
        if any(g not in st.idx for g in got):
            out.append(("placed-infeasible", "%s: placed on an unknown node"
                        " %s" % (an, got)))
            continue
        nplaced += 1
        assign = [st.idx[g] for g in got]
        whys = []
        if adm:
            whys.append(adm)
        if len(set(assign)) != len(assign):
            whys.append("capsules not on distinct nodes %s" % got)
        for c, n, j in zip(caps, ns, assign):
            w = st.fits(app, c, n, j)
            if w:
                whys.append("%s: %s" % (c[0], w))
        if whys:
            out.append(("placed-infeasible", "%s placed on %s, breaks %s" % (
                an, ",".join(got), "; ".join(whys))))
        st.add(app, ns, assign)
    return out, len(apps), nplaced, nrej


# ---- driving the tools ----

def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def inputs(d):
    files = [os.path.join(d, "cluster"), os.path.join(d, "apps")]
    p = os.path.join(d, "profile")
    return files, ([p] if os.path.exists(p) else [])


def check_plan(d, plan):
    """ovb-check, then the oracle: [(kind, reason)] and the counts."""
    out = []
    base, profs = inputs(d)
    ck = run(["ovb-check", *base, plan, *profs])
    if ck.returncode not in (0, 1) or ck.stderr:
        out.append(("tool-error", "ovb-check exit %d: %s" % (
            ck.returncode, ck.stderr.strip()[:200])))
    for line in ck.stdout.splitlines():
        t = line.split()
        out.append(("check-" + (t[3] if len(t) > 3 else "?"), line))
    if ck.returncode == 1 and not ck.stdout:
        out.append(("check-?", "ovb-check exit 1 without a violation"))
    dis, a, p, r = oracle(d, plan)
    return out + dis, a, p, r


def main(argv):
    if argv[:1] == ["--plan"] and len(argv) == 3:
        dis, a, p, r = check_plan(argv[1], argv[2])
        for kind, why in dis:
            print("%s (%s): %s" % (argv[2], kind, why))
        return summary(1, a, p, r, dis)
    kind, place_args, keep = None, [], None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--kind":
            kind = argv[1]
        elif argv[0] == "--keep":
            keep = argv[1]
        elif argv[0] == "--place-args":
            place_args = argv[1].split()
        else:
            sys.exit(__doc__)
        argv = argv[2:]
    if len(argv) != 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "gen"))
    import boundary
    A, B = int(argv[0]), int(argv[1])
    alldis, na, npl, nrej = [], 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(A, B + 1):
            d = os.path.join(tmp, "i")
            os.makedirs(d, exist_ok=True)
            for f in os.listdir(d):
                os.unlink(os.path.join(d, f))
            k = boundary.generate(seed, d, kind)
            with open(os.path.join(d, "args")) as f:
                args = f.read().split()
            base, profs = inputs(d)
            plan = os.path.join(d, "plan")
            pl = run(["ovb-place", *args, *place_args, *base, *profs,
                      "-o", plan])
            if pl.returncode != 0:
                dis = [("tool-error", "ovb-place exit %d: %s" % (
                    pl.returncode, pl.stderr.strip()[:200]))]
                a = p = r = 0
            else:
                dis, a, p, r = check_plan(d, plan)
            na, npl, nrej = na + a, npl + p, nrej + r
            for kd, why in dis:
                print("seed %d (%s, %s): %s" % (seed, k, kd, why))
                sys.stdout.flush()
            alldis += dis
            if dis and keep:
                import shutil
                shutil.copytree(d, os.path.join(keep, str(seed)),
                                dirs_exist_ok=True)
    return summary(B - A + 1, na, npl, nrej, alldis)


def summary(n, a, p, r, dis):
    line = "%d instances, %d apps, %d placed, %d rejected: %d disagreements" % (
        n, a, p, r, len(dis))
    if dis:
        by = {}
        for kind, _ in dis:
            by[kind] = by.get(kind, 0) + 1
        line += " (%s)" % ", ".join("%s %d" % kv for kv in sorted(by.items()))
    print(line)
    if any(k == "tool-error" for k, _ in dis):
        return 2
    return 1 if dis else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
