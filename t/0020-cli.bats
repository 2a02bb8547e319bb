#!/usr/bin/env bats
# The command-line conventions of every tool (ovb(7), "Exit status"):
# --help has an EXAMPLES block and the exit-status table, an unknown option
# exits 64, a missing input exits 66 naming it, bad data exits 65 with
# "ovb-x: FILE:..." and `-o DIR/out` then leaves nothing in DIR, and a full
# stdout exits 74 with one message.  The tools are found by globbing
# tools/*/ovb-*.c, so a new tool is covered (and must be given a valid
# invocation in args() below, or an exemption with its reason).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
}

# Conventions a tool cannot follow, with the reason.  Exempt tools still
# get the --help and unknown-option checks.
declare -gA EXEMPT=(
	[ovb-capture]="records with perf rather than reads a file: no input to miss or corrupt, and its output is perf's (needs tracing permission; t/0110-capture.bats)"
)

# tools: the name of every tools/*/ovb-*.c.
tools() {
	local src
	for src in "$BATS_TEST_DIRNAME"/../tools/*/ovb-*.c; do
		basename "$src" .c
	done
}

# args TOOL: sets A to the arguments of a valid invocation that writes to
# stdout; the word starting with @ is the input the tests replace (with a
# missing file, or with a copy made bad near its end: BADEND says how).
args() {
	BADEND=record
	case $1 in
	ovb-backtest) A=(--start 0 --train 600s --replay 600s --cpus 4 "@$DATA/backtest-small.series") ;;
	ovb-check)
		# a cluster too small for the plan: violations on stdout (exit 1)
		sed -E 's/^node a 3.5 cpu/node a 1 cpu/' "$DATA/check-cluster" >"$T/small.cluster"
		A=("@$T/small.cluster" "$DATA/check-apps" "$DATA/check-plan" "$DATA/check-profile") ;;
	ovb-convolve) A=(-r cpu -C 1 "@$DATA/example.usage") ;;
	ovb-enforce) A=(-t cgroup "@$DATA/example.cluster" "$DATA/example.plan") ;;
	ovb-rt) A=("@$DATA/example.rt") ;;
	ovb-fit) A=(--more shop "@$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile") ;;
	ovb-fmt) A=(-c "@$DATA/example.plan") ;;
	ovb-import) A=(--bitbrains "@$DATA/replay-bitbrains.csv") ;;
	ovb-market) A=("$DATA/market-fig3.cluster" "@$DATA/example.bids") ;;
	ovb-merge) A=("@$DATA/example.profile") ;;
	ovb-rebalance) A=("$DATA/market-fig3.cluster" "@$DATA/example.bids") ;;
	ovb-onoff)
		BADEND=truncate
		A=(-c 'all=comm:.' "@$(unpack_fixture nginx)") ;;
	ovb-place) A=("@$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile") ;;
	ovb-profile) A=(-O 0.01 -t 1 "@$DATA/example.usage" "$DATA/example.curve") ;;
	ovb-replay) A=("@$DATA/replay-small.plan" "$DATA/replay-small.cluster" "$DATA/replay-small.series") ;;
	ovb-report) A=("@$DATA/example.profile") ;;
	ovb-reserves) A=("@$DATA/example.reserves") ;;
	ovb-tbucket) A=("@$DATA/example.onoff") ;;
	ovb-trade) A=(-r net "@$DATA/trade-stream.series" "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps") ;;
	ovb-usage) A=("@$DATA/example.onoff") ;;
	*) return 1 ;;
	esac
}

# with TOOL WHAT: sets A as args does, with the @ input replaced by WHAT:
# "valid" (the input itself), "missing" ($T/no/such), or "bad" (a copy
# with an unknown record appended, or cut short: $T/bad); sets IN to it.
with() {
	args "$1" || return 1
	local i x
	for i in "${!A[@]}"; do
		x=${A[$i]}
		[[ $x == @* ]] || continue
		x=${x#@}
		case $2 in
		valid) IN=$x ;;
		missing) IN=$T/no/such ;;
		bad)
			IN=$T/bad
			if [[ $BADEND == truncate ]]; then
				head -c $(($(wc -c <"$x") / 2)) "$x" >"$IN"
			else
				{ cat "$x"; echo 'no-such-record 1 2'; } >"$IN"
			fi ;;
		esac
		A[$i]=$IN
	done
}

# Failures are collected over all tools and reported together.
F=()
failed() { F+=("$1: $2"); }
report() {
	((${#F[@]} == 0)) && return 0
	printf '%s\n' "${F[@]}" >&2
	fail "${#F[@]} convention(s) broken"
}

@test "cli: every tool is built, on PATH, and has a valid invocation here or an exemption" {
	local t n=0
	for t in $(tools); do
		n=$((n + 1))
		command -v "$t" >/dev/null || failed "$t" "not on PATH (not built?)"
		args "$t" || [[ -n ${EXEMPT[$t]} ]] ||
			failed "$t" "no entry in args() of t/0020-cli.bats, and no exemption"
	done
	((n >= 13)) || failed tools "only $n tools found under tools/"
	report
}

@test "cli: --help has an EXAMPLES block invoking the tool and the exit-status table" {
	local t h flat code
	for t in $(tools); do
		run -0 --separate-stderr "$t" --help
		[[ -z $stderr ]] || failed "$t" "--help wrote on stderr: $stderr"
		h=$output
		# "EXAMPLES:" on a line of its own, then an indented line running the tool
		grep -qx 'EXAMPLES:' <<<"$h" || { failed "$t" "--help has no EXAMPLES: line"; continue; }
		sed -n '/^EXAMPLES:$/,$p' <<<"$h" | grep -qE "^  +$t( |$)" ||
			failed "$t" "the EXAMPLES block has no indented line running $t"
		flat=$(tr -s ' \n' '  ' <<<"$h")
		[[ $flat == *"Exit status: 0 success;"* ]] ||
			failed "$t" "--help has no 'Exit status: 0 success;' table"
		for code in '64 usage error' '74 I/O error'; do
			[[ $flat == *"$code"* ]] || failed "$t" "the exit-status table lacks '$code'"
		done
		# status 1 only where a check can fail (ovb(7), "Exit status")
		case $t in
		ovb-check|ovb-fmt|ovb-place|ovb-replay|ovb-trade|ovb-rt|ovb-fit)
			[[ $flat == *"1 a check failed"* ]] ||
				failed "$t" "its exit-status table lacks '1 a check failed'" ;;
		*)
			[[ $flat != *"1 a check failed"* ]] ||
				failed "$t" "lists '1 a check failed', but it has no check" ;;
		esac
		[[ -n ${EXEMPT[$t]} ]] && continue
		for code in '65 bad input data' '66 cannot open an input'; do
			[[ $flat == *"$code"* ]] || failed "$t" "the exit-status table lacks '$code'"
		done
	done
	report
}

@test "cli: an unknown option exits 64, names the option, writes nothing on stdout" {
	local t
	for t in $(tools); do
		run --separate-stderr "$t" --no-such-option
		((status == 64)) || failed "$t" "exit $status on an unknown option, not 64"
		[[ -z $output ]] || failed "$t" "wrote on stdout: $output"
		[[ $stderr == *no-such-option* ]] || failed "$t" "stderr does not name the option: $stderr"
	done
	report
}

@test "cli: a missing input exits 66 with a message naming the file" {
	local t
	for t in $(tools); do
		[[ -n ${EXEMPT[$t]} ]] && continue
		with "$t" missing
		run --separate-stderr "$t" -q "${A[@]}"
		((status == 66)) || failed "$t" "exit $status on a missing input, not 66: $stderr"
		[[ $stderr == "$t: $IN: "* ]] || failed "$t" "the message does not start '$t: $IN: ': $stderr"
	done
	report
}

@test "cli: -o DIR/out on bad data exits 65 (ovb-x: FILE:...) and leaves DIR empty" {
	local t d
	for t in $(tools); do
		[[ -n ${EXEMPT[$t]} ]] && continue
		# the valid input writes DIR/out: the test can see a file there
		d=$T/ok-$t
		mkdir "$d"
		with "$t" valid
		run --separate-stderr "$t" -q -o "$d/out" "${A[@]}"
		((status <= 1)) || failed "$t" "exit $status on its valid input: $stderr"
		[[ $(ls -A "$d") == out && -s $d/out ]] || failed "$t" "-o $d/out wrote: $(ls -A "$d")"
		d=$T/bad-$t
		mkdir "$d"
		with "$t" bad
		run --separate-stderr "$t" -q -o "$d/out" "${A[@]}"
		((status == 65)) || failed "$t" "exit $status on bad data, not 65: $stderr"
		[[ $stderr == "$t: $IN:"* ]] || failed "$t" "the message does not start '$t: $IN:': $stderr"
		[[ -z $(ls -A "$d") ]] || failed "$t" "left in the -o directory: $(ls -A "$d")"
	done
	report
}

@test "cli: a full stdout (/dev/full) exits 74 with one message" {
	[[ -w /dev/full ]] || skip "no /dev/full"
	local t
	for t in $(tools); do
		[[ -n ${EXEMPT[$t]} ]] && continue
		with "$t" valid
		# the same invocation writes something when stdout has room
		"$t" -q "${A[@]}" >"$T/stdout" 2>/dev/null || true
		[[ -s $T/stdout ]] || { failed "$t" "its valid invocation writes nothing"; continue; }
		run --separate-stderr bash -c '"$@" >/dev/full' - "$t" -q "${A[@]}"
		((status == 74)) || failed "$t" "exit $status on a full stdout, not 74"
		[[ $stderr == "$t: "*"write error"* && $stderr != *$'\n'* ]] ||
			failed "$t" "not one write-error message: $stderr"
	done
	report
}

# closed CMD...: runs CMD with stdout a pipe whose reader is already gone
# and SIGPIPE ignored (as after `trap '' PIPE`), so that every write is
# EPIPE; its stderr and status come back as its own (128+N for a signal).
closed() {
	/usr/bin/python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
# Python ignores SIGPIPE; restore_signals=False keeps it ignored in CMD
p = subprocess.run(sys.argv[1:], stdout=w, stdin=subprocess.DEVNULL,
                   restore_signals=False)
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)' "$@"
}

# write_errors HOW: every tool's valid invocation (and ovb-reserves with
# two worker processes) on a broken output: "full" (stdout /dev/full),
# "-o" (-o /dev/full) or "pipe" (a closed pipe, SIGPIPE ignored): exit 74
# and exactly one line on stderr, the write error naming the output.
write_errors() {
	local t want why
	for t in $(tools) ovb-reserves-j2; do
		[[ -n ${EXEMPT[$t]} ]] && continue
		if [[ $t == ovb-reserves-j2 ]]; then
			t=ovb-reserves
			with "$t" valid
			A=(-j 2 --fanout 2 "${A[@]}")
		else
			with "$t" valid
		fi
		case $1 in
		full)
			want="$t: <stdout>: write error: No space left on device"
			run --separate-stderr bash -c '"$@" >/dev/full' - "$t" -q "${A[@]}" ;;
		-o)
			want="$t: /dev/full: write error: No space left on device"
			run --separate-stderr "$t" -q -o /dev/full "${A[@]}" ;;
		pipe)
			want="$t: <stdout>: write error: Broken pipe"
			run --separate-stderr closed "$t" -q "${A[@]}" ;;
		esac
		why=
		((status == 74)) || why="exit $status, not 74; "
		[[ $stderr == "$want" ]] || why+="stderr is not the one line '$want'"
		[[ -z $why ]] || failed "$t ${A[*]:0:2}" "$why: $stderr"
	done
	report
}

@test "cli: -o /dev/full exits 74 with one message naming it (every tool, ovb-reserves -j 2)" {
	[[ -w /dev/full ]] || skip "no /dev/full"
	write_errors -o
}

@test "cli: a full stdout, every tool and ovb-reserves -j 2: 74, the message once" {
	[[ -w /dev/full ]] || skip "no /dev/full"
	write_errors full
}

@test "cli: a closed pipe with SIGPIPE ignored: EPIPE reported once, 74 (every tool, ovb-reserves -j 2)" {
	write_errors pipe
}

@test "cli: a worker (ovb-reserves --serve) reports its write errors as the tools do" {
	# a parent's greeting (formats/worker.md, version 2): 1 class, lp, 3 steps; the
	# worker answers with its magic, then the input ends
	/usr/bin/python3 -c '
import struct, sys
sys.stdout.buffer.write(b"ovb-wrk\n" + struct.pack("<6Q", 2, 1, 0, 3, 0, 0)
    + struct.pack("<5d", 0, 1e-6, 1, 0.5, 100))' >"$T/greeting"
	run -0 --separate-stderr bash -c 'ovb-reserves --serve <"$1" | od -c | head -1' - "$T/greeting"
	[[ $output == *"o   v   b   -   w   r   k"* ]] || fail "no magic in answer: $output"
	[[ -w /dev/full ]] || skip "no /dev/full"
	run --separate-stderr bash -c 'ovb-reserves --serve <"$1" >/dev/full' - "$T/greeting"
	assert_equal "$status" 74
	assert_equal "$stderr" "ovb-reserves: <stdout>: write error: No space left on device"
	run --separate-stderr closed bash -c 'exec ovb-reserves --serve <"$1"' - "$T/greeting"
	assert_equal "$status" 74
	assert_equal "$stderr" "ovb-reserves: <stdout>: write error: Broken pipe"
}

@test "cli: no --help has an empty option group (a heading with no option under it)" {
	local src t
	for src in "$BATS_TEST_DIRNAME"/../tools/*/ovb-*.c; do
		t=$(basename "$src" .c)
		run -0 "$t" --help
		# a heading " Name:" followed by a blank line or another heading
		run awk 'p ~ /^ [A-Z][^:]*:$/ && ($0 == "" || $0 ~ /^ [A-Z][^:]*:$/) { print p } { p = $0 }' <<<"$output"
		assert_output '' || fail "$t --help: empty group '$output'"
	done
}
