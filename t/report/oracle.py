#!/usr/bin/env python3
"""oracle.py: checks ovb-report's tables against its inputs (python3 stdlib).

    oracle.py capsules TSV FILE...      the capsules table (ovb-report -f tsv
                                        -t capsules) holds exactly the
                                        numbers of the usage/profile FILEs
    oracle.py nodes TSV CLUSTER PLAN PROFILE... [--apps APPS]
                                        the nodes table: the plan's risk
                                        records exactly; Pr(Y > C) computed
                                        exactly here (integer counts) within
                                        1e-12 + 1e-9 relative; Eq. 1 load
                                        (with the lower bounds lb-cpu= and
                                        lb-net= of APPS), O_min and the grid
    oracle.py text TSV TEXT             every number of the text tables is
                                        the TSV's to 4 significant digits
    oracle.py gen SEED DIR              a random cluster, profiles, plan and
                                        apps (DIR/r.cluster, r.profile,
                                        r.plan, r.apps with lower bounds)
                                        whose risk records are the exact
                                        Pr(Y > C) and load rounded to doubles
    oracle.py random FIRST LAST DIR     gen and nodes for seeds FIRST..LAST,
                                        running ovb-report (from PATH)

Y, a node's aggregate usage of a resource, is built as formats/plan.md
defines it: the grid g is the largest bin width of the node's profiled
capsules, at least CAPACITY/POINTS with 'grid POINTS'; a histogram's bin k
(value k*w) goes to the least grid index j with j*g >= k*w, a plain
reservation sigma to the least j with j*g >= sigma, the capsules' U are
convolved, and Pr(Y > C) is the mass above the largest i with i*g <= C;
with no profiled capsule Y is the exact sum of the plain reservations.  Those grid decisions are made in doubles (Python
floats), as the C code makes them; the probabilities are exact: Y is kept
as integer counts of combinations of measurement intervals.  Exit 0 with a
summary line, 1 with the differences."""

import math
import os
import random
import sys
from fractions import Fraction

RATE = {"cpu": "cpu", "net": "B/s", "net-rx": "B/s"}
BURST = {"cpu": "cpu-s", "net": "B", "net-rx": "B"}


def records(path):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            t = line.split()
            for i, w in enumerate(t):
                if w.startswith("#"):
                    t = t[:i]
                    break
            if t:
                yield n, t


def blocks(path):
    """{(capsule, res): {key: value}} of a usage or profile file."""
    out, cur = {}, None
    for _, t in records(path):
        if t[0].startswith("ovb-"):
            continue
        if t[0] in ("usage", "profile"):
            cur = {"bins": {}, "pct": {}, "kind": t[0]}
            out[(t[1], t[2])] = cur
        elif t[0] == "bin":
            cur["bins"][int(t[1])] = int(t[2])
        elif t[0] == "pct":
            cur["pct"][float(t[1])] = float(t[2])
        elif t[0] == "curve":
            pass
        else:
            cur[t[0]] = t[1]
    return out


def tsv(path, table):
    """The rows of one table of ovb-report -f tsv output, as dicts."""
    with open(path) as f:
        lines = f.read().split("\n")
    cur, head, rows = None, None, []
    single = not lines[0].startswith("# ")
    for line in lines:
        if line.startswith("# "):
            cur, head = line[2:], None
            continue
        if not line:
            continue
        if single or cur == table:
            if head is None:
                head = line.split("\t")
            else:
                rows.append(dict(zip(head, line.split("\t"))))
    return rows


class Check:
    def __init__(self):
        self.bad, self.n = [], 0

    def eq(self, what, got, want):
        self.n += 1
        if got != want:
            self.bad.append("%s: report %r, want %r" % (what, got, want))

    def close(self, what, got, want, rel=1e-9, ab=1e-12):
        self.n += 1
        if abs(Fraction(got) - Fraction(want)) > ab + rel * abs(Fraction(want)):
            self.bad.append("%s: report %r, want %s (%.17g)" % (
                what, got, want, float(want)))

    def done(self, what):
        if self.bad:
            print("\n".join(self.bad[:40]))
            print("%d of %d checks failed" % (len(self.bad), self.n))
            sys.exit(1)
        print("%s: %d checks agree" % (what, self.n))


def num(s):
    """A TSV cell: None for '-', the marker 'unmeasured' as it is (a block
    the trace did not measure: never a number), else the number."""
    if s == "unmeasured":
        return s
    return None if s == "-" else float(s)


# ---- capsules ----------------------------------------------------------

def cmd_capsules(args):
    rows = {(r["capsule"], r["res"]): r for r in tsv(args[0], "capsules")}
    want = {}
    for path in args[1:]:                 # profiles win over usage blocks
        for k, b in blocks(path).items():
            if k not in want or b["kind"] == "profile":
                want[k] = b
    c = Check()
    c.eq("rows", sorted(rows), sorted(want))
    for k, b in want.items():
        r = rows.get(k)
        if r is None:
            continue
        what = "%s %s" % k
        c.eq(what + " intervals", int(r["intervals"]), int(b["intervals"]))
        c.eq(what + " interval", num(r["interval_s"]), float(b["interval"]))
        c.eq(what + " width", num(r["width"]), float(b["width"]))
        c.eq(what + " mean", num(r["mean"]),
             float(b["mean"]) if "mean" in b else None)
        for key in r:
            if key.startswith("p") and key[1:2].isdigit():
                p = float(key[1:])
                c.eq(what + " " + key, num(r[key]), b["pct"].get(p))
        for p in b["pct"]:
            c.eq(what + " has p%g" % p, ("p%s" % fmt(p)) in r, True)
        for key, tkey in (("sigma", "sigma"), ("rho", "rho"), ("tau", "tau_s"),
                          ("O", "O")):
            c.eq(what + " " + key, num(r[tkey]),
                 float(b[key]) if key in b else None)
        c.eq(what + " units", (r["rate_unit"], r["burst_unit"]),
             (RATE[k[1]], BURST[k[1]]))
    c.done("capsules")


def fmt(p):
    return str(int(p)) if p == int(p) else repr(p)


# ---- nodes -------------------------------------------------------------

def grid_up(x, g):
    if not x > 0:
        return 0
    k = max(1, int(math.ceil(x / g)))
    while k > 1 and (k - 1) * g >= x:
        k -= 1
    while k * g < x:
        k += 1
    return k


def grid_down(c, g):
    k = max(0, int(math.floor(c / g)))
    while (k + 1) * g <= c:
        k += 1
    while k > 0 and k * g > c:
        k -= 1
    return k


def conv(y, u):
    out = {}
    for i, a in y.items():
        for j, b in u.items():
            out[i + j] = out.get(i + j, 0) + a * b
    return out


def node_y(members, cap, points):
    """Pr(Y > cap) exactly, and the grid, for members ("plain", sigma) or
    ("hist", width, {k: count}, n), as formats/plan.md defines it."""
    widths = [m[1] for m in members if m[0] == "hist"]
    if not widths:
        plain = sum(m[1] for m in members)
        return Fraction(1 if plain > cap else 0), 0.0
    g = max(widths)
    if points and cap / points > g:
        g = cap / points
    y, total = {0: 1}, 1
    for m in members:
        if m[0] == "plain":
            u = {grid_up(m[1], g): 1}
        else:
            u = {}
            for k, c in m[2].items():
                if c:
                    j = grid_up(k * m[1], g)
                    u[j] = u.get(j, 0) + c
            total *= m[3]
        y = conv(y, u)
    K = grid_down(cap, g)
    return Fraction(sum(c for i, c in y.items() if i > K), total), g


def read_plan(path):
    plan = {"grid": 0, "place": [], "qos": {}, "risk": {}}
    for _, t in records(path):
        if t[0] == "grid":
            plan["grid"] = int(t[1])
        elif t[0] == "place":
            plan["place"].append(t[1:5])
        elif t[0] == "qos":
            plan["qos"][(t[1], t[2], t[3])] = [float(x) for x in t[4:8]]
        elif t[0] == "risk":
            plan["risk"][(t[1], t[2])] = t[3:7]
    return plan


def read_cluster(path):
    return [(t[1], {"cpu": float(t[2]), "net": float(t[4])})
            for _, t in records(path) if t[0] == "node"]


def read_lbs(path):
    """{(app, capsule, res): lb} of an ovb-apps file, the last definition
    of each application (op=terminate: none)."""
    lbs, app = {}, None
    for _, t in records(path):
        if t[0] == "app":
            app = t[1]
            for k in [k for k in lbs if k[0] == app]:
                del lbs[k]
            if "op=terminate" in t:
                app = None
        elif t[0] == "capsule" and app is not None:
            for kv in t[2:]:
                for res in ("cpu", "net"):
                    if kv.startswith("lb-%s=" % res):
                        lbs[(app, t[1], res)] = float(kv.split("=", 1)[1])
    return lbs


def expected_nodes(cluster, plan, profs, lbs=None):
    """{(node, res): (pr, grid, load, omin, nmem)}; Eq. 1's term of a
    capsule is max((sigma tau_min + rho)(1 - O)/tau_min, lb)."""
    lbs = lbs or {}
    out = {}
    for node, caps in cluster:
        for res in ("cpu", "net"):
            mem, qs = [], []
            for app, cap, nd, prof in plan["place"]:
                q = plan["qos"].get((app, cap, res))
                if nd != node or q is None:
                    continue
                qs.append(q + [lbs.get((app, cap, res), 0)])
                if prof == "-":
                    mem.append(("plain", q[0]))
                else:
                    b = profs[(prof, res)]
                    mem.append(("hist", float(b["width"]), b["bins"],
                                int(b["intervals"])))
            pr, g = node_y(mem, caps[res], plan["grid"])
            load, omin = Fraction(0), None
            if qs:
                tmin = min(q[2] for q in qs)
                for s, r, _, o, lb in qs:
                    load += max((Fraction(s) * Fraction(tmin) + Fraction(r))
                                * (1 - Fraction(o)) / Fraction(tmin),
                                Fraction(lb))
                omin = min(q[3] for q in qs)
            out[(node, res)] = (pr, g, load, omin, len(qs))
    return out


def cmd_nodes(args):
    lbs = {}
    if "--apps" in args:
        i = args.index("--apps")
        lbs = read_lbs(args[i + 1])
        args = args[:i] + args[i + 2:]
    rows = {(r["node"], r["res"]): r for r in tsv(args[0], "nodes")}
    cluster, plan = read_cluster(args[1]), read_plan(args[2])
    profs = {}
    for path in args[3:]:
        profs.update(blocks(path))
    want = expected_nodes(cluster, plan, profs, lbs)
    c = Check()
    c.eq("rows", sorted(rows), sorted(want))
    for k, (pr, g, load, omin, n) in want.items():
        r = rows.get(k)
        if r is None:
            continue
        what = "%s %s" % k
        c.eq(what + " capsules", int(r["capsules"]), n)
        c.eq(what + " capacity", float(r["capacity"]),
             dict(cluster)[k[0]][k[1]])
        c.close(what + " Pr(Y > C) computed", r["pr_computed"], pr)
        c.eq(what + " grid", num(r["grid"]), g if g else None)
        c.close(what + " Eq. 1 load computed", r["reserved_computed"], load)
        c.eq(what + " O_min computed", num(r["omin_computed"]), omin)
        risk = plan["risk"].get(k)
        if risk:                       # the plan's own numbers, exactly
            c.eq(what + " Pr plan", float(r["pr_plan"]), float(risk[0]))
            c.eq(what + " O_min", float(r["omin"]), float(risk[1]))
            c.eq(what + " reserved", float(r["reserved"]), float(risk[2]))
        else:
            c.eq(what + " Pr plan", r["pr_plan"], "-")
            c.close(what + " reserved", r["reserved"], load)
    c.done("nodes")


# ---- text tables against TSV -------------------------------------------

SI = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
TEXT2TSV = {
    "nodes": {"reserved": "reserved", "capacity": "capacity",
              "used": "used_pct", "headroom": "headroom",
              "Pr(Y>C) plan": "pr_plan", "Pr(Y>C) computed": "pr_computed",
              "O_min": "omin", "capsules": "capsules"},
    "placements": {"sigma (rate)": "sigma", "rho (burst)": "rho",
                   "tau": "tau_s", "O": "O"},
    "capsules": {"intervals": "intervals", "I": "interval_s",
                 "bin width": "width", "mean": "mean", "sigma (rate)": "sigma",
                 "rho (burst)": "rho", "tau": "tau_s", "O": "O"},
    "gain": {"nodes": "nodes", "O": "O", "runs": "runs",
             "placed": "placed_mean", "+-95%": "ci95", "gain": "gain"},
    "apps": {"cpu sigma (rate)": "sigma_cpu", "net sigma (rate)": "sigma_net",
             "O": "O", "node Pr(Y>C) cpu": "pr_cpu",
             "node Pr(Y>C) net": "pr_net"},
    "traces": {"length": "length_s"},
}
TITLES = {"Nodes:": "nodes", "Placements:": "placements",
          "Rejected applications": "rejects", "Capsules:": "capsules",
          "Capacity gained": "gain", "Applications:": "apps",
          "Traces:": "traces"}


def parse_text(s):
    """'2.614 MB/s' -> (2614000.0, 'B/s'); '92.2%' -> 92.2; '-' -> None."""
    s = s.strip()
    if s == "-":
        return None, None
    if s == "not measured":     # the TSV's 'unmeasured'
        return "unmeasured", None
    if s.endswith("%"):
        return float(s[:-1]), "%"
    if s.endswith("x"):
        return float(s[:-1]), "x"
    parts = s.split(" ")
    v = float(parts[0])
    if len(parts) == 1:
        return v, None
    unit = parts[1]
    if unit[0] in SI and unit[1:] in ("B", "B/s"):
        v *= SI[unit[0]]
        unit = unit[1:]
    return v, unit


def text_tables(path):
    """{table: [dict]} from ovb-report's text output."""
    out, name, head = {}, None, None
    with open(path) as f:
        lines = f.read().split("\n")
    for line in lines:
        t = next((v for k, v in TITLES.items() if line.startswith(k)), None)
        if t:
            name, head = t, None
            out[name] = []
            continue
        if not line or line.startswith("(") or name is None:
            continue
        if head is None:       # names separated by 2+ blanks, like cells
            head = [h.strip() for h in line.split("  ") if h.strip()]
            continue
        cells = [c for c in line.split("  ") if c.strip()]
        out[name].append(dict(zip(head, [c.strip() for c in cells])))
    return out


def cmd_text(args):
    text = text_tables(args[1])
    c = Check()
    for name, rows in text.items():
        trows = tsv(args[0], name)
        c.eq(name + " rows", len(rows), len(trows))
        mapping = dict(TEXT2TSV.get(name, {}))
        if name == "capsules" and rows:
            for h in rows[0]:
                if h.startswith("p") and h[1:2].isdigit():
                    mapping[h] = h
        for i, (r, t) in enumerate(zip(rows, trows)):
            for h, th in mapping.items():
                v, unit = parse_text(r[h])
                w = num(t[th])
                what = "%s row %d %s (%r vs %r)" % (name, i + 1, h, r[h],
                                                    t[th])
                if v is None or w is None or isinstance(v, str) or \
                        isinstance(w, str):
                    c.eq(what, v, w)
                    continue
                c.n += 1
                if unit == "%" or h in ("placed", "+-95%"):
                    tol = 0.05          # one decimal
                elif unit == "x":
                    tol = 0.005         # two decimals
                elif w == 0:
                    tol = 0
                else:                   # 4 significant digits
                    tol = 0.5 * 10 ** (math.floor(math.log10(abs(w))) - 3)
                ok = abs(v - w) <= tol * 1.0001
                if not ok:
                    c.bad.append(what)
    c.done("text")


# ---- random inputs -----------------------------------------------------

def cmd_gen(args):
    rng = random.Random(int(args[0]))
    d = args[1]
    nodes = []
    for i in range(rng.randint(1, 4)):
        nodes.append(("n%d" % i, {"cpu": rng.choice([0.5, 1, 2, 4, 0.75]),
                                  "net": rng.choice([1e6, 1.25e7, 1.25e8])}))
    profs, plines = {}, ["ovb-profile 1"]
    for i in range(rng.randint(2, 5)):
        for res in ("cpu", "net"):
            if res == "net" and rng.random() < 0.3:
                continue
            w = rng.choice([0.01, 0.05, 0.1, 0.25, 0.3] if res == "cpu" else
                           [1000, 5000, 50000, 125000, 300000])
            nb = rng.randint(1, 30)
            bins = {k: rng.randint(0, 9) for k in rng.sample(range(nb + 1),
                                                             rng.randint(1, nb
                                                                         + 1))}
            if not sum(bins.values()):
                bins[nb] = 1
            n = sum(bins.values())
            profs[("p%d" % i, res)] = {"width": w, "bins": bins,
                                       "intervals": n}
            plines += ["profile p%d %s" % (i, res),
                       "sigma %s %s" % (fmt(w * nb), RATE[res]),
                       "rho 0 %s" % BURST[res], "tau 1 s", "O 0.01",
                       "interval 1 s", "width %s %s" % (fmt(w), RATE[res]),
                       "intervals %d" % n]
            plines += ["bin %d %d" % (k, c) for k, c in sorted(bins.items())
                       if c]
    grid = rng.choice([0, 0, 10, 100, 1000])
    plan = {"grid": grid, "place": [], "qos": {}}
    lines = ["ovb-plan 1"] + (["grid %d" % grid] if grid else [])
    alines, lbs = ["ovb-apps 1"], {}
    names = sorted({k[0] for k in profs})
    for i in range(rng.randint(1, 10)):
        node = rng.choice(nodes)[0]
        app, cap = "a%d" % i, "c"
        if rng.random() < 0.3:
            prof = "-"
            lines.append("place %s %s %s -" % (app, cap, node))
            resv = {"cpu": 0, "net": 0}
            for res in ("cpu", "net"):
                if rng.random() < 0.7:
                    s = (rng.choice([0.1, 0.25, 0.3, 0.7, 1]) if res == "cpu"
                         else rng.choice([1000, 250000, 1e6]))
                    q = [s, 0, rng.choice([1, 2]), 0]
                    plan["qos"][(app, cap, res)] = q
                    resv[res] = s
                    lines.append("qos %s %s %s %s 0 %s 0" % (
                        app, cap, res, fmt(s), q[2]))
            if not resv["cpu"] and not resv["net"]:
                resv["cpu"] = 1     # the plan uses none: any reservation
            alines += ["app %s" % app, "capsule %s cpu=%s net=%s" % (
                cap, fmt(resv["cpu"]), fmt(resv["net"]))]
        else:
            prof = rng.choice(names)
            lines.append("place %s %s %s %s" % (app, cap, node, prof))
            for res in ("cpu", "net"):
                if (prof, res) in profs:
                    b = profs[(prof, res)]
                    s = b["width"] * max(b["bins"])
                    q = [s, rng.choice([0, 0.01, 0.5]), rng.choice([1, 0.1]),
                         rng.choice([0, 0.01, 0.05])]
                    plan["qos"][(app, cap, res)] = q
                    lines.append("qos %s %s %s %s %s %s %s" % (
                        app, cap, res, fmt(s), fmt(q[1]), fmt(q[2]),
                        fmt(q[3])))
            lb = {"cpu": rng.choice([0, 0, 0.05, 0.5, 2]),
                  "net": rng.choice([0, 0, 3000, 1e6])}
            lbs.update({(app, cap, r): v for r, v in lb.items() if v})
            alines += ["app %s" % app, "capsule %s profile=%s%s" % (
                cap, prof, "".join(" lb-%s=%s" % (r, fmt(v))
                                   for r, v in lb.items() if v))]
        plan["place"].append([app, cap, node, prof])
    want = expected_nodes(nodes, plan, profs, lbs)
    for (node, res), (pr, g, load, omin, n) in want.items():
        if n:
            lines.append("risk %s %s %r %r %r %r" % (
                node, res, float(pr), omin, float(load),
                dict(nodes)[node][res]))
    with open(os.path.join(d, "r.cluster"), "w") as f:
        f.write("ovb-cluster 1\n" + "".join(
            "node %s %s cpu %s B/s\n" % (n, fmt(c["cpu"]), fmt(c["net"]))
            for n, c in nodes))
    with open(os.path.join(d, "r.profile"), "w") as f:
        f.write("\n".join(plines) + "\n")
    with open(os.path.join(d, "r.plan"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(d, "r.apps"), "w") as f:
        f.write("\n".join(alines) + "\n")


def cmd_random(args):
    import subprocess
    d, bad, n, nz = args[2], [], 0, 0
    for seed in range(int(args[0]), int(args[1]) + 1):
        cmd_gen([str(seed), d])
        f = [os.path.join(d, "r." + x) for x in ("cluster", "plan", "profile")]
        apps = os.path.join(d, "r.apps")
        out = os.path.join(d, "r.tsv")
        with open(out, "w") as o:
            p = subprocess.run(["ovb-report", "-f", "tsv", "-t", "nodes"] +
                               f + [apps], stdout=o, stderr=subprocess.PIPE,
                               text=True)
        if p.returncode or p.stderr:
            bad.append("seed %d: exit %d: %s" % (seed, p.returncode, p.stderr))
            continue
        nz += sum(1 for r in tsv(out, "nodes")
                  if r["pr_plan"] not in ("-", "0") and float(r["pr_plan"]) > 0)
        p = subprocess.run([sys.executable, __file__, "nodes", out] + f +
                           ["--apps", apps], stdout=subprocess.PIPE, text=True)
        n += 1
        if p.returncode:
            bad.append("seed %d:\n%s" % (seed, p.stdout))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("random: %d plans agree (%d node resources with Pr(Y > C) > 0)"
          % (n, nz))


def main():
    cmds = {"capsules": cmd_capsules, "nodes": cmd_nodes, "text": cmd_text,
            "gen": cmd_gen, "random": cmd_random}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
