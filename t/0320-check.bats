#!/usr/bin/env bats
# ovb-check: verifies a placement plan (the CI gate for plans): Eq. 1 and
# Eq. 3 on every node and resource, distinct nodes per application, trust,
# pinning, lower bounds, nodes and capacities, and the stated qos,
# cpu-resv, tbucket and risk records.
#
# t/data/check-{cluster,apps,profile,plan} is a valid plan written by hand
# (its comments derive the numbers).  Each rule is broken in turn; where
# breaking it changes stated numbers, t/oracle/check.py (an
# independent checker: Fractions for Eq. 3) fills in the plan's records
# and says which violations the plan has, so exactly the rule under test is
# violated.  t/gen/check.py makes random clusters, apps, profiles
# and placements, and ovb-check must find exactly the oracle's violations.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	T=$BATS_TEST_TMPDIR
	CL=$DATA/check-cluster
	AP=$DATA/check-apps
	PR=$DATA/check-profile
	PL=$DATA/check-plan
	# Debian's python3 when there is one (a pyenv shim is slow to start)
	grep -E '^(place|reject|grid|mode) ' "$PL" >"$T/skel"
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# line_no ERE FILE: the number of the first line of FILE matching ERE.
line_no() {
	grep -n -m1 -E -e "$1" "$2" | cut -d: -f1
}

# oracle_agrees CLUSTER APPS PROFILE SKELETON [WANT...]: the oracle fills
# SKELETON into $T/plan; ovb-check on it must report exactly the oracle's
# violations ("NODE RES KIND"), which must be exactly WANT (none: a valid
# plan, exit 0).  $output is ovb-check's.
oracle_agrees() {
	local cl=$1 ap=$2 pr=$3 sk=$4
	shift 4
	"$PY" "$ORACLE/check.py" --cluster "$cl" --apps "$ap" \
		--profile "$pr" --plan "$sk" --fill "$T/plan" \
		--expect "$T/expect" || fail "t/oracle/check.py failed"
	local want=""
	(($#)) && want=$(printf '%s\n' "$@" | sort)
	assert_equal "$(cat "$T/expect")" "$want"
	if (($#)); then
		run -1 --separate-stderr ovb-check "$cl" "$ap" "$pr" "$T/plan"
	else
		run -0 --separate-stderr ovb-check "$cl" "$ap" "$pr" "$T/plan"
	fi
	assert_equal "$stderr" ''
	assert_equal "$(awk '{ print $2, $3, $4 }' <<<"$output" | sed '/^ *$/d' |
		sort)" "$want"
}

# ---------------------------------------------------------------------------
# Valid plans.

@test "valid: the hand-written plan passes, silently, in any argument order" {
	run -0 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$PL"
	assert_output ''
	assert_equal "$stderr" ''
	run -0 --separate-stderr ovb-check "$PL" "$PR" "$AP" "$CL"
	assert_output ''
	run -0 --separate-stderr ovb-check --float "$PR" "$PL" "$CL" "$AP"
	assert_output ''
	run -0 --separate-stderr ovb-check -v "$CL" "$AP" "$PR" "$PL"
	assert_equal "$stderr" "ovb-check: $PL: 6 capsules on 4 nodes, 1 rejected applications: 0 violations (Eq. 3 in exact rationals)"
}

@test "valid: the oracle recomputes the hand-written plan's numbers" {
	oracle_agrees "$CL" "$AP" "$PR" "$T/skel"
	run -0 bash -c "grep -E '^(qos|cpu-resv|tbucket|risk) ' '$T/plan' | sort"
	local want=$output
	run -0 bash -c "grep -E '^(qos|tbucket|risk) ' '$PL'; grep '^cpu-resv' \
		'$PL' | sed -E 's/ 0\.09 / 0.09000000000000001 /; s/ 0\.18 / 0.18000000000000002 /'"
	assert_equal "$(sort <<<"$output")" "$want"
}

@test "valid: trust 0.5 is no obstacle; a plan of plain capsules needs no profile" {
	sed -E 's/^place kv cache a cache/place kv cache c cache/' "$T/skel" \
		>"$T/sk"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk"
	cat >"$T/plain.apps" <<-EOF
	ovb-apps 1
	app x tau=2 O=0.01
	capsule a cpu=1.5 net=0
	capsule b cpu=0.5 net=1000 lb-cpu=0.5
	app y
	capsule c cpu=2 net=0
	EOF
	cat >"$T/plain.plan" <<-EOF
	ovb-plan 1
	place x a a -
	qos x a cpu 1.5 0 2 0.01
	cpu-resv x a 2.97 2 1.485
	place x b b -
	qos x b cpu 0.5 0 2 0.01
	qos x b net 1000 0 2 0.01
	cpu-resv x b 0.99 2 0.495
	tbucket x b 1000 0
	place y c a -
	qos y c cpu 2 0 1 0
	cpu-resv y c 2 1 2
	risk a cpu 0 0 3.485 3.5
	risk b cpu 0 0.01 0.5 2
	risk b net 0 0.01 990 10000000
	EOF
	# a: tau_min 1: 1.5*0.99 + 2 = 3.485 <= 3.5, Y = 3.5 is not > 3.5;
	# b: 0.5*0.99 = 0.495 is below the lower bound 0.5
	run -0 --separate-stderr ovb-check "$CL" "$T/plain.apps" "$T/plain.plan"
	assert_output ''
	assert_equal "$stderr" ''
}

# ---------------------------------------------------------------------------
# Each rule broken in turn.

@test "Eq. 1: a larger burst, the same usage: load 3.654 cpu > 3.5 cpu" {
	sed -E 's/^rho 0.1 cpu-s/rho 0.5 cpu-s/' "$PR" >"$T/p"
	oracle_agrees "$CL" "$AP" "$T/p" "$T/skel" 'a cpu eq1'
	assert_output 'violation a cpu eq1 load=3.654 cpu > C=3.5 cpu (tau_min=0.5 s) capsules shop/web,kv/cache,etl/e1'
}

@test "lower bound: Eq. 1 fails only because of lb-cpu" {
	sed -E 's/lb-cpu=1$/lb-cpu=2.5/' "$AP" >"$T/a"
	oracle_agrees "$CL" "$T/a" "$PR" "$T/skel" 'b cpu lb'
	assert_output 'violation b cpu lb load=2.5 cpu > C=2 cpu with the lower bounds (1.26 cpu without) capsules shop/db'
}

@test "Eq. 3: heavier usage, the same (sigma, rho): Pr(Y > 3.5) = 0.2125 > 0.05" {
	# web cpu at 2.5 instead of 1.5 in 4 of 20 intervals: Y > 3.5 always
	# then (4/20), and as before when web is at 2 and cache at 1 (1/80)
	sed -E 's/^bin 3 4$/bin 5 4/' "$PR" >"$T/p"
	oracle_agrees "$CL" "$AP" "$T/p" "$T/skel" 'a cpu eq3'
	assert_output 'violation a cpu eq3 Pr(Y>C)=0.2125 > O_min=0.05 C=3.5 cpu (grid 0.5 cpu) capsules shop/web,kv/cache,etl/e1'
}

@test "Eq. 3: exact by default; Pr = 3/100 is above the double 0.03" {
	cat >"$T/b.cluster" <<-EOF
	ovb-cluster 1
	node n 1 cpu 1000 B/s
	EOF
	cat >"$T/b.profile" <<-EOF
	ovb-profile 1
	profile s cpu
	sigma 1 cpu
	rho 0 cpu-s
	tau 1 s
	O 0.03
	interval 1 s
	width 1 cpu
	intervals 100
	bin 1 97
	bin 2 3
	EOF
	printf 'ovb-apps 1\napp x\ncapsule c profile=s\n' >"$T/b.apps"
	printf 'ovb-plan 1\nplace x c n s\n' >"$T/b.skel"
	oracle_agrees "$T/b.cluster" "$T/b.apps" "$T/b.profile" "$T/b.skel" \
		'n cpu eq3'
	assert_output 'violation n cpu eq3 Pr(Y>C)=0.03 > O_min=0.03 (exactly 3/100 > O_min'"'"'s double 0.0299999999999999988897769753748) C=1 cpu (grid 1 cpu) capsules x/c'
	# in doubles 3/100 rounds to the double 0.03: Eq. 3 holds
	run -0 ovb-check --float "$T/b.cluster" "$T/b.apps" "$T/b.profile" \
		"$T/plan"
	assert_output ''
}

@test "Eq. 3: the plan's grid record coarsens the grid to C/POINTS" {
	{ echo 'grid 10'; cat "$T/skel"; } >"$T/sk10"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk10"
	# grid 2: node a's cpu grid is 1.75 cpu, its net grid 4.75 MB/s
	{ echo 'grid 2'; cat "$T/skel"; } >"$T/sk2"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk2" 'a cpu eq3' 'a net eq3'
	assert_line --partial '(grid 1.75 cpu)'
	# the hand-written plan's numbers are wrong on that grid
	{ echo 'ovb-plan 1'; echo 'grid 2'; grep -v '^ovb-plan' "$PL"; } >"$T/p2"
	run -1 ovb-check "$CL" "$AP" "$PR" "$T/p2"
	assert_line 'violation a cpu risk PR=0.0125 (recomputed 0.9) at '"$T/p2"':'"$(line_no '^risk a cpu' "$T/p2")"
}

@test "distinct nodes: two capsules of batch on c" {
	sed -E 's/^place batch w2 d -/place batch w2 c -/' "$T/skel" >"$T/sk"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk" 'c - distinct'
	assert_output 'violation c - distinct app=batch capsules batch/w1,batch/w2'
}

@test "trust 0: batch (trust shop 0) beside shop on b" {
	sed -E 's/^place batch w2 d -/place batch w2 b -/' "$T/skel" >"$T/sk"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk" 'b - trust'
	assert_output 'violation b - trust trust(shop,batch)=1 trust(batch,shop)=0 capsules shop/db,batch/w2'
}

@test "pinning: shop/db (node=b) on a" {
	sed -E 's/^place shop web a web/place shop web b web/; s/^place shop db b db/place shop db a db/' \
		"$T/skel" >"$T/sk"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk" 'a - pin'
	assert_output 'violation a - pin shop/db is pinned to b'
}

@test "nodes: a node not in the cluster; a risk record for one" {
	sed -E 's/^place etl e1 a -/place etl e1 e -/' "$T/skel" >"$T/sk"
	oracle_agrees "$CL" "$AP" "$PR" "$T/sk" 'e - node'
	assert_output "violation e - node e is not in the cluster ($CL) capsules etl/e1"
	sed -E 's/^risk d cpu (.*)/risk d cpu \1\nrisk x net 0 0 1 5/' "$PL" >"$T/p"
	run -1 ovb-check "$CL" "$AP" "$PR" "$T/p"
	assert_output "violation x net node x is not in the cluster ($CL), but has a risk record at $T/p:$(line_no '^risk x' "$T/p")"
}

@test "capacity: a risk record's CAPACITY is not the cluster's" {
	variant p "$PL" 's/^risk c cpu 0 0 1 4$/risk c cpu 0 0 1 6/'
	run -1 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation c cpu capacity CAPACITY=6 cpu (the cluster's 4 cpu) at $BAD:$(line_no '^risk c cpu' "$BAD")"
	assert_equal "$stderr" ''
}

@test "qos: a wrong O, a missing record, a record for an unused resource" {
	variant p "$PL" 's/^qos shop web cpu 1.5 0.1 1 0.1$/qos shop web cpu 1.5 0.1 1 0.05/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation a cpu qos shop/web O=0.05 (expected 0.1) at $BAD:$(line_no '^place shop web' "$BAD")"
	variant p "$PL" 's/^qos kv cache net 3000000 50000 0.5 0.05$/qos kv cache net 3000001 50000 1 0.05/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation a net qos kv/cache sigma=3000001 B/s (expected 3000000), tau=1 s (expected 0.5) at $BAD:$(line_no '^place kv' "$BAD")"
	variant p "$PL" '/^qos batch w1 net/d'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation c net qos batch/w1 missing (the capsule uses net) at $BAD:$(line_no '^place batch w1' "$BAD")"
	variant p "$PL" 's/^(qos shop db cpu .*)/\1\nqos shop db net 1 0 1 0/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation b net qos shop/db stated at $BAD:$(line_no '^place shop db' "$BAD"), but the capsule uses no net"
}

@test "cpu-resv and tbucket: section 4.1's mapping" {
	variant p "$PL" 's/^cpu-resv shop web 0.09 0.06666666666666667 1.35$/cpu-resv shop web 0.97 1 97/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation a cpu cpu-resv shop/web x=0.97 cpu-s (expected 0.09000000000000001), y=1 s (expected 0.06666666666666667), weight=97 (expected 1.35) at $BAD:$(line_no '^place shop web' "$BAD")"
	variant p "$PL" 's/^tbucket batch w1 1000000 0$/tbucket batch w1 1000000 1500/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation c net tbucket batch/w1 rho=1500 B (expected 0) at $BAD:$(line_no '^place batch w1' "$BAD")"
	variant p "$PL" '/^cpu-resv batch w2/d'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation d cpu cpu-resv batch/w2 missing (the capsule uses cpu) at $BAD:$(line_no '^place batch w2' "$BAD")"
}

@test "stated risk: PR, OMIN, LOAD; a missing record; a superfluous one" {
	variant p "$PL" 's/^risk a cpu 0.0125 0.05 2.934 3.5$/risk a cpu 0.01 0.05 2.934 3.5/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation a cpu risk PR=0.01 (recomputed 0.0125) at $BAD:$(line_no '^risk a cpu' "$BAD")"
	# within 1e-9: no violation
	variant p "$PL" 's/^risk a cpu 0.0125 0.05 2.934 3.5$/risk a cpu 0.0125000005 0.05 2.9340000001 3.5/'
	run -0 ovb-check "$CL" "$AP" "$PR" "$BAD"
	variant p "$PL" 's/^risk a net 0.05 0.05 9465000 9500000$/risk a net 0.05 0.1 9460000 9500000/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation a net risk OMIN=0.1 (recomputed 0.05), LOAD=9460000 B/s (recomputed 9465000) at $BAD:$(line_no '^risk a net' "$BAD")"
	variant p "$PL" '/^risk b cpu/d'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output 'violation b cpu risk missing: no risk record for b cpu capsules shop/db'
	variant p "$PL" 's/^(risk d cpu .*)/\1\nrisk d net 0 0 0 1000000000/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation d net risk stated at $BAD:$(line_no '^risk d net' "$BAD"), but no capsule on d uses net"
}

@test "profile: the place record names another profile than the apps file" {
	variant p "$PL" 's/^place shop web a web$/place shop web a cache/'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output "violation a - profile shop/web is placed with profile cache, the apps file gives web ($BAD:$(line_no '^place shop web' "$BAD"))"
}

@test "applications: placed in part, or neither placed nor rejected" {
	variant p "$PL" '/ batch w2 /d; /^risk d /d'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output 'violation - - incomplete app=batch capsules batch/w2 not placed'
	variant p "$PL" '/^reject big/d'
	run -1 ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output 'violation - - unplaced app=big is neither placed nor rejected'
}

@test "several violations: one line each, in a fixed order" {
	sed -E 's/^place batch w2 d -/place batch w2 a -/; s/^place shop db b db/place shop db d db/' \
		"$T/skel" >"$T/sk"
	"$PY" "$ORACLE/check.py" --cluster "$CL" --apps "$AP" \
		--profile "$PR" --plan "$T/sk" --fill "$T/plan" --expect "$T/expect"
	run -1 ovb-check "$CL" "$AP" "$PR" "$T/plan"
	local first=$output
	assert_equal "$(awk '{ print $2, $3, $4 }' <<<"$output" | sort)" \
		"$(cat "$T/expect")"
	assert_line --index 0 --partial 'violation d - pin shop/db'
	assert_line --index 1 --partial 'violation a - trust trust(shop,batch)=1 trust(batch,shop)=0'
	assert_line --index 2 'violation a cpu eq3 Pr(Y>C)=0.125 > O_min=0 C=3.5 cpu (grid 0.5 cpu) capsules shop/web,kv/cache,batch/w2,etl/e1'
	run -1 ovb-check "$T/plan" "$PR" "$AP" "$CL"
	assert_equal "$output" "$first"
	# in doubles: the same violations (Pr in doubles is 0.12500000000000003)
	run -1 ovb-check --float "$CL" "$AP" "$PR" "$T/plan"
	assert_equal "$(awk '{ print $2, $3, $4 }' <<<"$output")" \
		"$(awk '{ print $2, $3, $4 }' <<<"$first")"
	run -1 ovb-check -o "$T/out" "$CL" "$AP" "$PR" "$T/plan"
	assert_output ''
	assert_equal "$(cat "$T/out")" "$first"
}

# ---------------------------------------------------------------------------
# Random plans against the oracle.

@test "random: ovb-check finds exactly the oracle's violations (40 plans)" {
	local s tight n=0 clean=0
	for s in $(seq 1 20); do
		for tight in "" --tight; do
			"$PY" "$GEN/check.py" --seed "$s" --dir "$T/r" $tight
			"$PY" "$ORACLE/check.py" --cluster "$T/r/cluster" \
				--apps "$T/r/apps" --profile "$T/r/profile" \
				--plan "$T/r/skel" --fill "$T/r/plan" --expect "$T/r/expect"
			run --separate-stderr ovb-check "$T/r/cluster" "$T/r/apps" \
				"$T/r/profile" "$T/r/plan"
			if [[ -s $T/r/expect ]]; then
				((status == 1)) || fail "seed $s $tight: status $status"
			else
				((status == 0)) || fail "seed $s $tight: status $status"
				clean=$((clean + 1))
			fi
			assert_equal "$stderr" ''
			assert_equal "$(awk '{ print $2, $3, $4 }' <<<"$output" |
				sed '/^ *$/d' | sort)" "$(cat "$T/r/expect")"
			n=$((n + 1))
		done
	done
	((clean >= 3)) || fail "only $clean of $n random plans are valid"
}

@test "random: aggregate plans (mode aggregate): ovb-check finds exactly the oracle's violations (40 plans)" {
	local s tight n=0 clean=0 eq1only=0
	for s in $(seq 1 20); do
		for tight in "" --tight; do
			"$PY" "$GEN/check.py" --seed "$s" --dir "$T/r" $tight
			sed -i '1a mode aggregate' "$T/r/skel"
			"$PY" "$ORACLE/check.py" --cluster "$T/r/cluster" \
				--apps "$T/r/apps" --profile "$T/r/profile" \
				--plan "$T/r/skel" --fill "$T/r/plan" --expect "$T/r/expect"
			grep -qx 'mode aggregate' "$T/r/plan" || fail "no mode record"
			run --separate-stderr ovb-check "$T/r/cluster" "$T/r/apps" \
				"$T/r/profile" "$T/r/plan"
			if [[ -s $T/r/expect ]]; then
				((status == 1)) || fail "seed $s $tight: status $status"
			else
				((status == 0)) || fail "seed $s $tight: status $status"
				clean=$((clean + 1))
			fi
			assert_equal "$stderr" ''
			assert_equal "$(awk '{ print $2, $3, $4 }' <<<"$output" |
				sed '/^ *$/d' | sort)" "$(cat "$T/r/expect")"
			# the same placement in the default mode: the eq1 violations
			# are the difference (never fewer violations than aggregate)
			sed '/^mode aggregate$/d' "$T/r/skel" >"$T/r/skel1"
			"$PY" "$ORACLE/check.py" --cluster "$T/r/cluster" \
				--apps "$T/r/apps" --profile "$T/r/profile" \
				--plan "$T/r/skel1" --fill "$T/r/plan1" --expect "$T/r/expect1"
			if grep -q ' eq1$' "$T/r/expect1" && ! grep -q ' eq1$' "$T/r/expect"; then
				eq1only=$((eq1only + 1))
			fi
			n=$((n + 1))
		done
	done
	((clean >= 3)) || fail "only $clean of $n random aggregate plans are valid"
	((eq1only >= 3)) || fail "only $eq1only plans break Eq. 1 but not the aggregate mode"
}

# ---------------------------------------------------------------------------
# Several apps files: one arrival stream.

@test "apps stream: op=modify replaces, op=terminate ends, a repeated new is bad" {
	printf 'ovb-apps 1\napp etl op=modify O=0.08\ncapsule e1 cpu=0.7 net=2000000\n' \
		>"$T/mod.apps"
	run -0 ovb-check "$CL" "$AP" "$T/mod.apps" "$PR" "$PL"
	assert_output ''
	printf 'ovb-apps 1\napp etl op=modify O=0.09\ncapsule e1 cpu=0.7 net=2000000\n' \
		>"$T/mod2.apps"
	run -1 ovb-check "$CL" "$AP" "$T/mod2.apps" "$PR" "$PL"
	assert_line --partial 'violation a cpu qos etl/e1 O=0.08 (expected 0.09)'
	printf 'ovb-apps 1\napp etl op=terminate\n' >"$T/term.apps"
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$T/term.apps" "$PR" "$PL"
	assert_output ''
	stderr_has "$PL:$(line_no '^place etl' "$PL"): application etl is terminated in the apps files"
	printf 'ovb-apps 1\napp etl\ncapsule e1 cpu=1 net=0\n' >"$T/dup.apps"
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$T/dup.apps" "$PR" "$PL"
	assert_output ''
	stderr_has "$T/dup.apps:2: application etl is already defined ($AP:$(line_no '^app etl' "$AP"))"
}

# ---------------------------------------------------------------------------
# Bad input: 65, a message with FILE:LINE, nothing on stdout.

@test "bad input: unknown profile references (apps and plan)" {
	variant a "$AP" 's/^capsule web profile=web$/capsule web profile=nope/'
	run -65 --separate-stderr ovb-check "$CL" "$BAD" "$PR" "$PL"
	assert_output ''
	assert_equal "$stderr" "ovb-check: $BAD:$(line_no '^app shop' "$BAD"): application shop, capsule web: profile=nope is in none of the profile files (no cpu or net block)"
	variant p "$PL" 's/^place shop web a web$/place shop web a nope/'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output ''
	assert_equal "$stderr" "ovb-check: $BAD:$(line_no '^place shop web' "$BAD"): profile nope is in none of the profile files (no cpu or net block)"
	# profiles are needed for profiled capsules
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PL"
	assert_output ''
	stderr_has 'profile=web is in none of the profile files'
}

@test "bad input: capsules and applications of the plan not in the apps file" {
	variant p "$PL" 's/^place etl e1 a -$/place etl e9 a -/; s/^(qos|cpu-resv|tbucket) etl e1 /\1 etl e9 /'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output ''
	assert_equal "$stderr" "ovb-check: $BAD:$(line_no '^place etl' "$BAD"): application etl has no capsule e9 in $AP"
	variant p "$PL" 's/^place etl e1 a -$/place elt e1 a -/; s/^(qos|cpu-resv|tbucket) etl e1 /\1 elt e1 /'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output ''
	stderr_has 'application elt is in none of the apps files'
	variant p "$PL" 's/^reject big /reject bog /'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	stderr_has 'reject bog: the application is in none of the apps files'
}

@test "bad input: pins and trust naming unknown nodes and applications" {
	variant a "$AP" 's/node=b /node=z /'
	run -65 --separate-stderr ovb-check "$CL" "$BAD" "$PR" "$PL"
	assert_output ''
	stderr_has "$BAD:$(line_no '^app shop' "$BAD"): application shop, capsule db: node=z is not in the cluster"
	variant a "$AP" 's/^trust batch 0.5$/trust batsh 0.5/'
	run -65 --separate-stderr ovb-check "$CL" "$BAD" "$PR" "$PL"
	assert_output ''
	stderr_has "$BAD:$(line_no '^app kv' "$BAD"): application kv: trust of batsh, which is in none of the apps files"
}

@test "bad input: capacities of zero, tolerances outside [0,1) (format readers)" {
	variant c "$CL" 's/^node b 2 cpu/node b 0 cpu/'
	run -65 --separate-stderr ovb-check "$BAD" "$AP" "$PR" "$PL"
	assert_output ''
	stderr_has "$BAD:$(line_no '^node b' "$BAD"):"
	variant p "$PL" 's/^risk c cpu 0 0 1 4$/risk c cpu 0 0 1 0/'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output ''
	stderr_has "$BAD:$(line_no '^risk c cpu' "$BAD"):"
	variant a "$AP" 's/^app shop O=0.1$/app shop O=1/'
	run -65 --separate-stderr ovb-check "$CL" "$BAD" "$PR" "$PL"
	assert_output ''
	stderr_has "$BAD:$(line_no '^app shop' "$BAD"): O=1: a tolerance must be in [0,1)"
	variant f "$PR" 's/^O 0.02$/O 1.5/'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$BAD" "$PL"
	assert_output ''
	variant p "$PL" 's/^qos etl e1 cpu 0.7 0 1 0.08$/qos etl e1 cpu 0.7 0 1 1/'
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$BAD"
	assert_output ''
}

@test "bad input: duplicate names; second cluster or plan; other formats" {
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$PR" "$PL"
	assert_output ''
	l=$(line_of '^profile web cpu' "$PR")
	stderr_has "$PR:$l: profile web cpu is defined twice: also at $PR:$l (a capsule and resource may have one profile)"
	variant c "$CL" 's/^(node d .*)/\1\nnode a 1 cpu 1 B\/s/'
	run -65 --separate-stderr ovb-check "$BAD" "$AP" "$PR" "$PL"
	assert_output ''
	stderr_has 'defined twice'
	variant a "$AP" 's/^capsule w2 /capsule w1 /'
	run -65 --separate-stderr ovb-check "$CL" "$BAD" "$PR" "$PL"
	assert_output ''
	run -65 --separate-stderr ovb-check "$CL" "$CL" "$AP" "$PR" "$PL"
	assert_output ''
	stderr_has "$CL:1: a second cluster file (the first is $CL)"
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$PL" "$PL"
	stderr_has "$PL:1: a second plan (the first is $PL)"
	run -65 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$PL" \
		"$DATA/example.usage"
	assert_output ''
	stderr_has 'an ovb-usage file is not an input of ovb-check'
}

@test "usage and I/O: missing inputs 64, unreadable 66, -o only on success" {
	run -64 --separate-stderr ovb-check "$CL" "$AP" "$PR"
	assert_output ''
	stderr_has 'no ovb-plan file'
	run -64 --separate-stderr ovb-check
	run -66 --separate-stderr ovb-check "$CL" "$AP" "$PR" "$T/missing"
	assert_output ''
	variant c "$CL" 's/^node b 2 cpu/node b 0 cpu/'
	run -65 --separate-stderr ovb-check -o "$T/out" "$BAD" "$AP" "$PR" "$PL"
	[[ ! -e $T/out ]] || fail "-o created a file on bad input"
	run -0 ovb-check -o "$T/out" "$CL" "$AP" "$PR" "$PL"
	[[ -e $T/out && ! -s $T/out ]] || fail "-o: no empty report"
}

@test "a pipeline: the plan on stdin" {
	run -0 bash -c "cat '$PL' | ovb-check '$CL' '$AP' '$PR' -"
	assert_output ''
	run -1 bash -c "sed 's/^risk c cpu 0 0 1 4/risk c cpu 0 0 1 5/' '$PL' |
		ovb-check '$CL' '$AP' '$PR' -"
	assert_output 'violation c cpu capacity CAPACITY=5 cpu (the cluster'"'"'s 4 cpu) at <stdin>:'"$(line_no '^risk c cpu' "$PL")"
}

@test "--help: the violation format, a CI example, the exit statuses" {
	run -0 ovb-check --help
	assert_output --partial 'violation NODE RES KIND'
	assert_output --partial 'CI gate'
	assert_output --partial 'Exit status:'
}

@test "extreme but valid numbers: 1e308 capacities with --grid 0 answer at once; a U no grid can hold is a violation" {
	d=$BATS_TEST_TMPDIR
	sed -E 's/^(node [^ ]+) [0-9.e+]+ cpu [0-9.e+]+ B\/s/\1 1e308 cpu 1e308 B\/s/' \
		"$DATA/example.cluster" >"$d/c"
	grep -q '^node n1 1e308 cpu 1e308 B/s' "$d/c" || fail "sed changed nothing"
	printf 'ovb-apps 1\napp shop\ncapsule web profile=web\napp p\ncapsule x cpu=1e300\n' >"$d/a"
	run -0 timeout 20 ovb-place --grid 0 -o "$d/plan" "$d/c" "$d/a" "$DATA/example.profile"
	run -0 timeout 20 ovb-check "$d/c" "$d/a" "$d/plan" "$DATA/example.profile"
	assert_output ''
	# the plain 1e300 cpu beside web's 0.25-cpu bins needs 4e300 grid points
	grep -q '^place p x n2 -$' "$d/plan" || fail "p/x should avoid n1: $(cat "$d/plan")"
	sed -i 's/^place p x n2 -$/place p x n1 -/; s/^risk n2 cpu .*$//' "$d/plan"
	run -1 --separate-stderr timeout 20 ovb-check "$d/c" "$d/a" "$d/plan" "$DATA/example.profile"
	assert_line --partial "violation n1 cpu eq3 Y cannot be held on the grid 0.25 cpu: a capsule's U would need more than 10000000 grid points"
}
