#!/usr/bin/env python3
"""check.py: random clusters, apps, profiles and placements for the
ovb-check tests (python3 stdlib only).

    check.py --seed S --dir D [--tight]

Writes D/cluster, D/apps, D/profile and D/skel (a plan of place, grid and
reject records only; t/oracle/check.py --fill completes it).  Profiles mix
bin widths (so the common grid moves values), tolerances from 0 to 0.2
and periods from 0.25 to 2 s; apps mix profiled and plain capsules,
O=/tau= overrides at both levels, lower bounds, pins and trust (0 among
the values).  The placement mostly honours pins and keeps an application's
capsules apart, and now and then does not: an unknown node, a capsule
left out, an application neither placed nor rejected, a profile other
than the apps file's.  --tight makes capacities small, so Eq. 1 and Eq. 3
fail often; otherwise they mostly hold."""

import argparse
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--tight", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    d = a.dir
    os.makedirs(d, exist_ok=True)

    nodes = [f"n{i}" for i in range(rng.randint(2, 5))]
    with open(os.path.join(d, "cluster"), "w") as f:
        f.write("ovb-cluster 1\n")
        for n in nodes:
            cpu = rng.choice([1, 2, 3] if a.tight else [4, 8, 16])
            net = rng.choice([1000000, 2000000] if a.tight else
                             [12500000, 125000000])
            f.write(f"node {n} {cpu} cpu {net} B/s\n")

    profs = []
    profres = {}    # profile -> its resources: a lower bound needs one
    with open(os.path.join(d, "profile"), "w") as f:
        f.write("ovb-profile 1\n")
        for i in range(rng.randint(2, 4)):
            name = f"p{i}"
            res = [r for r in ("cpu", "net") if rng.random() < 0.8]
            if not res:
                res = [rng.choice(["cpu", "net"])]
            profres[name] = res
            for r in res:
                w = rng.choice(["0.1", "0.25", "0.5", "0.3", "0.05"]
                               if r == "cpu" else
                               ["100000", "250000", "300000", "50000"])
                nb = rng.randint(1, 12)
                bins = {k: rng.choice([0, 1, 3, 10, 40]) for k in range(nb)}
                bins[nb - 1] = max(1, bins[nb - 1])
                unit, burst = ("cpu", "cpu-s") if r == "cpu" else ("B/s", "B")
                sigma = float(w) * rng.randint(1, nb) if nb > 1 else 0.0
                f.write(f"profile {name} {r}\n"
                        f"sigma {sigma:.6g} {unit}\n"
                        f"rho {rng.choice(['0', '0.05', '0.2']) if r == 'cpu' else rng.choice(['0', '20000', '150000'])} {burst}\n"
                        f"tau {rng.choice(['0.25', '0.5', '1', '2'])} s\n"
                        f"O {rng.choice(['0', '0.01', '0.05', '0.1', '0.2'])}\n"
                        f"interval 1 s\nwidth {w} {unit}\n"
                        f"intervals {sum(bins.values())}\n")
                for k in sorted(bins):
                    if bins[k]:
                        f.write(f"bin {k} {bins[k]}\n")
            profs.append(name)

    apps = []
    with open(os.path.join(d, "apps"), "w") as f:
        f.write("ovb-apps 1\n")
        names = [f"a{i}" for i in range(rng.randint(2, 5))]
        for an in names:
            opts = ""
            if rng.random() < 0.3:
                opts += f" O={rng.choice(['0', '0.02', '0.1', '0.3'])}"
            if rng.random() < 0.3:
                opts += f" tau={rng.choice(['0.5', '1', '3'])}"
            f.write(f"app {an}{opts}\n")
            caps = []
            for j in range(rng.randint(1, 3)):
                cn = f"c{j}"
                if rng.random() < 0.6:
                    p = rng.choice(profs)
                    line = f"capsule {cn} profile={p}"
                    lbmax = None
                else:
                    p = None
                    cpu = rng.choice(["0", "0.25", "0.5", "1", "1.5"])
                    net = rng.choice(["0", "100000", "1000000"])
                    if cpu == "0" and net == "0":
                        cpu = "0.3"
                    line = f"capsule {cn} cpu={cpu} net={net}"
                    lbmax = (float(cpu), float(net))
                pin = None
                if rng.random() < 0.2:
                    pin = rng.choice(nodes)
                    line += f" node={pin}"
                if rng.random() < 0.25:
                    lb = rng.choice([0.1, 0.5, 2, 3])
                    if lbmax:
                        lb = min(lb, lbmax[0])
                    # a lower bound on what the capsule does not use is
                    # an error (formats/plan.md): drawn, not written
                    if p and "cpu" not in profres[p]:
                        lb = 0
                    if lb > 0:
                        line += f" lb-cpu={lb:g}"
                if rng.random() < 0.15:
                    lb = rng.choice([50000, 3000000])
                    if lbmax:
                        lb = min(lb, lbmax[1])
                    if p and "net" not in profres[p]:
                        lb = 0
                    if lb > 0:
                        line += f" lb-net={lb:g}"
                if rng.random() < 0.2:
                    line += f" O={rng.choice(['0', '0.05', '0.15'])}"
                if rng.random() < 0.2:
                    line += f" tau={rng.choice(['0.25', '2'])}"
                f.write(line + "\n")
                caps.append((cn, p, pin))
            for other in names:
                if other != an and rng.random() < 0.25:
                    f.write(f"trust {other} {rng.choice(['0', '0.5', '1'])}\n")
            apps.append((an, caps))

    with open(os.path.join(d, "skel"), "w") as f:
        f.write("ovb-plan 1\n")
        if rng.random() < 0.3:
            f.write(f"grid {rng.choice([10, 100, 1000])}\n")
        rejects = []
        for an, caps in apps:
            u = rng.random()
            if u < 0.15:
                rejects.append(f"reject {an} no room\n")
                continue
            if u < 0.2:
                continue                          # unplaced
            free = list(nodes)
            rng.shuffle(free)
            for cn, p, pin in caps:
                if rng.random() < 0.06:
                    continue                      # incomplete
                if pin and rng.random() < 0.7:
                    node = pin
                elif rng.random() < 0.07:
                    node = "nowhere"
                elif free and rng.random() < 0.9:
                    node = free.pop()
                else:
                    node = rng.choice(nodes)
                prof = p or "-"
                if rng.random() < 0.03:
                    prof = "-" if p else rng.choice(profs)
                f.write(f"place {an} {cn} {node} {prof}\n")
        f.write("".join(rejects))


if __name__ == "__main__":
    main()
