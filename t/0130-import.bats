#!/usr/bin/env bats
# ovb-import --bitbrains (Bitbrains VM traces to ovb-series), the ovb-series
# format (formats/series.md), and ovb-usage and ovb-tbucket on series input.
#
# t/data/replay-bitbrains.csv is a hand-written excerpt in the Bitbrains
# layout (not real data): a timestamp tie, a duplicate slot after rounding,
# a line without CPU data, exponents, a missing slot.  The tests on
# ../shared/data/bitbrains-rnd-250 check VMs of the 250-VM fleet and the
# workers (-j) against the same oracle.  t/oracle/import.py
# recomputes the conversion from the CSV (exact doubles);
# t/oracle/usage.py and tbucket.py recompute U and the token-bucket curve from a
# series with Fractions; t/gen/replay.py makes random series.  The
# tests on the real traces skip when ../shared/data/bitbrains-rnd (next to
# the repository) is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	BB250="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd-250"
	CSV="$DATA/replay-bitbrains.csv"
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

need_bitbrains() {
	[[ -d $BB/2013-7 && -d $BB/2013-8 ]] ||
		skip "the Bitbrains traces are not at $BB"
}

need_bitbrains250() {
	[[ -d $BB250/2013-7 && -d $BB250/2013-9 ]] ||
		skip "the 250-VM Bitbrains traces are not at $BB250"
}

# ---------------------------------------------------------------------------
# The conversion, on the hand-written excerpt.

@test "excerpt: known series (rounding, tie up, first of a slot kept, no-CPU line, exponents)" {
	cp "$CSV" "$T/12.csv"
	run -0 --separate-stderr ovb-import --bitbrains "$T/12.csv"
	assert_equal "$stderr" ''
	assert_output - <<-'EOF'
	ovb-series 1
	# series CAPSULE RES; interval I s; sample T V: the mean usage over [T, T+I)
	# in cpu, B/s or B (mem), T in s since the epoch, a multiple of I, increasing
	series vm12 cpu
	interval 300 s
	sample 1372629900 0.5
	sample 1372630200 1
	sample 1372630500 0.2
	sample 1372631400 3
	sample 1372631700 1.3333333333333333
	series vm12 net
	interval 300 s
	sample 1372629900 2048
	sample 1372630200 10240
	sample 1372630500 0
	sample 1372630800 1280
	sample 1372631400 15360
	sample 1372631700 204.8
	series vm12 net-rx
	interval 300 s
	sample 1372629900 1536
	sample 1372630200 512
	sample 1372630500 0
	sample 1372630800 256
	sample 1372631400 307.2
	sample 1372631700 102.4
	series vm12 mem
	interval 300 s
	sample 1372629900 1073741824
	sample 1372630200 1073741824
	sample 1372630500 1710437171.2
	sample 1372630800 536870912
	sample 1372631400 4294967296
	sample 1372631700 4294967296
	EOF
	run -0 python3 "$ORACLE/import.py" <(ovb-import --bitbrains "$T/12.csv") "$T/12.csv"
	assert_output --partial agree
}

@test "excerpt: -v counts the dropped duplicate and the line without CPU data" {
	cp "$CSV" "$T/12.csv"
	run -0 --separate-stderr ovb-import -v --bitbrains -o "$T/s" "$T/12.csv"
	assert_output ''
	stderr_has "$T/12.csv: capsule vm12: 7 samples, 0 outside --from/--to, 1 without CPU data (cores or capacity 0)"
	stderr_has 'capsule vm12: 1 samples fell on a slot of 300 s already taken after rounding; the first of each slot is kept'
}

@test "gzip input (by its magic) equals plain input; names from the file; --prefix" {
	cp "$CSV" "$T/7.csv"
	gzip -c "$CSV" >"$T/7.csv.gz"
	cp "$T/7.csv.gz" "$T/seven"
	ovb-import --bitbrains "$T/7.csv" >"$T/a"
	ovb-import --bitbrains "$T/7.csv.gz" >"$T/b"
	cmp "$T/a" "$T/b"
	run -0 ovb-import --bitbrains "$T/seven"
	assert_line 'series vmseven cpu'
	run -0 ovb-import --bitbrains --prefix jul- "$T/7.csv.gz"
	assert_line 'series jul-7 net'
	run -0 ovb-import --bitbrains --prefix '' "$T/7.csv.gz"
	assert_line 'series 7 net-rx'
}

@test "--kb 1000, -I 600, -r, --from/--to select and convert as documented" {
	cp "$CSV" "$T/12.csv"
	run -0 --separate-stderr ovb-import --bitbrains --kb 1000 -r net "$T/12.csv"
	assert_line 'sample 1372629900 2000'
	assert_line 'sample 1372631700 200'
	refute_output --partial 'series vm12 cpu'
	refute_output --partial 'net-rx'
	run -0 python3 "$ORACLE/import.py" --kb 1000 <(ovb-import --bitbrains --kb 1000 "$T/12.csv") "$T/12.csv"
	# a 600 s grid: 1372629750 -> 1372629600, 1372630199 -> 1372630200
	run -0 --separate-stderr ovb-import --bitbrains -I 600 -r cpu "$T/12.csv"
	assert_line 'interval 600 s'
	assert_line 'sample 1372629600 0.5'
	assert_line 'sample 1372630200 1'
	run -0 python3 "$ORACLE/import.py" --interval 600 <(ovb-import --bitbrains -I 600 "$T/12.csv") "$T/12.csv"
	# [from, to) on the rounded times; dates are UTC
	run -0 --separate-stderr ovb-import --bitbrains --from 2013-06-30T22:10 --to 1372631400 -r cpu "$T/12.csv"
	assert_equal "$(grep -c '^sample' <<<"$output")" 2
	assert_line 'sample 1372630200 1'
	assert_line 'sample 1372630500 0.2'
	run -0 python3 "$ORACLE/import.py" --from 1372630200 --to 1372631400 <(ovb-import --bitbrains --from 1372630200 --to 1372631400 "$T/12.csv") "$T/12.csv"
	assert_output --partial agree
}

@test "-r mem: the Memory usage column as a level in B (KB x 1024, or x 1000), the line without CPU data kept" {
	cp "$CSV" "$T/12.csv"
	run -0 --separate-stderr ovb-import --bitbrains -r mem "$T/12.csv"
	assert_equal "$stderr" ''
	assert_equal "$(grep -c '^series' <<<"$output")" 1
	assert_line 'series vm12 mem'
	# 1.6703488E6 KB: the product by 1024 is exact in a double
	assert_line "sample 1372630500 $(/usr/bin/python3 -c 'print(repr(1.6703488e6 * 1024))')"
	# the line with cores 0 (no cpu) still has its memory
	assert_line 'sample 1372630800 536870912'
	run -0 python3 "$ORACLE/import.py" --kb 1000 -r mem <(ovb-import --bitbrains --kb 1000 -r mem "$T/12.csv") "$T/12.csv"
	assert_output --partial 'agree: 1 series'
	run -64 --separate-stderr ovb-import --bitbrains -r memory "$T/12.csv"
	stderr_has "unknown resource 'memory' (cpu, net, net-rx, mem, all)"
}

@test "two files of one VM are merged in time; a slot in both keeps the first file's" {
	mkdir "$T/m7" "$T/m8"
	cp "$CSV" "$T/m7/5.csv"
	# the second month: the last two slots again, with other values, and one more
	{
		head -1 "$CSV"
		printf '1372631700;\t1;\t1000;\t500;\t50;\t1;\t1;\t0;\t0;\t1;\t1\n'
		printf '1372632000;\t1;\t1000;\t250;\t25;\t1;\t1;\t0;\t0;\t1;\t1\n'
	} >"$T/m8/5.csv"
	run -0 --separate-stderr ovb-import -v --bitbrains "$T/m8/5.csv" "$T/m7/5.csv"
	assert_line 'sample 1372631700 0.5'
	assert_line 'sample 1372632000 0.25'
	assert_equal "$(grep -c '^series' <<<"$output")" 4
	stderr_has 'capsule vm5: 2 samples fell on a slot'
	run -0 python3 "$ORACLE/import.py" <(ovb-import --bitbrains "$T/m8/5.csv" "$T/m7/5.csv") "$T/m8/5.csv" "$T/m7/5.csv"
}

@test "a VM without CPU data gets no cpu series, with a warning (-q: silent)" {
	{
		head -1 "$CSV"
		printf '1372631700;\t0;\t0.0;\t0.0;\t0.0;\t1;\t1;\t0;\t0;\t1;\t2\n'
	} >"$T/3.csv"
	run -0 --separate-stderr ovb-import --bitbrains "$T/3.csv"
	refute_output --partial 'series vm3 cpu'
	assert_line 'series vm3 net'
	assert_equal "$stderr" 'ovb-import: capsule vm3 has no cpu samples (no CPU data); its cpu series is left out'
	run -0 --separate-stderr ovb-import -q --bitbrains "$T/3.csv"
	assert_equal "$stderr" ''
}

@test "output: valid, canonical, deterministic; -o == stdout; -o with bad input: no file" {
	cp "$CSV" "$T/12.csv"
	ovb-import --bitbrains "$T/12.csv" >"$T/a"
	ovb-fmt "$T/a"
	run -0 ovb-fmt -l "$T/a"
	assert_output ''
	ovb-import --bitbrains "$T/12.csv" -o "$T/b"
	cmp "$T/a" "$T/b"
	printf 'oops\n' >"$T/13.csv"
	run -65 --separate-stderr ovb-import --bitbrains "$T/12.csv" "$T/13.csv" -o "$T/c"
	[[ ! -e $T/c ]]
	run -0 ls -A "$T"
	refute_output --partial '.c.'
}

@test "the fast line path and the general one give the oracle's doubles (20 digits, exponents, zeros, blanks, CR LF)" {
	# formats/bitbrains.c tries each data line by a fast path and hands
	# anything it cannot vouch for to the general one: both must give the
	# doubles Python's float gives, whichever path a line takes
	{
		head -1 "$CSV"
		# fast: 17-19 significant digits, exponents, leading zeros, -0
		printf '1372629750;\t8;\t20799.994872;\t74.533314958;\t0.35833333333333334;\t2.097152E7;\t83884.8;\t0.0;\t0.8;\t6.466666666666667;\t1.1333333333333333\n'
		printf '1372630050; 0002 ;5199.99925;110.93331733333332e-2;2.1;8357888.0;1.3421706666666668e+5;-0.0;1e-19;4133.333333333334e-3;9999999999999999999\n'
		printf '1372630350;\t1;\t1000;\t0.0000000000000000001;\t1;\t1;\t1.8446744073709551615E3;\t0;\t0;\t12345678901234567.89e-2;\t1E+19\r\n'
		# general: 20 digits, exponents beyond 10^19, 0e-400
		printf '1372630650;\t4;\t12345678901234567890.5;\t1e25;\t1;\t1;\t0.00000000000000000000001234567;\t0e-400;\t0;\t1.5e-30;\t123456789012345678901234\n'
		printf '00001372630950;\t3;\t3e+3;\t1.0000000000000000000000001e3;\t1;\t1;\t7;\t0;\t0;\t2;\t3\n'
	} >"$T/9.csv"
	run -0 --separate-stderr ovb-import --bitbrains "$T/9.csv"
	printf '%s\n' "$output" >"$T/s"
	run -0 python3 "$ORACLE/import.py" "$T/s" "$T/9.csv"
	assert_output 'agree: 4 series, 20 samples'
	run -0 python3 "$ORACLE/import.py" --kb 1000 <(ovb-import --bitbrains --kb 1000 "$T/9.csv") "$T/9.csv"
}

@test "-j: the same bytes for 1, 2 and 5 workers and through stdout; several bad files reported in file order" {
	local i
	for i in 1 2 3 4 5 6; do
		sed -E "s/^(137263)/\1$i/" "$CSV" >"$T/$i.csv"
	done
	gzip "$T/2.csv" "$T/5.csv"
	local files=("$T"/1.csv "$T"/2.csv.gz "$T"/3.csv "$T"/4.csv "$T"/5.csv.gz "$T"/6.csv)
	ovb-import -v -j 1 --bitbrains "${files[@]}" -o "$T/j1" 2>"$T/e1"
	ovb-import -v -j 2 --bitbrains "${files[@]}" -o "$T/j2" 2>"$T/e2"
	ovb-import -v -j 5 --bitbrains "${files[@]}" >"$T/j5" 2>"$T/e5"
	cmp "$T/j1" "$T/j2"
	cmp "$T/j1" "$T/j5"
	cmp "$T/e1" "$T/e2"
	cmp "$T/e1" "$T/e5"
	# per-file counts in file order, then the per-VM notes in VM order
	run -0 grep -o '^ovb-import: [^:]*: capsule vm[0-9]*' "$T/e1"
	assert_equal "${lines[0]}" "ovb-import: $T/1.csv: capsule vm1"
	assert_equal "${lines[5]}" "ovb-import: $T/6.csv: capsule vm6"
	run -0 python3 "$ORACLE/import.py" "$T/j1" "${files[@]}"
	assert_output --partial 'agree: 24 series'
	# errors in three files and a missing one: each reported once, in
	# file order whatever the workers' timing, the largest status (66),
	# nothing written
	sed -i '4s/;[^;]*$//' "$T/3.csv"
	gzip -dc "$T/5.csv.gz" | sed '6s/0\.25/-0.25/' | gzip >"$T/5b.csv.gz"
	mv "$T/5b.csv.gz" "$T/5.csv.gz"
	gzip -c "$CSV" | head -c 100 >"$T/2.csv.gz"
	local want
	want=$(printf '%s\n' \
		"gzip: $T/2.csv.gz: unexpected end of file" \
		"ovb-import: $T/2.csv.gz: gzip -dc failed (exit status 1): a corrupt or truncated file" \
		"ovb-import: $T/3.csv:4: 10 fields separated by ';', expected 11" \
		"ovb-import: $T/nope.csv: cannot open: No such file or directory" \
		"ovb-import: $T/5.csv.gz:6: Network received throughput [KB/s]: -0.25 is negative")
	for i in 1 2 4; do
		run -66 --separate-stderr ovb-import -q -j $i --bitbrains "$T/1.csv" "$T/2.csv.gz" "$T/3.csv" "$T/nope.csv" "$T/5.csv.gz" "$T/6.csv" -o "$T/bad"
		assert_output ''
		assert_equal "$stderr" "$want"
		[[ ! -e $T/bad ]]
		run -66 --separate-stderr ovb-import -q -j $i --bitbrains "$T/1.csv" "$T/2.csv.gz" "$T/3.csv" "$T/nope.csv" "$T/5.csv.gz" "$T/6.csv"
		assert_output ''
		assert_equal "$stderr" "$want"
	done
	run -65 --separate-stderr ovb-import -j 3 --bitbrains "$T/1.csv" "$T/3.csv" "$T/6.csv"
	assert_output ''
	assert_equal "$stderr" "ovb-import: $T/3.csv:4: 10 fields separated by ';', expected 11"
	run -64 --separate-stderr ovb-import -j 0 --bitbrains "$T/1.csv"
	run -0 ls -A "$T"
	refute_output --partial '.bad.'
}

@test "all or nothing on stdout: a regular file is cut back to where it started, a pipe gets nothing" {
	local i
	# two VMs of 5,000 samples (1.2 MB of output, more than a buffer),
	# then a bad line in the third file
	for i in 1 2 3; do
		{
			head -1 "$CSV"
			awk -v i=$i 'BEGIN { for (k = 0; k < 5000; k++)
				printf "%d;\t2;\t5200.0;\t%d.25;\t1;\t1;\t%d;\t0;\t0;\t1.5;\t2.5\n",
					1372629750 + 300 * k, (k * i) % 5000, k }'
		} >"$T/$i.csv"
	done
	sed -i '5s/;[^;]*$//' "$T/3.csv"
	# a file of its own: empty after the error
	run -65 --separate-stderr sh -c 'ovb-import -q --bitbrains "$@" >"$0"' "$T/out" "$T/1.csv" "$T/2.csv" "$T/3.csv"
	assert_equal "$stderr" "ovb-import: $T/3.csv:5: 10 fields separated by ';', expected 11"
	[[ -f $T/out && ! -s $T/out ]] || fail "stdout file not empty: $(head -c 200 "$T/out")"
	# after what the shell wrote first, and appended: those bytes stay
	run -65 sh -c '{ echo before; ovb-import -q --bitbrains "$@"; } >"$0"' "$T/out" "$T/1.csv" "$T/2.csv" "$T/3.csv"
	assert_equal "$(cat "$T/out")" before
	run -65 sh -c 'ovb-import -q --bitbrains "$@" >>"$0"' "$T/out" "$T/1.csv" "$T/2.csv" "$T/3.csv"
	assert_equal "$(cat "$T/out")" before
	# a pipe
	run -0 --separate-stderr sh -c 'ovb-import -q --bitbrains "$@" | wc -c' "$T/1.csv" "$T/2.csv" "$T/3.csv"
	assert_output 0
	# without the error: the same bytes through a file, a pipe, -o
	ovb-import -q --bitbrains "$T/1.csv" "$T/2.csv" >"$T/a"
	ovb-import -q --bitbrains "$T/1.csv" "$T/2.csv" | cat >"$T/b"
	ovb-import -q --bitbrains "$T/1.csv" "$T/2.csv" -o "$T/c"
	cmp "$T/a" "$T/b"
	cmp "$T/a" "$T/c"
	run -0 python3 "$ORACLE/import.py" "$T/a" "$T/1.csv" "$T/2.csv"
}

# ---------------------------------------------------------------------------
# Malformed traces and bad options.

# bad_line NAME LINE WORD SED: the excerpt edited by SED is rejected with
# exit 65, no output, one error at FILE:LINE mentioning WORD.
bad_line() {
	local f=$T/$1.csv line=$2 word=$3
	sed -E "$4" "$CSV" >"$f"
	run -65 --separate-stderr ovb-import --bitbrains "$f"
	assert_output ''
	[[ $stderr == "ovb-import: $f:$line: "* && $stderr != *$'\n'* ]] ||
		fail "stderr: $stderr"
	stderr_has "$word"
}

@test "malformed lines: 65 at FILE:LINE" {
	bad_line fields 3 '10 fields' '3s/;[^;]*$//'
	bad_line extra 4 '12 fields' '4s/$/;\t1/'
	bad_line blank 5 '1 fields' '5s/.*//'
	bad_line nonnum 2 "CPU usage [MHZ]: '1300.0x'" '2s/1300\.0/1300.0x/'
	bad_line negative 6 'Network received throughput [KB/s]: -0.25 is negative' '6s/0\.25/-0.25/'
	bad_line nan 7 "CPU cores: 'nan'" '7s/^([0-9]+;\t)4;/\1nan;/'
	bad_line time 2 "timestamp '1372629750.5'" '2s/^1372629750/1372629750.5/'
	bad_line header 1 "header field 4 is 'CPU usage [MHz]'" '1s/CPU usage \[MHZ\]/CPU usage [MHz]/'
	bad_line header2 1 'the header has 10 fields' '1s/;[^;]*$//'
}

@test "empty file, NUL byte, corrupt gzip: 65" {
	: >"$T/1.csv"
	run -65 --separate-stderr ovb-import --bitbrains "$T/1.csv"
	assert_equal "$stderr" "ovb-import: $T/1.csv: empty input: no header line"
	printf 'a\0b\n' >"$T/2.csv"
	run -65 --separate-stderr ovb-import --bitbrains "$T/2.csv"
	stderr_has "$T/2.csv:1: NUL byte"
	gzip -c "$CSV" | head -c 200 >"$T/3.csv.gz"
	run -65 --separate-stderr ovb-import --bitbrains "$T/3.csv.gz"
	assert_output ''
	stderr_has "ovb-import: $T/3.csv.gz: gzip -dc failed"
	# a header alone: no samples at all
	head -1 "$CSV" >"$T/4.csv"
	run -65 --separate-stderr ovb-import -q --bitbrains "$T/4.csv"
	assert_equal "$stderr" "ovb-import: $T/4.csv: no samples in the input"
}

@test "bad options: 64; a missing file: 66" {
	cp "$CSV" "$T/12.csv"
	local bad
	for bad in '--kb 1023' '-I 0' '-I x' '--from 2013-02-30' \
	    '--from 2013-07-01T25:00' '--to yesterday' \
	    '--from 2013-07-02 --to 2013-07-01' '-r disk' '-r cpu,' \
	    '--prefix -x' '--bogus'; do
		# shellcheck disable=SC2086
		run -64 --separate-stderr ovb-import --bitbrains $bad "$T/12.csv"
		assert_output ''
		[[ $stderr == ovb-import:* ]] || fail "$bad: stderr '$stderr'"
	done
	# the kind of input is required
	run -64 --separate-stderr ovb-import "$T/12.csv"
	assert_output ''
	stderr_has 'give the kind of input: --bitbrains'
	run -64 --separate-stderr ovb-import --bitbrains
	run -64 --separate-stderr ovb-import --bitbrains - <"$T/12.csv"
	run -66 --separate-stderr ovb-import --bitbrains "$T/12.csv" "$T/nope.csv"
	assert_output ''
	stderr_has "ovb-import: $T/nope.csv: cannot open"
}

# ---------------------------------------------------------------------------
# The ovb-series format.

@test "series format: errors at their lines (ovb-fmt)" {
	local f=$DATA/example.series
	variant s1 "$f" '0,/^interval 300 s$/s//interval 300 ms/'
	assert_fmt_error "$BAD" 5 "unit 'ms'"
	variant s2 "$f" '0,/^interval 300 s$/s//interval 0.5 s/'
	assert_fmt_error "$BAD" 5 interval "'0.5'"
	variant s3 "$f" '0,/^interval 300 s$/s//interval 0 s/'
	assert_fmt_error "$BAD" 5 '1..31622400'
	variant s4 "$f" 's/^sample 1372630200 0\.5$/sample 1372630250 0.5/'
	assert_fmt_error "$BAD" 7 'not a multiple of the interval 300 s'
	variant s5 "$f" 's/^sample 1372630500 1\.75$/sample 1372630200 1.75/'
	assert_fmt_error "$BAD" 8 'not after the previous'
	variant s6 "$f" 's/^sample 1372630500 1\.75$/sample 1372630500 -1.75/'
	assert_fmt_error "$BAD" 8 negative
	variant s7 "$f" 's/^sample 1372630500 1\.75$/sample 1.3e9 1.75/'
	assert_fmt_error "$BAD" 8 "'1.3e9'"
	variant s8 "$f" 's/^sample 1372630500 1\.75$/sample 1372630500 nan/'
	assert_fmt_error "$BAD" 8 nan
	variant s9 "$f" 's/^series db cpu$/series web cpu/'
	assert_fmt_error "$BAD" 16 'series web cpu is given twice (first at line 4)'
	variant s10 "$f" 's/^series db cpu$/series db disk/'
	assert_fmt_error "$BAD" 16 "unknown resource 'disk'"
	variant s11 "$f" '/^series db cpu$/{n;d}'
	assert_fmt_error "$BAD" 17 "sample before the series' 'interval I s' record"
	variant s12 "$f" '/^series db cpu$/{n;p}'
	assert_fmt_error "$BAD" 18 'interval is given twice'
	variant s13 "$f" '$a interval 300 s'
	assert_fmt_error "$BAD" 23 'interval is given twice'
	variant s14 "$f" '/^sample/d'
	assert_fmt_error "$BAD" 4 'series web cpu: no samples'
	variant s15 "$f" '/^series web net$/,/^sample 1372631100 1024$/{/^interval/d}'
	assert_fmt_error "$BAD" 11 "sample before the series' 'interval I s' record"
	variant s16 "$f" '4i sample 0 1'
	assert_fmt_error "$BAD" 4 "'sample' before any 'series CAPSULE RES' record"
	variant s17 "$f" 's/^sample 1372629900 1$/bucket 1372629900 1/'
	assert_fmt_error "$BAD" 18 "unknown record 'bucket'"
	variant s18 "$f" 's/^sample 1372629900 1$/sample 1372629900 1 cpu/'
	assert_fmt_error "$BAD" 18 "expected 'sample T V'"
	variant s19 "$f" 's/^sample 1372629900 1$/sample 4611686018427387900 1/'
	assert_fmt_error "$BAD" 18 'too large'
	printf 'ovb-series 1\n# nothing\n' >"$T/empty.series"
	assert_fmt_error "$T/empty.series" 2 'no series'
	printf 'ovb-series 1\nseries a cpu\n' >"$T/open.series"
	assert_fmt_error "$T/open.series" 2 "missing 'interval'"
	printf 'ovb-series 2\n' >"$T/v2.series"
	assert_fmt_error "$T/v2.series" 1 'version 2'
}

@test "series format: the example in formats/series.md is t/data/example.series" {
	[[ -f $BATS_TEST_DIRNAME/../formats/series.md ]] || skip "no formats/series.md"
	awk '/^## Example/{e=1; next} e && /^    /{sub(/^    /, ""); print} e && /^## Errors/{exit}' \
		"$BATS_TEST_DIRNAME/../formats/series.md" >"$T/md.series"
	cmp "$T/md.series" "$DATA/example.series"
}

# ---------------------------------------------------------------------------
# ovb-usage and ovb-tbucket on series input.

@test "ovb-usage on example.series: one interval per sample, missing ones left out" {
	run -0 --separate-stderr ovb-usage -q -r cpu "$DATA/example.series"
	assert_output - <<-'EOF'
	ovb-usage 1
	# usage CAPSULE RES; interval I s; width W UNIT; intervals N;
	# mean V UNIT; pct P V UNIT; bin K COUNT: bin 0 counts usage 0,
	# bin K counts usage in ((K-1)W, KW]; UNIT cpu, B/s or B (mem)
	usage web cpu
	interval 300 s
	width 0.01 cpu
	intervals 4
	mean 0.65625 cpu
	pct 50 0.25 cpu
	pct 90 1.75 cpu
	pct 95 1.75 cpu
	pct 99 1.75 cpu
	pct 100 1.75 cpu
	bin 13 1
	bin 25 1
	bin 50 1
	bin 175 1
	usage db cpu
	interval 300 s
	width 0.01 cpu
	intervals 5
	mean 1.2 cpu
	pct 50 1 cpu
	pct 90 2 cpu
	pct 95 2 cpu
	pct 99 2 cpu
	pct 100 2 cpu
	bin 50 1
	bin 100 2
	bin 150 1
	bin 200 1
	EOF
	# db has no net series: left out with a warning
	run -0 --separate-stderr ovb-usage "$DATA/example.series"
	assert_equal "$stderr" "ovb-usage: $DATA/example.series: capsule db has no net series; left out"
	assert_line 'usage web net'
	refute_line 'usage db net'
}

@test "ovb-usage on series: -I a multiple (exact means of complete groups), else 65" {
	run -0 --separate-stderr ovb-usage -v -r cpu -I 600 "$DATA/example.series"
	# web: only [1372630200, 1372630800) is complete: (0.5 + 1.75) / 2
	assert_line 'intervals 1'
	assert_line 'mean 1.125 cpu'
	stderr_has 'series web cpu: 2 of 3 measurement intervals of 600 s miss samples and are left out'
	run -65 --separate-stderr ovb-usage -r cpu -I 450 "$DATA/example.series"
	assert_output ''
	assert_equal "$stderr" "ovb-usage: $DATA/example.series:4: series web cpu: -I 450 s is not a multiple of its interval 300 s"
	run -65 --separate-stderr ovb-usage -r cpu -c web -I 3000 "$DATA/example.series"
	assert_equal "$stderr" "ovb-usage: $DATA/example.series:4: series web cpu: no measurement interval of 3000 s has all its 10 samples"
}

@test "ovb-tbucket on example.series: A piecewise linear, gaps split it" {
	run -0 --separate-stderr ovb-tbucket -q "$DATA/example.series"
	assert_output - <<-'EOF'
	ovb-curve 1
	# curve CAPSULE RES; mean RATE UNIT; peak RATE UNIT;
	# point SIGMA RHO: breakpoints of the least burst rho(sigma) [cpu-s|B] at rate sigma [cpu|B/s]
	curve web cpu
	mean 0.65625 cpu
	peak 1.75 cpu
	point 0.65625 328.125
	point 1.75 0
	curve web net
	mean 63131 B/s
	peak 250000 B/s
	point 63131 56060700
	point 250000 0
	curve db cpu
	mean 1.2 cpu
	peak 2 cpu
	point 1.2 240
	point 2 0
	EOF
	# 0 1 2 3 0, I = 10 s: at the mean 1.2 the best window is [2, 3]
	# (10 (2 + 3 - 2 x 1.2) = 26); [3] alone takes over at sigma 2
	printf 'ovb-series 1\nseries c cpu\ninterval 10 s\nsample 0 0\nsample 10 1\nsample 20 2\nsample 30 3\nsample 40 0\n' >"$T/c.series"
	run -0 ovb-tbucket -q -r cpu "$T/c.series"
	assert_line 'mean 1.2 cpu'
	assert_line 'peak 3 cpu'
	assert_line 'point 1.2 26'
	assert_line 'point 2 10'
	assert_line 'point 3 0'
	# a missing sample splits the run: [2, 3] is no longer one window
	sed -i '/^sample 20 /d' "$T/c.series"
	run -0 ovb-tbucket -q -r cpu "$T/c.series"
	assert_line 'mean 1 cpu'
	assert_line 'point 1 20'
	assert_line 'point 3 0'
	run -0 python3 "$ORACLE/tbucket.py" "$T/c.series" <(ovb-tbucket -q -r cpu "$T/c.series")
}

@test "series input: a capsule read twice, -c naming none, a bad file: 65" {
	run -65 --separate-stderr ovb-usage "$DATA/example.series" "$DATA/example.series"
	stderr_has "capsule web was already read from $DATA/example.series"
	run -65 --separate-stderr ovb-tbucket -q -c nosuch "$DATA/example.series"
	assert_equal "$stderr" 'ovb-tbucket: capsule nosuch (-c) is in no input'
	variant bad.series "$DATA/example.series" 's/^sample 1372630200 0\.5$/sample 1372630200 x/'
	run -65 --separate-stderr ovb-tbucket "$BAD"
	assert_output ''
	stderr_has "ovb-tbucket: $BAD:7: sample value: 'x'"
	run -65 --separate-stderr ovb-usage "$BAD"
	stderr_has "ovb-usage: $BAD:7: sample value: 'x'"
}

@test "random series: ovb-usage (I and 3I) and ovb-tbucket agree with the oracle (12 seeds)" {
	local seed
	for seed in $(seq 1 12); do
		python3 "$GEN/replay.py" series "$seed" >"$T/s"
		ovb-usage -q -r all -p 0,12.5,97.5 "$T/s" >"$T/u" || fail "ovb-usage, seed $seed"
		run -0 python3 "$ORACLE/usage.py" "$T/s" "$T/u"
		if ovb-usage -q -r all -I 900 "$T/s" >"$T/u3" 2>/dev/null; then
			run -0 python3 "$ORACLE/usage.py" --len 900 "$T/s" "$T/u3"
		fi
		ovb-tbucket -q -r all "$T/s" >"$T/c" || fail "ovb-tbucket, seed $seed"
		ovb-fmt "$T/c" "$T/u"
		run -0 python3 "$ORACLE/tbucket.py" "$T/s" "$T/c"
	done
}

@test "ovb-import | ovb-usage | ovb-profile: a profile from the excerpt" {
	cp "$CSV" "$T/12.csv"
	ovb-import --bitbrains "$T/12.csv" >"$T/s"
	ovb-usage -q -r cpu,net "$T/s" >"$T/u"
	ovb-tbucket -q -r cpu,net "$T/s" >"$T/c"
	run -0 --separate-stderr ovb-profile -O 0.2 -t 300 "$T/u" "$T/c"
	assert_line 'profile vm12 cpu'
	assert_line 'interval 300 s'
	assert_line 'tau 300 s'
	ovb-profile -O 0.2 -t 300 "$T/u" "$T/c" | ovb-fmt
}

# ---------------------------------------------------------------------------
# The real traces.

@test "bitbrains: conversion agrees exactly with the oracle (5 VMs, 3 months)" {
	need_bitbrains
	local files=()
	local m n
	for m in 7 8 9; do
		for n in 1 14 20 25; do
			[[ -f $BB/2013-$m/$n.csv.gz ]] && files+=("$BB/2013-$m/$n.csv.gz")
		done
	done
	files+=("$BB/2013-7/27.csv.gz")
	ovb-import -q --bitbrains "${files[@]}" >"$T/s"
	ovb-fmt "$T/s"
	run -0 python3 "$ORACLE/import.py" "$T/s" "${files[@]}"
	assert_output --partial 'agree: 20 series'
	# vm20 has samples of its own slot, and lines without CPU data
	run -0 --separate-stderr ovb-import -v --bitbrains "$BB/2013-7/20.csv.gz" -o "$T/v"
	stderr_has 'capsule vm20: 7922 samples fell on a slot of 300 s already taken'
	stderr_has '12077 without CPU data'
}

@test "bitbrains: a day of 4 VMs, U and curves agree with the oracle" {
	need_bitbrains
	local files=("$BB"/2013-7/{1,9,22,27}.csv.gz)
	ovb-import -q --bitbrains --from 2013-07-10 --to 2013-07-11 "${files[@]}" >"$T/s"
	run -0 python3 "$ORACLE/import.py" --from 1373414400 --to 1373500800 "$T/s" "${files[@]}"
	ovb-usage -q -r all "$T/s" >"$T/u"
	run -0 python3 "$ORACLE/usage.py" "$T/s" "$T/u"
	ovb-usage -q -r all -I 3600 "$T/s" >"$T/u12"
	run -0 python3 "$ORACLE/usage.py" --len 3600 "$T/s" "$T/u12"
	ovb-tbucket -q -r all "$T/s" >"$T/c"
	run -0 python3 "$ORACLE/tbucket.py" "$T/s" "$T/c"
	assert_output 'agree: 12 blocks'
}

@test "bitbrains-rnd-250: 14 VMs of the fleet (busy ones, late arrivals, months out of order) agree exactly with the oracle" {
	need_bitbrains250
	local files=() m n
	for m in 7 8 9; do
		for n in 1 33 41 48 67 100 128 177 199 200 231 250; do
			files+=("$BB250/2013-$m/$n.csv.gz")
		done
	done
	# one VM's months given backwards, one given twice: rows merged in
	# time, a slot in two files keeps the first file's
	files+=("$BB250/2013-9/12.csv.gz" "$BB250/2013-7/12.csv.gz"
		"$BB250/2013-8/12.csv.gz" "$BB250/2013-8/90.csv.gz"
		"$BB250/2013-8/90.csv.gz")
	ovb-import -q -j 3 --bitbrains "${files[@]}" -o "$T/s"
	ovb-fmt "$T/s"
	run -0 python3 "$ORACLE/import.py" "$T/s" "${files[@]}"
	assert_output --partial 'agree: 56 series'
	ovb-import -q -j 1 --bitbrains "${files[@]}" >"$T/s1"
	cmp "$T/s" "$T/s1"
}

@test "bitbrains-rnd-250: a user's typo among real files: a bad line is 65 at FILE:LINE, a missing month 66, nothing written" {
	need_bitbrains250
	local files=() n
	for n in 2 3 5 8 13 21 34 55 89 144; do
		files+=("$BB250/2013-8/$n.csv.gz")
	done
	mkdir "$T/2013-9"
	# VM 55's September with one number mistyped on line 4321
	gzip -dc "$BB250/2013-9/55.csv.gz" |
		sed -E '4321s/^([0-9]+;[[:blank:]]*[0-9]+;[[:blank:]]*)([0-9])/\1\2,/' |
		gzip >"$T/2013-9/55.csv.gz"
	run -65 --separate-stderr ovb-import --bitbrains "${files[@]}" "$T/2013-9/55.csv.gz" -o "$T/s"
	assert_output ''
	[[ $stderr == "ovb-import: $T/2013-9/55.csv.gz:4321: CPU capacity provisioned [MHZ]: '"*"' is not a finite decimal number" ]] ||
		fail "stderr: $stderr"
	[[ ! -e $T/s ]]
	run -66 --separate-stderr ovb-import --bitbrains "${files[@]}" "$T/2013-9/89.csv.gz" -o "$T/s"
	assert_equal "$stderr" "ovb-import: $T/2013-9/89.csv.gz: cannot open: No such file or directory"
	[[ ! -e $T/s ]]
	run -0 ls -A "$T"
	refute_output --partial '.s.'
}

@test "memory holds the VMs being read, not the fleet: 80 VMs take about what 20 do" {
	# VMs of a month each (8,640 samples): holding them all (as main did
	# before issue 27) takes about 1 MB more per VM, 60 MB more for 80
	# than for 20; read -j 2 at a time (at most 8 ahead of the writer) it
	# is the same few VMs (a few MB more, the allocator's)
	local i
	awk -v h="$(head -1 "$CSV")" 'BEGIN { print h;
		for (k = 0; k < 8640; k++)
			printf "%d;\t4;\t10399.99;\t%.6f;\t1;\t1;\t%d.5;\t0;\t0;\t%.3f;\t%.3f\n",
				1372629750 + 300 * k, (k * 7919) % 10000 / 3.0, k * 13,
				k / 7.0, k / 9.0 }' >"$T/base.csv"
	mkdir "$T/f"
	for i in $(seq 1 80); do
		ln -s "$T/base.csv" "$T/f/$i.csv"
	done
	peak() {
		python3 -c 'import os, resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
assert p.returncode == 0, p
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
	}
	local few many
	few=$(peak ovb-import -q -j 2 --bitbrains "$T"/f/{1..20}.csv -o "$T/s20")
	many=$(peak ovb-import -q -j 2 --bitbrains "$T"/f/*.csv -o "$T/s80")
	echo "peak RSS: 20 VMs $few KB, 80 VMs $many KB"
	((many < few + 15000)) || fail "80 VMs: $many KB, 20 VMs: $few KB"
	run -0 python3 "$ORACLE/import.py" "$T/s20" "$T"/f/{1..20}.csv
}
