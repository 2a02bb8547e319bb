#!/usr/bin/env bats
# README.md stays true and short: at most 300 lines; its tour runs and
# gives its profile table, which is what demo.sh prints on the shipped
# traces; its tool table names every tool that exists, each with its page;
# its links lead to files; its sections are those of the layout (issue 29:
# what it is, the two set-up commands, the tour, the tools, links, then
# Layout and the "Adding a ..." sections).  The manual is in man/
# (t/0231-man.bats).

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

@test "readme: at most 300 lines" {
	local n
	n=$(wc -l <"$ROOT/README.md")
	[[ $n -le 300 ]] || fail "README.md has $n lines"
}

@test "readme: the sections, in order: set-up, tour, tools, links, then Layout and the Adding sections" {
	run -0 grep -E '^##+ ' "$ROOT/README.md"
	local want=(
		'## Set-up: two commands'
		'## A five-minute tour: from a recording to a checked, enforced plan'
		'## Tools'
		'## Manual and links'
		'## Layout'
		'### Adding a tool'
		'### Adding a placement policy'
		'### Adding a format'
		'### Adding a backtest method'
	)
	assert_equal "${#lines[@]}" "${#want[@]}"
	local i
	for i in "${!want[@]}"; do
		assert_equal "${lines[i]}" "${want[i]}"
	done
	grep -qx 'make demo .*' "$ROOT/README.md"
	grep -qx 'make check .*' "$ROOT/README.md"
}

@test "readme: the tour runs, each command with status 0, and gives the Table 1 rows" {
	local d=$BATS_TEST_TMPDIR/tour
	mkdir -p "$d"
	ln -s "$ROOT/t" "$d/t"
	awk '/^<!-- tour/ { on = 1; next } /^<!-- \/tour/ { on = 0 } on && !/^```/' \
		"$ROOT/README.md" >"$d/tour.sh"
	[[ $(grep -c '^ovb-' "$d/tour.sh") -ge 10 ]] || fail "no tour block"
	run -0 --separate-stderr bash -e -o pipefail -c "cd '$d' && . ./tour.sh"
	# the plan is checked and enforced
	[[ -s $d/demo.plan && -s $d/demo.sched-deadline ]]
	# as the README says: eight shops of three capsules placed, four rejected
	[[ $(grep -c '^place ' "$d/demo.plan") == 24 && $(grep -c '^reject ' "$d/demo.plan") == 4 ]] ||
		fail "the tour's plan: $(grep -cE '^(place|reject) ' "$d/demo.plan") records"
	grep -q '^Eight shops fit (24 capsules;' "$ROOT/README.md"
	run -0 ovb-check -t sched-deadline "$ROOT/t/data/demo.cluster" \
		"$ROOT/t/data/demo.apps" "$d/demo.plan" "$d/fixtures.profile"
	# its profiles are the README's table
	run -0 sh "$ROOT/bench/table1.sh" "$d/fixtures.profile"
	local r n=0
	while IFS= read -r r; do
		[[ $r == '| '* ]] || continue
		grep -qxF -- "$r" "$ROOT/README.md" || fail "README lacks: $r"
		n=$((n + 1))
	done <<<"$output"
	[[ $n -ge 8 ]]
}

@test "readme: every relative link leads to a file, every tool's row to its page" {
	local l n=0
	for l in $(grep -oE '\]\([^)#]+\)' "$ROOT/README.md" | sed -E 's/^\]\(//; s/\)$//'); do
		[[ $l == http* ]] && continue
		[[ -e $ROOT/$l ]] || fail "README links to $l, which does not exist"
		n=$((n + 1))
	done
	[[ $n -ge 20 ]]
	local t
	for t in "$ROOT"/tools/*/ovb-*.c; do
		t=$(basename "$t" .c)
		grep -qF "| [$t(1)](man/$t.1.md) |" "$ROOT/README.md" || fail "no page link for $t"
	done
}
