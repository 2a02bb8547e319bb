#!/usr/bin/python3
"""t/oracle/trade.py: an independent replay of Sharc's resource trading
(section 4.3 of the Sharc paper, with the Step 4 and the deviations of
formats/trade.md), checked against ovb-trade's output.

    trade.py SCENARIO.json OUTPUT.trade [--enforce capped]
             [--n1 borrowers|above-r]
             [--reclaim fix] [--delta D] [--alpha A] [--epsilon E]
             [--no-step4]

SCENARIO.json is written by t/gen/trade.py.  Replays the scenario from it
(not from ovb-trade's declarations), then compares every interval's c, n
and a records of OUTPUT (relative tolerance 1e-9) and checks the
invariants (node sum <= capacity, application sum <= R_i, A >= LB, A = R
without trading).  Prints "ok N intervals" or the first difference, and
exits 1 on one.
"""
import json
import math
import sys
from fractions import Fraction

TOL = 1e-9


def opts(argv):
    o = {"enforce": "work-conserving", "n1": "all", "reclaim": "paper",
         "delta": 0.1, "alpha": 1.0, "epsilon": 0.1, "step4": True}
    i = 0
    while i < len(argv):
        k = argv[i]
        if k == "--no-step4":
            o["step4"] = False
            i += 1
            continue
        v = argv[i + 1]
        key = k[2:]
        o[key] = float(v) if key in ("delta", "alpha", "epsilon") else v
        i += 2
    return o


def replay(sc, o):
    I = sc["interval"]
    cap = {n: c for n, c in sc["nodes"]}
    caps = []          # dicts, in the apps file's order
    for a, trade, cs in sc["apps"]:
        for c, R, n, lb, eps in cs:
            s = sc["series"].get(a + "/" + c, sc["series"].get(c))
            caps.append({"name": out_name(sc, a, c), "app": a,
                         "trade": trade, "R": R,
                         "node": n, "lb": min(lb or 0, R),
                         "eps": o["epsilon"] if eps is None else eps,
                         "s": {int(t): v for t, v in s}})
    ts = [t for c in caps for t in c["s"]]
    t0, t1 = min(ts), max(ts)
    state = {}         # name -> (A, U)
    out = []
    fix = o["reclaim"] == "fix"
    for T in range(t0, t1 + 1, I):
        run = [c for c in caps if min(c["s"]) <= T <= max(c["s"])]
        for c in caps:
            if c not in run:
                state.pop(c["name"], None)
        rows = {}
        for c in run:
            A, U = state.get(c["name"], (c["R"], c["R"]))
            x = c["s"].get(T)
            if x is None:
                used = c["R"]
            elif o["enforce"] == "capped":
                used = min(x, A)
            else:
                used = x
            if used != U:                       # Eq. 2; used = U keeps U
                U = o["alpha"] * used + (1 - o["alpha"]) * U
            rows[c["name"]] = {"A": A, "used": used, "U": U}
        # Steps 0-2 for every application
        nxt, cls = {}, {}
        for c in run:
            r, R, e = rows[c["name"]], c["R"], c["eps"]
            A, U = r["A"], r["U"]
            if not c["trade"]:
                cls[c["name"]], v = "fixed", R
            elif U >= A and A < R:
                cls[c["name"]] = "reclaim"
                v = (1 + e) * U
                if fix:
                    v = max(v, A + e * R)
                    if v > R * (1 - 1e-12):
                        v = R
                v = min(R, v)
            elif U < A:
                cls[c["name"]] = "under"
                v = U if A >= R else (1 - e) * A
            else:
                cls[c["name"]], v = "borrow", A
            if c["trade"]:
                lo = max(c["lb"], o["delta"] * R) if fix else c["lb"]
                v = max(v, lo)
            nxt[c["name"]] = v
        # Step 3: from the sums after Steps 1-2 of all applications
        Ri = {}
        for c in run:
            Ri[c["app"]] = Ri.get(c["app"], 0) + c["R"]
        S = {n: sum(nxt[c["name"]] for c in run if c["node"] == n)
             for n in cap}
        P = {a: sum(nxt[c["name"]] for c in run if c["app"] == a)
             for a in Ri}
        if o["n1"] == "all":
            N1 = {n: sum(1 for c in run if c["node"] == n and
                         rows[c["name"]]["U"] >= rows[c["name"]]["A"])
                  for n in cap}
        else:
            N1 = {n: sum(1 for c in run if c["node"] == n and
                         cls[c["name"]] == "borrow") for n in cap}
        if o["n1"] == "above-r":       # borrowers holding A > R, if any
            for n in cap:
                k = sum(1 for c in run if c["node"] == n and
                        cls[c["name"]] == "borrow" and
                        rows[c["name"]]["A"] > c["R"])
                if k:
                    N1[n] = k
        N2 = {a: sum(1 for c in run if c["app"] == a and
                     cls[c["name"]] == "borrow") for a in Ri}
        for c in run:
            if cls[c["name"]] != "borrow":
                continue
            share = min((cap[c["node"]] - S[c["node"]]) / N1[c["node"]],
                        (Ri[c["app"]] - P[c["app"]]) / N2[c["app"]])
            nxt[c["name"]] = max(c["R"], nxt[c["name"]] + share)
        # Step 4: the excess over R cut in proportion, per node, per app
        if o["step4"]:
            for key, limits in (("node", cap), ("app", Ri)):
                for g, limit in limits.items():
                    mem = [c for c in run if c[key] == g]
                    over = sum(nxt[c["name"]] for c in mem) - limit
                    ex = {c["name"]: nxt[c["name"]] - c["R"] for c in mem
                          if nxt[c["name"]] > c["R"]}
                    E = sum(ex.values())
                    if over > 0 and E > 0:
                        # every excess goes, exactly to R, when the sum
                        # with each A capped at R reaches the limit
                        # (decided in rationals)
                        floor = sum(Fraction(min(nxt[c["name"]], c["R"]))
                                    for c in mem)
                        if floor >= Fraction(limit):
                            for c in mem:
                                if c["name"] in ex:
                                    nxt[c["name"]] = c["R"]
                            continue
                        f = min(over, E) / E
                        for nm, e in ex.items():
                            nxt[nm] -= e * f
        for c in run:
            rows[c["name"]]["cls"] = cls[c["name"]]
            rows[c["name"]]["next"] = nxt[c["name"]]
            state[c["name"]] = (nxt[c["name"]], rows[c["name"]]["U"])
        out.append((T, run, rows, cap, Ri))
    return out


def out_name(sc, app, c):
    """ovb-trade's name of capsule c of app: APP/CAPSULE when another
    application has a capsule named c."""
    others = [a for a, _, cs in sc["apps"] if a != app and
              any(x[0] == c for x in cs)]
    return app + "/" + c if others else c


def close(a, b):
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def parse(path):
    ats, cur = [], None
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "at":
            cur = {"T": int(f[1]), "c": {}, "n": {}, "a": {}}
            ats.append(cur)
        elif f[0] == "c":
            cur["c"][f[1]] = (float(f[2]), float(f[3]), float(f[4]), f[5],
                              float(f[6]))
        elif f[0] == "n":
            cur["n"][f[1]] = (float(f[2]), float(f[3]))
        elif f[0] == "a":
            cur["a"][f[1]] = (float(f[2]), float(f[3]))
    return ats


def main(argv):
    sc = json.load(open(argv[1]))
    o = opts(argv[3:])
    want = replay(sc, o)
    got = parse(argv[2])
    if len(got) != len(want):
        print("intervals: got %d, want %d" % (len(got), len(want)))
        return 1
    lbs = {out_name(sc, a, c): (lb, R, t) for a, t, cs in sc["apps"]
           for c, R, n, lb, e in cs}
    for (T, run, rows, cap, Ri), g in zip(want, got):
        if g["T"] != T or set(g["c"]) != {c["name"] for c in run}:
            print("at %d: capsules differ: got %s" % (T, sorted(g["c"])))
            return 1
        for c in run:
            r, x = rows[c["name"]], g["c"][c["name"]]
            w = (r["A"], r["used"], r["U"], r["cls"], r["next"])
            if x[3] != w[3] or not all(close(p, q) for p, q in
                                       zip(x[:3] + x[4:], w[:3] + w[4:])):
                print("at %d: c %s: got %s, want %s" % (T, c["name"], x, w))
                return 1
        nodes = {c["node"] for c in run}
        for n in nodes:
            s = sum(rows[c["name"]]["next"] for c in run if c["node"] == n)
            u = sum(rows[c["name"]]["used"] for c in run if c["node"] == n)
            if not (close(g["n"][n][1], s) and close(g["n"][n][0], u)):
                print("at %d: n %s: got %s, want %r %r" % (T, n, g["n"][n],
                                                         u, s))
                return 1
            if o["step4"] and s > cap[n] * (1 + TOL):
                print("at %d: node %s: sum A %r > %r" % (T, n, s, cap[n]))
                return 1
        for a in Ri:
            s = sum(rows[c["name"]]["next"] for c in run if c["app"] == a)
            if not (close(g["a"][a][0], s) and
                    close(g["a"][a][1], Ri[a] - s)):
                print("at %d: a %s: got %s, want %r" % (T, a, g["a"][a], s))
                return 1
            if o["step4"] and s > Ri[a] * (1 + TOL):
                print("at %d: app %s: sum A %r > R_i %r" % (T, a, s, Ri[a]))
                return 1
        for c in run:
            nx = rows[c["name"]]["next"]
            lb, R, trade = lbs[c["name"]]
            if nx < min(lb or 0, R) * (1 - TOL) or (not trade and nx != R):
                print("at %d: %s: A %r breaks LB %r / R %r" % (T, c["name"],
                                                            nx, lb, R))
                return 1
    print("ok %d intervals" % len(want))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
