#!/usr/bin/env bats
# No silent wait (issue 29): a tool about to read stdin when stdin is a
# terminal says on stderr, in one line, what it expects and reads on; or,
# when a terminal cannot carry its input, refuses with 64 and its usage.
# Every tools/*/ovb-*.c is run on a pseudo-terminal (script(1), util-linux)
# whose input never ends (a FIFO opened read-write), killed after 1 s: by
# then the hint is on the terminal, or the tool has exited 64.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	command -v script >/dev/null || fail "script(1) is missing (util-linux)"
	mkfifo "$T/never"
}

# reads TOOL: sets A to arguments with which TOOL reads stdin (named "-"
# where a file is otherwise required), or R to why it refuses (64).
reads() {
	A=() R=
	case $1 in
	ovb-capture) R="records with perf: no input (a usage error without -d or a COMMAND)" ;;
	ovb-check) A=(-) ;;
	ovb-convolve) A=(-C 4) ;;
	ovb-enforce) A=(-t tc -) ;;
	ovb-fit) A=(--more w) ;;
	ovb-import) R="names capsules after their files: '-' is refused" ; A=(--bitbrains -) ;;
	ovb-market | ovb-rebalance) A=(- -) ;;
	ovb-onoff) R="a perf.data trace is binary" ; A=(-c a=pid:1) ;;
	ovb-profile) A=(-O 0.01) ;;
	ovb-replay | ovb-trade) A=(- - -) ;;
	ovb-backtest | ovb-fmt | ovb-merge | ovb-place | ovb-report | \
	ovb-reserves | ovb-rt | ovb-tbucket | ovb-usage) ;;
	*) fail "$1: say in reads() how it reads stdin" ;;
	esac
}

# on_tty CMD...: runs CMD on a pseudo-terminal for at most 1 s; status is
# CMD's (124: still reading when killed), output what the terminal showed.
on_tty() {
	local cmd
	printf -v cmd '%q ' "$@"
	run --separate-stderr script -qec "timeout 1 $cmd" /dev/null <>"$T/never"
	output=${output//$'\r'/}
}

@test "every tool on a terminal: its one-line hint within 1 s, or 64 and its usage" {
	local src t n=0 hint=0 refused=0
	for src in "$BATS_TEST_DIRNAME"/../tools/*/ovb-*.c; do
		t=$(basename "$src" .c)
		reads "$t"
		on_tty "$t" "${A[@]}"
		n=$((n + 1))
		if [[ -n $R ]]; then
			((status == 64)) || fail "$t ${A[*]}: exit $status, not 64 ($R): $output"
			[[ $output == *"Try \`$t --help'"* ]] || fail "$t: no usage: $output"
			refused=$((refused + 1))
			continue
		fi
		((status == 124)) || fail "$t ${A[*]}: exit $status; it should read on: $output"
		# exactly one line, naming the tool, the terminal and Ctrl-D
		[[ $(grep -c . <<<"$output") == 1 ]] || fail "$t: not one line: $output"
		[[ $output == "$t: reading stdin, a terminal: "*"; Ctrl-D ends it ($t --help)" ]] ||
			fail "$t: hint: $output"
		hint=$((hint + 1))
	done
	((n >= 21)) || fail "only $n tools"
	echo "# $n tools: $hint hint and read on, $refused refuse" >&3
}

@test "the hint says what the tool expects: its usage's arguments, or its own words" {
	on_tty ovb-place
	assert_output "ovb-place: reading stdin, a terminal: one input of CLUSTER APPS [PROFILE...] [PLAN], as text; Ctrl-D ends it (ovb-place --help)"
	on_tty ovb-fmt
	assert_output --partial "ovb-fmt: reading stdin, a terminal: an overbook file of any format"
	on_tty ovb-reserves --serve
	assert_output --partial "ovb-worker requests"
}

@test "the hint is on stderr only, silenced by -q; a file named, a pipe or /dev/null: no hint" {
	# stderr to a file: the terminal shows nothing, the file the hint
	on_tty sh -c 'ovb-usage 2>"$0"' "$T/err"
	assert_output ''
	run cat "$T/err"
	assert_output --partial "ovb-usage: reading stdin, a terminal"
	on_tty ovb-usage -q
	((status == 124)) || fail "-q: exit $status"
	assert_output ''
	# a terminal on stdin, but a file named: read at once, no hint
	on_tty ovb-fmt "$DATA/example.cluster"
	assert_equal "$status" 0
	assert_output ''
	run -65 --separate-stderr ovb-fmt </dev/null
	assert_equal "$stderr" "ovb-fmt: <stdin>: empty input: no magic record"
	run -0 --separate-stderr ovb-fmt < "$DATA/example.cluster"
	assert_equal "$stderr" ''
}
