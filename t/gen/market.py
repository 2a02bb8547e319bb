#!/usr/bin/python3
"""Random Merkat market instances for t/0550-market.bats and t/0560.

  market.py DIR SEED NODES VMS [--mem] [--tight] [--new K] [--partition]

writes DIR/cluster and DIR/bids: NODES nodes of 50..200 cpu (with --mem
8192..32768 MiB, and each VM's 512..2048 MiB on a node where it fits),
VMS VMs with bids 1..40 credit and caps a_max 5..the smallest node (some
binding), each on a random node; the last K VMs new (node -).  --partition builds an instance of error 0: the VMs are
dealt to nodes, each node's bids proportional to its capacity, caps far
above the shares.  --tight (with --mem): nodes of 2048..4096 MiB and VMs
of 1024 or 2048, so that swaps between full nodes need staging moves."""
import random
import sys


def main():
    d, seed, N, M = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    opts = sys.argv[5:]
    mem = '--mem' in opts
    tight = '--tight' in opts
    part = '--partition' in opts
    new = int(opts[opts.index('--new') + 1]) if '--new' in opts else 0
    rnd = random.Random(seed)
    caps = [rnd.choice([50, 80, 100, 120, 150, 200]) for _ in range(N)]
    mems = [rnd.choice([8192, 16384, 32768]) for _ in range(N)]
    if tight:   # the cluster format's own field, in bytes
        mems = [rnd.choice([2048, 3072, 4096]) for _ in range(N)]
    vms = []
    if part:
        # node i gets k_i >= 1 VMs whose bids sum to caps[i] / 10
        per = [1] * N
        for _ in range(M - N):
            per[rnd.randrange(N)] += 1
        for i in range(N):
            total = caps[i] // 10 * 4
            cuts = sorted(rnd.sample(range(1, total), per[i] - 1)) if per[i] > 1 else []
            parts = [b - a for a, b in zip([0] + cuts, cuts + [total])]
            for p in parts:
                vms.append(('n%d' % (i + 1), p, max(caps)))
    else:
        for j in range(M):
            vms.append(['n%d' % rnd.randint(1, N), rnd.randint(1, 40),
                        rnd.randint(5, min(caps))])
    vmem = [rnd.choice([512, 1024, 2048]) for _ in vms]
    if tight:
        vmem = [rnd.choice([1024, 2048]) for _ in vms]
    if mem:
        # a placement where mem fits: each VM on a random node with room
        used = [0] * N
        for j, v in enumerate(vms):
            fit = [i for i in range(N) if used[i] + vmem[j] <= mems[i]]
            if not fit and tight:  # the roomiest node grows to hold it
                i = max(range(N), key=lambda i: mems[i] - used[i])
                mems[i] = used[i] + vmem[j]
                fit = [i]
            if not fit:  # shrink the VM to the largest room left
                i = max(range(N), key=lambda i: mems[i] - used[i])
                vmem[j] = max(256, (mems[i] - used[i]) // 256 * 256)
                fit = [i]
            i = rnd.choice(fit)
            used[i] += vmem[j]
            v[0] = 'n%d' % (i + 1)
    with open(d + '/cluster', 'w') as f:
        f.write('ovb-cluster 1\n')
        for i in range(N):
            f.write('node n%d %d cpu 125000000 B/s%s\n' % (i + 1, caps[i],
                    (' mem %d B' % (mems[i] << 20) if tight else
                     ' mem=%d' % mems[i]) if mem else ''))
    with open(d + '/bids', 'w') as f:
        f.write('ovb-bids 1\n')
        if rnd.random() < 0.3:
            f.write('reserve cpu %g credit/cpu\n' % rnd.choice([0.01, 1, 5]))
        for j, (node, bid, amax) in enumerate(vms):
            if j >= len(vms) - new:
                node = '-'
            f.write('vm v%d %s\n' % (j + 1, node))
            f.write('bid v%d cpu %s credit %s cpu\n' % (j + 1, bid, amax))
            if mem:
                f.write('bid v%d mem %d credit %d MiB\n' % (j + 1, rnd.randint(1, 20),
                        vmem[j]))


main()
