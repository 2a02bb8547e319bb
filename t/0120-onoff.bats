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
		ovb-onoff -c "srv=pid:$main" "$data" >"$out"
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
	ovb-onoff -c "srv=pid:$main" "$data" >"$BATS_TEST_TMPDIR/one"
	ovb-onoff --allow-empty -c "srv=pid:$main" -c 'rest=comm:.' -c 'none=comm:^$' \
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
		ovb-onoff --recv -c "x=comm:^$f" -c 'rest=comm:.' "$data" |
			cmp - "$BATS_TEST_TMPDIR/a"
	done
}

@test "onoff: a capsule's CPUs never exceed the trace's CPUs, and concurrency shows" {
	local data
	data=$(unpack_fixture postgres)
	ovb-onoff -c 'all=comm:.' "$data" >"$BATS_TEST_TMPDIR/o"
	local cpus
	cpus=$(awk '$1 == "cpus" { print $2 }' "$BATS_TEST_TMPDIR/o")
	run -0 awk -v c="$cpus" '$1 == "busy" && $5 > m { m = $5 } END { print m }' \
		"$BATS_TEST_TMPDIR/o"
	[[ $output -le $cpus ]]
	[[ $cpus -lt 2 || $output -ge 2 ]]
}

burn_check() {
	local dir=$BATS_TEST_TMPDIR
	ovb-capture -q -o "$dir/t.data" -- $PIN \
		python3 "$BATS_TEST_DIRNAME/live/burn.py" 0.5 3 >"$dir/burn.out"
	local pid k
	pid=$(awk '$1 == "pid" { print $2 }' "$dir/burn.out")
	k=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/burn.out")
	ovb-onoff -c "burn=pid:$pid" "$dir/t.data" >"$dir/t.onoff"
	run -0 awk -v k="$k" '$1 == "busy" { s += ($4 - $3) * $5 }
		END { printf "%.6f\n", (s - k) / k }' "$dir/t.onoff"
	rel=$output
	echo "# live: trace vs kernel $rel" >&3
	within_pct 1.5
}

@test "onoff: live recording: busy time within 1.5% of the kernel's accounting" {
	require_tracing
	burn_check
}

@test "onoff: live recording in pipe mode (perf record -o -) reads the same way" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR
	# burn.py prints the pid and the accounting; perf's stream goes to a file
	perf record -q -a -k CLOCK_MONOTONIC -e sched:sched_switch \
		-e sched:sched_stat_runtime -o - -- \
		sh -c "$PIN python3 '$BATS_TEST_DIRNAME/live/burn.py' 0.5 3 >'$dir/burn.out'" \
		>"$dir/t.pipe" 2>/dev/null
	head -c 16 "$dir/t.pipe" | od -An -tx1 | grep -q '10 00 00 00 00 00 00 00'
	local pid k
	pid=$(awk '$1 == "pid" { print $2 }' "$dir/burn.out")
	k=$(awk '$1 == "cpu_ns" { print $2 }' "$dir/burn.out")
	ovb-onoff -c "burn=pid:$pid" - <"$dir/t.pipe" >"$dir/t.onoff"
	run -0 awk -v k="$k" '$1 == "busy" { s += ($4 - $3) * $5 }
		END { printf "%.6f\n", (s - k) / k }' "$dir/t.onoff"
	rel=$output
	echo "# live pipe: trace vs kernel $rel" >&3
	within_pct 1.5
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
# time in $BATS_TEST_TMPDIR/t.data against k; sets rel.
busy_rel() {
	local dir=$BATS_TEST_TMPDIR
	ovb-onoff "$@" -c "burn=pid:$pid" "$dir/t.data" >"$dir/t.onoff"
	rel=$(awk -v k="$k" '$1 == "busy" { s += ($4 - $3) * $5 }
		END { printf "%.6f\n", (s - k) / k }' "$dir/t.onoff")
}

@test "onoff: live: loads on CPU 0, CPU 1 and both, by ovb-capture: within 1.5% of wait4" {
	require_tracing
	local c
	for c in "${LOADS[@]}"; do
		burn_rec "$c" 1 ovb-capture -q
		busy_rel --strict
		echo "# ovb-capture, load on CPU $c: trace vs kernel $rel" >&3
		within_pct 1.5
	done
}

@test "onoff: live: loads on CPU 0, CPU 1 and both, by plain perf record -a: within 1.5% of wait4" {
	require_tracing
	local c
	for c in "${LOADS[@]}"; do
		burn_rec "$c" 1 perf record -q -a -k CLOCK_MONOTONIC \
			-e sched:sched_switch -e sched:sched_stat_runtime
		busy_rel --strict
		echo "# perf record -a, load on CPU $c: trace vs kernel $rel" >&3
		within_pct 1.5
	done
}

@test "onoff: live: sched_switch alone: the error stays within the stated uncertainty, --strict refuses above 1.5%" {
	require_tracing
	local c dir=$BATS_TEST_TMPDIR
	for c in "${LOADS[@]}"; do
		burn_rec "$c" 1 perf record -q -a -k CLOCK_MONOTONIC \
			-e sched:sched_switch
		run -0 --separate-stderr ovb-onoff -v -c "burn=pid:$pid" "$dir/t.data"
		local line busy unsure
		line=$(grep -E '^ovb-onoff: .*: capsule burn: busy ' <<<"$stderr")
		[[ -n $line ]] || fail "no uncertainty in: $stderr"
		busy=$(sed -E 's/.* busy ([0-9.]+) cpu-s.*/\1/' <<<"$line")
		unsure=$(sed -E 's/.* at most ([0-9.]+) cpu-s.*/\1/' <<<"$line")
		echo "# sched_switch only, load on CPU $c: busy $busy unsure $unsure kernel $k" >&3
		# the kernel's figure lies within the bound, plus 3% for what no
		# sched_switch trace sees: the kernel charges a woken task from
		# its wakeup, not its switch in, and on this shared machine the
		# woken burner waits for other engineers' tasks (measured up to
		# -1.6% with no switch missing; t/fixtures/README.md)
		python3 -c "import sys; b,u,k=$busy,$unsure,$k/1e9; sys.exit(0 if abs(b-k) <= u + 0.03*k else 1)" ||
			fail "busy $busy, kernel $k: beyond the bound $unsure"
		rm -f "$dir/strict.onoff"
		run --separate-stderr ovb-onoff --strict -c "burn=pid:$pid" \
			-o "$dir/strict.onoff" "$dir/t.data"
		if [[ $status == 0 ]]; then
			busy_rel
			within_pct 3
		else
			[[ $status == 65 ]] || fail "status $status"
			[[ $stderr == *"sched:sched_stat_runtime"* ]]
			[[ $stderr == *"refused under --strict"* ]]
			[[ ! -e $dir/strict.onoff ]]
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
	burn_rec 0,1 1 perf record -q -C "0-$(($(nproc) - 1))" -k CLOCK_MONOTONIC \
		-e sched:sched_switch -e sched:sched_stat_runtime
	busy_rel --strict
	echo "# -C every CPU: trace vs kernel $rel" >&3
	within_pct 1.5
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
	burn_rec "${LOADS[-1]}" 1 perf record -q -a -c 1 -k CLOCK_MONOTONIC \
		-e sched:sched_switch -e sched:sched_stat_runtime
	busy_rel --strict
	echo "# -c 1: trace vs kernel $rel" >&3
	within_pct 1.5
}

@test "onoff: live: lost events (perf record -m 1) are counted once, as perf counts them" {
	require_tracing
	local dir=$BATS_TEST_TMPDIR
	perf record -q -a -m 1 -k CLOCK_MONOTONIC -e sched:sched_switch \
		-e sched:sched_stat_runtime -o "$dir/t.data" -- \
		python3 "$BATS_TEST_DIRNAME/live/burn.py" 1 4 0.2:0.2 >/dev/null 2>&1
	# perf's own count: the per-event LOST_SAMPLES of perf report --stats
	local perf_lost ours
	perf_lost=$(perf report --stats -i "$dir/t.data" 2>/dev/null |
		awk '/ stats:$/ && !/^Aggregated/ { ev = 1 }
			ev && $1 == "LOST_SAMPLES" { s += $3 }
			END { print s + 0 }')
	ovb-onoff -c a=comm:. "$dir/t.data" >"$dir/t.onoff"
	ours=$(awk '$1 == "gap" { s += $4 } END { print s + 0 }' "$dir/t.onoff")
	echo "# lost: ovb-onoff $ours, perf report --stats $perf_lost" >&3
	[[ $perf_lost -gt 0 ]] || skip "perf lost nothing with -m 1 this time"
	assert_equal "$ours" "$perf_lost"
}

@test "onoff: live: --net=devq: bytes sent in interrupt context are reported, never silently dropped" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no net:net_dev_queue"
	local dir=$BATS_TEST_TMPDIR size=8000000
	ovb-capture -q --net=devq -o "$dir/t.data" -- python3 -c "
import os, socket
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(1)
port = s.getsockname()[1]
if os.fork() == 0:
    c = socket.create_connection(('127.0.0.1', port))
    b = bytes($size)
    c.sendall(b); c.close(); os._exit(0)
a, _ = s.accept(); n = 0
while True:
    d = a.recv(65536)
    if not d: break
    n += len(d)
os.wait(); print('pid', os.getpid())
" >"$dir/py.out"
	local pid
	pid=$(awk '$1 == "pid" { print $2 }' "$dir/py.out")
	# over the loopback, which is not counted unless chosen
	run -0 --separate-stderr ovb-onoff --iface lo -c "snd=pid:$pid" "$dir/t.data" -o "$dir/t.onoff"
	local credited irq=0
	credited=$(awk '$1 == "send" { s += $4 } END { print s + 0 }' "$dir/t.onoff")
	if [[ $stderr =~ ([0-9]+)\ bytes\ sent\ or\ received\ in\ interrupt\ context ]]; then
		irq=${BASH_REMATCH[1]}
		[[ $stderr == *"--net=sock"* ]]
		run -65 --separate-stderr ovb-onoff --iface lo --strict -c "snd=pid:$pid" \
			-o "$dir/strict.onoff" "$dir/t.data"
		[[ ! -e $dir/strict.onoff ]]
	fi
	echo "# devq: $credited B credited, $irq B in irq context reported, of $size" >&3
	# every payload byte is accounted for: credited or reported
	[[ $((credited + irq)) -ge $size ]]
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

@test "onoff: the uncertainty the dropped switches leave is bounded per capsule; --strict refuses above the bound" {
	local data main
	data=$(unpack_fixture redis)
	main=$(acct_field "$FIXTURES/redis.acct" main_pid)
	# the server ran on CPU 0, whose switches are all there
	run -0 --separate-stderr ovb-onoff -v --strict -c "srv=pid:$main" "$data"
	[[ $stderr == *"capsule srv: busy "*" uncertain by at most 0.000000 cpu-s (0 %) from 0 runs"* ]]
	# redis-benchmark ran on CPU 1, whose idle task emits no switches
	run -0 --separate-stderr ovb-onoff -c 'load=comm:^redis-bench' "$data"
	[[ $stderr == *"capsule load: busy "*"sched:sched_stat_runtime"* ]]
	run -65 --separate-stderr ovb-onoff --strict -c 'load=comm:^redis-bench' \
		-o "$BATS_TEST_TMPDIR/o" "$data"
	[[ $stderr == *"refused under --strict (bound 1.5 %)"* ]]
	[[ ! -e $BATS_TEST_TMPDIR/o ]]
	# a looser bound, above what it says
	local pct
	pct=$(sed -nE 's/.*cpu-s \(([0-9.e+]+) %\).*/\1/p' <<<"$stderr" | head -1)
	run -0 --separate-stderr ovb-onoff --strict="$(python3 -c "print($pct * 1.01)")" \
		-c 'load=comm:^redis-bench' "$data"
	# and -q silences the warning
	run -0 --separate-stderr ovb-onoff -q -c 'load=comm:^redis-bench' "$data"
	assert_equal "$stderr" ""
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
