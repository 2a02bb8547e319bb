#!/usr/bin/env bats
# ovb-convolve: the distribution of Y = U_1 + ... + U_k (independent) and
# Pr(Y > C), Eq. 3 of the overbooking paper, footnote 1's z-transform
# product.
#
# t/oracle/convolve.py checks the output independently: numpy's
# convolution of float64 vectors (to 1e-12), enumeration of every
# combination of measurement intervals with exact integers (--exact must
# be exactly that Fraction), exact convolution of each distribution on its
# own bin width (the common grid must never give less), and the integer
# counts of --dist.  t/gen/convolve.py makes the random inputs
# (seeded; mixed and awkward bin widths, empty bins, single-bin U's).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
	# Debian's python3 (the one .ci/deps installs python3-numpy for), when
	# there is one: a python3 earlier on PATH may lack numpy, or be slow
	# to start (a pyenv shim)
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# gen OPTIONS...: random $T/u and $T/p; the capacities worth asking about
# go into COPT (-C c ...) and OOPT (--cap c ...) for the oracle.
gen() {
	local line
	line=$("$PY" "$GEN/convolve.py" --usage "$T/u" \
		--profile "$T/p" "$@") || fail "t/gen/convolve.py $* failed"
	read -ra CAPS <<<"$line"
	caps "${CAPS[@]}"
}

oracle() {
	"$PY" "$ORACLE/convolve.py" "$@"
}

require_numpy() {
	"$PY" -c 'import numpy' 2>/dev/null ||
		fail "$PY has no numpy: install python3-numpy (make deps)"
}

# caps C...: "-C c" options and "--cap c" oracle options into COPT, OOPT.
caps() {
	COPT=() OOPT=()
	local c
	for c in "$@"; do
		COPT+=(-C "$c")
		OOPT+=(--cap "$c")
	done
}

# ---------------------------------------------------------------------------
# Known values.

@test "example: web + db cpu on the 0.5 cpu grid, by hand" {
	# web (width 0.25): 0 -> 0 (4), 0.25 and 0.5 -> 0.5 (8 + 5), 1 -> 1 (3)
	# of 20; db (width 0.5): 0.5 (6), 1 (3), 1.5 (1) of 10.  Y > 1: 4*1 +
	# 13*4 + 3*10 = 86 of 200; Y > 1.5: 13*1 + 3*4 = 25; Y > 2: 3*1.
	run -0 --separate-stderr ovb-convolve --exact -r cpu -C 0 -C 1 -C 1.5 \
		-C 2 -C 2.5 "$DATA/example.usage"
	assert_equal "$output" "Pr(Y > 0 cpu) = 1
Pr(Y > 1 cpu) = 43/100 = 0.43
Pr(Y > 1.5 cpu) = 1/8 = 0.125
Pr(Y > 2 cpu) = 3/200 = 0.015
Pr(Y > 2.5 cpu) = 0"
	assert_equal "$stderr" ''
	run -0 --separate-stderr ovb-convolve -r cpu -C 1 -C 1.5 \
		"$DATA/example.usage"
	assert_equal "$output" "Pr(Y > 1 cpu) = 0.43000000000000005
Pr(Y > 1.5 cpu) = 0.125"
}

@test "a profile's U is used; net in B/s; one distribution is itself" {
	run -0 --separate-stderr ovb-convolve --exact -r net -C 2000000 \
		-C 4999999 -C 5000000 "$DATA/example.profile"
	# web net: bins 0 (2), 1 MB/s (10), 2 MB/s (5), 5 MB/s (3) of 20
	assert_equal "$output" "Pr(Y > 2000000 B/s) = 3/20 = 0.15
Pr(Y > 4999999 B/s) = 3/20 = 0.15
Pr(Y > 5000000 B/s) = 0"
}

@test "--exact: a non-terminating decimal is shown to 20 digits with ~" {
	cat >"$T/t.usage" <<-EOF
	ovb-usage 1
	usage a cpu
	interval 1 s
	width 1 cpu
	intervals 3
	bin 1 1
	bin 2 2
	EOF
	run -0 ovb-convolve --exact -C 1 "$T/t.usage"
	assert_output 'Pr(Y > 1 cpu) = 2/3 ~ 0.66666666666666666667'
	run -0 ovb-convolve --exact --tsv -C 1 -C 3 "$T/t.usage"
	assert_equal "$output" "capacity	unit	probability	exact
1	cpu	0.66666666666666666667	2/3
3	cpu	0	0"
	run -0 ovb-convolve --tsv -C 1 "$T/t.usage"
	assert_equal "$output" "capacity	unit	probability
1	cpu	0.6666666666666666"
}

# ---------------------------------------------------------------------------
# Random inputs against the oracles.

@test "random: agrees with numpy's convolution to 1e-12 (20 seeds, cpu and net)" {
	local s res
	require_numpy
	for s in $(seq 1 20); do
		res=cpu
		((s % 3 == 0)) && res=net
		gen --seed "$s" --res "$res" --dists $((2 + s % 5))
		ovb-convolve "${COPT[@]}" "$T/u" "$T/p" >"$T/o" ||
			fail "seed $s: ovb-convolve failed"
		run -0 oracle numpy "${OOPT[@]}" \
			--output "$T/o" "$T/u" "$T/p"
		assert_output --partial 'numpy: agree'
	done
}

@test "random: -g and -c selections agree with numpy too" {
	require_numpy
	gen --seed 77 --dists 6
	ovb-convolve -g 0.2 "${COPT[@]}" "$T/u" "$T/p" >"$T/o"
	run -0 oracle numpy --grid 0.2 \
		"${OOPT[@]}" --output "$T/o" "$T/u" "$T/p"
	ovb-convolve -c d1 -c d4 -c d5 "${COPT[@]}" "$T/u" "$T/p" >"$T/o"
	run -0 oracle numpy --capsule d1 \
		--capsule d4 --capsule d5 "${OOPT[@]}" --output "$T/o" "$T/u" \
		"$T/p"
}

@test "random: --exact equals enumeration over all combinations (30 seeds)" {
	local s
	for s in $(seq 1 30); do
		gen --seed "$s" --small --dists $((2 + s % 4)) --max-bins 10
		ovb-convolve --exact "${COPT[@]}" "$T/u" "$T/p" >"$T/o" ||
			fail "seed $s: ovb-convolve failed"
		run -0 oracle enum "${OOPT[@]}" --output "$T/o" "$T/u" "$T/p"
		assert_output --partial 'enum: agree exactly'
	done
}

@test "random: the common grid is never below each U's own grid (20 seeds)" {
	local s
	for s in $(seq 100 119); do
		gen --seed "$s" --dists $((2 + s % 3)) --max-bins 12
		ovb-convolve --exact "${COPT[@]}" "$T/u" "$T/p" >"$T/o"
		run -0 oracle owngrid "${OOPT[@]}" --output "$T/o" "$T/u" "$T/p"
		assert_output --partial 'owngrid: conservative'
		# a finer or a coarser -g is conservative too
		ovb-convolve --exact -g 0.01 "${COPT[@]}" "$T/u" "$T/p" >"$T/o"
		run -0 oracle owngrid "${OOPT[@]}" --output "$T/o" "$T/u" "$T/p"
		ovb-convolve --exact -g 0.7 "${COPT[@]}" "$T/u" "$T/p" >"$T/o"
		run -0 oracle owngrid "${OOPT[@]}" --output "$T/o" "$T/u" "$T/p"
	done
}

@test "random: --exact and the doubles agree to 1e-12" {
	local s
	for s in 5 6 7 8; do
		gen --seed "$s" --dists 5
		ovb-convolve "${COPT[@]}" "$T/u" "$T/p" >"$T/f"
		ovb-convolve --exact --tsv "${COPT[@]}" "$T/u" "$T/p" >"$T/x"
		run -0 awk -F'\t' 'NR == FNR { sub(/.* = /, ""); f[FNR] = $0; next }
			FNR > 1 { d = f[FNR - 1] - $3; if (d < 0) d = -d
			if (d > 1e-12) { print "differ: " f[FNR - 1] " " $3; bad = 1 } }
			END { exit bad }' "$T/f" "$T/x"
	done
}

# ---------------------------------------------------------------------------
# --dist: Y as an ovb-usage file.

@test "--dist: Y's exact counts, valid and canonical, and it convolves back" {
	local s
	for s in 1 2 3 4 5 6; do
		gen --seed "$s" --dists 4 --max-bins 20
		run -0 --separate-stderr ovb-convolve --dist --name y -C 2 "$T/u" \
			"$T/p"
		printf '%s\n' "$output" >"$T/d"
		assert_line 'usage y cpu'
		assert_line --regexp '^# Pr\(Y > 2 cpu\) = '
		run -0 oracle dist --output "$T/d" "$T/u" "$T/p"
		run -0 ovb-fmt "$T/d"
		# canonical apart from the trailing comments
		grep -v '^# Pr' "$T/d" >"$T/d2"
		run -0 ovb-fmt -l "$T/d2"
		assert_output ''
		# Pr(Y > C) from Y's file is the same number
		ovb-convolve --exact -C 1 -C 2 -C 3.5 "$T/u" "$T/p" >"$T/a"
		ovb-convolve --exact -C 1 -C 2 -C 3.5 "$T/d" >"$T/b"
		cmp "$T/a" "$T/b" || fail "seed $s: Y's file gives other values"
	done
}

@test "--dist: more than 2^64-1 combinations are rounded up, never down" {
	local f i
	f=$T/many.usage
	{
		echo 'ovb-usage 1'
		for i in 1 2 3 4 5 6 7; do
			printf 'usage u%s cpu\ninterval 1 s\nwidth 0.5 cpu\n' "$i"
			printf 'intervals 1000003\nbin 0 333333\nbin 1 333334\n'
			printf 'bin 3 333336\n'
		done
	} >"$f"
	run -0 --separate-stderr ovb-convolve --dist "$f"
	stderr_has 'written over 10^18 intervals with every Pr(Y >= x) rounded up'
	printf '%s\n' "$output" >"$T/d"
	assert_line 'intervals 1000000000000000000'
	caps 0 0.5 1 2 3.5 5 7 9 10 10.5
	ovb-convolve --exact "${COPT[@]}" "$f" >"$T/exact"
	ovb-convolve --exact "${COPT[@]}" "$T/d" >"$T/rounded"
	run -0 "$PY" - "$T/exact" "$T/rounded" <<-'EOF'
	import sys
	from fractions import Fraction
	rows = [[Fraction(l.split(" = ")[1].split()[0]) for l in open(p)]
	        for p in sys.argv[1:]]
	for e, r in zip(*rows):
	    assert r >= e, (r, e)
	    assert r - e <= Fraction(12, 10**18), (r, e)
	print("rounded up by at most", max(r - e for e, r in zip(*rows)))
	EOF
	run -0 ovb-convolve -q --dist "$f"
}

@test "--dist: distributions with different intervals have no common Y" {
	sed -E 's/^interval 1 s/interval 2 s/' "$DATA/example.usage" >"$T/i2"
	sed -E 's/^usage (web|db)/usage \1x/' "$T/i2" >"$T/i3"
	run -65 --separate-stderr ovb-convolve -r cpu --dist "$DATA/example.usage" \
		"$T/i3"
	assert_output ''
	stderr_has 'different measurement intervals'
	run -0 --separate-stderr ovb-convolve -r cpu -C 1 \
		"$DATA/example.usage" "$T/i3"
	stderr_has 'warning: the distributions have different measurement intervals'
	run -0 --separate-stderr ovb-convolve -q -r cpu -C 1 \
		"$DATA/example.usage" "$T/i3"
	assert_equal "$stderr" ''
}

# ---------------------------------------------------------------------------
# Selection, errors, determinism.

@test "selection: -r and -c; mixed resources and unknown capsules are usage errors" {
	run -0 ovb-convolve --exact -c db -C 1 "$DATA/example.usage"
	assert_output 'Pr(Y > 1 cpu) = 1/10 = 0.1'
	run -64 --separate-stderr ovb-convolve -C 1 "$DATA/example.usage"
	assert_output ''
	stderr_has 'the selection mixes cpu (web) and net (web); choose one resource with -r'
	run -64 --separate-stderr ovb-convolve -r cpu -c nope -C 1 \
		"$DATA/example.usage"
	assert_output ''
	stderr_has '-c nope: no cpu distribution of capsule nope'
	run -65 --separate-stderr ovb-convolve -r net-rx -C 1 \
		"$DATA/example.usage"
	stderr_has 'no net-rx distribution in the inputs'
}

@test "bad input: duplicates, other formats, bad files: 65 and no output" {
	run -65 --separate-stderr ovb-convolve -r cpu -C 1 "$DATA/example.usage" \
		"$DATA/example.profile"
	assert_output ''
	stderr_has "$DATA/example.profile: web cpu was already read from $DATA/example.usage"
	run -65 --separate-stderr ovb-convolve -r cpu -C 1 "$DATA/example.usage" \
		"$DATA/example.usage"
	assert_output ''
	run -65 --separate-stderr ovb-convolve -C 1 "$DATA/example.cluster"
	assert_output ''
	stderr_has 'this is an ovb-cluster file; expected ovb-usage or ovb-profile'
	variant bad.usage "$DATA/example.usage" 's/^intervals 10$/intervals 11/'
	run -65 --separate-stderr ovb-convolve -r cpu -C 1 "$BAD"
	assert_output ''
	variant bad.profile "$DATA/example.profile" 's/^O 0.01$/O 1/'
	run -65 --separate-stderr ovb-convolve -r cpu -C 1 "$BAD"
	assert_output ''
	stderr_has "$BAD:"
	run -66 --separate-stderr ovb-convolve -C 1 "$T/nonexistent"
	assert_output ''
	run -65 --separate-stderr ovb-convolve -o "$T/out" -r cpu -C 1 \
		"$DATA/example.usage" "$DATA/example.profile"
	[[ ! -e $T/out ]] || fail "-o created a file on error"
}

@test "usage errors: bad -C, -g, -r, --name; nothing to do" {
	run -64 --separate-stderr ovb-convolve -C -1 "$DATA/example.usage"
	run -64 --separate-stderr ovb-convolve -C 1x "$DATA/example.usage"
	run -64 --separate-stderr ovb-convolve -g 0 -C 1 "$DATA/example.usage"
	stderr_has 'the grid width must be positive'
	run -64 --separate-stderr ovb-convolve -r net -g 0.001 -C 1 \
		"$DATA/example.usage"
	assert_output ''
	stderr_has 'choose a coarser grid with -g'
	run -64 --separate-stderr ovb-convolve -r disk -C 1 "$DATA/example.usage"
	run -64 --separate-stderr ovb-convolve --dist --name 'a b' "$DATA/example.usage"
	run -64 --separate-stderr ovb-convolve -r cpu "$DATA/example.usage"
	stderr_has 'nothing to do'
	run -64 --separate-stderr ovb-convolve --dist --tsv -r cpu \
		"$DATA/example.usage"
	assert_output ''
}

@test "stdin, -o, and the same output for the same input" {
	gen --seed 9 --dists 5
	run -0 bash -c "cat '$T/u' | ovb-convolve --exact -C 1 -C 2 - '$T/p'"
	local a=$output
	run -0 ovb-convolve --exact -C 1 -C 2 "$T/u" "$T/p"
	assert_equal "$output" "$a"
	run -0 ovb-convolve --exact -C 1 -C 2 -o "$T/o1" "$T/u" "$T/p"
	assert_output ''
	ovb-convolve --exact -C 1 -C 2 "$T/u" "$T/p" >"$T/o2"
	cmp "$T/o1" "$T/o2"
	ovb-convolve --dist -C 1 "$T/u" "$T/p" >"$T/d1"
	ovb-convolve --dist -C 1 "$T/u" "$T/p" >"$T/d2"
	cmp "$T/d1" "$T/d2"
}

@test "--help: options, EXAMPLES and the exit statuses" {
	run -0 ovb-convolve --help
	assert_output --partial 'EXAMPLES:'
	assert_output --partial '--exact'
	assert_output --partial 'Exit status:'
}
