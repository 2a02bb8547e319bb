#!/usr/bin/env bats
# ovb-onoff on damaged traces: a perf killed before it finished the file, a
# copy cut short, a stream cut short, a file-mode trace piped in.  Each
# message names what the header expects and what was found, and what to
# do (formats/perfdata.md, "Damaged traces").
bats_require_minimum_version 1.5.0
load test_helper

# header FILE: the data section's offset and size as the file header says
# (perf_file_header: data at bytes 40-55), read by Python, not overbook
header() {
	python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read(104)
print(*struct.unpack_from("<QQ", b, 40))' "$1"
}

# damaged FILE WORDS...: ovb-onoff refuses FILE (65), one message naming
# it, every WORD in it, and what to do; nothing on stdout
damaged() {
	local f=$1 w
	shift
	run -65 --separate-stderr ovb-onoff -c a=comm:. "$f"
	assert_output ''
	[[ $stderr == "ovb-onoff: $f: "* && $stderr != *$'\n'* ]] ||
		fail "stderr: $stderr"
	for w in "$@" "re-record it" "perf inject cannot repair"; do
		[[ $stderr == *"$w"* ]] || fail "'$w' not in: $stderr"
	done
}

@test "damaged: a trace of a perf killed with SIGKILL: the header still says 0 bytes of data, and what follows" {
	local t=$BATS_TEST_TMPDIR/killed.data off size
	gzip -dc "$FIXTURES/killed.perf.data.gz" >"$t"
	read -r off size < <(header "$t")
	assert_equal "$size" 0
	damaged "$t" "perf did not finish this trace" "says 0 bytes of data" \
		"$(( $(stat -c %s "$t") - off )) bytes follow where the data begins (byte $off)" \
		"SIGKILL"
	[[ $stderr != *"cannot seek"* ]]
}

@test "damaged: a copy cut short: the data the header says against the bytes the file has" {
	local data t=$BATS_TEST_TMPDIR/t.data off size n
	data=$(unpack_fixture redis)
	read -r off size < <(header "$data")
	for n in $(( $(stat -c %s "$data") / 2 )) $((off + 1000)) $((off + size - 1)); do
		head -c "$n" "$data" >"$t"
		damaged "$t" "truncated: the header says $size bytes of data (bytes $off to $((off + size)))" \
			"the file has $n bytes, $((n - off)) of them data" "incomplete copy"
	done
	# cut among the feature sections, after the data
	n=$(( $(stat -c %s "$data") - 100 ))
	head -c "$n" "$data" >"$t"
	damaged "$t" "truncated: the header says its feature section" \
		"the file has $n bytes" "incomplete copy"
}

@test "damaged: a pipe-mode stream cut short, and a file-mode trace piped in" {
	local t=$BATS_TEST_TMPDIR/pipe.data
	gzip -dc "$FIXTURES/pipe.perf.data.gz" >"$t"
	run -0 --separate-stderr ovb-onoff -q -c a=comm:. - <"$t"
	head -c 100000 "$t" >"$t.cut"
	run -65 --separate-stderr ovb-onoff -q -c a=comm:. - <"$t.cut"
	[[ $stderr == "ovb-onoff: <stdin>: the stream ends at byte "*", "*" bytes short of the end of a record: perf stopped before it finished writing, or the copy is incomplete; re-record it (perf inject cannot repair"* ]] ||
		fail "stderr: $stderr"
	run -65 --separate-stderr bash -c 'cat "$1" | ovb-onoff -q -c a=comm:. -' \
		_ "$(unpack_fixture redis)"
	[[ $stderr == *"cannot seek to byte "*"a trace in file mode is read from a file, not a pipe (perf record -o - writes pipe mode"* ]] ||
		fail "stderr: $stderr"
}
