#!/usr/bin/env bats
# ovb-reserves --fanout: the hierarchy of section 3.1 of the hierarchical
# bank paper.  Groups of at most K nodes are managed separately; a top level
# (the same method, each group as one node) divides each class's share
# among the groups.  The groups are independent: --jobs solves them in
# worker processes with the same results.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	EX=$DATA/example.reserves
}

gen() {
	python3 "$ORACLE/reserves_gen.py" "$@"
}

# dev_of FILE ROUND: the cluster's deviation sum_j |sum_i R - N D| of R
dev_of() {
	awk -v k="$2" '$1 == "class" { D[$2] = $3 } $1 == "node" { n++ }
		$1 == "round" { r = $2 }
		r == k && $1 == "R" { c[$3] += $4 }
		END { for (j in D) { d = c[j] - n * D[j]; v += d < 0 ? -d : d }
			printf "%.9f\n", v }' "$1"
}

@test "fanout >= N is the flat problem, byte for byte" {
	ovb-reserves "$EX" >"$T/flat"
	ovb-reserves --fanout 4 "$EX" >"$T/four"
	cmp "$T/flat" "$T/four"
	gen --seed 21 --nodes 12 --classes 5 --rounds 3 >"$T/in"
	ovb-reserves "$T/in" >"$T/flat"
	ovb-reserves --fanout 100 --grouping random "$T/in" >"$T/big"
	cmp "$T/flat" "$T/big"
}

@test "example, two groups of two: still 60/30/10" {
	run -0 ovb-reserves --fanout 2 --report "$EX"
	assert_line "$(printf '1\tc1\t60\t60\t64.5\t0')"
	assert_line "$(printf '1\tc3\t10\t10\t2.5\t0')"
	ovb-reserves --fanout 2 "$EX" -o "$T/out"
	grep -q '^# ovb-reserves: lp steps 1-3, floor 1%, step 2 accuracy 0.0001 points, 2 groups of at most 2 nodes (contiguous)$' "$T/out"
	grep -q '^# round 1: lower bound 0 (of the flat V); deviation [0-9.e-]* after step 2, [0-9.e-]* points above the bound ([0-9]* pricing rounds\?), ' "$T/out"
}

@test "groups: sizes differ by at most one; every R within its bounds and nodes" {
	gen --seed 22 --nodes 61 --classes 6 --rounds 2 >"$T/in"
	ovb-reserves --fanout 7 "$T/in" -o "$T/out"
	ovb-fmt "$T/out"
	# 61 nodes in 9 groups: 7 of 7 and 2 of 6
	grep -q ', 9 groups of at most 7 nodes (contiguous)$' "$T/out"
	awk '$1 == "round" { k = $2 }
		$1 == "R" { if ($4 < 1 - 1e-9) exit 1; s[$2 " " k] += $4 }
		END { for (x in s) if (s[x] > 100 + 1e-6) exit 1 }' "$T/out"
}

@test "hierarchy never beats the flat optimum V (steps 1-2), for every grouping" {
	local s g flatv dev
	for s in 31 32 33 34; do
		gen --seed "$s" --nodes 40 --classes 6 >"$T/in"
		ovb-reserves --steps 2 "$T/in" >"$T/flat"
		flatv=$(sed -n 's/^# round 1: V \([^;]*\);.*/\1/p' "$T/flat")
		for g in contiguous random similar; do
			ovb-reserves --steps 2 --fanout 6 --grouping "$g" "$T/in" >"$T/h"
			dev=$(dev_of "$T/h" 1)
			awk -v d="$dev" -v v="$flatv" 'BEGIN { exit !(d >= v - 1e-6 * (1 + v)) }' ||
				fail "seed $s $g: deviation $dev below the flat V $flatv"
		done
	done
}

sci_python() {
	local p
	for p in python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null &&
			"$p" -c 'import scipy, numpy' 2>/dev/null; then
			PY=$p
			return 0
		fi
	done
	skip "python3-scipy is not installed (.ci/deps)"
}

@test "the hierarchy's deviation is the flat optimum (HiGHS), every grouping; the bound never above it" {
	sci_python
	run -0 "$PY" "$ORACLE/reserves_hier.py" --count 40 --seed0 1
	[[ $output == "agree 40 instances, 120 hierarchical runs"* ]]
}

@test "--iterate 1: one pricing round; the lower bound stays below the flat V, the deviation above it" {
	gen --seed 16 --nodes 200 --classes 12 --no-r --usage random >"$T/in"
	ovb-reserves --steps 2 "$T/in" >"$T/flat"
	flatv=$(sed -n 's/^# round 1: V \([^;]*\);.*/\1/p' "$T/flat")
	ovb-reserves --steps 2 --fanout 20 --iterate 1 "$T/in" >"$T/one"
	grep -q '(1 pricing round)' "$T/one"
	lb=$(sed -n 's/^# round 1: lower bound \([^ ]*\) .*/\1/p' "$T/one")
	dev=$(dev_of "$T/one" 1)
	awk -v l="$lb" -v d="$dev" -v v="$flatv" 'BEGIN { exit !(l <= v + 1e-7 * (1 + v) && d >= v - 1e-6 * (1 + v)) }' ||
		fail "bound $lb, deviation $dev, flat V $flatv"
}

@test "--jobs: the same bytes as one process (lp and bank, several rounds)" {
	gen --seed 41 --nodes 50 --classes 5 --rounds 4 >"$T/in"
	ovb-reserves --fanout 8 "$T/in" >"$T/j1"
	ovb-reserves --fanout 8 -j 2 "$T/in" >"$T/j2"
	ovb-reserves --fanout 8 --jobs 5 "$T/in" >"$T/j5"
	cmp "$T/j1" "$T/j2"
	cmp "$T/j1" "$T/j5"
	ovb-reserves -m bank --bank-keep 1 --fanout 8 "$T/in" >"$T/b1"
	ovb-reserves -m bank --bank-keep 1 --fanout 8 -j 3 "$T/in" >"$T/b3"
	cmp "$T/b1" "$T/b3"
	# more jobs than groups
	ovb-reserves --fanout 25 -j 8 "$T/in" | cmp - <(ovb-reserves --fanout 25 "$T/in")
}

@test "--jobs: bad input is reported before any worker starts; nothing written" {
	gen --seed 42 --nodes 20 --classes 4 >"$T/in"
	run -65 --separate-stderr ovb-reserves --fanout 5 -j 2 --floor 30 "$T/in" -o "$T/o"
	assert_output ''
	[[ ! -e $T/o ]]
	[[ $stderr == "ovb-reserves: $T/in: 4 classes with a floor of 30% each need more than a node"* ]]
}

@test "--grouping random is deterministic per --seed; similar groups alike nodes" {
	gen --seed 51 --nodes 30 --classes 5 --rounds 2 >"$T/in"
	ovb-reserves --fanout 5 --grouping random --seed 7 "$T/in" >"$T/a"
	ovb-reserves --fanout 5 --grouping random --seed 7 "$T/in" >"$T/b"
	cmp "$T/a" "$T/b"
	ovb-reserves --fanout 5 --grouping random --seed 8 "$T/in" >"$T/c"
	! cmp -s "$T/a" "$T/c"
	ovb-reserves --fanout 5 --grouping similar "$T/in" -o "$T/s"
	grep -q '(similar)$' "$T/s"
}

@test "steady, 100 nodes, c3 on the first 30, 10 managers (Fig. 5): c3 gets its 10%" {
	python3 "$ORACLE/reserves_sim.py" steady100 --rounds 8 -- --fanout 10 >"$T/sim"
	awk -F'\t' '$1 >= 3 && $2 == "c3" { d = $4 - 10; if (d < 0) d = -d
		if (d > 1e-6) exit 1 }' "$T/sim"
	# grouped by what they serve: contiguous groups are the 3 with c3 load
	# and 7 without; random groups mix them
	python3 "$ORACLE/reserves_sim.py" steady100 --rounds 8 -- --fanout 10 \
		--grouping random >"$T/rnd"
	awk -F'\t' '$1 >= 3 && $2 == "c3" { d = $4 - 10; if (d < 0) d = -d
		if (d > 1e-6) exit 1 }' "$T/rnd"
}
