#!/usr/bin/env bats
# Memory as a resource, profiling: ovb-usage -r mem (U of the window peaks,
# block maxima), ovb-profile's mem blocks (request = the (1-O) percentile
# of the peaks, limit = the largest peak x (1 + margin)), the profile
# format's mem records (formats/profile.md).
#
# t/gen/mem.py makes random mem series (gaps, fractional levels);
# t/oracle/usage.py recomputes U from the series with Fractions and
# t/oracle/mem.py the request and limit from the raw series.  The tests on
# the real traces skip when ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# The series of formats/profile.md's mem example: db's 5-minute levels,
# three complete quarter-hours (peaks 1.5, 2 and 1 GiB), two with a gap.
example_series() {
	cat <<-'EOF'
	ovb-series 1
	series db mem
	interval 300 s
	sample 1372629600 1073741824
	sample 1372629900 1610612736
	sample 1372630200 1342177280
	sample 1372630500 2147483648
	sample 1372630800 1073741824
	sample 1372631100 1073741824
	sample 1372631400 1073741824
	sample 1372632000 3221225472
	sample 1372632300 1073741824
	sample 1372632600 1073741824
	sample 1372632900 1073741824
	sample 1372633200 1207959552
	EOF
}

@test "window peaks: the example (15 min windows, incomplete ones left out) and profile.md's mem block" {
	example_series >"$T/s"
	run -0 --separate-stderr ovb-usage -v -r mem --window 15m -w mem=536870912 "$T/s"
	stderr_has 'series db mem: 2 of 5 windows of 900 s miss samples and are left out'
	assert_line 'interval 900 s'
	assert_line 'intervals 3'
	assert_line 'mean 1610612736 B'
	assert_line 'pct 50 1610612736 B'
	assert_line 'pct 100 2147483648 B'
	echo "$output" >"$T/u"
	run -0 python3 "$ORACLE/usage.py" --window 900 --width mem=536870912 "$T/s" "$T/u"
	# the block of formats/profile.md, byte for byte (its comment lines aside)
	local md=$BATS_TEST_DIRNAME/../formats/profile.md
	awk '/^    ovb-profile 1$/ { n++ } n == 2 && /^    / { sub(/^    /, ""); print; next } n == 2 { exit }' "$md" >"$T/want"
	[[ $(nlines "$T/want") -ge 10 ]]
	ovb-usage -q -r mem --window 900 -w mem=536870912 -p 50 "$T/s" |
		ovb-profile -q -O 0.5 | grep -v '^#' | grep -v '^pct 9' >"$T/got"
	diff "$T/want" "$T/got"
}

@test "random series: U of the window peaks agrees with the oracle (windows 1h, 2h, 30m; 8 seeds)" {
	local seed w
	for seed in $(seq 1 8); do
		python3 "$GEN/mem.py" series "$seed" >"$T/s"
		for w in 3600 7200 1800; do
			ovb-usage -q -r mem --window "$w" -p 12.5,97.5 "$T/s" >"$T/u" || fail "seed $seed window $w"
			run -0 python3 "$ORACLE/usage.py" --window "$w" "$T/s" "$T/u"
			assert_output 'agree: 4 blocks'
		done
		# -r all: the cpu series as before, mem as window peaks
		ovb-usage -q -r all "$T/s" >"$T/u"
		run -0 python3 "$ORACLE/usage.py" "$T/s" "$T/u"
		assert_output 'agree: 8 blocks'
	done
}

@test "random series: request and limit agree with the oracle (O, window, margin; 8 seeds)" {
	local seed
	for seed in $(seq 1 8); do
		python3 "$GEN/mem.py" series "$seed" >"$T/s"
		ovb-usage -q -r mem "$T/s" >"$T/u"
		ovb-profile -q -O 0.01 "$T/u" >"$T/p"
		ovb-fmt "$T/p"
		run -0 python3 "$ORACLE/mem.py" profile -O 0.01 "$T/s" "$T/p"
		assert_output 'agree: 4 mem profiles'
		ovb-usage -q -r mem --window 2h "$T/s" >"$T/u"
		ovb-profile -q -O 0.1 --mem-margin 0.4 "$T/u" >"$T/p"
		run -0 python3 "$ORACLE/mem.py" profile -O 0.1 --window 7200 --margin 0.4 "$T/s" "$T/p"
		# the oracle fails on a wrong margin
		run -1 python3 "$ORACLE/mem.py" profile -O 0.1 --window 7200 "$T/s" "$T/p"
	done
}

@test "mem with cpu: ovb-profile needs no curve for mem, -t only for the rate blocks" {
	python3 "$GEN/mem.py" series 3 2 >"$T/s"
	ovb-usage -q -r all "$T/s" >"$T/u"
	ovb-tbucket -q -r all "$T/s" >"$T/c"
	run -0 grep -c '^curve ' "$T/c"
	assert_output 2
	run -0 --separate-stderr ovb-profile -O 0.05 -t 300 "$T/u" "$T/c"
	assert_equal "$stderr" ''
	assert_line 'profile vm0 mem'
	assert_line 'profile vm0 cpu'
	assert_equal "$(grep -c '^limit ' <<<"$output")" 2
	assert_equal "$(grep -c '^rho ' <<<"$output")" 2
	run -64 --separate-stderr ovb-profile -O 0.05 "$T/u" "$T/c"
	stderr_has 'the period -t is required'
	ovb-usage -q -r mem "$T/s" >"$T/m"
	run -0 --separate-stderr ovb-profile -O 0.05 "$T/m"
	assert_equal "$stderr" ''
	# mem is a level: no token bucket
	run -64 --separate-stderr ovb-tbucket -r mem "$T/s"
	stderr_has 'memory is a level'
	# an onoff trace has no memory: -r all leaves it out
	run -0 --separate-stderr ovb-usage -q -r all "$DATA/example.onoff"
	refute_output --partial ' mem'
}

@test "bad input: a window that is not a multiple, no complete window (65 FILE:LINE, nothing written)" {
	example_series >"$T/s"
	run -65 --separate-stderr ovb-usage -r mem --window 1000 "$T/s" -o "$T/out"
	assert_equal "$stderr" "ovb-usage: $T/s:2: series db mem: the window --window 1000 s is not a multiple of its interval 300 s"
	[[ ! -e $T/out ]]
	run -65 --separate-stderr ovb-usage -r mem --window 1d "$T/s" -o "$T/out"
	assert_equal "$stderr" "ovb-usage: $T/s:2: series db mem: no window of 86400 s has all its 288 samples"
	[[ ! -e $T/out ]]
	run -64 --separate-stderr ovb-usage -r mem --window 1x "$T/s"
	stderr_has "--window: '1x' is not a whole number"
	run -64 --separate-stderr ovb-usage -r mem --window 0 "$T/s"
	run -64 --separate-stderr ovb-profile -O 0.01 --mem-margin -0.1 "$T/s"
}

@test "profile format: mem records, errors at their lines (65)" {
	example_series >"$T/s"
	ovb-usage -q -r mem --window 15m -w mem=536870912 "$T/s" | ovb-profile -q -O 0.5 >"$T/p"
	run -0 --separate-stderr ovb-fmt "$T/p"
	local n
	n=$(grep -n '^request' "$T/p" | cut -d: -f1)
	# a token bucket in a mem block
	sed "${n}a sigma 1 B" "$T/p" >"$T/b1"
	run -65 --separate-stderr ovb-fmt "$T/b1"
	assert_equal "$stderr" "ovb-fmt: $T/b1:$((n + 1)): sigma: a mem profile is a level with a request and a limit, not a token bucket"
	# a request in a cpu block
	printf 'ovb-profile 1\nprofile a cpu\nrequest 1 B\n' >"$T/b2"
	run -65 --separate-stderr ovb-fmt "$T/b2"
	assert_equal "$stderr" "ovb-fmt: $T/b2:3: request: only a mem profile has one (a cpu profile has sigma and rho)"
	# a limit below the request, reported at the block's line
	sed 's/^limit .*/limit 1 B/' "$T/p" >"$T/b3"
	run -65 --separate-stderr ovb-fmt "$T/b3"
	stderr_has "limit 1 B is below the request 1610612736 B"
	[[ $stderr == "ovb-fmt: $T/b3:$(grep -n '^profile' "$T/b3" | cut -d: -f1): "* ]] || fail "$stderr"
	# a missing limit; a wrong unit; a repeated request
	sed '/^limit /d' "$T/p" >"$T/b4"
	run -65 --separate-stderr ovb-fmt "$T/b4"
	stderr_has "profile db mem: missing 'limit' record"
	sed 's/^limit \(.*\) B$/limit \1 B\/s/' "$T/p" >"$T/b5"
	run -65 --separate-stderr ovb-fmt "$T/b5"
	stderr_has "expected 'B'"
	sed "${n}p" "$T/p" >"$T/b6"
	run -65 --separate-stderr ovb-fmt "$T/b6"
	stderr_has 'request is given twice'
}

@test "bitbrains: July's hourly memory peaks, request and limit agree with the oracle (4 VMs)" {
	[[ -d $BB/2013-7 ]] || skip "the Bitbrains traces are not at $BB"
	ovb-import -q --bitbrains -r mem "$BB"/2013-7/{1,9,22,27}.csv.gz >"$T/s"
	ovb-usage -q -r mem "$T/s" >"$T/u"
	run -0 python3 "$ORACLE/usage.py" "$T/s" "$T/u"
	assert_output 'agree: 4 blocks'
	ovb-profile -q -O 0.01 "$T/u" >"$T/p"
	run -0 python3 "$ORACLE/mem.py" profile -O 0.01 "$T/s" "$T/p"
	assert_output 'agree: 4 mem profiles'
}
