#!/usr/bin/env bats
# Reservations the target can grant (issue 29 item 1; formats/plan.md
# `enforce`, README "Placed for its target"): `ovb-place --enforce T`
# reserves per capsule what T will really grant (tc: a burst of at least
# the MTU and rate/HZ; the CPU targets: the least quota or runtime), so
# Eq. 1 and Eq. 3 hold for the enforced numbers and `ovb-enforce -t T`
# renders the plan with no clamp; `ovb-check -t T` flags a plan placed
# without it whose clamped numbers break Eq. 1.
#
# Oracles: t/oracle/enforce.py (ovb-enforce's output against the kernel's
# limits, the guarantees and caps) and t/oracle/enforce_grant.py (the
# granted bursts: tc's exactly; Eq. 1 of the stated numbers, in rationals).

bats_require_minimum_version 1.5.0

TARGETS="tc cgroup cgroup1 systemd sched-deadline kubernetes"

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	ORACLE=$BATS_TEST_DIRNAME/oracle
}

# rendered T CLUSTER APPS PROFILE PLAN: ovb-enforce -t T renders PLAN with no
# clamp (0, nothing on stderr), t/oracle/enforce.py accepts its output,
# t/oracle/enforce_grant.py the plan, and ovb-check -t T the plan.
rendered() {
	local t=$1 cl=$2 ap=$3 pr=$4 pl=$5
	run -0 --separate-stderr ovb-enforce -t "$t" -o "$T/out" "$cl" "$pl"
	assert_equal "$stderr" ""
	run -0 "$PY" "$ORACLE/enforce.py" "$t" "$cl" "$pl" "$T/out"
	run -0 "$PY" "$ORACLE/enforce_grant.py" "$t" "$cl" "$ap" "$pr" "$pl"
	run -0 --separate-stderr ovb-check -t "$t" "$cl" "$ap" "$pl" "$pr"
	assert_output ""
}

@test "the demo plan: placed for each target, rendered with no clamp (before: tc refused 24 of 24 capsules)" {
	demo_profile
	local cl=$DATA/demo.cluster ap=$DATA/demo.apps t
	# as `make demo` places it (-t sched-deadline), tc cannot render it
	# as written
	ovb-place -q -t sched-deadline "$cl" "$ap" "$T/f.profile" -o "$T/p"
	run -65 --separate-stderr ovb-enforce -t tc "$cl" "$T/p"
	[[ $stderr == *"burst 8556 B < rate/HZ 26136 B"* ]] || fail "stderr: $stderr"
	for t in $TARGETS; do
		run -0 --separate-stderr ovb-place -t sched-deadline --enforce "$t" -o "$T/$t.plan" \
			"$cl" "$ap" "$T/f.profile"
		# as many capsules as make demo's plan, bursts raised or not
		assert_equal "$(grep -c '^place ' "$T/$t.plan")" 24
		grep -qx "enforce $t 100 1500 0.9" "$T/$t.plan" || fail "$t: no enforce record"
		rendered "$t" "$cl" "$ap" "$T/f.profile" "$T/$t.plan"
	done
	# the web capsules' bursts, as tc grants them
	run -0 grep -m1 '^qos shop01 web net ' "$T/tc.plan"
	assert_output --regexp '^qos shop01 web net [0-9.e+]+ 26136 1 0\.01$'
	# rendered with other kernel limits than it was placed with: said
	run -0 --separate-stderr ovb-enforce -t tc --hz 1000 --clamp "$cl" "$T/tc.plan"
	[[ $stderr == *"placed for tc with HZ 100, MTU 1500 B and dl-cap 0.9 (its enforce record), rendered with 1000, 1500 B and 0.9"* ]] ||
		fail "stderr: $stderr"
	# a plan placed for another target: ovb-enforce says so
	run --separate-stderr ovb-enforce -t tc "$cl" "$T/cgroup.plan"
	[[ $stderr == *"placed for other targets (its enforce record), not for tc"* ]] ||
		fail "stderr: $stderr"
	run -1 ovb-check --enforce tc "$cl" "$ap" "$T/cgroup.plan" "$T/f.profile"
	assert_output --partial "violation - - enforce $T/cgroup.plan was placed for other targets, not for tc"
}

@test "property: random plans placed for each target render with no clamp, tc's bursts exactly the oracle's (12 seeds x 6 targets)" {
	local s t n=0 raised=0
	for s in $(seq 1 12); do
		mkdir "$T/$s"
		"$PY" "$BATS_TEST_DIRNAME/gen/place.py" $s "$T/$s"
		for t in $TARGETS; do
			ovb-place -q --enforce "$t" -o "$T/$s/$t.plan" \
				"$T/$s/cluster" "$T/$s/apps" "$T/$s/profile" ||
				fail "seed $s $t: ovb-place failed"
			rendered "$t" "$T/$s/cluster" "$T/$s/apps" "$T/$s/profile" \
				"$T/$s/$t.plan"
			n=$((n + 1))
		done
		# tc raised some burst here (the profiles' are below the MTU)
		ovb-place -q -o "$T/$s/none.plan" "$T/$s/cluster" "$T/$s/apps" "$T/$s/profile"
		cmp -s <(grep '^qos .* net ' "$T/$s/none.plan") \
			<(grep '^qos .* net ' "$T/$s/tc.plan") || raised=$((raised + 1))
	done
	echo "# $n plans rendered with no clamp; tc raised bursts in $raised of 12" >&3
	((raised > 6)) || fail "tc raised bursts in only $raised of 12 instances"
}

@test "ovb-check -t tc: a plan placed without --enforce whose clamped bursts break Eq. 1 is flagged; placed for tc it is not" {
	printf 'ovb-cluster 1\nnode n1 1 cpu 3000 B/s\n' >"$T/c"
	printf 'ovb-apps 1\napp a O=0\ncapsule c1 profile=p\napp b O=0\ncapsule c1 profile=p\n' >"$T/a"
	printf 'ovb-profile 1\nprofile p net\nsigma 1000 B/s\nrho 100 B\ntau 1 s\nO 0\ninterval 1 s\nwidth 1000 B/s\nintervals 1\nbin 1 1\n' >"$T/p"
	ovb-place -q -o "$T/plan" "$T/c" "$T/a" "$T/p"
	assert_equal "$(grep -c '^place ' "$T/plan")" 2
	run -0 ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	# clamped, each burst is 1500 B: (1000 + 1500) x 2 = 5000 B/s > 3000
	run -0 --separate-stderr ovb-enforce -t tc --clamp "$T/c" "$T/plan"
	run -1 --separate-stderr ovb-check -t tc --clamp "$T/c" "$T/a" "$T/plan" "$T/p"
	assert_output "violation n1 net target tc: placed without --enforce tc, its numbers as tc renders them (2 bursts raised to what it grants, as --clamp does) break Eq. 1: load=5000 B/s > C=3000 B/s capsules a/c1,b/c1"
	# placed for tc: one fits, the other is rejected; nothing to flag
	ovb-place -q --enforce tc -o "$T/tc.plan" "$T/c" "$T/a" "$T/p"
	assert_equal "$(grep -c '^place ' "$T/tc.plan")" 1
	rendered tc "$T/c" "$T/a" "$T/p" "$T/tc.plan"
}

@test "enforce record: read, canonical, refused when bad (65 at its line); --enforce is not ovb-enforce's (64)" {
	printf 'ovb-plan 1\nenforce tc,cgroup 100 1500 0.9\n' >"$T/p"
	run -0 ovb-fmt -c "$T/p"
	assert_line "enforce cgroup,tc 100 1500 0.9"
	local -a bad=(
		2 "tc is given twice" 'enforce tc,tc 100 1500 0.9\n'
		2 "unknown target 'htb'" 'enforce htb 100 1500 0.9\n'
		2 "out of range" 'enforce tc 0 1500 0.9\n'
		3 "given twice" 'enforce tc 100 1500 0.9\nenforce tc 100 1500 0.9\n'
	)
	local row
	for ((row = 0; row < ${#bad[@]}; row += 3)); do
		printf "ovb-plan 1\n${bad[row + 2]}" >"$T/b"
		run -65 --separate-stderr ovb-fmt "$T/b"
		assert_error_line "$T/b" "${bad[row]}" "${bad[row + 1]}"
	done
	run -64 --separate-stderr ovb-enforce -t tc --enforce tc "$T/p" "$T/p"
	[[ $stderr == *"--enforce is ovb-place's and ovb-check's"* ]] || fail "stderr: $stderr"
}
