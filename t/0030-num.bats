#!/usr/bin/env bats
# lib/num.c: ovb_fmt_real, the canonical number writer of every format.
#
# bench/fmt-real.c holds the algorithm it replaced (try precisions 1..17
# in turn, keep the first that reads back) and compares the two texts on
# random doubles of every kind: any bit pattern (NaN, inf), subnormals, the
# top binades, integers and halves near 2^52..2^54, short decimals (1e-5,
# 0.1, 1e21, ...), a few ulps from powers of two and ten, negatives.
#
# bench/parse-real.c compares the readers' exact conversion
# (ovb_decimal_to_double: a decimal of at most 19 digits as a double, in
# 128-bit integers) with glibc's strtod on random decimals, exact halfway
# cases between two doubles and their neighbours.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ROOT=${OVB_ROOT:-$BATS_TEST_DIRNAME/..}
	T=$BATS_TEST_TMPDIR
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/fmt-real" \
		"$ROOT/bench/fmt-real.c" "$ROOT/lib/num.c" -lm ||
		fail "cannot build bench/fmt-real.c"
}

@test "ovb_fmt_real writes what the 17-precision search wrote, on 400,000 random doubles (halfway cases, binade edges)" {
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

@test "the comparison can fail: the exact path's ties to even, and the quarter ulp below a power of two, matter" {
	sed 's/if (rem > half || (rem == half \&\& (q \& 1)))/if (rem >= half)/' "$ROOT/lib/num.c" >"$T/tie.c"
	! cmp -s "$ROOT/lib/num.c" "$T/tie.c" || fail "sed changed nothing"
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/tie" "$ROOT/bench/fmt-real.c" "$T/tie.c" -lm
	run -1 --separate-stderr "$T/tie" check 200000 1
	assert_output --partial "differ: "
	sed 's/if (low)/if (0)/' "$ROOT/lib/num.c" >"$T/low.c"
	! cmp -s "$ROOT/lib/num.c" "$T/low.c" || fail "sed changed nothing"
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/low" "$ROOT/bench/fmt-real.c" "$T/low.c" -lm
	run -1 --separate-stderr "$T/low" check 200000 1
	assert_output --partial "differ: "
}

@test "the reader: decimals read by the fast path (no strtod) are the doubles Python's float gives" {
	# 1-15 digits with up to 22 places (the fast path), and longer ones
	# and exponents (strtod); through ovb-fmt, each read back by float()
	/usr/bin/python3 - "$T/in" <<'PY'
import random, sys
r = random.Random(12)
with open(sys.argv[1], 'w') as f:
    f.write('ovb-series 1\nseries a cpu\ninterval 1 s\n')
    for i in range(60000):
        nd = r.randint(1, 19)
        m = str(r.randrange(10 ** nd)).rjust(nd, '0')
        k = r.randint(0, min(nd, 22))
        s = m[:nd - k] + ('.' + m[nd - k:] if k else '')
        if s.startswith('.'):
            s = '0' + s
        if i % 7 == 0:
            s += 'e%d' % r.randint(-30, 30)
        f.write('sample %d %s\n' % (i, s))
PY
	run -0 --separate-stderr ovb-fmt -c "$T/in"
	printf '%s\n' "$output" >"$T/out"
	run -0 --separate-stderr /usr/bin/python3 - "$T/in" "$T/out" <<'PY'
import sys
def samples(p):
    return [l.split()[2] for l in open(p) if l.startswith('sample')]
a, b = samples(sys.argv[1]), samples(sys.argv[2])
assert len(a) == len(b) == 60000, (len(a), len(b))
bad = [(x, y) for x, y in zip(a, b) if float(x) != float(y)]
assert not bad, bad[:5]
print('60000 decimals read exactly')
PY
	assert_output "60000 decimals read exactly"
}

@test "ovb_decimal_to_double gives strtod's double on 9 million decimals (19 digits, halfway cases and their neighbours)" {
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/parse-real" \
		"$ROOT/bench/parse-real.c" "$ROOT/lib/num.c" -lm
	run -0 --separate-stderr "$T/parse-real" check 300000 1
	assert_output --regexp '^[0-9]+ decimals, 0 differ from strtod$'
	run -0 --separate-stderr "$T/parse-real" check 300000 20261128
	assert_output --regexp '^[0-9]+ decimals, 0 differ from strtod$'
}

@test "the comparison can fail: ties to even and the sticky bit of the division matter" {
	sed 's/(sticky || (M \& 1))/(sticky)/' "$ROOT/lib/num.c" >"$T/tie.c"
	! cmp -s "$ROOT/lib/num.c" "$T/tie.c" || fail "sed changed nothing"
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/tie" "$ROOT/bench/parse-real.c" "$T/tie.c" -lm
	run -1 --separate-stderr "$T/tie" check 20000 1
	assert_output --partial "differ from strtod"
	refute_output --partial " 0 differ"
	sed 's/round_q(q, r != 0, -s)/round_q(q, false, -s)/' "$ROOT/lib/num.c" >"$T/sticky.c"
	! cmp -s "$ROOT/lib/num.c" "$T/sticky.c" || fail "sed changed nothing"
	cc -std=gnu17 -O2 -I"$ROOT/lib" -o "$T/sticky" "$ROOT/bench/parse-real.c" "$T/sticky.c" -lm
	run -1 --separate-stderr "$T/sticky" check 20000 1
	refute_output --partial " 0 differ"
}
