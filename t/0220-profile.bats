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
	run -0 --separate-stderr ovb-profile --strict -O 0 -t 1 "$T/u" "$T/c"
}

@test "cli: a tolerance outside [0,1) is a usage error saying [0,1), as formats/apps.md" {
	local o
	for o in 1 2 -0.5; do
		run -64 --separate-stderr ovb-profile -O "$o" "$DATA/example.usage"
		[[ $stderr == "ovb-profile: -O: $o is outside [0,1): the tolerance O is at least 0 and below 1"* ]] || fail "$stderr"
	done
	grep -q '0 <= P < 1' "$BATS_TEST_DIRNAME/../formats/apps.md"
}
