#!/usr/bin/env bats
# ovb-rt: VSched's (period, slice) reservations.  EDF admission per CPU
# decided exactly (sum = cap accepted, cap + 1e-9 rejected), partitioning
# over a node's CPUs checked against t/oracle/rt.py's exhaustive search,
# and the paper's period search (section 4.2) replayed against rate tables:
# it converges on a monotone model and cycles with its resets where no
# period meets the tolerance; the oracle replays it independently.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	ORACLE="$BATS_TEST_DIRNAME/oracle/rt.py"
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

admit_ok() {
	run --separate-stderr ovb-rt "$1"
	((status == 0 || status == 1)) || fail "status $status: $stderr"
	printf '%s\n' "$output" >"$T/out"
	run -0 "$PY" "$ORACLE" admit "$1" "$T/out"
}

@test "admission of the example: every node's partition is what exhaustive search allows" {
	admit_ok "$DATA/example.rt"
	run -0 --separate-stderr ovb-rt "$DATA/example.rt"
	assert_line "assign n1 a 0 0.5"
	# 0.5 + 0.4 is exactly the cap 0.9 (the exact sum of the doubles)
	assert_line "cpu n1 0 0.90000000000000002"
}

@test "EDF boundary: sum = cap is accepted, cap + 1e-9 rejected with the reason" {
	printf 'ovb-rt 1\nnode n 1 0.9\ntask n a 1 0.4\ntask n b 1 0.5\n' >"$T/eq"
	run -0 --separate-stderr ovb-rt "$T/eq"
	assert_line "cpu n 0 0.90000000000000002"
	printf 'ovb-rt 1\nnode n 1 0.9\ntask n a 1 0.4\ntask n b 1 0.500000001\n' >"$T/over"
	run -1 --separate-stderr ovb-rt -o "$T/o" "$T/over"
	grep -qx "reject n a: U 0.40000000000000002 and the node's sum U is above CPUS x CAP" "$T/o"
	grep -q "no partition exists" "$T/o"
	admit_ok "$T/eq"
	admit_ok "$T/over"
}

@test "partitioning: first-fit decreasing fails, exhaustive search finds the partition" {
	printf 'ovb-rt 1\nnode n 2 1\n' >"$T/ffd"
	for x in a:0.4 b:0.4 c:0.3 d:0.3 e:0.3 f:0.3; do
		printf 'task n %s 1 %s\n' "${x%%:*}" "${x#*:}" >>"$T/ffd"
	done
	run -0 --separate-stderr ovb-rt "$T/ffd"
	assert_line "# node n: exhaustive search (first-fit decreasing failed)"
	admit_ok "$T/ffd"
}

@test "partitioning matches exhaustive search on 40 random small instances" {
	local s
	for s in $(seq 1 40); do
		"$PY" - "$s" >"$T/r$s" <<'PYEOF'
import random, sys
rnd = random.Random(int(sys.argv[1]))
print("ovb-rt 1")
for n in range(rnd.randint(1, 3)):
    print("node n%d %d %s" % (n, rnd.randint(1, 3), rnd.choice(["0.9", "1", "0.75"])))
    for t in range(rnd.randint(0, 7)):
        p = rnd.choice([0.01, 0.02, 0.1, 0.2, 1])
        print("task n%d t%d %r %r" % (n, t, p, p * rnd.choice([0.1, 0.2, 0.25, 0.3, 0.4, 0.45, 0.5, 0.6])))
PYEOF
		admit_ok "$T/r$s"
	done
}

# rates FILE: a table at U 0.5 from period 0.2 s down by 2 ms, r = $2 + k*$3
table() {
	"$PY" -c '
import sys
a, b = float(sys.argv[1]), float(sys.argv[2])
print("ovb-rt 1")
for k in range(100):
    print("rate %r 0.5 %r" % (round(0.2 - k * 0.002, 6), round(a + k * b, 6)))
    print("rate %r 0.4 %r" % (round(0.2 - k * 0.002, 6), 0.5))
' "$@"
}

@test "search: converges on a monotone rate model where the paper says, as the oracle replays it" {
	table 0.3 0.01 >"$T/mono"
	run -0 --separate-stderr ovb-rt --search 0.5 --target 0.5 --eps 0.025 "$T/mono"
	# the largest period within eps: r = 0.3 + 0.01 k >= 0.475 at k = 18
	assert_line "converged 0.16400000000000001 0.082000000000000003"
	grep -v '^#' <<<"$output" >"$T/got"
	run -0 "$PY" "$ORACLE" search "$T/mono" 0.5 0.5 0.025 0.2 0.002 0.002
	printf '%s\n' "$output" | diff - "$T/got"
	# the paper's search keeps U: every slice is U x period
	awk '$1 == "try" && ($4 / $3 < 0.4999999 || $4 / $3 > 0.5000001) { exit 1 }' "$T/got"
}

@test "search: cycles with the reset to 200 ms where no period meets the tolerance" {
	table 0.1 0.001 >"$T/flat"
	run -1 --separate-stderr ovb-rt --search 0.5 --target 0.5 --eps 0.02 -o "$T/o" "$T/flat"
	[[ $(grep -c '^reset$' "$T/o") == 2 ]]
	grep -q '^cycle: no period from 0.20000000000000001 s down to 0.002 s' "$T/o"
	# the second pass tries the same schedules as the first
	[[ $(grep -c '^try [0-9]* 0.20000000000000001 ' "$T/o") == 2 ]]
	grep -v '^#' "$T/o" | sed 's/^cycle:.*/cycle/' >"$T/got"
	run -0 "$PY" "$ORACLE" search "$T/flat" 0.5 0.5 0.02 0.2 0.002 0.002
	printf '%s\n' "$output" | diff - "$T/got"
}

@test "the paper's flaws: the sign of the error is ignored and U never moves" {
	# too fast everywhere at U 0.5 (r = 0.9): lowering U to 0.4 would meet
	# the target (the table has r = 0.5 there), but the search only walks
	# the period and cycles
	table 0.9 0 >"$T/fast"
	run -1 --separate-stderr ovb-rt --search 0.5 --target 0.5 --eps 0.02 "$T/fast"
	assert_line --regexp '^cycle: '
	run -0 --separate-stderr ovb-rt --search 0.4 --target 0.5 --eps 0.02 "$T/fast"
	assert_line "converged 0.20000000000000001 0.080000000000000016"
}

@test "bad input: a missing rate, bad options, a slice longer than its period: 64/65, no partial output" {
	printf 'ovb-rt 1\nrate 0.2 0.5 0.1\n' >"$T/short"
	run -65 --separate-stderr ovb-rt --search 0.5 --target 0.5 -o "$T/o" "$T/short"
	stderr_has "no rate at period 0.19800000000000001 s and U 0.5"
	[[ ! -e $T/o ]] || fail "partial output"
	run -64 --separate-stderr ovb-rt --search 0.5 "$T/short"
	stderr_has "--search needs --target"
	run -64 --separate-stderr ovb-rt --search 0 --target 0.5 "$T/short"
	run -64 --separate-stderr ovb-rt --search 0.5 --target 0.5 --eps -1 "$T/short"
	run -64 --separate-stderr ovb-rt --search 0.5 --target 0.5 --min-period 0.3 "$T/short"
	printf 'ovb-rt 1\nnode n 1 0.9\ntask n a 0.1 0.2\n' >"$T/bad"
	run -65 --separate-stderr ovb-rt -o "$T/o" "$T/bad"
	stderr_has "bad:3: SLICE: 0.2 s is longer than the period 0.1 s"
	printf 'ovb-rt 1\nnode n 1 1.5\n' >"$T/bad"
	run -65 --separate-stderr ovb-rt "$T/bad"
	stderr_has "CAP: 1.5 is above 1"
	printf 'ovb-rt 1\ntask m a 1 0.5\n' >"$T/bad"
	run -65 --separate-stderr ovb-rt "$T/bad"
	stderr_has "node m: no node record before this task"
	[[ ! -e $T/o ]] || fail "partial output"
}
