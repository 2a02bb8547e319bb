#!/usr/bin/env bats
# ovb-place and ovb-check at the boundary: on instances built to sit on the
# limits of the placement rules (t/gen/boundary.py), every plan ovb-place
# writes passes ovb-check, and no application it rejects can be placed by
# exhaustive exact search (t/oracle/place_boundary.py: the contract of
# formats/plan.md in exact rationals of the doubles, no safety margin).

bats_require_minimum_version 1.5.0
load test_helper

ORACLE="$BATS_TEST_DIRNAME/oracle/place_boundary.py"
GEN="$BATS_TEST_DIRNAME/gen/boundary.py"
PY=/usr/bin/python3


# boundary KIND FIRST LAST: the oracle over seeds FIRST..LAST of KIND
# finds no disagreement.
boundary() {
	run -0 "$PY" "$ORACLE" --kind "$1" "$2" "$3"
	assert_line --regexp "^$(($3 - $2 + 1)) instances, [0-9]+ apps, [1-9][0-9]* placed, [1-9][0-9]* rejected: 0 disagreements\$"
	echo "# ${lines[-1]}" >&3
}

# The hand-made instance: one 1-cpu node, a = 0.25 cpu, b = B cpu.
instance() {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\n' >"$d/cluster"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=0.25\napp b\ncapsule y cpu=%s\n' \
		"$1" >"$d/apps"
	rm -f "$d/profile"
}

a_on_n1='place a x n1 -\nqos a x cpu 0.25 0 1 0\ncpu-resv a x 0.25 1 0.25\n'

@test "boundary: the generator writes valid files, the same bytes for a seed" {
	local k d=$BATS_TEST_TMPDIR f
	for k in plain tail bound mixed; do
		run -0 "$PY" "$GEN" --kind "$k" 7 "$d/$k.1"
		assert_output "$k"
		"$PY" "$GEN" --kind "$k" 7 "$d/$k.2"
		for f in cluster apps profile args; do
			[[ ! -e $d/$k.1/$f ]] || cmp "$d/$k.1/$f" "$d/$k.2/$f"
		done
		run -0 ovb-fmt "$d/$k.1/cluster" "$d/$k.1/apps"
		[[ ! -e $d/$k.1/profile ]] || run -0 ovb-fmt "$d/$k.1/profile"
	done
	"$PY" "$GEN" --kind tail 8 "$d/other"
	! cmp -s "$d/tail.1/apps" "$d/other/apps" ||
		! cmp -s "$d/tail.1/profile" "$d/other/profile"
}

@test "boundary: the oracle accepts an exact fit (0.25 + 0.75 cpu on 1 cpu)" {
	local d=$BATS_TEST_TMPDIR
	instance 0.75
	printf "ovb-plan 1\n$a_on_n1%s\n%s\n%s\n%s\n" 'place b y n1 -' \
		'qos b y cpu 0.75 0 1 0' 'cpu-resv b y 0.75 1 0.75' \
		'risk n1 cpu 0 0 1 1' >"$d/plan"
	run -0 "$PY" "$ORACLE" --plan "$d" "$d/plan"
	assert_output '1 instances, 2 apps, 2 placed, 0 rejected: 0 disagreements'
}

@test "boundary: the oracle reports a rejected application that fits exactly" {
	local d=$BATS_TEST_TMPDIR
	instance 0.75
	printf "ovb-plan 1\n$a_on_n1%s\n%s\n" 'risk n1 cpu 0 0 0.25 1' \
		'reject b capsule y: no feasible node of 1 (Eq. 1 on 1)' >"$d/plan"
	run -0 ovb-check "$d/cluster" "$d/apps" "$d/plan"
	run -1 "$PY" "$ORACLE" --plan "$d" "$d/plan"
	assert_line "$d/plan (rejected-placeable): b rejected, but placeable: y->n1 (n1 cpu Eq. 1 load = C; n1 cpu Eq. 3 Pr(Y>C) = O_min = 0)"
	assert_line --regexp ': 1 disagreements \(rejected-placeable 1\)$'
}

@test "boundary: the oracle reports a plan one ulp over Eq. 1" {
	local d=$BATS_TEST_TMPDIR
	instance 0.7500000000000001      # the double after 0.75
	printf "ovb-plan 1\n$a_on_n1%s\n%s\n%s\n%s\n" 'place b y n1 -' \
		'qos b y cpu 0.7500000000000001 0 1 0' \
		'cpu-resv b y 0.7500000000000001 1 0.7500000000000001' \
		'risk n1 cpu 1 0 1.0000000000000002 1' >"$d/plan"
	run -1 "$PY" "$ORACLE" --plan "$d" "$d/plan"
	assert_line --regexp '\(placed-infeasible\): b placed on n1, breaks .*y: n1 cpu: Eq\. 1: load 1\(\+1\.1e-16\) > C 1\.0 \(by 1\.11e-16'
}

@test "boundary: the oracle reports Eq. 1 over in exact terms though its doubles add up to C" {
	# 0.1 + 0.9 rounds to 1.0 in doubles; their exact values add up to
	# more than 1.  Profiled, so that Eq. 3 holds (Y <= 0.2).
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\n' >"$d/cluster"
	printf 'ovb-apps 1\napp a\ncapsule x profile=p\napp b\ncapsule y profile=q\n' >"$d/apps"
	local p
	for p in 'p 0.1' 'q 0.9'; do
		set -- $p
		printf 'profile %s cpu\nsigma %s cpu\nrho 0 cpu-s\ntau 1 s\nO 0\n' "$1" "$2"
		printf 'interval 1 s\nwidth 0.1 cpu\nintervals 1\nbin 1 1\n'
	done | sed '1i ovb-profile 1' >"$d/profile"
	{
		printf 'ovb-plan 1\n'
		printf 'place a x n1 p\nqos a x cpu 0.1 0 1 0\ncpu-resv a x 0.1 1 0.1\n'
		printf 'place b y n1 q\nqos b y cpu 0.9 0 1 0\ncpu-resv b y 0.9 1 0.9\n'
		printf 'risk n1 cpu 0 0 1 1\n'
	} >"$d/plan"
	run -1 "$PY" "$ORACLE" --plan "$d" "$d/plan"
	assert_line --regexp '\(placed-infeasible\): b placed on n1, breaks .*y: n1 cpu: Eq\. 1: load 1\(\+2\.8e-17\) > C 1\.0 \(by 2\.78e-17'
}

@test "boundary: plain reservations that add up to a capacity (1000 seeds)" {
	boundary plain 1 1000
}

@test "boundary: histogram tails equal to O (1000 seeds)" {
	boundary tail 1 1000
}

@test "boundary: cheap bounds and tails landing on the limit (1000 seeds)" {
	boundary bound 1 1000
}

@test "boundary: mixed random instances, pins, trust, grids (1000 seeds)" {
	boundary mixed 1 1000
}

@test "boundary: every policy and trust weighting (4 x 100 seeds)" {
	local p
	for p in best-fit tolerance random; do
		run -0 "$PY" "$ORACLE" --place-args "--policy $p" 2001 2100
		assert_line --regexp ': 0 disagreements$'
	done
	run -0 "$PY" "$ORACLE" --place-args "--trust-weight 0.5" 2101 2200
	assert_line --regexp ': 0 disagreements$'
}
