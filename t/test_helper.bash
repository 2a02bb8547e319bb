# t/test_helper.bash: loaded by every t/*.bats file (`load test_helper`).
#
# Provides bats-support and bats-assert, $DATA (the example files in
# t/data), and helpers for checking the errors of the format readers.

load '/usr/lib/bats/bats-support/load.bash'
load '/usr/lib/bats/bats-assert/load.bash'

DATA="$BATS_TEST_DIRNAME/data"

# The Python of the oracles and live helpers: Debian's, where the PATH has
# another first (its numpy, scipy and cvxopt are the packages .ci/deps
# installs).
PY=python3
[[ -x /usr/bin/python3 ]] && PY=/usr/bin/python3

# The formats with a spec formats/NAME.md and an example file
# t/data/example.NAME in canonical form, derived (not listed by hand): a new
# format is in the generic tests of t/0100-fmt.bats once both exist.
FORMATS=()
for _md in "$BATS_TEST_DIRNAME"/../formats/*.md; do
	_md=${_md##*/}
	_md=${_md%.md}
	[[ -f $DATA/example.$_md ]] && FORMATS+=("$_md")
done
unset _md

# variant NAME SRC SED-ARGS...: writes $BATS_TEST_TMPDIR/NAME, which is SRC
# edited by `sed -E SED-ARGS...`, and sets BAD to its path.  Fails when
# sed changed nothing (a stale pattern must not make a test vacuous).
variant() {
	local name=$1 src=$2
	shift 2
	BAD=$BATS_TEST_TMPDIR/$name
	sed -E "$@" "$src" >"$BAD" || fail "variant $name: sed failed"
	if cmp -s "$src" "$BAD"; then
		fail "variant $name: sed $* changed nothing in $src"
	fi
}

# line_of ERE FILE: the number of the first line of FILE matching ERE.
line_of() {
	local n
	n=$(grep -n -m1 -E -e "$1" "$2" | cut -d: -f1)
	[[ -n $n ]] || n="(no line of $2 matches $1)"
	printf '%s\n' "$n"
}

# nlines FILE: the number of lines of FILE.
nlines() {
	wc -l <"$1" | tr -d ' '
}

# assert_error_line FILE LINE [WORD...]: $stderr is exactly one line
# "ovb-fmt: FILE:LINE: message" whose message contains every WORD.
# LINE may be empty for messages without a line number ("FILE: message").
assert_error_line() {
	local file=$1 line=$2 prefix w
	shift 2
	if [[ -n $line ]]; then
		prefix="ovb-fmt: $file:$line: "
	else
		prefix="ovb-fmt: $file: "
	fi
	if [[ $stderr != "$prefix"* ]]; then
		printf 'stderr: %s\n' "$stderr" >&2
		fail "stderr does not start with '$prefix'"
		return 1
	fi
	if [[ $stderr == *$'\n'* ]]; then
		printf 'stderr: %s\n' "$stderr" >&2
		fail "stderr has more than one line"
		return 1
	fi
	for w in "$@"; do
		if [[ $stderr != *"$w"* ]]; then
			printf 'stderr: %s\n' "$stderr" >&2
			fail "stderr does not mention '$w'"
			return 1
		fi
	done
}

# assert_fmt_error [OPTION...] FILE LINE [WORD...]: `ovb-fmt OPTION... FILE`
# exits 65, writes nothing on stdout, and reports one error at FILE:LINE
# mentioning every WORD.  Options are the leading arguments starting
# with "-" (e.g. --type cluster, given as the single word --type=cluster).
assert_fmt_error() {
	local opts=()
	while [[ $1 == -* ]]; do
		opts+=("$1")
		shift
	done
	local file=$1 line=$2
	shift 2
	run -65 --separate-stderr ovb-fmt "${opts[@]}" "$file"
	assert_output ''
	assert_error_line "$file" "$line" "$@"
}

# canonical FILE: ovb-fmt's canonical form of FILE on stdout (exit 0).
canonical() {
	ovb-fmt --canonical "$1"
}

# require_tracing: skips the test, saying why, unless perf can record
# kernel tracepoints system-wide here (root, or perf_event_paranoid <= -1,
# with a readable tracefs).
require_tracing() {
	command -v perf >/dev/null || skip "perf is not installed (linux-perf)"
	local p
	p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
	if [[ $(id -u) != 0 && $p -gt -1 ]]; then
		skip "tracing not permitted: perf_event_paranoid=$p and not root"
	fi
	[[ -r /sys/kernel/tracing/events/sched/sched_switch/format ]] ||
		skip "tracefs is not readable at /sys/kernel/tracing (make check mounts it, as root: .ci/live)"
}

# FIXTURES: real perf traces recorded by t/fixtures/record.sh.
FIXTURES="$BATS_TEST_DIRNAME/fixtures"

# unpack_fixture NAME: decompresses t/fixtures/NAME.perf.data.gz into the
# test's temporary directory and prints the path.
unpack_fixture() {
	local out=$BATS_TEST_TMPDIR/$1.perf.data
	[[ -f $out ]] || gzip -dc "$FIXTURES/$1.perf.data.gz" >"$out"
	printf '%s\n' "$out"
}

# need_gnuplot: skip, saying why, where gnuplot is missing
need_gnuplot() {
	command -v gnuplot >/dev/null ||
		skip "gnuplot is not installed (Debian package gnuplot-nox)"
}

# capture: OVB_GNUPLOT for a gnuplot that keeps each script in $T/gp.N;
# a batch of figures (an HTML page's: each after a line "# ovb figure I",
# lib/plot.c) is kept one figure a file, in order
capture() {
	cat >"$T/gp" <<-EOF
	#!/bin/sh
	n=\$(ls "$T"/gp.[0-9]* 2>/dev/null | wc -l)
	tee "$T/gp-in.\$\$" | gnuplot "\$@"
	s=\$?
	awk -v dir="$T" -v n=\$n '/^# ovb figure / { f = dir "/gp." n++; next }
		f { print >f } END { exit !f }' "$T/gp-in.\$\$" ||
		cp "$T/gp-in.\$\$" "$T/gp.\$n"
	rm -f "$T/gp-in.\$\$"
	exit \$s
	EOF
	chmod +x "$T/gp"
	export OVB_GNUPLOT=$T/gp
}

# demo_profile: the profiles of `make demo` (demo.sh: the three shipped
# server traces, I = 10 ms, O = 0.01, tau = 1 s) in
# $BATS_TEST_TMPDIR/f.profile (and f.usage, f.curve, the .onoff files).
demo_profile() {
	local f main d=$BATS_TEST_TMPDIR
	for f in nginx postgres redis; do
		main=$(awk '$1 == "main_pid" { print $2 }' "$FIXTURES/$f.acct")
		ovb-onoff -q -c "$f=pid:$main" "$(unpack_fixture "$f")" -o "$d/$f.onoff"
	done
	ovb-usage -q -I 0.01 "$d"/*.onoff -o "$d/f.usage"
	ovb-tbucket -q "$d"/*.onoff -o "$d/f.curve"
	ovb-profile -q -O 0.01 -t 1 "$d/f.usage" "$d/f.curve" -o "$d/f.profile"
}

# perf_lost DATA: the events perf lost recording DATA, by its own count
# (the per-event LOST_SAMPLES of perf report --stats).
perf_lost() {
	perf report --stats -i "$1" 2>/dev/null |
		awk '/ stats:$/ && !/^Aggregated/ { ev = 1 }
			ev && $1 == "LOST_SAMPLES" { s += $3 }
			END { print s + 0 }'
}

# keep_tmpdir WHY: a copy of the test's $BATS_TEST_TMPDIR (its trace,
# ovb-onoff's output and words, the burner's figures) kept in
# $OVB_BUILD/failed/WHY.TIME.PID for reading after a rare live failure;
# prints where.
keep_tmpdir() {
	local keep=${OVB_BUILD:-$BATS_TEST_DIRNAME/../build}/failed/$1.$(date +%s).$$
	mkdir -p "${keep%/*}" && cp -r "$BATS_TEST_TMPDIR" "$keep" && echo "$keep"
}

# bound_holds STDERR CAPSULE KERNEL_NS: the bound `ovb-onoff -v` stated
# for CAPSULE in STDERR ("busy B cpu-s, uncertain by at most U cpu-s ...;
# and low by at most S cpu-s more ...") holds the kernel's figure K (issue
# 26 item 6): B - U <= K <= B + U + S (S: the busy time is low by at most
# that more), with 4 us: 2 for the 6 decimals printed, 2 for wait4's
# figures (ru_utime + ru_stime, each in whole us).  Fails when -v stated
# none.  (t/0121 checks the fixtures' cpuacct, whose window is not the
# trace's span.)  A recording beyond the bound is kept (keep_tmpdir).
bound_holds() {
	local b u s
	read -r b u s < <(sed -nE "s/^ovb-onoff: .*: capsule $2: busy ([0-9.]+) cpu-s, uncertain by at most ([0-9.]+) cpu-s(.*low by at most ([0-9.]+) cpu-s more)?.*/\1 \2 \4/p" <<<"$1")
	[[ -n $u ]] || fail "ovb-onoff -v stated no bound for $2: $1"
	echo "# bound: busy $b cpu-s, uncertain by $u, low by ${s:-0} more; kernel $(awk -v k="$3" 'BEGIN { printf "%.6f", k / 1e9 }') cpu-s" >&3
	python3 -c "import sys; b,u,s,k=$b,$u,${s:-0},$3/1e9; sys.exit(0 if b-u-4e-6 <= k <= b+u+s+4e-6 else 1)" ||
		fail "capsule $2: busy $b cpu-s, kernel $3 ns: beyond the stated bound (uncertain $u, low ${s:-0} more; kept in $(keep_tmpdir bound_holds))"
}

# bitbrains_months DIR OUT: the Bitbrains sample's July, August and
# September (DIR/2013-M/*.csv.gz) as OUT/7.series, OUT/8.series and
# OUT/9.series, by ovb-import.
bitbrains_months() {
	local m
	for m in 7 8 9; do
		ovb-import -q --bitbrains "$1/2013-$m"/*.csv.gz -o "$2/$m.series" ||
			fail "ovb-import of $1/2013-$m failed"
	done
}
