#!/bin/bash
# devq-stress.sh [-n RUNS] [-s SIZE] [-k DIR] MODE...: repeated live
# recordings (ovb-capture --net=devq) of a TCP transfer between two network
# namespaces over a veth pair, MODE tcp (sendall) or sendfile (sendfile(2)),
# each read by ovb-onoff and checked against the bytes the trace shows
# queued on the sender's device, read with perf script (issue 30 item 3).
#
# The sender (ovbsend) is the only process in its namespace, so every byte
# queued on its veth end is its own: ovb-onoff --iface THAT must credit them
# to the sender or report them as not credited, and credit none to the
# receiver (ovbrecv) or to any other process (a third capsule, comm:.).
# A run passes when: receiver 0 B, others 0 B, sender + not credited = the
# bytes queued, and the sender within 0.1 % of them.  Prints one line per
# run and a summary; keeps every trace in DIR (default a new directory
# under /tmp, printed).  Root; holds /tmp/ovb-perf.lock per recording
# (not when OVB_PERF_LOCKED is set: the caller holds it).  -r: read the
# traces kept in DIR again (after a change of ovb-onoff), recording none.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PATH=$here/bin:$PATH
runs=50 size=8388608 keep= reread=
while getopts n:s:k:r o; do
	case $o in
	r) reread=1 ;;
	n) runs=$OPTARG ;;
	s) size=$OPTARG ;;
	k) keep=$OPTARG ;;
	*) exit 64 ;;
	esac
done
shift $((OPTIND - 1))
(($#)) || { echo "usage: $0 [-n RUNS] [-s SIZE] [-k DIR] tcp|sendfile..." >&2; exit 64; }
keep=${keep:-$(mktemp -d /tmp/ovb-devq.XXXXXX)}
mkdir -p "$keep"
# check D MODE I: one run's line; counts fails
fails=0 total=0
check() {
	local d=$1 mode=$2 i=$3 dev queued s r x u rel ok
	dev=$(cat "$d/dev")
	queued=$(perf script -i "$d/t.data" -F event,trace 2>/dev/null |
		awk -v dev="$dev" '/net:net_dev_queue/ && $0 ~ ("dev=" dev " ") {
			if (match($0, /len=[0-9]+/)) s += substr($0, RSTART + 4, RLENGTH - 4) }
			END { print s + 0 }')
	ovb-onoff -v --iface "$dev" -c 'snd=comm:^ovbsend$' -c 'rcv=comm:^ovbrecv$' \
		-c 'others=comm:.' -o "$d/t.onoff" "$d/t.data" 2>"$d/onoff.err" || true
	read -r s r x < <(awk '$1 == "send" { b[$2] += $4 }
		END { print b["snd"] + 0, b["rcv"] + 0, b["others"] + 0 }' "$d/t.onoff" 2>/dev/null || echo "0 0 0")
	u=$(sed -nE "s/.*, ([0-9]+) not credited.*/\1/p" "$d/onoff.err" | tail -1)
	u=${u:-0}
	rel=$(awk -v s="$s" -v q="$queued" 'BEGIN { printf "%.5f", q ? (s - q) / q : 1 }')
	ok=yes
	if ((r || x || s + u != queued || queued == 0)) ||
	    ! awk -v r="$rel" 'BEGIN { exit !(r <= 0.001 && r >= -0.001) }'; then
		ok=NO fails=$((fails + 1))
	fi
	total=$((total + 1))
	printf '  %-8s %4d %10d %10d %8d %8d %6d %9s %s\n' "$mode" "$i" \
		"$queued" "$s" "$r" "$x" "$u" "$rel" "$ok"
	[[ $ok == NO ]] || rm -f "$d/t.onoff"
}
header() {
	printf '# %-8s %4s %10s %10s %8s %8s %6s %9s %s\n' mode run queued sender receiver others uncred rel ok
}
if [[ -n $reread ]]; then
	echo "# the traces kept in $keep, read again"
	header
	for mode in "$@"; do
		for ((i = 1; i <= runs; i++)); do
			[[ -f $keep/$mode-$i/t.data ]] && check "$keep/$mode-$i" "$mode" "$i"
		done
	done
	echo "# $((total - fails)) of $total runs passed"
	exit $((fails > 0))
fi
tag=ovb$$
A=${tag}a B=${tag}b DA=${tag}s DB=${tag}r   # namespaces, devices (<= 15 chars)
cleanup() {
	ip netns del "$A" 2>/dev/null || true
	ip netns del "$B" 2>/dev/null || true
	if ! mountpoint -q /sys/kernel/tracing; then
		mount -t tracefs nodev /sys/kernel/tracing || true
	fi
}
trap cleanup EXIT
ip netns add "$A"
ip netns add "$B"
# IPv4 only: the kernel's own IPv6 traffic (neighbour discovery, MLD,
# sent by kworkers) would be on the sender's device too
for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
done
ip link add "$DA" netns "$A" type veth peer name "$DB" netns "$B"
ip -n "$A" addr add 10.231.0.1/30 dev "$DA"
ip -n "$B" addr add 10.231.0.2/30 dev "$DB"
ip -n "$A" link set "$DA" up
ip -n "$B" link set "$DB" up
ip -n "$A" link set lo up
ip -n "$B" link set lo up
send=$here/t/live/veth-send.py
lock=(flock /tmp/ovb-perf.lock)
[[ -z ${OVB_PERF_LOCKED:-} ]] || lock=()
echo "# traces kept in $keep; $runs runs of $size B per mode; device $DA"
header
for mode in "$@"; do
	for ((i = 1; i <= runs; i++)); do
		d=$keep/$mode-$i
		mkdir -p "$d"
		port=$((20000 + (i % 20000)))
		"${lock[@]}" ovb-capture -q --net=devq -o "$d/t.data" -- \
			sh -c "ip netns exec $B python3 $send recv 10.231.0.2 $port >'$d/recv.out' &
				ip netns exec $A python3 $send send 10.231.0.2 $port $size $mode >'$d/send.out'; wait"
		echo "$DA" >"$d/dev"
		check "$d" "$mode" "$i"
	done
done
echo "# $((total - fails)) of $total runs passed"
((fails == 0))
