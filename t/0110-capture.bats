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
