#!/usr/bin/env python3
"""First-fit decreasing with ovb-check as the node test, then a replay of
the following period (bench/tod-bitbrains.sh, issue 27).

  tod_ffd.py PLAN APPS PROFDIR C MODE NEXT-SERIES O OFFSET

PLAN: ovb-place's plan of every VM on one large node (its place, qos and
cpu-resv records are the capsules'); APPS: one application per VM; PROFDIR:
PROFDIR/VM.profile per VM; C: the nodes' CPUs; MODE: eq1 or tod (ovb-check
--mode).  VMs in decreasing Eq. 1 term (the plan's qos: (sigma tau + rho)
(1 - O) / tau); each joins the first open node on which ovb-check reports no
eq1, lb, eq3 or unmeasured violation, else opens a node.  Then, on
NEXT-SERIES (cpu), per node the slots where any of its VMs has a sample
(a missing sample as usage 0), those whose sum exceeds C, and whether
over/slots <= O (held); and per node and hour of the day (weekday or
weekend, clock UTC + OFFSET) the same: an hour broken when its own
fraction exceeds O.  Prints one line."""
import collections
import os
import subprocess
import sys
import tempfile

plan, apps, profdir, C, mode, nxt, O, off = sys.argv[1:9]
C, O, off = float(C), float(O), int(off)
recs, term = {}, {}
for line in open(plan):
    t = line.split()
    if t and t[0] in ('place', 'qos', 'cpu-resv', 'tbucket'):
        recs.setdefault(t[1], []).append(t)
        if t[0] == 'qos' and t[3] == 'cpu':
            s, r, tau, o = map(float, t[4:8])
            term[t[1]] = (s * tau + r) * (1 - o) / tau
appl, cur = {}, None
for line in open(apps):
    t = line.split()
    if t and t[0] == 'app':
        cur = t[1]
        appl[cur] = [line]
    elif t and cur:
        appl[cur].append(line)
order = sorted(recs, key=lambda a: (-term.get(a, 0), a))
d = tempfile.mkdtemp()
cl, pl, af = (os.path.join(d, x) for x in ('cluster', 'plan', 'apps'))
with open(cl, 'w') as f:
    f.write('ovb-cluster 1\nnode n %r cpu 1e12 B/s\n' % C)


def holds(members):
    with open(pl, 'w') as f:
        f.write('ovb-plan 1\ngrid 1000\n')
        for a in members:
            for t in recs[a]:
                t = list(t)
                if t[0] == 'place':
                    t[3] = 'n'
                f.write(' '.join(t) + '\n')
    with open(af, 'w') as f:
        f.write('ovb-apps 1\n')
        for a in members:
            f.writelines(appl[a])
    p = subprocess.run(['ovb-check', '--mode', mode, cl, af] +
                       [os.path.join(profdir, a + '.profile')
                        for a in members] + [pl],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit('ovb-check: %d %s' % (p.returncode, p.stderr))
    return not [x for x in p.stdout.splitlines()
                if x.split()[3] in ('eq1', 'lb', 'eq3', 'unmeasured')]


nodes = []
for a in order:
    for n in nodes:
        if holds(n + [a]):
            n.append(a)
            break
    else:
        nodes.append([a])
data, cur = collections.defaultdict(dict), None
for line in open(nxt):
    t = line.split()
    if t and t[0] == 'series':
        cur = t[1] if t[2] == 'cpu' else None
    elif t and t[0] == 'sample' and cur:
        data[cur][int(t[1])] = float(t[2])
held = hb = hn = 0
for vms in nodes:
    slots = set().union(*(data[v].keys() for v in vms))
    over, per, pover = 0, collections.Counter(), collections.Counter()
    for T in slots:
        lt = T + off
        h = (((lt // 86400) + 3) % 7 >= 5, lt % 86400 // 3600)
        per[h] += 1
        if sum(data[v].get(T, 0.0) for v in vms) > C:
            over += 1
            pover[h] += 1
    held += over <= O * len(slots)
    hb += sum(pover[h] > O * per[h] for h in per)
    hn += len(per)
print('%s C=%g vms=%d nodes=%d held=%d hours-broken=%d/%d' %
      (mode, C, len(order), len(nodes), held, hb, hn))
