#!/usr/bin/env bats
# ovb-enforce --script on this machine's kernel (issue 29, "output a
# machine applies"): the per-node apply script, run twice, leaves the same
# state, and the remove script leaves nothing; the tc script, in a private
# network namespace pair joined by a veth (addresses of 10.199.0.0/24 in
# the namespaces only), shapes two capsules sending at full speed each to
# its planned rate within 10%, and a flow of no capsule goes to the
# default class.  As root; each test sets up what it needs (namespaces,
# a net_cls mount, cgroups) and removes it.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	SHAPE="$BATS_TEST_DIRNAME/live/shape.py"
	[[ $(id -u) == 0 ]] || skip "needs root: namespaces, cgroups, tc"
	ID=ovbt$$
}

teardown() {
	[[ $(id -u) == 0 ]] || return 0
	local p
	for p in $(cat "$T"/pids 2>/dev/null); do
		kill "$p" 2>/dev/null || :
	done
	ip netns del "${ID}a" 2>/dev/null || :
	ip netns del "${ID}b" 2>/dev/null || :
	if [[ -n ${NC_MOUNTED:-} ]]; then
		find "$NC/$ID" -depth -type d -exec rmdir {} \; 2>/dev/null || :
		umount "$NC" 2>/dev/null || :
	fi
	local c
	for c in cpu memory; do
		[[ -d /sys/fs/cgroup/$c/$ID ]] &&
			find "/sys/fs/cgroup/$c/$ID" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
	return 0
}

# The plan of the tc test: one node, a link of 100 Mbit/s, capsules a
# (sigma 2.5 MB/s = 20 Mbit/s) and b (5 MB/s = 40 Mbit/s), bursts of
# 100000 B (above the MTU and rate/HZ), tau 10 s.
tc_plan() {
	printf 'ovb-cluster 1\nnode n1 4 cpu 12500000 B/s\n' >"$T/c"
	cat >"$T/p" <<-EOF
	ovb-plan 1
	place shop a n1 -
	qos shop a net 2500000 100000 10 0.01
	place shop b n1 -
	qos shop b net 5000000 100000 10 0.01
	EOF
}

# net_cls: the v1 controller's mount, made in $T when there is none
net_cls() {
	NC=$(awk '$3 == "cgroup" && $4 ~ /(^|,)net_cls(,|$)/ { print $2; exit }' /proc/mounts)
	if [[ -z $NC ]]; then
		grep -qw '^net_cls' /proc/cgroups || skip "no net_cls controller in this kernel"
		NC=$T/net_cls
		mkdir "$NC"
		mount -t cgroup -o net_cls net_cls "$NC"
		NC_MOUNTED=1
	fi
}

# two namespaces joined by a veth: ${ID}a (vA 10.199.0.1), ${ID}b (vB .2)
veth() {
	ip netns add "${ID}a"
	ip netns add "${ID}b"
	ip link add vA netns "${ID}a" type veth peer name vB netns "${ID}b"
	ip -n "${ID}a" addr add 10.199.0.1/24 dev vA
	ip -n "${ID}b" addr add 10.199.0.2/24 dev vB
	ip -n "${ID}a" link set vA up
	ip -n "${ID}b" link set vB up
	ip -n "${ID}a" link set lo up
	ip -n "${ID}b" link set lo up
}

# the state of ${ID}a's shaping: qdisc, classes, nft rules, classids
tc_state() {
	ip netns exec "${ID}a" tc qdisc show dev vA
	ip netns exec "${ID}a" tc class show dev vA
	ip netns exec "${ID}a" nft list ruleset
	find "$NC/$ID" -name net_cls.classid -exec grep -H . {} + 2>/dev/null | sort
}

need_tc() {
	command -v tc >/dev/null || fail "tc is missing (iproute2, .ci/deps)"
	command -v nft >/dev/null || fail "nft is missing (nftables, .ci/deps)"
}

@test "tc --script: apply twice, the same state; remove, the state before" {
	need_tc
	tc_plan
	net_cls
	veth
	run -0 --separate-stderr ovb-enforce -t tc --dev vA --cgroup "$ID/%a.%c" --script "$T/s" "$T/c" "$T/p"
	assert_output ''
	[[ -x $T/s/n1.apply.sh && -x $T/s/n1.remove.sh ]] || fail "$(ls -l "$T/s")"
	tc_state >"$T/before"
	run -0 ip netns exec "${ID}a" env OVB_NET_CLS="$NC" "$T/s/n1.apply.sh"
	tc_state >"$T/once"
	run -0 ip netns exec "${ID}a" env OVB_NET_CLS="$NC" "$T/s/n1.apply.sh"
	tc_state >"$T/twice"
	diff "$T/once" "$T/twice" || fail "a second apply changed the state"
	# what the first apply made: the root, default and capsule classes,
	# the rules, the classids
	run cat "$T/once"
	assert_line --regexp '^qdisc htb 1: root .*default 0x2'
	# the rates are the Eq. 1 terms over tau, (sigma tau + rho)(1 - O)/tau:
	# a 2484900 B/s = 19879200 bit/s, b 4959900 B/s = 39679200 bit/s; the
	# default class has the rest of the link, 40441600 bit/s
	assert_line --regexp '^class htb 1:2 parent 1:1 .*rate 40441Kbit ceil 100Mbit'
	assert_line --regexp '^class htb 1:10 parent 1:1 .*rate 19879Kbit ceil 20Mbit burst 9999.b'
	assert_line --regexp '^class htb 1:11 parent 1:1 .*rate 39679Kbit ceil 40Mbit burst 999..b'
	assert_line --partial 'meta cgroup 65552 meta priority set 1:10'
	assert_line "$NC/$ID/shop.a/net_cls.classid:65552"
	assert_line "$NC/$ID/shop.b/net_cls.classid:65553"
	# a process in a capsule's cgroup: moved out by remove
	sleep 30 &
	echo $! >>"$T/pids"
	echo $! >"$NC/$ID/shop.a/cgroup.procs"
	run -0 ip netns exec "${ID}a" env OVB_NET_CLS="$NC" "$T/s/n1.remove.sh"
	tc_state >"$T/after"
	diff "$T/before" "$T/after" || fail "remove left something"
	[[ ! -e $NC/$ID ]] || fail "remove left $NC/$ID"
	grep -qx "$(cat "$T/pids")" "$NC/cgroup.procs" || fail "the process was not moved to the root cgroup"
	# and remove again: nothing to do, no error
	run -0 ip netns exec "${ID}a" env OVB_NET_CLS="$NC" "$T/s/n1.remove.sh"
}

@test "tc --script: two capsules at full speed, each shaped to its planned rate within 10%; unmatched traffic in the default class" {
	need_tc
	tc_plan
	net_cls
	veth
	run -0 --separate-stderr ovb-enforce -t tc --dev vA --cgroup "$ID/%a.%c" --script "$T/s" "$T/c" "$T/p"
	run -0 ip netns exec "${ID}a" env OVB_NET_CLS="$NC" "$T/s/n1.apply.sh"
	ip netns exec "${ID}b" "$PY" "$SHAPE" sink 5001 "$T/sink.log" &
	echo $! >>"$T/pids"
	sleep 0.5
	local k
	for k in a b; do
		ip netns exec "${ID}a" sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" send 10.199.0.2 5001 6 "$4"' \
			sh "$NC/$ID/shop.$k" "$PY" "$SHAPE" "$T/port.$k" &
		echo $! >>"$T/pids"
	done
	# a flow of no capsule (the namespace's root cgroup)
	ip netns exec "${ID}a" "$PY" "$SHAPE" send 10.199.0.2 5001 6 "$T/port.none" &
	echo $! >>"$T/pids"
	sleep 2
	local t1 t2
	t1=$(date +%s.%N)
	ip netns exec "${ID}a" tc -s class show dev vA >"$T/snap1"
	sleep 3
	t2=$(date +%s.%N)
	ip netns exec "${ID}a" tc -s class show dev vA >"$T/snap2"
	sleep 1.5
	# the rates at the shaper (bytes on the wire) and at the sink (TCP
	# payload: 1448 of 1514 B a frame)
	mapfile -t q < <("$PY" "$SHAPE" tc "$T/snap1" "$T/snap2" "$t1" "$t2" 1:10 1:11 1:2)
	mapfile -t r < <("$PY" "$SHAPE" rates "$T/sink.log" "$t1" "$t2" "$T/port.a" "$T/port.b" "$T/port.none")
	echo "# at the shaper (B/s): a ${q[0]} b ${q[1]} default ${q[2]}; at the sink: a ${r[0]} b ${r[1]} none ${r[2]}" >&3
	# planned: sigma (the class's ceil; the link has room) 2500000 and
	# 5000000 B/s
	within() { # NAME MEASURED PLANNED
		awk -v m="$2" -v p="$3" 'BEGIN { exit !(m >= 0.9 * p && m <= 1.1 * p) }' ||
			fail "$1: $2 B/s is not within 10% of $3 B/s"
	}
	within "a at the shaper" "${q[0]}" 2500000
	within "b at the shaper" "${q[1]}" 5000000
	within "a at the sink" "${r[0]}" 2500000
	within "b at the sink" "${r[1]}" 5000000
	# the unmatched flow: in the default class (its bytes are the default
	# class's, within 10%), which has what the capsules leave of the link
	within "the unmatched flow against the default class" "${r[2]}" "${q[2]}"
	within "the default class" "${q[2]}" $((12500000 - q[0] - q[1]))
	run -0 ip netns exec "${ID}a" env OVB_NET_CLS="$NC" "$T/s/n1.remove.sh"
}

# cgroup_state ROOT: the cgroups of the test under ROOT and their files
cgroup_state() {
	local f
	find "$1" -path "*/$ID*" -type d 2>/dev/null | sort
	for f in $(find "$1" -path "*/$ID/*" -type f \( -name 'cpu.cfs_*' -o \
		-name cpu.shares -o -name cpu.max -o -name cpu.max.burst -o \
		-name cpu.weight -o -name 'memory.*limit_in_bytes' -o \
		-name memory.min -o -name memory.max \) 2>/dev/null | sort); do
		echo "$f $(cat "$f")"
	done
}

# the plan of the cgroup tests: cpu and memory on one node
cg_plan() {
	printf 'ovb-cluster 1\nnode n1 4 cpu 125000000 B/s mem 2147483648 B\n' >"$T/c"
	cat >"$T/p" <<-EOF
	ovb-plan 1
	place shop db n1 -
	qos shop db cpu 0.5 0.01 1 0
	qos shop db mem 1610612736 1717986918 900 0.5
	place shop web n1 -
	qos shop web cpu 1.5 0.02 1 0.01
	EOF
}

# apply_twice TARGET ROOT: apply, apply again (the same state, the values
# of ovb-enforce's own output), remove (nothing left)
apply_twice() {
	local t=$1 root=$2
	run -0 --separate-stderr ovb-enforce -t "$t" --cgroup "$ID/%a.%c" --script "$T/s" "$T/c" "$T/p"
	cgroup_state "$root" >"$T/before"
	run -0 env OVB_CGROUP_ROOT="$root" "$T/s/n1.apply.sh"
	cgroup_state "$root" >"$T/once"
	run -0 env OVB_CGROUP_ROOT="$root" "$T/s/n1.apply.sh"
	cgroup_state "$root" >"$T/twice"
	diff "$T/once" "$T/twice" || fail "$t: a second apply changed the state"
	# the values read back are ovb-enforce's NODE/APP.CAPSULE/FILE VALUE
	run -0 --separate-stderr ovb-enforce -t "$t" "$T/c" "$T/p"
	local path v f n=0
	while read -r path v; do
		f=$(grep -l . "$root"/*/"$ID/${path#n1/}" "$root/$ID/${path#n1/}" 2>/dev/null | head -1)
		[[ -n $f ]] || fail "$t: $path was not written"
		[[ $(cat "$f") == "$v" ]] || fail "$t: $f is $(cat "$f"), not $v"
		n=$((n + 1))
	done < <(grep '^n1/' <<<"$output")
	((n >= 8)) || fail "$t: only $n files"
	sleep 30 &
	echo $! >>"$T/pids"
	f=$(find "$root" -path "*/$ID/shop.db" -type d | head -1)
	echo $! >"$f/cgroup.procs"
	run -0 env OVB_CGROUP_ROOT="$root" "$T/s/n1.remove.sh"
	cgroup_state "$root" >"$T/after"
	diff "$T/before" "$T/after" || fail "$t: remove left something"
	[[ ! -s $T/after ]] || fail "$t: $(cat "$T/after")"
}

@test "cgroup1 --script: apply twice, the same state (the values ovb-enforce prints); remove, nothing left" {
	grep -q ' /sys/fs/cgroup/cpu cgroup .*cpu' /proc/mounts ||
		skip "the v1 cpu controller is not at /sys/fs/cgroup/cpu (cgroup v2 here: the next test)"
	cg_plan
	apply_twice cgroup1 /sys/fs/cgroup
}

@test "cgroup1 --script --cgroup APP/CAPSULE=PATH: a capsule in its own unit's cgroup, the others by the template" {
	grep -q ' /sys/fs/cgroup/cpu cgroup .*cpu' /proc/mounts ||
		skip "the v1 cpu controller is not at /sys/fs/cgroup/cpu"
	cg_plan
	run -0 --separate-stderr ovb-enforce -t cgroup1 --cgroup "$ID/%a.%c" --cgroup "shop/db=$ID/units/postgresql.service" --script "$T/s" "$T/c" "$T/p"
	run -0 env OVB_CGROUP_ROOT=/sys/fs/cgroup "$T/s/n1.apply.sh"
	[[ -d /sys/fs/cgroup/cpu/$ID/units/postgresql.service && -d /sys/fs/cgroup/memory/$ID/units/postgresql.service ]] || fail "no db cgroup"
	[[ -d /sys/fs/cgroup/cpu/$ID/shop.web && ! -e /sys/fs/cgroup/cpu/$ID/shop.db ]] || fail "$(find /sys/fs/cgroup/cpu/$ID)"
	run -0 env OVB_CGROUP_ROOT=/sys/fs/cgroup "$T/s/n1.remove.sh"
	[[ ! -e /sys/fs/cgroup/cpu/$ID && ! -e /sys/fs/cgroup/memory/$ID ]] || fail "remove left $(find /sys/fs/cgroup/*/$ID)"
	# a capsule not in the plan: a usage error, nothing written
	run -64 --separate-stderr ovb-enforce -t cgroup1 --cgroup "shop/dbb=x" --script "$T/s2" "$T/c" "$T/p"
	[[ $stderr == *"--cgroup shop/dbb=x: no capsule shop/dbb in"* ]] || fail "$stderr"
	[[ ! -e $T/s2 ]] || fail "written: $(ls "$T/s2")"
	run -64 --separate-stderr ovb-enforce -t tc --cgroup "shop=x" "$T/c" "$T/p"
	run -64 --separate-stderr ovb-enforce -t tc --cgroup "shop/db=%a" "$T/c" "$T/p"
}

@test "cgroup --script (v2): apply twice, the same state; remove, nothing left" {
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[[ -n $root ]] || skip "no cgroup v2 mounted"
	grep -qw cpu "$root/cgroup.controllers" && grep -qw memory "$root/cgroup.controllers" ||
		skip "cgroup v2 at $root has no cpu and memory controllers (they are on v1 here: the cgroup1 test)"
	cg_plan
	apply_twice cgroup "$root"
}

@test "--script: usage errors, a node name that cannot name a file, a cgroup path that leaves its root" {
	tc_plan
	run -64 --separate-stderr ovb-enforce -t sched-deadline --script "$T/s" "$T/c" "$T/p"
	[[ $stderr == *"--script: cgroup, cgroup1 or tc"* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-enforce -t tc --script "$T/s" -o "$T/o" "$T/c" "$T/p"
	run -64 --separate-stderr ovb-enforce -t tc --cgroup '/abs/%a' --script "$T/s" "$T/c" "$T/p"
	run -64 --separate-stderr ovb-enforce -t tc --cgroup 'x/../%a' --script "$T/s" "$T/c" "$T/p"
	run -64 --separate-stderr ovb-enforce -t tc --cgroup 'x/%z' --script "$T/s" "$T/c" "$T/p"
	sed 's|^place shop a n1|place x/.. a n1|; s|^qos shop a|qos x/.. a|' "$T/p" >"$T/p2"
	cmp -s "$T/p" "$T/p2" && fail "sed changed nothing"
	run -65 --separate-stderr ovb-enforce -t tc --cgroup '%a/%c' --script "$T/s2" "$T/c" "$T/p2"
	[[ $stderr == *"leaves its root"* ]] || fail "$stderr"
	[[ ! -e $T/s2/n1.apply.sh ]] || fail "a script written after an error"
}

@test "-q: no clamp warnings; the --help examples name what the output has; tc's default class and classids on stdout" {
	local CL=$DATA/example.cluster PL=$DATA/example.plan
	run -0 --separate-stderr ovb-enforce -t tc --clamp "$CL" "$PL"
	[[ $stderr == *"clamped to the limit"* ]] || fail "no warning without -q: $stderr"
	run -0 --separate-stderr ovb-enforce -t tc --clamp -q "$CL" "$PL"
	assert_equal "$stderr" ''
	assert_line "tc qdisc add dev eth0 root handle 1: htb default 2"
	# example.cluster n1: 125000000 B/s; web's rate 35720000 bit/s
	assert_line "tc class add dev eth0 parent 1:1 classid 1:2 htb rate 964280000bit ceil 1000000000bit"
	assert_line "# shop/web: cgroup ovb.slice/ovb-shop.web.service, net_cls.classid 0x00010010"
	# the help's cgroup example: NODE/APP.CAPSULE/FILE, as the output
	run -0 ovb-enforce --help
	assert_line --partial "NODE/APP.CAPSULE/FILE VALUE"
	run -0 --separate-stderr ovb-enforce -t cgroup "$CL" "$PL"
	local node app cap n=0
	while read -r _ app cap node _; do
		grep -q "^$node/$app\.$cap/cpu\.max " <<<"$output" || fail "no $node/$app.$cap/cpu.max"
		n=$((n + 1))
	done < <(grep '^place ' "$PL")
	((n >= 3)) || fail "only $n placements"
}
