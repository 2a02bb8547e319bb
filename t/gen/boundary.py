#!/usr/bin/python3
"""boundary.py [--kind KIND] SEED DIR: writes a small placement instance
built to sit on the boundaries of the placement rules to DIR: cluster,
apps, profile (absent when every capsule is plain) and args (the ovb-place
options, e.g. --grid 0).  Prints the kind.

Kinds (default: by SEED, round robin):
  plain  plain reservations whose decimals add up exactly to a node's
         capacity (0.1 + 0.9, 0.1 + 0.2 + 0.7, thirds written with 16
         digits, eighths exact in binary), sometimes one ulp off; O, tau
         and lower bounds (equal to the reservation) that decide.
  tail   profiled capsules on capacities that are whole numbers of bins,
         with O equal to the exact tail of one capsule or of a pair
         (1 of 4 intervals above with O = 0.25, 1 of 10 with O = 0.1).
  bound  a capsule arriving on a node whose cheap upper bound
         Pr(Y > C - max U) is exactly O while the exact tail is below it
         (1/4 against O = 1/2), or the exact tail is O.
  mixed  ordinary random instances: 1-4 nodes, plain and profiled,
         pins, trust 0, lower bounds, O and tau overrides, grids
         (--grid 0, 3, 4, 7, 10 and the default).
Sizes: 1-4 nodes, 1-6 applications of 1-3 capsules, cpu and net.  The
same SEED and KIND give the same bytes."""
import os
import random
import sys
from fractions import Fraction as F

KINDS = ("plain", "tail", "bound", "mixed")


def dec(m, d):
    """The integer m in units of 10^-d, as a plain decimal string."""
    neg, m = m < 0, abs(m)
    s = str(m).rjust(d + 1, "0")
    ip, fp = (s[:-d], s[-d:].rstrip("0")) if d else (s, "")
    return ("-" if neg else "") + ip + ("." + fp if fp else "")


def frac_dec(q, digits=17):
    """A fraction as a decimal: exact when it has a finite expansion,
    else rounded to `digits` places; a tolerance of 1 or more is 1/2."""
    if q >= 1:
        q = F(1, 2)
    den = q.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den == 1:
        d = 0
        while (q * 10 ** d).denominator != 1:
            d += 1
        return dec(int(q * 10 ** d), d)
    return dec(round(q * 10 ** digits), digits)


def nudge(rnd, s):
    """The decimal s, or the next double above or below it (repr)."""
    import math
    x = float(s)
    y = math.nextafter(x, math.inf if rnd.random() < 0.5 else 0)
    r = repr(y)
    return s if "e" in r or not y > 0 else r


def split(rnd, total, parts):
    """A random composition of the integer total into positive parts."""
    if parts >= total:
        parts = max(1, total)
    cuts = sorted(rnd.sample(range(1, total), parts - 1)) if parts > 1 else []
    edges = [0] + cuts + [total]
    return [edges[i + 1] - edges[i] for i in range(parts)]


class Units:
    """A capacity and its parts, in units of 10^-d."""

    @staticmethod
    def pick(rnd, scale=1):
        style = rnd.choice(("tenth", "tenth", "hundredth", "third", "eighth"))
        if style == "tenth":
            return 1, rnd.randint(3, 30) * scale
        if style == "hundredth":
            return 2, rnd.randint(30, 300) * scale
        if style == "third":
            return 16, rnd.randint(1, 3) * scale * 10 ** 16
        return 3, rnd.randint(2, 24) * 125 * scale


def third_parts(total, parts):
    q = total // parts
    return [q] * (parts - 1) + [total - q * (parts - 1)]


def parts_of(rnd, d, total, parts):
    if d == 16:
        return third_parts(total, parts)
    if d == 3:     # eighths: stay exact in binary
        return [p * 125 for p in split(rnd, total // 125, parts)]
    return split(rnd, total, parts)


class Inst:
    def __init__(self, rnd):
        self.rnd = rnd
        self.nodes = []      # (name, cpu str, net str)
        self.blocks = []     # profile blocks: (name, res, dict)
        self.apps = []       # (name, app opts, [(cap name, opts)], trusts)
        self.args = []

    def node(self, cpu, net):
        name = "n%d" % len(self.nodes)
        self.nodes.append((name, cpu, net))
        return name

    def app(self, caps, opts=()):
        name = "a%d" % len(self.apps)
        self.apps.append((name, list(opts), caps, []))
        return name

    def write(self, out):
        with open(os.path.join(out, "cluster"), "w") as f:
            f.write("ovb-cluster 1\n")
            for n, c, b in self.nodes:
                f.write("node %s %s cpu %s B/s\n" % (n, c, b))
        if self.blocks:
            with open(os.path.join(out, "profile"), "w") as f:
                f.write("ovb-profile 1\n")
                for name, res, q in self.blocks:
                    unit, amount = (("cpu", "cpu-s") if res == "cpu" else
                                    ("B/s", "B"))
                    f.write("profile %s %s\n" % (name, res))
                    f.write("sigma %s %s\nrho %s %s\ntau %s s\nO %s\n" % (
                        q["sigma"], unit, q["rho"], amount, q["tau"], q["O"]))
                    n = sum(q["bins"].values())
                    f.write("interval 1 s\nwidth %s %s\nintervals %d\n" % (
                        q["width"], unit, n))
                    for k in sorted(q["bins"]):
                        if q["bins"][k]:
                            f.write("bin %d %d\n" % (k, q["bins"][k]))
        with open(os.path.join(out, "apps"), "w") as f:
            f.write("ovb-apps 1\n")
            for name, opts, caps, trusts in self.apps:
                f.write(" ".join(["app", name] + opts) + "\n")
                for cn, co in caps:
                    f.write(" ".join(["capsule", cn] + co) + "\n")
                for t in trusts:
                    f.write("trust %s 0\n" % t)
        with open(os.path.join(out, "args"), "w") as f:
            f.write(" ".join(self.args) + "\n")

    def sprinkle(self, pin=0.1, trust=0.15):
        """Pins and trust 0 records, at random."""
        rnd = self.rnd
        for i, (name, opts, caps, trusts) in enumerate(self.apps):
            for cn, co in caps:
                if rnd.random() < pin and not any(o.startswith("node=")
                                                  for o in co):
                    co.append("node=%s" % rnd.choice(self.nodes)[0])
            if i and rnd.random() < trust:
                trusts.append(self.apps[rnd.randrange(i)][0])

    def group(self, caps):
        """Shuffles the capsules into applications of 1-3 capsules."""
        rnd = self.rnd
        rnd.shuffle(caps)
        while caps:
            k = min(len(caps), rnd.choice((1, 1, 2, 3)))
            self.app([("c%d" % i, co) for i, co in enumerate(caps[:k])])
            caps = caps[k:]


def tau_opt(rnd):
    return "tau=%s" % rnd.choice(("0.3", "0.7", "2", "0.1", "1.1", "0.5"))


def gen_plain(rnd, I):
    caps = []
    for _ in range(rnd.randint(1, 4)):
        d, T = Units.pick(rnd)
        dn, Tn = Units.pick(rnd, 100)
        I.node(dec(T, d), dec(Tn, dn))
        k = rnd.randint(1, 3) if d != 16 else rnd.randint(2, 3)
        cpus = [dec(p, d) for p in parts_of(rnd, d, T, k)]
        k = len(cpus)   # a small total has fewer parts than asked
        nets = ([dec(p, dn) for p in parts_of(rnd, dn, Tn, k)]
                if rnd.random() < 0.5 else ["0"] * k)
        if rnd.random() < 0.2:
            i = rnd.randrange(k)
            cpus[i] = nudge(rnd, cpus[i])
        for c, n in zip(cpus, nets):
            co = ["cpu=%s" % c, "net=%s" % n]
            if rnd.random() < 0.3:
                co.append("O=%s" % rnd.choice(("0.5", "0.1", "0.25", "0.3",
                                               "0.7")))
            if rnd.random() < 0.25:
                co.append("lb-cpu=%s" % c)
            if n != "0" and rnd.random() < 0.15:
                co.append("lb-net=%s" % n)
            if rnd.random() < 0.3:
                co.append(tau_opt(rnd))
            caps.append(co)
    for _ in range(rnd.randint(0, 2)):      # a few that need a node alone
        caps.append(["cpu=%s" % rnd.choice(("0.1", "0.2", "0.5", "1")),
                     "net=%s" % rnd.choice(("0", "100.1", "250"))])
    I.group(caps[:9])
    for name, opts, cs, _ in I.apps:
        if rnd.random() < 0.15:
            opts.append("O=%s" % rnd.choice(("0.5", "0.2")))
        if rnd.random() < 0.15:
            opts.append(tau_opt(rnd))
    I.apps[:] = I.apps[:6]
    I.sprinkle()
    I.args = rnd.choice(([], ["--grid", "0"], ["--grid", "3"]))


WIDTHS = (("0.1", 1), ("0.25", 2), ("0.2", 1), ("0.05", 2), ("0.5", 1),
          ("0.3", 1))
NETW = (("100", 0), ("125", 0), ("50.5", 1), ("33.3", 1))


def mul(w, K):
    """K * w, the decimal string w times an integer, exact in decimal."""
    d = len(w.split(".")[1]) if "." in w else 0
    return dec(int(w.replace(".", "")) * K, d)


def hist(rnd, kmax, n=None):
    n = n or rnd.choice((2, 3, 4, 5, 8, 10))
    bins = {}
    for _ in range(n):
        k = rnd.randint(0, kmax)
        bins[k] = bins.get(k, 0) + 1
    return bins


def tail(hs, K):
    """Pr(sum of the ideal indices > K), exact, the histograms independent."""
    y = {0: F(1)}
    for h in hs:
        n = sum(h.values())
        z = {}
        for a, pa in y.items():
            for k, c in h.items():
                z[a + k] = z.get(a + k, 0) + pa * F(c, n)
        y = z
    return sum((p for k, p in y.items() if k > K), F(0))


def block(I, name, res, width, bins, O, sigma=None, rho="0", tau="1"):
    I.blocks.append((name, res, {"sigma": sigma or width, "rho": rho,
                                 "tau": tau, "O": O, "width": width,
                                 "bins": bins}))


def gen_tail(rnd, I):
    w, _ = rnd.choice(WIDTHS)
    K = rnd.randint(2, 6)
    wn, _ = rnd.choice(NETW)
    Kn = rnd.randint(2, 6)
    for _ in range(rnd.randint(1, 3)):
        I.node(mul(w, K), mul(wn, Kn))
    hs = []
    for p in range(rnd.randint(2, 4)):
        h = hist(rnd, K + 1)
        hs.append(h)
        tails = [tail([h], K), tail([h], K - 1)]
        if p:
            tails.append(tail([h, hs[rnd.randrange(p)]], K))
        t = rnd.choice([x for x in tails if x < 1] or [F(0)])
        O = frac_dec(t)
        sigma = rho = None
        if rnd.random() < 0.3:          # Eq. 1 tight too
            sigma = mul(w, rnd.randint(1, K))
        block(I, "p%d" % p, "cpu", w, h, O, sigma, rho or "0",
              rnd.choice(("1", "1", "0.3", "2")))
        if rnd.random() < 0.6:
            hn = hist(rnd, Kn + 1)
            block(I, "p%d" % p, "net", wn, hn, frac_dec(
                rnd.choice([tail([hn], Kn), F(0), F(1, 4)])))
    for _ in range(rnd.randint(2, 6)):
        caps = []
        for c in range(rnd.choice((1, 1, 2, 3))):
            co = ["profile=p%d" % rnd.randrange(len(hs))]
            if rnd.random() < 0.15:
                co.append("O=%s" % frac_dec(rnd.choice(
                    [tail([rnd.choice(hs)], K), F(1, 4), F(1, 10)])))
            if rnd.random() < 0.1:
                co.append("lb-cpu=%s" % mul(w, rnd.randint(1, K)))
            caps.append(("c%d" % c, co))
        I.app(caps)
    I.sprinkle(0.1, 0.1)
    I.args = rnd.choice(([], [], ["--grid", "0"]))


def gen_bound(rnd, I):
    w, _ = rnd.choice(WIDTHS[:5])
    K = rnd.randint(2, 6)
    wn, _ = rnd.choice(NETW)
    n0 = I.node(mul(w, K), mul(wn, 4))
    for _ in range(rnd.randint(0, 2)):
        I.node(mul(w, rnd.randint(1, K)), mul(wn, 4))
    first = [hist(rnd, K, rnd.choice((2, 4, 5, 8, 10)))
             for _ in range(rnd.choice((1, 1, 2)))]
    jB = rnd.randint(1, K)
    hB = hist(rnd, jB, rnd.choice((2, 4, 5, 8, 10)))
    hB[jB] = hB.get(jB, 0) + 1
    bound = tail(first, K - jB)          # Pr(Y > C - max U)
    exact = tail(first + [hB], K)
    pool = [bound] * 3 + [exact] * 2 + [tail(first, K)]
    Ot = rnd.choice([x for x in pool if x < 1] or [F(1, 2)])
    O = frac_dec(Ot)
    for i, h in enumerate(first + [hB]):
        block(I, "p%d" % i, "cpu", w, h, O)
    for i in range(len(first) + 1):
        co = ["profile=p%d" % i]
        if len(I.nodes) > 1 and rnd.random() < 0.8:
            co.append("node=%s" % n0)
        I.app([("c0", co)])
    for _ in range(rnd.randint(0, 2)):          # ordinary ones after
        I.app([("c0", ["profile=p%d" % rnd.randint(0, len(first))])])
    I.args = rnd.choice(([], [], ["--grid", "0"]))


def gen_mixed(rnd, I):
    widths = [rnd.choice(WIDTHS)[0] for _ in range(2)]
    for _ in range(rnd.randint(1, 4)):
        I.node(rnd.choice(("1", "2", "0.3", "1.1", "2.7", "4", "0.7", "3.3",
                           "1.5")),
               rnd.choice(("1000", "1000.1", "2000", "333.3", "1500.5")))
    nprof = rnd.randint(0, 4)
    for p in range(nprof):
        w = rnd.choice(widths)
        h = hist(rnd, rnd.randint(1, 12))
        block(I, "p%d" % p, "cpu", w, h,
              rnd.choice(("0", "0.1", "0.25", "0.05", "0.2", "0.5")),
              rnd.choice(("0.1", "0.3", "0.5", w)),
              rnd.choice(("0", "0.05", "0.2", "0.03")),
              rnd.choice(("1", "0.5", "2", "0.3")))
        if rnd.random() < 0.6:
            wn = rnd.choice(NETW)[0]
            block(I, "p%d" % p, "net", wn, hist(rnd, rnd.randint(1, 30)),
                  rnd.choice(("0", "0.1", "0.25")),
                  rnd.choice(("100", "300.3", wn)),
                  rnd.choice(("0", "50", "10.1")))
    for _ in range(rnd.randint(1, 6)):
        caps = []
        for c in range(rnd.choice((1, 1, 2, 3))):
            if nprof and rnd.random() < 0.6:
                co = ["profile=p%d" % rnd.randrange(nprof)]
                if rnd.random() < 0.15:
                    co.append("lb-cpu=%s" % rnd.choice(("0.2", "0.5", "0.7")))
            else:
                x = rnd.choice(("0.1", "0.2", "0.3", "0.5", "0.7", "0.9",
                                "1", "1.5", "0.3333333333333333"))
                co = ["cpu=%s" % x,
                      "net=%s" % rnd.choice(("0", "100", "333.3", "500"))]
                if rnd.random() < 0.15:
                    co.append("lb-cpu=%s" % x)
            if rnd.random() < 0.2:
                co.append("O=%s" % rnd.choice(("0", "0.05", "0.2", "0.5")))
            if rnd.random() < 0.15:
                co.append(tau_opt(rnd))
            caps.append(("c%d" % c, co))
        opts = []
        if rnd.random() < 0.15:
            opts.append("O=%s" % rnd.choice(("0.1", "0.3")))
        if rnd.random() < 0.15:
            opts.append(tau_opt(rnd))
        I.app(caps, opts)
    I.sprinkle(0.15, 0.2)
    I.args = rnd.choice(([], ["--grid", "0"], ["--grid", "3"],
                         ["--grid", "4"], ["--grid", "7"], ["--grid", "10"]))


def generate(seed, out, kind=None):
    kind = kind or KINDS[seed % len(KINDS)]
    rnd = random.Random("%s-%d" % (kind, seed))
    I = Inst(rnd)
    {"plain": gen_plain, "tail": gen_tail, "bound": gen_bound,
     "mixed": gen_mixed}[kind](rnd, I)
    I.write(out)
    return kind


def main(argv):
    kind = None
    if argv[:1] == ["--kind"]:
        kind, argv = argv[1], argv[2:]
    if len(argv) != 2 or (kind and kind not in KINDS):
        sys.exit(__doc__)
    os.makedirs(argv[1], exist_ok=True)
    print(generate(int(argv[0]), argv[1], kind))


if __name__ == "__main__":
    main(sys.argv[1:])
