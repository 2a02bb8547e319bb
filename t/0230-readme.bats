#!/usr/bin/env bats
# README.md stays true: its profile table is what the tools print on the
# shipped traces, and its tool table names every tool that exists.

bats_require_minimum_version 1.5.0
load test_helper

setup() {
	ROOT=${OVB_ROOT:-$BATS_TEST_DIRNAME/..}
}

@test "readme: the Table 1 rows are what demo.sh computes from the fixtures" {
	run -0 --separate-stderr sh "$ROOT/demo.sh" "$BATS_TEST_TMPDIR/demo"
	local rows
	rows=$(grep '^| ' <<<"$output")
	[[ $(wc -l <<<"$rows") -ge 8 ]]
	local r
	while IFS= read -r r; do
		grep -qxF -- "$r" "$ROOT/README.md" || fail "README lacks: $r"
	done <<<"$rows"
}

@test "readme: every tool is in the tool table, and no tool that is not" {
	local t
	for t in "$ROOT"/tools/*/ovb-*.c; do
		t=$(basename "$t" .c)
		grep -q "^| \`$t\` |" "$ROOT/README.md" || fail "README lacks $t"
	done
	for t in $(grep -o '^| `ovb-[a-z]*`' "$ROOT/README.md" | tr -d '|` '); do
		ls "$ROOT"/tools/*/"$t.c" >/dev/null 2>&1 || fail "README lists $t"
	done
}
