#!/usr/bin/env bats
# ovb-usage: usage distributions U from On-Off traces (formats/usage.md).
#
# t/oracle/usage.py recomputes U independently (Fractions, integer ns) and
# must agree exactly on intervals, widths, bins and counts, and to 1e-12 on
# means and percentiles; t/gen/onoff.py makes the random traces (seeded:
# multi-CPU busy periods, several transfers per instant, gaps, times on
# interval edges).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
}

gen() {
	python3 "$GEN/onoff.py" "$@"
}

# stderr_has TEXT: $stderr (of run --separate-stderr) contains TEXT.
stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# agree ONOFF OVB-USAGE-OPTIONS... -- ORACLE-OPTIONS...
agree() {
	local f=$1 opts=() oopts=()
	shift
	while [[ $# -gt 0 && $1 != -- ]]; do opts+=("$1"); shift; done
	[[ $# -gt 0 ]] && shift
	oopts=("$@")
	ovb-usage -q "${opts[@]}" "$f" >"$T/u" || fail "ovb-usage ${opts[*]} $f failed"
	ovb-fmt "$T/u" || fail "ovb-fmt rejects the output"
	run -0 python3 "$ORACLE/usage.py" "${oopts[@]}" "$f" "$T/u"
	assert_output --partial 'agree'
}

# ---------------------------------------------------------------------------
# Known values.

@test "example: web cpu in [1 s, 2 s) is 0.01035 CPU, in bin 2 of 0.01" {
	run -0 --separate-stderr ovb-usage -r cpu -c web "$DATA/example.onoff"
	assert_line 'usage web cpu'
	assert_line 'interval 1 s'
	assert_line 'width 0.01 cpu'
	assert_line 'intervals 1'
	assert_line 'mean 0.01035 cpu'
	assert_line 'pct 99 0.01035 cpu'
	assert_line 'bin 2 1'
	# the second second overlaps the gap at 2.0 s and is left out
	assert_equal "$stderr" "ovb-usage: $DATA/example.onoff: 1 of 2 measurement intervals of 1 s overlap gaps of lost events and are left out"
}

@test "hand-made: 2 CPUs, interval edges, partial interval, net bytes" {
	cat >"$T/h.onoff" <<-EOF
	ovb-onoff 1
	cpus 4
	span 0 2500000000
	capsule a pid:1
	busy a 500000000 1500000000 2
	send a 999999999 10
	send a 1000000000 20
	send a 1000000000 5
	EOF
	run -0 --separate-stderr ovb-usage -w net=5 "$T/h.onoff"
	# [0,1): 0.5 s x 2 CPUs = 1 cpu; [1,2): the same; [2,2.5) is dropped
	assert_line 'intervals 2'
	assert_line 'mean 1 cpu'
	assert_line 'bin 100 2'
	# net: 10 B in [0,1), 25 B in [1,2) (a transfer at 1 s is in [1,2))
	assert_line 'mean 17.5 B/s'
	assert_line 'pct 50 10 B/s'
	assert_line 'pct 100 25 B/s'
	assert_line 'bin 2 1'
	assert_line 'bin 5 1'
	assert_equal "$stderr" ''
}

@test "example: agrees with the oracle (default, -r all -I 0.5, -I 0.25)" {
	agree "$DATA/example.onoff"
	agree "$DATA/example.onoff" -r all -I 0.5 -- --res all --interval 0.5
	agree "$DATA/example.onoff" -r all -I 0.25 -- --res all --interval 0.25
}

# ---------------------------------------------------------------------------
# Random traces against the oracle.

@test "random traces: 40 seeds, I from 1 ms to 1 s, all resources, exact" {
	local I=(1 0.5 0.25 0.1 0.05 0.013 0.001 0.0075)
	for s in $(seq 1 40); do
		local i=${I[s % ${#I[@]}]}
		local ns
		ns=$(python3 -c "from decimal import Decimal as D; print(int(D('$i') * 10**9))")
		gen --seed "$s" --capsules 4 --cpus $((1 + s % 16)) \
			--span $((ns * (15 + s % 23) + s * 7919)) --grid "$ns" \
			--busy 50 --xfers 50 --gaps $((s % 5)) >"$T/r$s.onoff"
		agree "$T/r$s.onoff" -r all -I "$i" -- --res all --interval "$i"
	done
}

@test "random traces: explicit widths -w W and -w RES=W" {
	for s in 101 102 103; do
		gen --seed "$s" --capsules 3 --cpus 8 --span 3000000000 \
			--grid 100000000 --busy 80 --xfers 80 >"$T/w.onoff"
		agree "$T/w.onoff" -I 0.1 -w 0.05 -w net=1000 -- --interval 0.1 \
			--width cpu=0.05 --width net=1000
		agree "$T/w.onoff" -I 0.1 -r cpu,net-rx -w 0.3 -w net-rx=500 -- \
			--interval 0.1 --res cpu,net-rx --width 0.3 --width net-rx=500
	done
}

@test "-p adds exact percentiles (97.5, 0, 12.5)" {
	gen --seed 7 --capsules 2 --cpus 4 --span 5000000000 --grid 100000000 \
		>"$T/p.onoff"
	agree "$T/p.onoff" -I 0.1 -p 97.5,0 -p 12.5 -- --interval 0.1 \
		--pct 97.5,0,12.5
	run -0 ovb-usage -q -I 0.1 -p 97.5 "$T/p.onoff"
	assert_line --partial 'pct 97.5 '
}

@test "default net width: 1, 2 or 5 times a power of ten, 40 to 100 bins" {
	for s in 11 12 13 14 15; do
		gen --seed "$s" --capsules 3 --span 2000000000 --grid 10000000 \
			--xfers 200 >"$T/n.onoff"
		ovb-usage -q -I 0.01 -r net,net-rx "$T/n.onoff" >"$T/n.usage"
		run -0 awk '
			/^usage/ { if (k) check(); k = 0 }
			/^width/ { w = $2 }
			/^bin/ { k = $2 }
			function check(  m) {
				m = w / 10 ^ int(log(w) / log(10) + 1e-9)
				if (!(m == 1 || m == 2 || m == 5) || k > 100 || k < 40)
					{ print "bad width " w " for " k " bins"; exit 1 }
			}
			END { if (k) check() }' "$T/n.usage"
	done
}

@test "fixtures: agrees with the oracle on the real traces (sort-based percentiles)" {
	local f n=0 on
	for f in nginx postgres redis; do
		on=$BATS_TEST_TMPDIR/$f.onoff
		ovb-onoff --recv -c "srv=comm:^(nginx|postgres|redis)" \
			-c 'rest=comm:.' "$(unpack_fixture "$f")" >"$on"
		agree "$on" -r all -I 0.01 -- --res all --interval 0.01
		agree "$on" -r cpu -I 0.1 -- --res cpu --interval 0.1
		n=$((n + 1))
	done
	[[ $n -eq 3 ]]
}

# ---------------------------------------------------------------------------
# Output.

@test "output is valid and canonical; deterministic; stdin == file" {
	gen --seed 21 --capsules 5 --cpus 8 --span 4000000000 --gaps 3 \
		>"$T/d.onoff"
	ovb-usage -q -r all -I 0.05 "$T/d.onoff" >"$T/d1"
	ovb-usage -q -r all -I 0.05 "$T/d.onoff" >"$T/d2"
	ovb-usage -q -r all -I 0.05 - <"$T/d.onoff" >"$T/d3"
	cmp "$T/d1" "$T/d2"
	cmp "$T/d1" "$T/d3"
	run -0 --separate-stderr ovb-fmt -l "$T/d1"
	assert_output ''
}

@test "-c selects capsules; several files make one file in input order" {
	gen --seed 31 --capsules 3 >"$T/a.onoff"
	sed 's/\bc\([0-9]\)\b/d\1/g' "$T/a.onoff" >"$T/b.onoff"
	run -0 --separate-stderr ovb-usage -q -r cpu "$T/a.onoff" "$T/b.onoff"
	run -0 grep '^usage' <<<"$output"
	assert_output "$(printf 'usage %s cpu\n' c0 c1 c2 d0 d1 d2)"
	run -0 --separate-stderr ovb-usage -q -r cpu -c d1,c2 "$T/a.onoff" "$T/b.onoff"
	run -0 grep '^usage' <<<"$output"
	assert_output "$(printf 'usage %s cpu\n' c2 d1)"
}

@test "-o FILE gets the same bytes as stdout" {
	ovb-usage -q "$DATA/example.onoff" >"$T/stdout"
	run -0 --separate-stderr ovb-usage -q -o "$T/out" "$DATA/example.onoff"
	assert_output ''
	cmp "$T/stdout" "$T/out"
}

# ---------------------------------------------------------------------------
# Bad input and options.

@test "a cluster file: 65, the magic error at line 1, no output" {
	run -65 --separate-stderr ovb-usage "$DATA/example.cluster"
	assert_output ''
	assert_equal "$stderr" "ovb-usage: $DATA/example.cluster:1: this is an ovb-cluster file; expected ovb-onoff"
}

@test "no complete gap-free interval: 65" {
	run -65 --separate-stderr ovb-usage -I 5 "$DATA/example.onoff"
	assert_output ''
	assert_equal "$stderr" "ovb-usage: $DATA/example.onoff: no complete gap-free measurement interval of 5 s in the span [1000000000, 3000000000] ns (0 complete, 0 overlapping gaps)"
	# two complete intervals, both overlapping gaps
	sed 's/^gap .*/gap 1500000000 2500000000 3/' "$DATA/example.onoff" >"$T/g.onoff"
	run -65 --separate-stderr ovb-usage "$T/g.onoff"
	assert_output ''
	assert_equal "$stderr" "ovb-usage: $T/g.onoff: no complete gap-free measurement interval of 1 s in the span [1000000000, 3000000000] ns (2 complete, 2 overlapping gaps)"
}

@test "bad option values: 64" {
	local bad
	for bad in '-I 12abc' '-I 0' '-I 0.0001' '-I -1' '-I nan' '-w 0' \
	    '-w -1' '-w cpu=x' '-w disk=1' '-r disk' '-r cpu,' '-p 101' \
	    '-p x' '-c bad!name' '--bogus'; do
		# shellcheck disable=SC2086
		run -64 --separate-stderr ovb-usage $bad "$DATA/example.onoff"
		assert_output ''
		[[ $stderr == ovb-usage:* ]] || fail "$bad: stderr '$stderr'"
	done
}

@test "missing file: 66, nothing written even with a good file" {
	run -66 --separate-stderr ovb-usage "$DATA/example.onoff" "$T/nope"
	assert_output ''
	stderr_has "ovb-usage: $T/nope: cannot open: No such file or directory"
}

@test "-o with bad input leaves no file and keeps an old one" {
	run -65 --separate-stderr ovb-usage -o "$T/out" "$DATA/example.cluster"
	[[ ! -e $T/out ]]
	echo old >"$T/out"
	run -66 --separate-stderr ovb-usage -o "$T/out" "$DATA/example.onoff" "$T/nope"
	assert_equal "$(cat "$T/out")" old
	run -0 ls -A "$T"
	refute_output --partial '.out.'
}

@test "a capsule read twice, or -c naming none: 65" {
	run -65 --separate-stderr ovb-usage "$DATA/example.onoff" "$DATA/example.onoff"
	assert_output ''
	stderr_has "capsule web was already read from $DATA/example.onoff"
	run -65 --separate-stderr ovb-usage -q -c web,nosuch "$DATA/example.onoff"
	assert_output ''
	assert_equal "$stderr" 'ovb-usage: capsule nosuch (-c) is in no input'
}

@test "too many bins for -w: 65 with advice" {
	run -65 --separate-stderr ovb-usage -q -r cpu -w 1e-9 "$DATA/example.onoff"
	assert_output ''
	stderr_has 'give a larger -w'
}

@test "lost D: the intervals left out for gaps of lost events (t/oracle/usage.py counts them on the random traces); once, an integer" {
	# example.onoff has one gap, in the second of its two 1 s intervals
	run -0 --separate-stderr ovb-usage -r cpu "$DATA/example.onoff"
	assert_line 'lost 1'
	assert_line 'intervals 1'
	printf '%s\n' "$output" >"$T/u"
	run -0 ovb-fmt -l "$T/u"
	variant twice "$T/u" 's/^lost 1$/lost 1\nlost 1/'
	assert_fmt_error "$BAD" "$(( $(line_of '^lost' "$BAD") + 1 ))" "lost is given twice"
	variant frac "$T/u" 's/^lost 1$/lost 1.5/'
	assert_fmt_error "$BAD" "$(line_of '^lost' "$BAD")" "lost D"
	variant huge "$T/u" 's/^lost 1$/lost 9007199254740993/'
	assert_fmt_error "$BAD" "$(line_of '^lost' "$BAD")" "more than 2^53"
}
