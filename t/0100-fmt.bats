#!/usr/bin/env bats
# ovb-fmt and the seven format readers (specs: formats/*.md).
#
# The examples in t/data are valid and in canonical form. Each malformed
# variant is made from an example with sed in $BATS_TEST_TMPDIR. The test
# checks exit status 65, an empty stdout, and exactly one stderr line
# "ovb-fmt: FILE:LINE: ..." that mentions a key word.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
}

# ---------------------------------------------------------------------------
# The examples: valid, canonical, and canonical forms round-trip.

@test "examples: every example is valid (status 0, silent)" {
	for f in "${FORMATS[@]}" rsl; do
		run -0 --separate-stderr ovb-fmt "$DATA/example.$f"
		assert_output ''
		assert_equal "$stderr" ''
	done
}

@test "examples: each example is already canonical (canonical == file)" {
	for f in "${FORMATS[@]}"; do
		run -0 --separate-stderr ovb-fmt --canonical "$DATA/example.$f"
		assert_equal "$stderr" ''
		assert_equal "$output" "$(cat "$DATA/example.$f")"
		# byte-exact, trailing newline included
		ovb-fmt --canonical "$DATA/example.$f" >"$BATS_TEST_TMPDIR/c.$f"
		cmp "$DATA/example.$f" "$BATS_TEST_TMPDIR/c.$f"
	done
}

@test "examples: canonical of canonical == canonical (all formats)" {
	for f in "${FORMATS[@]}" rsl; do
		ovb-fmt --canonical "$DATA/example.$f" >"$BATS_TEST_TMPDIR/c1.$f"
		ovb-fmt --canonical "$BATS_TEST_TMPDIR/c1.$f" >"$BATS_TEST_TMPDIR/c2.$f"
		cmp "$BATS_TEST_TMPDIR/c1.$f" "$BATS_TEST_TMPDIR/c2.$f"
	done
}

@test "examples: -l lists none of the canonical examples" {
	run -0 --separate-stderr ovb-fmt -l "${FORMATS[@]/#/$DATA/example.}"
	assert_output ''
	assert_equal "$stderr" ''
}

@test "examples: the magic decides the format, --type agrees" {
	for f in "${FORMATS[@]}"; do
		run -0 --separate-stderr ovb-fmt --type "$f" "$DATA/example.$f"
	done
	run -0 --separate-stderr ovb-fmt --type apps "$DATA/example.rsl"
}

@test "rsl: the Sharc RSL example is read as apps, canonical form is ovb-apps" {
	run -0 --separate-stderr ovb-fmt --canonical "$DATA/example.rsl"
	assert_line --index 0 'ovb-apps 1'
	assert_line 'app 1'
	assert_line 'capsule c1 cpu=0.5 net=0 node=n3 lb-cpu=0.2'
	assert_line 'capsule c2 cpu=0.25 net=0 epsilon=0.05'
	# AggregateResv 1.5 split evenly over 3 capsules
	assert_line 'app 2 aggregate=1.5 trade=yes'
	assert_line 'capsule c1 cpu=0.5 net=0 lb-cpu=0.1 epsilon=0.02'
	assert_line 'capsule c3 cpu=0.5 net=0 node=n4 epsilon=0.02'
	assert_line 'app 3 aggregate=1 trade=yes op=modify'
	assert_line 'capsule c2 cpu=0.4 net=0 epsilon=0.1'
	refute_output --partial 'Capsule '
	# the RSL file is not canonical
	run -1 --separate-stderr ovb-fmt -l "$DATA/example.rsl"
	assert_output "$DATA/example.rsl"
}

@test "examples: CRLF, blank lines, indentation, tabs and trailing comments are tolerated" {
	for f in "${FORMATS[@]}" rsl; do
		local v=$BATS_TEST_TMPDIR/crlf.$f
		{
			printf '\r\n  \t \r\n# a leading comment\r\n'
			sed -E -e 's/ /\t /g' -e 's/^/  /' \
				-e 's/$/ \t# trailing comment\r/' -e 'a\
' "$DATA/example.$f"
		} >"$v"
		run -0 --separate-stderr ovb-fmt --canonical "$v"
		assert_equal "$stderr" ''
		# the comments are kept; without them, the example's form
		assert_line '# a leading comment'
		assert_line --partial ' # trailing comment'
		assert_equal "$(sed -E -e '/^#/d' -e 's/ # trailing comment$//' \
			<<<"$output")" "$(canonical "$DATA/example.$f" | sed '/^#/d')"
	done
}

@test "examples: # inside a field is an ordinary character, at its start a comment" {
	variant hash.onoff "$DATA/example.onoff" 's/^capsule web comm:\^nginx\$$/capsule web comm:a#b #c d/'
	run -0 --separate-stderr ovb-fmt --canonical "$BAD"
	assert_line 'capsule web comm:a#b #c d'
	run -0 --separate-stderr ovb-fmt --canonical --type onoff <(grep -v '^#' "$BAD")
	assert_line 'capsule web comm:a#b #c d'
	run -0 ovb-onoff --help
}

# ---------------------------------------------------------------------------
# Comments: kept in the canonical form (formats/README.md, "Canonical form").

@test "comments: the issue's file keeps its comment, before its record" {
	run -0 --separate-stderr ovb-fmt -c <<<$'ovb-apps 1\n# note\napp w\ncapsule f cpu=1'
	assert_equal "$stderr" ''
	assert_equal "$(grep -v '^# \(app\|capsule\|  \)' <<<"$output")" \
		$'ovb-apps 1\n# note\napp w\ncapsule f cpu=1 net=0'
}

@test "comments: before a record, after its fields, before the magic, at the end; a writer's own line not doubled" {
	local f=$BATS_TEST_TMPDIR/c.cluster
	cat >"$f" <<-'EOF'
	# the lab's cluster
	ovb-cluster 1
	# node NAME CPU cpu NET B/s [KEY=VALUE...]
	node b 8.0 cpu 1.25e8 B/s   # rack 2
	# the big one, bought 2024
	#   (two sockets)

	node a 16 cpu 125000000 B/s
	# the end
	EOF
	run -0 --separate-stderr ovb-fmt -c "$f"
	assert_equal "$output" "$(cat <<-'EOF'
	ovb-cluster 1
	# node NAME CPU cpu NET B/s [KEY=VALUE...]
	# the lab's cluster
	node b 8 cpu 125000000 B/s # rack 2
	# the big one, bought 2024
	#   (two sockets)
	node a 16 cpu 125000000 B/s
	# the end
	EOF
	)"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/c1"
	run -0 ovb-fmt -c "$BATS_TEST_TMPDIR/c1"
	assert_equal "$output" "$(cat "$BATS_TEST_TMPDIR/c1")"
	run -0 ovb-fmt -l "$BATS_TEST_TMPDIR/c1"
	assert_output ''
	run -1 ovb-fmt -l "$f"
	assert_output "$f"
}

@test "comments: a record the writer reorders or completes takes its comment along" {
	# the plan writer orders a capsule's place before its qos; the apps
	# writer adds net=0
	local f=$BATS_TEST_TMPDIR/c.apps
	printf 'ovb-apps 1\napp w\n# f: the frontend\ncapsule f cpu=1.0 # one cpu\n# g\ncapsule g cpu=2\n' >"$f"
	run -0 --separate-stderr ovb-fmt -c "$f"
	assert_equal "$(grep -A1 '^# f: the frontend$' <<<"$output")" \
		$'# f: the frontend\ncapsule f cpu=1 net=0 # one cpu'
	assert_equal "$(grep -A1 '^# g$' <<<"$output")" $'# g\ncapsule g cpu=2 net=0'
	# Sharc RSL: a comment goes to the ovb-apps record of its RSL record
	printf '# rsl\n' | cat - "$DATA/example.rsl" >"$BATS_TEST_TMPDIR/c.rsl"
	run -0 --separate-stderr ovb-fmt -c "$BATS_TEST_TMPDIR/c.rsl"
	assert_line --index 0 'ovb-apps 1'
	assert_line '# rsl'
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/rsl1"
	run -0 ovb-fmt -c "$BATS_TEST_TMPDIR/rsl1"
	assert_equal "$output" "$(cat "$BATS_TEST_TMPDIR/rsl1")"
}

@test "apps: an unreadable first line is an error with --type apps too, not skipped (libFuzzer, fuzz-apps)" {
	# the reader's peek for Sharc RSL dropped the error and read on
	printf 'o\0x\novb-apps 1\napp w\ncapsule f cpu=1\n' >"$BATS_TEST_TMPDIR/nul"
	run -65 --separate-stderr ovb-fmt --type apps -c "$BATS_TEST_TMPDIR/nul"
	assert_output ''
	assert_equal "$stderr" "ovb-fmt: $BATS_TEST_TMPDIR/nul:1: NUL byte in line: not a text file"
}

# Every t/data file ovb-fmt reads: each comment that is not one of the
# writer's own lines is kept once, followed by the record (keyword and
# first name) that followed it in the input; -c of -c is -c.  The oracle
# is awk over the two texts, not ovb-fmt's matching.
@test "comments: every t/data file keeps its comments, each before its record; -c of -c is identical" {
	local f n=0 c=0 T=$BATS_TEST_TMPDIR
	follow='
		/^[ \t]*#/ { sub(/^[ \t]+/, ""); sub(/[ \t\r]+$/, ""); pend[++np] = $0; next }
		/^[ \t\r]*$/ { next }
		{ k = nr++ ? $1 " " $2 : "FIRST"; for (i = 1; i <= np; i++) print pend[i] " => " k; np = 0 }
		END { for (i = 1; i <= np; i++) print pend[i] " => EOF" }'
	for f in "$DATA"/*; do
		[[ -f $f ]] && grep -q '#' "$f" || continue
		ovb-fmt -c "$f" >"$T/c1" 2>/dev/null || continue
		n=$((n + 1))
		run -0 --separate-stderr ovb-fmt -c "$T/c1"
		assert_equal "$output" "$(cat "$T/c1")"
		# the writer's own comment lines: those of the canonical form of
		# the file without its comments
		grep -v '^[[:space:]]*#' "$f" | sed -E 's/[[:space:]]+#.*//' >"$T/bare"
		ovb-fmt -c "$T/bare" | grep '^#' | sort -u >"$T/own" || true
		# comment-only lines: followed by the same record, magic aside
		awk "$follow" "$f" | grep -vxF -f <(sed 's/$/ => /' "$T/own") |
			awk -F ' => ' 'NR == FNR { own[$0] = 1; next } !($1 in own)' "$T/own" - |
			sort >"$T/want"
		awk "$follow" "$T/c1" | awk -F ' => ' 'NR == FNR { own[$0] = 1; next } !($1 in own)' "$T/own" - |
			sort >"$T/got.all"
		# a comment before the first record (the magic, or the first of
		# an older form) follows the first record after the magic
		first=$(grep -v '^#' "$T/c1" | sed -n '2p' | awk '{ print $1 " " $2 }')
		sed "s/ => FIRST\$/ => $first/" "$T/want" | sort >"$T/want2"
		# Sharc RSL is rewritten record by record (Application 1 is
		# app 1): its comments are kept, in order
		if [[ $f == *.rsl ]]; then
			sed -i 's/ => .*//' "$T/want2" "$T/got.all"
		fi
		diff "$T/want2" "$T/got.all" || fail "$f: comments moved or lost"
		# comments after a record's fields: kept on its line
		grep -E '^[^#]*[[:space:]]#' "$f" | sed -E 's/^[^#]*[[:space:]](#.*)$/\1/; s/[[:space:]]+$//' | sort >"$T/tw"
		grep -E '^[^#]*[[:space:]]#' "$T/c1" | sed -E 's/^[^#]*[[:space:]](#.*)$/\1/' | sort >"$T/tg"
		diff "$T/tw" "$T/tg" || fail "$f: trailing comments lost"
		c=$((c + $(wc -l <"$T/want2")))
	done
	((n >= 30)) || fail "only $n files with comments read"
	echo "# $n files, $c comment lines kept in place" >&3
}

@test "examples: the example files shown in formats/*.md are valid" {
	local md n=0 f
	[[ -d $BATS_TEST_DIRNAME/../formats ]] || skip "no formats/ directory"
	for md in "$BATS_TEST_DIRNAME"/../formats/*.md; do
		# indented blocks starting with a magic record or a Sharc RSL
		# Application record (not the grammar's "<id>"); "..." elides
		awk -v base="$BATS_TEST_TMPDIR/md.$(basename "$md" .md)" '
			!inb && /^    (ovb-[a-z]+ 1$|Application [^<])/ {
				inb = 1; f = base "." ++n; printf "" >f
			}
			inb && /^    / { sub(/^    /, ""); print >>f; next }
			{ inb = 0 }' "$md"
	done
	for f in "$BATS_TEST_TMPDIR"/md.*; do
		grep -qx '\.\.\.' "$f" && continue
		run -0 --separate-stderr ovb-fmt "$f"
		n=$((n + 1))
	done
	((n >= 7))
}

@test "examples: FORMATS is derived: every format ovb-fmt knows, each with its spec and example" {
	# the formats of the registry, as ovb-fmt lists them for an unknown magic
	printf 'hello 1\n' >"$BATS_TEST_TMPDIR/unknown"
	run -65 --separate-stderr ovb-fmt "$BATS_TEST_TMPDIR/unknown"
	local known name
	known=$(grep -o 'ovb-[a-z0-9_]*' <<<"$stderr" | grep -v '^ovb-fmt$' |
		sed 's/^ovb-//' | sort | tr '\n' ' ')
	[[ $(wc -w <<<"$known") -ge 9 ]] || fail "registry: $known"
	assert_equal "$(printf '%s\n' "${FORMATS[@]}" | sort | tr '\n' ' ')" "$known"
	for name in "${FORMATS[@]}"; do
		[[ -f $BATS_TEST_DIRNAME/../formats/$name.md ]]
		run -0 --separate-stderr ovb-fmt --type "$name" "$DATA/example.$name"
		assert_equal "$(head -1 "$DATA/example.$name")" "ovb-$name 1"
	done
}

# ---------------------------------------------------------------------------
# bitbrains (formats/bitbrains.md, read by ovb-import): the spec's example
# is what the reader does; results that are not finite are refused.

@test "bitbrains: the example in formats/bitbrains.md is what ovb-import writes" {
	local md=$BATS_TEST_DIRNAME/../formats/bitbrains.md d=$BATS_TEST_TMPDIR
	awk -v csv="$d/12.csv" -v want="$d/want" '
		/^    Timestamp \[ms\];/ { f = csv }
		/^    ovb-series 1$/ { f = want }
		f && /^    / { sub(/^    /, ""); print >f; next }
		{ f = "" }' "$md"
	[[ $(nlines "$d/12.csv") -ge 3 && $(nlines "$d/want") -ge 6 ]]
	run -0 --separate-stderr ovb-import --bitbrains "$d/12.csv"
	assert_equal "$stderr" ''
	assert_equal "$output" "$(cat "$d/want")"
	# the lines are those of the shipped trace
	head -n "$(nlines "$d/12.csv")" "$DATA/replay-bitbrains.csv" | cmp - "$d/12.csv"
}

@test "bitbrains: a value that overflows to inf or nan is bad data at its line (65), no output" {
	local f=$BATS_TEST_TMPDIR/7.csv h
	h=$(head -1 "$DATA/replay-bitbrains.csv")
	for row in '1372629750;1e300;1e-300;5;0;0;0;0;0;0;0' \
		'1372629750;1;0.5;0;0;0;0;0;0;0;1e308' \
		'1372629750;1;0.5;0;0;0;0;0;0;1.5e306;0' \
		'1372629750;1;0.5;0;0;0;1e308;0;0;0;0'; do
		printf '%s\n1372629450;1;1;1;0;0;0;0;0;0;0\n%s\n' "$h" "$row" >"$f"
		run -65 --separate-stderr ovb-import --bitbrains "$f" -o "$BATS_TEST_TMPDIR/out"
		assert_output ''
		[[ $stderr == "ovb-import: $f:3: "*finite* ]] || fail "stderr: $stderr"
		[[ ! -e $BATS_TEST_TMPDIR/out ]]
	done
	# at the boundary: 1.7e305 KB/s x 1024 is finite, 1.8e305 x 1024 is not
	printf '%s\n1372629750;1;1;1;0;0;0;0;0;1.7e305;0\n' "$h" >"$f"
	run -0 --separate-stderr ovb-import --bitbrains -r net-rx "$f"
	assert_line "sample 1372629900 $(/usr/bin/python3 -c 'print(repr(1.7e305 * 1024))')"
	printf '%s\n1372629750;1;1;1;0;0;0;0;0;1.8e305;0\n' "$h" >"$f"
	run -65 --separate-stderr ovb-import --bitbrains -r net-rx "$f"
	[[ $stderr == "ovb-import: $f:2: net-rx"*finite* ]] || fail "stderr: $stderr"
	printf '%s\n1372629750;1;1;1;0;0;1.8e305;0;0;0;0\n' "$h" >"$f"
	run -65 --separate-stderr ovb-import --bitbrains -r mem "$f"
	[[ $stderr == "ovb-import: $f:2: mem (Memory usage x KB)"*finite* ]] || fail "stderr: $stderr"
}

# ---------------------------------------------------------------------------
# Command line, inputs and outputs.

@test "cli: --help mentions EXAMPLES and the exit statuses" {
	run -0 --separate-stderr ovb-fmt --help
	assert_output --partial 'EXAMPLES'
	assert_output --partial 'Exit status'
	assert_output --partial '65'
	assert_output --partial '66'
}

@test "cli: an unknown option is a usage error (64)" {
	run -64 --separate-stderr ovb-fmt --no-such-option "$DATA/example.cluster"
	assert_output ''
	[[ -n $stderr ]]
}

@test "cli: --type with an unknown format is a usage error (64)" {
	run -64 --separate-stderr ovb-fmt --type nosuch "$DATA/example.cluster"
	[[ $stderr == *nosuch* ]]
}

@test "cli: -i without files is a usage error (64)" {
	run -64 --separate-stderr ovb-fmt -i
	[[ -n $stderr ]]
}

@test "cli: --canonical with --in-place is a usage error (64), the file is untouched" {
	variant noncanon.cluster "$DATA/example.cluster" 's/^(node n1) 4 /\1 4.0 /'
	cp "$BAD" "$BATS_TEST_TMPDIR/copy"
	run -64 --separate-stderr ovb-fmt --canonical -i "$BAD"
	cmp "$BAD" "$BATS_TEST_TMPDIR/copy"
}

@test "cli: --list with --canonical, and --in-place with -o, are usage errors (64)" {
	run -64 --separate-stderr ovb-fmt -l --canonical "$DATA/example.cluster"
	run -64 --separate-stderr ovb-fmt -i -o "$BATS_TEST_TMPDIR/out" "$DATA/example.cluster"
	[[ ! -e $BATS_TEST_TMPDIR/out ]]
}

@test "cli: a missing file exits 66 with 'cannot open'" {
	local f=$BATS_TEST_TMPDIR/no-such.cluster
	run -66 --separate-stderr ovb-fmt "$f"
	assert_output ''
	assert_error_line "$f" '' 'cannot open'
}

@test "cli: a directory cannot be opened as an input (66)" {
	run -66 --separate-stderr ovb-fmt "$BATS_TEST_TMPDIR"
	[[ $stderr == *'cannot open'* ]]
}

@test "cli: stdin, as - or without arguments, is named <stdin> in messages" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n2) 4 /\1 12abc /'
	local line
	line=$(line_of '^node n2 ' "$BAD")
	run -65 --separate-stderr bash -c 'ovb-fmt - <"$1"' _ "$BAD"
	assert_error_line '<stdin>' "$line" 12abc
	run -65 --separate-stderr bash -c 'ovb-fmt <"$1"' _ "$BAD"
	assert_error_line '<stdin>' "$line" 12abc
}

@test "cli: stdin is validated and canonicalized like a file" {
	run -0 --separate-stderr bash -c 'ovb-fmt --canonical - <"$1"' _ "$DATA/example.plan"
	assert_equal "$output" "$(cat "$DATA/example.plan")"
	run -0 --separate-stderr bash -c 'ovb-fmt --canonical <"$1"' _ "$DATA/example.rsl"
	assert_line --index 0 'ovb-apps 1'
}

@test "cli: empty input is bad data (65)" {
	local f=$BATS_TEST_TMPDIR/empty
	: >"$f"
	run -65 --separate-stderr ovb-fmt "$f"
	assert_output ''
	[[ $stderr == "ovb-fmt: $f:"* && $stderr == *empty* ]]
	run -65 --separate-stderr bash -c 'ovb-fmt </dev/null'
	[[ $stderr == 'ovb-fmt: <stdin>'* && $stderr == *empty* ]]
	for t in "${FORMATS[@]}"; do
		run -65 --separate-stderr ovb-fmt --type "$t" "$f"
		[[ $stderr == *empty* ]]
	done
}

@test "cli: input with only comments and blank lines is bad data (65)" {
	local f=$BATS_TEST_TMPDIR/comments
	printf '# nothing\n\n   \n# here\n' >"$f"
	run -65 --separate-stderr ovb-fmt "$f"
	assert_error_line "$f" 4 empty
}

@test "cli: an unknown magic record is rejected at its line" {
	local f=$BATS_TEST_TMPDIR/unknown
	printf '# a comment\nhello 1\n' >"$f"
	assert_fmt_error "$f" 2 hello
	printf '\novb-nosuch 1\nnode n1 4 cpu 1 B/s\n' >"$f"
	assert_fmt_error "$f" 2 ovb-nosuch
}

@test "cli: -o with invalid input creates no file and keeps an existing one" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n2) 4 /\1 -4 /'
	local dir=$BATS_TEST_TMPDIR/out
	mkdir "$dir"
	run -65 --separate-stderr ovb-fmt --canonical -o "$dir/new.cluster" "$BAD"
	assert_output ''
	[[ ! -e $dir/new.cluster ]]
	printf 'keep me\n' >"$dir/old.cluster"
	run -65 --separate-stderr ovb-fmt --canonical -o "$dir/old.cluster" "$BAD"
	assert_equal "$(cat "$dir/old.cluster")" 'keep me'
	# and no temporary file is left behind
	assert_equal "$(ls -A "$dir")" 'old.cluster'
	# one invalid input among valid ones is enough
	run -65 --separate-stderr ovb-fmt --canonical -o "$dir/new.cluster" "$DATA/example.cluster" "$BAD"
	[[ ! -e $dir/new.cluster ]]
	assert_equal "$(ls -A "$dir")" 'old.cluster'
}

@test "cli: -o with valid input writes the canonical form" {
	local out=$BATS_TEST_TMPDIR/out.apps
	run -0 --separate-stderr ovb-fmt --canonical -o "$out" "$DATA/example.rsl"
	assert_output ''
	assert_equal "$(cat "$out")" "$(canonical "$DATA/example.rsl")"
}

@test "cli: -l lists a non-canonical file and exits 1" {
	variant noncanon.cluster "$DATA/example.cluster" 's/^(node n1) 4 cpu 125000000 /\1 4.0 cpu 1.25e8 /'
	run -1 --separate-stderr ovb-fmt -l "$DATA/example.cluster" "$BAD" "$DATA/example.usage"
	assert_output "$BAD"
	assert_equal "$stderr" ''
	# a missing comment line is not canonical either
	variant nocomment.usage "$DATA/example.usage" '/^#/d'
	run -1 --separate-stderr ovb-fmt -l "$BAD"
	assert_output "$BAD"
}

@test "cli: -l with an invalid file exits 65 and still lists the others" {
	variant noncanon.cluster "$DATA/example.cluster" 's/^(node n1) 4 /\1 4.0 /'
	local non=$BAD
	variant bad.cluster "$DATA/example.cluster" 's/^(node n3) 8 /\1 nan /'
	run -65 --separate-stderr ovb-fmt -l "$BAD" "$non"
	assert_output "$non"
	assert_error_line "$BAD" "$(line_of '^node n3 ' "$BAD")" nan
}

@test "cli: -i rewrites a file in place in canonical form" {
	variant noncanon.reserves "$DATA/example.reserves" -e 's/^(u n1 c1) 66$/\1 66.0/' -e '/^#/d'
	run -0 --separate-stderr ovb-fmt -i "$BAD"
	assert_output ''
	cmp "$BAD" "$DATA/example.reserves"
	# the RSL example becomes ovb-apps
	cp "$DATA/example.rsl" "$BATS_TEST_TMPDIR/x.rsl"
	run -0 --separate-stderr ovb-fmt -i "$BATS_TEST_TMPDIR/x.rsl"
	assert_equal "$(head -n1 "$BATS_TEST_TMPDIR/x.rsl")" 'ovb-apps 1'
}

@test "cli: -i leaves an invalid file untouched (65)" {
	variant bad.cluster "$DATA/example.cluster" -e 's/^(node n4) 2 /\1 0 /' -e 's/^(node n1) 4 /\1 4.0 /'
	cp "$BAD" "$BATS_TEST_TMPDIR/copy"
	run -65 --separate-stderr ovb-fmt -i "$BAD"
	cmp "$BAD" "$BATS_TEST_TMPDIR/copy"
	assert_error_line "$BAD" "$(line_of '^node n4 ' "$BAD")" '0'
}

@test "cli: two files, one bad: the other is still checked, status 65" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n2) 4 /\1 12abc /'
	run -65 --separate-stderr ovb-fmt "$BAD" "$DATA/example.usage"
	assert_output ''
	assert_error_line "$BAD" "$(line_of '^node n2 ' "$BAD")" 12abc
	run -65 --separate-stderr ovb-fmt "$DATA/example.usage" "$BAD"
	assert_error_line "$BAD" "$(line_of '^node n2 ' "$BAD")" 12abc
	# the file after a bad one is really read: its own error is reported
	local bad1=$BAD
	variant bad.usage "$DATA/example.usage" 's/^bin 4 3$/bin 4 2/'
	run -65 --separate-stderr ovb-fmt "$bad1" "$DATA/example.onoff" "$BAD"
	assert_equal "${#stderr_lines[@]}" 2
	[[ ${stderr_lines[0]} == "ovb-fmt: $bad1:4: "* ]]
	[[ ${stderr_lines[1]} == "ovb-fmt: $BAD:5: "* ]]
	# and its canonical form is still written
	run -65 --separate-stderr ovb-fmt --canonical "$bad1" "$DATA/example.cluster"
	assert_equal "$output" "$(cat "$DATA/example.cluster")"
}

@test "cli: a missing and a bad file: status 66, the larger" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n2) 4 /\1 12abc /'
	run -66 --separate-stderr ovb-fmt "$BATS_TEST_TMPDIR/missing" "$BAD"
	[[ $stderr == *'cannot open'* && $stderr == *12abc* ]]
}

@test "cli: --type forces a format and rejects another format's magic at line 1" {
	assert_fmt_error --type=cluster "$DATA/example.usage" 1 ovb-usage
	assert_fmt_error --type=usage "$DATA/example.profile" 1 ovb-profile
	assert_fmt_error --type=plan "$DATA/example.rsl" 2 Application
}

# ---------------------------------------------------------------------------
# Lexical rules shared by all formats.

@test "lex: a NUL byte in a line is an error at that line" {
	local f=$BATS_TEST_TMPDIR/nul.cluster
	printf 'ovb-cluster 1\nnode n1 4 cpu 1 B/s\nnode n2 4 cpu\0 1 B/s\n' >"$f"
	assert_fmt_error "$f" 3 NUL
	printf 'ovb-cluster 1\nnode n1 4 cpu 1 B/s\n# comment \0\n' >"$f"
	assert_fmt_error "$f" 3 NUL
}

@test "lex: blanks are spaces and tabs: a vertical tab or form feed in a record is an error at its line" {
	local f=$BATS_TEST_TMPDIR/ws.cluster c
	for c in '\v' '\f'; do
		printf "ovb-cluster 1\nnode n1 4 cpu 1 B/s\nnode n2 4${c}cpu 1 B/s\n" >"$f"
		assert_fmt_error "$f" 3 "spaces and tabs"
		printf "ovb-cluster 1\nnode n1 4 cpu 1 B/s\n${c}node n2 4 cpu 1 B/s\n" >"$f"
		assert_fmt_error "$f" 3 "spaces and tabs"
		printf "ovb-cluster 1\nnode n1 4 cpu 1 B/s${c}\n" >"$f"
		assert_fmt_error "$f" 2 "spaces and tabs"
		# a comment is free text
		printf "ovb-cluster 1\nnode n1 4 cpu 1 B/s # a${c}b\n" >"$f"
		run -0 --separate-stderr ovb-fmt "$f"
	done
	# tabs are blanks
	printf 'ovb-cluster 1\nnode\tn1\t4 cpu\t \t1 B/s\n' >"$f"
	run -0 --separate-stderr ovb-fmt "$f"
}

@test "lex: lines up to 65536 bytes (with the newline) are read, longer ones rejected" {
	local f=$BATS_TEST_TMPDIR/long.cluster pad
	pad=$(head -c 65533 /dev/zero | tr '\0' x)
	# "# " + 65533 + "\n" = 65536 bytes: accepted
	{ cat "$DATA/example.cluster"; printf '# %s\n' "$pad"; } >"$f"
	run -0 --separate-stderr ovb-fmt "$f"
	# one byte more: rejected at that line, never truncated
	{ cat "$DATA/example.cluster"; printf '# %sx\n' "$pad"; echo 'node n9 1 cpu 1 B/s'; } >"$f"
	assert_fmt_error "$f" 7 65536
}

@test "lex: at most 64 fields per record" {
	local f=$BATS_TEST_TMPDIR/fields.cluster labels
	labels=$(for i in $(seq 58); do printf ' k%d=v' "$i"; done)
	printf 'ovb-cluster 1\nnode n1 4 cpu 1 B/s%s\n' "$labels" >"$f"
	run -0 --separate-stderr ovb-fmt "$f"
	printf 'ovb-cluster 1\n\nnode n1 4 cpu 1 B/s%s k59=v\n' "$labels" >"$f"
	assert_fmt_error "$f" 3 64
}

@test "lex: names of 128 bytes are valid, 129 bytes or bad characters are not" {
	local f=$BATS_TEST_TMPDIR/names.cluster n128
	n128=$(head -c 128 /dev/zero | tr '\0' a)
	printf 'ovb-cluster 1\nnode %s 4 cpu 1 B/s\nnode _x.y:z+w@v/u-t 1 cpu 1 B/s\n' "$n128" >"$f"
	run -0 --separate-stderr ovb-fmt "$f"
	printf 'ovb-cluster 1\nnode %sa 4 cpu 1 B/s\n' "$n128" >"$f"
	assert_fmt_error "$f" 2 'not a valid name'
	for bad in -n1 .n1 'n$1' 'n,1' 'n"1' 'nœ'; do
		printf 'ovb-cluster 1\nnode %s 4 cpu 1 B/s\n' "$bad" >"$f"
		assert_fmt_error "$f" 2 'not a valid name'
	done
}

@test "lex: malformed reals are rejected (12abc nan inf 0x10 +1 .5 1. 1e 1,5 1e999 1e-400)" {
	local f=$BATS_TEST_TMPDIR/num.cluster
	for x in 12abc nan NaN inf Infinity 0x10 +1 .5 1. 1e 1e+ 1,5 1_000 '1 000' 1e999 1e-400 --1 -; do
		printf 'ovb-cluster 1\n# x\nnode n1 %s cpu 125000000 B/s\n' "$x" >"$f"
		run -65 --separate-stderr ovb-fmt "$f"
		assert_error_line "$f" 3
	done
}

@test "lex: valid reals in any spelling, written back canonically" {
	local f=$BATS_TEST_TMPDIR/num.cluster
	for x in 4 4.0 4e0 04 0.4E1 40e-1 4.000e+00; do
		printf 'ovb-cluster 1\nnode n1 %s cpu 125000000 B/s\n' "$x" >"$f"
		run -0 --separate-stderr ovb-fmt --canonical "$f"
		assert_line 'node n1 4 cpu 125000000 B/s'
	done
	printf 'ovb-cluster 1\nnode a 0.1 cpu 1.25e8 B/s\nnode b 0.00001 cpu 9007199254740991 B/s\nnode c 2.50 cpu 9007199254740992 B/s\nnode d 1e-3 cpu 1e20 B/s\n' >"$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_line 'node a 0.1 cpu 125000000 B/s'
	assert_line 'node b 1e-05 cpu 9007199254740991 B/s'
	# 2^53 is not below 2^53: shortest %g, which is %.16g, i.e. plain digits
	assert_line 'node c 2.5 cpu 9007199254740992 B/s'
	assert_line 'node d 0.001 cpu 1e+20 B/s'
}

@test "lex: keywords and units are case-sensitive" {
	variant case.cluster "$DATA/example.cluster" 's/^node n1 /Node n1 /'
	assert_fmt_error "$BAD" "$(line_of '^Node n1 ' "$BAD")" Node
	variant case2.cluster "$DATA/example.cluster" 's/^(node n1 4) cpu /\1 CPU /'
	assert_fmt_error "$BAD" "$(line_of '^node n1 ' "$BAD")" CPU
}

# ---------------------------------------------------------------------------
# onoff

@test "onoff: wrong version (ovb-onoff 2)" {
	variant bad.onoff "$DATA/example.onoff" '1s/^ovb-onoff 1$/ovb-onoff 2/'
	assert_fmt_error "$BAD" 1 version
}

@test "onoff: another format's magic (--type onoff on ovb-usage)" {
	variant bad.onoff "$DATA/example.onoff" '1s/^ovb-onoff 1$/ovb-usage 1/'
	assert_fmt_error --type=onoff "$BAD" 1 ovb-usage
}

@test "onoff: unknown record" {
	variant bad.onoff "$DATA/example.onoff" 's/^send db /sent db /'
	assert_fmt_error "$BAD" "$(line_of '^sent db' "$BAD")" sent
}

@test "onoff: cpus 0" {
	variant bad.onoff "$DATA/example.onoff" 's/^cpus 4$/cpus 0/'
	assert_fmt_error "$BAD" "$(line_of '^cpus' "$BAD")" cpus
}

@test "onoff: cpus given twice" {
	variant bad.onoff "$DATA/example.onoff" '/^span /i\
cpus 4'
	assert_fmt_error "$BAD" "$(line_of '^span ' "$BAD" | awk '{print $1-1}')" cpus
}

@test "onoff: missing span (reported at the end of the input)" {
	variant bad.onoff "$DATA/example.onoff" '/^span /d'
	assert_fmt_error "$BAD" "$(nlines "$BAD")" span
}

@test "onoff: span may come last (writers stream it at the end)" {
	variant last.onoff "$DATA/example.onoff" -e '/^span /{h;d}' -e '$G'
	run -0 --separate-stderr ovb-fmt --canonical "$BAD"
	assert_equal "$output" "$(cat "$DATA/example.onoff")"
}

@test "onoff: records of capsules interleaved in time order; canonical groups them" {
	local f=$BATS_TEST_TMPDIR/interleaved.onoff
	{
		grep -E '^(ovb-onoff|cpus|capsule) ' "$DATA/example.onoff"
		grep -E '^(busy|send|recv) ' "$DATA/example.onoff" | sort -s -n -k3,3
		grep -E '^(gap|span) ' "$DATA/example.onoff" | sort -r
	} >"$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_equal "$output" "$(cat "$DATA/example.onoff")"
}

@test "onoff: span given twice, and a number beyond 2^64-1" {
	variant bad.onoff "$DATA/example.onoff" '$a\
span 1000000000 3000000000'
	assert_fmt_error "$BAD" "$(nlines "$BAD")" span
	variant bad2.onoff "$DATA/example.onoff" 's/^recv db 1099000000 300$/recv db 1099000000 18446744073709551616/'
	assert_fmt_error "$BAD" "$(line_of '^recv db' "$BAD")" 18446744073709551616
}

@test "onoff: span with T0 >= T1" {
	variant bad.onoff "$DATA/example.onoff" 's/^span 1000000000 3000000000$/span 3000000000 3000000000/'
	assert_fmt_error "$BAD" "$(line_of '^span ' "$BAD")" span
}

@test "onoff: duplicate capsule name" {
	variant bad.onoff "$DATA/example.onoff" 's/^capsule db pid:4242$/capsule web pid:4242/'
	assert_fmt_error "$BAD" "$(line_of '^capsule web pid' "$BAD")" web
}

@test "onoff: selector that is not pid:N, comm:REGEX or cgroup:PATH" {
	variant bad.onoff "$DATA/example.onoff" 's/^capsule db pid:4242$/capsule db uid:4242/'
	assert_fmt_error "$BAD" "$(line_of '^capsule db' "$BAD")" uid:4242
}

@test "onoff: pid selector that is not a number (pid:N, stricter reading)" {
	variant bad.onoff "$DATA/example.onoff" 's/^capsule db pid:4242$/capsule db pid:abc/'
	assert_fmt_error "$BAD" "$(line_of '^capsule db' "$BAD")" pid:abc
}

@test "onoff: busy record of an undeclared capsule" {
	variant bad.onoff "$DATA/example.onoff" 's/^busy db 2510000000 /busy dbx 2510000000 /'
	assert_fmt_error "$BAD" "$(line_of '^busy dbx' "$BAD")" dbx
}

@test "onoff: busy periods out of order" {
	# swap the first two busy records of web
	variant bad.onoff "$DATA/example.onoff" -e '/^busy web 1000000000 /{h;d}' -e '/^busy web 1000250000 /G'
	assert_fmt_error "$BAD" "$(line_of '^busy web 1000000000 ' "$BAD")" busy
}

@test "onoff: overlapping busy periods" {
	variant bad.onoff "$DATA/example.onoff" 's/^busy web 1000250000 1000300000 2$/busy web 1000200000 1000300000 2/'
	assert_fmt_error "$BAD" "$(line_of '^busy web 1000200000 ' "$BAD")" busy
}

@test "onoff: touching busy periods are fine, START = END is not" {
	run -0 --separate-stderr ovb-fmt "$DATA/example.onoff"   # 1000250000 touches
	variant bad.onoff "$DATA/example.onoff" 's/^busy web 1200000000 1210000000 1$/busy web 1200000000 1200000000 1/'
	assert_fmt_error "$BAD" "$(line_of '^busy web 1200000000 ' "$BAD")" 1200000000
}

@test "onoff: busy CPUS above cpus, and CPUS 0" {
	variant bad.onoff "$DATA/example.onoff" 's/^(busy web 2500000000 2600000000) 3$/\1 5/'
	assert_fmt_error "$BAD" "$(line_of '^busy web 2500000000 ' "$BAD")" 5
	variant bad0.onoff "$DATA/example.onoff" 's/^(busy web 2500000000 2600000000) 3$/\1 0/'
	assert_fmt_error "$BAD" "$(line_of '^busy web 2500000000 ' "$BAD")" 0
}

@test "onoff: busy before cpus" {
	variant bad.onoff "$DATA/example.onoff" -e '/^cpus 4$/d' -e '$a\
cpus 4'
	assert_fmt_error "$BAD" "$(line_of '^busy ' "$BAD")" cpus
}

@test "onoff: a time that is not an unsigned integer (12abc, -5, 1.5)" {
	variant bad.onoff "$DATA/example.onoff" 's/^send web 2550000000 /send web 12abc /'
	assert_fmt_error "$BAD" "$(line_of '^send web 12abc' "$BAD")" 12abc
	variant bad2.onoff "$DATA/example.onoff" 's/^recv db 1099000000 300$/recv db 1099000000 -5/'
	assert_fmt_error "$BAD" "$(line_of '^recv db' "$BAD")" -5
	variant bad3.onoff "$DATA/example.onoff" 's/^busy db 1100000000 /busy db 1100000000.5 /'
	assert_fmt_error "$BAD" "$(line_of '^busy db 1100000000' "$BAD")" 1100000000.5
}

@test "onoff: send times going backwards" {
	variant bad.onoff "$DATA/example.onoff" 's/^send web 2550000000 /send web 1000000000 /'
	assert_fmt_error "$BAD" "$(line_of '^send web 1000000000 ' "$BAD")" send
}

@test "onoff: a time after the span's end (the message names the span line)" {
	variant bad.onoff "$DATA/example.onoff" 's/^send db 1150000000 /send db 3500000000 /'
	assert_fmt_error "$BAD" "$(line_of '^send db ' "$BAD")" 3500000000 "line $(line_of '^span' "$BAD")"
}

@test "onoff: a time before the span's start (the message names the span line)" {
	variant bad.onoff "$DATA/example.onoff" 's/^recv db 1099000000 /recv db 999000000 /'
	assert_fmt_error "$BAD" "$(line_of '^recv db ' "$BAD")" 999000000 "line $(line_of '^span' "$BAD")"
}

@test "onoff: gap with START > END, and LOST 0" {
	variant bad.onoff "$DATA/example.onoff" 's/^gap 2000000000 2000500000 17$/gap 2000500001 2000500000 17/'
	assert_fmt_error "$BAD" "$(line_of '^gap ' "$BAD")" gap
	variant bad2.onoff "$DATA/example.onoff" 's/^gap 2000000000 2000500000 17$/gap 2000000000 2000500000 0/'
	assert_fmt_error "$BAD" "$(line_of '^gap ' "$BAD")" lost
}

@test "onoff: overlapping gaps" {
	variant bad.onoff "$DATA/example.onoff" '$a\
gap 2000400000 2000600000 3'
	assert_fmt_error "$BAD" "$(nlines "$BAD")" gap
}

@test "onoff: gaps are closed intervals: touching gaps overlap (stricter reading)" {
	variant bad.onoff "$DATA/example.onoff" '$a\
gap 2000500000 2000600000 3'
	assert_fmt_error "$BAD" "$(nlines "$BAD")" gap
}

# ---------------------------------------------------------------------------
# usage

@test "usage: wrong version and another format's magic" {
	variant bad.usage "$DATA/example.usage" '1s/^ovb-usage 1$/ovb-usage 2/'
	assert_fmt_error "$BAD" 1 version
	variant bad2.usage "$DATA/example.usage" '1s/^ovb-usage 1$/ovb-profile 1/'
	assert_fmt_error --type=usage "$BAD" 1 ovb-profile
}

@test "usage: counts not adding up to intervals (reported at the block's usage line)" {
	variant bad.usage "$DATA/example.usage" 's/^bin 4 3$/bin 4 2/'
	assert_fmt_error "$BAD" "$(line_of '^usage web cpu' "$BAD")" 19 20
}

@test "usage: missing required intervals record (at the block's usage line)" {
	variant bad.usage "$DATA/example.usage" '/^intervals 10$/d'
	assert_fmt_error "$BAD" "$(line_of '^usage db cpu' "$BAD")" intervals
}

@test "usage: missing width in a block followed by another block" {
	variant bad.usage "$DATA/example.usage" '/^width 1000000 B\/s$/d'
	assert_fmt_error "$BAD" "$(line_of '^usage web net' "$BAD")" width
}

@test "usage: interval given twice" {
	variant bad.usage "$DATA/example.usage" '0,/^interval 1 s$/s//interval 1 s\ninterval 2 s/'
	assert_fmt_error "$BAD" "$(line_of '^interval 2 s' "$BAD")" interval
}

@test "usage: duplicate (CAPSULE, RES) block" {
	variant bad.usage "$DATA/example.usage" 's/^usage db cpu$/usage web cpu/'
	assert_fmt_error "$BAD" 28 'web cpu'
}

@test "usage: unknown resource" {
	variant bad.usage "$DATA/example.usage" 's/^usage db cpu$/usage db disk/'
	assert_fmt_error "$BAD" 28 disk
}

@test "usage: a record before the first usage record" {
	variant bad.usage "$DATA/example.usage" '0,/^usage web cpu$/s//intervals 3\nusage web cpu/'
	assert_fmt_error "$BAD" 5 intervals
}

@test "usage: unknown record" {
	variant bad.usage "$DATA/example.usage" 's/^bin 2 3$/bucket 2 3/'
	assert_fmt_error "$BAD" "$(line_of '^bucket' "$BAD")" bucket
}

@test "usage: nan, 12abc and negative numbers" {
	variant bad.usage "$DATA/example.usage" '0,/^interval 1 s$/s//interval nan s/'
	assert_fmt_error "$BAD" 6 nan
	variant bad2.usage "$DATA/example.usage" 's/^width 0.5 cpu$/width 12abc cpu/'
	assert_fmt_error "$BAD" 30 12abc
	variant bad3.usage "$DATA/example.usage" 's/^mean 0.45 cpu$/mean -0.45 cpu/'
	assert_fmt_error "$BAD" 32 -0.45
	variant bad4.usage "$DATA/example.usage" 's/^bin 3 1$/bin 3 -1/'
	assert_fmt_error "$BAD" 37 -1
}

@test "usage: interval 0, width 0 and intervals 0 are out of range" {
	variant bad.usage "$DATA/example.usage" 's/^interval 1 s$/interval 0 s/'
	assert_fmt_error "$BAD" 6 interval
	variant bad2.usage "$DATA/example.usage" 's/^width 0.25 cpu$/width 0 cpu/'
	assert_fmt_error "$BAD" 7 width
	variant bad3.usage "$DATA/example.usage" 's/^intervals 10$/intervals 0/'
	assert_fmt_error "$BAD" 31 intervals
}

@test "usage: wrong unit (B/s in a cpu block, ms for an interval)" {
	variant bad.usage "$DATA/example.usage" 's/^width 0.25 cpu$/width 0.25 B\/s/'
	assert_fmt_error "$BAD" 7 'B/s'
	variant bad2.usage "$DATA/example.usage" 's/^mean 1250000 B\/s$/mean 1250000 cpu/'
	assert_fmt_error "$BAD" 21 'B/s'
	variant bad3.usage "$DATA/example.usage" '0,/^interval 1 s$/s//interval 1 ms/'
	assert_fmt_error "$BAD" 6 ms
}

@test "usage: bin K repeated, and K >= 1000000" {
	variant bad.usage "$DATA/example.usage" 's/^bin 1 8$/bin 1 8\nbin 1 0/'
	assert_fmt_error "$BAD" 15 'bin 1'
	variant bad2.usage "$DATA/example.usage" 's/^bin 4 3$/bin 1000000 3/'
	assert_fmt_error "$BAD" 16 1000000
	# the largest index is fine
	variant ok.usage "$DATA/example.usage" -e 's/^bin 4 3$/bin 999999 3/' -e 's/^(mean|pct 99) .*$//'
	run -0 --separate-stderr ovb-fmt "$BAD"
}

@test "usage: mean outside the bounds the histogram allows" {
	# web cpu: bounds (5*0.25 + 3*0.75)/20 = 0.175 .. (8*0.25 + 5*0.5 + 3*1)/20 = 0.375
	variant bad.usage "$DATA/example.usage" 's/^mean 0.3 cpu$/mean 0.38 cpu/'
	assert_fmt_error "$BAD" 5 mean
	variant bad2.usage "$DATA/example.usage" 's/^mean 0.3 cpu$/mean 0.17 cpu/'
	assert_fmt_error "$BAD" 5 mean
	variant ok.usage "$DATA/example.usage" 's/^mean 0.3 cpu$/mean 0.375 cpu/'
	run -0 --separate-stderr ovb-fmt "$BAD"
	variant ok2.usage "$DATA/example.usage" 's/^mean 0.3 cpu$/mean 0.175 cpu/'
	run -0 --separate-stderr ovb-fmt "$BAD"
}

@test "usage: percentile value outside the bin holding its rank" {
	# pct 50 of web cpu: rank 10 lies in bin 1 = (0, 0.25]
	variant bad.usage "$DATA/example.usage" 's/^pct 50 0.2 cpu$/pct 50 0.3 cpu/'
	assert_fmt_error "$BAD" 5 pct
	# pct 99 of db cpu (pct 100): rank 10 lies in bin 3 = (1, 1.5]
	variant bad2.usage "$DATA/example.usage" 's/^pct 100 1.3 cpu$/pct 100 0.9 cpu/'
	assert_fmt_error "$BAD" 28 pct
	# rank 1 lies in bin 0: exactly 0
	variant bad3.usage "$DATA/example.usage" 's/^pct 0 0 cpu$/pct 0 0.01 cpu/'
	assert_fmt_error "$BAD" 5 pct
	variant ok.usage "$DATA/example.usage" 's/^pct 50 0.2 cpu$/pct 50 0.25 cpu/'
	run -0 --separate-stderr ovb-fmt "$BAD"
}

@test "usage: nearest rank at an exact boundary (P/100*N integral despite rounding)" {
	local f=$BATS_TEST_TMPDIR/rank.usage
	# N = 10, P = 30: rank 3, the last interval of bin 1 (0.3*10 is 3.0000000000000004)
	mk() { printf 'ovb-usage 1\nusage x cpu\ninterval 1 s\nwidth 0.1 cpu\nintervals %s\npct %s %s cpu\nbin 1 %s\nbin 2 %s\n' "$@" >"$f"; }
	mk 10 30 0.05 3 7
	run -0 --separate-stderr ovb-fmt "$f"
	mk 10 30 0.15 3 7
	assert_fmt_error "$f" 2 pct
	mk 10 31 0.15 3 7
	run -0 --separate-stderr ovb-fmt "$f"
	# N = 1000, P = 14.3: rank 143 (14.3*1000/100 is 143.00000000000003)
	mk 1000 14.3 0.05 143 857
	run -0 --separate-stderr ovb-fmt "$f"
	mk 1000 14.3 0.15 143 857
	assert_fmt_error "$f" 2 pct
	mk 1000 14.4 0.15 143 857
	run -0 --separate-stderr ovb-fmt "$f"
}

@test "usage: a percentile of 0 for a rank in bin 1 (usage 0 belongs to bin 0 only)" {
	# web cpu pct 50: rank 10 lies in bin 1 = (0, 0.25], which excludes 0
	variant bad.usage "$DATA/example.usage" 's/^pct 50 0.2 cpu$/pct 50 0 cpu/'
	assert_fmt_error "$BAD" 5 pct
}

@test "usage: percentile P outside [0,100] or given twice" {
	variant bad.usage "$DATA/example.usage" 's/^pct 99 0.95 cpu$/pct 150 0.95 cpu/'
	assert_fmt_error "$BAD" 12 150
	variant bad2.usage "$DATA/example.usage" 's/^pct 99 0.95 cpu$/pct 50 0.1 cpu/'
	assert_fmt_error "$BAD" 12 50
}

@test "usage: canonical form sorts pct and bin records and drops zero counts" {
	# reverse the records of each block and add a zero-count bin
	local f=$BATS_TEST_TMPDIR/shuffled.usage
	awk 'NR == 1 { print; next }
		/^#/ { next }
		/^usage / { flush(); print; next }
		{ buf[n++] = $0 }
		END { flush() }
		function flush(i) { for (i = n - 1; i >= 0; i--) print buf[i]; n = 0 }' \
		"$DATA/example.usage" | sed -E 's/^usage web net$/bin 3 0\n&/' >"$f"
	run -0 --separate-stderr ovb-fmt "$f"
	run -1 --separate-stderr ovb-fmt -l "$f"
	assert_output "$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_equal "$output" "$(cat "$DATA/example.usage")"
}

# ---------------------------------------------------------------------------
# profile

@test "profile: records of a block in any order (curve points in order); canonical order" {
	local f=$BATS_TEST_TMPDIR/shuffled.profile
	awk 'NR == 1 { print; next }
		/^#/ { next }
		/^profile / { flush(); print; next }
		/^curve / { print; next }
		{ buf[n++] = $0 }
		END { flush() }
		function flush(i) { for (i = n - 1; i >= 0; i--) print buf[i]; n = 0 }' \
		"$DATA/example.profile" >"$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_equal "$output" "$(cat "$DATA/example.profile")"
}

@test "profile: wrong version and another format's magic" {
	variant bad.profile "$DATA/example.profile" '1s/^ovb-profile 1$/ovb-profile 2/'
	assert_fmt_error "$BAD" 1 version
	variant bad2.profile "$DATA/example.profile" '1s/^ovb-profile 1$/ovb-usage 1/'
	assert_fmt_error --type=profile "$BAD" 1 ovb-usage
}

@test "profile: probability O 1.5, and O 1 (tolerance must be below 1)" {
	variant bad.profile "$DATA/example.profile" 's/^O 0.01$/O 1.5/'
	assert_fmt_error "$BAD" 8 1.5
	variant bad2.profile "$DATA/example.profile" 's/^O 0.05$/O 1/'
	assert_fmt_error "$BAD" 26 1
	variant bad3.profile "$DATA/example.profile" 's/^O 0$/O -0.1/'
	assert_fmt_error "$BAD" 43 -0.1
}

@test "profile: missing required sigma (at the block's profile line)" {
	variant bad.profile "$DATA/example.profile" '/^sigma 4500000 B\/s$/d'
	assert_fmt_error "$BAD" 22 sigma
}

@test "profile: missing required O in the last block" {
	variant bad.profile "$DATA/example.profile" '/^O 0$/d'
	assert_fmt_error "$BAD" 39 O
}

@test "profile: missing U records (no bins: counts do not add up)" {
	variant bad.profile "$DATA/example.profile" '/^bin [0-9]+ [0-9]+$/d'
	assert_fmt_error "$BAD" 4 intervals
}

@test "profile: wrong units (rho in cpu, sigma in B/s for cpu, tau in ms)" {
	variant bad.profile "$DATA/example.profile" 's/^rho 0.02 cpu-s$/rho 0.02 cpu/'
	assert_fmt_error "$BAD" 6 cpu-s
	variant bad2.profile "$DATA/example.profile" 's/^sigma 0.95 cpu$/sigma 0.95 B\/s/'
	assert_fmt_error "$BAD" 5 'B/s'
	variant bad3.profile "$DATA/example.profile" 's/^rho 200000 B$/rho 200000 B\/s/'
	assert_fmt_error "$BAD" 24 'B/s'
	variant bad4.profile "$DATA/example.profile" 's/^tau 0.1 s$/tau 100 ms/'
	assert_fmt_error "$BAD" 42 ms
}

@test "profile: negative sigma, negative rho, tau 0" {
	variant bad.profile "$DATA/example.profile" 's/^sigma 1.3 cpu$/sigma -1.3 cpu/'
	assert_fmt_error "$BAD" 40 -1.3
	variant bad2.profile "$DATA/example.profile" 's/^rho 0.1 cpu-s$/rho -0.1 cpu-s/'
	assert_fmt_error "$BAD" 41 -0.1
	variant bad3.profile "$DATA/example.profile" 's/^tau 0.1 s$/tau 0 s/'
	assert_fmt_error "$BAD" 42 tau
}

@test "profile: sigma given twice" {
	variant bad.profile "$DATA/example.profile" 's/^rho 0.1 cpu-s$/sigma 1.3 cpu/'
	assert_fmt_error "$BAD" 41 sigma
}

@test "profile: duplicate (CAPSULE, RES) block" {
	variant bad.profile "$DATA/example.profile" 's/^profile db cpu$/profile web net/'
	assert_fmt_error "$BAD" 39 'web net'
}

@test "profile: counts not adding up (at the block's profile line)" {
	variant bad.profile "$DATA/example.profile" 's/^bin 3 1$/bin 3 2/'
	assert_fmt_error "$BAD" 39 11
}

@test "profile: percentile inconsistent with the bins" {
	variant bad.profile "$DATA/example.profile" 's/^pct 95 4500000 B\/s$/pct 95 3500000 B\/s/'
	assert_fmt_error "$BAD" 22 pct
}

@test "profile: curve with non-increasing SIGMA" {
	variant bad.profile "$DATA/example.profile" 's/^curve 0.5 0.15$/curve 0.25 0.15/'
	assert_fmt_error "$BAD" 20 curve
}

@test "profile: curve with increasing RHO" {
	variant bad.profile "$DATA/example.profile" 's/^curve 5000000 0$/curve 5000000 1000001/'
	assert_fmt_error "$BAD" 38 1000001
}

@test "profile: non-convex curve" {
	# slopes -0.2 then -0.7: decreasing
	variant bad.profile "$DATA/example.profile" 's/^curve 0.5 0.15$/curve 0.5 0.35/'
	assert_fmt_error "$BAD" 21 convex
}

@test "profile: (sigma, rho) below the curve, and sigma below its first point" {
	# curve(0.95) = 0.015
	variant bad.profile "$DATA/example.profile" 's/^rho 0.02 cpu-s$/rho 0.01 cpu-s/'
	assert_fmt_error "$BAD" 4 curve
	variant ok.profile "$DATA/example.profile" 's/^rho 0.02 cpu-s$/rho 0.015 cpu-s/'
	run -0 --separate-stderr ovb-fmt "$BAD"
	variant bad2.profile "$DATA/example.profile" 's/^sigma 4500000 B\/s$/sigma 500000 B\/s/'
	assert_fmt_error "$BAD" 22 curve
}

@test "profile: record before the first profile record, and unknown record" {
	variant bad.profile "$DATA/example.profile" '0,/^profile web cpu$/s//sigma 1 cpu\nprofile web cpu/'
	assert_fmt_error "$BAD" 4 sigma
	variant bad2.profile "$DATA/example.profile" 's/^tau 1 s$/period 1 s/'
	assert_fmt_error "$BAD" 7 period
}

# ---------------------------------------------------------------------------
# cluster

@test "cluster: wrong version and another format's magic" {
	variant bad.cluster "$DATA/example.cluster" '1s/^ovb-cluster 1$/ovb-cluster 2/'
	assert_fmt_error "$BAD" 1 version
	variant bad2.cluster "$DATA/example.cluster" '1s/^ovb-cluster 1$/ovb-plan 1/'
	assert_fmt_error --type=cluster "$BAD" 1 ovb-plan
	variant bad3.cluster "$DATA/example.cluster" '1s/^ovb-cluster 1$/ovb-cluster 1 x/'
	assert_fmt_error "$BAD" 1 ovb-cluster
	variant bad4.cluster "$DATA/example.cluster" '1s/^ovb-cluster 1$/ovb-cluster/'
	assert_fmt_error "$BAD" 1 ovb-cluster
}

@test "cluster: capacity 12abc" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n2) 4 /\1 12abc /'
	assert_fmt_error "$BAD" 4 12abc
}

@test "cluster: negative and zero capacities" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n3) 8 /\1 -8 /'
	assert_fmt_error "$BAD" 5 -8
	variant bad2.cluster "$DATA/example.cluster" 's/^(node n4 2 cpu) 12500000 /\1 0 /'
	assert_fmt_error "$BAD" 6 0
}

@test "cluster: wrong or missing unit" {
	variant bad.cluster "$DATA/example.cluster" 's/^(node n1 4) cpu /\1 cores /'
	assert_fmt_error "$BAD" 3 cores
	variant bad2.cluster "$DATA/example.cluster" 's/^(node n2 4 cpu 125000000) B\/s /\1 b\/s /'
	assert_fmt_error "$BAD" 4 'b/s'
	variant bad3.cluster "$DATA/example.cluster" 's/^node n4 .*$/node n4 2 cpu 12500000/'
	assert_fmt_error "$BAD" 6 node
}

@test "cluster: duplicate node name (the message gives the first line)" {
	variant bad.cluster "$DATA/example.cluster" 's/^node n3 /node n1 /'
	assert_fmt_error "$BAD" 5 n1 'line 3'
}

@test "cluster: malformed and duplicate labels" {
	variant bad.cluster "$DATA/example.cluster" 's/ rack=r1 zone=eu-west-1a$/ rack zone=eu-west-1a/'
	assert_fmt_error "$BAD" 3 rack
	variant bad2.cluster "$DATA/example.cluster" 's/ role=edge$/ rack=r3/'
	assert_fmt_error "$BAD" 6 rack
	variant bad3.cluster "$DATA/example.cluster" 's/ role=edge$/ =edge/'
	assert_fmt_error "$BAD" 6 '=edge'
	variant bad4.cluster "$DATA/example.cluster" 's/ role=edge$/ role=/'
	assert_fmt_error "$BAD" 6 'role='
	variant bad5.cluster "$DATA/example.cluster" 's/ role=edge$/ role=a=b/'
	assert_fmt_error "$BAD" 6 'role=a=b'
}

@test "cluster: unknown record" {
	variant bad.cluster "$DATA/example.cluster" 's/^node n2 /host n2 /'
	assert_fmt_error "$BAD" 4 host
}

@test "cluster: no nodes (reported at the end of the input)" {
	variant bad.cluster "$DATA/example.cluster" '/^node /d'
	assert_fmt_error "$BAD" 2 node
}

# ---------------------------------------------------------------------------
# apps

@test "apps: wrong version and another format's magic" {
	variant bad.apps "$DATA/example.apps" '1s/^ovb-apps 1$/ovb-apps 2/'
	assert_fmt_error "$BAD" 1 version
	variant bad2.apps "$DATA/example.apps" '1s/^ovb-apps 1$/ovb-cluster 1/'
	assert_fmt_error --type=apps "$BAD" 1 ovb-cluster
}

@test "apps: probability O=1.5 and tolerance O=1" {
	variant bad.apps "$DATA/example.apps" 's/^app huge O=0.05$/app huge O=1.5/'
	assert_fmt_error "$BAD" 12 1.5
	variant bad2.apps "$DATA/example.apps" 's/^(capsule db profile=db node=n3)$/\1 O=1/'
	assert_fmt_error "$BAD" 7 O=1
}

@test "apps: bad numbers (nan, 12abc, negative, tau 0, aggregate 0)" {
	variant bad.apps "$DATA/example.apps" 's/ tau=2 / tau=nan /'
	assert_fmt_error "$BAD" 8 nan
	variant bad2.apps "$DATA/example.apps" 's/^capsule big cpu=16 /capsule big cpu=12abc /'
	assert_fmt_error "$BAD" 13 12abc
	variant bad3.apps "$DATA/example.apps" 's/^capsule big cpu=16 net=1000000$/capsule big cpu=16 net=-1/'
	assert_fmt_error "$BAD" 13 -1
	variant bad4.apps "$DATA/example.apps" 's/ tau=2 / tau=0 /'
	assert_fmt_error "$BAD" 8 tau
	variant bad5.apps "$DATA/example.apps" 's/ aggregate=2 / aggregate=0 /'
	assert_fmt_error "$BAD" 8 aggregate
}

@test "apps: duplicate application name" {
	variant bad.apps "$DATA/example.apps" 's/^app huge /app shop /'
	assert_fmt_error "$BAD" 12 shop
}

@test "apps: duplicate capsule name within an app (fine across apps)" {
	variant bad.apps "$DATA/example.apps" 's/^capsule w2 /capsule w1 /'
	assert_fmt_error "$BAD" 10 w1
	variant ok.apps "$DATA/example.apps" 's/^capsule big /capsule web /'
	run -0 --separate-stderr ovb-fmt "$BAD"
}

@test "apps: a profile and a plain reservation together" {
	variant bad.apps "$DATA/example.apps" 's/^capsule web profile=web$/capsule web profile=web cpu=1/'
	assert_fmt_error "$BAD" 6 profile
}

@test "apps: a capsule with neither a profile nor a positive reservation" {
	variant bad.apps "$DATA/example.apps" 's/^capsule big cpu=16 net=1000000$/capsule big cpu=0 net=0/'
	assert_fmt_error "$BAD" 13 big
	variant bad2.apps "$DATA/example.apps" 's/^capsule big cpu=16 net=1000000$/capsule big node=n1/'
	assert_fmt_error "$BAD" 13 big
}

@test "apps: a lower bound above the plain reservation" {
	variant bad.apps "$DATA/example.apps" 's/^(capsule w1 cpu=1 net=10000000) lb-cpu=0.5 /\1 lb-cpu=1.5 /'
	assert_fmt_error "$BAD" 9 lb
	variant bad2.apps "$DATA/example.apps" 's/ lb-net=1000000 / lb-net=20000000 /'
	assert_fmt_error "$BAD" 10 lb
}

@test "apps: unknown key, key given twice, not KEY=VALUE" {
	variant bad.apps "$DATA/example.apps" 's/^capsule web profile=web$/capsule web profile=web colour=red/'
	assert_fmt_error "$BAD" 6 colour
	variant bad2.apps "$DATA/example.apps" 's/^capsule big cpu=16 /capsule big cpu=16 cpu=8 /'
	assert_fmt_error "$BAD" 13 cpu
	variant bad3.apps "$DATA/example.apps" 's/^app huge O=0.05$/app huge O=0.05 O=0.01/'
	assert_fmt_error "$BAD" 12 O
	variant bad4.apps "$DATA/example.apps" 's/^app huge O=0.05$/app huge fast/'
	assert_fmt_error "$BAD" 12 fast
}

@test "apps: trade and op values" {
	variant bad.apps "$DATA/example.apps" 's/ trade=yes$/ trade=maybe/'
	assert_fmt_error "$BAD" 8 maybe
	variant bad2.apps "$DATA/example.apps" 's/ op=terminate$/ op=delete/'
	assert_fmt_error "$BAD" 15 delete
	variant ok.apps "$DATA/example.apps" -e 's/^app shop$/app shop trade=no op=new/' -e 's/ trade=yes$/ op=new trade=yes/'
	run -0 --separate-stderr ovb-fmt --canonical "$BAD"
	assert_equal "$output" "$(cat "$DATA/example.apps")"
}

@test "apps: trust outside [0,1], trust given twice" {
	variant bad.apps "$DATA/example.apps" 's/^trust batch 0.5$/trust batch 2/'
	assert_fmt_error "$BAD" 14 2
	variant bad2.apps "$DATA/example.apps" 's/^trust batch 0.5$/trust batch 0.5\ntrust batch 1/'
	assert_fmt_error "$BAD" 15 batch
}

@test "apps: an application without capsules (reported at its app line)" {
	variant bad.apps "$DATA/example.apps" 's/^app batch /app empty\napp batch /'
	assert_fmt_error "$BAD" 8 empty
	variant bad2.apps "$DATA/example.apps" 's/^app legacy op=terminate$/app legacy op=modify/'
	assert_fmt_error "$BAD" 15 legacy
}

@test "apps: capsule or trust before any app" {
	variant bad.apps "$DATA/example.apps" '1a\
capsule early cpu=1'
	assert_fmt_error "$BAD" 2 capsule
	variant bad2.apps "$DATA/example.apps" '1a\
trust shop 1'
	assert_fmt_error "$BAD" 2 trust
}

@test "apps: invalid names in profile= and node=" {
	variant bad.apps "$DATA/example.apps" 's/^capsule web profile=web$/capsule web profile=-web/'
	assert_fmt_error "$BAD" 6 -web
	variant bad2.apps "$DATA/example.apps" 's/^capsule db profile=db node=n3$/capsule db profile=db node=/'
	assert_fmt_error "$BAD" 7 node
}

@test "apps: unknown record" {
	variant bad.apps "$DATA/example.apps" 's/^trust shop 0$/distrust shop 0/'
	assert_fmt_error "$BAD" 11 distrust
}

@test "apps: canonical form drops defaults and orders keys" {
	variant shuffled.apps "$DATA/example.apps" \
		-e 's/^app batch O=0 tau=2 aggregate=2 trade=yes$/app batch trade=yes aggregate=2.0 tau=2 O=0 op=new/' \
		-e 's/^capsule w1 cpu=1 net=10000000 lb-cpu=0.5 epsilon=0.1$/capsule w1 epsilon=0.1 lb-cpu=0.5 net=1e7 cpu=1/'
	run -0 --separate-stderr ovb-fmt --canonical "$BAD"
	assert_equal "$output" "$(cat "$DATA/example.apps")"
}

# ---------------------------------------------------------------------------
# Sharc RSL (read as apps)

@test "rsl: Capsules count larger than the Capsule records (at the Application line)" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsules 2$/Capsules 3/'
	assert_fmt_error "$BAD" 2 3 2
}

@test "rsl: more Capsule records than Capsules announces" {
	variant bad.rsl "$DATA/example.rsl" '0,/^Capsules 3$/s//Capsules 2/'
	assert_fmt_error "$BAD" 15 'Capsule 3'
}

@test "rsl: Capsule records numbered out of sequence" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsule 2 Resv 0.25 /Capsule 3 Resv 0.25 /'
	assert_fmt_error "$BAD" 7 'Capsule 3'
}

@test "rsl: Capsules 0 for a new application (an app needs a capsule)" {
	variant bad.rsl "$DATA/example.rsl" -e '0,/^Capsules 2$/s//Capsules 0/' -e '/^Capsule [12] Resv 0.(5|25) /d'
	assert_fmt_error "$BAD" 2 1
}

@test "rsl: Resv outside (0,1]" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsule 1 Resv 0.5 /Capsule 1 Resv 1.5 /'
	assert_fmt_error "$BAD" 6 1.5
	variant bad2.rsl "$DATA/example.rsl" 's/^Capsule 1 Resv 0.5 /Capsule 1 Resv 0 /'
	assert_fmt_error "$BAD" 6 Resv
}

@test "rsl: Resv * without an AggregateResv" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsule 2 Resv 0.25 /Capsule 2 Resv * /'
	assert_fmt_error "$BAD" 7 AggregateResv
}

@test "rsl: Resv values not adding up to AggregateResv (at the Application line)" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsule 2 Resv 0.4 /Capsule 2 Resv 0.5 /'
	assert_fmt_error "$BAD" 17 AggregateResv
}

@test "rsl: LB above Resv (at the Application line)" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsule 1 Resv 0.5 Node n3 LB 0.2 /Capsule 1 Resv 0.5 Node n3 LB 0.7 /'
	assert_fmt_error "$BAD" 2 LB
}

@test "rsl: unknown op, bad TradeResources, unknown record" {
	variant bad.rsl "$DATA/example.rsl" 's/^Application 3 Modify$/Application 3 Delete/'
	assert_fmt_error "$BAD" 17 Delete
	variant bad2.rsl "$DATA/example.rsl" 's/^TradeResources no$/TradeResources maybe/'
	assert_fmt_error "$BAD" 4 TradeResources
	variant bad3.rsl "$DATA/example.rsl" 's/^AggregateResv 1$/Aggregate 1/'
	assert_fmt_error "$BAD" 18 Aggregate
}

@test "rsl: malformed Capsule record and duplicate application" {
	variant bad.rsl "$DATA/example.rsl" 's/^Capsule 2 Resv 0.25 Node \* LB \* Epsilon 0.05$/Capsule 2 Resv 0.25 Node * LB */'
	assert_fmt_error "$BAD" 7 Capsule
	variant bad2.rsl "$DATA/example.rsl" 's/^Application 3 Modify$/Application 1 Modify/'
	assert_fmt_error "$BAD" 17 1
}

@test "rsl: every application has its AggregateResv and TradeResources records (stricter reading of Fig. 2)" {
	variant bad.rsl "$DATA/example.rsl" '/^TradeResources no$/d'
	assert_fmt_error "$BAD" 2 TradeResources
	variant bad2.rsl "$DATA/example.rsl" '/^AggregateResv \*$/d'
	assert_fmt_error "$BAD" 2 AggregateResv
}

@test "rsl: missing Capsules record, and Capsule before it" {
	variant bad.rsl "$DATA/example.rsl" '/^Capsules 3$/d'
	assert_fmt_error "$BAD" 12 Capsules
	# no Capsules and no Capsule records: reported at the Application line
	variant bad3.rsl "$DATA/example.rsl" -e '/^Capsules 2$/d' -e '/^Capsule [12] Resv 0\.[0-9]+ /d'
	assert_fmt_error "$BAD" 2 Capsules
	variant bad2.rsl "$DATA/example.rsl" -e '/^Capsules 2$/{h;d}' -e '0,/^Capsule 1 /{/^Capsule 1 /G}'
	assert_fmt_error "$BAD" 5 Capsules
}

@test "rsl: a Terminate application needs no capsules" {
	local f=$BATS_TEST_TMPDIR/term.rsl
	printf 'Application old Terminate\n' >"$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_line 'app old op=terminate'
}

# ---------------------------------------------------------------------------
# plan

@test "plan: wrong version and another format's magic" {
	variant bad.plan "$DATA/example.plan" '1s/^ovb-plan 1$/ovb-plan 2/'
	assert_fmt_error "$BAD" 1 version
	variant bad2.plan "$DATA/example.plan" '1s/^ovb-plan 1$/ovb-reserves 1/'
	assert_fmt_error --type=plan "$BAD" 1 ovb-reserves
}

@test "plan: qos before its place record" {
	variant bad.plan "$DATA/example.plan" -e '/^place shop db /{h;d}' -e '/^cpu-resv shop db /G'
	assert_fmt_error "$BAD" 12 place
}

@test "plan: qos probability 1.5 and tolerance 1" {
	variant bad.plan "$DATA/example.plan" 's/^(qos shop web cpu 0.95 0.02 1) 0.01$/\1 1.5/'
	assert_fmt_error "$BAD" 8 1.5
	variant bad2.plan "$DATA/example.plan" 's/^(qos shop web net 4500000 200000 1) 0.05$/\1 1/'
	assert_fmt_error "$BAD" 9 1
}

@test "plan: qos given twice for a resource, and an unknown resource" {
	variant bad.plan "$DATA/example.plan" 's/^qos batch w1 net /qos batch w1 cpu /'
	assert_fmt_error "$BAD" 17 cpu
	variant bad2.plan "$DATA/example.plan" 's/^qos batch w1 net /qos batch w1 disk /'
	assert_fmt_error "$BAD" 17 disk
}

@test "plan: duplicate place of a capsule" {
	variant bad.plan "$DATA/example.plan" 's/^place batch w2 n4 -$/place batch w1 n4 -/'
	assert_fmt_error "$BAD" 20 w1
}

@test "plan: cpu-resv with Y 0, negative X, and given twice" {
	variant bad.plan "$DATA/example.plan" 's/^cpu-resv shop db 0.1 0.07692307692307693 1.3$/cpu-resv shop db 0.1 0 1.3/'
	assert_fmt_error "$BAD" 14 0
	variant bad2.plan "$DATA/example.plan" 's/^cpu-resv shop db 0.1 /cpu-resv shop db -0.1 /'
	assert_fmt_error "$BAD" 14 -0.1
	variant bad3.plan "$DATA/example.plan" 's/^tbucket batch w2 10000000 0$/cpu-resv batch w2 2 2 1/'
	assert_fmt_error "$BAD" 24 cpu-resv
}

@test "plan: tbucket with 12abc and wrong field count" {
	variant bad.plan "$DATA/example.plan" 's/^tbucket shop web 4500000 200000$/tbucket shop web 4500000 12abc/'
	assert_fmt_error "$BAD" 11 12abc
	variant bad2.plan "$DATA/example.plan" 's/^tbucket shop web 4500000 200000$/tbucket shop web 4500000/'
	assert_fmt_error "$BAD" 11 tbucket
}

@test "plan: risk duplicate, capacity 0, probability 1.5, unknown resource (net-rx is one: placed where the cluster gives it)" {
	variant bad.plan "$DATA/example.plan" 's/^risk n2 net /risk n2 cpu /'
	assert_fmt_error "$BAD" 28 n2
	variant bad2.plan "$DATA/example.plan" 's/^risk n3 cpu 0 0 2.3 8$/risk n3 cpu 0 0 2.3 0/'
	assert_fmt_error "$BAD" 29 capacity
	variant bad3.plan "$DATA/example.plan" 's/^risk n3 cpu 0 0 /risk n3 cpu 1.5 0 /'
	assert_fmt_error "$BAD" 29 1.5
	variant bad4.plan "$DATA/example.plan" 's/^risk n3 cpu /risk n3 disk /'
	assert_fmt_error "$BAD" 29 disk net-rx
	variant ok.plan "$DATA/example.plan" 's/^risk n3 cpu /risk n3 net-rx /'
	run -0 ovb-fmt "$BAD"
}

@test "plan: an application both placed and rejected" {
	variant bad.plan "$DATA/example.plan" 's/^reject huge /reject batch /'
	assert_fmt_error "$BAD" 32 batch
	variant bad2.plan "$DATA/example.plan" '$a\
place huge big n3 -'
	assert_fmt_error "$BAD" 33 huge
}

@test "plan: reject without a reason, and rejected twice" {
	variant bad.plan "$DATA/example.plan" 's/^reject huge .*$/reject huge/'
	assert_fmt_error "$BAD" 32 reject
	variant bad2.plan "$DATA/example.plan" '$a\
reject huge again'
	assert_fmt_error "$BAD" 33 huge
}

@test "plan: unknown record" {
	variant bad.plan "$DATA/example.plan" 's/^tbucket batch w1 /netresv batch w1 /'
	assert_fmt_error "$BAD" 19 netresv
}

@test "plan: canonical order groups records per capsule, then risk, then reject" {
	# reject and risk first, then every place, then the other records reversed
	local f=$BATS_TEST_TMPDIR/shuffled.plan
	awk 'NR == 1 { print; next }
		/^#/ { next }
		/^reject / { rj[nrj++] = $0; next }
		/^risk / { rk[nrk++] = $0; next }
		/^place / { pl[npl++] = $0; next }
		{ o[no++] = $0 }
		END {
			for (i = 0; i < nrj; i++) print rj[i]
			for (i = 0; i < nrk; i++) print rk[i]
			for (i = 0; i < npl; i++) print pl[i]
			for (i = no - 1; i >= 0; i--) print o[i]
		}' "$DATA/example.plan" >"$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_equal "$output" "$(cat "$DATA/example.plan")"
}

# ---------------------------------------------------------------------------
# reserves

@test "reserves: wrong version and another format's magic" {
	variant bad.reserves "$DATA/example.reserves" '1s/^ovb-reserves 1$/ovb-reserves 2/'
	assert_fmt_error "$BAD" 1 version
	variant bad2.reserves "$DATA/example.reserves" '1s/^ovb-reserves 1$/ovb-onoff 1/'
	assert_fmt_error --type=reserves "$BAD" 1 ovb-onoff
}

@test "reserves: incomplete u matrix (at the round line, naming the missing entry)" {
	variant bad.reserves "$DATA/example.reserves" '0,/^u n4 c3 10$/{/^u n4 c3 10$/d}'
	assert_fmt_error "$BAD" 11 n4 c3
}

@test "reserves: incomplete R matrix in round 2" {
	variant bad.reserves "$DATA/example.reserves" '/^round 2$/,${/^R n2 c2 34$/d}'
	assert_fmt_error "$BAD" "$(line_of '^round 2$' "$BAD")" n2 c2
}

@test "reserves: missing u matrix in a round" {
	variant bad.reserves "$DATA/example.reserves" '/^round 2$/,${/^u /d}'
	assert_fmt_error "$BAD" "$(line_of '^round 2$' "$BAD")" u
}

@test "reserves: class shares summing over 100" {
	variant bad.reserves "$DATA/example.reserves" 's/^class c3 10$/class c3 11/'
	assert_fmt_error "$BAD" 6 100
	variant ok.reserves "$DATA/example.reserves" 's/^class c3 10$/class c3 5/'
	run -0 --separate-stderr ovb-fmt "$BAD"
}

@test "reserves: a share or percentage outside [0,100]" {
	variant bad.reserves "$DATA/example.reserves" 's/^class c1 60$/class c1 150/'
	assert_fmt_error "$BAD" 4 150
	variant bad2.reserves "$DATA/example.reserves" '0,/^r n1 c3 10$/s//r n1 c3 -10/'
	assert_fmt_error "$BAD" "$(line_of '^r n1 c3 -10$' "$BAD")" -10
}

@test "reserves: a node's entries adding up to more than 100" {
	variant bad.reserves "$DATA/example.reserves" '0,/^u n1 c3 0$/s//u n1 c3 5/'
	assert_fmt_error "$BAD" 11 n1
}

@test "reserves: rounds not numbered consecutively" {
	variant bad.reserves "$DATA/example.reserves" 's/^round 2$/round 3/'
	assert_fmt_error "$BAD" "$(line_of '^round 3$' "$BAD")" 3
	variant bad2.reserves "$DATA/example.reserves" 's/^round 1$/round 0/'
	assert_fmt_error "$BAD" 11 0
}

@test "reserves: class or node after the first round" {
	variant bad.reserves "$DATA/example.reserves" '$a\
class c4 0'
	assert_fmt_error "$BAD" "$(nlines "$BAD")" class
	variant bad2.reserves "$DATA/example.reserves" '$a\
node n5'
	assert_fmt_error "$BAD" "$(nlines "$BAD")" node
}

@test "reserves: entry before any round, unknown node or class" {
	variant bad.reserves "$DATA/example.reserves" 's/^node n4$/node n4\nu n1 c1 66/'
	assert_fmt_error "$BAD" 11 round
	variant bad2.reserves "$DATA/example.reserves" '0,/^u n2 c2 33$/s//u n2 c9 33/'
	assert_fmt_error "$BAD" "$(line_of '^u n2 c9' "$BAD")" c9
	variant bad3.reserves "$DATA/example.reserves" '0,/^u n2 c2 33$/s//u n7 c2 33/'
	assert_fmt_error "$BAD" "$(line_of '^u n7' "$BAD")" n7
}

@test "reserves: entry given twice in a matrix" {
	variant bad.reserves "$DATA/example.reserves" '0,/^u n1 c1 66$/s//u n1 c1 66\nu n1 c1 60/'
	assert_fmt_error "$BAD" 13 'n1 c1'
}

@test "reserves: duplicate class and duplicate node" {
	variant bad.reserves "$DATA/example.reserves" 's/^class c3 10$/class c1 10/'
	assert_fmt_error "$BAD" 6 c1
	variant bad2.reserves "$DATA/example.reserves" 's/^node n4$/node n1/'
	assert_fmt_error "$BAD" 10 n1
}

@test "reserves: unknown record (U is not u or R)" {
	variant bad.reserves "$DATA/example.reserves" '0,/^u n1 c1 66$/s//U n1 c1 66/'
	assert_fmt_error "$BAD" 12 U
}

@test "reserves: entries of a round in any order; canonical is node-major u, r, R" {
	local f=$BATS_TEST_TMPDIR/shuffled.reserves
	awk '/^#/ { next }
		/^(ovb-reserves|class|node|round) / { flush(); print; next }
		{ buf[n++] = $0 }
		END { flush() }
		function flush(i) { for (i = n - 1; i >= 0; i--) print buf[i]; n = 0 }' \
		"$DATA/example.reserves" >"$f"
	run -0 --separate-stderr ovb-fmt --canonical "$f"
	assert_equal "$output" "$(cat "$DATA/example.reserves")"
}

@test "reserves: per-node sums may exceed 100 by rounding (1e-6), not more" {
	variant ok.reserves "$DATA/example.reserves" -e '0,/^u n1 c1 66$/s//u n1 c1 33.3333333/' \
		-e '0,/^u n1 c2 33$/s//u n1 c2 33.3333333/' -e '0,/^u n1 c3 0$/s//u n1 c3 33.3333344/'
	run -0 --separate-stderr ovb-fmt "$BAD"
	variant bad.reserves "$DATA/example.reserves" -e '0,/^u n1 c1 66$/s//u n1 c1 33.3333333/' \
		-e '0,/^u n1 c2 33$/s//u n1 c2 33.3333333/' -e '0,/^u n1 c3 0$/s//u n1 c3 33.33334/'
	assert_fmt_error "$BAD" 11 n1
	variant bad2.reserves "$DATA/example.reserves" '/^round 2$/,${s/^R n3 c3 0$/R n3 c3 0.5/}'
	assert_fmt_error "$BAD" "$(line_of '^round 2$' "$BAD")" n3
}

@test "reserves: r and R are optional; a file without rounds is an input" {
	variant ok.reserves "$DATA/example.reserves" '/^[rR] /d'
	run -0 --separate-stderr ovb-fmt "$BAD"
	variant ok2.reserves "$DATA/example.reserves" '/^round 1$/,$d'
	run -0 --separate-stderr ovb-fmt "$BAD"
}

@test "cli: -o naming a pipe or device writes to it and never replaces it" {
	local p=$BATS_TEST_TMPDIR/fifo
	mkfifo "$p"
	cat "$p" >"$BATS_TEST_TMPDIR/got" &
	run -0 ovb-fmt -c "$DATA/example.cluster" -o "$p"
	wait
	[[ -p $p ]]
	cmp "$DATA/example.cluster" "$BATS_TEST_TMPDIR/got"
}

@test "cluster: a capacity far outside real hardware is a warning naming node and resource (125 B/s, 0.001 cpu, 2 Tbit/s, 20000 cpu), read as given; -q silent" {
	local f=$BATS_TEST_TMPDIR/typo.cluster
	printf 'ovb-cluster 1\nnode a 4 cpu 125 B/s net-rx 125000 B/s\nnode b 0.001 cpu 125000000 B/s net-rx 125000 B/s\nnode c 4 cpu 250000000000 B/s net-rx 100000 B/s\nnode d 20000 cpu 125000000 B/s net-rx 125000 B/s\nnode e 0.01 cpu 125000 B/s net-rx 125000000000 B/s\nnode f 10000 cpu 125000000000 B/s net-rx 125000 B/s\n' >"$f"
	run -0 --separate-stderr ovb-fmt "$f"
	assert_equal "$(grep -c . <<<"$stderr")" 5
	[[ $stderr == *"$f:2: node a: net capacity 125 B/s is outside real hardware (125000 B/s (1 Mbit/s) to 125e9 B/s (1 Tbit/s))"* ]] || fail "$stderr"
	[[ $stderr == *"$f:3: node b: cpu capacity 0.001 cpu is outside real hardware (0.01 to 10000 cpu)"* ]] || fail "$stderr"
	[[ $stderr == *"$f:4: node c: net capacity 2.5e+11 B/s"* ]] || fail "$stderr"
	[[ $stderr == *"$f:4: node c: net-rx capacity 100000 B/s"* ]] || fail "$stderr"
	[[ $stderr == *"$f:5: node d: cpu capacity 20000 cpu"* ]] || fail "$stderr"
	# the limits themselves are real hardware: e and f are silent
	[[ $stderr != *"node e"* && $stderr != *"node f"* ]] || fail "$stderr"
	run -0 --separate-stderr ovb-fmt -q "$f"
	assert_equal "$stderr" ''
	run -0 --separate-stderr ovb-fmt "$DATA/example.cluster" "$DATA/demo.cluster"
	assert_equal "$stderr" ''
}
