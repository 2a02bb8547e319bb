#!/usr/bin/env bats
# ovb-onoff's selectors by cgroup (cgroup:PATH, unit:NAME) and its network
# device filter (--iface, loopback excluded by default).  Busy time of a
# cgroup is checked against the kernel's own accounting of that cgroup
# (cpu.stat usage_usec, which cgroup v2 keeps for every cgroup), bytes
# against what the test's own sockets sent.

# ovb: serial (records the whole machine with perf: runs alone)
bats_require_minimum_version 1.5.0
load test_helper

BURN="$BATS_TEST_DIRNAME/live/burn.py"

teardown() {
	# cgroups this test made, deepest first (they are empty by now)
	local c
	for c in "${MADE[@]}"; do
		rmdir "$c" 2>/dev/null || true
	done
}

# cgroup2_root: the mount point of a cgroup v2 hierarchy, or skips saying why.
cgroup2_root() {
	CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	[[ -n $CG2 ]] || skip "no cgroup v2 hierarchy is mounted (only v1): cgroup ids need v2"
	[[ -w $CG2/cgroup.procs ]] || skip "cannot move processes into $CG2 (not root?)"
	perf record --help 2>&1 | grep -q -- --all-cgroups ||
		skip "this perf has no --all-cgroups"
}

# mkcg PATH...: creates cgroups under $CG2 (parents first), removed by teardown.
MADE=()
mkcg() {
	local p
	for p in "$@"; do
		mkdir "$CG2/$p" || return 1
		MADE=("$CG2/$p" "${MADE[@]}")
	done
}

# usage_ns PATH: the kernel's CPU time of cgroup PATH and below, in ns.
usage_ns() {
	awk '$1 == "usage_usec" { print $2 * 1000 }' "$CG2/$1/cpu.stat"
}

# busy_of CAPSULE FILE: CPU-ns of a capsule's busy periods.
busy_of() {
	awk -v c="$1" '$1 == "busy" && $2 == c { s += ($4 - $3) * $5 }
		END { printf "%d\n", s }' "$2"
}

# rel_within A B PCT: |A - B| / B is within PCT %.
rel_within() {
	/usr/bin/python3 -c "import sys; a, b = $1, $2; r = (a - b) / b
print('# rel', round(r, 6)); sys.exit(0 if abs(r) * 100 <= $3 else 1)" >&3 ||
		fail "$1 vs $2: beyond $3%"
}

# gapless FILE: the ovb-onoff FILE has no gap (events the kernel lost, on
# a loaded machine): only then can busy time match the kernel's accounting.
gapless() {
	! grep -q '^gap ' "$1"
}

# onoff_try ARGS...: ovb-onoff ARGS (run, --separate-stderr) on a live
# trace; sets again when the trace is to be recorded again: refused as
# busy time uncertain beyond 1.5 % (perf on a loaded host drops switches;
# the refusal is ovb-onoff's right answer then, and says so), or accepted
# with gaps (lost events).  Any other failure fails, with ovb-onoff's words.
onoff_try() {
	again=
	run --separate-stderr ovb-onoff "$@"
	if ((status == 65)) && [[ $stderr == *"refused: busy time uncertain by more than 1.5 %"* ]]; then
		again=refused
		echo "# refused (busy time uncertain beyond 1.5 %): again" >&3
		return 0
	fi
	((status == 0)) || fail "ovb-onoff: status $status: $stderr"
	gapless "$BATS_TEST_TMPDIR/t.onoff" || {
		again=gaps
		echo "# lost events: again" >&3
	}
}

# in_cg: writes $BATS_TEST_TMPDIR/in_cg, which runs "in_cg PATH COMMAND..."
# as COMMAND, moved into cgroup PATH (under $CG2) first; sets IN_CG.
in_cg() {
	IN_CG=$BATS_TEST_TMPDIR/in_cg
	printf '#!/bin/sh\necho $$ >"%s/$1/cgroup.procs" || exit 1\nshift\nexec "$@"\n' \
		"$CG2" >"$IN_CG"
	chmod +x "$IN_CG"
}

@test "select: usage errors, and a cgroup selector on a trace without cgroup ids is 65 naming --all-cgroups" {
	run -64 --separate-stderr ovb-onoff -c 'a=cgroup:' x
	[[ $stderr == *"is not a cgroup path"* ]] || fail "stderr: $stderr"
	run -64 --separate-stderr ovb-onoff -c 'a=cgroup:/a//b' x
	run -64 --separate-stderr ovb-onoff -c 'a=cgroup:/a/../b' x
	run -64 --separate-stderr ovb-onoff -c 'a=unit:nginx' x
	[[ $stderr == *"is not NAME.TYPE"* ]] || fail "stderr: $stderr"
	run -64 --separate-stderr ovb-onoff -c 'a=unit:system.slice/x.service' x
	run -64 --separate-stderr ovb-onoff -c 'a=bogus:1' x
	[[ $stderr == *"pid:N, comm:REGEX, cgroup:PATH or unit:NAME"* ]]
	run -64 --separate-stderr ovb-onoff --iface '' -c a=comm:. x
	run -64 --separate-stderr ovb-onoff --iface 'a/b' -c a=comm:. x
	# the shipped traces were recorded without --all-cgroups
	local data
	data=$(unpack_fixture nginx)
	run -65 --separate-stderr ovb-onoff -c 'web=cgroup:/system.slice' \
		-o "$BATS_TEST_TMPDIR/out" "$data"
	[[ $stderr == "ovb-onoff: $data: the trace has no cgroup ids"*"--all-cgroups"* ]] ||
		fail "stderr: $stderr"
	[[ ! -e $BATS_TEST_TMPDIR/out ]]
}

@test "select: capture records cgroup ids where cgroup v2 is mounted (--no-cgroups: not), and the device beside socket events" {
	run -0 ovb-capture --dry-run -d 1
	if grep -q ' cgroup2 ' /proc/self/mounts; then
		assert_output --partial ' --all-cgroups '
	else
		refute_output --partial 'cgroups'
	fi
	run -0 ovb-capture --dry-run --no-cgroups -d 1
	refute_output --partial 'cgroups'
	if [[ -r /sys/kernel/tracing/events/sock/sock_send_length/format &&
	      -r /sys/kernel/tracing/events/net/net_dev_queue/format ]]; then
		run -0 ovb-capture --dry-run -d 1
		assert_output --partial '-e sock:sock_send_length -e net:net_dev_queue '
	fi
}

@test "select: live: cgroup:PATH selects a process tree by its cgroup v2, within 1.5% of the cgroup's cpu.stat; a same-named process outside is not counted" {
	require_tracing
	cgroup2_root
	local d=$BATS_TEST_TMPDIR g=ovbsel-$$-$RANDOM
	mkcg "$g"
	in_cg
	# inside: burn.py (a coordinator forking 2 workers, after the move);
	# outside, at the same time: the same program, the same name.  A
	# trace that lost events is recorded again (a fresh cgroup each time).
	local try w k kout verr again
	for try in 1 2 3; do
		w=$g/web$try
		mkcg "$w"
		ovb-capture -q -o "$d/t.data" -- sh -c "
			/usr/bin/python3 '$BURN' 0.6 2 >'$d/out.burn' &
			'$IN_CG' '$w' /usr/bin/python3 '$BURN' 0.6 2 >'$d/in.burn'
			wait" 2>"$d/rec.err" || { cat "$d/rec.err"; false; }
		onoff_try -v -c "web=cgroup:/$g" -c 'other=comm:^python3$' \
			-o "$d/t.onoff" "$d/t.data"
		[[ -n $again ]] || { verr=$stderr; break; }
		((try < 3)) || skip "every recording lost events or was refused (a loaded machine)"
	done
	k=$(usage_ns "$w")
	kout=$(awk '$1 == "cpu_ns" { print $2 }' "$d/out.burn")
	[[ $k -gt 100000000 && $kout -gt 100000000 ]]
	run -0 ovb-fmt "$d/t.onoff"
	# -v names what the cgroup selector matched: burn.py, its coordinator
	# and its two workers
	[[ $verr == *"capsule web (cgroup:/$g): 4 processes: "*"(python3)"* ]] ||
		fail "stderr: $verr"
	echo "# cgroup /$g: trace $(busy_of web "$d/t.onoff") ns, cpu.stat $k ns" >&3
	rel_within "$(busy_of web "$d/t.onoff")" "$k" 1.5
	# the outside burner is the other capsule's (first match wins): its
	# three processes' wait4 time at least
	local other span
	other=$(busy_of other "$d/t.onoff")
	span=$(awk '$1 == "span" { print $3 - $2 }' "$d/t.onoff")
	echo "# outside: trace $other ns (every python3), wait4 $kout ns" >&3
	((other >= kout * 98 / 100)) || fail "outside: $other ns < wait4's $kout ns"
	((other <= span * $(nproc))) || fail "outside: $other ns > span $span ns x $(nproc) CPUs"
	# a child cgroup's path selects the same; a path is no prefix of a name
	run -0 ovb-onoff -c "web=cgroup:$w/" "$d/t.data" -o "$d/t2.onoff"
	rel_within "$(busy_of web "$d/t2.onoff")" "$k" 1.5
	run -65 --separate-stderr ovb-onoff -c "web=cgroup:/${g}we" "$d/t.data"
	[[ $stderr == *"matches no process"* ]]
}

@test "select: live: unit:NAME selects a systemd unit's cgroup (under its slices), within 1.5% of its cpu.stat" {
	require_tracing
	cgroup2_root
	local d=$BATS_TEST_TMPDIR u path try verr again
	for try in 1 2 3; do
	u=ovbsel-$$-$RANDOM.service
	if [[ $(cat /proc/1/comm) == systemd ]] && systemd-run --version >/dev/null 2>&1; then
		ovb-capture -q -o "$d/t.data" -- systemd-run -q --wait --unit="$u" \
			/usr/bin/python3 "$BURN" 0.6 2
		path=$(systemctl show -P ControlGroup "$u" 2>/dev/null || true)
		[[ -n $path ]] || skip "systemd-run ran $u, but its cgroup is gone"
	else
		# systemd is not PID 1 here (a container): the unit's cgroup is made
		# as systemd makes it, a unit under nested slices
		echo "# systemd is not PID 1: unit cgroup made by hand" >&3
		local s=ovbt$$.slice
		[[ -d $CG2/$s ]] || mkcg "$s" "$s/ovbt$$-a.slice" "ovbt$$-x"
		mkcg "$s/ovbt$$-a.slice/$u" "ovbt$$-x/$u"
		in_cg
		path=/$s/ovbt$$-a.slice/$u
		# the same unit name under a cgroup that is no slice (as a user
		# manager's units are) is not the system's unit
		ovb-capture -q -o "$d/t.data" -- sh -c "
			'$IN_CG' 'ovbt$$-x/$u' /usr/bin/python3 '$BURN' 0.3 1 >/dev/null &
			'$IN_CG' '${path#/}' /usr/bin/python3 '$BURN' 0.6 2 >/dev/null
			wait"
	fi
	onoff_try -v -c "svc=unit:$u" -o "$d/t.onoff" "$d/t.data"
	[[ -n $again ]] || { verr=$stderr; break; }
	((try < 3)) || skip "every recording lost events or was refused (a loaded machine)"
	done
	local k=$(usage_ns "${path#/}")
	[[ $k -gt 100000000 ]]
	run -0 ovb-fmt "$d/t.onoff"
	[[ $verr == *"capsule svc (unit:$u): 4 processes"* ]] || fail "stderr: $verr"
	echo "# unit $u at $path: trace $(busy_of svc "$d/t.onoff") ns, cpu.stat $k ns" >&3
	rel_within "$(busy_of svc "$d/t.onoff")" "$k" 1.5
}

# ---- network devices ----

# sender: a python3 program, named ovbsend (prctl), that sends 50000
# bytes over a unix socket pair, then SIZE over TCP to HOST, to its child
# ovbrecv; prints what the child received (t/live/lo-send.py).
sender() {
	cat "$BATS_TEST_DIRNAME/live/lo-send.py"
}

# sum_of KW CAPSULE FILE: the bytes of a capsule's KW (send, recv) records.
sum_of() {
	awk -v k="$1" -v c="$2" '$1 == k && $2 == c { s += $4 } END { print s + 0 }' "$3"
}

@test "select: live: 2 MB over loopback is no network traffic by default; --iface lo counts it exactly, other devices not" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/sock/sock_send_length/format &&
	   -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no sock:sock_send_length or net:net_dev_queue"
	local d=$BATS_TEST_TMPDIR size=2097152
	sender >"$d/send.py"
	ovb-capture -q --recv -o "$d/t.data" -- /usr/bin/python3 "$d/send.py" 127.0.0.1 $size \
		>"$d/py.out"
	grep -qx "received $size" "$d/py.out"
	# by default: the loopback is excluded, with nothing left uncounted
	run -0 --separate-stderr ovb-onoff --recv -c 'tx=comm:^ovbsend$' \
		-c 'rx=comm:^ovbrecv$' -o "$d/def.onoff" "$d/t.data"
	# nothing said of the network (a busy host's runnable wait may be)
	assert_equal "$(grep -v 'waited for a CPU while runnable' <<<"$stderr")" ""
	[[ $(sum_of send tx "$d/def.onoff") == 0 ]]
	[[ $(sum_of recv rx "$d/def.onoff") == 0 ]]
	# chosen: exactly the TCP payload sent and received (the unix socket's
	# bytes are no network traffic)
	ovb-onoff --recv --iface lo -c 'tx=comm:^ovbsend$' -c 'rx=comm:^ovbrecv$' \
		-o "$d/lo.onoff" "$d/t.data"
	echo "# --iface lo: sent $(sum_of send tx "$d/lo.onoff"), received $(sum_of recv rx "$d/lo.onoff") of $size" >&3
	[[ $(sum_of send tx "$d/lo.onoff") == "$size" ]]
	[[ $(sum_of recv rx "$d/lo.onoff") == "$size" ]]
	# another device chosen: none of it
	ovb-onoff --recv --iface eth0 --iface ens3 -c 'tx=comm:^ovbsend$' \
		-c 'rx=comm:^ovbrecv$' -o "$d/eth.onoff" "$d/t.data"
	[[ $(sum_of send tx "$d/eth.onoff") == 0 ]]
	# -v says which devices were seen and what was left out
	run -0 --separate-stderr ovb-onoff -v --recv -c 'tx=comm:^ovbsend$' "$d/t.data"
	[[ $stderr == *"device lo: not counted"* ]] || fail "stderr: $stderr"
	# (system-wide: other processes' unix sockets too)
	[[ $stderr =~ \ ([0-9]+)\ bytes\ on\ sockets\ of\ no\ network\ family ]] &&
		[[ ${BASH_REMATCH[1]} -ge 50000 ]] || fail "stderr: $stderr"
}

@test "select: live: a 2 MB sendfile over loopback (the issue's case) is excluded by default, exact with --iface lo" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/sock/sock_send_length/format &&
	   -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no sock:sock_send_length or net:net_dev_queue"
	local d=$BATS_TEST_TMPDIR size=2097152
	head -c $size /dev/urandom >"$d/file"
	cat >"$d/sf.py" <<-PY
	import ctypes, os, socket
	ctypes.CDLL(None).prctl(15, b"ovbsend", 0, 0, 0)
	s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
	if os.fork() == 0:
	    a, _ = s.accept(); n = 0
	    while True:
	        d = a.recv(65536)
	        if not d: break
	        n += len(d)
	    print("received", n, flush=True); os._exit(0)
	c = socket.create_connection(s.getsockname())
	with open("$d/file", "rb") as f:
	    c.sendfile(f)
	c.close(); os.wait()
	PY
	ovb-capture -q -o "$d/t.data" -- /usr/bin/python3 "$d/sf.py" >"$d/py.out"
	grep -qx "received $size" "$d/py.out"
	ovb-onoff -c 'tx=comm:^ovbsend$' -o "$d/def.onoff" "$d/t.data"
	[[ $(sum_of send tx "$d/def.onoff") == 0 ]]
	ovb-onoff --iface lo -c 'tx=comm:^ovbsend$' -o "$d/lo.onoff" "$d/t.data"
	[[ $(sum_of send tx "$d/lo.onoff") == "$size" ]]
}

@test "select: live: traffic to the host's own address goes over lo, and is excluded too" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no net:net_dev_queue"
	local d=$BATS_TEST_TMPDIR size=1000000 addr
	addr=$(ip -o -4 addr show scope global 2>/dev/null | awk '{ sub("/.*", "", $4); print $4; exit }')
	[[ -n $addr ]] || skip "no global IPv4 address"
	sender >"$d/send.py"
	ovb-capture -q -o "$d/t.data" -- /usr/bin/python3 "$d/send.py" "$addr" $size >"$d/py.out"
	ovb-onoff -c 'tx=comm:^ovbsend$' -o "$d/def.onoff" "$d/t.data"
	[[ $(sum_of send tx "$d/def.onoff") == 0 ]]
	ovb-onoff --iface lo -c 'tx=comm:^ovbsend$' -o "$d/lo.onoff" "$d/t.data"
	[[ $(sum_of send tx "$d/lo.onoff") == "$size" ]]
}

@test "select: live: --net=devq: packets counted by their own device (lo excluded by default)" {
	require_tracing
	[[ -r /sys/kernel/tracing/events/net/net_dev_queue/format ]] ||
		skip "no net:net_dev_queue"
	local d=$BATS_TEST_TMPDIR size=2097152
	sender >"$d/send.py"
	ovb-capture -q --net=devq -o "$d/t.data" -- /usr/bin/python3 "$d/send.py" 127.0.0.1 $size \
		>"$d/py.out"
	run -0 --separate-stderr ovb-onoff -c 'tx=comm:^ovbsend$' -o "$d/def.onoff" "$d/t.data"
	[[ $(sum_of send tx "$d/def.onoff") == 0 ]]
	# lo: the packets (payload plus headers) or reported in irq context
	run -0 --separate-stderr ovb-onoff --iface lo -c 'tx=comm:^ovbsend$' \
		-c 'rx=comm:^ovbrecv$' -o "$d/lo.onoff" "$d/t.data"
	local credited peer irq=0
	credited=$(sum_of send tx "$d/lo.onoff")
	peer=$(sum_of send rx "$d/lo.onoff")
	if [[ $stderr =~ ([0-9]+)\ bytes\ sent\ in\ interrupt\ context\ \(net:net_dev_queue\)\ are\ not\ credited ]]; then
		irq=${BASH_REMATCH[1]}
	fi
	echo "# devq --iface lo: $credited B credited, $peer B to the receiver, $irq B not credited, of $size" >&3
	# nothing on lo is lost: credited to a capsule or reported
	[[ $((credited + peer + irq)) -ge $size ]]
	# the receiver sends only ACKs (a few kB of 66 B packets): more is the
	# sender's, given to its peer (issue #19: a softirq served both ends
	# and the sender, closing, named no socket)
	((peer < 65536)) || fail "the receiver was credited $peer B: the sender's"
	[[ $((credited + irq)) -ge $size ]]
}
