#!/usr/bin/env bats
# ovb-tbucket: exact token-bucket curves rho(sigma) (formats/curve.md).
#
# t/oracle/tbucket.py forms the lines dA - sigma dt of ALL pairs of
# breakpoints of the cumulative usage (O(n^2), exact Fractions) and checks
# the curve at random rates, at every breakpoint (its own and the tool's),
# and the breakpoints themselves (from a convex-hull sweep, a different
# algorithm), to a relative 1e-9; t/gen/onoff.py makes the random traces.

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

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# agree ONOFF [RES-LIST]: ovb-tbucket's curves pass ovb-fmt and the oracle.
agree() {
	local res=${2:-all}
	ovb-tbucket -q -r "$res" "$1" >"$T/c" || fail "ovb-tbucket $1 failed"
	ovb-fmt "$T/c" || fail "ovb-fmt rejects the curves of $1"
	run -0 python3 "$ORACLE/tbucket.py" --res "$res" "$1" "$T/c"
	assert_output --partial 'agree'
}

# onoff FILE SPAN RECORDS...: a one-capsule trace "a" on 4 CPUs.
onoff() {
	local f=$1 span=$2
	shift 2
	{
		printf 'ovb-onoff 1\ncpus 4\nspan 0 %s\ncapsule a pid:1\n' "$span"
		printf '%s\n' "$@"
	} >"$f"
}

# ---------------------------------------------------------------------------
# Known curves.

@test "cpu, one busy second of two: (0.5, 0.5) to (1, 0)" {
	onoff "$T/a.onoff" 2000000000 'busy a 0 1000000000 1'
	run -0 --separate-stderr ovb-tbucket -r cpu "$T/a.onoff"
	assert_output "$(cat <<-EOF
	ovb-curve 1
	# curve CAPSULE RES; mean RATE UNIT; peak RATE UNIT;
	# point SIGMA RHO: breakpoints of the least burst rho(sigma) [cpu-s|B] at rate sigma [cpu|B/s]
	curve a cpu
	mean 0.5 cpu
	peak 1 cpu
	point 0.5 0.5
	point 1 0
	EOF
	)"
}

@test "cpu, 2 CPUs then 1: breakpoint where the lines cross, peak = 2 CPUs" {
	onoff "$T/a.onoff" 2000000000 'busy a 0 500000000 2' \
		'busy a 500000000 1000000000 1'
	run -0 --separate-stderr ovb-tbucket -r cpu "$T/a.onoff"
	# lines 1.5 - sigma (the busy second) and 1 - 0.5 sigma (its first half)
	assert_line 'mean 0.75 cpu'
	assert_line 'peak 2 cpu'
	assert_line --index 6 'point 0.75 0.75'
	assert_line --index 7 'point 1 0.5'
	assert_line --index 8 'point 2 0'
}

@test "net: same-instant bytes add up; rho ends at the largest instant" {
	onoff "$T/a.onoff" 10000000000 'send a 0 1000' 'send a 1000000000 1000' \
		'send a 1000000000 5000'
	run -0 --separate-stderr ovb-tbucket -r net "$T/a.onoff"
	# lines 7000 - sigma (both instants, 1 s apart) and 6000 (one instant)
	assert_line 'mean 700 B/s'
	assert_line 'peak 1000 B/s'
	assert_line 'point 700 6300'
	assert_line 'point 1000 6000'
}

@test "gaps: intervals never cross a gap, even one of length 0" {
	onoff "$T/a.onoff" 3000000000 'busy a 0 2000000000 1' \
		'gap 1000000000 1000000000 1'
	run -0 --separate-stderr ovb-tbucket -r cpu "$T/a.onoff"
	# each second alone: 1 - 2/3 at the mean 2/3 (not 2 - 4/3)
	assert_line --index 6 'point 0.6666666666666666 0.3333333333333333'
	assert_line --index 7 'point 1 0'
	# transfers at a gap's ends are lost with it
	onoff "$T/b.onoff" 4000000000 'send a 1000000000 7' \
		'send a 2000000000 9' 'send a 3000000000 11' \
		'gap 2000000000 3000000000 1'
	run -0 --separate-stderr ovb-tbucket -r net "$T/b.onoff"
	assert_line 'mean 2.3333333333333335 B/s'
	assert_line 'point 2.3333333333333335 7'
}

@test "example: agrees with the oracle" {
	agree "$DATA/example.onoff"
}

# ---------------------------------------------------------------------------
# Random traces against the brute force.

@test "random: 900 small traces (3 x 100 capsules, all resources)" {
	for s in 1 2 3; do
		gen --seed "$s" --capsules 100 --cpus $((2 + 3 * s)) --span 1000000 \
			--busy 10 --xfers 12 --gaps 2 --grid 100000 >"$T/r$s.onoff"
		agree "$T/r$s.onoff"
	done
}

@test "random: larger traces, long spans, many gaps" {
	for s in 11 12 13 14; do
		gen --seed "$s" --capsules 6 --cpus 16 --span 100000000000 \
			--busy 60 --xfers 60 --gaps 6 >"$T/l$s.onoff"
		agree "$T/l$s.onoff"
	done
}

@test "many breakpoints: a trace with a concave cumulative usage" {
	python3 - "$T/c.onoff" <<-'EOF'
	import sys
	n, t = 150, 10**9
	busy, send = [], []
	for i in range(n):
	    length = 1000 * (n - i)
	    busy.append("busy a %d %d %d" % (t, t + length, 1 + i % 3))
	    t += length + 1000 + (i * 37) % 500
	    send.append("send a %d %d" % (10**9 + i * i * 1000, 100 * (n - i)))
	with open(sys.argv[1], "w") as f:
	    f.write("ovb-onoff 1\ncpus 4\nspan %d %d\ncapsule a pid:1\n"
	            % (10**9, 10**9 + n * n * 1000 + t))
	    f.write("\n".join(busy + send) + "\n")
	EOF
	agree "$T/c.onoff" cpu,net
	run -0 grep -c '^point' "$T/c"
	[[ $output -gt 100 ]] || fail "only $output points"
}

@test "cpu: peak = most CPUs busy at once, rho(peak) = 0" {
	for s in 41 42 43 44 45; do
		gen --seed "$s" --capsules 5 --cpus 12 --busy 40 --gaps 0 >"$T/p.onoff"
		ovb-tbucket -q -r cpu "$T/p.onoff" >"$T/p.curve"
		run -0 awk '
			/^busy/ { if ($5 > max[$2]) max[$2] = $5 }
			/^curve/ { c = $2 }
			/^peak/ { if ($2 != max[c] + 0) { print c ": peak " $2 " != " max[c] + 0; bad = 1 } }
			/^point/ { last[c] = $3 }
			END { for (c in last) if (last[c] != 0) { print c ": rho(peak) " last[c]; bad = 1 }
			      exit bad }' "$T/p.onoff" "$T/p.curve"
	done
}

# ---------------------------------------------------------------------------
# Output.

@test "output valid, canonical, deterministic; stdin == file; -o == stdout" {
	gen --seed 51 --capsules 8 --cpus 8 --busy 80 --xfers 80 --gaps 3 \
		>"$T/d.onoff"
	ovb-tbucket -q -r all "$T/d.onoff" >"$T/d1"
	ovb-tbucket -q -r all "$T/d.onoff" >"$T/d2"
	ovb-tbucket -q -r all <"$T/d.onoff" >"$T/d3"
	ovb-tbucket -q -r all -o "$T/d4" "$T/d.onoff"
	cmp "$T/d1" "$T/d2"
	cmp "$T/d1" "$T/d3"
	cmp "$T/d1" "$T/d4"
	run -0 --separate-stderr ovb-fmt -l "$T/d1"
	assert_output ''
}

@test "default resources cpu and net; -c and -r select" {
	run -0 --separate-stderr ovb-tbucket "$DATA/example.onoff"
	run -0 grep '^curve' <<<"$output"
	assert_output "$(printf 'curve %s\n' 'web cpu' 'web net' 'db cpu' 'db net')"
	run -0 --separate-stderr ovb-tbucket -c db -r net-rx,cpu "$DATA/example.onoff"
	run -0 grep '^curve' <<<"$output"
	assert_output "$(printf 'curve %s\n' 'db cpu' 'db net-rx')"
}

@test "example.curve: valid, canonical, and the one in formats/curve.md" {
	run -0 --separate-stderr ovb-fmt -l "$DATA/example.curve"
	assert_output ''
	run -0 sed -n '/^## Example/,/^## Errors/s/^    //p' \
		"$BATS_TEST_DIRNAME/../formats/curve.md"
	assert_output "$(cat "$DATA/example.curve")"
}

# ---------------------------------------------------------------------------
# Bad input and options.

@test "a cluster file: 65, the magic error, no output" {
	run -65 --separate-stderr ovb-tbucket "$DATA/example.cluster"
	assert_output ''
	assert_equal "$stderr" "ovb-tbucket: $DATA/example.cluster:1: this is an ovb-cluster file; expected ovb-onoff"
}

@test "a trace that is all gap: 65" {
	onoff "$T/g.onoff" 1000 'busy a 0 10 1' 'gap 0 1000 5'
	run -65 --separate-stderr ovb-tbucket "$T/g.onoff"
	assert_output ''
	assert_equal "$stderr" "ovb-tbucket: $T/g.onoff: capsule a cpu: no gap-free time in the trace"
}

@test "bad options: 64; missing file: 66; -o with bad input: no file" {
	local bad
	for bad in '-r disk' '-r cpu,' '-c bad!name' '-c ,' '--bogus'; do
		# shellcheck disable=SC2086
		run -64 --separate-stderr ovb-tbucket $bad "$DATA/example.onoff"
		assert_output ''
	done
	run -66 --separate-stderr ovb-tbucket "$DATA/example.onoff" "$T/nope"
	assert_output ''
	stderr_has "ovb-tbucket: $T/nope: cannot open"
	run -65 --separate-stderr ovb-tbucket -o "$T/out" "$DATA/example.cluster"
	[[ ! -e $T/out ]]
	run -65 --separate-stderr ovb-tbucket -q -c nosuch "$DATA/example.onoff"
	assert_equal "$stderr" 'ovb-tbucket: capsule nosuch (-c) is in no input'
}
