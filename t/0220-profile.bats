#!/usr/bin/env bats
# ovb-profile: (sigma, rho, tau, U, O) from ovb-usage and ovb-curve files
# (formats/profile.md).  t/oracle/profile.py checks every block: sigma the
# (1-O)*100th percentile (U's exact pct, else the upper edge of its bin),
# rho = the curve at sigma, U and the curve copied.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# inputs SEED: $T/u (with pct 97.5 too) and $T/c from a random trace.
inputs() {
	python3 "$GEN/onoff.py" --seed "$1" --capsules 4 --cpus 8 \
		--span 20000000000 --busy 300 --xfers 300 --gaps 2 >"$T/t.onoff"
	ovb-usage -q -I 0.1 -r all -p 97.5 "$T/t.onoff" >"$T/u"
	ovb-tbucket -q -r all "$T/t.onoff" >"$T/c"
}

# agree PROFILE-OPTIONS...: ovb-profile's output passes ovb-fmt and the
# oracle (options other than the files are passed to both).
agree() {
	ovb-profile -q "$@" "$T/u" "$T/c" >"$T/p" || fail "ovb-profile $* failed"
	ovb-fmt "$T/p" || fail "ovb-fmt rejects the profile"
	run -0 python3 "$ORACLE/profile.py" "$@" "$T/u" "$T/c" "$T/p"
	assert_output --partial 'agree'
}

@test "pipeline: usage + curve -> profile, valid and canonical" {
	ovb-usage -q -r all "$DATA/example.onoff" >"$T/u"
	ovb-tbucket -q -r all "$DATA/example.onoff" >"$T/c"
	run -0 --separate-stderr ovb-profile -q -O 0.01 -t 1 "$T/u" "$T/c"
	assert_line --index 0 'ovb-profile 1'
	assert_line 'profile db cpu'
	printf '%s\n' "$output" >"$T/p"
	run -0 --separate-stderr ovb-fmt -l "$T/p"
	assert_output ''
}

@test "random traces: sigma, rho, U and curve as the oracle says, O 0..0.9" {
	for s in 1 2 3; do
		inputs "$s"
		for O in 0 0.01 0.025 0.05 0.1 0.5 0.9; do
			agree -O "$O" -t 0.5
		done
	done
}

@test "sigma: U's exact pct when present, else the upper edge of its bin" {
	inputs 4
	ovb-profile -q -O 0.025 -t 1 "$T/u" "$T/c" >"$T/exact"
	grep -v '^pct 97.5 ' "$T/u" >"$T/u2"
	ovb-profile -q -O 0.025 -t 1 "$T/u2" "$T/c" >"$T/edge"
	run -0 awk '
		/^profile/ { k = $2 " " $3 }
		/^sigma/ { s[FILENAME, k] = $2 }
		/^width/ { w[k] = $2 }
		END {
			for (x in s) {
				split(x, f, SUBSEP)
				if (f[1] != ARGV[1]) continue
				e = s[ARGV[1], f[2]]; g = s[ARGV[2], f[2]]
				if (g + 0 < e + 0 || g + 0 > e + w[f[2]]) {
					print f[2] ": edge " g " vs exact " e; bad = 1
				}
				if (g / w[f[2]] != int(g / w[f[2]] + 0.5)) {
					print f[2] ": " g " is not a bin edge"; bad = 1
				}
			}
			exit bad
		}' "$T/exact" "$T/edge"
	run -0 python3 "$ORACLE/profile.py" -O 0.025 -t 1 "$T/u2" "$T/c" "$T/edge"
}

@test "--set overrides O and tau of one capsule" {
	inputs 5
	agree -O 0.05 -t 0.5 --set c1:O=0.2,tau=2 --set c3:tau=0.01
	run -0 grep -A4 '^profile c1 cpu' "$T/p"
	assert_line 'tau 2 s'
	assert_line 'O 0.2'
}

@test "files in any order, or on stdin" {
	inputs 6
	ovb-profile -q -O 0.01 -t 1 "$T/u" "$T/c" >"$T/p1"
	ovb-profile -q -O 0.01 -t 1 "$T/c" "$T/u" >"$T/p2"
	ovb-profile -q -O 0.01 -t 1 "$T/c" - <"$T/u" >"$T/p3"
	ovb-profile -q -O 0.01 -t 1 "$T/c" "$T/u" >"$T/p4"
	cmp "$T/p1" "$T/p2"
	cmp "$T/p1" "$T/p3"
	cmp "$T/p1" "$T/p4"
}

@test "sigma below the curve's mean: rho(mean), no curve, a warning" {
	ovb-usage -q -r cpu "$DATA/example.onoff" >"$T/u"
	ovb-tbucket -q -r cpu "$DATA/example.onoff" >"$T/c"
	run -0 --separate-stderr ovb-profile -O 0.01 -t 1 "$T/u" "$T/c"
	[[ $stderr == *$'\n'"ovb-profile: web cpu: sigma 0.01035 cpu (U's percentile 99) is below the curve's mean 0.15521380345086272 cpu: rho is rho(mean) and the curve is left out"$'\n'* ]] ||
		fail "stderr: $stderr"
	run -0 grep -A2 '^profile web cpu' <<<"$output"
	assert_line 'sigma 0.01035 cpu'
	assert_line 'rho 0.2844786196549137 cpu-s'
	run -0 --separate-stderr ovb-profile -q -O 0.01 -t 1 "$T/u" "$T/c"
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >"$T/p"
	run -0 python3 "$ORACLE/profile.py" -O 0.01 -t 1 "$T/u" "$T/c" "$T/p"
}

@test "a pair with only U or only a curve is left out, with a warning" {
	ovb-usage -q -r cpu,net "$DATA/example.onoff" >"$T/u"
	ovb-tbucket -q -r cpu,net-rx "$DATA/example.onoff" >"$T/c"
	run -0 --separate-stderr ovb-profile -O 0.01 -t 1 "$T/u" "$T/c"
	stderr_has "ovb-profile: web net: a usage distribution ($T/u) but no curve; left out"
	stderr_has "ovb-profile: db net-rx: a curve ($T/c) but no usage distribution; left out"
	run -0 grep '^profile' <<<"$output"
	assert_output "$(printf 'profile %s cpu\n' web db)"
}

# ---------------------------------------------------------------------------
# Bad input and options.

@test "bad options: 64" {
	ovb-usage -q "$DATA/example.onoff" >"$T/u"
	ovb-tbucket -q "$DATA/example.onoff" >"$T/c"
	local bad
	for bad in '-t 1' '-O 0.01' '-O 1 -t 1' '-O -0.1 -t 1' '-O abc -t 1' \
	    '-O 0.1 -t 0' '-O 0.1 -t 1x' '-O 0.1 -t 1 --set web' \
	    '-O 0.1 -t 1 --set web:O' '-O 0.1 -t 1 --set web:x=1' \
	    '-O 0.1 -t 1 --set web:O=1' '-O 0.1 -t 1 --set bad!:O=0' \
	    '-O 0.1 -t 1 --set nosuch:O=0.1'; do
		# shellcheck disable=SC2086
		run -64 --separate-stderr ovb-profile -q $bad "$T/u" "$T/c"
		assert_output ''
		[[ $stderr == ovb-profile:* ]] || fail "$bad: stderr '$stderr'"
	done
}

@test "bad inputs: 65 or 66, nothing written, -o leaves no file" {
	ovb-usage -q "$DATA/example.onoff" >"$T/u"
	ovb-tbucket -q "$DATA/example.onoff" >"$T/c"
	run -65 --separate-stderr ovb-profile -O 0.1 -t 1 "$T/u" "$DATA/example.cluster"
	assert_output ''
	assert_equal "$stderr" "ovb-profile: $DATA/example.cluster:1: this is an ovb-cluster file; expected ovb-usage or ovb-curve"
	run -65 --separate-stderr ovb-profile -O 0.1 -t 1 "$DATA/example.onoff"
	assert_output ''
	run -66 --separate-stderr ovb-profile -O 0.1 -t 1 "$T/u" "$T/c" "$T/nope"
	assert_output ''
	run -65 --separate-stderr ovb-profile -O 0.1 -t 1 "$T/u" "$T/u"
	stderr_has "usage web cpu was already read from $T/u"
	run -65 --separate-stderr ovb-profile -q -O 0.1 -t 1 "$T/u"
	assert_equal "$stderr" 'ovb-profile: no capsule and resource has both a usage distribution and a curve'
	run -65 --separate-stderr ovb-profile -O 0.1 -t 1 -o "$T/out" "$T/u" "$DATA/example.cluster"
	[[ ! -e $T/out ]]
}

@test "too few intervals for the percentile: a warning with the count; --strict fails" {
	ovb-usage -q -r cpu "$DATA/example.onoff" >"$T/u"
	ovb-tbucket -q -r cpu "$DATA/example.onoff" >"$T/c"
	grep -q '^intervals 1$' "$T/u" || fail "the example should have one interval: $(grep intervals "$T/u")"
	run -0 --separate-stderr ovb-profile -O 0.01 -t 1 -o "$T/p" "$T/u" "$T/c"
	[[ $stderr == "ovb-profile: warning: web cpu: percentile 99 of 1 intervals is their maximum (O = 0.01 needs at least 100; measure longer or with a smaller -I)"* ]] ||
		fail "stderr: $stderr"
	run -65 --separate-stderr ovb-profile --strict -O 0.01 -t 1 -o "$T/p2" "$T/u" "$T/c"
	[[ ! -e $T/p2 ]]
	# O = 0.5 needs 2 intervals: still 1; O = 0 is the maximum by definition
	# (of the intervals measured: the example's other interval overlaps a
	# gap of lost events, which --strict refuses at O = 0, below)
	sed -i '/^lost /d' "$T/u"
	run -0 --separate-stderr ovb-profile --strict -O 0 -t 1 "$T/u" "$T/c"
}

# gap_intervals ONOFF I_NS: "D TOTAL": the measurement intervals [t0 + k I,
# t0 + (k+1) I) of ONOFF's span, and those that meet a gap [START, END]
# (computed here from the records, not by overbook)
gap_intervals() {
	awk -v I="$2" '$1 == "span" { t0 = $2; t1 = $3 }
		$1 == "gap" { gs[++n] = $2; ge[n] = $3 }
		END { total = int((t1 - t0) / I)
			for (k = 0; k < total; k++) {
				a = t0 + k * I; b = a + I
				for (j = 1; j <= n; j++)
					if (ge[j] >= a && gs[j] < b) { d++; break }
			}
			print d + 0, total }' "$1"
}

@test "lost events: the intervals left out travel from the trace through usage into the profile; --strict fails above O/2" {
	local data=$BATS_TEST_TMPDIR/lost.data D total
	gzip -dc "$FIXTURES/lost.perf.data.gz" >"$data"
	# perf lost events and dropped charges here: 96 of the burner's runs
	# have no charge in the trace and may have begun before their switch
	# in, so its busy time is uncertain by more than 1.5 % and refused
	# (issue 26 item 6; it was accepted with a bound of 0 before);
	# accepted with --max-uncertainty=any to follow the gaps downstream
	run -65 --separate-stderr ovb-onoff -q -c 'burn=comm:^python3$' "$data"
	[[ $stderr == *"capsule burn: busy "*" runs whose charges the trace lacks (perf dropped them"*"refused: busy time uncertain by more than 1.5 %"* ]] ||
		fail "not refused for the runs without charges: $stderr"
	ovb-onoff -q --max-uncertainty=any -c 'burn=comm:^python3$' "$data" >"$T/t.onoff"
	read -r D total < <(gap_intervals "$T/t.onoff" 10000000)
	echo "# $D of $total intervals of 10 ms meet a gap" >&3
	[[ $D -gt 0 ]]
	run -0 --separate-stderr ovb-usage -I 0.01 -r cpu "$T/t.onoff"
	assert_line "intervals $((total - D))"
	assert_line "lost $D"
	stderr_has "$D of $total measurement intervals of 0.01 s overlap gaps"
	printf '%s\n' "$output" >"$T/u"
	ovb-tbucket -q -r cpu "$T/t.onoff" >"$T/c"
	run -0 --separate-stderr ovb-profile -O 0.2 -t 1 -o "$T/p" "$T/u" "$T/c"
	grep -qx "lost $D" "$T/p"
	run -0 python3 "$ORACLE/profile.py" -O 0.2 -t 1 "$T/u" "$T/c" "$T/p"
	local pct
	pct=$(awk -v d="$D" -v t="$total" 'BEGIN { printf "%.3g", 100 * d / t }')
	# (the fixture's burner also waited runnable: its own warning, t/0222)
	assert_equal "$(grep -v 'waited for a CPU while runnable' <<<"$stderr")" "ovb-profile: warning: burn cpu: $D of $total measurement intervals ($pct %) were left out for gaps of lost events, more than O/2 = 10 %: the tail above the (1-O) percentile may be in them; record again with a larger ovb-capture --mmap-pages"
	run -65 --separate-stderr ovb-profile --strict -O 0.2 -t 1 -o "$T/p2" "$T/u" "$T/c"
	assert_output ''
	[[ ! -e $T/p2 ]]
	stderr_has "error: burn cpu: $D of $total measurement intervals"
	# the threshold, exactly: a share of O/2 passes, one interval more not
	# (N = 72 measured at O = 0.5: 24 of 96 is 25 %, 25 of 97 is above)
	printf '%s\n' 'ovb-usage 1' 'usage burn cpu' 'interval 0.01 s' \
		'width 0.01 cpu' 'intervals 72' 'lost 24' 'bin 100 72' >"$T/u"
	run -0 --separate-stderr ovb-profile --strict -O 0.5 -t 1 "$T/u" "$T/c"
	sed -i 's/^lost 24$/lost 25/' "$T/u"
	run -65 --separate-stderr ovb-profile --strict -O 0.5 -t 1 "$T/u" "$T/c"
	stderr_has "burn cpu: 25 of 97 measurement intervals"
	# O = 0: any interval lost may have held the maximum
	sed -i 's/^lost 25$/lost 1/' "$T/u"
	run -65 --separate-stderr ovb-profile --strict -O 0 -t 1 "$T/u" "$T/c"
	stderr_has "more than O/2 = 0 %"
}

# interval_within CURVE CAPSULE RES CAP: min over the curve's points with
# sigma < CAP of rho / (CAP - sigma), the float ovb-profile should name
interval_within() {
	python3 - "$@" <<-'PY'
	import sys
	path, cap, res, c = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
	cur, best = None, float("inf")
	for line in open(path):
	    t = line.split()
	    if not t or t[0].startswith("#"):
	        continue
	    if t[0] == "curve":
	        cur = (t[1], t[2])
	    elif t[0] == "point" and cur == (cap, res):
	        s, r = float(t[1]), float(t[2])
	        if s < c:
	            best = min(best, r / (c - s))
	print(repr(best))
	PY
}

@test "--cluster: a sigma above every node's capacity is a warning naming the interval at which it would fit; at that interval it fits" {
	local data
	data=$(unpack_fixture nginx)
	ovb-onoff -q -c 'web=comm:^nginx$' "$data" >"$T/t.onoff"
	ovb-usage -q -I 0.01 -r net "$T/t.onoff" >"$T/u"
	ovb-tbucket -q -r net "$T/t.onoff" >"$T/c"
	local sigma
	sigma=$(ovb-profile -q -O 0.01 -t 1 "$T/u" "$T/c" | awk '$1 == "sigma" { print $2 }')
	echo "# web net: sigma $sigma B/s at 10 ms" >&3
	# a link between the mean (1.14 MB/s) and sigma (2.61 MB/s)
	printf '%s\n' 'ovb-cluster 1' 'node n1 4 cpu 2200000 B/s' \
		'node n2 4 cpu 1000000 B/s' >"$T/cl"
	local I
	I=$(interval_within "$T/c" web net 2200000)
	run -0 --separate-stderr ovb-profile --cluster "$T/cl" -O 0.01 -t 1 -o "$T/p" "$T/u" "$T/c"
	echo "# $stderr" >&3
	[[ $stderr == "ovb-profile: warning: web net: sigma (rate) $sigma B/s at I = 0.01 s exceeds every node of $T/cl (the largest net capacity is 2200000 B/s): no node can hold it; it would fit at I >= $I s (ovb-usage -I "* ]] ||
		fail "stderr: $stderr; expected I >= $I"
	# the profile is the same as without --cluster
	run -0 ovb-profile -q -O 0.01 -t 1 "$T/u" "$T/c"
	assert_equal "$output" "$(cat "$T/p")"
	# at the interval it names, no interval of the trace exceeds the link
	local up
	up=$(sed -n 's/.*(ovb-usage -I \([0-9.e+-]*\)).*/\1/p' <<<"$stderr")
	python3 -c "import sys; I, up = float(sys.argv[1]), float(sys.argv[2]); assert I <= up <= I * 1.01, (I, up)" "$I" "$up"
	ovb-usage -q -I "$up" -r net -p 99 "$T/t.onoff" >"$T/u2"
	run -0 awk '$1 == "pct" && $2 == 100 { print $3 }' "$T/u2"
	python3 -c "import sys; assert float(sys.argv[1]) <= 2200000, sys.argv[1]" "$output"
	run -0 --separate-stderr ovb-profile --cluster "$T/cl" -O 0.01 -t 1 "$T/u2" "$T/c"
	[[ $stderr != *"exceeds every node"* ]] || fail "stderr: $stderr"
	# a link below the mean: no interval fits
	printf '%s\n' 'ovb-cluster 1' 'node n1 4 cpu 1000000 B/s' >"$T/cl2"
	run -0 --separate-stderr ovb-profile --cluster "$T/cl2" -O 0.01 -t 1 "$T/u" "$T/c"
	stderr_has "web net: sigma (rate) $sigma B/s at I = 0.01 s exceeds every node of $T/cl2"
	stderr_has "no interval fits: its long-run mean rate"
	# a link above sigma: nothing to say; -q says nothing either
	printf '%s\n' 'ovb-cluster 1' 'node n1 4 cpu 125000000 B/s' >"$T/cl3"
	run -0 --separate-stderr ovb-profile --cluster "$T/cl3" -O 0.01 -t 1 "$T/u" "$T/c"
	assert_equal "$stderr" ""
	run -0 --separate-stderr ovb-profile -q --cluster "$T/cl2" -O 0.01 -t 1 "$T/u" "$T/c"
	assert_equal "$stderr" ""
	# --cluster takes a cluster file only
	run -65 --separate-stderr ovb-profile --cluster "$T/u" -O 0.01 -t 1 -o "$T/p4" "$T/u" "$T/c"
	stderr_has "--cluster: this is an ovb-usage file; expected ovb-cluster"
	[[ ! -e $T/p4 ]]
	run -66 --separate-stderr ovb-profile --cluster "$T/nope" -O 0.01 -t 1 "$T/u" "$T/c"
}

@test "cli: a tolerance outside [0,1) is a usage error saying [0,1), as formats/apps.md" {
	local o
	for o in 1 2 -0.5; do
		run -64 --separate-stderr ovb-profile -O "$o" "$DATA/example.usage"
		[[ $stderr == "ovb-profile: -O: $o is outside [0,1): the tolerance O is at least 0 and below 1"* ]] || fail "$stderr"
	done
	grep -q '0 <= P < 1' "$BATS_TEST_DIRNAME/../formats/apps.md"
}
