#!/usr/bin/env bats
# ovb-onoff: perf.data -> On/Off traces of capsules.  Accuracy is checked
# against the kernel's own accounting: of the shipped fixtures (cpuacct of a
# cgroup holding the server) and of a live recording (wait4 of a process
# tree burning known CPU).

# ovb: serial (records the whole machine with perf: runs alone)
bats_require_minimum_version 1.5.0
load test_helper

# Live loads run on CPU 0, on CPU 1 and on both: on the VMs this project
# runs on, CPU 1's idle task emits no tracepoints, so its switches out of
# idle are missing from every trace (see t/fixtures/README.md), and
# sched:sched_stat_runtime is what closes them.
PIN=
if command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]]; then
	PIN="taskset -c 0"
fi
LOADS=(0)
[[ $(nproc) -ge 2 ]] && LOADS=(0 1 0,1)

teardown() {
	if [[ -n ${NGINX_PID:-} && -f $NGINX_PID ]]; then
		kill "$(cat "$NGINX_PID")" 2>/dev/null || true
	fi
}

# acct_field FILE KEY: the first value of "KEY value" in an .acct file.
acct_field() {
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# within_pct LIMIT: asserts that $rel (a fraction) is within +-LIMIT %.
within_pct() {
	python3 -c "import sys; r=float('$rel'); sys.exit(0 if abs(r)*100 <= $1 else 1)" ||
		fail "relative error $rel is beyond $1%"
}

# The shipped fixtures were recorded with ovb-capture's events, so with
# sched:sched_stat_runtime: ovb-onoff reads them as they are.  The earlier
# recordings of the same servers without it (fixtures/switch-only/, each with
# its .acct) are what a switch-only trace is: refused unless told to accept
# the uncertainty it states.
ANY=--max-uncertainty=any

fixtures() {
	local a
	for a in "$FIXTURES"/*.acct; do
		[[ -f ${a%.acct}.perf.data.gz ]] && basename "$a" .acct
	done
}

@test "onoff: --help, usage errors" {
	run -0 ovb-onoff --help
	assert_output --partial 'EXAMPLES:'
	assert_output --partial 'Exit status:'
	run -64 --separate-stderr ovb-onoff
	[[ $stderr == *"no capsules"* ]]
	run -64 --separate-stderr ovb-onoff -c web
	run -64 --separate-stderr ovb-onoff -c 'web=pid:12abc' x
	run -64 --separate-stderr ovb-onoff -c 'web=comm:(' x
	[[ $stderr == *"bad regular expression"* ]]
	run -64 --separate-stderr ovb-onoff -c a=comm:x -c a=comm:y x
	run -64 --separate-stderr ovb-onoff -c a=cgroup: x
	[[ $stderr == *"is not a cgroup path"* ]]
	run -64 --separate-stderr ovb-onoff -c a=comm:x one two
	run -64 --separate-stderr ovb-onoff --strict=1.5x -c a=comm:x x
	[[ $stderr == *"--strict"* ]]
}

@test "onoff: shipped fixtures exist, each with its kernel accounting" {
	run -0 fixtures
	assert_line nginx
	assert_line postgres
	assert_line redis
}

@test "onoff: every fixture's busy CPU time is within 1.5% of cpuacct" {
	local f n=0
	for f in $(fixtures); do
		local data main out
		data=$(unpack_fixture "$f")
		main=$(acct_field "$FIXTURES/$f.acct" main_pid)
		out=$BATS_TEST_TMPDIR/$f.onoff
		ovb-onoff -q -c "srv=pid:$main" "$data" >"$out"
		run -0 python3 "$BATS_TEST_DIRNAME/oracle/acct.py" \
			"$FIXTURES/$f.acct" "$out" srv
		echo "# $f: $output" >&3
		rel=${output##* }
		within_pct 1.5
		n=$((n + 1))
	done
	[[ $n -ge 3 ]]
}

@test "onoff: several capsules in one pass match separate passes" {
	local data main
	data=$(unpack_fixture nginx)
	main=$(acct_field "$FIXTURES/nginx.acct" main_pid)
	ovb-onoff -q -c "srv=pid:$main" "$data" >"$BATS_TEST_TMPDIR/one"
	ovb-onoff -q --allow-empty -c "srv=pid:$main" -c 'rest=comm:.' -c 'none=comm:^$' \
		"$data" >"$BATS_TEST_TMPDIR/all"
	run -0 ovb-fmt "$BATS_TEST_TMPDIR/all"
	diff <(grep '^busy srv ' "$BATS_TEST_TMPDIR/one") \
		<(grep '^busy srv ' "$BATS_TEST_TMPDIR/all")
	grep -q '^busy rest ' "$BATS_TEST_TMPDIR/all"
	! grep -q '^busy none ' "$BATS_TEST_TMPDIR/all"
}

@test "onoff: output is valid ovb-onoff, deterministic, and -o is atomic" {
	local f data
	for f in $(fixtures); do
		data=$(unpack_fixture "$f")
		run -0 --separate-stderr ovb-onoff --recv -c "x=comm:^$f" \
			-c 'rest=comm:.' -o "$BATS_TEST_TMPDIR/a" "$data"
		run -0 ovb-fmt "$BATS_TEST_TMPDIR/a"
		ovb-onoff -q --recv -c "x=comm:^$f" -c 'rest=comm:.' "$data" |
			cmp - "$BATS_TEST_TMPDIR/a"
	done
}

@test "onoff: a capsule's CPUs never exceed the trace's CPUs, and concurrency shows" {
	local data
	data=$(unpack_fixture postgres)
	ovb-onoff -q -c 'all=comm:.' "$data" >"$BATS_TEST_TMPDIR/o"
	local cpus
	cpus=$(awk '$1 == "cpus" { print $2 }' "$BATS_TEST_TMPDIR/o")
	run -0 awk -v c="$cpus" '$1 == "busy" && $5 > m { m = $5 } END { print m }' \
		"$BATS_TEST_TMPDIR/o"
	[[ $output -le $cpus ]]
	[[ $cpus -lt 2 || $output -ge 2 ]]
}

# is_charges [DATA]: the burner's (pid:$pid) busy time in
# $BATS_TEST_TMPDIR/t.onoff is the sum of its sched_stat_runtime charges in
# DATA (default t.data), to the ns, as the independent decoder reads them
# (t/oracle/charges.py; issue 30).  Unless ovb-onoff -v (t.err) counts
# runs whose switch in the trace misses: perf, woken to empty its
# buffers, can drop a run's switch in and every charge of it (seen in a
# CI run: a run of 0.93 ms on CPU 1, between the CPU going idle and the
# run's switch out, had neither).  charges.py counts no such run (it has
# neither a charge nor a start); ovb-onoff estimates its start and states
# the span it may be off by.  Then busy is at least the charges and at
# most the charges plus that bound.  A trace that disagrees is kept, with
# its ovb-onoff output, by keep_tmpdir.
is_charges() {
	local dir=$BATS_TEST_TMPDIR got want n u
	got=$(awk '$1 == "busy" { s += ($4 - $3) * $5 } END { printf "%d", s }' "$dir/t.onoff")
	want=$(python3 "$BATS_TEST_DIRNAME/oracle/charges.py" "${1:-$dir/t.data}" "burn=pid:$pid" |
		awk '$1 == "burn" { print $2 }')
	read -r _ u < <(bound_of "$(cat "$dir/t.err")")
	n=$(sed -nE 's/.*capsule burn: busy .*: ([0-9]+) runs whose switch in the trace misses.*/\1/p' "$dir/t.err")
	[[ -n $u && -n $n ]] || fail "ovb-onoff -v stated no bound for burn: $(cat "$dir/t.err")"
	[[ -n $want ]] || fail "charges.py found no charges of pid $pid"
	if ((n == 0)); then
		[[ $got == "$want" ]] ||
			fail "busy $got ns, the charges $want ns (pid $pid; kept in $(keep_tmpdir is_charges))"
	else
		# the bound is printed to the us: half a us more
		u=$(awk -v u="$u" 'BEGIN { printf "%d", u * 1e9 + 500 }')
		echo "# $n runs whose switch in the trace misses: busy $got ns, the charges $want ns, bound $u ns" >&3
		((got >= want && got <= want + u)) ||
			fail "busy $got ns, the charges $want ns, $n runs whose switch in misses within $u ns (pid $pid; kept in $(keep_tmpdir is_charges))"
	fi
}

# burn3_rec: burn.py's 3 workers for 0.5 s ($PIN: on CPU 0), by
# ovb-capture, into $BATS_TEST_TMPDIR/t.data; sets pid and k (wait4).
burn3_rec() {
	local dir=$BATS_TEST_TMPDIR
	ovb-capture -q -o "$dir/t.data" -- $PIN \
		python3 "$BATS_TEST_DIRNAME/live/burn.py" 0.5 3 >"$dir/burn.out"
	pid=$(awk '$1 == "pid" { print $2 }' "$dir/burn.out")
	k=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/burn.out")
	[[ -n $pid && $k -gt 0 ]]
}

burn_check() {
	burn_accepted burn3_rec
	echo "# live: trace vs kernel $rel" >&3
	within_pct 1.5
	bound_holds "$(cat "$BATS_TEST_TMPDIR/t.err")" burn "$k"
	is_charges
}

@test "onoff: live recording: busy time within 1.5% of the kernel's accounting" {
	require_tracing
	burn_check
}

@test "onoff: live recording in pipe mode (perf record -o -) reads the same way" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR pid k try st
	for try in 1 2 3; do
		# burn.py prints the pid and the accounting; perf's stream goes to a file
		perf record -q -a -k CLOCK_MONOTONIC -e sched:sched_switch \
			-e sched:sched_stat_runtime -o - -- \
			sh -c "$PIN python3 '$BATS_TEST_DIRNAME/live/burn.py' 0.5 3 >'$dir/burn.out'" \
			>"$dir/t.pipe" 2>/dev/null
		head -c 16 "$dir/t.pipe" | od -An -tx1 | grep -q '10 00 00 00 00 00 00 00'
		pid=$(awk '$1 == "pid" { print $2 }' "$dir/burn.out")
		k=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/burn.out")
		st=0
		ovb-onoff -v -c "burn=pid:$pid" - <"$dir/t.pipe" >"$dir/t.onoff" \
			2>"$dir/t.err" || st=$?
		((st != 0)) || break
		refused_honestly
		((try < 3)) || fail "ovb-onoff refused 3 recordings in a row"
	done
	run -0 awk -v k="$k" '$1 == "busy" { s += ($4 - $3) * $5 }
		END { printf "%.6f\n", (s - k) / k }' "$dir/t.onoff"
	rel=$output
	echo "# live pipe: trace vs kernel $rel" >&3
	within_pct 1.5
	bound_holds "$(cat "$dir/t.err")" burn "$k"
	is_charges "$dir/t.pipe"
}

# perf bench sched pipe on one CPU: two tasks of one capsule waking each
# other 40000 times, each woken run charged from before its switch in
# while the other was still on the CPU (issue 30: the woken run's time
# was dropped, -3.1 % against wait4 and the charges).
@test "onoff: live: perf bench sched pipe pinned to CPU 0, by ovb-capture: busy time is the sum of the charges and within 1.5% of wait4" {
	require_tracing
	command -v perf >/dev/null || skip "perf is not installed"
	local dir=$BATS_TEST_TMPDIR
	ovb-capture -q -o "$dir/p.data" -- python3 \
		"$BATS_TEST_DIRNAME/live/wait4.py" "$dir/p.acct" \
		taskset -c 0 perf bench sched pipe -l 20000 >/dev/null
	local p k got want
	p=$(awk '$1 == "pid" { print $2 }' "$dir/p.acct")
	k=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/p.acct")
	ovb-onoff -v --no-net -c "b=pid:$p" "$dir/p.data" >"$dir/p.onoff" \
		2>"$dir/p.err"
	got=$(awk '$1 == "busy" { s += ($4 - $3) * $5 } END { printf "%d", s }' \
		"$dir/p.onoff")
	want=$(python3 "$BATS_TEST_DIRNAME/oracle/charges.py" "$dir/p.data" \
		"b=pid:$p" | awk '$1 == "b" { print $2 }')
	# charges overlapped where the CPU had no idle time left before the
	# trace's end are said by -v ("N not placed"), never counted silently
	local unplaced
	unplaced=$(sed -n 's/.* \([0-9][0-9]*\) not placed.*/\1/p' "$dir/p.err")
	[[ -n $unplaced ]] || fail "-v said nothing of charges not placed"
	rel=$(awk -v s="$got" -v k="$k" 'BEGIN { printf "%.6f", (s - k) / k }')
	echo "# pipe: busy $got ns, charges $want ns ($unplaced not placed), wait4 $k ns ($rel)" >&3
	[[ $got == "$want" ]] ||
		(( got < want && want - got <= unplaced )) ||
		fail "busy $got ns, charges $want ns, $unplaced ns not placed"
	within_pct 1.5
	bound_holds "$(cat "$dir/p.err")" b "$k"
}

# Issue 26 item 1 (the measurement): a CPU-bound worker pinned to CPU 0
# beside one or two burners there waits on the run queue most of the time;
# ovb-onoff says how long its tasks waited while runnable: after a
# preemption (switched out with prev_state R until switched in again) and
# after a wake-up (sched:sched_wakeup until switched in), and
# warns above 5 % of its busy time.  Checked against the worker's own
# /proc/PID/schedstat (run_delay): the shares within 5 points.
@test "onoff: live: a worker beside 1 and 2 burners on its CPU, spinning or duty-cycled: the runnable wait stated is schedstat's run_delay within 5 points, and warned of" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR n
	# the duty-cycled worker (2 ms on, 3 ms off) waits mostly after
	# wake-ups (sched:sched_wakeup to its switch in)
	for n in 1 2 "1 2:3"; do
		# shellcheck disable=SC2086
		ovb-capture -q -o "$dir/c.data" -- python3 \
			"$BATS_TEST_DIRNAME/live/contend.py" 1 $n >"$dir/c.out"
		local p e d
		p=$(awk '$1 == "pid" { print $2 }' "$dir/c.out")
		e=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/c.out")
		d=$(awk '$1 == "run_delay_ns" { print $2 }' "$dir/c.out")
		run --separate-stderr ovb-onoff $ANY --no-net -c "w=pid:$p" \
			-o "$dir/c.onoff" "$dir/c.data"
		((status == 0)) || fail "ovb-onoff: status $status: $stderr"
		[[ $stderr =~ capsule\ w:\ its\ tasks\ waited\ for\ a\ CPU\ while\ runnable\ ([0-9.]+)\ task-s\ \(([0-9.]+)\ after\ preemptions,\ ([0-9.]+)\ after\ wake-ups\),\ ([0-9.e+]+)\ %\ of\ its\ busy\ time:\ the\ host\ was\ busy ]] ||
			fail "no warning in: $stderr"
		local w=${BASH_REMATCH[1]} b
		b=$(awk '$1 == "busy" { s += ($4 - $3) * $5 } END { print s / 1e9 }' "$dir/c.onoff")
		echo "# $n: waited $w s (${BASH_REMATCH[3]} s after wake-ups) of busy $b s; schedstat run_delay $d ns of $e ns" >&3
		python3 -c "import sys; w=$w; b=$b; d=$d/1e9; e=$e/1e9
ours=w/(w+b); kern=d/(d+e); print('# shares', round(ours*100,2), round(kern*100,2))
sys.exit(0 if abs(ours-kern) <= 0.05 else 1)" >&3 ||
			fail "runnable-wait share off by more than 5 points"
	done
}

# Issue 26 item 1 (demand): the same worker, for 1 s of wall time, alone
# and beside 1 and 2 burners on its CPU.  --demand counts its runnable
# waits as busy: its busy time is then its solo run's within 5 % (the solo
# run's plain busy time where it waited under 5 % of it, else its --demand
# figure: a loaded host delays the solo run too); --strict without
# --demand refuses the trace, naming the capsule and its share.
@test "onoff: live: a worker beside 1 and 2 burners: --demand gives its solo run's busy time within 5 %, --strict refuses naming the capsule and the share" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR n solo=
	for n in 0 1 2; do
		ovb-capture -q -o "$dir/c.data" -- python3 \
			"$BATS_TEST_DIRNAME/live/contend.py" 1 "$n" >"$dir/c.out"
		local p plain dem share
		p=$(awk '$1 == "pid" { print $2 }' "$dir/c.out")
		run -0 --separate-stderr ovb-onoff $ANY --no-net -c "w=pid:$p" -o "$dir/plain" "$dir/c.data"
		share=$(sed -n 's/.*capsule w: its tasks waited for a CPU while runnable [0-9.]* task-s ([^)]*), \([0-9.e+]*\) % of its busy time.*/\1/p' <<<"$stderr")
		run -0 --separate-stderr ovb-onoff $ANY --demand --no-net -c "w=pid:$p" -o "$dir/dem" "$dir/c.data"
		plain=$(awk '$1 == "busy" { s += ($4 - $3) * $5 } END { print s / 1e9 }' "$dir/plain")
		dem=$(awk '$1 == "busy" { s += ($4 - $3) * $5 } END { print s / 1e9 }' "$dir/dem")
		echo "# $n burner(s): busy $plain s, --demand $dem s, waited ${share:-0} % of busy" >&3
		# no more CPUs than the trace has, and never less than without
		run -0 awk -v n="$(awk '$1 == "cpus" { print $2 }' "$dir/dem")" \
			'$1 == "busy" && $5 > n { bad++ } END { print bad + 0 }' "$dir/dem"
		assert_output 0
		awk -v a="$plain" -v b="$dem" 'BEGIN { exit !(b >= a) }'
		if ((n == 0)); then
			solo=$dem
			if [[ -z $share ]] || awk -v s="$share" 'BEGIN { exit !(s < 5) }'; then
				solo=$plain
			fi
			continue
		fi
		awk -v d="$dem" -v s="$solo" 'BEGIN { exit !(d >= 0.95 * s && d <= 1.05 * s) }' ||
			fail "$n burner(s): --demand $dem s against the solo run's $solo s"
		# --strict without --demand: refused, naming the capsule and its share
		rm -f "$dir/s"
		run -65 --separate-stderr ovb-onoff --strict --no-net -c "w=pid:$p" -o "$dir/s" "$dir/c.data"
		[[ $stderr == *"capsule w: its tasks waited for a CPU while runnable "*" task-s ("*" after preemptions, "*" after wake-ups), "*" % of its busy time: "*"refused under --strict (above 5 %)"* ]] ||
			fail "no refusal naming w: $stderr"
		[[ ! -e $dir/s ]]
		# with --demand, --strict accepts it (the waits are counted)
		run -0 --separate-stderr ovb-onoff $ANY --strict --demand --no-net -c "w=pid:$p" -o "$dir/s" "$dir/c.data"
	done
}

# ---- live: every CPU, every way of recording ----

# burn_rec CPUS SECONDS RECORDER...: runs burn.py (two duty-cycled workers,
# 2 ms on, 3 ms off, pinned to CPUS) under RECORDER (which must take
# "-o FILE -- COMMAND"), into $BATS_TEST_TMPDIR/t.data; sets pid and k (the
# kernel's accounting, wait4).
burn_rec() {
	local cpus=$1 secs=$2 dir=$BATS_TEST_TMPDIR
	shift 2
	"$@" -o "$dir/t.data" -- python3 "$BATS_TEST_DIRNAME/live/burn.py" \
		"$secs" 2 2:3 "$cpus" >"$dir/burn.out" 2>"$dir/rec.err" ||
		{ cat "$dir/rec.err"; return 1; }
	pid=$(awk '$1 == "pid" { print $2 }' "$dir/burn.out")
	k=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/burn.out")
	[[ -n $pid && $k -gt 0 ]]
}

# busy_rel [OVB-ONOFF OPTIONS]: the relative error of the burner's busy
# time in $BATS_TEST_TMPDIR/t.data against k; sets rel; -v's words in
# $BATS_TEST_TMPDIR/t.err (bound_holds); returns ovb-onoff's status.
busy_rel() {
	local dir=$BATS_TEST_TMPDIR st=0
	ovb-onoff -v "$@" -c "burn=pid:$pid" "$dir/t.data" >"$dir/t.onoff" \
		2>"$dir/t.err" || st=$?
	rel=$(awk -v k="$k" '$1 == "busy" { s += ($4 - $3) * $5 }
		END { printf "%.6f\n", (s - k) / k }' "$dir/t.onoff")
	return "$st"
}

# refused_honestly: ovb-onoff (its -v words in $BATS_TEST_TMPDIR/t.err)
# refused the trace as uncertain beyond 1.5 %, wrote nothing, and the bound
# it stated holds the kernel's figure k.  On a loaded host perf drops
# switches and charges (a CI run under ASan: the -c 1 recording); the
# refusal is then ovb-onoff's right answer, and the caller records again.
# Any other failure fails the test, with ovb-onoff's words.
refused_honestly() {
	local dir=$BATS_TEST_TMPDIR
	grep -q 'refused: busy time uncertain by more than 1.5 %' "$dir/t.err" ||
		fail "ovb-onoff failed: $(cat "$dir/t.err")"
	[[ ! -s $dir/t.onoff ]] || fail "refused, yet wrote to stdout"
	bound_holds "$(cat "$dir/t.err")" burn "$k"
	echo "# refused, recorded again: $(sed -nE 's/.*capsule burn: (busy [^:]*):.*/\1/p' "$dir/t.err")" >&3
}

# burn_accepted RECORD...: RECORD (burn_rec CPUS SECONDS RECORDER...,
# or burn3_rec: records $BATS_TEST_TMPDIR/t.data, sets pid and k), then
# busy_rel (at most 1.5 % uncertain), until ovb-onoff accepts a
# recording, each refusal checked by refused_honestly; three refused in a
# row fail.
burn_accepted() {
	local try
	for try in 1 2 3; do
		"$@"
		busy_rel --max-uncertainty=1.5 && return 0
		refused_honestly
	done
	fail "ovb-onoff refused 3 recordings in a row"
}

@test "onoff: live: loads on CPU 0, CPU 1 and both, by ovb-capture: within 1.5% of wait4, the sum of the charges" {
	require_tracing
	local c
	for c in "${LOADS[@]}"; do
		burn_accepted burn_rec "$c" 1 ovb-capture -q
		echo "# ovb-capture, load on CPU $c: trace vs kernel $rel" >&3
		within_pct 1.5
		bound_holds "$(cat "$BATS_TEST_TMPDIR/t.err")" burn "$k"
		is_charges
	done
}

@test "onoff: live: loads on CPU 0, CPU 1 and both, by plain perf record -a: within 1.5% of wait4, the sum of the charges, within -v's bound" {
	require_tracing
	local c
	for c in "${LOADS[@]}"; do
		burn_accepted burn_rec "$c" 1 perf record -q -a -k CLOCK_MONOTONIC \
			-e sched:sched_switch -e sched:sched_stat_runtime
		echo "# perf record -a, load on CPU $c: trace vs kernel $rel" >&3
		within_pct 1.5
		# perf's own small buffers: it drops charges (runs the trace
		# has no charge of count from their switches, and -v's bound
		# counts where their charges may have begun); until issue 26
		# item 6 busy was 20-27 us above wait4 with a bound of 0 in 6 of
		# 40 such recordings under load
		bound_holds "$(cat "$BATS_TEST_TMPDIR/t.err")" burn "$k"
		is_charges
	done
}

# bound_of STDERR: the busy time and the bound ovb-onoff stated for the
# capsule burn (cpu-s), as "BUSY UNSURE".
bound_of() {
	sed -nE 's/^ovb-onoff: .*: capsule burn: busy ([0-9.]+) cpu-s, uncertain by at most ([0-9.]+) cpu-s.*/\1 \2/p' <<<"$1"
}

@test "onoff: live: sched_switch alone: refused above 1.5% naming sched_stat_runtime; the stated bound holds the kernel's figure; within 1.5% when accepted" {
	require_tracing
	local c dir=$BATS_TEST_TMPDIR busy unsure
	for c in "${LOADS[@]}"; do
		burn_rec "$c" 1 perf record -q -a -k CLOCK_MONOTONIC \
			-e sched:sched_switch
		rm -f "$dir/o"
		run --separate-stderr ovb-onoff -v -c "burn=pid:$pid" -o "$dir/o" \
			"$dir/t.data"
		read -r busy unsure < <(bound_of "$stderr")
		[[ -n $unsure ]] || fail "no bound in: $stderr"
		echo "# sched_switch only, load on CPU $c: busy $busy cpu-s, bound $unsure, kernel $k ns: status $status" >&3
		# the bound is honest: the kernel's figure lies within it (a
		# woken task is charged from before its switch in, and on CPU 1
		# the switches in are missing; neither is in this trace)
		python3 -c "import sys; b,u,k=$busy,$unsure,$k/1e9; sys.exit(0 if abs(b-k) <= u + 2e-6 else 1)" ||
			fail "busy $busy, kernel $k: beyond the bound $unsure"
		if [[ $status == 0 ]]; then
			# accepted: the bound is within 1.5 %, so is the error
			busy_rel
			within_pct 1.5
		else
			[[ $status == 65 ]] || fail "status $status"
			[[ $stderr == *"record -e sched:sched_stat_runtime too, as ovb-capture does"* ]]
			[[ $stderr == *"refused: busy time uncertain by more than 1.5 %"* ]]
			[[ ! -e $dir/o ]]
			# accepted on request, with the same number and a warning
			run -0 --separate-stderr ovb-onoff --max-uncertainty=any \
				-c "burn=pid:$pid" "$dir/t.data"
			[[ $stderr == *"sched:sched_stat_runtime"* ]]
			[[ $(bound_of "$stderr") == "$busy $unsure" ]]
		fi
	done
}

# refused WORDS...: ovb-onoff on $BATS_TEST_TMPDIR/t.data exits 65, writes
# nothing, and its message has every WORD.
refused() {
	run -65 --separate-stderr ovb-onoff -c a=comm:. "$BATS_TEST_TMPDIR/t.data"
	assert_equal "$output" ""
	local w
	for w in "$@"; do
		[[ $stderr == *"$w"* ]] || fail "'$w' not in: $stderr"
	done
	echo "# ${stderr#ovb-onoff: *: }" >&3
}

@test "onoff: live: per-task recordings (-p PID, no -a) are refused, naming -a" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR
	perf record -q -k CLOCK_MONOTONIC -e sched:sched_switch -o "$dir/t.data" \
		-- python3 "$BATS_TEST_DIRNAME/live/burn.py" 0.3 1 2:3 >/dev/null 2>&1
	refused "recorded per task" "-a"
	python3 "$BATS_TEST_DIRNAME/live/burn.py" 1.5 1 2:3 >/dev/null &
	local bg=$!
	sleep 0.2
	perf record -q -k CLOCK_MONOTONIC -e sched:sched_switch -p "$bg" \
		-o "$dir/t.data" -- sleep 0.5 >/dev/null 2>&1
	wait "$bg"
	refused "recorded per task" "-p PID" "-a"
}

@test "onoff: live: -C: a subset of the CPUs is refused, every CPU is right" {
	require_tracing
	[[ $(nproc) -ge 2 ]] || skip "one CPU"
	burn_rec 1 0.5 perf record -q -C 0 -k CLOCK_MONOTONIC -e sched:sched_switch \
		-e sched:sched_stat_runtime
	refused "recorded on 1 of the $(nproc) CPUs" "-C"
	burn_accepted burn_rec 0,1 1 perf record -q -C "0-$(($(nproc) - 1))" -k CLOCK_MONOTONIC \
		-e sched:sched_switch -e sched:sched_stat_runtime
	echo "# -C every CPU: trace vs kernel $rel" >&3
	within_pct 1.5
	bound_holds "$(cat "$BATS_TEST_TMPDIR/t.err")" burn "$k"
	is_charges
}

@test "onoff: live: sampled (-F, -c N) or filtered tracepoints are refused, -c 1 is right" {
	require_tracing
	burn_rec 0 0.3 perf record -q -a -F 10 -k CLOCK_MONOTONIC -e sched:sched_switch
	refused "sampled at 10 Hz" "-F"
	burn_rec 0 0.3 perf record -q -a -c 3 -k CLOCK_MONOTONIC -e sched:sched_switch
	refused "once every 3 events" "-c"
	burn_rec 0 0.3 perf record -q -a -k CLOCK_MONOTONIC -e sched:sched_switch \
		--filter 'prev_pid != 0'
	refused "sched:sched_switch was recorded with --filter" "without --filter"
	burn_accepted burn_rec "${LOADS[-1]}" 1 perf record -q -a -c 1 -k CLOCK_MONOTONIC \
		-e sched:sched_switch -e sched:sched_stat_runtime
	echo "# -c 1: trace vs kernel $rel" >&3
	within_pct 1.5
	bound_holds "$(cat "$BATS_TEST_TMPDIR/t.err")" burn "$k"
	is_charges
}

@test "onoff: live: lost events (perf record -m 1) are counted once, as perf counts them" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR lost=0 ours try
	# until perf loses some (up to 10 recordings): 8 burners switching
	# every 20 us, with their wake-ups too (switches and charges alone:
	# no loss in 7 of 10 recordings on 2 CPUs; with wake-ups, a loss in
	# each of 8)
	for try in 1 2 3 4 5 6 7 8 9 10; do
		perf record -q -a -m 1 -k CLOCK_MONOTONIC -e sched:sched_switch \
			-e sched:sched_stat_runtime -e sched:sched_wakeup \
			-o "$dir/t.data" -- python3 "$BATS_TEST_DIRNAME/live/burn.py" \
			1 8 0.02:0.02 >/dev/null 2>&1
		lost=$(perf_lost "$dir/t.data")
		ovb-onoff $ANY -q -c a=comm:. "$dir/t.data" >"$dir/t.onoff"
		ours=$(awk '$1 == "gap" { s += $4 } END { print s + 0 }' "$dir/t.onoff")
		echo "# lost: ovb-onoff $ours, perf report --stats $lost" >&3
		assert_equal "$ours" "$lost"
		((lost == 0)) || return 0
	done
	fail "perf lost nothing with -m 1 in 10 recordings: the case is not checked"
}

# tx_rec RECORDER...: an 8.4 MB TCP transfer over loopback (t/live/tx.py)
# under RECORDER (which takes "-o FILE -- COMMAND") into
# $BATS_TEST_TMPDIR/t.data; sets rcv (the receiver's pid), snd (the
# sender's), sent (what the sender's sendall sent), wire (the data bytes
# the kernel put on the wire for it, retransmissions included: its
# tcpi_bytes_sent; -1 where the kernel has none) and retrans (of them
# retransmitted).
tx_rec() {
	local dir=$BATS_TEST_TMPDIR
	"$@" -o "$dir/t.data" -- python3 "$BATS_TEST_DIRNAME/live/tx.py" 8400000 \
		>"$dir/tx.out" 2>"$dir/rec.err" || { cat "$dir/rec.err"; return 1; }
	rcv=$(awk '$1 == "pid" { print $2 }' "$dir/tx.out")
	snd=$(awk '$1 == "sender" { print $2 }' "$dir/tx.out")
	sent=$(awk '$1 == "sent" { print $2 }' "$dir/tx.out")
	wire=$(awk '$1 == "wire" { print $2 }' "$dir/tx.out")
	retrans=$(awk '$1 == "retrans" { print $2 }' "$dir/tx.out")
	[[ -n $rcv && -n $snd && $sent -gt 0 && -n $wire && -n $retrans ]]
}

# sent_by CAPSULE: the bytes $BATS_TEST_TMPDIR/t.onoff credits it.
sent_by() {
	awk -v c="$1" '$1 == "send" && $2 == c { s += $4 } END { print s + 0 }' \
		"$BATS_TEST_TMPDIR/t.onoff"
}

@test "onoff: live: --net=devq: bytes sent in softirq context go to the socket's owner (8.4 MB over loopback: credited or reported, beyond the data the kernel put on the wire, retransmissions included, by at most the headers of the frames)" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no net:net_dev_queue"
	[[ -r /sys/kernel/tracing/events/tcp/tcp_probe/format ]] ||
		skip "no tcp:tcp_probe"
	local dir=$BATS_TEST_TMPDIR irq=0 arrived uncredited s r try frames excess
	# every recording is checked; the softirq path is what this is
	# about, so it records again (up to 5 times) until a good part of
	# the bytes went that way, and says so when none did
	for try in 1 2 3 4 5; do
		tx_rec ovb-capture -q --net=devq
		# the sender first: the receiver's selector (pid:) holds it
		# too; over the loopback: counted only when chosen (--iface lo)
		# bytes are the subject: busy time uncertain beyond 1.5 % (perf
		# on a loaded host drops switches; refused by default) is
		# accepted with its warning
		run --separate-stderr ovb-onoff $ANY -v --iface lo -c "snd=pid:$snd" -c "rcv=pid:$rcv" \
			-o "$dir/t.onoff" "$dir/t.data"
		((status == 0)) || fail "ovb-onoff: status $status: $stderr"
		[[ $stderr =~ ([0-9]+)\ bytes\ sent\ in\ irq\ context\ credited\ to\ the\ socket\'s\ owner\ \(([0-9]+)\ named\ by\ the\ loopback\ packet\'s\ arrival\),\ ([0-9]+)\ not\ credited ]] ||
			fail "no irq figures in: $stderr"
		irq=${BASH_REMATCH[1]} arrived=${BASH_REMATCH[2]} uncredited=${BASH_REMATCH[3]}
		s=$(sent_by snd) r=$(sent_by rcv)
		echo "# devq: sender credited $s B of $sent sent ($irq B from softirqs, $arrived B of them named by their arrival), receiver $r B, $uncredited B not credited" >&3
		# every byte credited or reported: the frames carry the data
		# the kernel put on the wire (what it sent, and again what it
		# retransmitted: loopback under load drops and retransmits,
		# 1.56% of 8.4 MB in one run here) plus each frame's headers,
		# at most 134 B a frame (Ethernet 14, IPv4 and TCP at most 60
		# each); a frame no event named carries at least 66 B of
		# headers (Ethernet, IPv4, TCP with timestamps), so the
		# uncredited bytes bound their frames
		((wire >= sent)) || skip "the kernel has no tcpi_bytes_sent"
		frames=$(awk -v c=snd '$1 == "send" && $2 == c { n++ } END { print n + 0 }' \
			"$dir/t.onoff")
		excess=$((s + uncredited - wire))
		echo "# devq: the kernel put $wire B of data on the wire ($retrans B retransmitted); $excess B beyond it in $frames frames credited" >&3
		((excess >= 0))
		((excess <= 134 * (frames + uncredited / 66)))
		# and nearly all credited, to the sender (the softirqs ran in
		# the receiver's context or another task's): what no event
		# names (a segment the receiver's backlog merged) stays reported
		[[ $s -ge $((sent * 97 / 100)) ]]
		# the receiver sent acknowledgements only
		[[ $r -le $((sent / 100)) ]]
		((irq < sent / 5)) || return 0
	done
	echo "# devq: in 5 recordings at most $irq B went through softirqs (< 1/5 of $sent B): the softirq path was exercised lightly" >&3
}

@test "onoff: --net=devq fixture: a closing loopback sender's bytes sent from softirqs in its receiver's context are the sender's, checked against perf script" {
	# t/fixtures/lo-devq: 2 MiB from ovbsend to ovbrecv over 127.0.0.1,
	# most of it sent after the sender closed (FIN_WAIT1: no tcp_probe of
	# its own), by softirqs and its pacing timer, in ovbrecv's context;
	# the softirq rules alone gave ovbrecv 0.56 MB and left 1.35 MB
	# uncredited (issue #19)
	command -v perf >/dev/null || skip "perf is not installed (the oracle reads the trace with perf script)"
	local dir=$BATS_TEST_TMPDIR t tot pay short s r nc=0
	t=$(unpack_fixture lo-devq)
	read -r tot pay short < <(python3 "$BATS_TEST_DIRNAME/oracle/lobytes.py" "$t")
	run -0 --separate-stderr ovb-onoff --iface lo -c 'tx=comm:^ovbsend$' \
		-c 'rx=comm:^ovbrecv$' -o "$dir/lo.onoff" "$t"
	if [[ $stderr =~ ([0-9]+)\ bytes\ sent\ in\ interrupt\ context ]]; then
		nc=${BASH_REMATCH[1]}
	fi
	s=$(awk '$1 == "send" && $2 == "tx" { s += $4 } END { print s + 0 }' "$dir/lo.onoff")
	r=$(awk '$1 == "send" && $2 == "rx" { s += $4 } END { print s + 0 }' "$dir/lo.onoff")
	echo "# lo: sender $s B (payload frames $pay B), receiver $r B (short frames $short B), $nc B not credited, of $tot B" >&3
	# every byte on lo credited or reported, once
	assert_equal "$((s + r + nc))" "$tot"
	# the receiver sent no payload: every payload frame is the sender's
	((s >= pay)) || fail "sender $s B < the $pay B of payload frames"
	((r <= short)) || fail "receiver $r B > the $short B of short frames"
}

@test "onoff: live: net_dev_queue alone (no socket events): bytes sent in softirq context are reported, never silently dropped" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no net:net_dev_queue"
	local dir=$BATS_TEST_TMPDIR s uncredited=0
	tx_rec perf record -q -a -k CLOCK_MONOTONIC -e sched:sched_switch \
		-e sched:sched_stat_runtime -e net:net_dev_queue
	run --separate-stderr ovb-onoff $ANY --iface lo -c "snd=pid:$snd" -c "rcv=pid:$rcv" \
		-o "$dir/t.onoff" "$dir/t.data"
	((status == 0)) || fail "ovb-onoff: status $status: $stderr"
	s=$(sent_by snd)
	if [[ $stderr =~ ([0-9]+)\ bytes\ sent\ in\ interrupt\ context ]]; then
		uncredited=${BASH_REMATCH[1]}
		[[ $stderr == *"as ovb-capture --net=devq does"* ]]
		[[ $stderr == *"--net=sock"* ]]
		run -65 --separate-stderr ovb-onoff --iface lo --strict -c "snd=pid:$snd" \
			-o "$dir/strict.onoff" "$dir/t.data"
		[[ ! -e $dir/strict.onoff ]]
	fi
	echo "# net_dev_queue alone: $s B credited, $uncredited B in irq context reported, of $sent" >&3
	# every payload byte is accounted for: credited or reported
	[[ $((s + $(sent_by rcv) + uncredited)) -ge $sent ]]
}

# ---- bad input: clear message, status 65, no output file ----

# patch FILE OFFSET HEXBYTES: overwrites bytes of FILE at OFFSET.
patch() {
	printf "$(sed 's/../\\x&/g' <<<"$3")" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# bad_trace FILE WORDS...: ovb-onoff fails with 65 naming FILE and WORDS,
# and -o leaves nothing behind.
bad_trace() {
	local f=$1
	shift
	run -65 --separate-stderr ovb-onoff -c a=comm:. -o "$BATS_TEST_TMPDIR/out.onoff" "$f"
	assert_equal "$output" ""
	[[ $stderr == "ovb-onoff: $f: "* ]] || fail "stderr: $stderr"
	local w
	for w in "$@"; do
		[[ $stderr == *"$w"* ]] || fail "'$w' not in: $stderr"
	done
	[[ ! -e $BATS_TEST_TMPDIR/out.onoff ]]
	[[ -z $(find "$BATS_TEST_TMPDIR" -name '.out.onoff.*') ]]
}

@test "onoff: truncated traces" {
	local data=$(unpack_fixture redis) t=$BATS_TEST_TMPDIR/t.data
	head -c 0 "$data" >"$t"
	bad_trace "$t" "empty file"
	head -c 50 "$data" >"$t"
	bad_trace "$t" truncated
	head -c 5000 "$data" >"$t"
	bad_trace "$t"
	head -c $(( $(stat -c %s "$data") / 2 )) "$data" >"$t"
	bad_trace "$t"
}

@test "onoff: not a perf.data file, other byte order, compression, directory" {
	local data=$(unpack_fixture redis) t=$BATS_TEST_TMPDIR/t.data
	bad_trace "$DATA/example.cluster" "not a perf.data file"
	cp "$data" "$t"
	patch "$t" 0 32454c4946524550   # PERFILE2 byte-swapped
	bad_trace "$t" big-endian
	cp "$data" "$t"
	# feature bit 27 (HEADER_COMPRESSED): byte 72 + 3, bit 3
	local b
	b=$(od -An -tx1 -j75 -N1 "$t" | tr -d ' ')
	patch "$t" 75 "$(printf '%02x' $((0x$b | 0x08)))"
	bad_trace "$t" compression
	mkdir "$BATS_TEST_TMPDIR/dir.data"
	run -65 --separate-stderr ovb-onoff -c a=comm:. "$BATS_TEST_TMPDIR/dir.data"
	[[ $stderr == *"directory-format trace"* ]]
	# garbage after the magic (a header size that is not perf's 104 bytes)
	# is a corrupt header, whatever its would-be feature bits say: here
	# the bit of HEADER_DIR_FORMAT (24: byte 75, bit 0) is set as well
	cp "$data" "$t"
	patch "$t" 8 f1e2d3c4b5a69788
	b=$(od -An -tx1 -j75 -N1 "$t" | tr -d ' ')
	patch "$t" 75 "$(printf '%02x' $((0x$b | 0x01)))"
	bad_trace "$t" "corrupt perf.data header"
	[[ $stderr != *directory* ]] || fail "called a directory trace: $stderr"
}

@test "onoff: missing tracing data, unknown record types, corrupt records" {
	local data=$(unpack_fixture redis) t=$BATS_TEST_TMPDIR/t.data
	local off
	off=$(od -An -tu8 -j40 -N8 "$data" | tr -d ' ')   # data section offset
	cp "$data" "$t"
	# clear feature bit 1 (HEADER_TRACING_DATA) of byte 72; the feature
	# sections shift, so the reader finds no format descriptions
	local b
	b=$(od -An -tx1 -j72 -N1 "$t" | tr -d ' ')
	patch "$t" 72 "$(printf '%02x' $((0x$b & 0xfd)))"
	run -65 --separate-stderr ovb-onoff -c a=comm:. "$t"
	[[ $stderr == "ovb-onoff: $t: "* ]]
	cp "$data" "$t"
	patch "$t" "$off" 32000000             # the first record: type 50
	bad_trace "$t" "unknown record type 50"
	cp "$data" "$t"
	patch "$t" $((off + 6)) 0000           # the first record: size 0
	bad_trace "$t" corrupt
	cp "$data" "$t"
	patch "$t" $((off + 6)) ffff           # runs past the data section?
	run -65 --separate-stderr ovb-onoff -c a=comm:. "$t"
}

@test "onoff: sampled tracepoints are refused from the attributes (fixture patched)" {
	local data=$(unpack_fixture redis) t=$BATS_TEST_TMPDIR/t.data
	local aoff
	aoff=$(od -An -tu8 -j24 -N8 "$data" | tr -d ' ')   # the attributes
	# the first attribute is sched:sched_switch: sample_period at +16
	cp "$data" "$t"
	patch "$t" $((aoff + 16)) 0700000000000000
	bad_trace "$t" "sched:sched_switch" "once every 7 events" "-c"
	# freq (bit 10 of the flags at +40): sample_freq 7 Hz
	local b
	b=$(od -An -tx1 -j$((aoff + 41)) -N1 "$t" | tr -d ' ')
	patch "$t" $((aoff + 41)) "$(printf '%02x' $((0x$b | 0x04)))"
	bad_trace "$t" "sampled at 7 Hz" "-F"
}

@test "onoff: without sched_stat_runtime the bound is never 0 and holds cpuacct's figure; above 1.5% refused (65) naming the fix" {
	local f data main n=0 S=$FIXTURES/switch-only
	for f in nginx postgres redis; do
		data=$BATS_TEST_TMPDIR/$f-switch-only.perf.data
		gzip -dc "$S/$f.perf.data.gz" >"$data"
		main=$(acct_field "$S/$f.acct" main_pid)
		n=$((n + 1))
		# every server run begins with a wakeup the trace does not see
		run -65 --separate-stderr ovb-onoff -c "srv=pid:$main" \
			-o "$BATS_TEST_TMPDIR/o" "$data"
		assert_output ""
		[[ ! -e $BATS_TEST_TMPDIR/o ]]
		[[ $stderr == *"runs of woken tasks"* ]]
		[[ $stderr == *"record -e sched:sched_stat_runtime too, as ovb-capture does"* ]]
		[[ $stderr == *"--max-uncertainty=PCT, or any, accepts it"* ]]
		local busy unsure pct
		read -r busy unsure < <(sed -nE 's/.*capsule srv: busy ([0-9.]+) cpu-s, uncertain by at most ([0-9.]+) cpu-s.*/\1 \2/p' <<<"$stderr")
		pct=$(sed -nE 's/.*cpu-s \(([0-9.e+]+) %\).*/\1/p' <<<"$stderr" | head -1)
		local k
		k=$(acct_field "$S/$f.acct" cpu_ns)
		echo "# $f: busy $busy cpu-s, bound $unsure ($pct %), cpuacct $k ns" >&3
		python3 -c "import sys; sys.exit(0 if $unsure > 0 and abs($busy - $k/1e9) <= $unsure else 1)"
		# a bound above the one stated accepts it, below it refuses
		run -0 --separate-stderr ovb-onoff \
			--max-uncertainty="$(python3 -c "print($pct * 1.01)")" \
			-c "srv=pid:$main" "$data"
		run -65 --separate-stderr ovb-onoff \
			--max-uncertainty="$(python3 -c "print($pct * 0.99)")" \
			-c "srv=pid:$main" "$data"
	done
	# nothing of a refused trace on stdout either: a file of its own is
	# empty, one appended to keeps what it had, a pipe gets nothing (until
	# 2026-11-29 the records before the refusal were written, without
	# their span); accepted, the same bytes through a file, a pipe and -o
	local o=$BATS_TEST_TMPDIR/out
	run -65 sh -c 'ovb-onoff -q -c "$1" "$2" >"$0"' "$o" "srv=pid:$main" "$data"
	[[ -f $o && ! -s $o ]] || fail "stdout file not empty: $(head -c 200 "$o")"
	echo before >"$o"
	run -65 sh -c 'ovb-onoff -q -c "$1" "$2" >>"$0"' "$o" "srv=pid:$main" "$data"
	assert_equal "$(cat "$o")" before
	run -0 --separate-stderr sh -c 'ovb-onoff -q -c "$0" "$1" | wc -c' "srv=pid:$main" "$data"
	assert_output 0
	ovb-onoff $ANY -q -c "srv=pid:$main" "$data" >"$o.a"
	ovb-onoff $ANY -q -c "srv=pid:$main" "$data" | cat >"$o.b"
	ovb-onoff $ANY -q -c "srv=pid:$main" -o "$o.c" "$data"
	[[ -s $o.a ]]
	cmp "$o.a" "$o.b"
	cmp "$o.a" "$o.c"
	# --max-uncertainty=any: a warning; -q silences it
	run -0 --separate-stderr ovb-onoff $ANY -c "srv=pid:$main" "$data"
	[[ $stderr == *"capsule srv: busy "*"sched:sched_stat_runtime"* ]]
	run -0 --separate-stderr ovb-onoff $ANY -q -c "srv=pid:$main" "$data"
	assert_equal "$stderr" ""
	# --strict=PCT is --max-uncertainty=PCT (and fatal network shortfalls)
	run -65 --separate-stderr ovb-onoff --strict -c "srv=pid:$main" "$data"
	run -64 --separate-stderr ovb-onoff --max-uncertainty=x -c a=comm:x x
	[[ $n -eq 3 ]]
	# the shipped fixtures (with sched_stat_runtime) are bounded: accepted
	for f in $(fixtures); do
		main=$(acct_field "$FIXTURES/$f.acct" main_pid)
		run -0 --separate-stderr ovb-onoff -v -c "srv=pid:$main" \
			-o "$BATS_TEST_TMPDIR/o" "$(unpack_fixture "$f")"
		[[ $stderr == *"capsule srv: busy "*"uncertain by at most "* ]]
	done
}

@test "onoff: an empty trace (no samples) is an error" {
	# recorded with a tracepoint that did not fire (t/fixtures/record.sh)
	bad_trace "$(unpack_fixture empty)" "no samples"
}

@test "onoff: the bytes nginx sends are credited to nginx, not to the client" {
	require_tracing
	command -v nginx >/dev/null || skip "nginx is not installed"
	local d=$BATS_TEST_TMPDIR/ng port=$((20000 + RANDOM % 20000)) n=5
	local size=1000000
	mkdir -p "$d/www" "$d/tmp"
	head -c $size /dev/urandom >"$d/www/f.bin"
	cat >"$d/nginx.conf" <<-CONF
	daemon on;
	user root;
	worker_processes 2;
	pid $d/nginx.pid;
	error_log $d/error.log;
	events { worker_connections 64; }
	http {
		access_log off;
		client_body_temp_path $d/tmp; proxy_temp_path $d/tmp;
		fastcgi_temp_path $d/tmp; uwsgi_temp_path $d/tmp;
		scgi_temp_path $d/tmp;
		server { listen 127.0.0.1:$port; root $d/www; }
	}
	CONF
	nginx -p "$d" -c "$d/nginx.conf" -e "$d/error.log" 3>&-
	NGINX_PID=$d/nginx.pid
	local i
	for i in $(seq 50); do
		curl -sf -o /dev/null "http://127.0.0.1:$port/f.bin" && break
		sleep 0.1
	done
	ovb-capture -q --recv -o "$d/t.data" -- sh -c \
		"for i in \$(seq $n); do curl -sf -o /dev/null http://127.0.0.1:$port/f.bin || exit 1; done" ||
		{ cat "$d/error.log"; false; }
	# over the loopback, which is not counted unless chosen
	ovb-onoff --recv --iface lo -c web=comm:^nginx -c client=comm:^curl "$d/t.data" \
		>"$d/t.onoff"
	sum() { awk -v k="$1" -v c="$2" '$1 == k && $2 == c { s += $4 } END { print s + 0 }' "$d/t.onoff"; }
	# the socket layer counts payload: the files plus HTTP response headers,
	# at most 1000 bytes a response; TCP/IP headers are not payload
	local sent=$(sum send web)
	echo "# nginx sent $sent bytes for $n x $size" >&3
	[[ $sent -ge $((n * size)) && $sent -le $((n * (size + 1000))) ]]
	# the client sent its requests only, and received the files
	local csent=$(sum send client) crecv=$(sum recv client)
	[[ $csent -le $((n * 1000)) ]]
	[[ $crecv -ge $((n * size)) ]]
}

@test "onoff: inputs the fuzzer found (libtraceevent crashed or leaked on them): 65, nothing else" {
	# perf-regress-*.data.gz: traces mangled by fuzz/fuzz-perf, with bad
	# format descriptions that libtraceevent 1.7 crashes or leaks on; the
	# reader only hands it descriptions of the kernel's own shape
	local f t n=0
	for f in "$FIXTURES"/perf-regress-*.data.gz; do
		t=$BATS_TEST_TMPDIR/$(basename "$f" .gz)
		gzip -dc "$f" >"$t"
		run -65 --separate-stderr ovb-onoff -c a=comm:. "$t"
		[[ $stderr == "ovb-onoff: $t: "* ]]
		n=$((n + 1))
	done
	[[ $n -ge 4 ]]
}

@test "onoff: a selector that matches no process is an error naming it (a typo is not an empty profile); --allow-empty writes the magic line" {
	data=$(unpack_fixture nginx)
	d=$BATS_TEST_TMPDIR
	run -65 --separate-stderr ovb-onoff -c 'web=comm:^ngnix$' -o "$d/out" "$data"
	assert_output ''
	assert_equal "$stderr" "ovb-onoff: $data: selector web=comm:^ngnix\$ matches no process of the trace (a typo?  --allow-empty accepts it)"
	[[ ! -e $d/out ]]
	# beside a capsule that matches, still an error
	run -65 --separate-stderr ovb-onoff -c 'srv=comm:^nginx$' -c 'web=comm:^ngnix$' "$data"
	run -0 ovb-onoff --allow-empty -c 'web=comm:^ngnix$' -o "$d/out" "$data"
	run -0 ovb-fmt "$d/out"
	[[ $(head -1 "$d/out") == 'ovb-onoff 1' ]]
	# -v names the processes each selector matched
	run -0 --separate-stderr ovb-onoff -v -c 'srv=comm:^nginx$' -c 'rest=comm:.' "$data"
	[[ $stderr == *"capsule srv (comm:^nginx\$): 2 processes: "*"(nginx) "*"(nginx)"* ]] || fail "stderr: $stderr"
}
