#!/usr/bin/env bats
# ovb-reserves --method lp: the three Cluster Reserves steps (section 3.2.1
# of the hierarchical bank paper), the manager loop, outputs and errors.
#
# t/oracle/reserves_lp.py checks random instances against independent
# solvers: step 1's V against scipy's linprog (HiGHS), step 2's R against
# cvxopt (exact-penalty form, then the exact KKT point on its active set,
# verified), step 3 against its own implementation of the documented rule.
# t/oracle/reserves_gen.py makes the instances.  The numbers of the paper's
# 4-node example below were derived by hand (see the comments).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	EX=$DATA/example.reserves
}

# sci_python: sets PY to a python3 that has scipy and cvxopt (the python3
# on PATH may be another installation than Debian's), or skips.
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

# R_of FILE ROUND NODE CLASS: the R entry of that round in an output.
R_of() {
	awk -v k="$2" -v n="$3" -v c="$4" '$1 == "round" { r = $2 }
		r == k && $1 == "R" && $2 == n && $3 == c { print $4 }' "$1"
}

# round_matrix FILE ROUND M: the matrix M (u, r or R) of that round.
round_matrix() {
	awk -v k="$2" -v m="$3" '$1 == "round" { r = $2 }
		r == k && $1 == m { print $2, $3, $4 }' "$1"
}

# ---------------------------------------------------------------------------
# The paper's example (Fig. 3): 60/30/10, class 3 only on node 4.

@test "example: class 3 gets its 10% of the cluster, on node 4 (37% + 1% floors)" {
	run -0 --separate-stderr ovb-reserves "$EX"
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >"$T/out"
	# Step 2 by hand: V = 0; nodes 1-3 (u 66/33/0, t = u + k = 61/28/-),
	# node 4 (u = t = 60/30/10); c3 is 1 (its floor; idle: r 10 > u 0)
	# on nodes 1-3, so 37 on node 4; every node ends full, and
	# minimizing 3(a-61)^2 + 3(b-28)^2 + (a4-60)^2 + (b4-30)^2 with
	# 3a + a4 = 240, 3b + b4 = 120, a + b = 99 gives a = 64.875.
	assert_equal "$(R_of "$T/out" 1 n1 c1)" 64.875
	assert_equal "$(R_of "$T/out" 1 n1 c2)" 34.125
	assert_equal "$(R_of "$T/out" 1 n1 c3)" 1
	assert_equal "$(R_of "$T/out" 1 n4 c1)" 45.375
	assert_equal "$(R_of "$T/out" 1 n4 c2)" 17.625
	assert_equal "$(R_of "$T/out" 1 n4 c3)" 37
	assert_line '# round 1: V 0; deviation 0 after step 2, 0 after step 3; step 2 within 1.4e-07 points of the optimum' ||
		assert_line --regexp '^# round 1: V 0; deviation [0-9.e-]+ after step 2, [0-9.e-]+ after step 3; step 2 within [0-9.e-]+ points of the optimum$'
	ovb-fmt "$T/out"
}

@test "example, --floor 0: exactly the paper's 40% for class 3 on node 4" {
	run -0 ovb-reserves --floor 0 "$EX"
	printf '%s\n' "$output" >"$T/out"
	# as above with a + b = 100 and c3 = 40 on node 4: a = 523 / 8
	assert_equal "$(R_of "$T/out" 1 n1 c1)" 65.375
	assert_equal "$(R_of "$T/out" 1 n1 c3)" 0
	assert_equal "$(R_of "$T/out" 1 n4 c1)" 43.875
	assert_equal "$(R_of "$T/out" 1 n4 c2)" 16.125
	assert_equal "$(R_of "$T/out" 1 n4 c3)" 40
}

@test "example: --report gives each class's cluster-wide share per round" {
	run -0 --separate-stderr ovb-reserves --report "$EX"
	assert_equal "$stderr" ''
	assert_output "$(printf '%s\t' round class desired allocated used deviation | sed 's/\t$//')
$(printf '1\tc1\t60\t60\t64.5\t0\n1\tc2\t30\t30\t32.25\t0\n1\tc3\t10\t10\t2.5\t0')
$(printf '2\tc1\t60\t60\t60\t0\n2\tc2\t30\t30\t30\t0\n2\tc3\t10\t10\t9.5\t0')"
}

@test "example: -v prints the per-round table on stderr, GLPK stays silent" {
	run -0 --separate-stderr ovb-reserves -v "$EX" -o "$T/out"
	assert_equal "$output" ''
	[[ $stderr == *$'round\tV\tdev\tms\tc1/60\tc2/30\tc3/10'* ]]
	[[ $stderr == *$'\n1\t0\t'*$'\t60.000\t30.000\t10.000'* ]]
	[[ $stderr != *GLPK* && $stderr != *glp* && $stderr != *simplex* ]]
	run -0 --separate-stderr ovb-reserves -q "$EX"
	assert_equal "$stderr" ''
}

# ---------------------------------------------------------------------------
# The manager loop and the input's r.

@test "manager loop: r of round k+1 is R of round k; R is recomputed" {
	ovb-reserves "$EX" >"$T/out"
	diff <(round_matrix "$T/out" 1 R) <(round_matrix "$T/out" 2 r)
	# the shipped file's R (the paper's ideal) is replaced
	[[ $(R_of "$T/out" 1 n4 c3) == 37 ]]
	# running on the output again gives the same file
	ovb-reserves "$T/out" >"$T/again"
	cmp "$T/out" "$T/again"
}

@test "no r in round 1: D on every node by default, 100/S with --initial equal" {
	sed -E '/^(r|R) /d; /^round 2/,$d' "$EX" >"$T/in"
	ovb-reserves "$T/in" >"$T/share"
	diff <(round_matrix "$T/share" 1 r) <(round_matrix "$EX" 1 r)
	ovb-reserves --initial equal "$T/in" >"$T/equal"
	[[ $(round_matrix "$T/equal" 1 r | awk '{print $3}' | sort -u) == 33.333333333333336 ]]
	# r = 100/3 > u: c3 is capped at 10 on n4 too, so V = 40 - 13 = 27,
	# and step 3 spreads c3's deficit over the spare of all four nodes
	grep -q '^# round 1: V 27; deviation 27 after step 2, 0 after step 3;' "$T/equal"
	[[ $(R_of "$T/equal" 1 n1 c3) == 9.75 && $(R_of "$T/equal" 1 n4 c3) == 10.75 ]]
}

@test "stdin: no file or '-' reads standard input, named <stdin>" {
	run -0 bash -c "ovb-reserves < '$EX' | grep -c '^R '"
	assert_output 24
	run -0 bash -c "ovb-reserves - < '$EX' | grep -c '^R '"
	assert_output 24
	run -65 --separate-stderr bash -c "sed 's/^u n1 c1 66/u n1 c1 -1/' '$EX' | ovb-reserves"
	assert_equal "$stderr" "ovb-reserves: <stdin>:12: percent: -1 is negative"
}

# ---------------------------------------------------------------------------
# The seed's contradiction, step 3, and steps 1-2 only.

@test "idle class: R <= u (r > u) and R >= 1 contradict for u < 1; the cap yields to the floor" {
	cat >"$T/idle" <<-EOF
	ovb-reserves 1
	class a 50
	class b 50
	node n1
	node n2
	round 1
	u n1 a 0.4
	u n1 b 90
	u n2 a 30
	u n2 b 60
	r n1 a 5
	r n1 b 90
	r n2 a 30
	r n2 b 60
	EOF
	run -0 --separate-stderr ovb-reserves --steps 2 "$T/idle"
	printf '%s\n' "$output" >"$T/out"
	# a on n1 is idle (r 5 > u 0.4): cap max(0.4, 1) = 1, floor 1
	assert_equal "$(R_of "$T/out" 1 n1 a)" 1
	# with --floor 0 the cap u = 0.4 holds
	ovb-reserves --steps 2 --floor 0 "$T/idle" >"$T/out0"
	assert_equal "$(R_of "$T/out0" 1 n1 a)" 0.4
	# and the cap is never a reason for infeasibility: 100 such classes
	{
		echo 'ovb-reserves 1'
		for j in $(seq 1 100); do echo "class k$j 1"; done
		echo 'node n1'
		echo 'round 1'
		for j in $(seq 1 100); do echo "u n1 k$j 0"; done
		for j in $(seq 1 100); do echo "r n1 k$j 1"; done
	} >"$T/many"
	run -0 ovb-reserves --report "$T/many"
	assert_line "$(printf '1\tk100\t1\t1\t0\t0')"
}

@test "step 3: spare capacity goes to idle classes below target, by T, until each reaches T" {
	# one node: a, b idle (u 0 < r) and fixed at their floor 1 by steps
	# 1-2; c used 50 but its target is 10; V = 59 + 29 = 88.  Spare 88:
	# a is offered 88 * 60/90, b 88 * 30/90 > its deficit 29 (b stops at
	# 30); the rest goes to a in a second pass.
	cat >"$T/s3" <<-EOF
	ovb-reserves 1
	class a 60
	class b 30
	class c 10
	node n1
	round 1
	u n1 a 0
	u n1 b 0
	u n1 c 50
	r n1 a 60
	r n1 b 30
	r n1 c 10
	EOF
	ovb-reserves --steps 2 "$T/s3" >"$T/two"
	assert_equal "$(R_of "$T/two" 1 n1 a) $(R_of "$T/two" 1 n1 b) $(R_of "$T/two" 1 n1 c)" '1 1 10'
	grep -qx '# round 1: V 88; deviation 88 after step 2, which is within .* points of the optimum' "$T/two"
	ovb-reserves "$T/s3" >"$T/three"
	assert_equal "$(R_of "$T/three" 1 n1 a) $(R_of "$T/three" 1 n1 b) $(R_of "$T/three" 1 n1 c)" '60 30 10'
	grep -q '^# round 1: V 88; deviation 88 after step 2, 0 after step 3;' "$T/three"
	# a class with unused allocation on two nodes, capped at 10 per node:
	# steps 1-2 give a 10 + 10 and b exactly its 80; step 3 gives a 30 more
	# on each node (its deficit 60 of the 100 spare)
	cat >"$T/two-nodes" <<-EOF
	ovb-reserves 1
	class a 40
	class b 40
	node n1
	node n2
	round 1
	u n1 a 10
	u n1 b 50
	u n2 a 10
	u n2 b 50
	r n1 a 40
	r n1 b 40
	r n2 a 40
	r n2 b 40
	EOF
	ovb-reserves "$T/two-nodes" >"$T/out"
	assert_equal "$(round_matrix "$T/out" 1 R | tr '\n' ' ')" 'n1 a 40 n1 b 40 n2 a 40 n2 b 40 '
}

@test "--steps 1 gives a vertex achieving V; --steps 2 the closest allocation to u + k" {
	ovb-reserves --steps 1 "$EX" >"$T/one"
	grep -qx '# round 1: V 0 (a vertex of step 1)' "$T/one"
	ovb-fmt "$T/one"
	run -0 ovb-reserves --steps 1 --report "$EX"
	assert_line "$(printf '1\tc3\t10\t10\t2.5\t0')"
}

# ---------------------------------------------------------------------------
# Against independent solvers.

@test "oracle: 150 random instances (1-12 nodes, 1-8 classes): V = linprog's, R = cvxopt's" {
	sci_python
	run -0 "$PY" "$ORACLE/reserves_lp.py" --count 150 --seed0 1
	assert_output --partial 'agree 150 instances'
}

@test "oracle: 150 more, up to 30 nodes x 12 classes" {
	sci_python
	run -0 "$PY" "$ORACLE/reserves_lp.py" --count 150 --seed0 5000 \
		--max-nodes 30 --max-classes 12
	assert_output --partial 'agree 150 instances'
}

@test "warm start: 6 rounds warm-started give the rounds solved cold (1e-6)" {
	python3 "$ORACLE/reserves_gen.py" --seed 3 --nodes 40 --classes 8 \
		--rounds 6 --walk 0.2 >"$T/walk"
	ovb-reserves -vv "$T/walk" -o "$T/warm" 2>"$T/log"
	grep -q $'\twarm\t' "$T/log"
	ovb-reserves --cold "$T/walk" -o "$T/cold"
	paste <(grep '^R ' "$T/warm") <(grep '^R ' "$T/cold") |
		awk '$2 != $6 || $3 != $7 { exit 1 }
			{ d = $4 - $8; if (d < 0) d = -d; if (d > m) m = d }
			END { if (m > 1e-6) { print "differ by " m; exit 1 } }'
}

@test "output: a valid ovb-reserves with r and R complete in every round" {
	python3 "$ORACLE/reserves_gen.py" --seed 9 --nodes 20 --classes 6 \
		--rounds 3 >"$T/in"
	ovb-reserves "$T/in" -o "$T/out"
	ovb-fmt "$T/out"
	for k in 1 2 3; do
		[[ $(round_matrix "$T/out" $k r | wc -l) == 120 ]]
		[[ $(round_matrix "$T/out" $k R | wc -l) == 120 ]]
	done
	# floors and node capacities hold
	awk '$1 == "R" { if ($4 < 1 - 1e-9) exit 1; s[$2 " " k] += $4 }
		$1 == "round" { k = $2 }
		END { for (x in s) if (s[x] > 100 + 1e-6) exit 1 }' "$T/out"
}

# ---------------------------------------------------------------------------
# --plan.

@test "--plan: each class on each node as a plain capsule with sigma = R/100 cpu" {
	run -0 --separate-stderr ovb-reserves --plan "$EX"
	printf '%s\n' "$output" >"$T/plan"
	ovb-fmt --type=plan "$T/plan"
	assert_line 'place c3 n4 n4 -'
	# the last round's R: c3 on n4 is 37% of a 1-cpu node
	assert_line 'qos c3 n4 cpu 0.37 0 1 0'
	assert_line 'qos c1 n1 cpu 0.66 0 1 0'
	[[ $(grep -c '^place ' "$T/plan") == 12 ]]
}

@test "--plan --cluster: sigma in the node's CPUs; --tau sets the period" {
	run -0 ovb-reserves --plan --cluster "$DATA/example.cluster" --tau 0.5 "$EX"
	# n4 has 2 cpu, n3 has 8
	assert_line 'qos c3 n4 cpu 0.74 0 0.5 0'
	assert_line 'qos c1 n3 cpu 5.28 0 0.5 0'
	sed '/^node n4/d' "$DATA/example.cluster" >"$T/c"
	run -65 --separate-stderr ovb-reserves --plan --cluster "$T/c" "$EX" -o "$T/p"
	assert_equal "$stderr" "ovb-reserves: $T/c: node n4 of $EX is not in the cluster"
	[[ ! -e $T/p ]]
}

# ---------------------------------------------------------------------------
# Errors: bad data 65 with FILE:LINE and nothing written; usage 64; 66.

@test "bad input: FILE:LINE, status 65, nothing on stdout and no -o file" {
	local b
	variant shares "$EX" 's/^class c3 10$/class c3 11/'
	run -65 --separate-stderr ovb-reserves "$BAD" -o "$T/o"
	assert_output ''
	assert_equal "$stderr" "ovb-reserves: $BAD:6: class: shares add up to 101%, above 100"
	[[ ! -e $T/o ]]
	variant negative "$EX" 's/^u n2 c2 33$/u n2 c2 -3/'
	run -65 --separate-stderr ovb-reserves "$BAD"
	assert_output ''
	assert_equal "$stderr" "ovb-reserves: $BAD:16: percent: -3 is negative"
	variant unknown "$EX" 's/^u n2 c2 33$/u n9 c2 33/'
	run -65 --separate-stderr ovb-reserves "$BAD"
	assert_equal "$stderr" "ovb-reserves: $BAD:16: u: unknown node 'n9'"
	# a missing cell: the matrix does not match the dimensions
	variant missing "$EX" '/^u n3 c3 0$/d'
	run -65 --separate-stderr ovb-reserves "$BAD"
	assert_output ''
	[[ $stderr == "ovb-reserves: $BAD:11: round 1: u has no entry for node n3 class c3"* ]] ||
		fail "$stderr"
	variant fullrow "$EX" 's/^u n1 c2 33$/u n1 c2 35/'
	run -65 --separate-stderr ovb-reserves "$BAD"
	assert_equal "$stderr" "ovb-reserves: $BAD:11: round 1: u of node n1 adds up to 101%, above 100"
	printf 'ovb-reserves 1\nclass a 10\nnode n1\n' >"$T/norounds"
	run -65 --separate-stderr ovb-reserves "$T/norounds"
	assert_equal "$stderr" "ovb-reserves: $T/norounds: no rounds: nothing to allocate (a round needs its usage u)"
}

@test "infeasible floors: S x --floor above 100 is bad data (65), said before solving" {
	run -65 --separate-stderr ovb-reserves --floor 40 "$EX" -o "$T/o"
	assert_output ''
	assert_equal "$stderr" "ovb-reserves: $EX: 3 classes with a floor of 40% each need more than a node (give a smaller --floor)"
	[[ ! -e $T/o ]]
	run -0 ovb-reserves --floor 33 "$EX"
}

@test "usage errors: 64; a missing input: 66" {
	local bad
	for bad in '--floor abc' '--floor 101' '--method simplex' '--steps 4' \
		'--steps 0' '--accuracy 0.5' '--accuracy 1e-12' '--initial zero' \
		'--plan --report' '--cluster x' '--bank-keep 2' '--fanout 0' \
		'--grouping tiles' '--jobs 0' '--tau 0' '-m bank --steps 2'; do
		# shellcheck disable=SC2086
		run -64 --separate-stderr ovb-reserves $bad "$EX"
		assert_output ''
		[[ $stderr == ovb-reserves:* ]] || fail "$bad: $stderr"
	done
	run -64 --separate-stderr ovb-reserves "$EX" "$EX"
	[[ $stderr == *'one input file at most'* ]]
	run -66 --separate-stderr ovb-reserves "$T/none"
	assert_equal "$stderr" "ovb-reserves: $T/none: cannot open: No such file or directory"
}

@test "--help documents the method, the contradiction's resolution and step 3" {
	run -0 bash -c "ovb-reserves --help | tr -s ' \n' '  '"
	assert_output --partial 'the cap yields to the floor'
	assert_output --partial 'Step 3: capacity left on a node goes to the classes idle there'
	assert_output --partial 'EXAMPLES:'
	assert_output --partial 'Exit status:'
	run -0 ovb-reserves --version
	assert_output --regexp '^ovb-reserves \(overbook\) [0-9]+\.[0-9]+'
}
