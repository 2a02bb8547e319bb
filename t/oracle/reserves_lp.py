#!/usr/bin/env python3
"""reserves_lp.py: checks ovb-reserves --method lp against independent
solvers on random instances (needs python3-scipy and python3-cvxopt).

    reserves_lp.py [--count K] [--seed0 S] [--max-nodes N] [--max-classes C]
                   [--usage random|blocky|zero|mix] [--no-r-share P]

For each instance (t/oracle/reserves_gen.py, random size, floor, shares):
  step 1: V of `ovb-reserves --steps 2` (its '# round 1: V ...' note) equals
          scipy's linprog (HiGHS) optimum of the same LP to 1e-7 relative
          (|V - V'| <= 1e-7 max(1, V'));
  step 2: every R is within the stated accuracy (0.01 points; the tool is
          asked for --accuracy 1e-4) of cvxopt's QP optimum of Eq. (2) under
          sum_j |C_j - N D_j| <= V' + 1e-7 (1 + V');
  step 3: `--steps 3` adds to the step-2 R exactly what this file's own
          implementation of the documented rule adds (1e-8: the tool
          writes R on a 1e-9 grid).
The usage cap, floor and k are recomputed here from the documented rules.
Prints one line "agree K instances: ..." with the largest differences seen,
or the first disagreement and exits 1."""

import argparse
import os
import random
import subprocess
import sys

import numpy as np
from cvxopt import matrix, solvers
from scipy.optimize import linprog, nnls
from scipy.sparse import lil_matrix

HERE = os.path.dirname(os.path.abspath(__file__))
solvers.options.update(show_progress=False, abstol=1e-10, reltol=1e-10,
                       feastol=1e-10, maxiters=300)


def parse(text):
    """classes, D, nodes, u, r of round 1 (r None if absent)."""
    cls, D, nodes, u, r = [], [], [], {}, {}
    rnd = 0
    for line in text.splitlines():
        f = line.split("#")[0].split()
        if not f:
            continue
        if f[0] == "class":
            cls.append(f[1])
            D.append(float(f[2]))
        elif f[0] == "node":
            nodes.append(f[1])
        elif f[0] == "round":
            rnd = int(f[1])
        elif rnd == 1 and f[0] in ("u", "r"):
            (u if f[0] == "u" else r)[(f[1], f[2])] = float(f[3])
    n, s = len(nodes), len(cls)
    U = np.array([[u[(a, b)] for b in cls] for a in nodes])
    Rm = np.array([[r[(a, b)] for b in cls] for a in nodes]) if r else None
    return cls, np.array(D), nodes, U, Rm


def k_of(D, u):
    if D <= 0:
        return -5.0
    k = 500 * (D - u) / D
    return min(5.0, k) if u < D else max(-5.0, k)


def model(D, U, Rm, floor):
    n, s = U.shape
    if Rm is None:
        Rm = np.tile(D, (n, 1))
    idle = Rm > U + 1e-6
    lb = np.full((n, s), floor)
    ub = np.where(idle, np.maximum(U, floor), 100.0)
    t = U + np.vectorize(k_of)(np.tile(D, (n, 1)), U)
    return lb, ub, t, idle, n * D


def lp_v(lb, ub, T):
    n, s = lb.shape
    N = n * s
    c = np.concatenate([np.zeros(N), np.ones(2 * s)])
    Aub = lil_matrix((n, N + 2 * s))
    Aeq = lil_matrix((s, N + 2 * s))
    for i in range(n):
        for j in range(s):
            Aub[i, i * s + j] = 1
            Aeq[j, i * s + j] = 1
    for j in range(s):
        Aeq[j, N + j] = -1
        Aeq[j, N + s + j] = 1
    bounds = [(lb.flat[c_], ub.flat[c_]) for c_ in range(N)] + \
        [(0, None)] * (2 * s)
    res = linprog(c, A_ub=Aub.tocsr(), b_ub=np.full(n, 100.0),
                  A_eq=Aeq.tocsr(), b_eq=T, bounds=bounds, method="highs",
                  options=dict(primal_feasibility_tolerance=1e-10,
                               dual_feasibility_tolerance=1e-10))
    assert res.status == 0, res.message
    return res.fun


def polish(P, q, G, h, A, b, x0):
    """The exact optimum of min x'Px/2 + q'x, Gx <= h, Ax = b from the
    active set of the approximate solution x0: x solves the equality
    problem on that set; it is accepted only when it is primal feasible and
    multipliers y (free) and z >= 0 with Px + q + A'y + Ga'z = 0 exist (a
    non-negative least-squares fit with residual ~ 0): then x is a KKT point,
    the optimum.  None when no tolerance gives a verified point."""
    nv = len(q)
    for tol in (1e-6, 1e-8, 1e-5, 1e-4, 1e-7):
        act = h - G @ x0 <= tol * (1 + np.abs(h))
        Ga = G[act]
        na, ne = len(Ga), len(b)
        K = np.zeros((nv + ne + na, nv + ne + na))
        K[:nv, :nv] = P
        K[:nv, nv:nv + ne] = A.T
        K[:nv, nv + ne:] = Ga.T
        K[nv:nv + ne, :nv] = A
        K[nv + ne:, :nv] = Ga
        rhs = np.concatenate([-q, b, h[act]])
        x = np.linalg.lstsq(K, rhs, rcond=None)[0][:nv]
        if (np.abs(A @ x - b).max() > 1e-9 * (1 + np.abs(b).max()) or
                (G @ x > h + 1e-9 * (1 + np.abs(h))).any()):
            continue
        grad = P @ x + q
        B = np.hstack([A.T, -A.T, Ga.T])      # y = y+ - y-, all >= 0
        z, _ = nnls(B, -grad, maxiter=50 * B.shape[1])
        if np.abs(B @ z + grad).max() <= 1e-7 * (1 + np.abs(grad).max()):
            return x
    return None


def qp_r(lb, ub, t, T, V):
    """Eq. (2) under deviation <= V: cvxopt on the exact-penalty form
    f(R) + M sum_j (p_j + m_j) (which has an interior), then the exact KKT
    point of the constrained form on its active set, verified.  Returns R
    and whether the polish verified."""
    n, s = lb.shape
    N = n * s
    nv = N + 2 * s
    P = np.zeros((nv, nv))
    P[:N, :N] = 2 * np.eye(N)
    G, h = [], []
    for i in range(n):
        g = np.zeros(nv)
        g[i * s:(i + 1) * s] = 1
        G.append(g)
        h.append(100.0)
    for c_ in range(N):
        g = np.zeros(nv)
        g[c_] = 1
        G.append(g)
        h.append(ub.flat[c_])
        g = np.zeros(nv)
        g[c_] = -1
        G.append(g)
        h.append(-lb.flat[c_])
    for c_ in range(N, nv):
        g = np.zeros(nv)
        g[c_] = -1
        G.append(g)
        h.append(0.0)
    A = np.zeros((s, nv))
    for j in range(s):
        A[j, j:N:s] = 1
        A[j, N + j] = -1
        A[j, N + s + j] = 1
    G, h = np.array(G), np.array(h)
    M = 1e3
    while True:
        q = np.concatenate([-2 * t.flatten(), np.full(2 * s, M)])
        sol = solvers.qp(matrix(P), matrix(q), matrix(G), matrix(h),
                         matrix(A), matrix(T))
        x = np.array(sol["x"]).flatten()
        dev = float(np.abs(x[:N].reshape(n, s).sum(axis=0) - T).sum())
        if dev <= V + 1e-6 * (1 + V) or M >= 1e8:
            break
        M *= 10
    g = np.zeros(nv)
    g[N:] = 1
    Gc, hc = np.vstack([G, g]), np.append(h, V)
    q = np.concatenate([-2 * t.flatten(), np.zeros(2 * s)])
    xp = polish(P, q, Gc, hc, A, T, x)
    if xp is not None:
        return xp[:N].reshape(n, s), True
    return x[:N].reshape(n, s), False


def better(mine, ref, lb, ub, t, T, V):
    """mine is feasible (deviation within 1e-7 (1 + V)) and its Eq. (2)
    objective is no worse than ref's."""
    f = lambda R: float(((R - t) ** 2).sum())
    return (np.abs(mine.sum(axis=0) - T).sum() <= V + 1e-7 * (1 + V) and
            (mine >= lb - 1e-9).all() and (mine <= ub + 1e-9).all() and
            (mine.sum(axis=1) <= 100 + 1e-9).all() and
            f(mine) <= f(ref) + 1e-9 * (1 + f(ref)))


def step3(R, T, idle, cap=100.0):
    """The documented step 3, independently."""
    R = R.copy()
    n, s = R.shape
    need = T - R.sum(axis=0)
    need[need <= 1e-7 * (1 + T)] = 0
    spare = cap - R.sum(axis=1)
    spare[spare <= 1e-12 * cap] = 0
    for _ in range(s + 2):
        offer = np.zeros((n, s))
        for i in range(n):
            el = [j for j in range(s) if spare[i] > 0 and need[j] > 0 and
                  idle[i, j]]
            W = sum(T[j] for j in el)
            for j in el:
                offer[i, j] = spare[i] * T[j] / W
        O = offer.sum(axis=0)
        if not (O > 0).any():
            break
        sat = False
        for j in range(s):
            if O[j] <= 0:
                continue
            f = 1.0
            if O[j] >= need[j]:
                f, sat = need[j] / O[j], True
            R[:, j] += offer[:, j] * f
            spare = np.maximum(0, spare - offer[:, j] * f)
            need[j] = 0 if O[j] >= need[j] else need[j] - O[j]
        if not sat:
            break
    return R


def run_tool(path, *opts):
    out = subprocess.run(["ovb-reserves", "-q", *opts, path], check=True,
                         capture_output=True, text=True).stdout
    R, V = {}, None
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "R":
            R[(f[1], f[2])] = float(f[3])
        elif line.startswith("# round 1: V "):
            V = float(line.split()[4].rstrip(";"))
    return R, V


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed0", type=int, default=1)
    ap.add_argument("--max-nodes", type=int, default=12)
    ap.add_argument("--max-classes", type=int, default=8)
    ap.add_argument("--tmp", default=os.environ.get("BATS_TEST_TMPDIR", "/tmp"))
    ap.add_argument("--usage", default="random",
                    choices=("random", "blocky", "zero", "mix"))
    ap.add_argument("--no-r-share", type=float, default=0.2)
    a = ap.parse_args()
    worst_v = worst_r = worst_3 = worst_x = 0.0
    nvpos = nexact = 0
    for seed in range(a.seed0, a.seed0 + a.count):
        rng = random.Random(seed * 7919)
        n = rng.randint(1, a.max_nodes)
        s = rng.randint(1, a.max_classes)
        floor = rng.choice([1, 1, 0, 0.5, 2.5])
        opts = ["--seed", str(seed), "--nodes", str(n), "--classes", str(s)]
        if rng.random() < a.no_r_share:
            opts.append("--no-r")
        if a.usage != "random":
            opts += ["--usage", a.usage if a.usage != "mix" else
                     rng.choice(("random", "blocky", "zero"))]
        text = subprocess.run([sys.executable, os.path.join(HERE,
                               "reserves_gen.py"), *opts], check=True,
                              capture_output=True, text=True).stdout
        path = os.path.join(a.tmp, f"lp{seed}.reserves")
        with open(path, "w") as f:
            f.write(text)
        cls, D, nodes, U, Rm = parse(text)
        lb, ub, t, idle, T = model(D, U, Rm, floor)
        R2, V = run_tool(path, "--steps", "2", "--accuracy", "1e-4",
                         "--floor", str(floor))
        R3, _ = run_tool(path, "--steps", "3", "--accuracy", "1e-4",
                         "--floor", str(floor))
        Vs = lp_v(lb, ub, T)
        nvpos += Vs > 1e-6
        dv = abs(V - Vs) / max(1.0, Vs)
        worst_v = max(worst_v, dv)
        if dv > 1e-7:
            print(f"seed {seed}: V {V!r} but linprog {Vs!r} ({path})")
            return 1
        mine = np.array([[R2[(a_, b)] for b in cls] for a_ in nodes])
        ref, exact = qp_r(lb, ub, t, T, Vs)
        dr = float(np.abs(mine - ref).max())
        worst_r = max(worst_r, dr)
        if exact:
            nexact += 1
            worst_x = max(worst_x, dr)
        elif not better(mine, ref, lb, ub, t, T, Vs):
            print(f"seed {seed}: the reference failed its KKT check and ours "
                  f"is not feasible and at least as good ({path})")
            return 1
        if dr > 0.01:
            i, j = np.unravel_index(np.abs(mine - ref).argmax(), mine.shape)
            print(f"seed {seed}: R {nodes[i]} {cls[j]} {mine[i, j]!r} but "
                  f"cvxopt {ref[i, j]!r} ({path}, floor {floor})")
            return 1
        mine3 = np.array([[R3[(a_, b)] for b in cls] for a_ in nodes])
        d3 = float(np.abs(mine3 - step3(mine, T, idle)).max())
        worst_3 = max(worst_3, d3)
        if d3 > 1e-8:     # both sides start from R on a 1e-9 grid
            print(f"seed {seed}: step 3 differs by {d3} ({path})")
            return 1
    print(f"agree {a.count} instances ({nvpos} with V > 0): V within "
          f"{worst_v:.2g} relative; step 2 R within {worst_r:.2g} points "
          f"({worst_x:.2g} on the {nexact} whose reference passed the KKT "
          f"check; on the others ours is feasible with a lower objective); step 3 within {worst_3:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
