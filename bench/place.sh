#!/bin/sh
# bench/place.sh: ovb-place and ovb-check at fleet scale: CAPSULES capsules
# in applications of 2-10 onto NODES heterogeneous nodes (4-64 CPUs, 1 or
# 10 Gbit/s), two resources (three with MEM), 100-bin distributions
# (t/gen/place_large.py),
# and the same at a tenth of both (the growth per capsule).  The peer is a
# pass over every node for every capsule (ovb-place --scan, the same
# plan), measured in the same run at the tenth (and at full size when
# CAPSULES <= 200000).  Best of REPEAT runs (default 1): wall and CPU time
# (user + system; on a loaded machine the CPU time is the figure), peak
# memory.  SEED (default 1) is the generator's: how full the cluster is
# varies with it (bench/README.md).  MEM "mem" adds memory, a third
# resource (nodes of 4 GiB a cpu, a mem block per profile).  Usage:
# bench/place.sh [NODES [CAPSULES [REPEAT [SEED [MEM]]]]]
# (default 1000 100000 1 1; the fleet figure: 10000 1000000)
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
nodes=${1:-1000}
caps=${2:-100000}
rep=${3:-1}
seed=${4:-1}
mem=${5:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cpu() { r=${1#*cpu=}; echo "${r%% *}"; }
field() { r=${1#*$2=}; echo "${r%% *}"; }
one() {  # NAME NODES CAPS: measures place (index, and --scan if $4), check
	d=$dir/$1
	mkdir "$d"
	python3 t/gen/place_large.py "$d" "$2" "$3" "$seed" $mem
	ri=$(python3 bench/measure.py "$rep" ovb-place -q -o "$d/plan" "$d/cluster" "$d/apps" "$d/profile")
	placed=$(grep -c '^place ' "$d/plan")
	rej=$(grep -c '^reject ' "$d/plan" || true)
	rc=$(python3 bench/measure.py "$rep" ovb-check "$d/cluster" "$d/apps" "$d/plan" "$d/profile")
	echo "$3 capsules on $2 nodes (seed $seed${mem:+, mem}): ovb-place $ri; $placed placed, $rej applications rejected"
	echo "  ovb-check (accepts the plan) $rc"
	python3 -c "print('  per capsule: %.1f us CPU' % ($(cpu "$ri") / $3 * 1e6))"
	eval "cpu_$1=$(cpu "$ri")"
	if [ "${4:-}" ]; then
		rs=$(python3 bench/measure.py "$rep" ovb-place -q --scan -o "$d/plan.scan" "$d/cluster" "$d/apps" "$d/profile")
		cmp -s "$d/plan" "$d/plan.scan" || { echo "  --scan gives another plan"; exit 1; }
		echo "  the peer, ovb-place --scan (the same plan): $rs"
		python3 -c "print('  ratio: the index %.1fx faster (CPU)' % ($(cpu "$rs") / $(cpu "$ri")))"
	fi
}
if [ "$nodes" -lt 10 ]; then   # no tenth: issue 15's 33,000 on 4 nodes
	one full "$nodes" "$caps" scan
	exit 0
fi
one small $((nodes / 10)) $((caps / 10)) scan
if [ "$caps" -le 200000 ]; then one full "$nodes" "$caps" scan; else one full "$nodes" "$caps"; fi
python3 -c "print('growth: per capsule at %d is %.2fx that at %d' % ($caps, ($cpu_full / $caps) / ($cpu_small / ($caps / 10)), $caps / 10))"
