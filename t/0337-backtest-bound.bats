#!/usr/bin/env bats
# bench/backtest-bound.py and ovb-backtest's bound records: the fewest
# nodes any placement of a backtest's VMs could have used (cpu: every
# node held, in hindsight; memory: the limits within MEM + POOL, the rule
# every method keeps), and so the largest density any method could have
# reached.  The bound is checked
# against every real placement of ovb-backtest (--check: a placement with
# fewer nodes would prove it wrong), on hand-made series with bounds
# worked out by hand, and on the Bitbrains sample, where it shows that
# issue 14's density line (1.2x the sum of (1-O) percentiles) is out of
# reach of every method on 16-CPU nodes.  The Bitbrains runs skip when
# ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup_file() {
	local bb="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd" m
	[[ -d $bb/2013-7 && -d $bb/2013-8 && -d $bb/2013-9 ]] || return 0
	for m in 7 8 9; do
		"$BATS_TEST_DIRNAME/../bin/ovb-import" -q --bitbrains \
			"$bb/2013-$m"/*.csv.gz -o "$BATS_FILE_TMPDIR/$m.series"
	done
}

setup() {
	load test_helper
	BOUND="$BATS_TEST_DIRNAME/../bench/backtest-bound.py"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	S=$DATA/backtest-small.series
	SMALL=(--start 0 --train 600s --replay 600s --cpus 4)
}

# The bound's line of configuration $1 in $2: "nodes bound best/pct".
row() {
	awk -v id="$1" '$1 == id { print $8, $9, $13 }' "$2"
}

# bitbrains: skips without the Bitbrains sample, else sets ser to its
# three months' series (imported once, by setup_file)
bitbrains() {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	ser=("$BATS_FILE_TMPDIR/7.series" "$BATS_FILE_TMPDIR/8.series"
		"$BATS_FILE_TMPDIR/9.series")
}

# sound_bound FILE: no placement of FILE beats the bound; the bound's
# lines into FILE.bound, pct's on fd 3
sound_bound() {
	run -0 python3 "$BOUND" --check "$1" "${ser[@]}"
	assert_output sound
	python3 "$BOUND" "$1" "${ser[@]}" >"$1.bound"
	awk '$2 == "pct"' "$1.bound" >&3
}

@test "hand-made: O = 0, cpu: the bound is the nodes worked out by hand" {
	# period 1, [600, 1200): the sums are 3 + 1.5 + 0.5 = 5 and 3.5, so
	# one 4-CPU node overflows once (O = 0: none allowed) and two do not:
	# 2 nodes; period 2: c has no sample (zero usage), the sums 4 and 2
	# are within one node: bound 1.
	# pct (the peaks at O = 0) uses 2 nodes in each period.
	ovb-backtest "${SMALL[@]}" --tolerance 0 -m pct,peak "$S" >"$T/bt"
	run -0 --separate-stderr python3 "$BOUND" "$T/bt" "$S"
	assert_equal "$(row c1 <(printf '%s\n' "$output"))" '4 3 1.33'
	run -0 python3 "$BOUND" --check "$T/bt" "$S"
	assert_output sound
}

@test "hand-made: O = 0.5 lets one node take period 1 (one overflow of two slots)" {
	ovb-backtest "${SMALL[@]}" --tolerance 0.5 -m pct "$S" >"$T/bt"
	run -0 --separate-stderr python3 "$BOUND" "$T/bt" "$S"
	assert_equal "$(row c1 <(printf '%s\n' "$output"))" '2 2 1.00'
}

@test "--check fails on a placement with fewer nodes than the cpu bound, every one held" {
	ovb-backtest "${SMALL[@]}" --tolerance 0 -m peak "$S" >"$T/bt"
	python3 "$BOUND" --check "$T/bt" "$S"
	# period 1 on one node, said to hold: 5 > 4 in one of two slots at O = 0
	awk '$1 == "place" && $3 == 1 { $5 = "n1" }
	     $1 == "node" && $3 == 1 && $4 != "n1" { next }
	     $1 == "node" && $3 == 1 { $5 = 3 }
	     $1 == "period" && $3 == 1 { $8 = 1 }
	     { print }' "$T/bt" >"$T/one"
	run -1 python3 "$BOUND" --check "$T/one" "$S"
	assert_output 'c1 period 1: 1 nodes, every one held, < the cpu bound 2'
}

@test "memory: the limits need 2 nodes of 3 GiB + 0.75 in each period; one node fails --check" {
	# period 1's limits (training [0, 600)): a 1.15 x 2 GiB, b and c
	# 1.15 x their peaks, more than 3.75 GiB together; period 2's too
	local M=$DATA/backtest-mem.series
	ovb-backtest "${SMALL[@]}" --tolerance 0.5 --mem-window 300s --mem 3 \
		-m pct "$M" >"$T/bt"
	run -0 python3 "$BOUND" --check --mem-window 300 "$T/bt" "$M"
	assert_output sound
	run -0 --separate-stderr python3 "$BOUND" --mem-window 300 "$T/bt" "$M"
	assert_equal "$(row c1 <(printf '%s\n' "$output"))" '4 4 1.00'
	awk '$1 == "place" && $3 == 1 { $5 = "n1" } { print }' "$T/bt" >"$T/one"
	run -1 python3 "$BOUND" --check --mem-window 300 "$T/one" "$M"
	assert_output 'c1 period 1: 1 nodes < the memory bound 2'
}

@test "bitbrains: 16-CPU nodes: no method could have packed 1.2x as densely as pct" {
	bitbrains
	# memory modeled (the defaults: 64 GiB nodes, a 16 GiB pool): the
	# limits alone need 17 or 18 nodes over the 9 weeks; pct uses 18
	ovb-backtest -q --cpus 16 "${ser[@]}" >"$T/mem"
	sound_bound "$T/mem"
	# ovb-backtest's own bound records add up to the same
	assert_equal "$(awk '$1 == "bound" { s[$2] += $4 } END { for (c in s) print c, s[c] }' "$T/mem" | sort)" \
		"$(awk '!/^#/ { print $1, $9 }' "$T/mem.bound" | sort)"
	[[ -z $(awk '!/^#/ && ($13 >= 1.2 || $14 >= 1.2)' "$T/mem.bound") ]] ||
		fail "a configuration in which 1.2x pct's density is within the bound"
	# cpu alone, O = 5%: pct puts every VM on one node each week
	ovb-backtest -q --mem 0 --cpus 16 --tolerance 0.05 "${ser[@]}" >"$T/cpu"
	sound_bound "$T/cpu"
	[[ $(awk '$2 == "pct" { print $8 == $9 && $13 == "1.00" }' "$T/cpu.bound" | sort -u) == 1 ]] ||
		fail "pct does not use the bound's nodes"
	[[ -z $(awk '$1 == "config" { m = $3 } $1 == "period" && m == "pct" && $8 != 1' "$T/cpu") ]] ||
		fail "a period on more than one node"
}

@test "bitbrains: 4- and 8-CPU nodes, every method, broken nodes too: the bound is never beaten" {
	bitbrains
	ovb-backtest -q --cpus 4,8 --train 14d "${ser[@]}" >"$T/bt"
	grep -q ' broken ' "$T/bt" || fail "no broken node: the test needs some"
	run -0 python3 "$BOUND" --check "$T/bt" "${ser[@]}"
	assert_output sound
	# from last week's plan (at most one move a week) a node may stay
	# above MEM + POOL: only the cpu bound applies
	ovb-backtest -q --max-moves 1 --cpus 4 --train 14d "${ser[@]}" >"$T/rep"
	run -0 python3 "$BOUND" --check "$T/rep" "${ser[@]}"
	assert_output sound
}

@test "random series (30 seeds), exact sums at the node sizes: the bound records equal the oracle's, no placement beats them" {
	local s O mode args n=0 multi=0
	for s in $(seq 1 30); do
		python3 "$BATS_TEST_DIRNAME/gen/bound_series.py" "$s" >"$T/s"
		O=$(printf '0\n0.01\n0.05\n0.25\n0.5\n' | sed -n "$((s % 5 + 1))p")
		args=(--start 0 --train 7d,14d --replay 7d --cpus 1,2,4 --tolerance "$O")
		case $((s % 3)) in
		0) args+=(--mem 0) ;;
		1) args+=(--mem 1,2,3) ;;
		2) args+=(--mem 1,2,3 --max-moves 1) ;;
		esac
		ovb-backtest -q "${args[@]}" "$T/s" >"$T/bt"
		run -0 python3 "$BATS_TEST_DIRNAME/oracle/backtest.py" "$T/bt" --series "$T/s"
		assert_output agree
		run -0 python3 "$BOUND" --check "$T/bt" "$T/s"
		assert_output sound
		n=$((n + $(grep -c '^bound ' "$T/bt")))
		multi=$((multi + $(awk '$1 == "bound" && $5 > 1' "$T/bt" | wc -l)))
	done
	echo "# $n bound records, $multi with a cpu bound above 1 node" >&3
	((multi > 100)) || fail "only $multi bounds above 1 node: the test needs more"
	# the oracle notices a bound one node off (NODES and CPU together)
	ovb-backtest "${SMALL[@]}" --tolerance 0.5 -m pct "$S" >"$T/bt"
	grep -qx 'bound c1 1 1 1 0' "$T/bt"
	sed 's/^bound c1 1 1 1 0$/bound c1 1 2 2 0/' "$T/bt" >"$T/off"
	run -1 python3 "$BATS_TEST_DIRNAME/oracle/backtest.py" "$T/off" --series "$S"
	assert_output --partial 'c1 period 1 bound: table (2, 2, 0), oracle (1, 1, 0)'
}
