#!/usr/bin/env bats
# t/0060-limits.bats: the resource limits of formats/README.md ("Resource
# limits").  Each value is read from that table (not from the code), and an
# input just beyond it must be refused before the work starts: 65 (64 for
# an option) with a message naming the input, no output file; an input at
# the limit, where that is cheap, is accepted.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	README=$BATS_TEST_DIRNAME/../formats/README.md
}

# limit TEXT: the value column of the limits table's row starting TEXT.
limit() {
	local v
	v=$(awk -F' \\| ' -v key="| $1" '
		/^## Resource limits/ { on = 1; next }
		/^## / { on = 0 }
		on && index($0, key) == 1 { print $2; exit }' "$README")
	v=${v%% *}
	[[ $v =~ ^[0-9]+$ ]] || fail "no limit '$1' in formats/README.md (got '$v')"
	printf '%s\n' "$v"
}

# refused STATUS WANT TOOL ARGS...: TOOL -o $T/d/out ARGS exits STATUS, its
# stderr starts with "TOOL: WANT", and $T/d stays empty.
refused() {
	local want_st=$1 want=$2 tool=$3
	shift 3
	rm -rf "$T/d"
	mkdir "$T/d"
	run --separate-stderr "$tool" -o "$T/d/out" "$@"
	assert_equal "$status" "$want_st"
	[[ $stderr == "$tool: $want"* ]] || fail "stderr: $stderr (wanted '$tool: $want...')"
	assert_equal "$(ls -A "$T/d")" ""
}

@test "limits: the table names every limit this file tries" {
	local k
	for k in 'line length' 'fields in a record' 'name length' \
		'histogram bins (a usage' 'histogram bins of a measured' \
		'grid points (a plan' 'grid points of the sum' \
		'measurement intervals' 'intervals replayed' 'CPUs of a trace' \
		'CPUs of an rt node'; do
		limit "$k" >/dev/null
	done
}

@test "limits: histogram bins of a usage file (bin K)" {
	local n
	n=$(limit 'histogram bins (a usage')
	printf 'ovb-usage 1\nusage web cpu\ninterval 1 s\nwidth 1 cpu\nintervals 2\nbin 0 1\nbin %s 1\n' \
		$((n - 1)) >"$T/at.usage"
	run -0 ovb-fmt "$T/at.usage"
	printf 'ovb-usage 1\nusage web cpu\ninterval 1 s\nwidth 1 cpu\nintervals 2\nbin 0 1\nbin %s 1\n' \
		"$n" >"$T/over.usage"
	refused 65 "$T/over.usage:7: " ovb-fmt -c "$T/over.usage"
	refused 65 "$T/over.usage:7: " ovb-profile -O 0.01 -t 1 "$T/over.usage" "$DATA/example.curve"
}

@test "limits: histogram bins of a measured U (peak / width)" {
	local n w
	n=$(limit 'histogram bins of a measured')
	# one CPU busy all of one 1 s interval: a peak of exactly 1 cpu
	printf 'ovb-onoff 1\ncpus 1\nspan 0 1000000000\ncapsule web pid:1\nbusy web 0 1000000000 1\n' \
		>"$T/one.onoff"
	w=$(/usr/bin/python3 -c "print(repr(1 / ($n * 1.01)))")
	refused 65 "$T/one.onoff: " ovb-usage -r cpu -w "$w" "$T/one.onoff"
	[[ $stderr == *"-w"* ]] || fail "the message does not say what to change: $stderr"
	w=$(/usr/bin/python3 -c "print(repr(1 / ($n * 0.99)))")
	run -0 ovb-usage -r cpu -w "$w" -o "$T/u" "$T/one.onoff"
}

@test "limits: grid points of a plan and of ovb-place --grid" {
	local n
	n=$(limit 'grid points (a plan')
	printf 'ovb-plan 1\ngrid %s\n' "$n" >"$T/at.plan"
	run -0 ovb-fmt "$T/at.plan"
	printf 'ovb-plan 1\ngrid %s\n' $((n + 1)) >"$T/over.plan"
	refused 65 "$T/over.plan:2: " ovb-fmt -c "$T/over.plan"
	refused 65 "$T/over.plan:2: " ovb-check "$DATA/example.cluster" \
		"$DATA/example.apps" "$T/over.plan" "$DATA/example.profile"
	refused 64 "--grid" ovb-place --grid $((n + 1)) "$DATA/example.cluster" \
		"$DATA/example.apps" "$DATA/example.profile"
}

@test "limits: grid points of the sum Y (ovb-convolve)" {
	local n
	n=$(limit 'grid points of the sum')
	# a usage reaching n+1 cpu on a grid of 1 cpu (-g): n+2 points
	printf 'ovb-usage 1\nusage web cpu\ninterval 1 s\nwidth %s cpu\nintervals 2\nbin 0 1\nbin 1 1\n' \
		$((n + 1)) >"$T/wide.usage"
	refused 64 "$T/wide.usage: " ovb-convolve -r cpu -g 1 --dist "$T/wide.usage"
	# without -g the grid is the widest bin: two points, accepted
	run -0 ovb-convolve -r cpu --dist -o "$T/y" "$T/wide.usage"
}

@test "limits: measurement intervals in an onoff span (ovb-usage)" {
	local n
	n=$(limit 'measurement intervals')
	# 1 s intervals: a span of n+1 of them
	printf 'ovb-onoff 1\ncpus 1\nspan 0 %s\ncapsule web pid:1\nbusy web 0 5 1\n' \
		"$(( (n + 1) * 1000000000 ))" >"$T/long.onoff"
	refused 65 "$T/long.onoff:3: " ovb-usage "$T/long.onoff"
	[[ $stderr == *"-I"* ]] || fail "the message does not say what to change: $stderr"
	# the same span in 10 s intervals is under the limit: no error about it
	printf 'ovb-onoff 1\ncpus 1\nspan 0 %s\ncapsule web pid:1\nbusy web 0 5 1\n' \
		"$(( (n / 1000) * 1000000000 ))" >"$T/ok.onoff"
	run -0 ovb-usage -r cpu -o "$T/u" "$T/ok.onoff"
}

@test "limits: intervals replayed by ovb-trade" {
	local n
	n=$(limit 'intervals replayed')
	# trade-stream.series with its last sample moved n intervals on
	local last i
	i=$(awk '$1 == "interval" { print $2; exit }' "$DATA/trade-stream.series")
	last=$(awk '$1 == "sample" { t = $2 } END { print t }' "$DATA/trade-stream.series")
	awk -v t="$((last + n * i))" -v last="$last" '
		$1 == "sample" && $2 == last && !done { $2 = t; done = 1 } { print }' \
		"$DATA/trade-stream.series" >"$T/far.series"
	refused 65 "$T/far.series:" ovb-trade -r net "$T/far.series" \
		"$DATA/trade-stream.cluster" "$DATA/trade-stream.apps"
}

@test "limits: CPUs of a trace (onoff cpus, perf.data NRCPUS)" {
	local n
	n=$(limit 'CPUs of a trace')
	printf 'ovb-onoff 1\ncpus %s\nspan 0 2000000000\n' $((n + 1)) >"$T/cpus.onoff"
	refused 65 "$T/cpus.onoff:2: " ovb-fmt -c "$T/cpus.onoff"
	refused 65 "$T/cpus.onoff:2: " ovb-usage "$T/cpus.onoff"
	# pipe mode: a HEADER_FEATURE record (type 80) for NRCPUS (feature 7)
	# with n+1 CPUs available and online, then nothing
	/usr/bin/python3 -c "
import struct, sys
n = $n + 1
sys.stdout.buffer.write(b'PERFILE2' + struct.pack('<Q', 16)
    + struct.pack('<IHH', 80, 0, 24) + struct.pack('<QII', 7, n, n))" >"$T/cpus.pipe"
	refused 65 "$T/cpus.pipe: " ovb-onoff -c 'w=comm:x' "$T/cpus.pipe"
	[[ $stderr == *"$((n + 1))"* ]] || fail "the message does not give the count: $stderr"
}

@test "limits: CPUs of an rt node" {
	local n
	n=$(limit 'CPUs of an rt node')
	printf 'ovb-rt 1\nnode n1 %s 0.9\ntask n1 a 1 0.5\n' "$n" >"$T/at.rt"
	run -0 ovb-fmt "$T/at.rt"
	printf 'ovb-rt 1\nnode n1 %s 0.9\ntask n1 a 1 0.5\n' $((n + 1)) >"$T/over.rt"
	refused 65 "$T/over.rt:2: " ovb-rt "$T/over.rt"
}

@test "limits: line length, fields and names" {
	local n
	n=$(limit 'line length')
	{ echo 'ovb-cluster 1'; printf '#%*s\n' $((n - 1)) '' | tr ' ' x; echo 'node a 1 cpu 1 B/s'; } >"$T/long.cluster"
	refused 65 "$T/long.cluster:2: " ovb-place "$T/long.cluster" "$DATA/example.apps" "$DATA/example.profile"
	{ echo 'ovb-cluster 1'; printf '#%*s\n' $((n - 2)) '' | tr ' ' x; echo 'node a 1 cpu 1 B/s'; } >"$T/ok.cluster"
	run -0 ovb-fmt "$T/ok.cluster"
	n=$(limit 'fields in a record')
	{ echo 'ovb-cluster 1'; printf 'node a 1 cpu 1 B/s'; for ((i = 7; i <= n; i++)); do printf ' k%d=v' $i; done; echo; } >"$T/at.cluster"
	run -0 ovb-fmt "$T/at.cluster"
	sed -i '2s/$/ one=more/' "$T/at.cluster"
	refused 65 "$T/at.cluster:2: " ovb-fmt -c "$T/at.cluster"
	n=$(limit 'name length')
	printf 'ovb-cluster 1\nnode %s 1 cpu 1 B/s\n' "$(printf 'n%.0s' $(seq "$n"))" >"$T/name.cluster"
	run -0 ovb-fmt "$T/name.cluster"
	printf 'ovb-cluster 1\nnode %s 1 cpu 1 B/s\n' "$(printf 'n%.0s' $(seq $((n + 1))))" >"$T/name2.cluster"
	refused 65 "$T/name2.cluster:2: " ovb-fmt -c "$T/name2.cluster"
}
