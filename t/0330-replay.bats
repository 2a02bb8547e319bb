#!/usr/bin/env bats
# ovb-replay: a plan replayed against time-aligned usage series, and the
# correlation guard.
#
# t/data/replay-small.* are hand-made: two nodes, three capsules (web found
# by its profile name webprof, a decoy series named web ignored), a missing
# sample on each side, sums exactly on and just above the capacities.
# t/oracle/replay.py recomputes the --tsv report (exact sums as
# Fractions, the guard's convolution independently); t/gen/replay.py
# makes random cases.  The Bitbrains walk (profile July, place, replay
# August and September) skips when ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	P=$DATA/replay-small.plan
	C=$DATA/replay-small.cluster
	S=$DATA/replay-small.series
	G=$DATA/replay-small-guard.series
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# ---------------------------------------------------------------------------
# Known values.

@test "hand-made: the table, one promise kept of three, exit 1" {
	run -1 --separate-stderr ovb-replay "$P" "$C" "$S"
	assert_equal "$stderr" ''
	assert_output - <<-'EOF'
	node  res  capsules  slots  overflows  empirical  promised  omin  kept
	n1    cpu         2      6          1   0.166667      0.02  0.25   yes
	n1    net         2      4          1       0.25         0   0.1    no
	n2    cpu         1      4          1       0.25         0     0    no
	promises kept: 1 of 3
	EOF
}

@test "hand-made: --tsv in full precision; --no-fail exits 0; -o == stdout" {
	run -0 --separate-stderr ovb-replay --tsv --no-fail "$P" "$C" "$S"
	assert_output - <<-EOF
	node	res	capsules	slots	overflows	empirical	promised	omin	kept
	n1	cpu	2	6	1	0.16666666666666666	0.02	0.25	yes
	n1	net	2	4	1	0.25	0	0.1	no
	n2	cpu	1	4	1	0.25	0	0	no
	EOF
	ovb-replay --tsv --no-fail "$P" "$C" "$S" >"$T/a"
	run -0 ovb-replay --tsv --no-fail -o "$T/b" "$P" "$C" "$S"
	assert_output ''
	cmp "$T/a" "$T/b"
	run -0 python3 "$ORACLE/replay.py" "$P" "$C" "$T/a" "$S"
	assert_output --partial agree
}

@test "hand-made: a kept plan exits 0; series may come in several files" {
	# only n1 cpu: 1 of 6 slots over, O_min 0.25
	grep -v -e '^risk n1 net' -e '^risk n2' "$P" >"$T/plan"
	awk '/^series/{keep = ($2 != "db")} keep || /^ovb-series/' "$S" >"$T/a.series"
	awk '/^series/{keep = ($2 == "db")} keep || /^ovb-series/' "$S" >"$T/b.series"
	run -0 --separate-stderr ovb-replay "$T/plan" "$C" "$T/a.series" "$T/b.series"
	assert_line --partial 'promises kept: 1 of 1'
	# the same sample twice is an error
	run -65 --separate-stderr ovb-replay "$T/plan" "$C" "$T/a.series" "$S"
	assert_output ''
	assert_equal "$stderr" "ovb-replay: $S:4: series webprof cpu: the sample at 0 is also in $T/a.series"
}

@test "hand-made: a series split over two files (months) is merged in time" {
	# the samples before 900 s in one file, the rest in another
	awk '!/^sample/ || $2 < 900' "$S" >"$T/early.series"
	awk '!/^sample/ || $2 >= 900' "$S" | awk '
		/^series/ {hold = $0; next}
		/^interval/ {ivl = $0; next}
		/^sample/ && hold {print hold; print ivl; hold = ""}
		{print}' >"$T/late.series"
	ovb-replay --tsv --no-fail "$P" "$C" "$S" >"$T/one"
	run -0 --separate-stderr ovb-replay --tsv --no-fail "$P" "$C" "$T/late.series" "$T/early.series"
	assert_equal "$output" "$(cat "$T/one")"
	# a different interval for the same series is an error
	awk '/^interval/ {$2 = 900} !/^sample/ || $2 % 900 == 0' "$T/late.series" >"$T/late9.series"
	run -65 --separate-stderr ovb-replay "$P" "$C" "$T/early.series" "$T/late9.series"
	stderr_has 'series webprof cpu: interval 900 s, but 300 s in'
}

@test "sums are exact: 1 + 1e-17 exceeds 1, 0.5 + 0.5 does not" {
	printf 'ovb-cluster 1\nnode n 1 cpu 1 B/s\n' >"$T/c"
	printf 'ovb-plan 1\nplace a x n -\nplace a y n -\nrisk n cpu 0 0.5 1 1\n' >"$T/p"
	printf 'ovb-series 1\nseries x cpu\ninterval 60 s\nsample 0 1\nsample 60 0.5\nsample 120 0.1\nseries y cpu\ninterval 60 s\nsample 0 1e-17\nsample 60 0.5\nsample 120 0.9\n' >"$T/s"
	run -1 --separate-stderr ovb-replay --tsv "$T/p" "$T/c" "$T/s"
	# slot 0 overflows, though 1 + 1e-17 rounds to 1 in doubles; slot 60
	# is exactly 1; the doubles 0.1 and 0.9 add up to 1 + 2.8e-17 (their
	# double sum rounds to 1): an overflow
	assert_line "n	cpu	2	3	2	0.6666666666666666	0	0.5	no"
	run -0 python3 "$ORACLE/replay.py" "$T/p" "$T/c" <(ovb-replay --tsv --no-fail "$T/p" "$T/c" "$T/s") "$T/s"
}

@test "--missing-as-zero: the union of the slots, a missing sample is 0" {
	run -1 --separate-stderr ovb-replay --missing-as-zero --tsv "$P" "$C" "$S"
	# n1 cpu: slots 0..7 (8); slot 6 = w1 alone 1, slot 7 = web alone 1
	assert_line "n1	cpu	2	8	1	0.125	0.02	0.25	yes"
	run -0 python3 "$ORACLE/replay.py" --missing-as-zero "$P" "$C" <(ovb-replay --missing-as-zero --tsv --no-fail "$P" "$C" "$S") "$S"
}

@test "random plans and series: --tsv agrees with the oracle (12 seeds, guard, both slot rules)" {
	local seed z
	mkdir "$T/g"
	for seed in $(seq 1 12); do
		python3 "$GEN/replay.py" replay "$seed" "$T/g"
		for z in --no-fail --missing-as-zero; do
			ovb-replay -q --tsv --no-fail $z --alpha 0.3 --guard "$T/g/guard.series" \
				"$T/g/plan" "$T/g/cluster" "$T/g/a.series" "$T/g/b.series" >"$T/out" ||
				fail "seed $seed $z: ovb-replay failed"
			local zo=()
			[[ $z == --missing-as-zero ]] && zo=(--missing-as-zero)
			run -0 python3 "$ORACLE/replay.py" "${zo[@]}" --alpha 0.3 \
				--guard "$T/g/guard.series" "$T/g/plan" "$T/g/cluster" "$T/out" \
				"$T/g/a.series" "$T/g/b.series"
		done
	done
}

# ---------------------------------------------------------------------------
# The correlation guard.

@test "guard: fires on perfectly correlated series, names node, resource and capsules" {
	run -1 --separate-stderr ovb-replay --guard "$G" "$P" "$C" "$S"
	# web and w1 have the same profiling series: both 1.25 in half the
	# slots, so the sum exceeds 2 cpu in 1/2 of them; independence: 1/4
	assert_equal "$stderr" "ovb-replay: guard: node n1 cpu (web [series webprof], w1): over the profiling period the sum exceeded C = 2 cpu in 2 of 4 slots (0.5), but independence gives Pr(Y > C) = 0.25: under-estimated by 0.25 (2 times the independence-based value; p-value 0.262: the chance of as many overflows if independent); the capsules' usages are correlated"
	assert_line --index 1 --regexp '^n1 +cpu +2 +6 +1 +0\.166667 +0\.02 +0\.25 +yes +4 +0\.5 +0\.25 +0\.262 +yes$'
	assert_line 'correlated (independence under-estimates the risk): 1 of 3'
	# --fail-correlated: exit 1 even when every promise is kept
	grep -v -e '^risk n1 net' -e '^risk n2' "$P" >"$T/plan"
	run -0 --separate-stderr ovb-replay --guard "$G" "$T/plan" "$C" "$S"
	run -1 --separate-stderr ovb-replay --guard "$G" --fail-correlated "$T/plan" "$C" "$S"
	stderr_has 'guard: node n1 cpu'
	# --alpha: an excess this likely under independence does not count
	run -0 --separate-stderr ovb-replay -q --guard "$G" --alpha 0.05 --fail-correlated "$T/plan" "$C" "$S"
	run -0 python3 "$ORACLE/replay.py" --guard "$G" "$P" "$C" <(ovb-replay -q --tsv --no-fail --guard "$G" "$P" "$C" "$S") "$S"
}

# pairs FILE A B...: an ovb-series file with cpu series a and b of 60 s
# samples, a[i] and b[i] the i-th words of A and B.
pairs() {
	local f=$1 a=($2) b=($3) i
	{
		printf 'ovb-series 1\nseries a cpu\ninterval 60 s\n'
		for i in "${!a[@]}"; do printf 'sample %d %s\n' $((i * 60)) "${a[i]}"; done
		printf 'series b cpu\ninterval 60 s\n'
		for i in "${!b[@]}"; do printf 'sample %d %s\n' $((i * 60)) "${b[i]}"; done
	} >"$f"
}

@test "guard: silent on independent series (every pair of values once), fires on equal ones" {
	printf 'ovb-cluster 1\nnode n 1.5 cpu 1000 B/s\n' >"$T/c"
	printf 'ovb-plan 1\nplace x a n -\nplace y b n -\nrisk n cpu 0 0.5 1 1.5\n' >"$T/p"
	# a and b take 0, 0.5 and 1 cpu; the 9 slots hold each pair once, so
	# the empirical joint distribution is the product of the marginals:
	# Pr(a + b > 1.5) = 1/9 both ways (1 + 1).  --grid 6: bins of 0.25,
	# on which the values lie (with the default 1000 bins of 0.0015 the
	# upper edges of 0.5 and 1 add up to 1.5015, and independence gives a
	# conservative 1/3)
	pairs "$T/s" '0 0 0 0.5 0.5 0.5 1 1 1' '0 0.5 1 0 0.5 1 0 0.5 1'
	run -0 --separate-stderr ovb-replay --tsv --guard "$T/s" --fail-correlated "$T/p" "$T/c" "$T/s"
	assert_line --regexp '	9	0\.1111111111111111	0\.3333333333333333	[0-9.]*	no$'
	run -0 --separate-stderr ovb-replay --grid 6 --tsv --guard "$T/s" --fail-correlated "$T/p" "$T/c" "$T/s"
	assert_equal "$stderr" ''
	assert_line --regexp '^n	cpu	2	9	1	0\.1111111111111111	0	0\.5	yes	9	0\.1111111111111111	0\.1111111111111[0-9]*	0\.65[0-9]*	no$'
	run -0 python3 "$ORACLE/replay.py" --grid 6 --guard "$T/s" "$T/p" "$T/c" <(ovb-replay --grid 6 -q --tsv --guard "$T/s" "$T/p" "$T/c" "$T/s") "$T/s"
	# b equal to a: Pr(a + b > 1.5) = 3/9
	pairs "$T/e" '0 0 0 0.5 0.5 0.5 1 1 1' '0 0 0 0.5 0.5 0.5 1 1 1'
	run -1 --separate-stderr ovb-replay --grid 6 --tsv --guard "$T/e" --fail-correlated "$T/p" "$T/c" "$T/s"
	stderr_has 'ovb-replay: guard: node n cpu (a, b): over the profiling period the sum exceeded C = 1.5 cpu in 3 of 9 slots (0.3333), but independence gives Pr(Y > C) = 0.1111'
	run -0 python3 "$ORACLE/replay.py" --grid 6 --guard "$T/e" "$T/p" "$T/c" <(ovb-replay --grid 6 -q --tsv --guard "$T/e" "$T/p" "$T/c" "$T/s") "$T/s"
}

# ---------------------------------------------------------------------------
# Errors.

@test "a capsule without samples: its node is unmeasured (neither kept nor broken), the others replay as usual" {
	sed '/^series db cpu$/,$d' "$S" >"$T/nodb.series"
	run -0 ovb-replay --no-fail "$P" "$C" "$S"
	full=$output
	run -0 --separate-stderr ovb-replay --no-fail "$P" "$C" "$T/nodb.series"
	assert_equal "$stderr" "ovb-replay: $P:3: node n2 cpu unmeasured: capsule db of shop has no cpu series named db in the replayed series"
	assert_line --regexp '^n2 +cpu +1 +0 +0 +- .* unmeasured$'
	[[ $(grep -c ' unmeasured$' <<<"$output") == 1 ]]
	# the other nodes' rows are those of the full replay
	diff <(grep -v '^n2  *cpu\|^promises' <<<"$full" | tr -s ' ') \
		<(grep -v '^n2  *cpu\|^promises' <<<"$output" | tr -s ' ')
	assert_line --regexp '^promises kept: [0-9]+ of [0-9]+ \(1 unmeasured: a capsule without samples\)$'
}

@test "errors: different intervals, unknown node: 65; no common slot: unmeasured" {
	# w1 cpu sampled every 600 s
	awk '/^series/{w = ($2 == "w1" && $3 == "cpu")} w && /^interval/{$2 = 600} w && /^sample/{$2 = $2 * 2} {print}' "$S" >"$T/i.series"
	run -65 --separate-stderr ovb-replay "$P" "$C" "$T/i.series"
	stderr_has "$P:5: node n1 cpu: the replayed series of webprof and w1 have different intervals (300 s, 600 s)"
	# w1 cpu moved a day later: no slot in common with web
	awk '/^series/{w = ($2 == "w1" && $3 == "cpu")} w && /^sample/{$2 = $2 + 86400} {print}' "$S" >"$T/l.series"
	run -0 --separate-stderr ovb-replay --no-fail "$P" "$C" "$T/l.series"
	stderr_has "$P:5: node n1 cpu unmeasured: the series of its capsules (web [series webprof], w1) have no slot in common"
	# with --missing-as-zero they meet
	run -1 --separate-stderr ovb-replay --missing-as-zero "$P" "$C" "$T/l.series"
	sed 's/^node n2 /node n9 /' "$C" >"$T/c"
	run -65 --separate-stderr ovb-replay "$P" "$T/c" "$S"
	stderr_has "$P:7: node n2 is not in the cluster"
	# the guard's series must have the capsules too
	sed '/^series db cpu$/,$d' "$S" >"$T/nodb.series"
	run -65 --separate-stderr ovb-replay --guard "$T/nodb.series" "$P" "$C" "$S"
	stderr_has 'no cpu series named db in the --guard series'
}

@test "errors: bad inputs 65, a plan without risk records 65, capacity mismatch warns" {
	run -65 --separate-stderr ovb-replay "$C" "$C" "$S"
	stderr_has "ovb-replay: $C:1: this is an ovb-cluster file; expected ovb-plan"
	run -65 --separate-stderr ovb-replay "$P" "$C" "$P"
	stderr_has "expected ovb-series"
	grep -v '^risk' "$P" >"$T/p"
	run -65 --separate-stderr ovb-replay "$T/p" "$C" "$S"
	assert_equal "$stderr" "ovb-replay: $T/p: no risk records: nothing to replay"
	sed 's/^node n2 1 cpu/node n2 2 cpu/' "$C" >"$T/c"
	run -0 --separate-stderr ovb-replay --no-fail "$P" "$T/c" "$S"
	assert_equal "$stderr" "ovb-replay: node n2 cpu: the plan's capacity 1 differs from the cluster's 2; replaying against the cluster's"
	assert_line --regexp '^n2 +cpu +1 +4 +0 +0 '
}

@test "errors: bad options 64, a missing file 66, -o with bad input leaves no file" {
	local bad
	for bad in '--grid 0' '--grid x' '--alpha 2' '--fail-correlated' '--bogus'; do
		# shellcheck disable=SC2086
		run -64 --separate-stderr ovb-replay $bad "$P" "$C" "$S"
		assert_output ''
		[[ $stderr == ovb-replay:* ]] || fail "$bad: stderr '$stderr'"
	done
	run -64 --separate-stderr ovb-replay "$P" "$C"
	stderr_has 'expected PLAN CLUSTER SERIES...'
	run -66 --separate-stderr ovb-replay "$P" "$C" "$T/nope"
	stderr_has "ovb-replay: $T/nope: cannot open"
	run -65 --separate-stderr ovb-replay -o "$T/out" "$C" "$C" "$S"
	[[ ! -e $T/out ]]
	run -0 ovb-replay --help
	assert_output --partial 'EXAMPLES'
	assert_output --partial 'Exit status'
}

# ---------------------------------------------------------------------------
# The Bitbrains walk: profile July, plan, replay August and September.

@test "bitbrains: profile July, place, replay August and September (numbers on fd 3)" {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	local m
	for m in 7 8 9; do
		ovb-import -q --bitbrains "$BB/2013-$m"/*.csv.gz -o "$T/$m.series"
	done
	ovb-usage -q -I 300 -r cpu,net "$T/7.series" >"$T/u"
	ovb-tbucket -q -r cpu,net "$T/7.series" >"$T/c"
	# tau = a day: the 5-minute means have bursts of hours, whose rho
	# dominates Eq. 1 at shorter periods (tau = 300 s places 22 of 32)
	ovb-profile -q -O 0.01 -t 86400 "$T/u" "$T/c" >"$T/profile"
	{
		echo 'ovb-cluster 1'
		for m in 1 2 3 4; do echo "node n$m 4 cpu 125000000 B/s"; done
	} >"$T/cluster"
	{
		echo 'ovb-apps 1'
		for m in $(seq 1 32); do echo "app vm$m"; echo "capsule vm$m profile=vm$m"; done
	} >"$T/apps"
	local how
	if command -v ovb-place >/dev/null && ovb-place -q "$T/cluster" "$T/apps" "$T/profile" >"$T/plan"; then
		how=ovb-place
	else
		# TEST-ONLY placement (ovb-place is not available)
		python3 "$GEN/firstfit.py" "$T/cluster" "$T/apps" "$T/profile" >"$T/plan"
		how='t/gen/firstfit.py (test-only first fit)'
	fi
	ovb-fmt "$T/plan"
	grep -q '^risk ' "$T/plan" || fail "the plan has no risk records"
	for m in 8 9; do
		ovb-replay -q --tsv --no-fail --guard "$T/7.series" \
			"$T/plan" "$T/cluster" "$T/$m.series" >"$T/r$m.tsv"
		run -0 python3 "$ORACLE/replay.py" --guard "$T/7.series" \
			"$T/plan" "$T/cluster" "$T/r$m.tsv" "$T/$m.series"
		# exit 1 exactly when a promise was broken
		local st=0
		ovb-replay -q "$T/plan" "$T/cluster" "$T/$m.series" >/dev/null || st=$?
		if awk -F'\t' 'NR > 1 && $9 == "no" {f = 1} END {exit !f}' "$T/r$m.tsv"; then
			[[ $st == 1 ]] || fail "month $m: exit $st with a broken promise"
		else
			[[ $st == 0 ]] || fail "month $m: exit $st with every promise kept"
		fi
		ovb-replay -q --missing-as-zero --tsv --no-fail --guard "$T/7.series" \
			"$T/plan" "$T/cluster" "$T/$m.series" >"$T/z$m.tsv"
	done
	# both months at once
	ovb-replay -q --no-fail "$T/plan" "$T/cluster" "$T/8.series" "$T/9.series" >"$T/r89"
	# two VMs whose July usages are correlated: on a node of 4.159 CPUs,
	# where independence gives Pr(Y > C) = 0.0106, the sum exceeded it in
	# 163 of 8244 July slots (p-value about 3e-13)
	printf 'ovb-plan 1\nplace a vm25 n vm25\nplace b vm22 n vm22\nrisk n cpu 0 0.01 1 4.159\n' >"$T/pair.plan"
	printf 'ovb-cluster 1\nnode n 4.159 cpu 1 B/s\n' >"$T/pair.cluster"
	run -1 --separate-stderr ovb-replay --no-fail --guard "$T/7.series" --alpha 1e-6 \
		--fail-correlated "$T/pair.plan" "$T/pair.cluster" "$T/8.series"
	stderr_has 'guard: node n cpu (vm25, vm22): over the profiling period the sum exceeded C = 4.159 cpu in 163 of 8244 slots (0.01977), but independence gives Pr(Y > C) = 0.01061'
	local pair=$output
	{
		echo "# plan by $how: $(grep -c '^place ' "$T/plan") VMs placed, $(grep -c '^reject ' "$T/plan") rejected"
		grep -E '^(place|reject) ' "$T/plan" | sed 's/^/#   /'
		for m in 8 9; do
			echo "# replay of 2013-$m against the plan (guard: July):"
			column -t -s $'\t' "$T/r$m.tsv" | sed 's/^/#   /'
			echo "# the same with --missing-as-zero:"
			column -t -s $'\t' "$T/z$m.tsv" | sed 's/^/#   /'
		done
		echo "# August and September together:"
		sed 's/^/#   /' "$T/r89"
		echo "# vm25 + vm22 on 4.159 CPUs, replayed on August, guard July:"
		sed 's/^/#   /' <<<"$pair"
	} >&3
}
