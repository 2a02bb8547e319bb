#!/bin/sh
# The joint mode (ovb-place --mode joint): first-fit decreasing of every
# VM of DATA on the week it is replayed on, each node holding by that
# week's own samples (its slots above C at most O = 1 % of them, a VM
# without a sample in a slot as 0 there): the hindsight bound the other
# rules of bench/README.md ("Time-of-day windows") are measured against,
# with ovb-check --mode joint re-judging each plan.  Profiles (for O and
# the decreasing order, by the Eq. 1 term) from the two weeks before, as
# bench/tod-bitbrains.sh makes them.
#   bench/joint-bitbrains.sh [DATA [CPUS...]]   (default: bitbrains-rnd-250, 64 32 16)
# Needs ../shared/data; bin/ on the PATH (make).  Output: bench/README.md.
set -eu
data=${1:-../shared/data/bitbrains-rnd-250}
[ $# -gt 0 ] && shift
cpus=${*:-64 32 16}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
	"$data"/2013-8/*.csv.gz -o "$t/train.series"
ovb-import --bitbrains -q -r cpu --from 2013-08-19 --to 2013-08-26 \
	"$data"/2013-8/*.csv.gz -o "$t/next.series"
ovb-usage -q -r cpu "$t/train.series" -o "$t/u"
ovb-tbucket -q -r cpu "$t/train.series" -o "$t/c"
ovb-profile -q -O 0.01 -t 300 "$t/u" "$t/c" -o "$t/p"
awk '$1 == "profile" { print "app", $2, "O=0.01"; print "capsule c profile=" $2 }
	BEGIN { print "ovb-apps 1" }' "$t/p" >"$t/apps"
echo "$(grep -c '^series' "$t/next.series") VMs in the replayed week, $(grep -c '^sample' "$t/next.series") samples"
for c in $cpus; do
	awk -v c="$c" 'BEGIN { print "ovb-cluster 1"; for (i = 1; i <= 300; i++)
		print "node n" i, c, "cpu 1e12 B/s" }' >"$t/cl"
	for m in eq1 joint; do
		set -- -p first-fit-decreasing
		[ "$m" = joint ] && set -- "$@" --mode joint --series "$t/next.series"
		/usr/bin/time -f "%U %S %e" -o "$t/time" ovb-place -q "$@" "$t/cl" \
			"$t/apps" "$t/p" -o "$t/plan"
		nodes=$(awk '$1 == "place" { print $4 }' "$t/plan" | sort -u | wc -l)
		rej=$(grep -c '^reject' "$t/plan" || true)
		ovb-check --mode joint --series "$t/next.series" "$t/cl" "$t/apps" \
			"$t/plan" "$t/p" >"$t/v" || true
		broken=$(grep -c ' joint ' "$t/v" || true)
		undecided=$(grep -c ' unmeasured ' "$t/v" || true)
		read -r u s e <"$t/time"
		echo "$c cpu, $m: $nodes nodes, $rej rejected; on the week's samples $broken broken, $undecided undecided (a VM without samples there); CPU $u+$s s, wall $e s"
	done
done
