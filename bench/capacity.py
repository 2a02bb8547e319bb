#!/usr/bin/env python3
"""bench/capacity.py: the paper's capacity results (Figs. 7 and 9 of the
overbooking paper), reproduced with the real tools.

Profiles shaped like Table 1: a web server whose CPU usage per 10 ms
interval has 100th/99th/95th percentiles 0.25/0.10/0.04 of a CPU, and a
database server (0.33/0.27/0.20), are turned into On/Off traces (one busy
period per interval at a random offset), then profiled by ovb-usage,
ovb-tbucket and ovb-profile at each tolerance O (tau = 1 s).  Then:

  Fig. 7: as many web servers as fit on 5..128 one-CPU nodes, per O;
  Fig. 9: applications of 2-10 capsules (replicated web servers, or a web
          front end and database back ends) at O = 5%, per policy.

Prints TSV tables (fig7: nodes O placed gain; fig9: nodes policy apps
capsules).  Usage: bench/capacity.py [OUTDIR]  (tools from bin/ or PATH)"""
import os
import random
import subprocess
import sys

I_NS = 10_000_000        # measurement interval: 10 ms
N_INTERVALS = 20000      # 200 s of trace
SHAPES = {
    # usage [CPUs] -> share of intervals; percentiles 100/99/95 as Table 1
    "web": [(0.01, 0.50), (0.04, 0.45), (0.10, 0.04), (0.25, 0.01)],
    "db": [(0.10, 0.50), (0.20, 0.45), (0.27, 0.04), (0.33, 0.01)],
}
TOLERANCES = [0, 0.01, 0.05, 0.10]
SIZES = [5, 16, 32, 64, 128]


def run(args, out=None):
    with open(out, "w") if out else open(os.devnull, "w") as f:
        subprocess.run(args, stdout=f, check=True)


def trace(out, seed):
    """One onoff file holding a capsule per shape."""
    rnd = random.Random(seed)
    with open(out, "w") as f:
        f.write("ovb-onoff 1\ncpus 1\n")
        for name in SHAPES:
            f.write("capsule %s comm:%s\n" % (name, name))
        for name, shape in SHAPES.items():
            us = []
            for u, share in shape:
                us += [u] * round(share * N_INTERVALS)
            rnd.shuffle(us)
            for k, u in enumerate(us):
                length = round(u * I_NS)
                start = k * I_NS + rnd.randrange(I_NS - length + 1)
                f.write("busy %s %d %d 1\n" % (name, start, start + length))
        f.write("span 0 %d\n" % (N_INTERVALS * I_NS))


def profiles(d):
    trace(d + "/shapes.onoff", 1)
    run(["ovb-usage", "-r", "cpu", "-I", "0.01", d + "/shapes.onoff"],
        d + "/shapes.usage")
    run(["ovb-tbucket", "-r", "cpu", d + "/shapes.onoff"], d + "/shapes.curve")
    for O in TOLERANCES:
        run(["ovb-profile", "-q", "-O", str(O), "-t", "1", d + "/shapes.usage",
             d + "/shapes.curve"], "%s/O%g.profile" % (d, O))


def cluster(d, n):
    path = "%s/c%d" % (d, n)
    with open(path, "w") as f:
        f.write("ovb-cluster 1\n")
        for i in range(n):
            f.write("node n%03d 1 cpu 12500000 B/s\n" % i)
    return path


def count(plan, what):
    return sum(1 for line in open(plan) if line.startswith(what))


def fig7(d):
    print("# fig7: web servers placed on N one-CPU nodes, by tolerance O")
    print("nodes\tO\tplaced\tgain")
    for n in SIZES:
        c = cluster(d, n)
        apps = "%s/web%d.apps" % (d, n)
        with open(apps, "w") as f:
            f.write("ovb-apps 1\n")
            for i in range(60 * n):
                f.write("app w%05d\ncapsule web profile=web\n" % i)
        base = None
        for O in TOLERANCES:
            plan = "%s/fig7-%d-%g.plan" % (d, n, O)
            run(["ovb-place", c, apps, "%s/O%g.profile" % (d, O)], plan)
            placed = count(plan, "place ")
            base = base or placed
            print("%d\t%g\t%d\t%.2f" % (n, O, placed, placed / base))


def fig9(d):
    print("# fig9: applications of 2-10 capsules placed at O = 0.05, by policy")
    print("nodes\tpolicy\tapps\tcapsules")
    rnd = random.Random(9)
    for n in SIZES:
        c = cluster(d, n)
        apps = "%s/mix%d.apps" % (d, n)
        with open(apps, "w") as f:
            f.write("ovb-apps 1\n")
            for i in range(6 * n):
                m = rnd.randint(2, 10)
                f.write("app a%05d\n" % i)
                shop = rnd.random() < 0.5
                for k in range(m):
                    p = "web" if not shop or k == 0 else "db"
                    f.write("capsule c%d profile=%s\n" % (k, p))
        for policy in ("best-fit", "worst-fit", "random", "tolerance"):
            plan = "%s/fig9-%d-%s.plan" % (d, n, policy)
            run(["ovb-place", "-p", policy, c, apps, d + "/O0.05.profile"], plan)
            print("%d\t%s\t%d\t%d" % (n, policy,
                                      len({l.split()[1] for l in open(plan)
                                           if l.startswith("place ")}),
                                      count(plan, "place ")))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/bench-capacity"
    os.makedirs(d, exist_ok=True)
    profiles(d)
    fig7(d)
    fig9(d)


if __name__ == "__main__":
    main()
