#!/usr/bin/env bats
# make install / uninstall honour PREFIX, DESTDIR, BINDIR and MANDIR.

bats_require_minimum_version 1.5.0
load test_helper

setup() {
	ROOT=${OVB_ROOT:-$BATS_TEST_DIRNAME/..}
}

@test "install: every tool lands in DESTDIR/PREFIX/bin and runs; uninstall removes them" {
	local d=$BATS_TEST_TMPDIR/stage
	run -0 make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/usr
	local t n=0
	for t in "$ROOT"/tools/*/ovb-*.c; do
		t=$(basename "$t" .c)
		[[ -x $d/usr/bin/$t ]] || fail "$t not installed"
		[[ $("$d/usr/bin/$t" --version) == "$t (overbook) "* ]] ||
			fail "$t --version: $("$d/usr/bin/$t" --version)"
		n=$((n + 1))
	done
	[[ $n -ge 1 ]]
	# its page (man/ovb-TOOL.1.md, rendered by the build), and ovb(7)
	for t in "$ROOT"/tools/*/ovb-*.c; do
		t=$(basename "$t" .c)
		grep -q "^\.TH ${t^^} 1 " "$d/usr/share/man/man1/$t.1" ||
			fail "$t.1 not installed"
		grep -q "^$t \\\\- " "$d/usr/share/man/man1/$t.1" || fail "$t.1: NAME"
	done
	grep -q '^\.TH OVB 7 ' "$d/usr/share/man/man7/ovb.7"
	run -0 make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/usr
	[[ -z $(find "$d" -type f) ]]
}

@test "install: formats(5) pages, ovb-NAME.5 from every formats/NAME.md, read by man without warnings" {
	local d=$BATS_TEST_TMPDIR/stage md name n=0
	run -0 make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/usr MANDIR=/usr/man
	for md in "$ROOT"/formats/*.md; do
		name=$(basename "$md" .md)
		[[ $name == README ]] && name=formats
		local page=$d/usr/man/man5/ovb-$name.5
		[[ -s $page ]] || fail "ovb-$name.5 not installed"
		grep -q "^\.TH OVB-${name^^} 5 " "$page" || fail "ovb-$name.5: .TH"
		grep -q '^ovb-'"$name"' \\- ' "$page" || fail "ovb-$name.5: NAME"
		n=$((n + 1))
	done
	[[ $n -ge 10 ]]
	# the page holds the spec: every grammar record of plan.md is there
	command -v man >/dev/null || skip "man is not installed"
	run -0 --separate-stderr env MANWIDTH=100 LC_ALL=C.UTF-8 man --warnings \
		-l "$d/usr/man/man5/ovb-plan.5"
	assert_equal "$stderr" ''
	assert_line --regexp '^OVB-PLAN\(5\) '
	assert_line --regexp '^ +ovb-plan - placement plans$'
	local rec
	for rec in $(sed -n 's/^    \([a-z]*\) *= "\([a-z-]*\)".*/\1/p' "$ROOT/formats/plan.md"); do
		assert_line --regexp "^ +$rec +="
	done
	run -0 make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/usr MANDIR=/usr/man
	[[ -z $(find "$d" -type f) ]]
}

@test "--help of the tools that check nothing does not promise exit 1" {
	local t
	for t in ovb-usage ovb-profile ovb-tbucket; do
		run -0 "$t" --help
		assert_output --partial 'Exit status: 0 success; 64 usage error'
		refute_output --partial '1 a check failed'
	done
	run -0 ovb-check --help
	assert_output --partial '1 a check failed'
}

@test "install: BINDIR overrides PREFIX/bin" {
	local d=$BATS_TEST_TMPDIR/stage
	run -0 make -s -C "$ROOT" install DESTDIR="$d" BINDIR=/opt/ovb/bin
	[[ -x $d/opt/ovb/bin/ovb-fmt ]]
}
