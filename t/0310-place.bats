#!/usr/bin/env bats
# ovb-place: feasibility by Eq. 1 and Eq. 3, placements by assignment,
# checked against exhaustive search on hundreds of random instances.

bats_require_minimum_version 1.5.0
load test_helper

ORACLE="$BATS_TEST_DIRNAME/oracle"
GEN="$BATS_TEST_DIRNAME/gen"

@test "place: --help and usage errors" {
	run -0 ovb-place --help
	assert_output --partial 'EXAMPLES:'
	assert_output --partial 'Exit status:'
	run -64 --separate-stderr ovb-place --policy bogus x
	run -64 --separate-stderr ovb-place --trust-weight 2 x
	run -64 --separate-stderr ovb-place --grid 12abc x
	run -64 --separate-stderr ovb-place "$DATA/example.cluster"
	[[ $stderr == *"need a cluster and an apps file"* ]]
}

@test "place: agrees with exhaustive search on 300 random instances (worst-fit)" {
	run -0 python3 "$ORACLE/place.py" --seeds 1 300
	echo "# $output" >&3
}

@test "place: spread=rack: agrees with exhaustive search (labelled nodes, distinct values)" {
	run -0 python3 "$ORACLE/place.py" --seeds 1 300 --spread
	run -0 python3 "$ORACLE/place.py" --seeds 301 400 --spread --policy best-fit
}

@test "place: spread=KEY puts an application's capsules on distinct values of the label, or says why not" {
	d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode a1 4 cpu 1e9 B/s rack=a\nnode a2 4 cpu 1e9 B/s rack=a\nnode b1 4 cpu 1e9 B/s rack=b\nnode x 4 cpu 1e9 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp s spread=rack\ncapsule one cpu=1\ncapsule two cpu=1\n' >"$d/a"
	run -0 ovb-place -o "$d/plan" "$d/c" "$d/a"
	run -0 ovb-check "$d/c" "$d/a" "$d/plan"
	one=$(awk '$1 == "place" && $3 == "one" { print $4 }' "$d/plan")
	two=$(awk '$1 == "place" && $3 == "two" { print $4 }' "$d/plan")
	[[ ${one:0:1} != "${two:0:1}" && $one != x && $two != x ]] || fail "one on $one, two on $two"
	printf 'ovb-apps 1\napp s spread=rack\ncapsule one cpu=1\ncapsule two cpu=1\ncapsule three cpu=1\n' >"$d/a3"
	run -0 ovb-place "$d/c" "$d/a3"
	assert_line 'reject s its 3 capsules need distinct values of the label rack but have 2 feasible values in all'
	# without spread, distinct nodes are enough
	sed 's/ spread=rack//' "$d/a3" >"$d/a4"
	run -0 ovb-place "$d/c" "$d/a4"
	refute_line --regexp '^reject '
	# ovb-check: two capsules on one rack, one on an unlabelled node
	sed -E 's/^place s two [^ ]+ -$/place s two a2 -/; s/^place s one [^ ]+ -$/place s one a1 -/' "$d/plan" >"$d/bad"
	run -1 ovb-check "$d/c" "$d/a" "$d/bad"
	assert_line 'violation a2 - spread app=s rack=a on several nodes: capsules s/one,s/two'
	sed -E 's/^place s two [^ ]+ -$/place s two x -/' "$d/plan" >"$d/bad2"
	run -1 ovb-check "$d/c" "$d/a" "$d/bad2"
	assert_line --partial 'violation x - spread app=s spreads by rack, but node x has no rack label'
}

@test "place: agrees with exhaustive search under every policy and trust weighting" {
	local p
	for p in best-fit tolerance random; do
		run -0 python3 "$ORACLE/place.py" --seeds 301 400 --policy "$p"
	done
	run -0 python3 "$ORACLE/place.py" --seeds 401 500 --trust-weight 0.5
	run -0 python3 "$ORACLE/place.py" --seeds 501 550 --policy random --seed 7
}

@test "place: first-fit-decreasing: largest applications first, each on the first nodes that take it (exhaustive search)" {
	run -0 python3 "$ORACLE/place.py" --seeds 1 150 --ffd
	run -0 python3 "$ORACLE/place.py" --seeds 151 200 --ffd --spread
	# by hand: b (cpu 2) goes first, onto n1; a (cpu 1) then n1 too
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 4 cpu 1000 B/s\nnode n2 8 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1\napp b\ncapsule y cpu=2\napp c\ncapsule z cpu=2\n' >"$d/a"
	run -0 ovb-place -p first-fit-decreasing "$d/c" "$d/a"
	assert_equal "$(grep '^place ' <<<"$output")" "place b y n1 -
place c z n1 -
place a x n2 -"
}

@test "place: Lemma 1's greedy fails here; the assignment places all four" {
	run -0 --separate-stderr ovb-place "$DATA/lemma1.cluster" "$DATA/lemma1.apps"
	assert_line 'place shop c1 n1 -'
	refute_line --regexp '^reject '
	[[ $(grep -c '^place ' <<<"$output") -eq 4 ]]
}

@test "place: worst-fit and best-fit choose the emptiest and the fullest node" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode big 8 cpu 1000 B/s\nnode small 2 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1\n' >"$d/a"
	run -0 ovb-place "$d/c" "$d/a"
	assert_line 'place a x big -'
	run -0 ovb-place -p best-fit "$d/c" "$d/a"
	assert_line 'place a x small -'
}

@test "place: same inputs and seed give the same bytes; seeds change random" {
	local d=$BATS_TEST_TMPDIR i
	python3 "$GEN/place.py" 42 "$d"
	for i in 1 2; do
		ovb-place -p random --seed 5 "$d/cluster" "$d/apps" "$d/profile" >"$d/p$i"
	done
	cmp "$d/p1" "$d/p2"
	local differ=0
	for i in $(seq 10 40); do
		ovb-place -p random --seed "$i" "$d/cluster" "$d/apps" "$d/profile" >"$d/q"
		cmp -s "$d/q" "$d/p1" || differ=1
	done
	[[ $differ == 1 ]]
}

@test "place: adding to an existing plan equals placing everything at once" {
	local d=$BATS_TEST_TMPDIR
	python3 "$GEN/place.py" 77 "$d"
	ovb-place "$d/cluster" "$d/apps" "$d/profile" >"$d/all"
	# the first three applications, then the rest onto that plan
	awk '/^app /{n++} n <= 3' "$d/apps" >"$d/first"
	{ echo 'ovb-apps 1'; awk '/^app /{n++} n > 3' "$d/apps"; } >"$d/rest"
	ovb-place "$d/cluster" "$d/first" "$d/profile" >"$d/p1"
	ovb-place "$d/cluster" "$d/rest" "$d/profile" "$d/p1" >"$d/p2"
	diff <(grep -v '^#' "$d/all" | sort) <(grep -v '^#' "$d/p2" | sort)
}

@test "place: op=terminate takes an application out, op=modify re-places it" {
	local d=$BATS_TEST_TMPDIR
	ovb-place "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile" >"$d/p1"
	grep -q '^place shop web ' "$d/p1"
	printf 'ovb-apps 1\napp shop op=terminate\n' >"$d/t"
	run -0 ovb-place "$DATA/example.cluster" "$d/t" "$DATA/example.profile" "$d/p1"
	refute_output --partial ' shop '
	assert_line --regexp '^place batch w1 '
	printf 'ovb-apps 1\napp shop op=modify\ncapsule web cpu=0.5\n' >"$d/m"
	run -0 ovb-place "$DATA/example.cluster" "$d/m" "$DATA/example.profile" "$d/p1"
	assert_line --regexp '^place shop web n[0-9] -$'
	refute_line --regexp '^place shop db '
}

@test "place: an application that fits nowhere is rejected whole, with the reason" {
	run -0 --separate-stderr ovb-place "$DATA/example.cluster" "$DATA/example.apps" \
		"$DATA/example.profile"
	assert_line --regexp '^reject huge admission: cpu reservations would reach [0-9.]+ cpu, above the cluster.s 18 cpu$'
	refute_line --regexp '^place huge '
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode a 1 cpu 1000 B/s\nnode b 1 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp x\ncapsule one cpu=0.5\ncapsule two cpu=0.9\ncapsule three cpu=0.1\n' >"$d/a"
	run -0 ovb-place "$d/c" "$d/a"
	assert_line --regexp '^reject x its 3 capsules need distinct nodes but have 2 feasible nodes in all$'
	printf 'ovb-apps 1\napp x\ncapsule one cpu=0.5\ncapsule two cpu=1.5\n' >"$d/a"
	run -0 ovb-place "$d/c" "$d/a"
	assert_line 'reject x capsule two: no feasible node of 2 (Eq. 1 on 2); nearest a, cpu Eq. 1 needs 0.5 cpu more (load 1.5 > 1 cpu)'
	refute_line --regexp '^place '
	# Eq. 3: the nearest node and the probability against the tolerance
	# (web's U: 4, 8, 5, 3 of 20 intervals at 0, 0.25, 0.5, 1 cpu; 0.45
	# moves up to 0.5 on its 0.25-cpu grid: Y > 1.45 in 3 of 20)
	printf 'ovb-cluster 1\nnode n1 1.45 cpu 1e9 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=0.45\napp c O=0.05\ncapsule y profile=web\n' >"$d/a"
	run -0 ovb-place "$d/c" "$d/a" "$DATA/example.profile"
	assert_line 'reject c capsule y: no feasible node of 1 (Eq. 3 on 1); nearest n1, cpu Eq. 3 Pr(Y>C)=0.15 > O_min=0'
}

@test "place: --strict exits 1 when an application is rejected, with the plan written" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode a 1 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp x\ncapsule one cpu=0.5\napp y\ncapsule two cpu=0.6\n' >"$d/a"
	run -0 ovb-place -o "$d/plan" "$d/c" "$d/a"
	run -1 --separate-stderr ovb-place --strict -o "$d/plan2" "$d/c" "$d/a"
	assert_equal "$stderr" "ovb-place: 1 application rejected (--strict)"
	cmp "$d/plan" "$d/plan2"
	printf 'ovb-apps 1\napp x\ncapsule one cpu=0.5\n' >"$d/a"
	run -0 ovb-place --strict "$d/c" "$d/a"
}

@test "place: profiles measured over different intervals on one node warn; --strict makes it an error" {
	local d=$BATS_TEST_TMPDIR
	awk 'NR == 1 { print; next } /^profile / { keep = $2 == "web" }
		keep { if (/^profile /) $2 = "web2"; if (/^interval 1 s$/) $0 = "interval 0.01 s"; print }' \
		"$DATA/example.profile" >"$d/p2"
	grep -q '^interval 0.01 s$' "$d/p2" || fail "no interval record changed: $(grep interval "$DATA/example.profile")"
	printf 'ovb-cluster 1\nnode n1 64 cpu 1e12 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp a\ncapsule x profile=web\napp b\ncapsule y profile=web2\n' >"$d/a"
	run -0 --separate-stderr ovb-place -o "$d/plan" "$d/c" "$d/a" "$DATA/example.profile" "$d/p2"
	[[ $stderr == "ovb-place: warning: node n1 cpu: usage profiled over I = "*" s and "*" s is convolved on one node"* ]] || fail "stderr: $stderr"
	[[ -s $d/plan ]]
	run -65 --separate-stderr ovb-place --strict -o "$d/plan2" "$d/c" "$d/a" "$DATA/example.profile" "$d/p2"
	[[ $stderr == "ovb-place: error: node n1 cpu: usage profiled over"* ]] || fail "stderr: $stderr"
	[[ ! -e $d/plan2 ]]
}

@test "place: section 4.1's mechanisms: CPU reservation, weight, token bucket" {
	run -0 ovb-place "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile"
	# web: sigma 0.95, rho 0.02, O 0.01: x = (1-O) rho, y = rho/sigma, w = (1-O) sigma
	assert_line 'cpu-resv shop web 0.0198 0.02105263157894737 0.9405'
	assert_line 'tbucket shop web 4500000 200000'
	# a plain reservation: y = tau, x = (1-O) sigma tau
	assert_line 'cpu-resv batch w1 2 2 1'
}

@test "place: bad input: unknown profile, unknown pinned node, bad files: 65, no plan" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-apps 1\napp a\ncapsule x profile=nosuch\n' >"$d/a"
	run -65 --separate-stderr ovb-place -o "$d/out" "$DATA/example.cluster" "$d/a" "$DATA/example.profile"
	[[ $stderr == "ovb-place: $d/a:2: application a, capsule x: profile=nosuch is in none of the profile files"* ]]
	[[ ! -e $d/out ]]
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1 node=n9\n' >"$d/a"
	run -65 --separate-stderr ovb-place "$DATA/example.cluster" "$d/a"
	[[ $stderr == "ovb-place: $d/a:2: application a, capsule x: node=n9 is not in the cluster ($DATA/example.cluster)" ]]
	# trust of an application in none of the apps files (nor the plan
	# added to): 65 at the truster, as ovb-check says (issue 18)
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1\ntrust b 0\n' >"$d/a"
	run -65 --separate-stderr ovb-place -o "$d/out" "$DATA/example.cluster" "$d/a"
	assert_equal "$stderr" "ovb-place: $d/a:2: application a: trust of b, which is in none of the apps files"
	[[ ! -e $d/out ]]
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1\n' >"$d/a0"
	run -0 ovb-place -q -o "$d/p0" "$DATA/example.cluster" "$d/a0"
	run -65 --separate-stderr ovb-check "$DATA/example.cluster" "$d/a" "$d/p0"
	assert_equal "$stderr" "ovb-check: $d/a:2: application a: trust of b, which is in none of the apps files"
	run -65 --separate-stderr ovb-place "$DATA/example.cluster" "$d/a" "$DATA/example.plan"
	assert_equal "$stderr" "ovb-place: $d/a:2: application a: trust of b, which is in none of the apps files nor the plan $DATA/example.plan"
	# ... and of one the plan placed or rejected is known
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1\ntrust shop 0\ntrust huge 0.5\n' >"$d/a"
	run -0 ovb-place -q "$DATA/example.cluster" "$d/a" "$DATA/example.plan" "$DATA/example.profile"
	printf 'ovb-cluster 1\nnode a 0 cpu 1 B/s\n' >"$d/c"
	run -65 --separate-stderr ovb-place "$d/c" "$DATA/example.apps"
	[[ $stderr == *"c:2: "* ]]
	printf 'ovb-apps 1\napp a O=1\ncapsule x cpu=1\n' >"$d/a"
	run -65 --separate-stderr ovb-place "$DATA/example.cluster" "$d/a"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=1\napp a\ncapsule y cpu=1\n' >"$d/a"
	run -65 --separate-stderr ovb-place "$DATA/example.cluster" "$d/a"
	[[ $stderr == *"defined twice"* ]]
	run -65 --separate-stderr ovb-place "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.usage"
	[[ $stderr == *"not an input of ovb-place"* ]]
}

@test "place: ovb-check accepts every plan ovb-place writes (random instances, grids)" {
	local d s g n=0
	for s in $(seq 600 659); do
		d=$BATS_TEST_TMPDIR/$s
		mkdir "$d"
		python3 "$GEN/place.py" "$s" "$d"
		for g in 0 1000 7; do
			ovb-place --grid "$g" "$d/cluster" "$d/apps" "$d/profile" >"$d/plan"
			run -0 ovb-check "$d/cluster" "$d/apps" "$d/plan" "$d/profile"
			n=$((n + 1))
		done
	done
	[[ $n -eq 180 ]]
}

@test "place: a profile defined in two files is an error naming both places, not the first one taken" {
	d=$BATS_TEST_TMPDIR
	cp "$DATA/example.profile" "$d/other.profile"
	l=$(line_of '^profile web cpu' "$DATA/example.profile")
	for order in "$DATA/example.profile $d/other.profile" "$d/other.profile $DATA/example.profile"; do
		set -- $order
		run -65 --separate-stderr ovb-place -o "$d/plan" "$DATA/example.cluster" "$DATA/example.apps" "$1" "$2"
		assert_output ''
		[[ $stderr == "ovb-place: $2:$l: profile web cpu is defined twice: also at $1:$l"* ]] ||
			fail "stderr: $stderr"
		[[ ! -e $d/plan ]]
	done
}

@test "place: a malformed profile is 65 with FILE:LINE and nothing else (no leak under ASan)" {
	d=$BATS_TEST_TMPDIR
	for edit in 's/^sigma .*/sigma nan cpu/' 's/^rho .*/rho/' 's/^profile web cpu$/profile web cpu extra/'; do
		variant bad.profile "$DATA/example.profile" "$edit"
		run -65 --separate-stderr ovb-place -o "$d/plan" "$DATA/example.cluster" "$DATA/example.apps" "$BAD"
		assert_output ''
		[[ $stderr =~ ^ovb-place:\ $BAD:[0-9]+:\ [^$'\n']*$ ]] || fail "stderr: $stderr"
		[[ ! -e $d/plan ]]
	done
}

@test "place: re-planning: an apps file with no applications leaves the plan as it was" {
	d=$BATS_TEST_TMPDIR
	run -0 ovb-place -o "$d/plan" "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile"
	printf 'ovb-apps 1\n# nothing changes this week\n' >"$d/none"
	run -0 ovb-fmt "$d/none"
	run -0 ovb-place -o "$d/plan2" "$DATA/example.cluster" "$d/none" "$DATA/example.profile" "$d/plan"
	cmp "$d/plan" "$d/plan2"
}

@test "place: re-planning: a rejected application placed by op=modify loses its reject (the plan reads back)" {
	d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp big\ncapsule x cpu=2\n' >"$d/a1"
	printf 'ovb-apps 1\napp big op=modify\ncapsule x cpu=0.5\n' >"$d/a2"
	run -0 ovb-place -o "$d/p1" "$d/c" "$d/a1"
	grep -q '^reject big ' "$d/p1"
	run -0 ovb-place -o "$d/p2" "$d/c" "$d/a2" "$d/p1"
	run -0 ovb-fmt "$d/p2"
	[[ $(grep -c '^reject ' "$d/p2") == 0 ]]
	grep -q '^place big x n1 -$' "$d/p2"
	run -0 ovb-check "$d/c" "$d/a1" "$d/a2" "$d/p2"
	# rejected again: one reject, not two
	printf 'ovb-apps 1\napp big op=modify\ncapsule x cpu=3\n' >"$d/a3"
	run -0 ovb-place -o "$d/p3" "$d/c" "$d/a3" "$d/p1"
	run -0 ovb-fmt "$d/p3"
	[[ $(grep -c '^reject big ' "$d/p3") == 1 ]]
	# op=new of a rejected name is an error, as for a placed one
	run -65 --separate-stderr ovb-place "$d/c" "$d/a1" "$d/p1"
	[[ $stderr == "ovb-place: $d/a1:2: application big is already in the plan $d/p1, placed or rejected"* ]]
}

@test "place: re-planning: op=terminate needs no profile of what it removes" {
	d=$BATS_TEST_TMPDIR
	run -0 ovb-place -o "$d/plan" "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile"
	printf 'ovb-apps 1\napp shop op=terminate\n' >"$d/t"
	run -0 --separate-stderr ovb-place -o "$d/plan2" "$DATA/example.cluster" "$d/t" "$d/plan"
	run -0 grep -c '^place shop ' "$d/plan"
	run -1 grep -c '^place shop ' "$d/plan2"
	run -0 ovb-fmt "$d/plan2"
}

@test "place: re-planning: existing capsules take rate, burst and U from the profile given, as ovb-check does" {
	d=$BATS_TEST_TMPDIR
	run -0 ovb-place -o "$d/plan" "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile"
	# web re-profiled: a larger burst
	sed '/^profile web cpu$/,/^profile /s/^rho 0.02 cpu-s$/rho 0.05 cpu-s/' "$DATA/example.profile" >"$d/new.profile"
	cmp -s "$DATA/example.profile" "$d/new.profile" && fail "sed changed nothing"
	printf 'ovb-apps 1\n' >"$d/none"
	run -0 ovb-place -o "$d/plan2" "$DATA/example.cluster" "$d/none" "$d/new.profile" "$d/plan"
	grep -q '^qos shop web cpu 0.95 0.05 1 0.01$' "$d/plan2"
	run -0 ovb-check "$DATA/example.cluster" "$DATA/example.apps" "$d/plan2" "$d/new.profile"
	assert_output ''
}

@test "place: the node index gives the plan of a pass over every node (--scan): random, large, full and re-planned instances" {
	local T=$BATS_TEST_TMPDIR s p d n=0
	for s in $(seq 1 60); do
		d=$T/r$s
		mkdir "$d"
		python3 "$GEN/place.py" $s "$d" >/dev/null
		for p in worst-fit tolerance; do
			ovb-place -q -p $p "$d/cluster" "$d/apps" "$d/profile" >"$d/a"
			ovb-place -q --scan -p $p "$d/cluster" "$d/apps" "$d/profile" >"$d/b"
			cmp "$d/a" "$d/b" || fail "seed $s $p: the index and --scan differ"
			n=$((n + 1))
		done
	done
	# spread=rack: the index's empty nodes one by one (their labels differ)
	for s in $(seq 1 20); do
		d=$T/s$s
		mkdir "$d"
		python3 "$GEN/place.py" $s "$d" spread >/dev/null
		ovb-place -q "$d/cluster" "$d/apps" "$d/profile" >"$d/a"
		ovb-place -q --scan "$d/cluster" "$d/apps" "$d/profile" >"$d/b"
		cmp "$d/a" "$d/b" || fail "spread seed $s: the index and --scan differ"
		n=$((n + 1))
	done
	# heterogeneous nodes in few shapes (ties within a shape), trust-0
	# pairs; roomy, and so full that most applications are rejected
	for s in 1:300:3000 2:20:8000; do
		d=$T/l${s%%:*}
		mkdir "$d"
		IFS=: read -r seed nodes caps <<<"$s"
		python3 "$GEN/place_large.py" "$d" $nodes $caps $seed
		ovb-place -q "$d/cluster" "$d/apps" "$d/profile" >"$d/a"
		ovb-place -q --scan "$d/cluster" "$d/apps" "$d/profile" >"$d/b"
		cmp "$d/a" "$d/b" || fail "large $s: the index and --scan differ"
		n=$((n + 1))
	done
	grep -q '^reject ' "$T/l2/a" || fail "the full instance rejects nothing"
	# re-planning: half the applications modified on the full plan
	awk '$1 == "app" { k++; if (k % 2) $0 = $0 " op=modify" } { print }' "$T/l1/apps" |
		grep -v '^ovb-apps' | awk 'BEGIN { print "ovb-apps 1" } /^app .*op=modify/ { on = 1 } /^app / && !/op=modify/ { on = 0 } on' >"$T/mod.apps"
	ovb-place -q "$T/l1/cluster" "$T/mod.apps" "$T/l1/profile" "$T/l1/a" >"$T/ma"
	ovb-place -q --scan "$T/l1/cluster" "$T/mod.apps" "$T/l1/profile" "$T/l1/a" >"$T/mb"
	cmp "$T/ma" "$T/mb" || fail "re-planning: the index and --scan differ"
	echo "# $((n + 1)) plans, each the same bytes with and without the index" >&3
}

# ---------------------------------------------------------------------------
# The aggregate mode: Eq. 3 on the node's sum; Eq. 1 reduced to the lower
# bounds.  t/data/aggregate.*: two capsules busy (0.9 cpu) half of the time,
# O = 0.3, one node of 1 cpu: their 70th percentiles add up to 1.8 cpu, their
# sum exceeds 1 cpu a quarter of the time.

@test "aggregate: two capsules whose percentiles exceed the node share it when their sum rarely does" {
	local A=("$DATA/aggregate.cluster" "$DATA/aggregate.apps" "$DATA/aggregate.profile")
	local d=$BATS_TEST_TMPDIR
	run -0 --separate-stderr ovb-place "${A[@]}"
	assert_line 'reject b admission: cpu reservations would reach 1.26 cpu, above the cluster'"'"'s 1 cpu'
	refute_line 'mode aggregate'
	run -0 --separate-stderr ovb-place --mode aggregate -o "$d/agg" "${A[@]}"
	run -0 grep -v '^#' "$d/agg"
	assert_line 'mode aggregate'
	assert_line 'place a x n1 a'
	assert_line 'place b y n1 b'
	# Pr(Y > 1) = 1/4 <= 0.3; LOAD = the lower bounds (none) = 0
	assert_line 'risk n1 cpu 0.25 0.3 0 1'
	run -0 ovb-check "$DATA/aggregate.cluster" "$DATA/aggregate.apps" "$d/agg" "$DATA/aggregate.profile"
	assert_output ''
	# the same placement read as an Eq. 1 plan breaks Eq. 1
	sed '/^mode aggregate$/d' "$d/agg" >"$d/eq1"
	run -1 ovb-check "$DATA/aggregate.cluster" "$DATA/aggregate.apps" "$d/eq1" "$DATA/aggregate.profile"
	assert_line --partial 'violation n1 cpu eq1 load=1.26 cpu > C=1 cpu'
	# at O = 0.2 a quarter is too much: Eq. 3 rejects b
	printf 'ovb-apps 1\napp a O=0.2\ncapsule x profile=a\napp b O=0.2\ncapsule y profile=b\n' >"$d/o2.apps"
	run -0 ovb-place --mode aggregate "$DATA/aggregate.cluster" "$d/o2.apps" "$DATA/aggregate.profile"
	assert_line --partial 'reject b capsule y: no feasible node of 1 (Eq. 3 on 1); nearest n1, cpu Eq. 3 Pr(Y>C)=0.25 > O_min=0.2'
}

@test "aggregate: lower bounds are still guaranteed (Eq. 1 of the lower bounds); the plan's mode is kept on re-planning" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-apps 1\napp a\ncapsule x profile=a lb-cpu=0.6\napp b\ncapsule y profile=b lb-cpu=0.6\n' >"$d/lb.apps"
	run -0 ovb-place --mode aggregate "$DATA/aggregate.cluster" "$d/lb.apps" "$DATA/aggregate.profile"
	assert_line --partial 'reject b admission: cpu reservations would reach 1.2 cpu'
	printf 'ovb-apps 1\napp a\ncapsule x profile=a lb-cpu=0.5\napp b\ncapsule y profile=b lb-cpu=0.5\n' >"$d/lb.apps"
	run -0 ovb-place --mode aggregate "$DATA/aggregate.cluster" "$d/lb.apps" "$DATA/aggregate.profile"
	assert_line 'risk n1 cpu 0.25 0.3 1 1'
	# re-planning: the input plan's mode holds; asking for another is 64
	printf 'ovb-apps 1\napp a\ncapsule x profile=a\n' >"$d/a.apps"
	printf 'ovb-apps 1\napp b\ncapsule y profile=b\n' >"$d/b.apps"
	ovb-place --mode aggregate -o "$d/p1" "$DATA/aggregate.cluster" "$d/a.apps" "$DATA/aggregate.profile"
	run -0 ovb-place -o "$d/p2" "$DATA/aggregate.cluster" "$d/b.apps" "$DATA/aggregate.profile" "$d/p1"
	grep -qx 'mode aggregate' "$d/p2" || fail "mode lost"
	grep -qx 'place b y n1 b' "$d/p2" || fail "b not placed beside a"
	run -64 --separate-stderr ovb-place --mode eq1 "$DATA/aggregate.cluster" "$d/b.apps" "$DATA/aggregate.profile" "$d/p1"
	assert_equal "$stderr" "ovb-place: $d/p1: a plan of mode aggregate; --mode eq1 would change the rule of the capsules placed"
	run -64 --separate-stderr ovb-place --mode sometimes "$DATA/aggregate.cluster" "$d/b.apps" "$DATA/aggregate.profile"
	# the format: one mode record, eq1, aggregate or nsigma N; eq1 is not written
	printf 'ovb-plan 1\nmode aggregate\nmode aggregate\n' >"$d/two"
	run -65 --separate-stderr ovb-fmt "$d/two"
	assert_equal "$stderr" "ovb-fmt: $d/two:3: mode is given twice (first at line 2)"
	printf 'ovb-plan 1\nmode eq3\n' >"$d/bad"
	run -65 --separate-stderr ovb-fmt "$d/bad"
	assert_equal "$stderr" "ovb-fmt: $d/bad:2: mode: 'eq3' is not eq1, aggregate, nsigma or joint"
	printf 'ovb-plan 1\nmode eq1\n' >"$d/eq1"
	run -0 ovb-fmt -c "$d/eq1"
	refute_line --partial 'mode'
}

@test "aggregate: random clusters, apps and profiles: every plan passes ovb-check and the oracle (20 seeds)" {
	local s d=$BATS_TEST_TMPDIR more=0 eq1 agg
	for s in $(seq 1 20); do
		python3 "$GEN/check.py" --seed "$s" --dir "$d/r" --tight
		for m in eq1 aggregate; do
			ovb-place -q --mode $m -p best-fit -o "$d/r/$m" "$d/r/cluster" "$d/r/apps" "$d/r/profile"
			grep -E '^(place|reject|grid|mode) ' "$d/r/$m" | sed '1i ovb-plan 1' >"$d/r/skel.$m"
			python3 "$ORACLE/check.py" --cluster "$d/r/cluster" --apps "$d/r/apps" \
				--profile "$d/r/profile" --plan "$d/r/skel.$m" \
				--fill "$d/r/fill.$m" --expect "$d/r/expect.$m"
			[[ ! -s $d/r/expect.$m ]] || fail "seed $s $m: the oracle finds $(cat "$d/r/expect.$m")"
			run -0 ovb-check "$d/r/cluster" "$d/r/apps" "$d/r/$m" "$d/r/profile"
		done
		eq1=$(grep -c '^place ' "$d/r/eq1" || true)
		agg=$(grep -c '^place ' "$d/r/aggregate" || true)
		((agg > eq1)) && more=$((more + 1))
	done
	# (the generator's profiles are mostly plain or small: Eq. 1 rarely
	# binds before Eq. 3; t/data/aggregate.* is the case where it does)
	((more >= 1)) || fail "aggregate never placed more than eq1"
}

# ---------------------------------------------------------------------------
# Re-planning with few moves (--max-moves): placed capsules stay, broken
# nodes are repaired first, the moves are an ovb-migrations list.

@test "max-moves: a grown capsule moves off its broken node, the rest stays; the moves as ovb-migrations" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\nnode n2 1 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=0.4\napp b\ncapsule y cpu=0.4\n' >"$d/a1"
	ovb-place -p best-fit -o "$d/p1" "$d/c" "$d/a1"
	grep -qx 'place a x n1 -' "$d/p1" && grep -qx 'place b y n1 -' "$d/p1" ||
		fail "best fit did not share n1: $(cat "$d/p1")"
	# a grows to 0.7: n1 would carry 1.1 cpu
	printf 'ovb-apps 1\napp a op=modify\ncapsule x cpu=0.7\n' >"$d/a2"
	run -0 --separate-stderr ovb-place -p best-fit --max-moves 1 \
		--migrations "$d/m" -o "$d/p2" "$d/c" "$d/a2" "$d/p1"
	assert_equal "$stderr" ''
	grep -qx 'place a x n2 -' "$d/p2" || fail "a not moved: $(cat "$d/p2")"
	grep -qx 'place b y n1 -' "$d/p2" || fail "b moved"
	grep -qx 'qos a x cpu 0.7 0 1 0' "$d/p2" || fail "a not re-profiled"
	run -0 ovb-fmt "$d/m"
	assert_equal "$(grep -v '^#' "$d/m")" "$(printf 'ovb-migrations 1\nmove a/x n1 n2')"
	run -0 ovb-check "$d/c" "$d/a1" "$d/a2" "$d/p2"
	# the independent checker agrees: no violation
	grep -E '^(place|reject|grid|mode) ' "$d/p2" | sed '1i ovb-plan 1' >"$d/skel"
	python3 "$ORACLE/check.py" --cluster "$d/c" --apps "$d/a1" --apps "$d/a2" \
		--plan "$d/skel" --fill "$d/fill" --expect "$d/expect"
	assert_equal "$(cat "$d/expect")" ''
	# no move allowed: n1 stays broken, a warning, and ovb-check says so
	run -0 --separate-stderr ovb-place -p best-fit --max-moves 0 \
		--migrations "$d/m0" -o "$d/p0" "$d/c" "$d/a2" "$d/p1"
	assert_equal "$stderr" 'ovb-place: warning: node n1 still breaks cpu after 0 moves (--max-moves)'
	assert_equal "$(grep -v '^#' "$d/m0")" 'ovb-migrations 1'
	run -1 ovb-check "$d/c" "$d/a1" "$d/a2" "$d/p0"
	assert_line --partial 'violation n1 cpu eq1 load=1.1 cpu > C=1 cpu'
	run -65 --separate-stderr ovb-place --strict -p best-fit --max-moves 0 \
		-o "$d/ps" "$d/c" "$d/a2" "$d/p1"
	[[ ! -e $d/ps ]] || fail "a plan was written"
	# a capsule that still fits stays where it is
	printf 'ovb-apps 1\napp a op=modify\ncapsule x cpu=0.6\napp c\ncapsule z cpu=0.5\n' >"$d/a3"
	run -0 ovb-place -p best-fit --max-moves 5 --migrations "$d/m3" -o "$d/p3" "$d/c" "$d/a3" "$d/p1"
	grep -qx 'place a x n1 -' "$d/p3" || fail "a moved though it fits"
	assert_equal "$(grep -v '^#' "$d/m3")" "$(printf 'ovb-migrations 1\ndeploy c/z n2')"
}

@test "max-moves: Bitbrains, two weeks profiled a week apart, 8-CPU nodes: one move repairs what re-placing from scratch moves 21 for" {
	local BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	[[ -d $BB/2013-7 && -d $BB/2013-8 ]] || skip "the Bitbrains traces are not at $BB"
	local d=$BATS_TEST_TMPDIR w
	# windows of 14 days ending 2013-07-15 and 2013-07-22
	for w in "A 1372636800 1373846400" "B 1373241600 1374451200"; do
		set -- $w
		ovb-import -q --bitbrains --from "$2" --to "$3" "$BB"/2013-7/*.csv.gz \
			"$BB"/2013-8/*.csv.gz -o "$d/s$1"
		ovb-usage -q -I 300 -r cpu "$d/s$1" >"$d/u$1"
		ovb-tbucket -q -r cpu "$d/s$1" >"$d/c$1"
		ovb-profile -q -O 0.01 -t 86400 "$d/u$1" "$d/c$1" >"$d/p$1"
		grep '^profile' "$d/p$1" | awk '{ print $2 }' | sort -u >"$d/vms$1"
	done
	{ echo 'ovb-cluster 1'; for w in $(seq 1 8); do echo "node n$w 8 cpu 125000000 B/s"; done; } >"$d/cl"
	{ echo 'ovb-apps 1'; for w in $(cat "$d/vmsA"); do echo "app $w"; echo "capsule $w profile=$w"; done; } >"$d/appsA"
	{ echo 'ovb-apps 1'; for w in $(comm -12 "$d/vmsA" "$d/vmsB"); do echo "app $w op=modify"; echo "capsule $w profile=$w"; done; } >"$d/appsB"
	ovb-place -q -p best-fit -o "$d/planA" "$d/cl" "$d/appsA" "$d/pA"
	# last week's plan breaks Eq. 1 on the new profiles
	run -1 ovb-check "$d/cl" "$d/appsB" "$d/planA" "$d/pB"
	assert_line --partial ' eq1 '
	ovb-place -q -p best-fit --max-moves 3 --migrations "$d/m" -o "$d/planB" \
		"$d/cl" "$d/appsB" "$d/pB" "$d/planA"
	run -0 ovb-check "$d/cl" "$d/appsB" "$d/planB" "$d/pB"
	local moves fresh
	moves=$(grep -c '^move ' "$d/m" || true)
	ovb-place -q -p best-fit --migrations "$d/mf" -o "$d/planF" \
		"$d/cl" "$d/appsB" "$d/pB" "$d/planA"
	fresh=$(grep -c '^move ' "$d/mf" || true)
	echo "# moves: $moves with --max-moves 3, $fresh re-placing every VM" >&3
	((moves >= 1 && moves <= 3)) || fail "$moves moves"
	((fresh > moves)) || fail "re-placing moved $fresh, repairing $moves"
}

@test "valid-until: stated by ovb-place, kept on re-planning, ovb-check --at fails a plan past it" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\n' >"$d/c"
	printf 'ovb-apps 1\napp a\ncapsule x cpu=0.4\n' >"$d/a"
	printf 'ovb-apps 1\napp b\ncapsule y cpu=0.4\n' >"$d/b"
	ovb-place --valid-until 1375315200 -o "$d/p" "$d/c" "$d/a"
	grep -qx 'valid-until 1375315200' "$d/p" || fail "no valid-until"
	run -0 ovb-check --at 1375315199 "$d/c" "$d/a" "$d/p"
	assert_output ''
	run -1 ovb-check --at 1375315200 "$d/c" "$d/a" "$d/p"
	assert_output 'violation - - expired valid-until=1375315200 at=1375315200'
	run -0 ovb-check "$d/c" "$d/a" "$d/p"    # no --at: no date check
	# re-planning keeps the date, or takes a new one
	ovb-place -o "$d/p2" "$d/c" "$d/b" "$d/p"
	grep -qx 'valid-until 1375315200' "$d/p2" || fail "date lost"
	ovb-place --valid-until 1377993600 -o "$d/p3" "$d/c" "$d/b" "$d/p"
	grep -qx 'valid-until 1377993600' "$d/p3" || fail "date not replaced"
	# a plan without a date never expires
	ovb-place -o "$d/p4" "$d/c" "$d/a"
	run -0 ovb-check --at 4000000000 "$d/c" "$d/a" "$d/p4"
	printf 'ovb-plan 1\nvalid-until 1\nvalid-until 2\n' >"$d/two"
	run -65 --separate-stderr ovb-fmt "$d/two"
	assert_equal "$stderr" "ovb-fmt: $d/two:3: valid-until is given twice (first at line 2)"
	printf 'ovb-plan 1\nvalid-until 0\n' >"$d/zero"
	run -65 --separate-stderr ovb-fmt "$d/zero"
	assert_equal "$stderr" "ovb-fmt: $d/zero:2: valid-until: 0 is not in 1..2^62 s"
	run -64 --separate-stderr ovb-check --at soon "$d/c" "$d/a" "$d/p"
}

@test "place: the admission's reject says the cluster's capacity with its unit" {
	printf 'ovb-cluster 1\nnode a 0.1 cpu 125000000 B/s\nnode b 0.1 cpu 125000000 B/s\n' >"$BATS_TEST_TMPDIR/c"
	printf 'ovb-apps 1\napp big\ncapsule x cpu=1 net=0\napp wide\ncapsule y cpu=0.01 net=300000000\n' >"$BATS_TEST_TMPDIR/a"
	run -0 --separate-stderr ovb-place "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/a"
	assert_line "reject big admission: cpu reservations would reach 1 cpu, above the cluster's 0.2 cpu"
	assert_line "reject wide admission: net reservations would reach 300000000 B/s, above the cluster's 250000000 B/s"
}

@test "place: re-planning: --consolidate empties a node with the moves left, never onto an empty node, and a node whose capsules do not all fit elsewhere keeps them all" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 8 cpu 1e12 B/s\nnode n2 8 cpu 1e12 B/s\nnode n3 8 cpu 1e12 B/s\n' \
		>"$d/c"
	# three VMs of 3 cpu, one a node (worst-fit spreads them)
	printf 'ovb-apps 1\napp a\ncapsule x cpu=3\napp b\ncapsule x cpu=3\napp c\ncapsule x cpu=3\n' \
		>"$d/a"
	ovb-place "$d/c" "$d/a" >"$d/p0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' "$d/p0" | tr '\n' ' ')" \
		'a n1 b n2 c n3 '
	sed 's/^app \(.\)$/app \1 op=modify/' "$d/a" >"$d/m"
	# n3 (the last of the fewest capsules) empties onto n1; then n2's b
	# fits on no node with capsules (n1 holds 6), so b stays
	run -0 --separate-stderr ovb-place --max-moves 5 --consolidate \
		--migrations "$d/mig" "$d/c" "$d/m" "$d/p0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' <<<"$output" |
		tr '\n' ' ')" 'a n1 b n2 c n1 '
	assert_equal "$(grep '^move' "$d/mig")" 'move c/x n3 n1'
	printf '%s\n' "$output" >"$d/p1"
	run -0 ovb-check "$d/c" "$d/m" "$d/p1"
	# without --consolidate, or with no move to spare, nothing moves
	run -0 --separate-stderr ovb-place --max-moves 5 "$d/c" "$d/m" "$d/p0"
	assert_equal "$(awk '$1 == "place" { print $4 }' <<<"$output" |
		tr '\n' ' ')" 'n1 n2 n3 '
	run -0 --separate-stderr ovb-place --max-moves 0 --consolidate \
		"$d/c" "$d/m" "$d/p0"
	assert_equal "$(awk '$1 == "place" { print $4 }' <<<"$output" |
		tr '\n' ' ')" 'n1 n2 n3 '
	run -64 --separate-stderr ovb-place --consolidate "$d/c" "$d/m" "$d/p0"
	assert_equal "$stderr" 'ovb-place: --consolidate needs its moves: --max-moves M, or --consolidate=C'
	# a on n1 (5 cpu), b on n2 (7), c (3) and d (2) on n3: n2 and n1 empty
	# nowhere; of n3, c fits on n1 but d then fits nowhere, so both stay
	printf 'ovb-apps 1\napp a\ncapsule x cpu=5\napp b\ncapsule x cpu=7\napp c\ncapsule x cpu=3 node=n3\napp d\ncapsule x cpu=2 node=n3\n' \
		>"$d/a2"
	ovb-place "$d/c" "$d/a2" >"$d/q0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' "$d/q0" | tr '\n' ' ')" \
		'a n1 b n2 c n3 d n3 '
	printf 'ovb-apps 1\napp a op=modify\ncapsule x cpu=5\napp b op=modify\ncapsule x cpu=7\napp c op=modify\ncapsule x cpu=3\napp d op=modify\ncapsule x cpu=2\n' \
		>"$d/m2"
	run -0 --separate-stderr ovb-place --max-moves 9 --consolidate \
		--migrations "$d/mig2" "$d/c" "$d/m2" "$d/q0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' <<<"$output" |
		tr '\n' ' ')" 'a n1 b n2 c n3 d n3 '
	assert_equal "$(grep -c '^move' "$d/mig2")" 0
	# d of 1 cpu: it then fits on n2, and n3 empties in 2 moves
	sed 's/cpu=2$/cpu=1/' "$d/m2" >"$d/m3"
	run -0 --separate-stderr ovb-place --max-moves 9 --consolidate \
		--migrations "$d/mig3" "$d/c" "$d/m3" "$d/q0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' <<<"$output" |
		tr '\n' ' ')" 'a n1 b n2 c n1 d n2 '
	assert_equal "$(grep -c '^move' "$d/mig3")" 2
	# --consolidate=C bounds the emptying moves: n3 needs 2, so C = 1
	# empties nothing and C = 2 empties n3 as before, with or without
	# --max-moves
	run -0 --separate-stderr ovb-place --consolidate=1 \
		--migrations "$d/mig4" "$d/c" "$d/m3" "$d/q0"
	assert_equal "$(awk '$1 == "place" { print $4 }' <<<"$output" |
		tr '\n' ' ')" 'n1 n2 n3 n3 '
	assert_equal "$(grep -c '^move' "$d/mig4")" 0
	run -0 --separate-stderr ovb-place --max-moves 9 --consolidate=1 \
		"$d/c" "$d/m3" "$d/q0"
	assert_equal "$(awk '$1 == "place" { print $4 }' <<<"$output" |
		tr '\n' ' ')" 'n1 n2 n3 n3 '
	run -0 --separate-stderr ovb-place --consolidate=2 \
		--migrations "$d/mig5" "$d/c" "$d/m3" "$d/q0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' <<<"$output" |
		tr '\n' ' ')" 'a n1 b n2 c n1 d n2 '
	cmp "$d/mig3" "$d/mig5"
	for bad in 0 -1 x 1.5 ''; do
		run -64 --separate-stderr ovb-place --consolidate="$bad" \
			"$d/c" "$d/m3" "$d/q0"
	done
}

@test "place: re-planning: --consolidate=C repairs every broken node first (its moves unbounded), where --max-moves M --consolidate leaves one broken for lack of moves" {
	local d=$BATS_TEST_TMPDIR
	printf 'ovb-cluster 1\nnode n1 8 cpu 1e12 B/s\nnode n2 8 cpu 1e12 B/s\nnode n3 8 cpu 1e12 B/s\nnode n4 8 cpu 1e12 B/s\n' >"$d/c"
	# a, b, e (2 cpu) on n1, c (1) on n2, d (1) on n3; then a, b, e grow
	# to 6: n1 (18 cpu) needs two moves
	printf 'ovb-apps 1\napp a\ncapsule x cpu=2 node=n1\napp b\ncapsule x cpu=2 node=n1\napp e\ncapsule x cpu=2 node=n1\napp c\ncapsule x cpu=1 node=n2\napp d\ncapsule x cpu=1 node=n3\n' >"$d/a"
	ovb-place "$d/c" "$d/a" >"$d/p0"
	sed -e 's/^app \(.\)$/app \1 op=modify/' -e 's/ node=n.$//' \
		-e 's/cpu=2$/cpu=6/' "$d/a" >"$d/m"
	# one move: n1 stays broken
	run -0 --separate-stderr ovb-place --max-moves 1 --consolidate \
		"$d/c" "$d/m" "$d/p0"
	assert_equal "$stderr" 'ovb-place: warning: node n1 still breaks cpu after 1 moves (--max-moves)'
	printf '%s\n' "$output" >"$d/p1"
	run -1 ovb-check "$d/c" "$d/m" "$d/p1"
	# --consolidate=1: a to n4 and b to n2 (the repair, worst fit), then
	# n4 (one capsule, the last such node with a capsule that fits
	# elsewhere) empties: a onto n3, the one move of C = 1
	run -0 --separate-stderr ovb-place --consolidate=1 --migrations \
		"$d/mig" "$d/c" "$d/m" "$d/p0"
	assert_equal "$stderr" ''
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' <<<"$output" |
		tr '\n' ' ')" 'a n3 b n2 e n1 c n2 d n3 '
	assert_equal "$(grep '^move' "$d/mig" | tr '\n' ' ')" \
		'move a/x n1 n3 move b/x n1 n2 '
	printf '%s\n' "$output" >"$d/p2"
	run -0 ovb-check "$d/c" "$d/m" "$d/p2"
	# the repair alone (--max-moves 2, nothing left to consolidate) keeps
	# n4: the consolidation's move saved it
	run -0 --separate-stderr ovb-place --max-moves 2 --consolidate \
		"$d/c" "$d/m" "$d/p0"
	assert_equal "$(awk '$1 == "place" { print $2, $4 }' <<<"$output" |
		tr '\n' ' ')" 'a n4 b n2 e n1 c n2 d n3 '
}
