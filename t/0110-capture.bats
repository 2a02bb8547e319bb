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
	assert_output --partial '-e sched:sched_stat_runtime -e net:net_dev_queue'
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
	run -0 --separate-stderr ovb-onoff -c all=comm:. t.data
	assert_line --regexp '^span [0-9]+ [0-9]+$'
	# a command run under it is stopped too (perf sends it SIGTERM)
	rm t.data
	stop_after INT 1 -o t.data -- sleep 30
	echo "# SIGINT: exit $rc after $ms ms" >&3
	assert_equal "$rc" 130
	((ms < 5000))
	run -0 --separate-stderr ovb-onoff -c all=comm:. t.data
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
	run -0 --separate-stderr ovb-capture -q --mmap-pages 1 -o t.data -- \
		python3 "$BATS_TEST_DIRNAME/live/burn.py" 1 4 0.2:0.2
	# perf's own count: the per-event LOST_SAMPLES of perf report --stats
	local perf_lost
	perf_lost=$(perf report --stats -i t.data 2>/dev/null |
		awk '/ stats:$/ && !/^Aggregated/ { ev = 1 }
			ev && $1 == "LOST_SAMPLES" { s += $3 }
			END { print s + 0 }')
	echo "# perf report --stats: $perf_lost lost; ovb-capture: $stderr" >&3
	if ((perf_lost == 0)); then
		[[ $stderr != *"perf lost"* ]]
		skip "perf lost nothing with -m 1 this time"
	fi
	[[ $stderr == *"perf lost $perf_lost of "* ]]
	[[ $stderr == *"--mmap-pages=4 (now 1 pages per CPU)"* ]]
}
