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
	if command -v help2man >/dev/null; then
		[[ -s $d/usr/share/man/man1/ovb-fmt.1 ]]
		# each page is named after its tool, not the package
		grep -q '^\.TH OVB-FMT "1"' "$d/usr/share/man/man1/ovb-fmt.1"
		grep -q '^ovb-fmt \\- ' "$d/usr/share/man/man1/ovb-fmt.1"
	fi
	run -0 make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/usr
	[[ -z $(find "$d" -type f) ]]
}

@test "install: BINDIR overrides PREFIX/bin" {
	local d=$BATS_TEST_TMPDIR/stage
	run -0 make -s -C "$ROOT" install DESTDIR="$d" BINDIR=/opt/ovb/bin
	[[ -x $d/opt/ovb/bin/ovb-fmt ]]
}
