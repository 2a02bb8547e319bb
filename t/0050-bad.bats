#!/usr/bin/env bats
# t/0050-bad.bats: the malformed-input corpus t/bad (written by t/bad/gen.py,
# its classes in t/bad/MANIFEST), each file fed to every tool that reads its
# format.  Every run must end with a documented status, name the file in its
# error, leave nothing in its -o directory on failure (no output, no
# temporary file), print no sanitizer report, and write output that reads
# back with ovb-fmt when it succeeds.  Large variants (long lines, whole
# perf.data traces) are written at run time by `gen.py --big`.
#
# Classes: bad (must be rejected: 65), ok (valid by the spec: accepted),
# any (either, see gen.py).  One @test per format; each lists all its
# failures.

bats_require_minimum_version 1.5.0
load test_helper

BAD="$BATS_TEST_DIRNAME/bad"

setup_file() {
	/usr/bin/python3 "$BATS_TEST_DIRNAME/bad/gen.py" --big \
		"$BATS_FILE_TMPDIR/big" || return 1
	# the plan of the Sharc RSL example, for the apps files made from it
	ovb-place -q -o "$BATS_FILE_TMPDIR/rsl.plan" "$DATA/example.cluster" \
		"$DATA/example.rsl" "$DATA/example.profile" || return 1
}

# Valid companions of the file under test.
CL=$DATA/example.cluster
AP=$DATA/example.apps
PR=$DATA/example.profile
PL=$DATA/example.plan
US=$DATA/example.usage
CU=$DATA/example.curve
RCL=$DATA/replay-small.cluster
RPL=$DATA/replay-small.plan
RSE=$DATA/replay-small.series
AP0=$BAD/apps/magic-only          # valid: no applications
MCL=$DATA/market-fig3.cluster     # the nodes of example.bids

# probe CLASS LINE FILE READBACK TOOL ARGS...: runs TOOL -o DIR/out ARGS,
# with @ in ARGS replaced by FILE (or, when FILE is given as <FILE, with
# FILE on standard input and <stdin> as its name), and appends what is
# wrong to $FAILS.  READBACK 1: the output is an overbook file.
probe() {
	local cls=$1 line=$2 file=$3 rb=$4 tool=$5 a name input=/dev/null
	shift 5
	local args=() dir=$BATS_TEST_TMPDIR/o.$((++NRUN))
	if [[ $file == '<'* ]]; then
		file=${file#<}
		input=$file
		name='<stdin>'
	else
		name=$file
	fi
	for a in "$@"; do
		[[ $a == @ ]] && a=$file
		args+=("$a")
	done
	mkdir "$dir"
	local st=0 why=
	"$tool" -o "$dir/out" "${args[@]}" <"$input" >/dev/null \
		2>"$dir.err" || st=$?
	local err= left
	IFS= read -r -d '' err <"$dir.err" || true
	err=${err%$'\n'}
	shopt -s nullglob dotglob
	left=("$dir"/*)
	left=("${left[@]##*/}")
	shopt -u nullglob dotglob
	local ok1=0   # status 1 is a check's verdict on valid input
	[[ $tool == ovb-check || $tool == ovb-replay ]] && ok1=1
	case $cls:$st in
	bad:65) ;;
	bad:*) why="status $st, expected 65" ;;
	ok:0) ;;
	ok:1) ((ok1)) || why="status 1" ;;
	ok:*) why="status $st, expected 0" ;;
	any:0 | any:65) ;;
	any:1) ((ok1)) || why="status 1" ;;
	any:*) why="status $st, expected 0 or 65" ;;
	esac
	if [[ $err == *Sanitizer* || $err == *'runtime error'* ]]; then
		why+="${why:+; }sanitizer report"
	fi
	if ((st != 0 && st != 1)); then
		# the error names the file (at LINE where known), or, for a
		# valid-looking file, one of the inputs
		local want="$tool: $name:" hit=0 f
		[[ $line != - && $tool == ovb-fmt ]] && want="$tool: $name:$line: "
		if [[ $'\n'$err == *$'\n'"$want"* ]]; then
			hit=1
		elif [[ $cls != bad ]]; then
			for f in "${args[@]}"; do
				[[ -f $f && $'\n'$err == *$'\n'"$tool: $f:"* ]] && hit=1
			done
		fi
		((hit)) || why+="${why:+; }stderr does not start a line with '$want'"
		# one error, said once (ovb-fmt, and ovb-onoff under -q)
		if [[ $cls == bad && ($tool == ovb-fmt || $tool == ovb-onoff) &&
			$err == *$'\n'* ]]; then
			why+="${why:+; }more than one line on stderr"
		fi
		((${#left[@]} == 0)) ||
			why+="${why:+; }left in -o dir: ${left[*]}"
	else
		[[ ${left[*]} == out ]] ||
			why+="${why:+; }-o dir holds: ${left[*]}"
		if ((rb && st == 0)) && ! ovb-fmt "$dir/out" 2>>"$dir.err"; then
			why+="${why:+; }output does not read back: $(tail -1 "$dir.err")"
		fi
	fi
	if [[ -n $why ]]; then
		FAILS+="$tool ${args[*]: -1}: $why"$'\n'"    ${err//$'\n'/$'\n'    }"$'\n'
	fi
}

# corpus FORMAT: prints "PATH CLASS LINE" for the format's files, committed
# and large.
corpus() {
	local root
	for root in "$BAD" "$BATS_FILE_TMPDIR/big"; do
		awk -v fmt="$1" -v root="$root" '
			!/^#/ && index($1, fmt "/") == 1 { print root "/" $1, $2, $3 }
		' "$root/MANIFEST"
	done
}

# run_format FORMAT: probes every file of FORMAT with the tools of
# reads_FORMAT (a function of CLASS LINE FILE), then fails with the list.
run_format() {
	FAILS= NRUN=0
	local f cls line n=0
	while read -r f cls line; do
		"reads_$1" "$cls" "$line" "$f"
		n=$((n + 1))
	done < <(corpus "$1")
	((n > 0)) || fail "no corpus files for $1"
	echo "# $1: $n files, $NRUN runs" >&3
	if [[ -n $FAILS ]]; then
		printf '%s' "$FAILS" >&2
		fail "$1: failures listed above"
	fi
}

fmt_probe() {	# ovb-fmt --canonical: the corpus file is the only input
	probe "$@" 1 ovb-fmt -c @
	# on standard input too, where the line is known: <stdin>:LINE
	[[ $2 == - ]] || probe "$1" "$2" "<$3" 1 ovb-fmt -c -
}

reads_onoff() {
	fmt_probe "$@"
	probe "$@" 1 ovb-usage @
	probe "$@" 1 ovb-tbucket @
}

reads_series() {
	fmt_probe "$@"
	probe "$@" 1 ovb-usage @
	probe "$@" 1 ovb-tbucket @
	[[ ${3##*/} == rp-* ]] && probe "$@" 0 ovb-replay "$RPL" "$RCL" @
	# btm-: backtest-mem.series's, with t/0335's memory options
	[[ ${3##*/} == btm-* ]] && probe "$@" 1 ovb-backtest --start 0 \
		--train 600s --replay 600s --cpus 4 --tolerance 0.5 \
		--mem-window 300s --mem 3 @
	return 0
}

reads_usage() {
	fmt_probe "$@"
	probe "$@" 1 ovb-profile -O 0.01 -t 1 -q @ "$CU"
	probe "$@" 1 ovb-convolve -r cpu --dist -q @
	probe "$@" 0 ovb-report @
}

reads_curve() {
	fmt_probe "$@"
	probe "$@" 1 ovb-profile -O 0.01 -t 1 -q "$US" @
}

reads_profile() {
	fmt_probe "$@"
	probe "$@" 1 ovb-place "$CL" "$AP" @
	probe "$@" 0 ovb-check "$CL" "$AP" "$PL" @
	probe "$@" 0 ovb-report "$CL" "$PL" @
	probe "$@" 1 ovb-convolve -r cpu --dist -q @
}

reads_cluster() {
	fmt_probe "$@"
	probe "$@" 1 ovb-place @ "$AP" "$PR"
	probe "$@" 0 ovb-check @ "$AP" "$PL" "$PR"
	probe "$@" 0 ovb-report @ "$PL" "$PR"
	probe "$@" 0 ovb-replay "$RPL" @ "$RSE"
	probe "$@" 0 ovb-enforce -t cgroup @ "$PL"     # settings, not a format
}

reads_apps() {
	local plan=$PL
	case ${3##*/} in
	rsl-*) plan=$BATS_FILE_TMPDIR/rsl.plan ;;
	magic-only) plan=$BAD/plan/magic-only ;;  # valid: nothing placed
	esac
	fmt_probe "$@"
	probe "$@" 1 ovb-place "$CL" @ "$PR"
	probe "$@" 0 ovb-check "$CL" @ "$plan" "$PR"
	probe "$@" 0 ovb-report "$CL" @ "$plan" "$PR"
}

reads_plan() {
	fmt_probe "$@"
	if [[ ${3##*/} == rp-* ]]; then
		probe "$@" 0 ovb-replay @ "$RCL" "$RSE"
		return 0
	fi
	probe "$@" 1 ovb-place "$CL" "$AP0" "$PR" @
	probe "$@" 0 ovb-check "$CL" "$AP" @ "$PR"
	probe "$@" 0 ovb-report "$CL" @ "$PR"
	probe "$@" 0 ovb-enforce -t cgroup "$CL" @
}

reads_reserves() {
	fmt_probe "$@"
	# ovb-reserves needs a round (formats/reserves.md): a file without
	# one is valid, but not an input to allocate
	local cls=$1
	[[ ${3##*/} == *magic-only* ]] && cls=bad
	probe "$cls" "${@:2}" 1 ovb-reserves @
}

reads_gain() {
	fmt_probe "$@"
	probe "$@" 0 ovb-report @
}

reads_bids() {
	fmt_probe "$@"
	probe "$@" 0 ovb-market "$MCL" @       # a report, not a format
	probe "$@" 1 ovb-rebalance "$MCL" @
}

reads_migrations() {
	fmt_probe "$@"
}

reads_rt() {
	fmt_probe "$@"
	probe "$@" 0 ovb-rt @
}

reads_trade() {
	fmt_probe "$@"
}

reads_backtest() {
	fmt_probe "$@"
}

reads_fit() {
	fmt_probe "$@"
	probe "$@" 0 ovb-report @
}

# Not overbook formats: ovb-fmt refuses them (no magic) naming the file.
reads_bitbrains() {
	probe bad - "$3" 1 ovb-fmt -c @
	probe "$@" 1 ovb-import --bitbrains @
}

reads_perfdata() {
	probe bad - "$3" 1 ovb-fmt -c @
	probe "$@" 1 ovb-onoff -q -c 'w=comm:^nginx$' @
	probe "$1" "$2" "<$3" 1 ovb-onoff -q -c 'w=comm:^nginx$' -
}

@test "bad onoff" { run_format onoff; }
@test "bad usage" { run_format usage; }
@test "bad profile" { run_format profile; }
@test "bad series" { run_format series; }
@test "bad curve" { run_format curve; }
@test "bad cluster" { run_format cluster; }
@test "bad apps (and Sharc RSL)" { run_format apps; }
@test "bad plan" { run_format plan; }
@test "bad reserves" { run_format reserves; }
@test "bad gain" { run_format gain; }
@test "bad bids" { run_format bids; }
@test "bad migrations" { run_format migrations; }
@test "bad rt" { run_format rt; }
@test "bad trade" { run_format trade; }
@test "bad backtest" { run_format backtest; }
@test "bad fit" { run_format fit; }
@test "bad bitbrains" { run_format bitbrains; }
@test "bad perfdata (file and pipe mode)" { run_format perfdata; }

@test "every format of formats/*.md has its corpus, its readers here and its @test" {
	# derived from formats/*.md, not listed: a new format fails here until
	# gen.py writes its corpus (from t/data/example.NAME) and this file
	# probes it.  worker is a protocol, not a file (fuzz/fuzz-worker.c).
	local md name miss=
	for md in "$BATS_TEST_DIRNAME"/../formats/*.md; do
		name=${md##*/}
		name=${name%.md}
		[[ $name == README || $name == worker ]] && continue
		grep -q "^$name/" "$BAD/MANIFEST" || miss+="$name: no files in t/bad/MANIFEST"$'\n'
		declare -F "reads_$name" >/dev/null || miss+="$name: no reads_$name"$'\n'
		grep -q "^@test \"bad $name[\" ]" "$BATS_TEST_FILENAME" ||
			miss+="$name: no @test \"bad $name\""$'\n'
	done
	[[ -z $miss ]] || fail "$miss"
}

@test "the corpus is what t/bad/gen.py writes" {
	# a copy of t/ (bad, data, fixtures) beside the specs, which give
	# gen.py its list of formats
	local copy=$BATS_TEST_TMPDIR/r/t
	mkdir -p "$copy"
	cp -r "$BATS_TEST_DIRNAME/../formats" "$copy/../formats"
	cp -r "$BAD" "$copy/bad"
	cp -r "$BATS_TEST_DIRNAME/data" "$copy/data"
	cp -r "$BATS_TEST_DIRNAME/fixtures" "$copy/fixtures"
	/usr/bin/python3 "$copy/bad/gen.py"
	run diff -r "$BAD" "$copy/bad"
	assert_success
}
