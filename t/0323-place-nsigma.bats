#!/usr/bin/env bats
# ovb-place --mode nsigma --nsigma N (lib/nsigma.c): per node and
# resource the capsules' U means + N sqrt(the sum of their variances) <=
# C, decided exactly (D = C - sum(mean) >= 0 and N^2 sum(var) <= D^2 for
# the exact values of the doubles); the plan states `mode nsigma N` and
# ovb-check decides it the same way (violation kind nsigma).
# t/oracle/place_nsigma.py recomputes every node's rule in Fractions and
# checks that no rejected one-capsule application fits anywhere.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
}

# A profile u whose U is 0 or 2 cpu, each half the time: mean 1, var 1.
two_point() {
	printf 'ovb-profile 1\nprofile u cpu\nsigma 2 cpu\nrho 0 cpu-s\ntau 1 s\nO 0.01\ninterval 1 s\nwidth 1 cpu\nintervals 2\nbin 0 1\nbin 2 1\n'
}

@test "boundary: 4 x (mean 1, var 1) at N = 2 fill C = 8 exactly; a node one ulp smaller takes 3; ovb-check and the oracle agree" {
	two_point >"$T/p"
	printf 'ovb-cluster 1\nnode n1 8 cpu 1000 B/s\nnode n2 7.999999999999999 cpu 1000 B/s\n' >"$T/c"
	{
		echo 'ovb-apps 1'
		for i in 1 2 3 4 5 6 7 8; do printf 'app a%d\ncapsule c profile=u\n' "$i"; done
	} >"$T/a"
	run -0 --separate-stderr ovb-place --mode nsigma --nsigma 2 -p first-fit-decreasing "$T/c" "$T/a" "$T/p"
	assert_line 'mode nsigma 2'
	assert_equal "$(grep -c '^place a[0-9] c n1 ' <<<"$output")" 4
	assert_equal "$(grep -c '^place a[0-9] c n2 ' <<<"$output")" 3
	assert_line --partial 'reject a8 capsule c: no feasible node of 2 (N-sigma on 2)'
	assert_line --partial 'nearest n1, cpu mean 5 + 2 sqrt(var 5) > 8 cpu'
	echo "$output" >"$T/plan"
	run -0 ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	run -0 python3 "$ORACLE/place_nsigma.py" "$T/c" "$T/a" "$T/plan" "$T/p"
	assert_line 'n1 cpu holds 4.0 4.0'
	assert_line agree
	# a fifth capsule on n1, and N a little larger: ovb-check and the
	# oracle say so
	variant five "$T/plan" 's/^place a5 c n2 /place a5 c n1 /'
	run -1 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	assert_line 'violation n1 cpu nsigma mean=5 + N=2 sqrt(var=5) > C=8 cpu capsules a1/c,a2/c,a3/c,a4/c,a5/c'
	run -1 python3 "$ORACLE/place_nsigma.py" "$T/c" "$T/a" "$BAD" "$T/p"
	assert_line 'n1 cpu: breaks the nsigma rule'
	variant bigger "$T/plan" 's/^mode nsigma 2$/mode nsigma 2.0000000000000004/'
	run -1 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	assert_line --partial 'violation n1 cpu nsigma mean=4 + N=2.0000000000000004 sqrt(var=4) > C=8 cpu'
}

@test "exact, not doubles: plain 0.1 and 0.9 cpu do not fit 1 cpu (their exact sum is 1 + 2^-55), at N = 0 and 3" {
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\n' >"$T/c"
	printf 'ovb-apps 1\napp a\ncapsule c cpu=0.1\napp b\ncapsule c cpu=0.9\napp z\ncapsule c cpu=0.5\n' >"$T/a"
	local n
	for n in 0 3; do
		run -0 --separate-stderr ovb-place --mode nsigma --nsigma $n "$T/c" "$T/a"
		assert_line "mode nsigma $n"
		assert_line 'place a c n1 -'
		assert_line --partial 'reject b '
		assert_line 'place z c n1 -'
		echo "$output" >"$T/plan"
		run -0 ovb-check "$T/c" "$T/a" "$T/plan"
		run -0 python3 "$ORACLE/place_nsigma.py" "$T/c" "$T/a" "$T/plan"
		assert_line agree
	done
}

@test "random instances: every node keeps the nsigma rule and no rejected application fits anywhere (oracle, ovb-check; 12 seeds, every policy)" {
	local seed pol Ns=(0 1 2.5 3) pols=(worst-fit best-fit first-fit-decreasing random)
	for seed in $(seq 1 12); do
		python3 - "$seed" "$T" <<-'PY'
		import random, sys
		r = random.Random(int(sys.argv[1])); T = sys.argv[2]
		with open(T + '/p', 'w') as f:
		    f.write('ovb-profile 1\n')
		    for i in range(6):
		        w = r.choice([0.05, 0.1, 0.25, 0.3])
		        bins = {k: r.randrange(1, 9) for k in r.sample(range(0, 12), r.randrange(1, 5))}
		        n = sum(bins.values())
		        f.write('profile p%d cpu\nsigma %r cpu\nrho 0 cpu-s\ntau 1 s\nO 0.05\ninterval 1 s\nwidth %r cpu\nintervals %d\n' % (i, max(bins) * w, w, n))
		        for k in sorted(bins):
		            f.write('bin %d %d\n' % (k, bins[k]))
		with open(T + '/a', 'w') as f:
		    f.write('ovb-apps 1\n')
		    for i in range(14):
		        if r.random() < 0.2:
		            f.write('app x%d\ncapsule c cpu=%r\n' % (i, r.choice([0.1, 0.2, 0.3, 0.7, 0.9])))
		        else:
		            f.write('app x%d\ncapsule c profile=p%d\n' % (i, r.randrange(6)))
		with open(T + '/c', 'w') as f:
		    f.write('ovb-cluster 1\n')
		    for j in range(3):
		        f.write('node n%d %r cpu 1000000 B/s\n' % (j + 1, r.choice([1, 2, 2.5, 3, 4])))
		PY
		pol=${pols[seed % 4]}
		run -0 --separate-stderr ovb-place --mode nsigma --nsigma "${Ns[seed % 4]}" -p "$pol" "$T/c" "$T/a" "$T/p"
		echo "$output" >"$T/plan"
		run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
		run -0 python3 "$ORACLE/place_nsigma.py" "$T/c" "$T/a" "$T/plan" "$T/p"
		assert_line agree
	done
}

@test "bad: --nsigma out of range 64; mode nsigma without N, with a negative N, eq1 with one: 65 at the line; a plan of mode nsigma re-planned with another mode: 64" {
	two_point >"$T/p"
	printf 'ovb-cluster 1\nnode n1 8 cpu 1000 B/s\n' >"$T/c"
	printf 'ovb-apps 1\napp a\ncapsule c profile=u\n' >"$T/a"
	run -64 --separate-stderr ovb-place --mode nsigma --nsigma -1 "$T/c" "$T/a" "$T/p"
	assert_output ''
	run -64 --separate-stderr ovb-place --mode nsigma --nsigma x "$T/c" "$T/a" "$T/p"
	run -64 --separate-stderr ovb-place --mode sigma "$T/c" "$T/a" "$T/p"
	assert_equal "${stderr_lines[0]}" "ovb-place: --mode: 'sigma' is not eq1, aggregate, tod, nsigma or joint"
	ovb-place --mode nsigma "$T/c" "$T/a" "$T/p" >"$T/plan"
	run -0 grep -x 'mode nsigma 3' "$T/plan"
	local l bad
	l=$(grep -n '^mode nsigma 3$' "$T/plan" | cut -d: -f1)
	for bad in 'mode nsigma' 'mode nsigma -1' 'mode eq1 3' 'mode nsigma 1001'; do
		sed "s/^mode nsigma 3\$/$bad/" "$T/plan" >"$T/bad.plan"
		run -65 --separate-stderr ovb-fmt "$T/bad.plan"
		[[ $stderr == "ovb-fmt: $T/bad.plan:$l: "* ]] || fail "$bad: $stderr"
		run -65 --separate-stderr ovb-check "$T/c" "$T/a" "$T/bad.plan" "$T/p"
	done
	# adding to the plan keeps its mode; another one given is refused
	printf 'ovb-apps 1\napp b\ncapsule c profile=u\n' >"$T/b"
	run -0 --separate-stderr ovb-place "$T/c" "$T/b" "$T/p" "$T/plan"
	assert_line 'mode nsigma 3'
	assert_line 'place b c n1 u'
	run -64 --separate-stderr ovb-place --mode eq1 "$T/c" "$T/b" "$T/p" "$T/plan"
	assert_equal "$stderr" "ovb-place: $T/plan: a plan of mode nsigma; --mode eq1 would change the rule of the capsules placed"
	run -64 --separate-stderr ovb-place --mode nsigma --nsigma 2 "$T/c" "$T/b" "$T/p" "$T/plan"
	run -0 --separate-stderr ovb-place --mode nsigma --nsigma 3 "$T/c" "$T/b" "$T/p" "$T/plan"
	run -0 ovb-fmt --canonical "$T/plan"
	assert_line 'mode nsigma 3'
}

@test "t/data/nsigma.plan (a fuzz seed of fuzz-plan) is what ovb-place --mode nsigma --nsigma 2 makes of the example; ovb-check and the oracle accept it" {
	run -0 --separate-stderr ovb-place --mode nsigma --nsigma 2 "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile"
	assert_equal "$output" "$(cat "$DATA/nsigma.plan")"
	run -0 ovb-check "$DATA/example.cluster" "$DATA/example.apps" "$DATA/nsigma.plan" "$DATA/example.profile"
	run -0 python3 "$ORACLE/place_nsigma.py" "$DATA/example.cluster" "$DATA/example.apps" "$DATA/nsigma.plan" "$DATA/example.profile"
	assert_line agree
}
