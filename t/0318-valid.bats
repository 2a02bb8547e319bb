#!/usr/bin/env bats
# Until when a plan is valid: ovb-usage --horizon writes where its
# forecast ends (forecast T, the series' end + the horizon), ovb-profile
# copies it, ovb-place dates the plan at the earliest forecast of its
# profiles (every cpu, net and net-rx block carrying one; mem blocks
# never do) and refuses --valid-until after it; ovb-check reports a date
# after the forecast (beyond-forecast) and, with --at, a plan past it
# (expired).  The series is synthetic (t/oracle/drift_series.py: four
# VMs, hourly, 49 days); each expected T is computed here from the
# series' last sample with awk, not by the tools.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	python3 "$BATS_TEST_DIRNAME/oracle/drift_series.py" >"$T/s.series"
	# a and b in one file, c and d in another
	awk 'NR == 1 { print > A; print > C; next }
	     $1 == "series" { f = ($2 == "a" || $2 == "b") ? A : C }
	     f { print > f }' A="$T/ab.series" C="$T/cd.series" "$T/s.series"
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s\nnode n2 4 cpu 1000 B/s\n' >"$T/cl"
	{
		echo 'ovb-apps 1'
		for v in a b c d; do
			printf 'app %s O=0.05\ncapsule x profile=%s\n' "$v" "$v"
		done
	} >"$T/apps"
}

# end FILE: the end of the last slot of FILE's series, s since the epoch
end_of() {
	awk '$1 == "interval" { i = $2 } $1 == "sample" && $2 + i > e { e = $2 + i }
	     END { print e }' "$1"
}

# profiles: a and b forecast 7 days ahead, c and d 2 days (or, with
# "measured", c and d not forecast at all)
profiles() {
	ovb-usage -q --horizon 7d "$T/ab.series" >"$T/ab.u"
	if [[ ${1-} == measured ]]; then
		ovb-usage -q "$T/cd.series" >"$T/cd.u"
	else
		ovb-usage -q --horizon 2d "$T/cd.series" >"$T/cd.u"
	fi
	ovb-tbucket -q "$T/s.series" >"$T/c"
	ovb-profile -q -O 0.05 -t 3600 "$T/ab.u" "$T/cd.u" "$T/c" >"$T/p"
}

@test "ovb-usage --horizon: forecast T is the series' end + the horizon, copied into the profile" {
	profiles
	local e
	e=$(end_of "$T/ab.series")
	[[ $(awk '$1 == "forecast" { print $2 }' "$T/ab.u" | sort -u) == $((e + 7 * 86400)) ]]
	e=$(end_of "$T/cd.series")
	[[ $(awk '$1 == "forecast" { print $2 }' "$T/cd.u" | sort -u) == $((e + 2 * 86400)) ]]
	# every block of the profile carries its usage block's forecast
	assert_equal "$(awk '$1 == "profile" { n++ } $1 == "forecast" { f++ } END { print n, f }' "$T/p")" '4 4'
	ovb-fmt "$T/ab.u" "$T/p"
	# without --horizon there is no forecast, only weights or nothing
	ovb-usage -q --half-life 7d "$T/ab.series" >"$T/w.u"
	ovb-usage -q "$T/ab.series" >"$T/m.u"
	! grep -q '^forecast' "$T/w.u" "$T/m.u"
}

@test "ovb-place dates the plan at the earliest forecast; ovb-check --at fails it from then on" {
	profiles
	local t
	t=$(($(end_of "$T/cd.series") + 2 * 86400))
	ovb-place "$T/cl" "$T/apps" "$T/p" >"$T/plan"
	assert_equal "$(grep '^valid-until' "$T/plan")" "valid-until $t"
	run -0 ovb-check "$T/cl" "$T/apps" "$T/plan" "$T/p"
	run -0 ovb-check --at $((t - 1)) "$T/cl" "$T/apps" "$T/plan" "$T/p"
	run -1 --separate-stderr ovb-check --at "$t" "$T/cl" "$T/apps" "$T/plan" "$T/p"
	assert_output "violation - - expired valid-until=$t at=$t"
	# the report says it under the nodes table
	run -0 ovb-report -t nodes "$T/cl" "$T/plan" "$T/p"
	assert_line --partial "; the plan's promise is stated until $(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ) (valid-until $t s since the epoch))"
	# an earlier date is the planner's to give
	ovb-place --valid-until $((t - 3600)) "$T/cl" "$T/apps" "$T/p" |
		grep -qx "valid-until $((t - 3600))"
}

@test "--valid-until after the forecast: 65 naming the profile, nothing written" {
	profiles
	local t
	t=$(($(end_of "$T/cd.series") + 2 * 86400))
	run -65 --separate-stderr ovb-place --valid-until $((t + 1)) -o "$T/plan" \
		"$T/cl" "$T/apps" "$T/p"
	assert_output ''
	[[ ! -e $T/plan ]]
	local line
	line=$(grep -n '^profile c cpu$' "$T/p" | cut -d: -f1)
	assert_equal "$stderr" "ovb-place: $T/p:$line: profile c cpu forecasts its usage until $t: --valid-until $((t + 1)) states the plan's promise beyond it"
}

@test "ovb-check: a plan dated after its profiles' forecast, or undated and past it" {
	profiles
	local t line
	t=$(($(end_of "$T/cd.series") + 2 * 86400))
	line=$(grep -n '^profile c cpu$' "$T/p" | cut -d: -f1)
	ovb-place "$T/cl" "$T/apps" "$T/p" >"$T/plan"
	sed "s/^valid-until .*/valid-until $((t + 86400))/" "$T/plan" >"$T/late"
	run -1 --separate-stderr ovb-check "$T/cl" "$T/apps" "$T/late" "$T/p"
	assert_output "violation - - beyond-forecast valid-until=$((t + 86400)) forecast=$t profile c cpu ($T/p:$line)"
	grep -v '^valid-until' "$T/plan" >"$T/undated"
	run -0 ovb-check "$T/cl" "$T/apps" "$T/undated" "$T/p"
	run -1 --separate-stderr ovb-check --at "$t" "$T/cl" "$T/apps" "$T/undated" "$T/p"
	assert_output "violation - - expired forecast=$t at=$t"
}

@test "a measured profile dates nothing: no valid-until, an input plan keeps its date" {
	profiles measured
	ovb-place "$T/cl" "$T/apps" "$T/p" >"$T/plan"
	! grep -q '^valid-until' "$T/plan"
	ovb-place --valid-until 99999999 "$T/cl" "$T/apps" "$T/p" >"$T/dated"
	printf 'ovb-apps 1\n' >"$T/none"
	ovb-place "$T/cl" "$T/none" "$T/p" "$T/dated" | grep -qx 'valid-until 99999999'
	run -0 ovb-check --at 99999998 "$T/cl" "$T/apps" "$T/dated" "$T/p"
}

@test "mem blocks carry no forecast and do not keep the cpu forecast from dating the plan" {
	local M=$DATA/backtest-mem.series
	ovb-usage -q -r cpu --horizon 1d "$M" >"$T/mc.u"
	ovb-usage -q -r mem --window 300s "$M" >"$T/mm.u"
	! grep -q '^forecast' "$T/mm.u"
	ovb-tbucket -q "$M" >"$T/m.c"
	ovb-profile -q -O 0.5 -t 300 "$T/mc.u" "$T/mm.u" "$T/m.c" >"$T/mp"
	# c's cpu series ends first: its last sample is at 900, slots of 300 s
	printf 'ovb-cluster 1\nnode n1 8 cpu 1000 B/s mem 8589934592 B\n' >"$T/mcl"
	printf 'ovb-apps 1\napp a O=0.5\ncapsule x profile=a\napp b O=0.5\ncapsule x profile=b\napp c O=0.5\ncapsule x profile=c\n' >"$T/mapps"
	ovb-place "$T/mcl" "$T/mapps" "$T/mp" >"$T/mplan"
	assert_equal "$(grep '^valid-until' "$T/mplan")" "valid-until $((900 + 300 + 86400))"
	ovb-check "$T/mcl" "$T/mapps" "$T/mplan" "$T/mp"
	# --horizon on mem is refused: window peaks are not forecast
	run -65 --separate-stderr ovb-usage -r mem --horizon 1d "$M"
}

@test "forecast records: bad ones are 65 at their line" {
	profiles
	local f=$T/ab.u line
	line=$(grep -n '^forecast' "$f" | head -1 | cut -d: -f1)
	for bad in 'forecast 0' 'forecast 4611686018427387905' 'forecast 1.5' \
		'forecast' 'forecast 1 2' 'forecast -3'; do
		sed "${line}s/.*/$bad/" "$f" >"$T/bad.u"
		run -65 --separate-stderr ovb-fmt "$T/bad.u"
		[[ $stderr == "ovb-fmt: $T/bad.u:$line: "* ]] || fail "$bad: $stderr"
	done
	sed "${line}p" "$f" >"$T/twice.u"
	run -65 --separate-stderr ovb-fmt "$T/twice.u"
	assert_equal "$stderr" "ovb-fmt: $T/twice.u:$((line + 1)): forecast is given twice in this distribution (opened at line $((line - 4)))"
	# 2^62 itself is a time
	sed "${line}s/.*/forecast 4611686018427387904/" "$f" >"$T/max.u"
	ovb-fmt "$T/max.u"
}

@test "U forecast to a later horizon is at least the one to an earlier (so the plan holds until T)" {
	# trends up and down; the CDF at every bin boundary may only fall
	# as the horizon moves out: each sample's factor grows with it
	local h
	for h in 1d 3d 7d 30d; do
		ovb-usage -q --half-life 7d --horizon $h -w cpu=0.01 \
			"$T/s.series" >"$T/h$h.u"
	done
	run -0 env ORACLE="$BATS_TEST_DIRNAME/oracle" python3 -c '
import os, sys
sys.path.insert(0, os.environ["ORACLE"])
import formats
T = sys.argv[1]
hs = ["1d", "3d", "7d", "30d"]
D = {h: {d.capsule: d for d in formats.read_dists("%s/h%s.u" % (T, h))}
     for h in hs}
n = 0
for cap in sorted(D["1d"]):
    for a, b in zip(hs, hs[1:]):
        x, y = D[a][cap], D[b][cap]
        assert x.n == y.n and x.width == y.width, (cap, a, b)
        cx = cy = 0
        for k in range(max(max(x.bins), max(y.bins)) + 1):
            cx += x.bins.get(k, 0)
            cy += y.bins.get(k, 0)
            if cx < cy:
                print("%s: U to %s is not at least U to %s at bin %d" % (
                    cap, b, a, k))
                sys.exit(1)
        n += x.bins != y.bins
print("dominated, %d of 12 pairs differ" % n)
' "$T"
	assert_output --regexp '^dominated, [1-9][0-9]* of 12 pairs differ$'
}
