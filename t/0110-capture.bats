#!/usr/bin/env bats
# ovb-capture: recording the kernel events a profile needs.

# ovb: serial (records the whole machine with perf: runs alone)
bats_require_minimum_version 1.5.0
load test_helper

@test "capture: --help shows usage, EXAMPLES and exit statuses" {
	run -0 ovb-capture --help
	assert_output --partial 'Usage: ovb-capture'
	assert_output --partial 'EXAMPLES:'
	assert_output --partial '77 tracing not permitted'
}

@test "capture: bad options exit 64 with argp's message" {
	run -64 --separate-stderr ovb-capture --bogus
	[[ $stderr == *"unrecognized option"* ]]
	run -64 --separate-stderr ovb-capture -d 12abc
	[[ $stderr == *"--duration: '12abc' is not a decimal number"* ]]
	run -64 --separate-stderr ovb-capture -d 0
	run -64 --separate-stderr ovb-capture
	[[ $stderr == *"give -d SECONDS or a COMMAND"* ]]
	run -64 --separate-stderr ovb-capture -d 1 -- true
	run -64 --separate-stderr ovb-capture --net bogus -d 1
}

@test "capture: runs perf system-wide, without a shell, with the kernel's events" {
	run -0 --separate-stderr ovb-capture --dry-run -d 2.5 -o out.data
	assert_output --regexp '^perf record -a -k CLOCK_MONOTONIC (--all-cgroups )?-e sched:sched_switch '
	assert_output --regexp ' -o out\.data -- sleep 2\.5$'
	if [[ -r /sys/kernel/tracing/events/sched/sched_stat_runtime/format ]]; then
		assert_output --partial '-e sched:sched_switch -e sched:sched_stat_runtime '
	fi
	if [[ -r /sys/kernel/tracing/events/sock/sock_send_length/format ]]; then
		assert_output --partial '-e sock:sock_send_length'
	fi
	run -0 ovb-capture --dry-run --net none -- my-server --flag 'a b'
	refute_output --partial 'sock:'
	refute_output --partial 'net:'
	assert_output --regexp ' -- my-server --flag a b$'
	run -0 ovb-capture --dry-run --net devq -d 1
	assert_output --partial '-e net:net_dev_queue'
	# and the segments a packet is cut into (loopback: matched where they
	# arrive)
	if [[ -r /sys/kernel/tracing/events/net/net_dev_start_xmit/format ]]; then
		assert_output --partial '-e net:net_dev_start_xmit'
	fi
	# and what names the socket a softirq sends from
	if [[ -r /sys/kernel/tracing/events/tcp/tcp_probe/format ]]; then
		assert_output --partial '-e tcp:tcp_probe'
		assert_output --partial '-e irq:softirq_entry -e irq:softirq_exit'
		assert_output --partial '-e timer:hrtimer_start'
	fi
	# and TCP's timer_list timers (retransmit, delayed ACK: issue 30)
	if [[ -r /sys/kernel/tracing/events/timer/timer_start/format ]]; then
		assert_output --partial '-e timer:timer_start -e timer:timer_expire_entry -e timer:timer_expire_exit'
	fi
}

@test "capture: a user not allowed to trace is told what to do (77), no file" {
	[[ $(id -u) == 0 ]] || skip "needs root to run as another user"
	local p
	p=$(cat /proc/sys/kernel/perf_event_paranoid)
	[[ $p -gt -1 ]] || skip "perf_event_paranoid=$p lets everyone trace"
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	chmod 777 .
	run -77 --separate-stderr setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$(command -v ovb-capture)" -d 0.1 -o x.data
	[[ $stderr == *"perf_event_paranoid is $p"* ]]
	[[ $stderr == *"sysctl -w kernel.perf_event_paranoid=-1"* ]]
	[[ ! -e x.data ]]
}

@test "capture: records a trace ovb-onoff reads, appearing whole" {
	require_tracing
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	run -0 --separate-stderr ovb-capture -q -d 0.2 -o t.data
	[[ -s t.data ]]
	[[ -z $(ls -A | grep -v '^t\.data$') ]]   # no temporary left behind
	run -0 --separate-stderr ovb-onoff -c all=comm:. t.data
	assert_line --regexp '^span [0-9]+ [0-9]+$'
}

@test "capture: a failing perf leaves no file and says so (69)" {
	require_tracing
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	run -69 --separate-stderr ovb-capture --perf false -d 0.1 -o t.data
	[[ ! -e t.data ]]
	[[ -z $(ls -A) ]]
}

# in_fresh_ns CMD...: runs CMD in a mount namespace of its own where
# tracefs is not mounted, as on a machine just booted (the machine's own
# mounts are not touched).
in_fresh_ns() {
	unshare -m --propagation private bash -c '
		while mountpoint -q /sys/kernel/tracing; do
			umount /sys/kernel/tracing || exit 99
		done
		[[ ! -e /sys/kernel/tracing/events ]] || exit 98
		"$@"' in_fresh_ns "$@"
}

@test "capture: where tracefs is not mounted yet, it is mounted as perf does: the first recording asks for the same events as the next" {
	[[ $(id -u) == 0 ]] || skip "needs root to mount tracefs (and to unmount it in a namespace of its own)"
	unshare -m true 2>/dev/null || skip "unshare -m is not permitted here"
	local want
	want=$(ovb-capture --dry-run --net devq -d 1 2>/dev/null)
	run -0 --separate-stderr in_fresh_ns ovb-capture --dry-run --net devq -d 1
	assert_equal "$output" "$want"
	[[ $stderr == *"mounted tracefs at /sys/kernel/tracing"* ]]
	assert_output --partial '-e sched:sched_stat_runtime -e sched:sched_wakeup -e sched:sched_wakeup_new -e net:net_dev_queue'
	run -0 --separate-stderr in_fresh_ns bash -c \
		'ovb-capture -q --dry-run -d 1 && ovb-capture -q --dry-run -d 1'
	assert_equal "${lines[0]}" "${lines[1]}"
	assert_equal "${lines[0]}" "$(ovb-capture -q --dry-run -d 1)"
}

@test "capture: live: a recording on a machine where tracefs is not mounted has every event" {
	require_tracing
	unshare -m true 2>/dev/null || skip "unshare -m is not permitted here"
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	run -0 --separate-stderr in_fresh_ns ovb-capture -d 0.3 -o t.data
	[[ $stderr == *"mounted tracefs"* ]]
	run -0 perf report --header-only -i t.data
	assert_output --partial 'sched:sched_stat_runtime'
	run -0 --separate-stderr ovb-onoff -c all=comm:. t.data
	assert_line --regexp '^span [0-9]+ [0-9]+$'
}

@test "capture: --mmap-pages is perf's -m, a power of 2" {
	run -0 ovb-capture --dry-run --mmap-pages 256 -d 1 -o x.data
	assert_output --regexp ' -m 256 -o x\.data -- sleep 1$'
	run -64 --separate-stderr ovb-capture --dry-run --mmap-pages 3 -d 1
	[[ $stderr == *"--mmap-pages: '3' is not a power of 2"* ]]
	run -64 --separate-stderr ovb-capture --dry-run --mmap-pages 0 -d 1
	run -64 --separate-stderr ovb-capture --dry-run --mmap-pages 1.5 -d 1
}

# stop_after SIG SECONDS CAPTURE-ARGS...: starts ovb-capture CAPTURE-ARGS in
# the background, sends SIG to it alone after SECONDS, and sets rc (its
# exit status) and ms (the milliseconds from the signal to its exit).
stop_after() {
	local sig=$1 after=$2 pid t0
	shift 2
	ovb-capture "$@" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	sleep "$after"
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}

@test "capture: live: SIGTERM or SIGINT to ovb-capture alone stops the recording and leaves a whole trace (exit 143, 130)" {
	require_tracing
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	stop_after TERM 1 -d 30 -o t.data
	echo "# SIGTERM: exit $rc after $ms ms" >&3
	assert_equal "$rc" 143
	((ms < 5000))      # not the 30 s asked for
	grep -q 'stopped by SIGTERM' "$BATS_TEST_TMPDIR/err"
	[[ -z $(ls -A | grep -v '^t\.data$') ]]   # no temporary left behind
	# whole: the file reads (the question here; on a loaded machine a
	# second of trace may be too uncertain for the default gate, which
	# t/0120 tests: it failed so once in CI, status 65, reason not kept)
	run --separate-stderr ovb-onoff --max-uncertainty=any -c all=comm:. t.data
	[[ $status == 0 ]] || fail "ovb-onoff: status $status: $stderr"
	assert_line --regexp '^span [0-9]+ [0-9]+$'
	# a command run under it is stopped too (perf sends it SIGTERM)
	rm t.data
	stop_after INT 1 -o t.data -- sleep 30
	echo "# SIGINT: exit $rc after $ms ms" >&3
	assert_equal "$rc" 130
	((ms < 5000))
	run --separate-stderr ovb-onoff --max-uncertainty=any -c all=comm:. t.data
	[[ $status == 0 ]] || fail "ovb-onoff: status $status: $stderr"
	assert_line --regexp '^busy all '
	# a signal at any moment, perf started or not: a whole trace or none,
	# never a temporary left behind
	local after
	for after in 0 0.02 0.1 0.3; do
		rm -f t.data
		stop_after TERM "$after" -d 30 -o t.data
		echo "# SIGTERM after $after s: exit $rc, $(ls -A | tr '\n' ' ')" >&3
		assert_equal "$rc" 143
		[[ -z $(ls -A | grep -v '^t\.data$') ]]
		# whole, though perf may have been stopped before it recorded
		# much (a loaded machine: a few ms of trace, whose busy time may
		# be too uncertain, or no event of a process): the question here
		# is only whether the file reads, so --allow-empty and
		# --max-uncertainty=any (a damaged trace is still 65)
		if [[ -e t.data ]]; then
			run --separate-stderr ovb-onoff --allow-empty \
				--max-uncertainty=any -c all=comm:. t.data
			[[ $status == 0 ]] || fail "ovb-onoff: status $status: $stderr"
			assert_line --regexp '^span [0-9]+ [0-9]+$'
		fi
	done
}

@test "capture: live: events perf lost are said, with the --mmap-pages to pass" {
	require_tracing
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	local lost try
	# until perf loses some (up to 10 recordings; 8 burners switching
	# every 20 us into one page per CPU lost some in 5 of 6 here)
	for try in 1 2 3 4 5 6 7 8 9 10; do
		run -0 --separate-stderr ovb-capture -q --mmap-pages 1 -o t.data -- \
			python3 "$BATS_TEST_DIRNAME/live/burn.py" 1 8 0.02:0.02
		lost=$(perf_lost t.data)
		echo "# perf report --stats: $lost lost; ovb-capture: $stderr" >&3
		if ((lost == 0)); then
			[[ $stderr != *"perf lost"* ]]
			continue
		fi
		[[ $stderr == *"perf lost $lost of "* ]]
		[[ $stderr == *"--mmap-pages=4 (now 1 pages per CPU)"* ]]
		return 0
	done
	fail "perf lost nothing with -m 1 in 10 recordings: the case is not checked"
}

@test "capture: the default buffer is large (perf drops the charges made while the kernel wakes it), --mmap-pages overrides it" {
	run -0 ovb-capture --dry-run -d 1 -o x.data
	local m
	m=$(sed -n 's/.* -m \([0-9]*\) -o x\.data -- sleep 1$/\1/p' <<<"$output")
	# 64 MiB per CPU, halved while all CPUs' buffers exceed 1/32 of the
	# memory, at least perf's 512 KiB (else perf's own default, no -m)
	local want
	want=$(awk -v pg="$(getconf PAGESIZE)" -v n="$(getconf _NPROCESSORS_ONLN)" \
		'/^MemTotal:/ { phys = $2 * 1024 / pg }
		END { p = 67108864 / pg; f = 524288 / pg
			while (p > f && p * n > phys / 32) p /= 2
			print (p > f ? p : "") }' /proc/meminfo)
	assert_equal "$m" "$want"
	run -0 ovb-capture --dry-run --mmap-pages 64 -d 1 -o x.data
	assert_output --regexp ' -m 64 -o x\.data -- sleep 1$'
}

@test "capture: live: perf bench sched pipe beside perf on one CPU: no charge dropped, busy within 0.02 % of wait4 (issue 30)" {
	require_tracing
	command -v taskset >/dev/null || skip "taskset is not installed (util-linux)"
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	# perf runs on CPU 0 (ovb-capture's affinity) beside the pipe bench,
	# whose 80,000 switches fill the buffers (10-20 MB, below the 32 MiB
	# at which the default is woken).  Each time the kernel wakes perf to
	# empty them, the enqueue charges the task running there, and perf
	# drops that charge: with perf's own 512 KiB per CPU (ovb-capture
	# before issue 30) 83 wakeups, the bench 0.08-0.23 % below wait4
	cat >run.sh <<RUN
#!/bin/bash
exec python3 "$BATS_TEST_DIRNAME/live/wait4.py" acct taskset -c 0 perf bench sched pipe -l 40000 >/dev/null
RUN
	chmod +x run.sh
	run -0 --separate-stderr taskset -c 0 ovb-capture -o t.data -- ./run.sh
	echo "# ovb-capture: $stderr" >&3
	local pid k b
	pid=$(awk '$1 == "pid" { print $2 }' acct)
	k=$(awk '$1 == "cpu_ns" { print $2 }' acct)
	ovb-onoff -v --no-net -c "b=pid:$pid" -o t.onoff t.data 2>t.err
	b=$(awk '$1 == "busy" { s += ($4 - $3) * $5 } END { printf "%d", s }' t.onoff)
	echo "# busy $b ns, wait4 $k ns" >&3
	awk -v b="$b" -v k="$k" 'BEGIN { exit !(k > 0 && (b - k) / k <= 0.0002 && (k - b) / k <= 0.0002) }'
	# -v's bound holds wait4's figure (issue 26 item 6)
	bound_holds "$(cat t.err)" b "$k"
	[[ $stderr != *"emptied its buffers"* && $stderr != *"perf lost"* ]]
}

@test "capture: live: a trace perf was woken to empty is said to lack charges, by ovb-capture and ovb-onoff" {
	require_tracing
	mkdir "$BATS_TEST_TMPDIR/out" && cd "$BATS_TEST_TMPDIR/out"
	run -0 --separate-stderr ovb-capture --mmap-pages 2 -o t.data -- \
		perf bench sched pipe -l 20000
	echo "# ovb-capture: $stderr" >&3
	local rounds
	rounds=$(perf report -D -i t.data 2>/dev/null | grep -c 'PERF_RECORD_FINISHED_ROUND')
	((rounds > 3)) || skip "perf emptied its buffers only $rounds times"
	# lost events are said first (they are worse); else the wakeups
	[[ $stderr == *"perf lost"* || $stderr == *"perf emptied its buffers $rounds times"* ]]
	run -0 --separate-stderr ovb-onoff --max-uncertainty=any --no-net -c all=comm:. -o t.onoff t.data
	assert_equal "$output" ""
	[[ $stderr == *"perf emptied its buffers $rounds times while it recorded"* ]]
	run -0 --separate-stderr ovb-onoff -q --max-uncertainty=any --no-net -c all=comm:. -o t.onoff t.data
	assert_equal "$stderr" ""
}
