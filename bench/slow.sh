#!/bin/sh
# bench/slow.sh: the two shapes issue 25 found slow, on instances of
# bench/slow_gen.py (a generator of their own, not bench/place.sh's):
#   trust: 33,000 one-capsule applications on 4 nodes, each with trust
#          0.5 to the one before it: ovb-place;
#   check: NODES heterogeneous nodes (1-8 CPUs, 1-10 Gbit/s), applications
#          of 2-10 capsules of web/db/stream 100-bin profiles filling 90%
#          of the CPU by Eq. 1, 1% of applications with trust 0 to
#          another, 0.5% of capsules with lb-cpu, 0.2% pinned: ovb-place,
#          then ovb-check of its plan (must accept it).
# Best of REPEAT runs (default 1): wall and CPU time (user + system: on a
# loaded machine the CPU time is the figure), peak memory
# (bench/measure.py).  Usage: bench/slow.sh [NODES [REPEAT [SEED]]]
# (default 10000 1 1: about 1,150,000 capsules)
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
nodes=${1:-10000}
rep=${2:-1}
seed=${3:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
m() { python3 bench/measure.py "$rep" "$@"; }
python3 bench/slow_gen.py trust "$dir/t"
r=$(m ovb-place -q -o "$dir/t/plan" "$dir/t/cluster" "$dir/t/apps")
echo "trust: 33000 one-capsule applications on 4 nodes, trust 0.5 to the previous: ovb-place $r;" \
	"$(grep -c '^place ' "$dir/t/plan") placed, $(grep -c '^reject ' "$dir/t/plan" || true) rejected"
python3 bench/slow_gen.py check "$dir/c" "$nodes" "$seed"
r=$(m ovb-place -q -o "$dir/c/plan" "$dir/c/cluster" "$dir/c/apps" "$dir/c/profile")
echo "check: $(grep -c '^capsule ' "$dir/c/apps") capsules on $nodes nodes (seed $seed): ovb-place $r;" \
	"$(grep -c '^place ' "$dir/c/plan") placed, $(grep -c '^reject ' "$dir/c/plan" || true) applications rejected"
r=$(m ovb-check "$dir/c/cluster" "$dir/c/apps" "$dir/c/plan" "$dir/c/profile")
echo "  ovb-check (accepts the plan) $r"
