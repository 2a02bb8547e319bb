#!/usr/bin/env bats
# The manual, man/: a page man/ovb-TOOL.1.md per tool and man/ovb.7.md,
# rendered by the build (formats/md2man.awk) into man/ovb-TOOL.1 and
# man/ovb.7.  Each page's options are exactly its tool's --help options,
# every page (and every format's section 5 page) reads with `man -l`
# without a warning, and every line of every page's EXAMPLES runs: in a
# directory of its own per page where t/ is the tree's t/ (so the examples
# name t/data/... as a user in the source tree does), in order, each with
# status 0, or N when the line ends with the comment "# exit N".

bats_require_minimum_version 1.5.0
load test_helper

setup() {
	ROOT=${OVB_ROOT:-$BATS_TEST_DIRNAME/..}
}

# The option names in option terms like "-t, --target=T[,T...]": -t, --target.
names() {
	grep -oE '(^|[ ,])(-[A-Za-z0-9?]|--[A-Za-z0-9-]+)' | sed -E 's/^[ ,]//' | sort -u
}

# The option names (-x, --long) of a tool's --help: the option column of
# the lines before argp's "Mandatory or optional" note.
help_options() {
	"$1" --help | sed '/^Mandatory or optional/,$d' |
		grep -E '^ {2,6}-' | sed -E 's/^ +//; s/ {2,}.*//' | names
}

# The option names of a page: the terms of its OPTIONS section's items
# "- `-x`, `--long=ARG`: text".
page_options() {
	awk '/^## /{ on = ($0 == "## OPTIONS") } on' "$1" |
		grep -oE '^- `[^`]+`(, `[^`]+`)*: ' | grep -oE '`[^`]+`' |
		tr -d '`' | names
}

# The EXAMPLES lines of a page: its indented code, comments left out.
examples() {
	awk '/^## /{ on = ($0 == "## EXAMPLES") } on && /^    [^ #]/ { print substr($0, 5) }' "$1"
}

@test "man: a page per tool (man/ovb-TOOL.1.md), none for a tool that does not exist, and ovb(7)" {
	local t n=0
	for t in "$ROOT"/tools/*/ovb-*.c; do
		t=$(basename "$t" .c)
		[[ -s $ROOT/man/$t.1.md ]] || fail "no man/$t.1.md"
		[[ -s $ROOT/man/$t.1 ]] || fail "man/$t.1 not built"
		n=$((n + 1))
	done
	[[ $n -ge 20 ]]
	for t in "$ROOT"/man/*.1.md; do
		t=$(basename "$t" .1.md)
		ls "$ROOT"/tools/*/"$t.c" >/dev/null 2>&1 || fail "man/$t.1.md: no such tool"
	done
	[[ -s $ROOT/man/ovb.7.md && -s $ROOT/man/ovb.7 ]]
	# every relative link of a page leads to a file
	local l
	for p in "$ROOT"/man/*.md; do
		for l in $(grep -oE '\]\([^)#]+' "$p" | sed 's/^](//'); do
			[[ $l == http* ]] && continue
			[[ -e $ROOT/man/$l ]] || fail "$p links to $l, which does not exist"
		done
	done
	# each has the sections the issue asks for
	local p s
	for p in "$ROOT"/man/*.1.md; do
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS FORMATS 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
			[[ $s == NAME ]] && { head -1 "$p" | grep -qE '^# ovb-[a-z]+\(1\) -- ' || fail "$p: title"; continue; }
			grep -qx "## $s" "$p" || fail "$p: no $s"
		done
		[[ -n $(examples "$p") ]] || fail "$p: no example"
	done
}

@test "man: the rendered pages are those of their sources (make rebuilt them)" {
	local p name sec
	for p in "$ROOT"/man/*.[17].md; do
		name=$(basename "$p" .md)
		sec=${name##*.}
		name=${name%.*}
		run -0 awk -v name="$name" -v section="$sec" -v version=x \
			-f "$ROOT/formats/md2man.awk" "$p"
		diff <(sed 1,2d <<<"$output") <(sed 1,2d "${p%.md}") ||
			fail "${p%.md} is not made from $p: run make"
	done
}

@test "man: every page, its tools', ovb(7) and the formats', reads with man -l without warnings" {
	command -v man >/dev/null || fail "man is not installed (.ci/deps: man-db)"
	local p n=0
	for md in "$ROOT"/formats/*.md; do
		name=$(basename "$md" .md)
		[[ $name == README ]] && name=formats
		awk -v name="ovb-$name" -v version=x -f "$ROOT/formats/md2man.awk" \
			"$md" >"$BATS_TEST_TMPDIR/ovb-$name.5"
	done
	for p in "$ROOT"/man/*.[17] "$BATS_TEST_TMPDIR"/*.5; do
		run -0 --separate-stderr env MANWIDTH=80 LC_ALL=C.UTF-8 \
			man --warnings -l "$p"
		[[ -z $stderr ]] || fail "$p: $stderr"
		[[ $(head -1 <<<"$output") == OVB* ]] || fail "$p: $(head -1 <<<"$output")"
		n=$((n + 1))
	done
	[[ $n -ge 40 ]]
	# a page reads as a page: its option terms and its examples are there
	run -0 env MANWIDTH=80 man -l "$ROOT/man/ovb-place.1"
	assert_line --regexp '^ +ovb-place - '
	assert_line --regexp '^ +-p, --policy=POLICY'
	assert_line --regexp '^EXAMPLES$'
}

@test "man: every option of a tool's --help is in its page's OPTIONS, and no option that --help does not list" {
	local t want have bad=
	for t in "$ROOT"/tools/*/ovb-*.c; do
		t=$(basename "$t" .c)
		want=$(help_options "$t")
		have=$(page_options "$ROOT/man/$t.1.md")
		[[ $(wc -l <<<"$want") -ge 8 ]] || fail "$t: --help read wrong: $want"
		if [[ $want != "$have" ]]; then
			bad+="$t: --help only: $(comm -23 <(echo "$want") <(echo "$have") | tr '\n' ' ')"
			bad+="; page only: $(comm -13 <(echo "$want") <(echo "$have") | tr '\n' ' ')"$'\n'
		fi
	done
	[[ -z $bad ]] || fail "$bad"
}

@test "man: the option test fails on a page without an option and on a page with one --help lacks" {
	sed '/^- `-p`, `--policy=POLICY`: /d' "$ROOT/man/ovb-place.1.md" >"$BATS_TEST_TMPDIR/a.md"
	[[ $(page_options "$BATS_TEST_TMPDIR/a.md") != "$(help_options ovb-place)" ]]
	sed 's/^## OPTIONS$/&\n\n- `--no-such`: x/' "$ROOT/man/ovb-place.1.md" >"$BATS_TEST_TMPDIR/b.md"
	[[ $(page_options "$BATS_TEST_TMPDIR/b.md") != "$(help_options ovb-place)" ]]
	[[ $(page_options "$ROOT/man/ovb-place.1.md") == "$(help_options ovb-place)" ]]
}

# run_examples PAGE DIR: runs PAGE's EXAMPLES lines in DIR (t/ linked
# there), in order; prints one line per line that did not end with its
# stated status, and sets NEX to the number run.
run_examples() {
	local p=$1 d=$2 line want out
	mkdir -p "$d"
	ln -sfn "$ROOT/t" "$d/t"
	while IFS= read -r line; do
		want=0
		[[ $line =~ \#\ exit\ ([0-9]+)$ ]] && want=${BASH_REMATCH[1]}
		out=$(bash -o pipefail -c "cd '$d' && $line" </dev/null 2>&1 >/dev/null)
		local st=$?
		[[ $st == "$want" ]] ||
			echo "$(basename "$p"): status $st, not $want: $line: ${out:0:300}"
		NEX=$((NEX + 1))
	done < <(examples "$p")
}

@test "man: every EXAMPLES line of every page runs, with its stated exit status" {
	local p bad= NEX=0
	for p in "$ROOT"/man/*.[17].md; do
		bad+=$(run_examples "$p" "$BATS_TEST_TMPDIR/$(basename "$p" .md)")
	done
	[[ -z $bad ]] || fail "$bad"
	for p in "$ROOT"/man/*.[17].md; do
		NEX=$((NEX + $(examples "$p" | wc -l)))
	done
	[[ $NEX -ge 60 ]] || fail "only $NEX examples"
}

@test "man: the examples test fails on a line that fails and on a status other than the stated one; man --warnings sees a bad page" {
	printf '# x(1) -- y\n\n## EXAMPLES\n\n    true\n    false\n    true  # exit 1\n    ovb-fmt t/data/example.apps\n' \
		>"$BATS_TEST_TMPDIR/x.1.md"
	NEX=0
	run -0 run_examples "$BATS_TEST_TMPDIR/x.1.md" "$BATS_TEST_TMPDIR/x"
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --partial 'status 1, not 0: false'
	assert_line --index 1 --partial 'status 0, not 1: true  # exit 1'
	printf '.TH X 1\n.SH NAME\nx \\- y\n.BOGUS z\n' >"$BATS_TEST_TMPDIR/bad.1"
	run -0 --separate-stderr env MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings \
		-l "$BATS_TEST_TMPDIR/bad.1"
	assert_equal "$stderr" "troff: <standard input>:4: warning: macro 'BOGUS' not defined"
}
