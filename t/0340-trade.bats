#!/usr/bin/env bats
# ovb-trade: Sharc's resource trading (section 4.3 of the Sharc paper)
# replayed on usage series (formats/trade.md).
#
# t/data/trade-stream.* is section 6.4's streaming server.  t/gen/trade.py
# makes Table 2's workgroup, the starvation case and random scenarios;
# t/oracle/trade.py replays them independently from the scenario (not
# from ovb-trade's output) and compares every record and the invariants.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	GEN="$BATS_TEST_DIRNAME/gen"
	PY=/usr/bin/python3
	T=$BATS_TEST_TMPDIR
	S=("$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$DATA/trade-stream.series")
}

# field CAPSULE T COLUMN FILE: column (3 A, 4 USED, 5 U, 6 CLASS, 7 NEXT) of
# the capsule's c record in interval T.
field() {
	awk -v c="$1" -v t="$2" -v k="$3" '$1 == "at" { at = $2 }
		$1 == "c" && $2 == c && at == t { print $k }' "$4"
}

# near X Y: |X - Y| <= 1e-12 (an independent figure computed in decimal)
near() {
	awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; exit !(d <= 1e-12 && d >= -1e-12) }' ||
		fail "$1 is not $2"
}

# ---------------------------------------------------------------------------
# The paper's scenarios.

@test "6.4 streaming: with trading the first capsule gets 5 Mb/s after one interval, both N1 readings" {
	local n1
	for n1 in all borrowers; do
		run -0 --separate-stderr ovb-trade -r net --enforce capped --n1 "$n1" --check "${S[@]}"
		printf '%s\n' "$output" >"$T/$n1.trade"
		# 5 Mb/s = 625000 B/s; s2's 3 Mb/s leaves it 1 Mb/s to lend
		assert_equal "$(field s1 0 7 "$T/$n1.trade")" "$((5000000 / 8))"
		assert_equal "$(field s2 0 7 "$T/$n1.trade")" "$((3000000 / 8))"
		assert_equal "$(field s1 0 6 "$T/$n1.trade")" borrow
	done
	assert_equal "$(sed 1,3d "$T/all.trade")" "$(sed 1,3d "$T/borrowers.trade")"
}

@test "6.4 streaming: without trading the first capsule stays at 4 Mb/s" {
	sed 's/trade=yes/trade=no/' "$DATA/trade-stream.apps" >"$T/apps"
	run -0 --separate-stderr ovb-trade -r net --enforce capped --check \
		"$DATA/trade-stream.cluster" "$T/apps" "$DATA/trade-stream.series"
	printf '%s\n' "$output" >"$T/o"
	local t
	for t in 0 5 10 15; do
		assert_equal "$(field s1 $t 7 "$T/o")" "$((4000000 / 8))"
		assert_equal "$(field s1 $t 4 "$T/o")" "$((4000000 / 8))"
		assert_equal "$(field s1 $t 6 "$T/o")" fixed
	done
}

@test "Table 2 / Fig. 6: node 3's Scientific borrows from 25 min, returns it at 36 min, node 3 at 100%" {
	local n1
	"$PY" "$GEN/trade.py" table2 "$T"
	for n1 in all borrowers; do
		run -0 --separate-stderr ovb-trade --n1 "$n1" --check "$T/cluster" "$T/apps" "$T/series"
		printf '%s\n' "$output" >"$T/$n1.trade"
		run -0 "$PY" "$ORACLE/trade.py" "$T/scenario.json" "$T/$n1.trade" --n1 "$n1"
		# before the sleep: the reservation 0.3; during it the sleeper's
		# 0.2 split between nodes 3 and 4: 0.4 on node 3
		assert_equal "$(field Scientific-N3 $((24 * 60)) 7 "$T/$n1.trade")" 0.3
		assert_equal "$(field Scientific-N2 $((25 * 60)) 7 "$T/$n1.trade")" 0
		[[ $(field Scientific-N3 $((30 * 60)) 7 "$T/$n1.trade") == 0.39999999999999997 ||
		   $(field Scientific-N3 $((30 * 60)) 7 "$T/$n1.trade") == 0.4 ]]
		# Disksim arrives at 36 min: the borrowed 0.1 is returned
		assert_equal "$(field Scientific-N3 $((36 * 60)) 7 "$T/$n1.trade")" 0.3
		assert_equal "$(awk '$1 == "at" { at = $2 } $1 == "n" && $2 == "N3" && at == 2160 { print $4 }' "$T/$n1.trade")" 1
	done
	# the application's share binds on every node: both readings agree
	assert_equal "$(sed 1,3d "$T/all.trade")" "$(sed 1,3d "$T/borrowers.trade")"
}

@test "Table 2 without Step 4: node 3 is over-committed when Disksim arrives, --check exits 1 naming it" {
	"$PY" "$GEN/trade.py" table2 "$T"
	run -1 --separate-stderr ovb-trade --no-step4 --check "$T/cluster" "$T/apps" "$T/series"
	[[ $stderr == *"at 2160: node N3: sum A"*"above capacity"* ]] || fail "$stderr"
	printf '%s\n' "$output" >"$T/o"
	run -0 "$PY" "$ORACLE/trade.py" "$T/scenario.json" "$T/o" --no-step4
	# the warnings of --check come while the intervals are written (by a
	# thread of their own): the output is whole and the same every time
	local i
	for i in $(seq 20); do
		ovb-trade --no-step4 --check "$T/cluster" "$T/apps" "$T/series" \
			2>/dev/null | cmp -s - "$T/o" || fail "run $i differs"
	done
}

@test "Step 3's footnote-4 floor at R breaks sum A <= R_i without Step 4: --check names the application" {
	# c1 borrowed up to 0.9; in interval 60 c3 reclaims its 0.5 and c2
	# arrives: the application is 0.4 over, N2 = 2 borrowers are asked
	# for 0.2 each, c2 is at R and gives nothing: 1.7 > R_i = 1.5
	printf 'ovb-cluster 1\nnode n1 2 cpu 1 B/s\nnode n2 2 cpu 1 B/s\nnode n3 2 cpu 1 B/s\n' >"$T/cluster"
	printf 'ovb-apps 1\napp a trade=yes\ncapsule c1 cpu=0.5 net=0 node=n1\ncapsule c2 cpu=0.5 net=0 node=n2\ncapsule c3 cpu=0.5 net=0 node=n3\n' >"$T/apps"
	printf 'ovb-series 1\nseries c1 cpu\ninterval 60 s\nsample 0 1\nsample 60 1\nseries c2 cpu\ninterval 60 s\nsample 60 1\nseries c3 cpu\ninterval 60 s\nsample 0 0.1\nsample 60 1\n' >"$T/series"
	run -1 --separate-stderr ovb-trade --no-step4 --check "$T/cluster" "$T/apps" "$T/series"
	[[ $stderr == "ovb-trade: at 60: application a: sum A 1.7"*" above R_i 1.5" ]] || fail "$stderr"
	run -0 --separate-stderr ovb-trade --check "$T/cluster" "$T/apps" "$T/series"
	assert_line 'a a 1.5 0'
}

# ---------------------------------------------------------------------------
# The deviations from the paper.

@test "Eq. 5 over C_i: the unallocated share is R_i minus all of the application's capsules" {
	cat >"$T/cluster" <<-'EOF'
	ovb-cluster 1
	node n1 2 cpu 1 B/s
	node n2 2 cpu 1 B/s
	node n3 2 cpu 1 B/s
	EOF
	cat >"$T/apps" <<-'EOF'
	ovb-apps 1
	app a trade=yes
	capsule c1 cpu=0.5 net=0 node=n1
	capsule c2 cpu=0.5 net=0 node=n2
	capsule c3 cpu=0.5 net=0 node=n3
	EOF
	printf 'ovb-series 1\nseries c1 cpu\ninterval 60 s\nsample 0 1\nseries c2 cpu\ninterval 60 s\nsample 0 0.25\nseries c3 cpu\ninterval 60 s\nsample 0 0.25\n' >"$T/series"
	run -0 --separate-stderr ovb-trade --check "$T/cluster" "$T/apps" "$T/series"
	printf '%s\n' "$output" >"$T/o"
	# C_i: 1.5 - (0.5 + 0.25 + 0.25) = 0.5 to lend; over C_j (j = 1) it
	# would be 1.5 - 0.5 = 1 and the application would hold 2 > R_i
	assert_equal "$(field c1 0 7 "$T/o")" 1
	assert_line 'a a 1.5 0'
}

@test "sum A <= R_i: when every capsule under-uses, the slack is reported" {
	cat >"$T/apps" <<-'EOF'
	ovb-apps 1
	app video trade=yes
	capsule s1 cpu=0 net=500000 node=n1
	capsule s2 cpu=0 net=500000 node=n2
	EOF
	printf 'ovb-series 1\nseries s1 net\ninterval 5 s\nsample 0 100000\nseries s2 net\ninterval 5 s\nsample 0 300000\n' >"$T/series"
	run -0 --separate-stderr ovb-trade -r net --check "$DATA/trade-stream.cluster" "$T/apps" "$T/series"
	# Step 2 sets A = U: 400000 allocated, 600000 of R_i = 1000000 unused
	assert_line 'a video 400000 600000'
}

# starve FLAGS...: the intervals from x's first busy one (60 s) until its
# allocation is back to R = 0.5, or "never" within 60 intervals.
recovery() {
	ovb-trade --enforce capped --check "$@" "$T/cluster" "$T/apps" "$T/series" >"$T/o" || return 1
	awk '$1 == "at" { at = $2 } $1 == "c" && $2 == "x" && at >= 60 && $7 + 0 >= 0.5 && !done { print at / 60; done = 1 }
		END { if (!done) print "never" }' "$T/o"
}

@test "starvation: capped, the paper's rule leaves a capsule cut to 0 there forever; the fix recovers in ceil((1-delta)/epsilon)" {
	"$PY" "$GEN/trade.py" starve "$T" --n 60
	run -0 recovery --reclaim paper
	assert_output never
	# A = 0 in every interval after the idle one
	run -0 bash -c "awk '\$1 == \"at\" { at = \$2 } \$1 == \"c\" && \$2 == \"x\" && at >= 60 { print \$7 }' '$T/o' | sort -u"
	assert_output 0
	# the fix: floor 0.1 R, then +epsilon R per interval: 9 intervals
	local want
	want=$("$PY" -c 'import math; print(math.ceil(round((1 - 0.1) / 0.1, 9)))')
	run -0 recovery --reclaim fix --delta 0.1
	assert_output "$want"
	# work-conserving, the paper's rule sees the demand and recovers at once
	ovb-trade --check "$T/cluster" "$T/apps" "$T/series" >"$T/w"
	assert_equal "$(field x 60 7 "$T/w")" 0.5
}

@test "starvation: from LB = 0.01 R the paper's rule needs 49 intervals, the fix 9" {
	"$PY" "$GEN/trade.py" starve "$T" --lb 0.005 --n 80
	local want
	want=$("$PY" -c '
a, k = 0.005, 0
while a < 0.5:
    a, k = min(0.5, 1.1 * a), k + 1
print(k)')
	assert_equal "$want" 49
	run -0 recovery --reclaim paper
	assert_output 49
	run -0 recovery --reclaim fix
	assert_output 9
}

# ---------------------------------------------------------------------------
# The independent replay.

@test "property: random scenarios, four option sets: the Python replay agrees and the invariants hold" {
	local seed args
	for seed in $(seq 1 12); do
		mkdir -p "$T/$seed"
		"$PY" "$GEN/trade.py" random "$seed" "$T/$seed"
		for args in "" "--enforce capped" "--n1 borrowers --reclaim fix" \
			"--alpha 0.5 --enforce capped --reclaim fix --delta 0.2 --epsilon 0.2"; do
			# shellcheck disable=SC2086
			run -0 --separate-stderr ovb-trade --check $args "$T/$seed/cluster" "$T/$seed/apps" "$T/$seed/series"
			printf '%s\n' "$output" >"$T/$seed/o"
			# shellcheck disable=SC2086
			run -0 "$PY" "$ORACLE/trade.py" "$T/$seed/scenario.json" "$T/$seed/o" $args
		done
	done
}

@test "property: the oracle notices a replay under other options" {
	"$PY" "$GEN/trade.py" table2 "$T"
	ovb-trade "$T/cluster" "$T/apps" "$T/series" >"$T/o"
	run -1 "$PY" "$ORACLE/trade.py" "$T/scenario.json" "$T/o" --reclaim fix --delta 0.5
	run -1 "$PY" "$ORACLE/trade.py" "$T/scenario.json" "$T/o" --enforce capped
}

# ---------------------------------------------------------------------------
# Output and bad input.

@test "same inputs: byte-identical output, canonical (ovb-fmt leaves it alone)" {
	"$PY" "$GEN/trade.py" random 3 "$T"
	ovb-trade --enforce capped "$T/cluster" "$T/apps" "$T/series" >"$T/a"
	ovb-trade --enforce capped "$T/series" "$T/apps" "$T/cluster" >"$T/b"
	cmp "$T/a" "$T/b"
	ovb-fmt --canonical "$T/a" >"$T/c"
	cmp "$T/a" "$T/c"
	ovb-trade -r net --enforce capped "${S[@]}" | cmp - "$DATA/example.trade"
}

@test "bad input: series not aligned: 65 at the series' line, nothing written" {
	printf 'ovb-series 1\nseries s1 net\ninterval 5 s\nsample 0 1\nseries s2 net\ninterval 10 s\nsample 0 1\n' >"$T/series"
	grep -q 'interval 10 s' "$T/series"
	mkdir "$T/out"
	run -65 --separate-stderr ovb-trade -r net -o "$T/out/o" "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/series"
	[[ $stderr =~ ^ovb-trade:\ $T/series:[0-9]+:\ series\ s2\ net:\ interval\ 10\ s,\ not\ aligned ]] || fail "$stderr"
	assert_equal "$(ls -A "$T/out")" ''
}

@test "bad input: a capsule without series: 65 at the capsule's line" {
	sed '/^series s2/,$d' "$DATA/trade-stream.series" >"$T/series"
	run -65 --separate-stderr ovb-trade -r net "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/series"
	assert_equal "$output" ''
	assert_equal "$stderr" "ovb-trade: $DATA/trade-stream.apps:$(line_of '^capsule s2 ' "$DATA/trade-stream.apps"): capsule s2 of video: no net series (s2 or video/s2)"
}

@test "bad input: admission, epsilon, unknown node: 65 at the capsule's line, not the application's" {
	printf 'ovb-apps 1\n# x\napp a trade=yes\ncapsule c1 cpu=0.6 net=0 node=n1\n\ncapsule c2 cpu=0.6 net=0 node=n1\n' >"$T/apps"
	printf 'ovb-series 1\nseries c1 cpu\ninterval 5 s\nsample 0 1\nseries c2 cpu\ninterval 5 s\nsample 0 1\n' >"$T/series"
	run -65 --separate-stderr ovb-trade "$DATA/trade-stream.cluster" "$T/apps" "$T/series"
	assert_equal "$stderr" "ovb-trade: $T/apps:6: admission: capsule c2 of a brings the reservations on node n1 to 1.2 cpu, above its capacity 1"
	sed -i 's/^capsule c2 cpu=0.6 net=0 node=n1/capsule c2 cpu=0.3 net=0 node=n9/' "$T/apps"
	run -65 --separate-stderr ovb-trade "$DATA/trade-stream.cluster" "$T/apps" "$T/series"
	assert_equal "$stderr" "ovb-trade: $T/apps:6: capsule c2 of a: node n9 is not in the cluster"
	sed -i 's/^capsule c2 cpu=0.3 net=0 node=n9/capsule c2 cpu=0.3 net=0 node=n2/' "$T/apps"
	run -0 --separate-stderr ovb-trade "$DATA/trade-stream.cluster" "$T/apps" "$T/series"
	sed -i 's/^capsule c2 cpu=0.3 net=0 node=n2/capsule c2 cpu=0.3 net=0 node=n2 epsilon=1/' "$T/apps"
	run -65 --separate-stderr ovb-trade "$DATA/trade-stream.cluster" "$T/apps" "$T/series"
	assert_equal "$stderr" "ovb-trade: $T/apps:6: capsule c2 of a: epsilon 1 is outside (0, 1)"
}

@test "series in several files: one file per capsule, and one capsule's series cut in time over two files" {
	local f
	for f in s1 s2; do
		{ echo 'ovb-series 1'; sed -n "/^series $f /,/^series /p" "$DATA/trade-stream.series" | sed '${/^series /d}'; } >"$T/$f.series"
	done
	run -0 --separate-stderr ovb-trade -r net --enforce capped "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/s1.series" "$T/s2.series"
	assert_equal "$output" "$(cat "$DATA/example.trade")"
	# s1's samples at 0 and 5 in one file, at 10 and 15 in another (a month each)
	{ echo 'ovb-series 1'; sed -n '1,/^sample 5 /p' "$T/s1.series" | sed 1d; } >"$T/s1a.series"
	{ echo 'ovb-series 1'; echo 'series s1 net'; echo 'interval 5 s'; grep -E '^sample (10|15) ' "$T/s1.series"; } >"$T/s1b.series"
	run -0 --separate-stderr ovb-trade -r net --enforce capped "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/s1b.series" "$T/s2.series" "$T/s1a.series"
	assert_equal "$output" "$(cat "$DATA/example.trade")"
	# the same slot in two files: 65 at the later file's series line
	{ echo 'ovb-series 1'; echo '# again'; echo 'series s1 net'; echo 'interval 5 s'; echo 'sample 5 1'; } >"$T/dup.series"
	run -65 --separate-stderr ovb-trade -r net -o "$T/o" "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/s1a.series" "$T/s2.series" "$T/dup.series"
	assert_equal "$stderr" "ovb-trade: $T/dup.series:3: series s1 net: the sample at 5 is also in $T/s1a.series"
	[[ ! -e $T/o ]]
}

@test "RSL with several applications: capsules c1..cn of each found as APP/CAPSULE, written so" {
	cat >"$T/rsl" <<-'EOF'
	Application web New
	AggregateResv *
	TradeResources yes
	Capsules 2
	Capsule 1 Resv 0.5 Node n1 LB * Epsilon 0.1
	Capsule 2 Resv 0.5 Node n2 LB * Epsilon 0.1

	Application db New
	AggregateResv *
	TradeResources no
	Capsules 1
	Capsule 1 Resv 0.25 Node n1 LB * Epsilon *
	EOF
	printf 'ovb-series 1\nseries web/c1 cpu\ninterval 60 s\nsample 0 1\nseries web/c2 cpu\ninterval 60 s\nsample 0 0.25\n' >"$T/a.series"
	printf 'ovb-series 1\nseries db/c1 cpu\ninterval 60 s\nsample 0 0.25\n' >"$T/b.series"
	printf 'ovb-cluster 1\nnode n1 1 cpu 1 B/s\nnode n2 1 cpu 1 B/s\n' >"$T/cluster"
	run -0 --separate-stderr ovb-trade --check "$T/cluster" "$T/rsl" "$T/a.series" "$T/b.series"
	assert_line 'capsule web/c1 web n1 0.5 0 0.1'
	assert_line 'capsule db/c1 db n1 0.25 0 0.1'
	assert_line 'c web/c1 0.5 1 1 borrow 0.625'
	assert_line 'c db/c1 0.25 0.25 0.25 fixed 0.25'
	# a series named c1 alone cannot say whose it is: refused, at the capsule
	sed 's#^series db/c1 #series c1 #' "$T/b.series" >"$T/c.series"
	run -65 --separate-stderr ovb-trade "$T/cluster" "$T/rsl" "$T/a.series" "$T/c.series"
	assert_equal "$stderr" "ovb-trade: $T/rsl:12: capsule c1 of db: no cpu series db/c1 (c1 alone names capsules of several applications)"
	# an apps file whose capsule names are unique keeps bare names working
	printf 'ovb-apps 1\napp web trade=yes\ncapsule a cpu=0.5 net=0 node=n1\ncapsule b cpu=0.5 net=0 node=n2\n' >"$T/apps"
	printf 'ovb-series 1\nseries a cpu\ninterval 60 s\nsample 0 1\nseries web/b cpu\ninterval 60 s\nsample 0 0.25\n' >"$T/d.series"
	run -0 --separate-stderr ovb-trade --check "$T/cluster" "$T/apps" "$T/d.series"
	assert_line 'c a 0.5 1 1 borrow 0.75'
}

@test "property: >= 40 random scenarios, several applications named alike (RSL on odd seeds), series over several files: the replay agrees" {
	local seed args opts=("" "--enforce capped" "--n1 borrowers --reclaim fix" "--alpha 0.5 --enforce capped --reclaim fix --delta 0.2 --epsilon 0.2" "--n1 above-r --alpha 0.3")
	for seed in $(seq 1 40); do
		mkdir -p "$T/$seed"
		"$PY" "$GEN/trade.py" split "$seed" "$T/$seed"
		args=${opts[$((seed % 5))]}
		# shellcheck disable=SC2086,SC2046
		run -0 --separate-stderr ovb-trade --check $args "$T/$seed/cluster" "$T/$seed/apps" $(cat "$T/$seed/files")
		printf '%s\n' "$output" >"$T/$seed/o"
		# shellcheck disable=SC2086
		run -0 "$PY" "$ORACLE/trade.py" "$T/$seed/scenario.json" "$T/$seed/o" $args
	done
}

@test "exact class boundaries: Table 2 in percent (capacity 100) classes every capsule as Table 2 in cpu, in every setting" {
	"$PY" "$GEN/trade.py" table2 "$T"
	mkdir "$T/p"
	sed 's/ 1 cpu / 100 cpu /' "$T/cluster" >"$T/p/cluster"
	"$PY" -c '
import re, sys
s = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"cpu=([0-9.]+)", lambda m: "cpu=%d" % round(float(m.group(1)) * 100), s))
s = open(sys.argv[3]).read()
open(sys.argv[4], "w").write(re.sub(r"^(sample \d+) 1\.0$", r"\1 100", s, flags=re.M))' \
		"$T/apps" "$T/p/apps" "$T/series" "$T/p/series"
	# at 36 min Step 4 takes Sci-N3's whole excess: exactly R, not 30.000000000000007
	ovb-trade "$T/p/cluster" "$T/p/apps" "$T/p/series" >"$T/p/o"
	assert_equal "$(field Scientific-N3 $((36 * 60)) 7 "$T/p/o")" 30
	local a e r n
	for a in 1 0.3; do for e in work-conserving capped; do for r in paper fix; do for n in all above-r; do
		cmp <(ovb-trade --alpha $a --enforce $e --reclaim $r --n1 $n "$T/cluster" "$T/apps" "$T/series" | awk '$1 == "c" { print $2, $6 }') \
			<(ovb-trade --alpha $a --enforce $e --reclaim $r --n1 $n "$T/p/cluster" "$T/p/apps" "$T/p/series" | awk '$1 == "c" { print $2, $6 }') ||
			fail "classes differ: --alpha $a --enforce $e --reclaim $r --n1 $n"
	done; done; done; done
}

@test "N1 = above-r (only borrowers holding A > R): on Table 2 at 36 min without Step 4 Sci-N3 returns all it borrowed; the other readings a third" {
	"$PY" "$GEN/trade.py" table2 "$T"
	local n1
	for n1 in all borrowers above-r; do
		run -0 --separate-stderr ovb-trade --n1 $n1 --no-step4 "$T/cluster" "$T/apps" "$T/series"
		printf '%s\n' "$output" >"$T/$n1"
		run -0 "$PY" "$ORACLE/trade.py" "$T/scenario.json" "$T/$n1" --n1 $n1 --no-step4
	done
	# the node term (1 - 1.1) / N1 is the smaller: N1 = 3 under all and
	# borrowers (0.4 - 1/30), 1 under above-r (0.4 - 0.1 = R)
	near "$(field Scientific-N3 2160 7 "$T/all")" 0.36666666666666666
	near "$(field Scientific-N3 2160 7 "$T/borrowers")" 0.36666666666666666
	assert_equal "$(field Scientific-N3 2160 7 "$T/above-r")" 0.3
	# with Step 4 all three give 0.3 (Step 4 cuts the rest of the excess)
	for n1 in all borrowers above-r; do
		ovb-trade --n1 $n1 "$T/cluster" "$T/apps" "$T/series" >"$T/s4"
		assert_equal "$(field Scientific-N3 2160 7 "$T/s4")" 0.3
	done
}

@test "6.4 with alpha 0.5 and a token bucket (the paper's rule, not a defect): the streams never borrow above R" {
	"$PY" -c '
print("ovb-series 1")
for c in ("s1", "s2"):
    print("series %s net\ninterval 5 s" % c)
    for k in range(180):
        print("sample %d %d" % (5 * k, 562500 if c == "s1" and k >= 60 else 375000))' >"$T/s"
	ovb-trade -r net --alpha 0.5 --enforce capped --check "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/s" >"$T/o"
	# NEXT never above R = 500000 (4 Mb/s); before 5 min both streams are
	# held below the 375000 (3 Mb/s) they need
	run -0 awk '$1 == "c" && $7 > 500000 { n++ } END { print n + 0 }' "$T/o"
	assert_output 0
	run -0 awk '$1 == "at" { at = $2 } $1 == "c" && at == 295 && $3 < 375000 { n++ } END { print n + 0 }' "$T/o"
	assert_output 2
	# with alpha 1 s1 borrows
	ovb-trade -r net --enforce capped "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/s" >"$T/o1"
	run -0 awk '$1 == "c" && $2 == "s1" && $7 > 500000 { n++ } END { print (n > 0) }' "$T/o1"
	assert_output 1
}

@test "bad input: an RSL exceeding admission on a node: 65 at its line" {
	cat >"$T/rsl" <<-'EOF'
	Application video New
	AggregateResv *
	TradeResources yes
	Capsules 2
	Capsule 1 Resv 0.6 Node n1 LB * Epsilon 0.1
	Capsule 2 Resv 0.6 Node n1 LB * Epsilon 0.1
	EOF
	printf 'ovb-series 1\nseries c1 cpu\ninterval 5 s\nsample 0 1\nseries c2 cpu\ninterval 5 s\nsample 0 1\n' >"$T/series"
	run -65 --separate-stderr ovb-trade -o "$T/o" "$DATA/trade-stream.cluster" "$T/rsl" "$T/series"
	[[ $stderr == "ovb-trade: $T/rsl:"[0-9]*": admission: capsule "*" brings the reservations on node n1 to 1.2 cpu, above its capacity 1" ]] || fail "$stderr"
	[[ ! -e $T/o ]]
}

@test "bad input: alpha outside (0, 1] and bad choices are usage errors (64)" {
	local a
	for a in 0 1.5 -0.1 x; do
		run -64 --separate-stderr ovb-trade --alpha "$a" "${S[@]}"
		assert_equal "$output" ''
	done
	run -64 --separate-stderr ovb-trade --enforce strict "${S[@]}"
	run -64 --separate-stderr ovb-trade --n1 some "${S[@]}"
	run -64 --separate-stderr ovb-trade --reclaim maybe "${S[@]}"
}

@test "format: bad trade files are 65 at the line" {
	# alpha in a file is bad data (65 at FILE:LINE, nothing written); on
	# the command line (--alpha) it is a usage error (64, test above)
	local a
	for a in 0 -0.5 1.5 1.0000001; do
		variant "alpha$a" "$DATA/example.trade" "s/^trade net 5 1 capped/trade net 5 $a capped/"
		run -65 --separate-stderr ovb-fmt -o "$T/fmt-out" "$BAD"
		[[ $stderr == "ovb-fmt: $BAD:3: alpha: "* ]] || fail "alpha $a: $stderr"
		[[ ! -e $T/fmt-out ]] || fail "alpha $a: -o was written"
	done
	variant bad1 "$DATA/example.trade" 's/^trade net 5 1 capped/trade net 5 0 capped/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == "ovb-fmt: $BAD:3: alpha: 0 is outside (0, 1]" ]] || fail "$stderr"
	variant bad2 "$DATA/example.trade" 's/^c s1 625000 562500 562500 under/c s1 625000 562500 562500 lend/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"class: 'lend'"* ]] || fail "$stderr"
	variant bad3 "$DATA/example.trade" 's/^at 10$/at 5/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"not after the previous"* ]] || fail "$stderr"
	variant bad4 "$DATA/example.trade" 's/^n n2 375000 375000$/n n1 375000 375000/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"node 'n1' twice in one interval"* ]] || fail "$stderr"
	variant bad5 "$DATA/example.trade" 's/^capsule s2 video n2/capsule s2 video n9/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"node 'n9' is not declared"* ]] || fail "$stderr"
}

@test "plan: placement and R of profiled capsules from the plan, rejected applications left out" {
	printf 'ovb-series 1\n' >"$T/series"
	local c
	for c in web db w1 w2; do
		printf 'series %s cpu\ninterval 300 s\nsample 0 0.5\nsample 300 0.5\n' "$c" >>"$T/series"
	done
	run -0 --separate-stderr ovb-trade --check "$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.plan" "$T/series"
	assert_line 'capsule web shop n1 0.95 0 0.1'
	assert_line 'capsule db shop n3 1.3 0 0.1'
	assert_line 'capsule w1 batch n2 1 0.5 0.1'
	assert_line 'capsule w2 batch n4 1 0.5 0.1'
	refute_line --partial 'capsule big'
	refute_line --partial 'app huge'
	# without the plan the profiled capsules have no reservation
	run -65 --separate-stderr ovb-trade "$DATA/example.cluster" "$DATA/example.apps" "$T/series"
	[[ $stderr == *"capsule web of shop: profiled, and in no plan" ]] || fail "$stderr"
}

@test "bad input: series spanning more than 10^8 intervals: 65, nothing written" {
	printf 'ovb-series 1\nseries s1 net\ninterval 1 s\nsample 0 1\nseries s2 net\ninterval 1 s\nsample 100000000 1\n' >"$T/series"
	run -65 --separate-stderr ovb-trade -r net -o "$T/o" "$DATA/trade-stream.cluster" "$DATA/trade-stream.apps" "$T/series"
	assert_equal "$stderr" "ovb-trade: $T/series:5: series s2 net: the series span more than 100000000 intervals of 1 s"
	[[ ! -e $T/o ]]
}

@test "N1: with a needy non-trading capsule on the node the two readings differ" {
	# n1: F (no trading, R 0.5, busy) and t1 (R 0.3, busy); t2 on n2 (R
	# 0.7) uses 0.1 and lends 0.6.  Node n1's spare 0.2 is split over N1:
	# all = 2 (F and t1 have U >= A) gives t1 0.1 more, borrowers = 1 0.2
	printf 'ovb-cluster 1\nnode n1 1 cpu 1 B/s\nnode n2 1 cpu 1 B/s\n' >"$T/cluster"
	printf 'ovb-apps 1\napp F\ncapsule f cpu=0.5 net=0 node=n1\napp T trade=yes\ncapsule t1 cpu=0.3 net=0 node=n1\ncapsule t2 cpu=0.7 net=0 node=n2\n' >"$T/apps"
	printf 'ovb-series 1\nseries f cpu\ninterval 60 s\nsample 0 1\nseries t1 cpu\ninterval 60 s\nsample 0 1\nseries t2 cpu\ninterval 60 s\nsample 0 0.1\n' >"$T/series"
	ovb-trade --n1 all --check "$T/cluster" "$T/apps" "$T/series" >"$T/all"
	ovb-trade --n1 borrowers --check "$T/cluster" "$T/apps" "$T/series" >"$T/b"
	near "$(field t1 0 7 "$T/all")" 0.4
	near "$(field t1 0 7 "$T/b")" 0.5
	assert_equal "$(field f 0 7 "$T/all")" 0.5
}

@test "write errors in the writer thread (an output past the 1 MiB buffer): the reason, once, exit 74" {
	mkdir "$T/big"
	$PY "$GEN/trade.py" large 80 600 "$T/big" >/dev/null
	B=("$T/big/cluster" "$T/big/apps" "$T/big/series")
	run -74 --separate-stderr ovb-trade -o /dev/full "${B[@]}"
	assert_equal "$stderr" "ovb-trade: /dev/full: write error: No space left on device"
	run -74 --separate-stderr bash -c 'ovb-trade "$@" >/dev/full' _ "${B[@]}"
	assert_equal "$stderr" "ovb-trade: <stdout>: write error: No space left on device"
	run -0 --separate-stderr bash -c 'trap "" PIPE; ovb-trade "$@" | head -c 10 >/dev/null; echo "${PIPESTATUS[0]}"' _ "${B[@]}"
	assert_output 74
	assert_equal "$stderr" "ovb-trade: <stdout>: write error: Broken pipe"
	# with room, -o and stdout give the same bytes
	ovb-trade -o "$T/o" "${B[@]}"
	ovb-trade "${B[@]}" | cmp - "$T/o"
}
