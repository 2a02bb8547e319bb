#!/usr/bin/env bats
# ovb-reserves never fails on a valid instance: thousands of random runs
# (random, blocky and zero usage, idle classes, full nodes, many rounds,
# flat and hierarchical, lp and bank) exit 0 with every promise held
# (t/oracle/reserves_stress.py); step 2 agrees with cvxopt on the hard
# kind (r = D, blocky) and closed loops never stop.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
}

sci_python() {
	local p
	for p in python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null &&
			"$p" -c 'import scipy, cvxopt' 2>/dev/null; then
			PY=$p
			return 0
		fi
	done
	skip "python3-scipy and python3-cvxopt are not installed (.ci/deps)"
}

@test "1,000 random runs up to 40 nodes x 12 classes: exit 0, every promise held" {
	run -0 python3 "$ORACLE/reserves_stress.py" --count 1000 --seed0 1
	[[ $output == "ok 1000 runs "* ]]
}

@test "1,000 more, up to 120 nodes x 30 classes" {
	run -0 python3 "$ORACLE/reserves_stress.py" --count 1000 --seed0 100000 \
		--max-nodes 120 --max-classes 30
	[[ $output == "ok 1000 runs "* ]]
}

@test "step 2 against cvxopt: r = D half the time, blocky and zero usage, up to 30 x 12" {
	sci_python
	run -0 "$PY" "$ORACLE/reserves_lp.py" --count 100 --seed0 9000 \
		--max-nodes 30 --max-classes 12 --usage mix --no-r-share 0.5
	[[ $output == "agree 100 instances"* ]]
}

@test "closed loops: 12 rounds of the manager loop on simulated nodes, flat and grouped" {
	local sc
	for sc in steady4 steady100 dynamic100; do
		run -0 python3 "$ORACLE/reserves_sim.py" "$sc" --rounds 12
		run -0 python3 "$ORACLE/reserves_sim.py" "$sc" --rounds 12 -- --fanout 7 --grouping random
	done
}
