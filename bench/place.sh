#!/bin/sh
# bench/place.sh: ovb-place at scale: CAPSULES capsules in applications of
# 2-10 onto NODES heterogeneous nodes, two resources, 100-bin
# distributions (t/gen/place_large.py), best of 3 runs, with the cost per
# capsule.  Usage: bench/place.sh [NODES [CAPSULES]]  (default 1000 100000)
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
nodes=${1:-1000}
caps=${2:-100000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 t/gen/place_large.py "$dir" "$nodes" "$caps"
r=$(python3 bench/measure.py 3 ovb-place "$dir/cluster" "$dir/apps" "$dir/profile")
ovb-place "$dir/cluster" "$dir/apps" "$dir/profile" >"$dir/plan"
placed=$(grep -c '^place ' "$dir/plan")
s=${r#seconds=}; s=${s%% *}
echo "ovb-place: $caps capsules ($(grep -c '^app ' "$dir/apps") applications) on $nodes nodes: $r"
echo "placed $placed capsules, rejected $(grep -c '^reject ' "$dir/plan" || true) applications"
python3 -c "print('per capsule: %.1f us' % ($s / $caps * 1e6))"
ovb-check "$dir/cluster" "$dir/apps" "$dir/plan" "$dir/profile" && echo "ovb-check: the plan holds"
