#!/usr/bin/env bats
# Memory as a resource, placement: the cluster's mem and mem-pool
# (formats/cluster.md), ovb-place's three node rules for mem (the sum of
# the requests <= C, Pr(Y > C) <= O_min with Y the sum of the window
# peaks, the sum of the limits <= C + pool), the plan's qos mem and risk
# mem records with the OOM exposure E[(Y-C)+] (formats/plan.md), and
# ovb-check's verdicts on them.
#
# t/oracle/mem.py node recomputes every node's rules, Pr(Y > C) and the
# exposure exactly (Fractions) from the cluster, the plan and the
# profiles, and checks that no rejected application fits anywhere; the
# exact boundaries are tried by hand (sums equal to C and C + pool).

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

GiB=1073741824

# Two capsules whose window peaks are always 2 GiB: requests 2 GiB,
# limits 2.5 GiB.
two_profiles() {
	local c
	echo 'ovb-profile 1'
	for c in a b; do
		cat <<-EOF
		profile $c mem
		request 2147483648 B
		limit 2684354560 B
		O 0.01
		interval 3600 s
		width 1073741824 B
		intervals 4
		bin 2 4
		EOF
	done
}

two_apps() {
	printf 'ovb-apps 1\napp a\ncapsule c profile=a\napp b\ncapsule c profile=b\n'
}

one_node() {   # MEM [POOL]
	printf 'ovb-cluster 1\nnode n1 64 cpu 1000000000 B/s mem %s B%s\n' "$1" \
		"${2:+ mem-pool $2 B}"
}

three_nodes() {   # POOL: n2's pool [B]
	echo 'ovb-cluster 1'
	echo "node n1 64 cpu 1000000000 B/s mem $((4 * GiB)) B"
	echo "node n2 64 cpu 1000000000 B/s mem $((6 * GiB)) B mem-pool $1 B"
	echo "node n3 64 cpu 1000000000 B/s mem $((3 * GiB)) B mem-pool $GiB B"
}

@test "boundaries: requests = C and limits = C + pool fit; a byte less does not" {
	two_profiles >"$T/p"
	two_apps >"$T/a"
	# 4 GiB, pool 1 GiB: requests 4 GiB = C, limits 5 GiB = C + pool
	one_node $((4 * GiB)) $GiB >"$T/c"
	run -0 --separate-stderr ovb-place --strict "$T/c" "$T/a" "$T/p"
	assert_line 'qos a c mem 2147483648 2684354560 3600 0.01'
	assert_line "risk n1 mem 0 0.01 4294967296 4294967296 0"
	refute_line --regexp '^reject'
	echo "$output" >"$T/plan"
	run -0 ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$T/plan" "$T/p"
	assert_line agree
	# a pool one byte smaller: the limits do not fit
	one_node $((4 * GiB)) $((GiB - 1)) >"$T/c2"
	run -1 --separate-stderr ovb-place --strict "$T/c2" "$T/a" "$T/p"
	assert_line --partial 'reject b capsule c: no feasible node of 1 (mem limits on 1)'
	assert_line --partial 'mem limits 5368709120 B > 4294967296 B + pool 1073741823 B'
	echo "$output" >"$T/plan2"
	run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c2" "$T/plan2" "$T/p"
	# ... which ovb-check finds in the first plan on that cluster
	run -1 --separate-stderr ovb-check "$T/c2" "$T/a" "$T/plan" "$T/p"
	assert_line "violation n1 mem limit limits=5368709120 B > C=4294967296 B + pool=1073741823 B capsules a/c,b/c"
	# one byte less memory: the requests, and Y, do not fit either
	one_node $((4 * GiB - 1)) $((GiB + 1)) >"$T/c3"
	run -1 --separate-stderr ovb-check "$T/c3" "$T/a" "$T/plan" "$T/p"
	assert_line "violation n1 mem request requests=4294967296 B > C=4294967295 B capsules a/c,b/c"
	assert_line --partial "violation n1 mem eq3 Pr(Y>C)=1 > O_min=0.01"
	assert_line --partial "OOM exposure E[(Y-C)+]=1 B capsules a/c,b/c"
	assert_line --partial "violation n1 mem capacity"
	run -1 python3 "$ORACLE/mem.py" node "$T/c3" "$T/plan" "$T/p"
	assert_line --partial 'n1 breaks'
}

@test "random pools: ovb-place's plans keep the memory rules, state PR and the exposure, reject only what fits nowhere (oracle, 8 seeds)" {
	local seed n Os=(0.5 0.1 0.05 0.01) margins=(0 0.15)
	for seed in $(seq 1 8); do
		python3 "$GEN/mem.py" series "$seed" 8 >"$T/s"
		ovb-usage -q -r mem "$T/s" >"$T/u"
		ovb-profile -q -O "${Os[seed % 4]}" --mem-margin "${margins[seed % 2]}" "$T/u" >"$T/p"
		{
			echo 'ovb-apps 1'
			for n in 0 1 2 3 4 5 6 7; do
				printf 'app a%d\ncapsule c profile=vm%d\n' "$n" "$n"
			done
		} >"$T/a"
		three_nodes $((seed * GiB / 2)) >"$T/c"
		run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/p"
		echo "$output" >"$T/plan"
		run -0 ovb-fmt "$T/plan"
		run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
		run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$T/plan" "$T/p"
		assert_line agree
		# the grid record: C/POINTS, every node and the exposure again
		run -0 --separate-stderr ovb-place --grid 50 "$T/c" "$T/a" "$T/p"
		echo "$output" >"$T/plan"
		run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
		run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$T/plan" "$T/p"
	done
}

@test "a stated risk mem off by a little: ovb-check says which field (EXPOSURE, LOAD)" {
	two_profiles >"$T/p"
	two_apps >"$T/a"
	one_node $((3 * GiB)) $((3 * GiB)) >"$T/c"
	# Y = 4 GiB always: over C with certainty, so ovb-place places one
	run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/p"
	assert_line "risk n1 mem 0 0.01 2147483648 3221225472 0"
	# a hand-made plan with both, the exposure stated wrong
	cat >"$T/plan" <<-'EOF'
	ovb-plan 1
	place a c n1 a
	qos a c mem 2147483648 2684354560 3600 0.01
	place b c n2 b
	qos b c mem 2147483648 2684354560 3600 0.01
	risk n1 mem 1 0.01 4294967296 3221225472 5
	EOF
	sed -i 's/^place b c n2 b$/place b c n1 b/' "$T/plan"
	run -1 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	assert_line --partial "violation n1 mem risk EXPOSURE=5 B (recomputed 1073741824)"
	assert_line --partial "violation n1 mem eq3 Pr(Y>C)=1 > O_min=0.01"
	assert_line --partial "OOM exposure E[(Y-C)+]=1073741824 B"
	run -1 python3 "$ORACLE/mem.py" node "$T/c" "$T/plan" "$T/p"
	assert_line --partial 'n1 breaks requests 4294967296.0 limits 5368709120.0 pr 1.0 exposure 1073741824.0'
}

@test "a cluster without mem places no memory: profiles' mem blocks are left out, plans unchanged" {
	python3 "$GEN/mem.py" series 2 3 >"$T/s"
	ovb-usage -q -r all "$T/s" >"$T/u"
	ovb-tbucket -q -r cpu "$T/s" >"$T/cv"
	ovb-profile -q -O 0.05 -t 300 "$T/u" "$T/cv" >"$T/p"
	printf 'ovb-apps 1\napp a\ncapsule c profile=vm0\napp b\ncapsule c profile=vm1\n' >"$T/a"
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s\nnode n2 4 cpu 1000 B/s\n' >"$T/c"
	run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/p"
	refute_output --partial ' mem'
	echo "$output" >"$T/plan"
	run -0 ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	# the same capsules with memory: cpu as before, mem beside it
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem 64000000000 B\nnode n2 4 cpu 1000 B/s mem 64000000000 B\n' >"$T/cm"
	run -0 --separate-stderr ovb-place "$T/cm" "$T/a" "$T/p"
	assert_equal "$(grep -v ' mem' <<<"$output")" "$(cat "$T/plan")"
	assert_equal "$(grep -c '^risk n[12] mem ' <<<"$output")" 2
}

@test "cluster and plan formats: mem records, errors at their lines (65)" {
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem 8e9 B mem-pool 1e9 B rack=r1\nnode n2 4 cpu 1000 B/s mem 8e9 B\n' >"$T/c"
	run -0 --separate-stderr ovb-fmt --canonical "$T/c"
	assert_line '# node NAME CPU cpu NET B/s mem M B [mem-pool P B] [KEY=VALUE...]'
	assert_line 'node n1 4 cpu 1000 B/s mem 8000000000 B mem-pool 1000000000 B rack=r1'
	assert_line 'node n2 4 cpu 1000 B/s mem 8000000000 B'
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem 8e9 B\nnode n2 4 cpu 1000 B/s\n' >"$T/b1"
	run -65 --separate-stderr ovb-fmt "$T/b1"
	assert_equal "$stderr" "ovb-fmt: $T/b1:3: node 'n2' gives no mem capacity but node 'n1' (line 2) does: give it on every node or on none"
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem-pool 1 B\n' >"$T/b2"
	run -65 --separate-stderr ovb-fmt "$T/b2"
	assert_equal "$stderr" "ovb-fmt: $T/b2:2: node: mem-pool without a mem capacity before it (mem M B mem-pool P B)"
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem 8 GiB\n' >"$T/b3"
	run -65 --separate-stderr ovb-fmt "$T/b3"
	stderr_has "$T/b3:2: "
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem 0 B\n' >"$T/b4"
	run -65 --separate-stderr ovb-fmt "$T/b4"
	stderr_has "$T/b4:2: "
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s mem 1 B mem-pool -1 B\n' >"$T/b5"
	run -65 --separate-stderr ovb-fmt "$T/b5"
	stderr_has "$T/b5:2: "
	# plans
	printf 'ovb-plan 1\nplace a c n1 a\nqos a c mem 2 1 3600 0.01\n' >"$T/p1"
	run -65 --separate-stderr ovb-fmt "$T/p1"
	assert_equal "$stderr" "ovb-fmt: $T/p1:3: qos mem: limit 1 B is below the request 2 B"
	printf 'ovb-plan 1\nrisk n1 mem 0 0.01 1 2\n' >"$T/p2"
	run -65 --separate-stderr ovb-fmt "$T/p2"
	assert_equal "$stderr" "ovb-fmt: $T/p2:2: risk mem: give the OOM exposure E[(Y-C)+] in B after CAPACITY"
	printf 'ovb-plan 1\nrisk n1 cpu 0 0.01 1 2 0\n' >"$T/p3"
	run -65 --separate-stderr ovb-fmt "$T/p3"
	assert_equal "$stderr" "ovb-fmt: $T/p3:2: risk cpu: only mem has an EXPOSURE field"
	printf 'ovb-plan 1\nrisk n1 mem 0 0.01 1 2 0.5\n' >"$T/p4"
	run -0 --separate-stderr ovb-fmt --canonical "$T/p4"
	assert_line 'risk n1 mem 0 0.01 1 2 0.5'
}

@test "ovb-report shows mem beside cpu: requests, Pr(Y>C) and the OOM exposure (oracle)" {
	python3 "$GEN/mem.py" series 1 8 >"$T/s"
	ovb-usage -q -r mem "$T/s" >"$T/u"
	ovb-profile -q -O 0.5 "$T/u" >"$T/p"
	{
		echo 'ovb-apps 1'
		for n in 0 1 2 3 4 5 6 7; do
			printf 'app a%d\ncapsule c profile=vm%d\n' "$n" "$n"
		done
	} >"$T/a"
	{
		echo 'ovb-cluster 1'
		echo "node n1 64 cpu 1000000000 B/s mem $((4 * GiB)) B"
		echo "node n2 64 cpu 1000000000 B/s mem $((6 * GiB)) B mem-pool $((GiB / 2)) B"
		echo "node n3 64 cpu 1000000000 B/s mem $((3 * GiB)) B mem-pool $GiB B"
	} >"$T/c"
	ovb-place "$T/c" "$T/a" "$T/p" >"$T/plan"
	run -0 --separate-stderr ovb-report -f tsv -t nodes "$T/c" "$T/plan" "$T/p"
	echo "$output" | awk -F'\t' '$2 == "mem" { print $1, $3, $4, $9, $NF }' >"$T/got"
	run -0 python3 "$ORACLE/mem.py" node "$T/c" "$T/plan" "$T/p"
	# the oracle's requests, Pr and exposure, node by node
	echo "$output" | awk '$2 == "holds" { print $1, $4, $8, $10 }' >"$T/want"
	[[ $(nlines "$T/want") -ge 2 ]]
	run -0 python3 - "$T/got" "$T/want" <<-'PY'
	import sys
	got = {l.split()[0]: l.split() for l in open(sys.argv[1])}
	for l in open(sys.argv[2]):
	    n, req, pr, ex = l.split()
	    g = got[n]
	    assert abs(float(g[2]) - float(req)) <= 1e-9 * float(req), (g, l)
	    assert abs(float(g[3]) - float(pr)) <= 1e-12, (g, l)
	    assert abs(float(g[4]) - float(ex)) <= 1e-9 * max(1, float(ex)), (g, l)
	PY
	run -0 ovb-report -t nodes "$T/c" "$T/plan" "$T/p"
	assert_output --partial 'OOM exposure'
	# the page and the cluster plot with a memory panel (no net-rx)
	run -0 --separate-stderr ovb-report -f html "$T/c" "$T/plan" "$T/p" "$T/s" -o "$T/r.html"
	run -0 grep -c 'memory (requests)' "$T/r.html"
}

@test "ovb-replay: mem promises per node, and every sample above a capsule's limit (an OOM kill) counted (exit 1)" {
	two_profiles >"$T/p"
	two_apps >"$T/a"
	one_node $((4 * GiB)) $GiB >"$T/c"
	ovb-place "$T/c" "$T/a" "$T/p" >"$T/plan"
	# a at 2 GiB, then 3 GiB once (above its 2.5 GiB limit); b at 1 GiB
	{
		echo 'ovb-series 1'
		echo 'series a mem'
		echo 'interval 300 s'
		for t in 0 300 600 900; do echo "sample $((1372629600 + t)) $((2 * GiB))"; done
		echo "sample 1372630800 $((3 * GiB))"
		echo 'series b mem'
		echo 'interval 300 s'
		for t in 0 300 600 900 1200; do echo "sample $((1372629600 + t)) $GiB"; done
	} >"$T/s"
	run -1 --separate-stderr ovb-replay "$T/plan" "$T/c" "$T/s"
	assert_line --regexp '^n1 +mem +2 +5 +0 +0 +0 +0\.01 +yes$'
	assert_line 'oom a/c n1: 1 of 5 samples above its limit 2684354560 B (largest 3221225472 B)'
	assert_line 'mem limits kept: 1 of 2 capsules (the others OOM-killed)'
	run -0 ovb-replay --no-fail "$T/plan" "$T/c" "$T/s"
	# the same count, independently
	run -0 python3 -c "
import sys; sys.path.insert(0, '$ORACLE'); import formats
s = formats.read_series('$T/s')[('a', 'mem')]['s']
print(sum(v > 2684354560 for t, v in s))"
	assert_output 1
}

@test "bitbrains: July's memory plan replayed on August: node promises held, every OOM kill a peak July never saw" {
	local BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd" c i
	[[ -d $BB/2013-7 && -d $BB/2013-8 ]] || skip "the Bitbrains traces are not at $BB"
	ovb-import -q --bitbrains -r mem "$BB"/2013-7/*.csv.gz -o "$T/m7"
	ovb-import -q --bitbrains -r mem "$BB"/2013-8/*.csv.gz -o "$T/m8"
	ovb-usage -q -r mem "$T/m7" >"$T/u"
	ovb-profile -q -O 0.01 "$T/u" >"$T/p"
	{
		echo 'ovb-apps 1'
		for c in $(awk '/^profile/ { print $2 }' "$T/p"); do
			printf 'app %s\ncapsule c profile=%s\n' "$c" "$c"
		done
	} >"$T/a"
	{
		echo 'ovb-cluster 1'
		for i in 1 2 3 4 5 6 7 8; do
			echo "node n$i 64 cpu 1000000000 B/s mem $((16 * GiB)) B mem-pool $((4 * GiB)) B"
		done
	} >"$T/c"
	ovb-place "$T/c" "$T/a" "$T/p" >"$T/plan"
	run -0 ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$T/plan" "$T/p"
	run -1 --separate-stderr ovb-replay "$T/plan" "$T/c" "$T/m8"
	assert_line 'promises kept: 8 of 8'
	grep '^oom ' <<<"$output" >"$T/oom" || true
	# each OOM kill: a level above the largest July sample x 1.15
	run -0 python3 -c "
import sys; sys.path.insert(0, '$ORACLE'); import formats
jul = formats.read_series('$T/m7')
n = 0
for line in open('$T/oom'):
    name = line.split()[1].split('/')[0]
    top = float(line.split('largest ')[1].split()[0])
    assert top > max(v for t, v in jul[(name, 'mem')]['s']) * 1.15, line
    n += 1
print(n)"
	[[ $output -ge 1 ]]
}

@test "ovb-fit with memory: copies placed by the policy or exhaustively keep the memory rules (ovb-check, oracle)" {
	python3 "$GEN/mem.py" series 1 8 >"$T/s"
	ovb-usage -q -r mem "$T/s" >"$T/u"
	ovb-profile -q -O 0.5 "$T/u" >"$T/p"
	printf 'ovb-apps 1\napp a0\ncapsule c profile=vm0\n' >"$T/a"
	{
		echo 'ovb-cluster 1'
		echo "node n1 64 cpu 1000000000 B/s mem $((4 * GiB)) B"
		echo "node n2 64 cpu 1000000000 B/s mem $((6 * GiB)) B mem-pool $((GiB / 2)) B"
		echo "node n3 64 cpu 1000000000 B/s mem $((3 * GiB)) B mem-pool $GiB B"
	} >"$T/c"
	ovb-place "$T/c" "$T/a" "$T/p" >"$T/plan"
	local m
	for m in "" --exhaustive; do
		run -0 --separate-stderr ovb-fit $m --more a0 --plan-out "$T/fp" --apps-out "$T/fa" "$T/c" "$T/a" "$T/p" "$T/plan"
		assert_line 'point 0.5 2 copies exact'
		run -0 ovb-check "$T/c" "$T/a" "$T/fa" "$T/fp" "$T/p"
		run -0 python3 "$ORACLE/mem.py" node "$T/c" "$T/fp" "$T/p"
		assert_line agree
	done
}

@test "formats/plan.md's memory example is what ovb-place writes for profile.md's db" {
	local md=$BATS_TEST_DIRNAME/../formats
	awk '/^    ovb-profile 1$/ { n++ } n == 2 && /^    / { sub(/^    /, ""); print; next } n == 2 { exit }' "$md/profile.md" >"$T/p"
	awk '/^    ovb-plan 1$/ { n++ } n == 2 && /^    / { sub(/^    /, ""); print; next } n == 2 { exit }' "$md/plan.md" >"$T/want"
	[[ $(nlines "$T/want") -ge 4 ]]
	printf 'ovb-cluster 1\nnode n1 4 cpu 125000000 B/s mem 2147483648 B mem-pool 2147483648 B\n' >"$T/c"
	printf 'ovb-apps 1\napp db\ncapsule c profile=db\n' >"$T/a"
	ovb-place "$T/c" "$T/a" "$T/p" | grep -v '^#' >"$T/got"
	diff "$T/want" "$T/got"
	run -0 python3 "$ORACLE/mem.py" node "$T/c" "$T/got" "$T/p"
	assert_line 'n1 holds requests 1610612736.0 limits 3704409293.0 pr 0.2 exposure 214748364.8'
}

# Plain memory reservations (formats/apps.md): mem= the request, mem-limit=
# the limit (default the request); the same three rules as a mem block's,
# with U a point mass at the request.

# plain_apps REQ [LIMIT]: applications a and b, one capsule each, 1 cpu
# and the plain memory given
plain_apps() {
	local k="mem=$1${2:+ mem-limit=$2}"
	printf 'ovb-apps 1\napp a\ncapsule c cpu=1 %s\napp b\ncapsule c cpu=1 %s\n' "$k" "$k"
}

@test "plain mem= and mem-limit=: requests = C and limits = C + pool fit, a byte more does not; ovb-check, ovb-report and the oracle agree" {
	plain_apps $((2 * GiB)) $((5 * GiB / 2)) >"$T/a"
	one_node $((4 * GiB)) $GiB >"$T/c"
	run -0 --separate-stderr ovb-place --strict "$T/c" "$T/a"
	assert_line 'place a c n1 -'
	assert_line 'qos a c mem 2147483648 2684354560 1 0'
	assert_line 'risk n1 mem 0 0 4294967296 4294967296 0'
	echo "$output" >"$T/plan"
	run -0 ovb-check "$T/c" "$T/a" "$T/plan"
	run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$T/plan"
	assert_line agree
	run -0 --separate-stderr ovb-report -f tsv -t nodes "$T/c" "$T/plan" "$T/a"
	assert_line --regexp $'^n1\tmem\t2\t4294967296\t'
	# the limits one byte above C + pool
	one_node $((4 * GiB)) $((GiB - 1)) >"$T/c2"
	run -1 --separate-stderr ovb-place --strict "$T/c2" "$T/a"
	assert_line --partial 'reject b capsule c: no feasible node of 1 (mem limits on 1)'
	echo "$output" >"$T/plan2"
	run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c2" "$T/plan2"
	run -1 --separate-stderr ovb-check "$T/c2" "$T/a" "$T/plan"
	assert_line "violation n1 mem limit limits=5368709120 B > C=4294967296 B + pool=1073741823 B capsules a/c,b/c"
	run -1 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c2" "$T/plan"
	assert_line --partial 'n1: breaks the memory rules'
	# the requests one byte above C (the limits the requests)
	plain_apps $((2 * GiB)) >"$T/a3"
	one_node $((4 * GiB - 1)) $((GiB + 1)) >"$T/c3"
	run -1 --separate-stderr ovb-place --strict "$T/c3" "$T/a3"
	assert_line 'reject b admission: mem reservations would reach 4294967296 B, above the cluster'"'"'s 4294967295 B'
	run -1 --separate-stderr ovb-check "$T/c3" "$T/a3" "$T/plan"
	assert_line "violation n1 mem request requests=4294967296 B > C=4294967295 B capsules a/c,b/c"
	# no memory in the cluster: mem= is not placed, cpu is
	printf 'ovb-cluster 1\nnode n1 64 cpu 1000000000 B/s\n' >"$T/c4"
	run -0 --separate-stderr ovb-place --strict "$T/c4" "$T/a"
	refute_output --partial ' mem'
}

@test "plain memory beside profiled capsules, random sizes: ovb-place's plans keep the rules, reject only what fits nowhere (ovb-check, oracle, 8 seeds)" {
	local seed
	for seed in $(seq 1 8); do
		python3 "$GEN/mem.py" series "$seed" 4 >"$T/s"
		ovb-usage -q -r mem "$T/s" >"$T/u"
		ovb-profile -q -O 0.05 "$T/u" >"$T/p"
		python3 - "$seed" >"$T/a" <<-'PY'
		import random, sys
		r = random.Random(int(sys.argv[1]))
		G = 1 << 30
		print('ovb-apps 1')
		for n in range(4):
		    print('app p%d\ncapsule c profile=vm%d' % (n, n))
		for n in range(8):
		    req = r.choice([0, r.randrange(1, 3 * G), G, G // 2])
		    lim = r.choice([req, req + r.randrange(0, G), 0])
		    lim = max(lim, 1) if req == 0 else lim
		    print('app x%d\ncapsule c cpu=0.001 mem=%d mem-limit=%d' % (n, req, max(lim, req)))
		PY
		three_nodes $((seed * GiB / 2)) >"$T/c"
		run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/p"
		echo "$output" >"$T/plan"
		run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
		run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$T/plan" "$T/p"
		assert_line agree
	done
}

@test "plain memory, bad values: 65 at FILE:LINE in ovb-fmt, ovb-place, ovb-check and ovb-fit; the canonical form" {
	one_node $((4 * GiB)) $GiB >"$T/c"
	local bad
	for bad in 'mem=-1' 'mem=1e400' 'mem=x' 'mem=5 mem-limit=4' \
	    'profile=a mem=5' 'profile=a mem-limit=5' 'mem=0' 'mem=1 mem=2' \
	    'lb-mem=1 cpu=1'; do
		printf 'ovb-apps 1\napp a\n\ncapsule c %s\n' "$bad" >"$T/a"
		run -65 --separate-stderr ovb-fmt "$T/a"
		assert_equal "${stderr:0:${#T}+15}" "ovb-fmt: $T/a:4: "
		run -65 --separate-stderr ovb-place "$T/c" "$T/a"
		assert_output ''
		[[ $stderr == "ovb-place: $T/a:4: "* ]] || fail "$bad: $stderr"
		run -65 --separate-stderr ovb-check "$T/c" "$T/a" "$DATA/mem.plan"
		[[ $stderr == "ovb-check: $T/a:4: "* ]] || fail "$bad: $stderr"
		run -65 --separate-stderr ovb-fit --more a "$T/c" "$T/a"
		[[ $stderr == "ovb-fit: $T/a:4: "* ]] || fail "$bad: $stderr"
	done
	printf 'ovb-apps 1\napp a\ncapsule c cpu=1 mem=5 mem-limit=5\ncapsule d mem-limit=7\ncapsule e mem=2 mem-limit=3 net=1\n' >"$T/a"
	run -0 ovb-fmt --canonical "$T/a"
	assert_line 'capsule c cpu=1 net=0 mem=5'
	assert_line 'capsule d cpu=0 net=0 mem=0 mem-limit=7'
	assert_line 'capsule e cpu=0 net=1 mem=2 mem-limit=3'
	echo "$output" >"$T/a2"
	run -0 ovb-fmt --canonical "$T/a2"
	assert_equal "$output" "$(cat "$T/a2")"
}

@test "ovb-fit with plain memory: the copies stop at the limits (C + pool), by the policy and exhaustively" {
	one_node $((4 * GiB)) $GiB >"$T/c"
	# requests 1 GiB (4 fit), limits 1.5 GiB (3 fit in 5 GiB)
	printf 'ovb-apps 1\napp a0\ncapsule c cpu=1 mem=%s mem-limit=%s\n' $GiB \
		$((3 * GiB / 2)) >"$T/a"
	ovb-place "$T/c" "$T/a" >"$T/plan"
	local m
	for m in "" --exhaustive; do
		run -0 --separate-stderr ovb-fit $m --more a0 --plan-out "$T/fp" --apps-out "$T/fa" "$T/c" "$T/a" "$T/plan"
		assert_line 'point 0 2 copies exact'
		run -0 ovb-check "$T/c" "$T/a" "$T/fa" "$T/fp"
		run -0 python3 "$ORACLE/mem.py" node --apps "$T/a" --apps "$T/fa" "$T/c" "$T/fp"
		assert_line 'n1 holds requests 3221225472.0 limits 4831838208.0 pr 0.0 exposure 0.0'
	done
	# the limits as the requests: 4 fit
	printf 'ovb-apps 1\napp a0\ncapsule c cpu=1 mem=%s\n' $GiB >"$T/a"
	run -0 --separate-stderr ovb-fit --more a0 "$T/c" "$T/a"
	assert_line 'point 0 4 copies exact'
}
