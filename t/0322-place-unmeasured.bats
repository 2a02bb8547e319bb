#!/usr/bin/env bats
# Measured or not, said explicitly (issue 26 item 2; formats/onoff.md
# `measured`, formats/usage.md and formats/profile.md `unmeasured`,
# formats/plan.md "Measured or not"): a resource a trace did not measure is
# never read as 0 by ovb-place, ovb-check, ovb-fit or ovb-enforce (65
# naming the capsule and the resource, unless --unmeasured=zero), and a
# lower bound on a resource a capsule does not use is an error at its line.
#
# Real traces: the shipped nginx fixture with `ovb-onoff --no-net`, and
# fixtures/sched-only (recorded by `ovb-capture --net=none`: the scheduler
# events alone, no network event at all).  Every case here passed silently (0)
# before: the profile had a net block of zeros (sigma 0, rho 0) and
# `ovb-enforce -t tc --clamp` wrote `rate 8bit ceil 8bit`.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 2 cpu 125000000 B/s\n' >"$T/c.cluster"
	printf 'ovb-apps 1\napp shop O=0.01\ncapsule web profile=web\n' >"$T/a.apps"
}

# profile_of ONOFF-OPTIONS... PERF.DATA: the pipeline of README's "From perf
# record to a profile" into $T/web.{onoff,usage,curve,profile}; stderr of
# ovb-usage in $T/usage.err.
profile_of() {
	ovb-onoff -q "$@" >"$T/web.onoff" || fail "ovb-onoff $* failed"
	ovb-usage -I 0.1 "$T/web.onoff" >"$T/web.usage" 2>"$T/usage.err" ||
		fail "ovb-usage failed"
	ovb-tbucket -q "$T/web.onoff" >"$T/web.curve" || fail "ovb-tbucket failed"
	ovb-profile -q -O 0.01 -t 1 "$T/web.usage" "$T/web.curve" \
		>"$T/web.profile" || fail "ovb-profile failed"
}

# refused_everywhere: ovb-place, ovb-check, ovb-fit refuse the capsule
# (65 at the apps file's line 3, naming it and net); with --unmeasured=zero
# ovb-place proceeds, says so and records it; ovb-enforce -t tc (even with
# --clamp) refuses that plan, and with --unmeasured=zero writes no class
# for it (no `rate 8bit`).
refused_everywhere() {
	local a=$T/a.apps
	run -65 --separate-stderr ovb-place "$T/c.cluster" "$a" "$T/web.profile"
	assert_output ""
	[[ $stderr == "ovb-place: $a:3: application shop, capsule web: net was not measured"* ]] ||
		fail "stderr: $stderr"
	[[ $stderr == *"--unmeasured=zero"* ]]
	run -65 --separate-stderr ovb-fit --nodes n1 "$T/c.cluster" "$a" "$T/web.profile"
	[[ $stderr == "ovb-fit: $a:3: application shop, capsule web: net was not measured"* ]] ||
		fail "stderr: $stderr"
	run -0 --separate-stderr ovb-place --unmeasured=zero "$T/c.cluster" "$a" \
		"$T/web.profile"
	printf '%s\n' "$output" >"$T/p.plan"
	[[ $stderr == "ovb-place: $a:3: application shop, capsule web: net was not measured ("*"); read as 0 (--unmeasured=zero)" ]] ||
		fail "stderr: $stderr"
	assert_line "unmeasured shop web net"
	assert_line --regexp "^qos shop web cpu "
	refute_line --regexp "^qos shop web net |^tbucket "
	run -65 --separate-stderr ovb-check "$T/c.cluster" "$a" "$T/p.plan" "$T/web.profile"
	[[ $stderr == "ovb-check: $a:3: application shop, capsule web: net was not measured"* ]] ||
		fail "stderr: $stderr"
	run -0 --separate-stderr ovb-check --unmeasured=zero "$T/c.cluster" "$a" \
		"$T/p.plan" "$T/web.profile"
	assert_output ""
	local at
	at=$(line_of '^unmeasured ' "$T/p.plan")
	run -65 --separate-stderr ovb-enforce -t tc --clamp "$T/c.cluster" "$T/p.plan"
	assert_output ""
	assert_equal "$stderr" "ovb-enforce: $T/p.plan:$at: capsule shop/web: net was not measured (placed as 0 with --unmeasured=zero); tc renders nothing true of it: measure it, give the capsule plain values, or pass --unmeasured=zero"
	run -0 --separate-stderr ovb-enforce -t tc --unmeasured=zero "$T/c.cluster" "$T/p.plan"
	refute_output --partial "8bit"
	refute_output --partial "shop/web"
	assert_equal "$stderr" "ovb-enforce: $T/p.plan:$at: capsule shop/web: net was not measured; nothing of it rendered (--unmeasured=zero)"
	# a CPU target renders no net: nothing read as 0, nothing refused
	run -0 --separate-stderr ovb-enforce -t cgroup "$T/c.cluster" "$T/p.plan"
	assert_output --partial "shop/web"
}

@test "onoff --no-net on the nginx fixture: 'measured cpu', unmeasured net blocks (the oracle agrees); place, check, fit, enforce refuse it, --unmeasured=zero says and records it" {
	profile_of --no-net -c 'web=comm:^nginx$' "$(unpack_fixture nginx)"
	assert_equal "$(grep -c '^measured' "$T/web.onoff")" 1
	grep -qx 'measured cpu' "$T/web.onoff" || fail "no 'measured cpu' in the onoff file"
	run -0 python3 "$BATS_TEST_DIRNAME/oracle/usage.py" --interval 0.1 "$T/web.onoff" "$T/web.usage"
	assert_output --partial "2 distributions agree"
	grep -q "capsule web: net was not measured" "$T/usage.err" ||
		fail "ovb-usage did not say it: $(cat "$T/usage.err")"
	# the profile states it: an unmeasured block, no sigma of 0
	run -0 awk '/^profile web net$/ { b = 1; next } /^profile/ { b = 0 } b' "$T/web.profile"
	assert_line "unmeasured"
	refute_line --regexp "^(sigma|rho|bin|intervals) "
	refused_everywhere
}

@test "a trace of the scheduler events alone (fixtures/sched-only, ovb-capture --net=none): net not measured, refused, not a 0" {
	profile_of --max-uncertainty=any -c 'web=comm:^python3$' \
		"$(unpack_fixture sched-only)"
	grep -qx 'measured cpu' "$T/web.onoff" || fail "no 'measured cpu'"
	run -0 python3 "$BATS_TEST_DIRNAME/oracle/usage.py" --interval 0.1 "$T/web.onoff" "$T/web.usage"
	assert_output --partial "2 distributions agree"
	refused_everywhere
}

@test "a trace with the network events: 'measured cpu net', a measured net block, placed as before" {
	profile_of -c 'web=comm:^nginx$' "$(unpack_fixture nginx)"
	grep -qx 'measured cpu net' "$T/web.onoff" || fail "no 'measured cpu net'"
	run -0 --separate-stderr ovb-place "$T/c.cluster" "$T/a.apps" "$T/web.profile"
	assert_line --regexp "^qos shop web net [1-9]"
	refute_line --regexp "^unmeasured"
	printf '%s\n' "$output" >"$T/p.plan"
	run -0 ovb-check "$T/c.cluster" "$T/a.apps" "$T/p.plan" "$T/web.profile"
	# --recv where the trace has sock_recv_length: net-rx measured too
	ovb-onoff -q --recv -c 'web=comm:^nginx$' "$(unpack_fixture nginx)" >"$T/r.onoff"
	grep -qx 'measured cpu net net-rx' "$T/r.onoff" || fail "no net-rx"
}

@test "an older onoff file (no 'measured'): net measured only where some capsule sent; the oracle agrees" {
	# t/data/example.onoff has send records: as before
	run -0 --separate-stderr ovb-usage -r all "$DATA/example.onoff"
	refute_line "unmeasured"
	# without any send or recv record: not measured, not 0
	grep -vE '^(send|recv) ' "$DATA/example.onoff" >"$T/old.onoff"
	run -0 --separate-stderr ovb-usage -r all "$T/old.onoff"
	printf '%s\n' "$output" >"$T/old.usage"
	assert_equal "$(grep -c '^unmeasured$' "$T/old.usage")" 4
	run -0 python3 "$BATS_TEST_DIRNAME/oracle/usage.py" --res all "$T/old.onoff" "$T/old.usage"
	assert_output --partial "6 distributions agree"
}

@test "a lower bound on a resource the capsule does not use: 65 at its line (ovb-place, ovb-check, ovb-fit), also when unmeasured is read as 0" {
	# issue 26's case: the guarantees on n2 summed to 2 CPUs of 1
	printf 'ovb-cluster 1\nnode n2 1 cpu 4000000 B/s\n' >"$T/lb.cluster"
	printf 'ovb-apps 1\napp a1 O=0\ncapsule c1 cpu=1 net=500000\napp a3 O=0\ncapsule c1 profile=p4 lb-cpu=1\n' >"$T/lb.apps"
	printf 'ovb-profile 1\nprofile p4 net\nsigma 1000 B/s\nrho 0 B\ntau 1 s\nO 0\ninterval 1 s\nwidth 1000 B/s\nintervals 1\nbin 1 1\n' >"$T/p4.profile"
	# the plan an older ovb-place wrote for it (ovb-check passed it)
	cat >"$T/lb.plan" <<-EOF
	ovb-plan 1
	grid 1000
	place a1 c1 n2 -
	qos a1 c1 cpu 1 0 1 0
	qos a1 c1 net 500000 0 1 0
	cpu-resv a1 c1 1 1 1
	tbucket a1 c1 500000 0
	place a3 c1 n2 p4
	qos a3 c1 net 1000 0 1 0
	tbucket a3 c1 1000 0
	risk n2 cpu 0 0 1 1
	risk n2 net 0 0 501000 4000000
	EOF
	local msg="application a3, capsule c1: lb-cpu=1 bounds cpu, which the capsule does not use (its profile p4 has no block of it)"
	run -65 --separate-stderr ovb-place "$T/lb.cluster" "$T/lb.apps" "$T/p4.profile"
	assert_output ""
	[[ $stderr == "ovb-place: $T/lb.apps:5: $msg"* ]] || fail "stderr: $stderr"
	run -65 --separate-stderr ovb-check "$T/lb.cluster" "$T/lb.apps" "$T/lb.plan" "$T/p4.profile"
	[[ $stderr == "ovb-check: $T/lb.apps:5: $msg"* ]] || fail "stderr: $stderr"
	run -65 --separate-stderr ovb-fit --nodes n2 "$T/lb.cluster" "$T/lb.apps" "$T/p4.profile"
	[[ $stderr == "ovb-fit: $T/lb.apps:5: $msg"* ]] || fail "stderr: $stderr"
	# an lb on an unmeasured resource read as 0 is the same error
	printf 'profile p4 cpu\nunmeasured\n' >>"$T/p4.profile"
	run -65 --separate-stderr ovb-place --unmeasured=zero "$T/lb.cluster" "$T/lb.apps" "$T/p4.profile"
	[[ $stderr == *"$T/lb.apps:5: application a3, capsule c1: lb-cpu=1 bounds cpu, which the capsule does not use (its profile p4 did not measure it: read as 0)"* ]] ||
		fail "stderr: $stderr"
	# an lb on a resource the capsule uses is still fine
	printf 'ovb-apps 1\napp a3 O=0\ncapsule c1 profile=p4 lb-net=900\n' >"$T/ok.apps"
	run -0 --separate-stderr ovb-place --unmeasured=zero "$T/lb.cluster" "$T/ok.apps" "$T/p4.profile"
}

@test "ovb-check: a plan whose unmeasured records differ from the profiles is a violation (unmeasured)" {
	profile_of --no-net -c 'web=comm:^nginx$' "$(unpack_fixture nginx)"
	ovb-place -q --unmeasured=zero "$T/c.cluster" "$T/a.apps" "$T/web.profile" >"$T/p.plan"
	# the record removed: the plan hides what it read as 0
	grep -v '^unmeasured ' "$T/p.plan" >"$T/hide.plan"
	run -1 --separate-stderr ovb-check --unmeasured=zero "$T/c.cluster" "$T/a.apps" "$T/hide.plan" "$T/web.profile"
	assert_output --regexp "^violation n1 net unmeasured capsule shop/web: read as 0, not measured .* but the plan has no 'unmeasured' record of it$"
	# a measured profile, a plan that says it was not
	profile_of -c 'web=comm:^nginx$' "$(unpack_fixture nginx)"
	run -1 --separate-stderr ovb-check "$T/c.cluster" "$T/a.apps" "$T/p.plan" "$T/web.profile"
	assert_output --partial "violation n1 net unmeasured capsule shop/web: the plan says not measured"
}

@test "formats: the new records read, round-trip canonically, and are refused where they contradict (65 at the line)" {
	profile_of --no-net -c 'web=comm:^nginx$' "$(unpack_fixture nginx)"
	ovb-place -q --unmeasured=zero "$T/c.cluster" "$T/a.apps" "$T/web.profile" >"$T/p.plan"
	local f
	for f in web.onoff web.usage web.profile p.plan; do
		ovb-fmt -c "$T/$f" >"$T/$f.c" || fail "ovb-fmt -c $f"
		run -0 ovb-fmt -c "$T/$f.c"
		assert_equal "$output" "$(cat "$T/$f.c")"
	done
	# each bad file: its name, the line and a word of the message
	local -a bad=(
		b.usage 2 "U records" 'ovb-usage 1\nusage w net\nunmeasured\nintervals 1\n'
		b.usage 4 "given twice" 'ovb-usage 1\nusage w net\nunmeasured\nunmeasured\n'
		b.profile 2 "requirement" 'ovb-profile 1\nprofile w net\nunmeasured\nsigma 0 B/s\n'
		b.plan 3 "plain reservation" 'ovb-plan 1\nplace a c n1 -\nunmeasured a c net\n'
		b.plan 4 "not measured" 'ovb-plan 1\nplace a c n1 p\nunmeasured a c net\nqos a c net 1 0 1 0\n'
		b.onoff 4 "measured is given twice" 'ovb-onoff 1\ncpus 1\nmeasured cpu\nmeasured net\nspan 0 1\n'
		b.onoff 3 "'mem' is not cpu, net or net-rx" 'ovb-onoff 1\ncpus 1\nmeasured cpu mem\nspan 0 1\n'
	)
	local row
	for ((row = 0; row < ${#bad[@]}; row += 4)); do
		printf "${bad[row + 3]}" >"$T/${bad[row]}"
		run -65 --separate-stderr ovb-fmt "$T/${bad[row]}"
		assert_error_line "$T/${bad[row]}" "${bad[row + 1]}" "${bad[row + 2]}"
	done
}

@test "--unmeasured=zero on a profile of nothing measured: nothing to place, said (65 at the capsule's line)" {
	printf 'ovb-profile 1\nprofile q cpu\nunmeasured\nprofile q net\nunmeasured\n' >"$T/q.profile"
	printf 'ovb-apps 1\napp x\ncapsule c profile=q\n' >"$T/x.apps"
	local tool
	for tool in "ovb-place" "ovb-fit --nodes n1"; do
		run -65 --separate-stderr $tool --unmeasured=zero "$T/c.cluster" "$T/x.apps" "$T/q.profile"
		[[ $stderr == *"${tool%% *}: $T/x.apps:3: application x, capsule c: profile=q: nothing to place, every resource of it the cluster places was not measured and is read as 0 (--unmeasured=zero)" ]] ||
			fail "$tool: $stderr"
	done
}

@test "--unmeasured takes refuse or zero (64 otherwise)" {
	run -64 --separate-stderr ovb-place --unmeasured=maybe "$T/c.cluster" "$T/a.apps"
	[[ $stderr == *"--unmeasured: 'maybe' is not refuse or zero"* ]] || fail "stderr: $stderr"
}

@test "ovb-report: an unmeasured block is 'not measured' in the capsules table, never a 0 (text and TSV)" {
	profile_of --no-net -c 'web=comm:^nginx$' "$(unpack_fixture nginx)"
	run -0 --separate-stderr ovb-report -t capsules "$T/web.profile"
	assert_line --regexp '^web +net +not measured( +-)+$'
	assert_line --regexp '^web +cpu +[0-9]+ '
	run -0 --separate-stderr ovb-report -f tsv -t capsules "$T/web.profile"
	local row
	row=$(awk -F'\t' '$1 == "web" && $2 == "net"' <<<"$output")
	[[ $(cut -f3 <<<"$row") == unmeasured ]] || fail "row: $row"
	# no number in any column of the row but its units and file
	[[ -z $(cut -f3- <<<"$row" | tr '\t' '\n' | grep -E '^[0-9.e+-]+$' | grep -vx -- -) ]] ||
		fail "a number in the unmeasured row: $row"
}
