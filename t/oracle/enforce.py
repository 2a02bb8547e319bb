#!/usr/bin/python3
"""enforce.py TARGET CLUSTER PLAN OUT [DL_CAP HZ MTU]: checks ovb-enforce's
output OUT for TARGET independently of lib/enforce.c, in exact rationals of
the doubles the files' decimals round to.  Prints one line per violation
and exits 1 if any; prints "ok N" (N settings checked) otherwise.

Checked: every number within the kernel's limits (README "From plan to
machine"); for a guarantee (SCHED_DEADLINE supply bound, cpu.weight share
under the node's capacity, tc htb rate, Kubernetes request) the service
over any window of the capsule's tau is at least its Eq. 1 term
(sigma tau + rho)(1 - O); for a cap (cpu.max and CPUQuota at the worst
phase, tc ceil + burst, Kubernetes limit over CFS periods of 100 ms) the
amount let through over tau is at least sigma tau + rho (so never below
the Eq. 1 term); every capsule of the plan is rendered once."""
import math
import re
import sys
from fractions import Fraction as F


def num(s):
    return F(float(s))


def records(path):
    for line in open(path):
        t = line.split("#", 1)[0].split()
        if t:
            yield t


def main():
    target, cpath, ppath, opath = sys.argv[1:5]
    dl_cap = F(sys.argv[5]) if len(sys.argv) > 5 else F(90, 100)
    hz = int(sys.argv[6]) if len(sys.argv) > 6 else 100
    mtu = int(sys.argv[7]) if len(sys.argv) > 7 else 1500
    cap = {}
    for t in records(cpath):
        if t[0] == "node":
            cap[t[1]] = (num(t[2]), num(t[4]))
    qos, node = {}, {}
    for t in records(ppath):
        if t[0] == "place":
            node[(t[1], t[2])] = t[3]
        elif t[0] == "qos":
            qos[(t[1], t[2], t[3])] = [num(v) for v in t[4:8]]
    bad = []
    seen = {}

    def guar(key, res):
        s, r, tau, o = qos[key + (res,)]
        return (s * tau + r) * (1 - o), s * tau + r, tau

    def expect(res):
        return {k[:2] for k in qos if k[2] == res
                and guar(k[:2], res)[0] > 0}

    lines = open(opath).read().splitlines()
    n = 0
    if target == "sched-deadline":
        chrt = [l for l in lines if l.startswith("chrt ")]
        nchrt, tot = 0, {}
        for l in lines:
            t = l.split()
            if not t or t[0] != "dl":
                continue
            nd, key = t[1], (t[2], t[3])
            k, Q, D, P = (int(v) for v in t[4:8])
            seen[key] = seen.get(key, 0) + 1
            n += 1
            if not (Q >= 1024 and Q <= D <= P):
                bad.append("%s: runtime %d deadline %d period %d" %
                           (key, Q, D, P))
            if not (100000 <= P <= 4194304000):
                bad.append("%s: period %d ns outside 100us..4.194304s" %
                           (key, P))
            if F(Q, P) > dl_cap:
                bad.append("%s: runtime/period %s > %s" %
                           (key, F(Q, P), dl_cap))
            g, e, tau = guar(key, "cpu")
            Qs, Ps = F(Q, 10**9), F(P, 10**9)
            sbf = k * max(F(0), Qs / Ps * (tau - 2 * (Ps - Qs)))
            if sbf < g:
                bad.append("%s: SCHED_DEADLINE supply %s < Eq. 1 term %s"
                           % (key, float(sbf), float(g)))
            tot[nd] = tot.get(nd, 0) + k * F(Q, P)
            want = ("chrt -d --sched-runtime %d --sched-deadline %d "
                    "--sched-period %d 0 CMD" % (Q, D, P))
            nchrt += k
            if sum(1 for c in chrt if c == want) < k:
                bad.append("%s: fewer than %d lines %s" % (key, k, want))
        if nchrt != len(chrt):
            bad.append("%d chrt lines for %d tasks" % (len(chrt), nchrt))
        for nd, s in tot.items():
            if s > dl_cap * cap[nd][0]:
                bad.append("node %s: sum %s > cap" % (nd, float(s)))
        res = "cpu"
    elif target in ("cgroup", "cgroup1", "systemd"):
        vals = {}
        cur = None
        for l in lines:
            if l.startswith("### "):
                m = re.match(r"### (\S+)/ovb-(\S+)\.service\.d/50-ovb\.conf$",
                             l)
                cur = (m.group(1), m.group(2))
                continue
            if target == "systemd" and cur and "=" in l:
                k, v = l.split("=", 1)
                vals.setdefault(cur, {})[k] = v
            elif target != "systemd" and l and not l.startswith("#"):
                path, v = l.split(" ", 1)
                nd, cg, f = path.split("/")
                vals.setdefault((nd, cg), {})[f] = v
        weights = {}
        for (nd, cg), v in vals.items():
            app, capsule = cg.split(".", 1)
            key = (app, capsule)
            seen[key] = seen.get(key, 0) + 1
            n += 1
            wmin, wmax = 1, 10000
            if target == "cgroup":
                q, p = (int(x) for x in v["cpu.max"].split())
                b = int(v["cpu.max.burst"])
                w = int(v["cpu.weight"])
                if not b <= q:
                    bad.append("%s: burst %d > quota %d" % (key, b, q))
            elif target == "cgroup1":
                q = int(v["cpu.cfs_quota_us"])
                p = int(v["cpu.cfs_period_us"])
                b = int(v["cpu.cfs_burst_us"])
                w = int(v["cpu.shares"])
                wmin, wmax = 2, 262144
                if not b <= q:
                    bad.append("%s: burst %d > quota %d" % (key, b, q))
            else:
                pm = v["CPUQuota"]
                assert pm.endswith("%")
                p = int(v["CPUQuotaPeriodSec"][:-2])
                q = F(pm[:-1]) * p / 100    # what systemd asks of cpu.max
                w = int(v["CPUWeight"])
                if v.get("Slice") != "ovb.slice":
                    bad.append("%s: not in ovb.slice" % (key,))
            if not (q >= 1000 and 1000 <= p <= 1000000):
                bad.append("%s: cpu.max %s %s outside limits" % (key, q, p))
            if not wmin <= w <= wmax:
                bad.append("%s: weight %d" % (key, w))
            g, e, tau = guar(key, "cpu")
            periods = math.floor(tau * 10**6 / p) - 1
            allow = max(0, periods) * F(q) / 10**6
            if allow < e or allow < g:
                bad.append("%s: cap lets %s < %s over tau" %
                           (key, float(allow), float(e)))
            weights.setdefault(nd, []).append((key, w, g / tau))
        for nd, ws in weights.items():
            W = sum(w for _, w, _ in ws)
            for key, w, g in ws:
                if F(w) * cap[nd][0] / W < g:
                    bad.append("%s: weight share %s < %s" %
                               (key, float(F(w) * cap[nd][0] / W),
                                float(g)))
        res = "cpu"
    elif target == "tc":
        link, dev, rates = {}, None, {}
        nd = None
        for i, l in enumerate(lines):
            m = re.match(r"# node (\S+): (\S+), link", l)
            if m:
                nd = m.group(1)
                continue
            m = re.match(r"tc class add dev \S+ parent 1:1 classid 1:[0-9a-f]+"
                         r" htb rate (\d+)bit ceil (\d+)bit burst (\d+)b "
                         r"cburst (\d+)b$", l)
            if not m:
                continue
            rate, ceil, burst, cburst = (int(x) for x in m.groups())
            # the comment just above names the capsule
            key = tuple(re.match(r"# (\S+)/(\S+):", lines[i - 1]).groups())
            seen[key] = seen.get(key, 0) + 1
            n += 1
            g, e, tau = guar(key, "net")
            s = qos[key + ("net",)][0]
            if burst < mtu or burst < F(ceil, 8 * hz):
                bad.append("%s: burst %d < MTU or rate/HZ" % (key, burst))
            if F(rate, 8) * tau < g:
                bad.append("%s: rate %d bit/s < Eq. 1 term" % (key, rate))
            if F(ceil, 8) * tau + cburst < e or ceil < rate:
                bad.append("%s: ceil %d + burst %d below the envelope" %
                           (key, ceil, cburst))
            rates[nd] = rates.get(nd, 0) + rate
        for nd, r in rates.items():
            if r > 8 * cap[nd][1]:
                bad.append("node %s: rates %d > link" % (nd, r))
        res = "net"
    elif target == "kubernetes":
        cur = {}
        items = []
        for l in lines:
            m = re.match(r"- node: (\S+)$", l)
            if m:
                cur = {"node": m.group(1)}
                items.append(cur)
            for k in ("app", "capsule"):
                m = re.match(r"  %s: (\S+)$" % k, l)
                if m:
                    cur[k] = m.group(1)
            m = re.match(r"    (requests|limits): \{cpu: (\d+)m\}$", l)
            if m:
                cur[m.group(1)] = int(m.group(2))
        req = {}
        for it in items:
            req[it["node"]] = req.get(it["node"], 0) + it["requests"]
        for nd, r in req.items():
            if F(r, 1000) > cap[nd][0]:
                bad.append("node %s: requests %dm > %s cpu" %
                           (nd, r, cap[nd][0]))
        for it in items:
            key = (it["app"], it["capsule"])
            seen[key] = seen.get(key, 0) + 1
            n += 1
            g, e, tau = guar(key, "cpu")
            if F(it["requests"], 1000) * tau < g:
                bad.append("%s: request below the Eq. 1 term" % (key,))
            if "limits" in it:
                periods = math.floor(tau / F(1, 10)) - 1
                if periods < 1 or \
                        periods * F(it["limits"], 1000) / 10 < e:
                    bad.append("%s: limit below the envelope" % (key,))
            elif tau >= F(2, 10):
                bad.append("%s: no limit although tau >= 0.2 s" % (key,))
        res = "cpu"
    else:
        sys.exit("unknown target " + target)
    want = expect(res)
    for key in sorted(want | set(seen)):
        if seen.get(key, 0) != 1 or key not in want:
            bad.append("%s rendered %d times" % (key, seen.get(key, 0)))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print("ok", n)


main()
