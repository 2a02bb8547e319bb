#!/usr/bin/env bats
# lib/num.c: ovb_fmt_real, the canonical number writer of every format.
#
# bench/fmt-real.c holds the algorithm it replaced (try precisions 1..17
# in turn, keep the first that reads back) and compares the two texts on
# random doubles of every kind: any bit pattern (NaN, inf), subnormals, the
# top binades, integers and halves near 2^52..2^54, short decimals (1e-5,
# 0.1, 1e21, ...), a few ulps from powers of two and ten, negatives.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ROOT=${OVB_ROOT:-$BATS_TEST_DIRNAME/..}
	T=$BATS_TEST_TMPDIR
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/fmt-real" \
		"$ROOT/bench/fmt-real.c" "$ROOT/lib/num.c" -lm ||
		fail "cannot build bench/fmt-real.c"
}

@test "ovb_fmt_real writes what the 17-precision search wrote, on 400,000 random doubles" {
	run -0 --separate-stderr "$T/fmt-real" check 200000 1
	assert_output --partial ", 0 differ"
	run -0 --separate-stderr "$T/fmt-real" check 200000 20261124
	assert_output --partial ", 0 differ"
}

@test "the comparison can fail: a writer that always tries 15 digits first differs on subnormals" {
	sed 's/fabs(v) < DBL_MIN ? 1 : 15/15/' "$ROOT/lib/num.c" >"$T/num15.c"
	! cmp -s "$ROOT/lib/num.c" "$T/num15.c" || fail "sed changed nothing"
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/fmt15" \
		"$ROOT/bench/fmt-real.c" "$T/num15.c" -lm
	run -1 --separate-stderr "$T/fmt15" check 20000 1
	assert_line --partial "differ: 0x0.0000000000001p-1022 old 5e-324 new 4.94065645841247e-324"
}

@test "fixed cases through a format: 0.1, 1e-05, 1e+21, 2^53 + 2, 1/3" {
	printf 'ovb-series 1\nseries a cpu\ninterval 1 s\nsample 0 0.1\nsample 1 0.00001\nsample 2 1e21\nsample 3 9007199254740994\nsample 4 0.333333333333333314829616256247\n' >"$T/in"
	run -0 --separate-stderr ovb-fmt -c "$T/in"
	assert_line "sample 0 0.1"
	assert_line "sample 1 1e-05"
	assert_line "sample 2 1e+21"
	assert_line "sample 3 9007199254740994"
	assert_line "sample 4 0.3333333333333333"
}
