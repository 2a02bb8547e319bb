#!/usr/bin/env bats
# ovb-reserves --serve / --worker-cmd: the groups of the hierarchy solved
# by workers that a command starts (ssh, srun, ...), over the versioned,
# byte-order-defined protocol of formats/worker.md.  The ssh here is a
# stand-in that drops its options and the host and runs the command
# locally; Slurm runs only where it is installed and we are root.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/fake"
	# stand-in ssh: logs the host, drops options and host, runs locally
	cat >"$T/fake/ssh" <<-'EOS'
	#!/bin/sh
	while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
	echo "$1" >>"${FAKE_SSH_LOG:-/dev/null}"
	shift
	exec sh -c "$*"
	EOS
	chmod +x "$T/fake/ssh"
	export FAKE_SSH_LOG=$T/hosts.log
}

gen() {
	python3 "$ORACLE/reserves_gen.py" "$@"
}

# greeting: the documented example greeting of formats/worker.md
# (version 2, 2 classes, lp, steps 3, floor 1, accuracy 1e-4, c 2, keep 0, D 60 40),
# built independently with Python's struct ('<' = little-endian).
greeting() {
	python3 -c '
import struct, sys
b = b"ovb-wrk\n" + struct.pack("<QQQQQQ", 2, 2, 0, 3, 0, 0)
b += struct.pack("<dddd", 1.0, 1e-4, 2.0, 0.0) + struct.pack("<dd", 60, 40)
sys.stdout.buffer.write(b)' "$@"
}

@test "--serve answers the documented greeting with the magic and version 2" {
	greeting | ovb-reserves --serve >"$T/ans"
	[[ $(od -An -tx1 "$T/ans" | tr -d ' \n') == 6f76622d77726b0a0200000000000000 ]]
	# the greeting's bytes are the ones formats/worker.md prints
	greeting | od -An -tx1 | tr -s ' \n' ' ' >"$T/mine"
	sed -n '/^## Example/,$p' "$OVB_ROOT/formats/worker.md" |
		grep -E '^    [0-9a-f]{2} ' | tr -s ' \n' ' ' >"$T/doc"
	[[ $(tr -d ' ' <"$T/mine") == $(tr -d ' ' <"$T/doc") ]]
}

@test "--serve: one group solved over the protocol is the flat problem's R" {
	# 2 nodes, 2 classes: u and r, then SOLVE for T = N D, SYNC
	python3 -c '
import struct, sys
b = b"ovb-wrk\n" + struct.pack("<QQQQQQ", 2, 2, 0, 3, 0, 0)
b += struct.pack("<dddd", 1.0, 1e-4, 2.0, 0.0) + struct.pack("<dd", 60, 40)
u = [70, 10, 30, 50]; r = [60, 40, 60, 40]
b += struct.pack("<QQQ", 1, 0, 2) + struct.pack("<8d", *u, *r)
b += struct.pack("<QQ", 2, 0) + struct.pack("<dd", 120, 80)
b += struct.pack("<Q", 3)
sys.stdout.buffer.write(b)' | ovb-reserves --serve >"$T/ans"
	python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"ovb-wrk\n" and struct.unpack_from("<Q", b, 8)[0] == 2
o = 16
st, = struct.unpack_from("<Q", b, o); o += 8
assert st == 0, st
o += 9 * 8 + 6 * 8 + 2 * 8            # statistics, column sums
R = struct.unpack_from("<4d", b, o); o += 32
assert o == len(b), (o, len(b))
print(" ".join("%.6f" % x for x in R))' "$T/ans" >"$T/R"
	cat >"$T/in" <<-EOF
	ovb-reserves 1
	class c1 60
	class c2 40
	node n1
	node n2
	round 1
	u n1 c1 70
	u n1 c2 10
	u n2 c1 30
	u n2 c2 50
	r n1 c1 60
	r n1 c2 40
	r n2 c1 60
	r n2 c2 40
	EOF
	ovb-reserves "$T/in" | awk '$1 == "R" { printf "%s%.6f", n++ ? " " : "", $4 }
		END { print "" }' >"$T/flat"
	cmp "$T/R" "$T/flat"
}

@test "--serve: bad magic, unknown version, unknown message: 65 with a message" {
	run -65 --separate-stderr bash -c 'printf "hello, world, this is not it" | ovb-reserves --serve'
	[[ $stderr == *"--serve: <stdin>: bad magic (not the ovb-worker 2 protocol of formats/worker.md)"* ]]
	run -65 --separate-stderr bash -c "python3 -c 'import struct,sys; sys.stdout.buffer.write(b\"ovb-wrk\\n\" + struct.pack(\"<Q\", 1))' | ovb-reserves --serve"
	[[ $stderr == *"unknown protocol version"* ]]
	run -65 --separate-stderr bash -c "{ $(declare -f greeting); greeting; python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack(\"<QQ\", 9, 0))'; } | ovb-reserves --serve"
	[[ $stderr == *"unknown message"* ]]
	run -64 --separate-stderr ovb-reserves --serve "$T/in"
}

@test "--worker-cmd over a stand-in ssh: the same bytes as one process (lp, bank, rounds)" {
	gen --seed 41 --nodes 50 --classes 5 --rounds 4 >"$T/in"
	ovb-reserves --fanout 8 "$T/in" >"$T/one"
	PATH=$T/fake:$PATH ovb-reserves --fanout 8 --hosts alpha,beta \
		--worker-cmd 'ssh -T %h ovb-reserves --serve' "$T/in" >"$T/ssh"
	cmp "$T/one" "$T/ssh"
	# one worker per host by default, %h replaced by each host
	[[ $(sort "$FAKE_SSH_LOG" | tr '\n' ' ') == "alpha beta " ]]
	ovb-reserves -m bank --bank-keep 1 --fanout 8 "$T/in" >"$T/b1"
	PATH=$T/fake:$PATH ovb-reserves -m bank --bank-keep 1 --fanout 8 -j 3 \
		--hosts h1 --worker-cmd 'ssh %h ovb-reserves --serve' "$T/in" >"$T/b3"
	cmp "$T/b1" "$T/b3"
	# steps 1-2, random grouping, several passes, 5 workers on 2 hosts
	gen --seed 43 --nodes 90 --classes 7 --rounds 3 --no-r --usage blocky >"$T/in2"
	ovb-reserves --steps 2 --fanout 9 --grouping random "$T/in2" >"$T/one2"
	PATH=$T/fake:$PATH ovb-reserves --steps 2 --fanout 9 --grouping random \
		-j 5 --hosts a,b --worker-cmd 'ssh -T %h ovb-reserves --serve' \
		"$T/in2" >"$T/ssh2"
	cmp "$T/one2" "$T/ssh2"
}

@test "--worker-cmd that fails or does not speak the protocol: 69, nothing written" {
	gen --seed 44 --nodes 20 --classes 3 >"$T/in"
	run -69 --separate-stderr ovb-reserves --fanout 5 --worker-cmd false "$T/in" -o "$T/o"
	[[ ! -e $T/o ]]
	[[ $stderr == *"worker 1: false: "* ]]
	run -69 --separate-stderr ovb-reserves --fanout 5 --worker-cmd 'echo hi' "$T/in" -o "$T/o"
	[[ ! -e $T/o ]]
	# it may exit before or after the greeting has been written to it
	[[ $stderr == *"echo hi: no ovb-worker 2 greeting"* ||
		$stderr == *"echo hi: cannot write to it"* ]]
	run -69 --separate-stderr ovb-reserves --fanout 5 --worker-cmd 'cat' "$T/in" -o "$T/o"
	[[ ! -e $T/o ]]
	[[ $stderr == *"a worker process died or broke the ovb-worker protocol"* ]]
	run -64 --separate-stderr ovb-reserves --fanout 5 --hosts 'a,,b' --worker-cmd cat "$T/in"
}

load slurm

teardown() {
	slurm_stop
}

@test "Slurm: workers started by srun on a single-host cluster" {
	command -v srun >/dev/null && command -v slurmctld >/dev/null &&
		command -v slurmd >/dev/null && command -v munged >/dev/null ||
		skip "Slurm is not installed (slurm-wlm, munge); the stand-in ssh test covers --worker-cmd"
	[[ $(id -u) == 0 ]] || skip "a private single-host Slurm needs root (slurmd runs tasks as their user)"
	slurm_start
	gen --seed 41 --nodes 50 --classes 5 --rounds 3 >"$T/in"
	ovb-reserves --fanout 8 "$T/in" >"$T/one"
	# -u: slurmstepd passes the protocol's bytes on as they come (by
	# default it holds output back until a newline)
	run -0 --separate-stderr timeout 120 ovb-reserves --fanout 8 -j 2 \
		--worker-cmd 'srun -N1 -n1 -u --quiet ovb-reserves --serve' \
		"$T/in" -o "$T/srun"
	cmp "$T/srun" "$T/one"
	# the workers were Slurm job steps
	grep -q 'launch task StepId=' "$SL/slurmd.log"
}
