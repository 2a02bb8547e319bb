#!/usr/bin/env bats
# .ci/layering (make layering): the layering of README's Layout, read off
# the objects with nm.  lib/ needs no symbol that formats/ or tools/
# defines, formats/ none that tools/ defines, and no formats/ objects need
# each other in a circle.  Each planted violation below is a real object,
# compiled here and added to a copy of the built ones; the checker must
# name it.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ROOT=${OVB_ROOT:-$BATS_TEST_DIRNAME/..}
	B=${OVB_BUILD:-$ROOT/build}
	T=$BATS_TEST_TMPDIR
	ls "$B"/lib/*.o "$B"/formats/*.o >/dev/null 2>&1 ||
		fail "no objects in $B/lib and $B/formats: build first (make), or set OVB_BUILD"
	# a copy of the objects the tools are built from
	C=$T/build
	mkdir -p "$C/lib" "$C/formats" "$C/tools/x"
	cp "$B"/lib/*.o "$C/lib/"
	cp "$B"/formats/*.o "$C/formats/"
	cp "$B"/tools/*/*.o "$C/tools/x/"
}

# plant DIR NAME SOURCE: compiles SOURCE (C) as $C/DIR/NAME.o.
plant() {
	printf '%s\n' "$3" >"$T/$2.c"
	cc -std=gnu17 -D_GNU_SOURCE -I"$ROOT/lib" -I"$ROOT/formats" \
		-I/usr/include/traceevent -c -o "$C/$1/$2.o" "$T/$2.c" ||
		fail "cannot compile the planted $1/$2.c"
}

@test "the tree is layered: lib/ reaches into neither formats/ nor tools/, formats/ not into tools/, no circle in formats/" {
	run -0 --separate-stderr "$ROOT/.ci/layering" "$B"
	assert_output --regexp '^layering: [0-9]+ lib/, [0-9]+ formats/, [0-9]+ tools/ objects; 0 violations$'
	# and the copy checks the same
	run -0 --separate-stderr "$ROOT/.ci/layering" "$C"
	assert_output --partial '; 0 violations'
}

@test "a lib/ object that calls a format reader fails the check, named with the symbol and where it is defined" {
	plant lib reach '#include "ovb.h"
int reach_cluster(struct ovb_lex *lx, struct ovb_cluster *c);
int reach_cluster(struct ovb_lex *lx, struct ovb_cluster *c)
{ return ovb_cluster_read(lx, c); }'
	run -1 --separate-stderr "$ROOT/.ci/layering" "$C"
	assert_line 'lib/reach.o needs ovb_cluster_read (defined in formats/cluster.o)'
	assert_line --regexp '; 1 violation$'
	# given the source tree (as make layering does), an object without a
	# source there (a file removed since the build) is left out
	run -0 --separate-stderr "$ROOT/.ci/layering" "$C" "$ROOT"
	assert_output --partial '; 0 violations'
	mkdir -p "$T/src/lib"
	cp -r "$ROOT/lib/." "$T/src/lib/"
	cp -r "$ROOT/formats" "$ROOT/tools" "$T/src/"
	: >"$T/src/lib/reach.c"
	run -1 --separate-stderr "$ROOT/.ci/layering" "$C" "$T/src"
	assert_line 'lib/reach.o needs ovb_cluster_read (defined in formats/cluster.o)'
}

@test "a lib/ object that calls into a tool fails the check" {
	plant tools/x tool 'int tool_helper(void);
int tool_helper(void) { return 7; }'
	plant lib up 'int tool_helper(void);
int lib_up(void);
int lib_up(void) { return tool_helper(); }'
	run -1 --separate-stderr "$ROOT/.ci/layering" "$C"
	assert_line 'lib/up.o needs tool_helper (defined in tools/x/tool.o)'
}

@test "a formats/ object that calls into a tool fails the check" {
	plant tools/x tool 'int tool_helper(void);
int tool_helper(void) { return 7; }'
	plant formats up 'int tool_helper(void);
int fmt_up(void);
int fmt_up(void) { return tool_helper(); }'
	run -1 --separate-stderr "$ROOT/.ci/layering" "$C"
	assert_line 'formats/up.o needs tool_helper (defined in tools/x/tool.o)'
}

@test "two formats/ objects that need each other are a circle; a reader calling the registry closes one through format.o" {
	plant formats ping 'int pong(int);
int ping(int);
int ping(int n) { return n ? pong(n - 1) : 0; }'
	plant formats pong 'int ping(int);
int pong(int);
int pong(int n) { return n ? ping(n - 1) : 1; }'
	run -1 --separate-stderr "$ROOT/.ci/layering" "$C"
	assert_line 'formats/ circle: formats/ping.o formats/pong.o'
	# the circle this check was written for: a reader (here one more
	# object beside them) asking the registry, which calls every reader
	rm "$C/formats/ping.o" "$C/formats/pong.o"
	nm -u "$C/formats/format.o" | grep -qw ovb_cluster_read ||
		fail "format.o no longer calls the cluster reader: plant another"
	cp "$C/formats/cluster.o" "$T/cluster.o"
	plant formats asks '#include "ovb.h"
int asks(void);
int asks(void) { return ovb_format_by_name("cluster") != 0; }'
	ld -r -o "$C/formats/cluster.o" "$T/cluster.o" "$C/formats/asks.o"
	rm "$C/formats/asks.o"
	run -1 --separate-stderr "$ROOT/.ci/layering" "$C"
	assert_line 'formats/ circle: formats/cluster.o formats/format.o'
}

@test "make layering runs the check on the build and says so" {
	grep -q '^layering:' "$ROOT/Makefile" || fail "no layering target"
	# no prerequisites here: a test never compiles into the build
	run -0 --separate-stderr make -s -C "$ROOT" --no-print-directory \
		BUILD="$B" LIBOBJ= TOOLSRC= layering
	assert_output --partial '; 0 violations'
}

@test "the checker refuses a directory without objects (2), not a pass" {
	run -2 --separate-stderr "$ROOT/.ci/layering" "$T/empty"
	[[ $stderr == *"no objects"* ]] || fail "stderr: $stderr"
}
