#!/usr/bin/python3
"""enforce.py TARGET CLUSTER PLAN OUT [DL_CAP HZ MTU]: checks ovb-enforce's
output OUT for TARGET independently of lib/enforce.c, in exact rationals of
the doubles the files' decimals round to.  Prints one line per violation
and exits 1 if any; prints "ok N" (N settings checked) otherwise.

Checked: every number within the kernel's limits (ovb-enforce(1), "From plan to
machine"); for a guarantee (SCHED_DEADLINE supply bound, cpu.weight share
under the node's capacity, tc htb rate, Kubernetes request) the service
over any window of the capsule's tau is at least its Eq. 1 term
(sigma tau + rho)(1 - O); for a cap (cpu.max and CPUQuota at the worst
phase, tc ceil + burst, Kubernetes limit over CFS periods of 100 ms) the
amount let through over tau is at least sigma tau + rho (so never below
the Eq. 1 term); every capsule of the plan is rendered once.

Memory (a plan's "qos APP CAPSULE mem REQUEST LIMIT WINDOW O", targets
cgroup, cgroup1, systemd, kubernetes): the protection (memory.min,
memory.soft_limit_in_bytes, MemoryMin=, requests.memory) is the request
rounded up to the facility's granule (a page of 4096 B; Kubernetes: a
MiB, in Mi), the cap (memory.max, memory.limit_in_bytes, MemoryMax=,
limits.memory) the limit rounded up the same way, or the facility's "no
limit" only beyond the page counter's largest, (2^63 - 1) // 4096 pages;
a node's protections add up to at most its memory (its "mem M B"); the
Kubernetes QoS class is Guaranteed exactly when requests equal limits for
both cpu and memory; memory appears for every capsule with a mem qos, and
only for those."""
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


PAGES_MAX = ((2**63 - 1) // 4096) * 4096     # the page counter's largest


def check_mem(target, qos, node, memcap, mem, bad):
    """The memory settings mem[(app, capsule)] = [(node, protection, cap
    or None)] against the plan's mem qos records; returns how many."""
    g = 2**20 if target == "kubernetes" else 4096
    want = {k[:2] for k in qos if k[2] == "mem"}
    tot = {}
    for key in sorted(want | set(mem)):
        got = mem.get(key, [])
        if len(got) != 1 or key not in want:
            bad.append("%s: memory rendered %d times" % (key, len(got)))
            continue
        nd, lo, hi = got[0]
        if nd != node[key]:
            bad.append("%s: memory on %s, placed on %s" %
                       (key, nd, node[key]))
        req, lim = qos[key + ("mem",)][0:2]
        lim = max(lim, req)
        if lo % g or not req <= lo < req + g:
            bad.append("%s: protection %d B is not the request %s B "
                       "rounded up to %d B" % (key, lo, float(req), g))
        up = math.ceil(lim / g) * g
        if hi is None:
            if up <= PAGES_MAX:
                bad.append("%s: no memory limit for a limit of %s B" %
                           (key, float(lim)))
        elif hi % g or not lim <= hi < lim + g or hi > PAGES_MAX:
            bad.append("%s: cap %d B is not the limit %s B rounded up "
                       "to %d B" % (key, hi, float(lim), g))
        elif hi < lo:
            bad.append("%s: cap %d B < protection %d B" % (key, hi, lo))
        if lo > PAGES_MAX:
            bad.append("%s: protection %d B beyond the page counter" %
                       (key, lo))
        tot[nd] = tot.get(nd, 0) + lo
    for nd, s in sorted(tot.items()):
        if nd not in memcap:
            bad.append("node %s: memory but no mem in the cluster" % nd)
        elif s > memcap[nd]:
            bad.append("node %s: memory protections %d B > its %s B" %
                       (nd, s, float(memcap[nd])))
    return len(mem)


def main():
    target, cpath, ppath, opath = sys.argv[1:5]
    dl_cap = F(sys.argv[5]) if len(sys.argv) > 5 else F(90, 100)
    hz = int(sys.argv[6]) if len(sys.argv) > 6 else 100
    mtu = int(sys.argv[7]) if len(sys.argv) > 7 else 1500
    cap, memcap = {}, {}
    for t in records(cpath):
        if t[0] == "node":
            cap[t[1]] = (num(t[2]), num(t[4]))
            for i in range(6, len(t) - 2):
                if t[i] == "mem" and t[i + 2] == "B":
                    memcap[t[1]] = num(t[i + 1])
    qos, node = {}, {}
    for t in records(ppath):
        if t[0] == "place":
            node[(t[1], t[2])] = t[3]
        elif t[0] == "qos":
            qos[(t[1], t[2], t[3])] = [num(v) for v in t[4:8]]
    bad = []
    seen = {}
    mem = {}    # (app, capsule) -> [(node, protection, cap or None)]

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
        memf = {"cgroup": ("memory.min", "memory.max", "max"),
                "cgroup1": ("memory.soft_limit_in_bytes",
                            "memory.limit_in_bytes", "-1"),
                "systemd": ("MemoryMin", "MemoryMax", "infinity")}[target]
        cpuf = {"cgroup": "cpu.max", "cgroup1": "cpu.cfs_quota_us",
                "systemd": "CPUQuota"}[target]
        for (nd, cg), v in vals.items():
            app, capsule = cg.split(".", 1)
            key = (app, capsule)
            if memf[0] in v or memf[1] in v:
                lo = v.get(memf[0], "missing")
                hi = v.get(memf[1], "missing")
                if not re.match(r"\d+$", lo) or \
                        not re.match(r"\d+$", hi) and hi != memf[2]:
                    bad.append("%s: memory %s %s" % (key, lo, hi))
                    continue
                mem.setdefault(key, []).append(
                    (nd, int(lo), None if hi == memf[2] else int(hi)))
            if cpuf not in v:
                continue
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
            m = re.match(r"    (requests|limits): \{(.*)\}$", l)
            if m:
                d = {}
                for kv in m.group(2).split(", "):
                    mm = re.match(r"(cpu): (\d+)m$|(memory): (\d+)Mi$",
                                  kv)
                    if not mm:
                        bad.append("%s: %s %r" % (cur, m.group(1), kv))
                        continue
                    if mm.group(1):
                        d["cpu"] = int(mm.group(2))
                    else:
                        d["memory"] = int(mm.group(4)) * 2**20
                cur[m.group(1)] = d
            m = re.match(r"  # QoS class (\w+): ", l)
            if m:
                cur["qos"] = m.group(1)
        req = {}
        for it in items:
            rq, lm = it.get("requests", {}), it.get("limits", {})
            key = (it["app"], it["capsule"])
            if "memory" in rq:
                mem.setdefault(key, []).append(
                    (it["node"], rq["memory"], lm.get("memory")))
            want = "Burstable"
            if all(r in rq and r in lm and rq[r] == lm[r]
                   for r in ("cpu", "memory")):
                want = "Guaranteed"
            if it.get("qos") != want:
                bad.append("%s: QoS class %s, not %s" %
                           (key, it.get("qos"), want))
            if "cpu" in rq:
                it["requests"] = rq["cpu"]
                if "cpu" in lm:
                    it["limits"] = lm["cpu"]
                else:
                    it.pop("limits", None)
            else:
                it["skip"] = True
        items = [it for it in items if "skip" not in it]
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
    if target in ("cgroup", "cgroup1", "systemd", "kubernetes"):
        n += check_mem(target, qos, node, memcap, mem, bad)
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print("ok", n)


main()
