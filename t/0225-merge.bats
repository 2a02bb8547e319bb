#!/usr/bin/env bats
# ovb-merge: the profiles of many hosts as one set.

bats_require_minimum_version 1.5.0
load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
	# two hosts' profiles: the example's capsules renamed per host
	sed 's/^profile \([^ ]*\) /profile \1-h1 /' "$DATA/example.profile" >"$T/h1.profile"
	sed 's/^profile \([^ ]*\) /profile \1-h2 /' "$DATA/example.profile" >"$T/h2.profile"
}

# blocks FILE: the records of FILE from its first profile record on
blocks() {
	ovb-fmt -c "$1" | awk '$1 == "profile" { on = 1 } on'
}

@test "merge: the set is every input's blocks, in input order, canonical" {
	run -0 --separate-stderr ovb-merge "$T/h1.profile" "$T/h2.profile" -o "$T/fleet"
	{ ovb-fmt -c "$T/h1.profile" | awk '$1 == "profile" { exit } { print }'
	  blocks "$T/h1.profile"; blocks "$T/h2.profile"; } >"$T/want"
	run -0 diff "$T/want" "$T/fleet"
	run -0 ovb-fmt -l "$T/fleet"
	# stdin, and the order of the inputs kept
	run -0 --separate-stderr bash -c "ovb-merge '$T/h2.profile' - <'$T/h1.profile'"
	[[ $(grep '^profile' <<<"$output" | head -1) == "profile web-h2 cpu" ]] || fail "$output"
}

@test "merge: the merged set places like its parts" {
	printf 'ovb-cluster 1\nnode n1 4 cpu 100000000 B/s\nnode n2 4 cpu 100000000 B/s\n' >"$T/c"
	printf 'ovb-apps 1\napp a\ncapsule x profile=web-h1\napp b\ncapsule y profile=web-h2\n' >"$T/a"
	run -0 ovb-merge "$T/h1.profile" "$T/h2.profile" -o "$T/fleet"
	run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/fleet" -o "$T/p1"
	run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/h1.profile" "$T/h2.profile" -o "$T/p2"
	run -0 diff "$T/p1" "$T/p2"
	run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/p1" "$T/fleet"
}

@test "merge: a capsule profiled on two hosts is 65 naming both places; nothing written" {
	cp "$T/h1.profile" "$T/again.profile"
	run -65 --separate-stderr ovb-merge "$T/h1.profile" "$T/h2.profile" "$T/again.profile" -o "$T/fleet"
	local l
	l=$(line_of '^profile web-h1 cpu' "$T/h1.profile")
	[[ $stderr == "ovb-merge: $T/again.profile:$l: profile web-h1 cpu is defined twice: also at $T/h1.profile:$l"* ]] || fail "$stderr"
	[[ ! -e $T/fleet ]] || fail "partial output"
	[[ -z $(ls "$T" | grep -v -e '^\(h[12]\|again\)\.profile$' -e '^separate-stderr') ]] || fail "left behind: $(ls "$T")"
}

@test "merge: bad inputs: another format, a malformed profile, a missing file: named, 65/66, nothing written" {
	run -65 --separate-stderr ovb-merge "$T/h1.profile" "$DATA/example.usage" -o "$T/o"
	[[ $stderr == "ovb-merge: $DATA/example.usage:1: an ovb-usage file is not an input of ovb-merge (ovb-profile files only)" ]] || fail "$stderr"
	variant bad.profile "$T/h2.profile" -e 's/^sigma 0.95 cpu$/sigma x cpu/'
	run -65 --separate-stderr ovb-merge "$T/h1.profile" "$BAD" -o "$T/o"
	[[ $stderr == "ovb-merge: $BAD:$(line_of '^sigma x' "$BAD"):"* ]] || fail "$stderr"
	run -66 --separate-stderr ovb-merge "$T/h1.profile" "$T/missing" -o "$T/o"
	[[ $stderr == *"$T/missing"* ]] || fail "$stderr"
	[[ ! -e $T/o ]] || fail "partial output"
	run -65 --separate-stderr ovb-merge </dev/null
	[[ $stderr == "ovb-merge: <stdin>"* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-merge --bogus
}
