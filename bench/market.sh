#!/bin/sh
# bench/market.sh: ovb-rebalance (Merkat's Algorithm 1, fixed).
#
# 1. The defaults: on 40 small random instances (3-4 nodes, 6-7 VMs, from
#    t/gen/market.py) the share that reaches the exhaustive optimum
#    (t/oracle/market.py best) for N_iter in 10 30 100 and tenure in 0 3 10
#    (--tabu: these sizes are otherwise searched exactly).
# 2. Scale: 10,000 VMs on 1,000 nodes (random placement, cpu and mem),
#    rebalanced with M_max = 100, 1000 and no limit: error before and
#    after, migrations, wall time.
# Run from the repository root after `make`: sh bench/market.sh
set -eu
PY=/usr/bin/python3
BIN=${BIN:-bin}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

echo "## defaults: optimum reached on 40 small instances"
for s in $(seq 1 40); do
	mkdir -p "$d/$s"
	$PY t/gen/market.py "$d/$s" "$s" $((3 + s % 2)) $((6 + s % 2)) >/dev/null
	$PY t/oracle/market.py best "$d/$s/cluster" "$d/$s/bids" | cut -d' ' -f2 >"$d/$s/best"
done
printf 'niter\ttenure\toptimal\n'
for n in 10 30 100; do
	for t in 0 3 10; do
		hit=0
		for s in $(seq 1 40); do
			$BIN/ovb-rebalance --tabu --niter $n --tenure $t --seed "$s" \
				"$d/$s/cluster" "$d/$s/bids" >"$d/$s/plan"
			a=$(awk '$1 == "error" && $2 == "after" { print $3 }' "$d/$s/plan")
			hit=$((hit + $($PY -c "import sys; a, b = map(float, sys.argv[1:]); \
				print(int(a <= b * (1 + 1e-9) + 1e-12))" "$a" "$(cat "$d/$s/best")")))
		done
		printf '%s\t%s\t%s/40\n' $n $t $hit
	done
done

echo "## scale: 10,000 VMs on 1,000 nodes"
mkdir -p "$d/big"
$PY t/gen/market.py "$d/big" 1 1000 10000 --mem
printf 'M_max\tbefore\tafter\tbound\tmoves\tseconds\n'
for m in 100 1000 none; do
	opt=
	[ $m = none ] || opt="--mmax $m"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	$BIN/ovb-rebalance $opt "$d/big/cluster" "$d/big/bids" -o "$d/big/plan"
	t1=$(date +%s.%N)
	awk -v m=$m -v t="$(echo "$t1 - $t0" | bc)" '
		$1 == "error" { e[$2] = $3 } $1 == "move" { n++ }
		END { printf "%s\t%.4g\t%.4g\t%.3g\t%d\t%.2f\n", m, e["before"], e["after"], e["bound"], n, t }' \
		"$d/big/plan"
done
