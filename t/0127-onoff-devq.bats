#!/usr/bin/env bats
# ovb-onoff --net=devq over a veth pair between two network namespaces
# (issue 30 item 3): live recordings of a TCP sender (sendall) and a
# sendfile sender, each the only process of its namespace, so every byte
# queued on its device is its own; each must be credited to it or reported
# as not credited, none to the receiver or to any other process, and the
# sender within 0.1 % of the bytes perf script shows queued.
# bench/devq-stress.sh is the campaign (50 of each, bench/README.md); this
# runs 3 of each.

# ovb: serial (records the whole machine with perf: runs alone)
bats_require_minimum_version 1.5.0
load test_helper

@test "onoff: live: --net=devq over a veth pair, 3 TCP and 3 sendfile senders: every byte the sender's or reported, none another capsule's, within 0.1%" {
	require_tracing
	[[ $(id -u) == 0 ]] || skip "network namespaces need root"
	command -v ip >/dev/null || skip "no ip (iproute2)"
	[[ -r /sys/kernel/tracing/events/tcp/tcp_probe/format &&
	   -r /sys/kernel/tracing/events/timer/timer_start/format ]] ||
		skip "no tcp:tcp_probe or timer:timer_start"
	ip netns add "ovbt$$" 2>/dev/null || skip "cannot create a network namespace"
	ip netns del "ovbt$$"
	# the caller holds /tmp/ovb-perf.lock (this file is serial)
	# every line shown and the traces kept when it fails (once in a CI
	# run, exit 1 with neither)
	run env OVB_PERF_LOCKED=1 "$BATS_TEST_DIRNAME/../bench/devq-stress.sh" \
		-n 3 -k "$BATS_TEST_TMPDIR/traces" tcp sendfile
	local l
	for l in "${lines[@]}"; do echo "# $l" >&3; done
	[[ $status == 0 ]] ||
		fail "devq-stress.sh: status $status (kept in $(keep_tmpdir devq))"
	assert_line '# 6 of 6 runs passed'
}
