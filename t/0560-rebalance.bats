#!/usr/bin/env bats
# ovb-rebalance: Merkat's Algorithm 1 (tabu search), fixed, against the
# exhaustive search and the plan checker of t/oracle/market.py.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	PY=/usr/bin/python3
	ORACLE=$BATS_TEST_DIRNAME/oracle/market.py
	GEN=$BATS_TEST_DIRNAME/gen/market.py
}

errof() {
	awk -v k="$1" '$1 == "error" && $2 == k { print $3 }' "$2"
}

@test "rebalance: Fig. 3 from a bad placement reaches the exhaustive optimum 1/9, plan checked" {
	cat >"$T/bids" <<-'B'
	ovb-bids 1
	vm v1 n1
	bid v1 cpu 12 credit 100 cpu
	vm v2 n1
	bid v2 cpu 12 credit 100 cpu
	vm v3 n2
	bid v3 cpu 12 credit 100 cpu
	vm v4 n1
	bid v4 cpu 30 credit 100 cpu
	vm v5 n1
	bid v5 cpu 30 credit 100 cpu
	B
	ovb-rebalance "$DATA/market-fig3.cluster" "$T/bids" >"$T/plan"
	ovb-fmt "$T/plan"
	run -0 "$PY" "$ORACLE" check "$DATA/market-fig3.cluster" "$T/bids" "$T/plan" 5
	run -0 "$PY" "$ORACLE" best "$DATA/market-fig3.cluster" "$T/bids"
	read -r _ best _ _ <<<"$output"
	"$PY" -c "import sys; a, b = map(float, sys.argv[1:]); assert abs(a - b) <= 1e-12, (a, b)" \
		"$(errof after "$T/plan")" "$best"
	# the input's error, recomputed by the oracle: 5/3 (v1 v2 v4 v5 on n1)
	"$PY" -c "import sys; assert abs(float(sys.argv[1]) - 5/3) <= 1e-12" "$(errof before "$T/plan")"
	# an optimal input needs no move
	run -0 --separate-stderr ovb-rebalance "$DATA/market-fig3.cluster" "$DATA/example.bids"
	refute_line --regexp '^move'
}

@test "rebalance: reaches the exhaustive optimum on >= 90% of 40 small random instances (3-4 nodes, 5-6 VMs, mem on half)" {
	local s hit=0 n=0 best after
	for s in $(seq 1 40); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" $((3 + s % 2)) $((5 + s % 2)) $( ((s % 2)) && echo --mem)
		ovb-rebalance --seed "$s" "$T/$s/cluster" "$T/$s/bids" >"$T/$s/plan"
		$PY "$ORACLE" check "$T/$s/cluster" "$T/$s/bids" "$T/$s/plan" 1000 >/dev/null ||
			fail "instance $s: the plan does not check"
		read -r _ best _ _ < <($PY "$ORACLE" best "$T/$s/cluster" "$T/$s/bids")
		after=$(errof after "$T/$s/plan")
		n=$((n + 1))
		$PY -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(a > b * (1 + 1e-9) + 1e-12)" \
			"$after" "$best" && hit=$((hit + 1))
	done
	echo "# optimum reached on $hit of $n" >&3
	((hit * 10 >= n * 9)) || fail "optimum on $hit of $n only"
}

@test "rebalance: never more than M_max moves, never worse than the input, mem never overcommitted" {
	local s m
	for s in $(seq 201 230); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" 4 12 $( ((s % 2)) && echo --mem)
		for m in 0 1 2 5; do
			ovb-rebalance --mmax $m --seed "$s" "$T/$s/cluster" "$T/$s/bids" >"$T/$s/plan.$m"
			# check: moves <= m, error after recomputed, after <= before, mem fits
			$PY "$ORACLE" check "$T/$s/cluster" "$T/$s/bids" "$T/$s/plan.$m" $m >/dev/null ||
				fail "instance $s, M_max $m"
		done
		run -1 grep -c '^move' "$T/$s/plan.0"
		assert_output 0
	done
}

@test "rebalance: new VMs are deployed on the least loaded node first, then the search runs" {
	cat >"$T/bids" <<-'B'
	ovb-bids 1
	vm a n1
	bid a cpu 30 credit 100 cpu
	vm b n2
	bid b cpu 12 credit 100 cpu
	vm c n2
	bid c cpu 12 credit 100 cpu
	vm d -
	bid d cpu 12 credit 100 cpu
	B
	# n3 is empty: least loaded; with --niter 1 --emax 10 the search stops at once
	run -0 --separate-stderr ovb-rebalance --emax 10 "$DATA/market-fig3.cluster" "$T/bids"
	assert_line "deploy d n3"
	run -0 "$PY" "$ORACLE" check "$DATA/market-fig3.cluster" "$T/bids" <(ovb-rebalance "$DATA/market-fig3.cluster" "$T/bids") 4
}

@test "rebalance: deterministic for a seed; the plan is a valid ovb-migrations file" {
	mkdir -p "$T/x"
	$PY "$GEN" "$T/x" 7 5 20 --mem
	ovb-rebalance --seed 3 "$T/x/cluster" "$T/x/bids" >"$T/p1"
	ovb-rebalance --seed 3 "$T/x/cluster" "$T/x/bids" >"$T/p2"
	cmp "$T/p1" "$T/p2"
	run -0 --separate-stderr ovb-fmt -c "$T/p1"
	assert_equal "$output" "$(cat "$T/p1")"
	run -64 --separate-stderr ovb-rebalance --mmax -1 "$T/x/cluster" "$T/x/bids"
	run -64 --separate-stderr ovb-rebalance --niter 0 "$T/x/cluster" "$T/x/bids"
}

@test "rebalance: an input placement that overcommits a node's mem: 65 at the VM's line, nothing written" {
	sed 's/ mem=10240$/ mem=3100/' "$DATA/market-fig3.cluster" >"$T/cluster"
	sed -E 's/^(bid (v[0-9]) cpu .*)$/\1\nbid \2 mem 1 credit 1024 MiB/' "$DATA/example.bids" >"$T/bids"
	run -0 --separate-stderr ovb-rebalance "$T/cluster" "$T/bids"
	sed -i 's/^vm v4 n2$/vm v4 n1/' "$T/bids"
	run -65 --separate-stderr ovb-rebalance -o "$T/out" "$T/cluster" "$T/bids"
	assert_equal "$stderr" "ovb-rebalance: $T/bids:$(line_of '^vm v4 ' "$T/bids"): vm v4: node n1's mem is overcommitted: its vms' mem a_max sum to 4096 MiB > 3100 MiB"
	[[ ! -e $T/out ]]
}

@test "rebalance: with 2 VMs of mem per node, Fig. 3's optimum is out of reach: the constrained optimum, mem checked after every step" {
	sed 's/ mem=10240$/ mem=2048/' "$DATA/market-fig3.cluster" >"$T/cluster"
	cat >"$T/bids" <<-'B'
	ovb-bids 1
	vm v1 n1
	bid v1 cpu 12 credit 100 cpu
	bid v1 mem 1 credit 1024 MiB
	vm v2 n2
	bid v2 cpu 12 credit 100 cpu
	bid v2 mem 1 credit 1024 MiB
	vm v3 n1
	bid v3 cpu 30 credit 100 cpu
	bid v3 mem 1 credit 1024 MiB
	vm v4 n2
	bid v4 cpu 30 credit 100 cpu
	bid v4 mem 1 credit 1024 MiB
	vm v5 n3
	bid v5 cpu 12 credit 100 cpu
	bid v5 mem 1 credit 1024 MiB
	B
	ovb-rebalance "$T/cluster" "$T/bids" >"$T/plan"
	run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan" 5
	run -0 "$PY" "$ORACLE" best "$T/cluster" "$T/bids"
	read -r bestq best _ total <<<"$output"
	# 243 placements less those with 3 or more VMs on a node
	assert_equal "$total" 90
	[[ $bestq != 1/9 ]]
	"$PY" -c "import sys; a, b = map(float, sys.argv[1:]); assert abs(a - b) <= 1e-12, (a, b)" \
		"$(errof after "$T/plan")" "$best"
}

@test "rebalance: issue 28's plan runs in the order written: every step within memory (was: deploy v1 n2, move v2 n3 n2 at 5120 > 4096 MiB)" {
	printf 'ovb-cluster 1\nnode n1 16 cpu 1 B/s mem=4096\nnode n2 16 cpu 1 B/s mem=4096\nnode n3 16 cpu 1 B/s mem=4096\n' >"$T/cluster"
	cat >"$T/bids" <<-'B'
	ovb-bids 1
	vm v1 -
	bid v1 cpu 26 credit 16 cpu
	bid v1 mem 1 credit 1024 MiB
	vm v2 n3
	bid v2 cpu 10 credit 8 cpu
	bid v2 mem 1 credit 2048 MiB
	vm v3 n2
	bid v3 cpu 26 credit 8 cpu
	bid v3 mem 1 credit 2048 MiB
	vm v4 n3
	bid v4 cpu 29 credit 8 cpu
	bid v4 mem 1 credit 1024 MiB
	vm v5 n1
	bid v5 cpu 11 credit 8 cpu
	bid v5 mem 1 credit 4096 MiB
	B
	local m
	for m in "" 0 1 2; do
		ovb-rebalance ${m:+--mmax $m} "$T/cluster" "$T/bids" >"$T/plan$m"
		run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan$m" "${m:-100}"
		# the best an executable order of at most M_max moves reaches
		run -0 "$PY" "$ORACLE" best "$T/cluster" "$T/bids" "${m:-100}"
		read -r _ best _ <<<"$output"
		"$PY" -c "import sys; a, b = map(float, sys.argv[1:]); assert abs(a - b) <= 1e-12, (a, b)" \
			"$(errof after "$T/plan$m")" "$best"
	done
}

# swap CLUSTER-N3-MEM: a (2048 MiB, bid 3) on n1 and b (2048 MiB, bid 1) on
# n2, 1024 MiB free on each; c (2048 MiB, bid 2) on n3.  Error 0 needs a on
# n2 and b on n1: a swap.
swap() {
	printf 'ovb-cluster 1\nnode n1 10 cpu 1 B/s mem=3072\nnode n2 30 cpu 1 B/s mem=3072\nnode n3 20 cpu 1 B/s mem=%s\n' "$1" >"$T/cluster"
	cat >"$T/bids" <<-'B'
	ovb-bids 1
	vm a n1
	bid a cpu 3 credit 30 cpu
	bid a mem 1 credit 2048 MiB
	vm b n2
	bid b cpu 1 credit 30 cpu
	bid b mem 1 credit 2048 MiB
	vm c n3
	bid c cpu 2 credit 30 cpu
	bid c mem 1 credit 2048 MiB
	B
}

@test "rebalance: a swap of two 2048 MiB vms between nodes with 1024 MiB free goes through a third node with room, the staging move counted in M_max" {
	swap 4096
	run -0 --separate-stderr ovb-rebalance "$T/cluster" "$T/bids"
	printf '%s\n' "$output" >"$T/plan"
	assert_equal "$(errof after "$T/plan")" 0
	# 3 moves: one of them staged on n3, then on to its place
	assert_equal "$(grep -c '^move' "$T/plan")" 3
	run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan" 3
	# M_max 2 cannot pay for the staging: the 3-move plan is refused with
	# the reason, and the best 2 moves reach is written
	run -0 --separate-stderr ovb-rebalance --mmax 2 "$T/cluster" "$T/bids"
	printf '%s\n' "$output" >"$T/plan2"
	[[ $stderr == "ovb-rebalance: note: a placement of max error 0 needs 3 moves (staging included), above M_max 2; the plan reaches max error "* ]] || fail "$stderr"
	run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan2" 2
	run -0 "$PY" "$ORACLE" best "$T/cluster" "$T/bids" 2
	read -r _ best _ <<<"$output"
	"$PY" -c "import sys; a, b = map(float, sys.argv[1:]); assert 0 < a and abs(a - b) <= 1e-12, (a, b)" \
		"$(errof after "$T/plan2")" "$best"
}

@test "rebalance: a swap that no order can run (no node with room to stage): refused with the reason, nothing moves" {
	swap 2048
	run -0 --separate-stderr ovb-rebalance "$T/cluster" "$T/bids"
	printf '%s\n' "$output" >"$T/plan"
	[[ $stderr == "ovb-rebalance: note: a placement of max error 0 fits in memory, but no order of moves reaches it"* ]] || fail "$stderr"
	refute_line --regexp '^move'
	assert_equal "$(errof after "$T/plan")" "$(errof before "$T/plan")"
	run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan" 0
}

@test "rebalance: Fig. 3 from {v1,v2},{v3,v4},{v5}: one move (v3 to n1) reaches the optimum 1/9, with M_max = 1 too" {
	cat >"$T/bids" <<-'B'
	ovb-bids 1
	vm v1 n1
	bid v1 cpu 12 credit 100 cpu
	vm v2 n1
	bid v2 cpu 12 credit 100 cpu
	vm v3 n2
	bid v3 cpu 12 credit 100 cpu
	vm v4 n2
	bid v4 cpu 30 credit 100 cpu
	vm v5 n3
	bid v5 cpu 30 credit 100 cpu
	B
	local m
	for m in "" 1; do
		run -0 --separate-stderr ovb-rebalance ${m:+--mmax $m} "$DATA/market-fig3.cluster" "$T/bids"
		printf '%s\n' "$output" >"$T/plan"
		assert_equal "$(grep -c '^move' "$T/plan")" 1
		assert_line 'move v3 n2 n1'
		"$PY" -c "import sys; assert abs(float(sys.argv[1]) - 1/9) <= 1e-12" "$(errof after "$T/plan")"
		run -0 "$PY" "$ORACLE" check "$DATA/market-fig3.cluster" "$T/bids" "$T/plan" 1
	done
}

@test "property: 45 random instances (tight memory, new vms, M_max 0-3 or none), plans replayed move by move; small ones at the reachable optimum" {
	run -0 "$PY" "$BATS_TEST_DIRNAME/oracle/rebalance_prop.py" "$T" 1 45
	echo "# ${lines[*]}" >&3
	assert_line --partial 'failed 0'
	assert_line --regexp '^small: optimum reached within M_max by an executable order ([0-9]+) of \1 '
}

@test "migrations: a staged vm's steps chain (FROM = its previous TO); a deploy after another step, or a broken chain, is 65 at the line" {
	printf 'ovb-migrations 1\nmove a n1 n3\nmove b n2 n1\nmove a n3 n2\n' >"$T/ok"
	run -0 --separate-stderr ovb-fmt -c "$T/ok"
	printf 'ovb-migrations 1\nmove a n1 n3\nmove a n2 n1\n' >"$T/bad"
	run -65 --separate-stderr ovb-fmt "$T/bad"
	assert_equal "$stderr" "ovb-fmt: $T/bad:3: vm a moves from n2, but its step at line 2 took it to n3"
	printf 'ovb-migrations 1\nmove a n1 n3\ndeploy a n2\n' >"$T/bad2"
	run -65 --separate-stderr ovb-fmt "$T/bad2"
	assert_equal "$stderr" "ovb-fmt: $T/bad2:3: deploy of vm a, which has a step before (line 2)"
}

@test "rebalance --tabu: the tabu search's greedy plan stages the swap through n3 too, and with M_max 2 falls back to an earlier best, saying why" {
	swap 4096
	run -0 --separate-stderr ovb-rebalance --tabu "$T/cluster" "$T/bids"
	printf '%s\n' "$output" >"$T/plan"
	assert_equal "$(errof after "$T/plan")" 0
	assert_equal "$(grep -c '^move' "$T/plan")" 3
	run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan" 3
	run -0 --separate-stderr ovb-rebalance --tabu --mmax 2 "$T/cluster" "$T/bids"
	printf '%s\n' "$output" >"$T/plan2"
	[[ $stderr == "ovb-rebalance: note: the best placement found (max error 0) needs 3 moves (staging included), above M_max 2; the plan reaches max error "* ]] || fail "$stderr"
	run -0 "$PY" "$ORACLE" check "$T/cluster" "$T/bids" "$T/plan2" 2
	[[ $(errof after "$T/plan2") != 0 ]]
}
