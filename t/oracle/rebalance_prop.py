#!/usr/bin/python3
"""t/oracle/rebalance_prop.py: ovb-rebalance on random market instances,
every plan replayed move by move by t/oracle/market.py.

    rebalance_prop.py WORKDIR FIRST COUNT [--tabu]

Instance k (seed FIRST + k) from t/gen/market.py: small ones (2-3 nodes,
3-6 VMs, the exact search) on two seeds of three, larger ones (4-6
nodes, 8-16 VMs, the tabu search and the greedy plan) on the third; tight
memory (nodes of 2-4 GiB in the cluster's own mem field, VMs of 1-2 GiB,
so that swaps need staging) on two seeds of three, mem bids on some
others; a new VM on every fifth;
M_max none, 0, 1, 2 or 3 in turn.  Each plan is checked by market.check
(moves applied in order from the input, mem within every node's capacity
after each step, at most M_max moves, staging ones included, error after
recomputed, never above the input's).  On the small ones the error after
is compared with the exhaustive optimum over the placements an executable
order of at most M_max moves reaches (market.reach), and with the
unconstrained one.  --tabu runs ovb-rebalance --tabu (the tabu search
and its greedy plan on the small ones too).  Prints the figures; exits 1
on a failed check.
"""
import io
import os
import subprocess
import sys
from contextlib import redirect_stdout
from fractions import Fraction as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import market  # noqa: E402

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gen',
                   'market.py')


def main(argv):
    work, first, count = argv[1], int(argv[2]), int(argv[3])
    mmaxes = [None, 0, 1, 2, 3]
    n = small = hit = hit_any = staged = moves_total = 0
    worst, worst_seed, fails = 0.0, None, 0
    free = free_hit = 0             # small ones without M_max
    for k in range(count):
        seed = first + k
        d = os.path.join(work, str(seed))
        os.makedirs(d, exist_ok=True)
        is_small = seed % 3 != 0
        if is_small:
            N, M = 2 + seed % 2, 3 + seed % 4
        else:
            N, M = 4 + seed % 3, 8 + seed % 9
        opts = []
        if seed % 2 or seed % 3 != 2:
            opts.append('--mem')
            if seed % 3 != 2:
                opts.append('--tight')
        if seed % 5 == 0:
            opts += ['--new', '1']
        subprocess.run([sys.executable, GEN, d, str(seed), str(N), str(M)] +
                       opts, check=True)
        mmax = mmaxes[seed % 5]
        cmd = ['ovb-rebalance', '--seed', str(seed)] + \
            (['--tabu'] if '--tabu' in argv else [])
        if mmax is not None:
            cmd += ['--mmax', str(mmax)]
        cmd += [d + '/cluster', d + '/bids']
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            print('seed %d: ovb-rebalance exit %d: %s' % (seed, r.returncode,
                                                          r.stderr.strip()))
            fails += 1
            continue
        with open(d + '/plan', 'w') as f:
            f.write(r.stdout)
        n += 1
        buf = io.StringIO()
        try:
            with redirect_stdout(buf):
                market.check(d + '/cluster', d + '/bids', d + '/plan',
                             10 ** 9 if mmax is None else mmax)
        except AssertionError as e:
            print('seed %d: check failed: %s' % (seed, e))
            fails += 1
            continue
        steps = [ln.split() for ln in r.stdout.splitlines()
                 if ln.startswith(('move', 'deploy'))]
        vms = [s[1] for s in steps]
        staged += len(vms) != len(set(vms))
        moves_total += sum(1 for s in steps if s[0] == 'move')
        if not is_small:
            continue
        small += 1
        after = float([ln.split()[2] for ln in r.stdout.splitlines()
                       if ln.startswith('error after')][0])
        nodes = market.read_cluster(d + '/cluster')
        order, vmd, _ = market.read_bids(d + '/bids')
        lim = 10 ** 9 if mmax is None else mmax
        errs = [max(market.market(nodes, order, vmd, dict(zip(order, x)))[2]
                    .values())
                for x in market.reach(nodes, order, vmd, lim)]
        best = float(min(errs))
        gap = after - best
        if after <= best * (1 + 1e-9) + 1e-12:
            hit += 1
        elif gap > worst:
            worst, worst_seed = gap, seed
        buf = io.StringIO()
        with redirect_stdout(buf):
            market.best(d + '/cluster', d + '/bids')
        top = float(F(buf.getvalue().split()[0]))
        hit_any += after <= top * (1 + 1e-9) + 1e-12
        if mmax is None:
            free += 1
            free_hit += after <= top * (1 + 1e-9) + 1e-12
    print('instances %d, plans checked move by move %d, failed %d' %
          (count, n, fails))
    print('plans with a staging move (a vm in two steps) %d, moves %d' %
          (staged, moves_total))
    print('small: optimum reached within M_max by an executable order '
          '%d of %d (%.1f%%), worst gap %g (seed %s); the unconstrained '
          'optimum %d of %d' % (hit, small, 100.0 * hit / max(small, 1),
                                worst, worst_seed, hit_any, small))
    print('small without M_max: the unconstrained optimum %d of %d' %
          (free_hit, free))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
