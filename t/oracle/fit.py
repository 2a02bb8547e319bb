#!/usr/bin/env python3
"""fit.py: an independent check of ovb-fit by exhaustive search, written
from the placement rules alone (formats/plan.md), reading files with
formats.py.

    fit.py more DIR ANSWER [PLAN]
    fit.py nodes DIR ANSWER [PLAN CLUSTER]

more: DIR holds cluster, apps (the applications of the plan, then the
candidate named in ANSWER's `fit more` record), profile and plan (the
placement ovb-fit added to).  For every point of ANSWER (its O given to
every capsule of the candidate when there are several points, as
--curve does; as the apps say when there is one) it finds by exhaustive
search the most copies that can be placed together on top of the plan,
M (copies interchangeable: their node tuples taken in non-decreasing
order; with several capsules, up to COUNT + 1, and only up to COUNT when
ruling COUNT + 1 out takes more than 20,000 tries).  ovb-fit's COUNT (copies placed one after another by ovb-place's
policy) must be at most M, and equal to M when the candidate has one
capsule (then no choice of a node can hinder a later copy).  With PLAN
(ovb-fit's --plan-out for a single point): every rule holds in it, it
holds exactly COUNT copies, and no placement of one more copy exists on
top of it -- the answer is exact for the policy's placements.

nodes: DIR holds apps and profile; the shape's capacities are ANSWER's.
For every point, the fewest identical nodes on which every application
can be placed (exhaustive; empty nodes are interchangeable), k*;
ovb-fit's COUNT must be at least k*.  With PLAN and CLUSTER: CLUSTER is
COUNT nodes of the shape and every rule holds in PLAN.

Rules: capsules of an application on distinct nodes; pins; trust 0
(min of the two applications' records; copies carry the candidate's own);
per node and resource Eq. 1 (tau_min, (1 - O), lb) and Eq. 3 (Pr(Y > C)
<= O_min, exact rationals of the bins' integer counts on the grid of the
largest bin width: --grid 0), plain capsules alone by their exact sum.
Prints "agree ..." and exits 0, or exits with the disagreement."""
import functools
import itertools
import sys
from fractions import Fraction as F

import formats
from formats import grid_down, grid_up

RES = ("cpu", "net")


def pick(*v):
    for x in v:
        if x is not None:
            return x
    return None


class Model:
    def __init__(self, prof_path, apps_path):
        self.prof = {}
        for d in formats.read_dists([prof_path]):
            if d.kind == "profile":
                self.prof[d.key] = d
        self.apps = {a.name: a for a in formats.read_apps(apps_path)}

    def needs(self, app, O=None):
        """Per capsule: (name, kv, (need_cpu, need_net)); a need is a
        hashable tuple or None.  O: every capsule at that tolerance."""
        out = []
        for cname, kv in app.caps:
            ns = []
            for res in RES:
                aO = app.kv.get("O") if O is None else None
                cO = kv.get("O") if O is None else None
                o = pick(cO, aO, None if O is None else repr(O))
                tau = pick(kv.get("tau"), app.kv.get("tau"))
                lb = float(kv.get("lb-" + res, 0))
                if "profile" in kv:
                    d = self.prof.get((kv["profile"], res))
                    if d is None:
                        ns.append(None)
                        continue
                    bins = tuple(sorted((k, c) for k, c in d.bins.items() if c))
                    ns.append(("p", d.sigma, d.rho,
                               float(tau) if tau else d.tau,
                               float(o) if o is not None else d.O, lb,
                               d.width, bins, d.n))
                else:
                    x = float(kv.get(res, 0))
                    if not x > 0:
                        ns.append(None)
                        continue
                    ns.append(("x", x, 0.0, float(tau) if tau else 1.0,
                               float(o) if o is not None else 0.0, lb))
            out.append((cname, kv, tuple(ns)))
        return out


def term(m, tmin):
    t = (F(m[1]) * F(tmin) + F(m[2])) * (1 - F(m[4])) / F(tmin)
    return max(t, F(m[5]))


@functools.lru_cache(maxsize=None)
def node_ok(cap, members):
    """members: a sorted tuple of needs of one resource on one node."""
    if not members:
        return True
    tmin = min(m[3] for m in members)
    if sum(term(m, tmin) for m in members) > F(cap):
        return False
    omin = min(m[4] for m in members)
    prof = [m for m in members if m[0] == "p"]
    if not prof:
        return sum(F(m[1]) for m in members) <= F(cap) or omin >= 1
    g = max(m[6] for m in prof)
    y, den = {0: 1}, 1
    for m in members:
        if m[0] == "p":
            u = {}
            for k, c in m[7]:
                j = grid_up(float(k) * m[6], g)
                u[j] = u.get(j, 0) + c
            den *= m[8]
        else:
            u = {grid_up(m[1], g): 1}
        z = {}
        for a, pa in y.items():
            for b, pb in u.items():
                z[a + b] = z.get(a + b, 0) + pa * pb
        y = z
    K = grid_down(cap, g)
    return F(sum(c for k, c in y.items() if k > K), den) <= F(omin)


class State:
    """Per node: the needs on it per resource, and the applications."""

    def __init__(self, nodes):
        self.nodes = nodes          # name -> (cpu, net)
        self.mem = {n: ((), ()) for n in nodes}
        self.apps = {n: frozenset() for n in nodes}

    def copy(self):
        s = State.__new__(State)
        s.nodes, s.mem, s.apps = self.nodes, dict(self.mem), dict(self.apps)
        return s

    def with_app(self, name, needs, assign):
        s = self.copy()
        for (_, _, ns), node in zip(needs, assign):
            mem = list(s.mem[node])
            for r in (0, 1):
                if ns[r] is not None:
                    mem[r] = tuple(sorted(mem[r] + (ns[r],)))
            s.mem[node] = tuple(mem)
            s.apps[node] = s.apps[node] | {name}
        return s


class Trust:
    def __init__(self, model, copies_of=None):
        self.t = {a.name: a.trust for a in model.apps.values()}
        self.copies_of = copies_of

    def of(self, a):
        if self.copies_of and a.startswith(self.copies_of + "+"):
            a = self.copies_of
        return self.t.get(a, {})

    def zero(self, a, b):
        # a copy's name is its own (others' records do not name it)
        ta = self.of(a)
        tb = self.t.get(b, {}) if not (self.copies_of and b.startswith(
            self.copies_of + "+")) else self.of(b)
        return min(ta.get(b, 1), tb.get(a, 1)) == 0


def ok(state, trust, name, needs, assign):
    if len(set(assign)) < len(assign):
        return False
    for (_, kv, _), node in zip(needs, assign):
        if "node" in kv and kv["node"] != node:
            return False
        if any(trust.zero(name, b) for b in state.apps[node]):
            return False
    s = state.with_app(name, needs, assign)
    for node in set(assign):
        for r in (0, 1):
            if not node_ok(state.nodes[node][r], s.mem[node][r]):
                return False
    return True


def placed_state(model, nodes, plan_path, trust, O=None, cand=None):
    """The state of a plan's placements; every rule checked."""
    pl = formats.read_plan(plan_path)
    by_app = {}
    for a, c, node, _ in pl.place:
        by_app.setdefault(a, {})[c] = node
    s = State(nodes)
    for a, caps in by_app.items():
        base = cand if cand and a.startswith(cand + "+") else a
        app = model.apps[base]
        needs = model.needs(app, O if base == cand else None)
        assign = [caps.get(cn) for cn, _, _ in needs]
        if None in assign or len(caps) != len(needs):
            sys.exit("%s: not placed whole in %s" % (a, plan_path))
        if any(n not in nodes for n in assign):
            sys.exit("%s: on a node not in the cluster" % a)
        if not ok(s, trust, a, needs, assign):
            sys.exit("%s: placed on %s, which breaks a rule" % (a, assign))
        s = s.with_app(a, needs, assign)
    return s, by_app


class Budget(Exception):
    pass


def max_copies(state, trust, cand, needs, stop, budget=None):
    """The most copies placeable together (up to stop); Budget when more
    than budget placements were tried."""
    opts = [t for t in itertools.permutations(sorted(state.nodes), len(needs))]
    best = 0
    tried = 0

    def dfs(s, start, depth):
        nonlocal best, tried
        best = max(best, depth)
        if best >= stop:
            return
        for i in range(start, len(opts)):
            tried += 1
            if budget and tried > budget:
                raise Budget()
            name = "%s+%d" % (cand, 1000000 + depth)
            if ok(s, trust, name, needs, opts[i]):
                dfs(s.with_app(name, needs, opts[i]), i, depth + 1)
                if best >= stop:
                    return
    dfs(state, 0, 0)
    return best


def read_answer(path):
    """The fit record, the points (O, COUNT, BOUND), and whether the
    search was exhaustive."""
    recs = list(formats.records(path))
    fit = next(t for t in recs if t[0] == "fit")
    fit.append(next(t for t in recs if t[0] == "search")[1] == "exhaustive")
    pts = [(float(t[1]), int(t[2]), t[4]) for t in recs if t[0] == "point"]
    return fit, pts


def more(d, answer, plan=None):
    fit, pts = read_answer(answer)
    cand = fit[2]
    model = Model(d + "/profile", d + "/apps")
    cl = formats.read_cluster(d + "/cluster")
    nodes = {n: (c["cpu"], c["net"]) for n, c in cl.items()}
    trust = Trust(model, cand)
    base, _ = placed_state(model, nodes, d + "/plan", trust)
    app = model.apps[cand]
    single = len(app.caps) == 1 or fit[-1]     # exhaustive: equal
    report = []
    for O, count, bound in pts:
        needs = model.needs(app, O if len(pts) > 1 else None)
        if bound != "exact":
            sys.exit("O=%g: bound %s" % (O, bound))
        try:
            m = max_copies(base, trust, cand, needs, count + 1,
                           None if single else 20000)
        except Budget:
            # too many to rule count + 1 out: at least count must fit
            m = max_copies(base, trust, cand, needs, count)
            if m < count:
                sys.exit("O=%g: ovb-fit says %d copies fit, the most that "
                         "can be placed together is %d" % (O, count, m))
            report.append("%g:%d/>=%d" % (O, count, m))
            continue
        if count > m:
            sys.exit("O=%g: ovb-fit says %d copies fit, the most that can "
                     "be placed together is %d" % (O, count, m))
        if single and count != m:
            sys.exit("O=%g: one capsule: ovb-fit says %d, exhaustive %d"
                     % (O, count, m))
        report.append("%g:%d/%d" % (O, count, m))
    if plan:
        O = pts[0][0] if len(pts) > 1 else None
        s, by_app = placed_state(model, nodes, plan, trust, O, cand)
        ncopies = sum(1 for a in by_app if a.startswith(cand + "+"))
        if ncopies != pts[-1][1]:
            sys.exit("the plan holds %d copies, the answer says %d"
                     % (ncopies, pts[-1][1]))
        needs = model.needs(app, O)
        if max_copies(s, trust, cand, needs, 1):
            sys.exit("one more copy fits on top of the plan written")
    print("agree more %s %s (count/exhaustive most)" % (
        "single" if single else "multi", " ".join(report)))


def min_nodes(model, shape, O, stop):
    apps = [a for a in model.apps.values() if a.kv.get("op") != "terminate"]
    jobs = []                      # (app name, needs)
    for a in apps:
        jobs.append((a.name, model.needs(a, O)))
    trust = Trust(model)
    for k in range(1, stop + 1):
        names = ["s-%d" % i for i in range(1, k + 1)]
        nodes = {n: shape for n in names}

        def dfs(s, j, used):
            if j == len(jobs):
                return True
            name, needs = jobs[j]
            # node tuples: empty nodes interchangeable -> at most the
            # first len(needs) empty ones
            cand = names[:min(k, used + len(needs))]
            for assign in itertools.permutations(cand, len(needs)):
                if ok(s, trust, name, needs, assign):
                    u = max(used, max(names.index(x) for x in assign) + 1)
                    if dfs(s.with_app(name, needs, assign), j + 1, u):
                        return True
            return False
        if dfs(State(nodes), 0, 0):
            return k
    return None


def nodes(d, answer, plan=None, cluster=None):
    fit, pts = read_answer(answer)
    shape = (float(fit[3]), float(fit[5]))
    model = Model(d + "/profile", d + "/apps")
    report = []
    ncaps = sum(len(a.caps) for a in model.apps.values())
    for O, count, bound in pts:
        k = min_nodes(model, shape, O if len(pts) > 1 else None, ncaps)
        if bound == "never":
            if k is not None:
                sys.exit("O=%g: ovb-fit says never, %d nodes hold them" % (O, k))
            report.append("%g:never" % O)
            continue
        if k is None or count < k or (fit[-1] and count != k):
            sys.exit("O=%g: ovb-fit (%s) says %d nodes, exhaustive needs %s"
                     % (O, "exhaustive" if fit[-1] else "policy", count, k))
        report.append("%g:%d/%d" % (O, count, k))
    if plan:
        cl = formats.read_cluster(cluster)
        if len(cl) != pts[-1][1] or any((c["cpu"], c["net"]) != shape
                                        for c in cl.values()):
            sys.exit("the cluster written is not %d nodes of the shape"
                     % pts[-1][1])
        nds = {n: (c["cpu"], c["net"]) for n, c in cl.items()}
        s, by_app = placed_state(model, nds, plan, Trust(model))
        if set(by_app) != set(model.apps):
            sys.exit("the plan does not place every application")
    print("agree nodes %s (count/exhaustive fewest)" % " ".join(report))


def seeds(what, first, last, *fit_args):
    """Generates instances first..last (t/gen/fit.py), runs ovb-place
    (the plan, for more), ovb-fit and ovb-check on each and checks them;
    prints the counts, and how often a count is not the exhaustive one."""
    import importlib.util
    import os
    import subprocess
    import tempfile
    spec = importlib.util.spec_from_file_location("gen_fit", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "gen", "fit.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    fit_args = list(fit_args)
    curve = "--curve" in fit_args
    n = differ = undecided = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(int(first), int(last) + 1):
            d = os.path.join(tmp, str(seed))
            os.mkdir(d)
            gen.generate(seed, d, what)
            outs = [] if curve else ["--plan-out", d + "/out.plan"]
            if what == "more":
                subprocess.run(["ovb-place", "-q", "--grid", "0", "-o",
                                d + "/plan", d + "/cluster", d + "/base.apps",
                                d + "/profile"], check=True)
                args = ["--more", "cand", d + "/cluster", d + "/apps",
                        d + "/profile", d + "/plan"]
                outs += [] if curve else ["--apps-out", d + "/out.apps"]
            else:
                with open(d + "/shape") as f:
                    shape = f.read().strip()
                args = ["--nodes", shape, d + "/apps", d + "/profile"]
                outs += [] if curve else ["--cluster-out", d + "/out.cluster"]
            r = subprocess.run(["ovb-fit", "-q", "--grid", "0", *fit_args,
                                "-o", d + "/ans", *outs, *args])
            never = r.returncode == 1 and what == "nodes"
            if r.returncode and not never:
                sys.exit("seed %d: ovb-fit exit %d" % (seed, r.returncode))
            import io
            import contextlib
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf):
                    if what == "more":
                        more(d, d + "/ans", None if curve else d + "/out.plan")
                    else:
                        nodes(d, d + "/ans", *(() if curve or never else
                                               (d + "/out.plan",
                                                d + "/out.cluster")))
            except SystemExit as e:
                sys.exit("seed %d: %s" % (seed, e))
            if not curve and not never:
                check = ["ovb-check", "-q", d + "/out.plan", d + "/profile"]
                check += ([d + "/cluster", d + "/base.apps", d + "/out.apps"]
                          if what == "more" else
                          [d + "/out.cluster", d + "/apps"])
                r = subprocess.run(check, stdout=subprocess.DEVNULL)
                if r.returncode:
                    sys.exit("seed %d: ovb-check rejects the plan" % seed)
            for pt in buf.getvalue().split():
                if ":" in pt and "/" in pt and "(" not in pt:
                    n += 1
                    a, b = pt.split(":")[1].split("/")
                    if b.startswith(">="):
                        undecided += 1
                    else:
                        differ += a != b
    print("agree %s: %d instances, %d points, %d where the policy's count "
          "is not the exhaustive one%s" % (
              what, int(last) - int(first) + 1, n, differ,
              ", %d not searched to the end" % undecided if undecided else ""))


if __name__ == "__main__":
    if sys.argv[1] == "--seeds":
        seeds(*sys.argv[2:])
    else:
        {"more": more, "nodes": nodes}[sys.argv[1]](*sys.argv[2:])
