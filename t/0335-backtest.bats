#!/usr/bin/env bats
# ovb-backtest: placement methods profiled on a training window, placed,
# and replayed on the next period, per configuration.
#
# t/data/backtest-small.series is hand-made (three VMs, two periods of two
# slots, one VM without samples in the second); t/data/backtest-mem.series
# is the same with the VMs' memory.  t/oracle/backtest.py
# replays every plan of a table again, independently (exact sums as fsum
# or Fractions), from ovb-series files or from the raw Bitbrains CSV
# files, and checks every count, the summaries and the peak and pct plans'
# sums.  The Bitbrains runs skip when ../shared/data/bitbrains-rnd is
# absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	S=$DATA/backtest-small.series
	SMALL=(--start 0 --train 600s --replay 600s --cpus 4 --tolerance 0.5)
	M=$DATA/backtest-mem.series
	# memory: window peaks of one slot (300 s), nodes of 3 GiB
	MEM=("${SMALL[@]}" --mem-window 300s --mem 3)
}

# ---------------------------------------------------------------------------
# Hand-made.

@test "hand-made: every method, rolling and one-shot, agrees with the oracle" {
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" \
		--plan rolling,one-shot "$S"
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >"$T/bt"
	ovb-fmt "$T/bt"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$S"
	assert_output agree
	# 8 methods x 2 plans
	assert_equal "$(grep -c '^config ' "$T/bt")" 16
}

@test "hand-made: peak keeps a and b apart; a VM without samples counts zero usage, its node shown with FULL 0" {
	run -0 ovb-backtest "${SMALL[@]}" -m peak --policy worst-fit "$S"
	# a's peak 2.5 and b's 2 exceed 4 cpu together; c (0.5) goes where
	# worst-fit finds the most room: beside b
	assert_line 'place c1 1 a n1'
	assert_line 'place c1 1 b n2'
	assert_line 'place c1 1 c n2'
	# period 2: c has no sample, b one (1200): n2 (b, c) is replayed on
	# b's slot with c at 0 (held), FULL 0 (no slot where both have one);
	# n1 (a) has two slots
	assert_line 'node c1 2 n2 2 1 0 held 0 0 none 0'
	assert_line 'node c1 2 n1 1 2 0 held 0 0 none 2'
	# 4 held, 0 broken, 0 missing; PARTIAL 1 (the node with FULL 0)
	assert_line 'summary c1 6 4 1.5 1 4 0 0 0 0 0 0 0 0 0 0 0 1'
	# first-fit-decreasing (the default) puts c beside a (n1), the
	# first node that takes it
	run -0 ovb-backtest "${SMALL[@]}" -m peak "$S"
	assert_line 'place c1 1 c n1'
	assert_line 'node c1 2 n1 2 2 0 held 0 0 none 0'
	assert_line 'node c1 2 n2 1 1 0 held 0 0 none 1'
}

@test "hand-made: a node that overflows with a VM without samples is broken (missing samples as zero usage), not missing; its bound is 2 nodes, not 1" {
	# t/data/backtest-gap.series: a and b (peaks 1 and 1) share a node;
	# in [600, 1200) b has no sample and a alone uses 5 cpu > 4 in both
	# slots.  Before the honest counts: 'node c1 1 n1 2 0 0 missing ...'
	# and a bound of 1 node.
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" -m peak \
		"$DATA/backtest-gap.series"
	assert_line 'node c1 1 n1 2 2 2 broken 0 0 none 0'
	assert_line 'bound c1 1 2 2 0'
	assert_line 'summary c1 2 1 2 1 0 1 0 1 0 0 0 0 0 0 0 0 1'
	printf '%s\n' "$output" >"$T/bt"
	ovb-fmt "$T/bt" >/dev/null
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series \
		"$DATA/backtest-gap.series"
	assert_output agree
}

@test "format: files of before the honest counts (no FULL, no PARTIAL) read and are written back as they were; one form a file" {
	cat >"$T/old" <<-'EOF'
	ovb-backtest 1
	config c1 peak 4 0.5 600 600 rolling 1 0 0
	period c1 1 600 1200 2 0 1 0
	place c1 1 a n1
	place c1 1 b n1
	node c1 1 n1 2 0 0 missing 0 0 none
	bound c1 1 1 1 0
	summary c1 2 1 2 1 0 0 1 0 0 0 0 0 0 0 0 0
	EOF
	run -0 --separate-stderr ovb-fmt -c "$T/old"
	assert_line 'node c1 1 n1 2 0 0 missing 0 0 none'
	assert_line 'summary c1 2 1 2 1 0 0 1 0 0 0 0 0 0 0 0 0'
	sed 's/^\(summary .*\)$/\1 1/' "$T/old" >"$T/mixed"
	run -65 --separate-stderr ovb-fmt "$T/mixed"
	assert_equal "$stderr" "ovb-fmt: $T/mixed:8: summary: with FULL or PARTIAL, unlike the file's earlier records (one form a file: with or without FULL and PARTIAL)"
	# FULL above SLOTS
	ovb-backtest "${SMALL[@]}" -m peak "$DATA/backtest-gap.series" |
		sed 's/^\(node c1 1 n1 2 2 2 broken 0 0 none\) 0$/\1 3/' >"$T/full"
	run -65 --separate-stderr ovb-fmt "$T/full"
	assert_equal "$stderr" "ovb-fmt: $T/full:$(line_of '^node c1 1 n1' "$T/full"): node: FULL 3 exceeds SLOTS 2"
}

@test "hand-made: the sum of (1-O) percentiles packs all three at O = 0.5 (1 of 2 slots over holds), not at O = 0.4" {
	run -0 ovb-backtest "${SMALL[@]}" -m pct --periods 1 "$S"
	# slot 600: 3 + 1.5 + 0.5 = 5 > 4; slot 900: 1 + 2 + 0.5 = 3.5
	assert_line 'node c1 1 n1 3 2 1 held 0 0 none 2'
	# at O = 0.4 the nearest-rank 60th percentile of two samples is the
	# larger: a's 2.5 and b's 2 no longer fit together
	run -0 ovb-backtest --start 0 --train 600s --replay 600s --cpus 4 \
		--tolerance 0.4 -m pct --periods 1 "$S"
	assert_line 'place c1 1 a n1'
	assert_line 'place c1 1 b n2'
}

@test "hand-made: the oracle catches a wrong count" {
	ovb-backtest "${SMALL[@]}" -m peak,pct --policy worst-fit "$S" >"$T/bt"
	variant wrong "$T/bt" 's/^node c1 1 n2 2 2 0 held 0 0 none 2$/node c1 1 n2 2 2 1 held 0 0 none 2/'
	run -1 python3 "$ORACLE/backtest.py" "$BAD" --series "$S"
	assert_output --partial 'c1 period 1 node n2'
}

@test "hand-made: same inputs, same bytes; -o equals stdout; canonical" {
	ovb-backtest "${SMALL[@]}" "$S" >"$T/a"
	ovb-backtest "${SMALL[@]}" "$S" >"$T/b"
	cmp "$T/a" "$T/b"
	run -0 ovb-backtest "${SMALL[@]}" -o "$T/c" "$S"
	assert_output ''
	cmp "$T/a" "$T/c"
	ovb-fmt -c "$T/a" >"$T/d"
	cmp "$T/a" "$T/d"
}

@test "--jobs: the same bytes in 1, 2 or 9 processes (every method, rolling and one-shot, two windows and tolerances, memory); a failing group is the status, nothing written" {
	local j
	ovb-backtest "${MEM[@]}" --train 300s,600s --tolerance 0.5,0.25 \
		-m overbook,pct,tod,hindsight,joint,calibrated \
		--plan rolling,one-shot "$M" >"$T/j1"
	# 8 groups (2 plans x 2 windows x 2 tolerances) of 6 methods
	run -0 grep -c '^config ' "$T/j1"
	assert_output 48
	for j in 2 9; do
		ovb-backtest -j $j "${MEM[@]}" --train 300s,600s --tolerance \
			0.5,0.25 -m overbook,pct,tod,hindsight,joint,calibrated \
			--plan rolling,one-shot "$M" >"$T/j$j"
		cmp "$T/j1" "$T/j$j"
	done
	# a group's failure (here: its --keep directory cannot be made)
	run -74 --separate-stderr ovb-backtest -j 2 "${SMALL[@]}" \
		--tolerance 0.5,0.25 -m pct --keep /proc/nonesuch/k -o "$T/out" "$S"
	assert_output ''
	[[ $stderr == *"/proc/nonesuch/k: cannot create"* ]]
	[[ ! -e $T/out ]]
	run -64 --separate-stderr ovb-backtest -j 0 "$S"
	run -64 --separate-stderr ovb-backtest --jobs 2x "$S"
}

@test "rolling: a VM whose node still takes it stays; one-shot plans once, with its validity" {
	run -0 ovb-backtest "${SMALL[@]}" -m pct --plan one-shot "$S"
	# the trend of a (1 -> 2.5 over the window) and b (2 -> 1) forecast to
	# the end of period 1 (1200) break n1 at O = 0.5 already: valid until
	# the start of period 1
	assert_line 'valid c1 600'
	run -0 ovb-backtest "${SMALL[@]}" -m peak --plan one-shot "$S"
	assert_line --regexp '^valid c1 (600|1200|1800)$'
	run -0 ovb-backtest "${SMALL[@]}" -m pct --plan one-shot "$S"
	# one-shot: the plan of period 1 in period 2, nothing moved
	assert_line 'place c1 2 a n1'
	assert_line --regexp '^period c1 2 1200 1800 3 0 1 0$'
	# the reader recounts MOVED from the place records: a one-shot plan
	# moves nothing, and a first period has no period before it
	printf '%s\n' "$output" >"$T/bt"
	variant moved "$T/bt" 's/^(period c1 2 1200 1800 3 0 1) 0$/\1 1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(grep -n '^period c1 2 ' "$BAD" | cut -d: -f1): period c1 2: MOVED 1 but 0 VMs are on other nodes than in the period before (a one-shot plan moves nothing)"
	variant moved1 "$T/bt" 's/^(period c1 1 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+) 0$/\1 1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(grep -n '^period c1 1 ' "$BAD" | cut -d: -f1): period c1 1: MOVED 1 but 0 VMs are on other nodes than in the period before (a one-shot plan moves nothing)"
	# period 2's node renamed n2: the one plan is not the same
	variant moved2 "$T/bt" -e 's/^(place c1 2 [a-z]+) n1$/\1 n2/' -e 's/^(node c1 2) n1 /\1 n2 /'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"period c1 2: 3 VMs are on other nodes than in the period before, in a one-shot plan"* ]] || fail "$stderr"
	# rolling: the same renaming is 3 moves, and MOVED 0 is refused
	sed -E 's/^(config c1 pct .*) one-shot /\1 rolling /; /^(heldout|hplace|hnode|valid) /d' "$T/bt" >"$T/roll"
	ovb-fmt "$T/roll" >/dev/null
	variant moved3 "$T/roll" -e 's/^(place c1 2 [a-z]+) n1$/\1 n2/' -e 's/^(node c1 2) n1 /\1 n2 /'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"period c1 2: MOVED 0 but 3 VMs are on other nodes than in the period before" ]] || fail "$stderr"
}

@test "one-shot: the held-out test (the method's plan on the window's first half, replayed on its second) bounds the validity; the reader and the oracle hold it" {
	# a and b at 1 cpu in [0, 600), 3 cpu in [600, 1200): planned on the
	# first half they share a 4-cpu node, which the second half breaks
	{
		echo 'ovb-series 1'
		for v in a b; do
			printf 'series %s cpu\ninterval 300 s\n' $v
			printf 'sample %s\n' '0 1' '300 1' '600 3' '900 3' '1200 3' '1500 3' '1800 3' '2100 3'
		done
	} >"$T/s"
	run -0 --separate-stderr ovb-backtest --start 0 --train 1200s --replay 600s --cpus 4 --tolerance 0.5 -m peak --plan one-shot "$T/s"
	printf '%s\n' "$output" >"$T/bt"
	assert_line 'heldout c1 600 1200'
	assert_line 'hplace c1 a n1'
	assert_line 'hplace c1 b n1'
	assert_line 'hnode c1 n1 2 2 2 broken'
	# failed: valid for nothing past the window's end (the first period's
	# start), though the whole window's plan (a and b apart) holds
	assert_line 'valid c1 1200'
	assert_line 'node c1 1 n1 1 2 0 held 0 0 none 2'
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/s"
	assert_output agree
	# the reader: a validity past the failed test's end
	variant late "$T/bt" 's/^valid c1 1200$/valid c1 1800/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(grep -n '^valid' "$BAD" | cut -d: -f1): valid: T 1800 is past 1200, the held-out test's end (it failed: a node broke or none was measured)"
	# a replay the reader cannot see through (1 of 2 over at O = 0.5
	# holds): the oracle recounts it
	variant doctored "$T/bt" 's/^hnode c1 n1 2 2 2 broken$/hnode c1 n1 2 2 1 held/'
	ovb-fmt "$BAD" >/dev/null
	run -1 python3 "$ORACLE/backtest.py" "$BAD" --series "$T/s"
	assert_output --partial 'c1 heldout hnode n1'
	# a test that held: the validity is at most the end plus the half
	sed -i 's/^sample \(600\|900\) 3$/sample \1 1/' "$T/s"
	run -0 --separate-stderr ovb-backtest --start 0 --train 1200s --replay 600s --cpus 4 --tolerance 0.5 -m peak --plan one-shot "$T/s"
	assert_line 'hnode c1 n1 2 2 0 held'
	assert_line --regexp '^valid c1 (1200|1800)$'
	# the records' places: heldout once, after config, before valid
	printf '%s\n' "$output" >"$T/bt"
	variant twice "$T/bt" 's/^(valid c1 .*)$/heldout c1 600 1200\n\1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(grep -n '^heldout' "$BAD" | tail -1 | cut -d: -f1): heldout: after the configuration's heldout, valid or period records"
	variant orphan "$T/bt" 's/^hnode c1 n1 2 2 0 held$/hnode c1 n2 2 2 0 held/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(grep -n '^hnode' "$BAD" | cut -d: -f1): hnode: VMS is 2 but 0 hplace records name node n2"
	# t/data/oneshot.backtest (the fuzz target's seed with the test's
	# records) is what ovb-backtest makes, in canonical form
	ovb-backtest --start 0 --train 600s --replay 600s --cpus 4 --tolerance 0.5 -m peak,pct --plan one-shot "$S" | cmp - "$DATA/oneshot.backtest"
	ovb-fmt --canonical "$DATA/oneshot.backtest" | cmp - "$DATA/oneshot.backtest"
}

@test "consolidate:C and the three yardsticks: t/data/consolidate.backtest (a fuzz seed) is what ovb-backtest makes, canonical, and the oracle agrees" {
	ovb-backtest --start 0 --train 600s --replay 600s --cpus 4 --tolerance 0.5 --consolidate=1 -m peak,pct,hindsight,clairvoyant,clairvoyant-pct "$S" | cmp - "$DATA/consolidate.backtest"
	ovb-fmt --canonical "$DATA/consolidate.backtest" | cmp - "$DATA/consolidate.backtest"
	run -0 python3 "$ORACLE/backtest.py" "$DATA/consolidate.backtest" --series "$S"
	assert_output agree
	# a counted plan kind needs its count
	variant nocount "$DATA/consolidate.backtest" 's/ consolidate:1 / consolidate: /'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^config c1' "$BAD"): config: 'consolidate:' is not rolling, rolling:M, compact:M, consolidate:C, afresh or one-shot"
}

@test "rolling:M (--max-moves): VMs kept in place, at most M moves a period; the oracle agrees" {
	run -0 ovb-backtest "${SMALL[@]}" --max-moves 0 "$S"
	printf '%s\n' "$output" >"$T/bt"
	assert_line 'config c1 overbook 4 0.5 600 600 rolling:0 2 0 0'
	# every VM of period 1 is in period 2 on the same node
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$S"
	assert_output agree
	[[ -z $(awk '$1 == "period" && $9 != 0' "$T/bt") ]] || fail "a move"
	# the reader holds MOVED to M
	variant moved "$T/bt" 's/^(period c1 2 1200 1800 3 0 1) 0$/\1 1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"MOVED 1 exceeds the 0 moves of rolling:0"* ]] || fail "$stderr"
}

# ---------------------------------------------------------------------------
# Memory (hand-made).

@test "memory: every method, rolling and one-shot, pools 0, 1.5 GiB and the default, agrees with the oracle" {
	local pool
	for pool in 0 1.5 ''; do
		ovb-backtest "${MEM[@]}" ${pool:+--mem-pool $pool} \
			--plan rolling,one-shot "$M" >"$T/bt"
		ovb-fmt "$T/bt"
		run -0 python3 "$ORACLE/backtest.py" --mem-window 300 "$T/bt" \
			--series "$M"
		assert_output agree
	done
	# the default pool is a quarter of the node's memory (3 GiB)
	run -0 grep -c '^config c[0-9]* [a-z]* 4 0.5 600 600 [a-z-]* 2 3221225472 805306368$' "$T/bt"
	assert_output 16
	# same inputs, same bytes; canonical
	ovb-backtest "${MEM[@]}" --plan rolling,one-shot "$M" >"$T/again"
	cmp "$T/bt" "$T/again"
	ovb-fmt -c "$T/bt" >"$T/canon"
	cmp "$T/bt" "$T/canon"
}

@test "memory: the limits bind (a pool of 1.5 GiB lets pct put all three on a node, none does not); a node's memory promise breaks; a's OOM kill is a peak never seen" {
	# training [0, 600): window peaks a 1, 2 GiB, b 1, 1, c 0.5, 0.5;
	# requests at O = 0.5 (the lower of two) 1 + 1 + 0.5 = 2.5 <= 3 GiB;
	# limits 2 x 1.15 + 1.15 + 0.575 = 4.025 GiB: above 3, within 3 + 1.5
	run -0 ovb-backtest "${MEM[@]}" --mem-pool 1.5 -m pct --periods 1 "$M"
	assert_line 'place c1 1 c n1'
	assert_line 'place c1 1 b n1'
	# the memory sums at 600 and 900: 3.5 and 4 GiB > 3: 2 of 2 slots
	assert_line 'node c1 1 n1 3 2 1 held 2 2 broken 2'
	# a at 900: 2.5 GiB > its limit 2.3 GiB; its training peak was 2 GiB
	assert_line "oom c1 1 a n1 1 $(python3 -c 'import math; print(math.ceil(2**31 * 1.15))') 2147483648 2684354560 unseen"
	assert_line 'summary c1 3 1 3 2 1 0 0 0.5 0 0 1 0 1 2 1 1 0'
	run -0 ovb-backtest "${MEM[@]}" --mem-pool 0 -m pct --periods 1 "$M"
	# a (2.3) and b (1.15) exceed 3 GiB together; c (0.575) fits beside a
	assert_line 'place c1 1 a n1'
	assert_line 'place c1 1 b n2'
	assert_line 'place c1 1 c n1'
	# a VM whose limit exceeds MEM + POOL is placed nowhere
	run -0 ovb-backtest "${SMALL[@]}" --mem-window 300s --mem 2 \
		--mem-pool 0.2 -m peak --periods 1 "$M"
	assert_line --regexp '^period c1 1 600 1200 2 1 '
	refute_line --regexp '^place c1 1 a '
}

@test "memory: window peaks of every window with a sample, as ovb-usage -r mem: the limit covers the largest training sample" {
	{
		printf 'ovb-series 1\nseries d cpu\ninterval 300 s\n'
		printf 'sample %d 1\n' 0 300 600 900 1200 1500
		printf 'series d mem\ninterval 300 s\n'
		# 1, 1 | 3, (900 missing) | 2, 4 GiB
		printf 'sample %d %d\n' 0 1073741824 300 1073741824 \
			600 3221225472 1200 2147483648 1500 4294967296
	} >"$T/d"
	run -0 ovb-backtest --start 0 --train 1200s --replay 600s --cpus 4 \
		--tolerance 0.5 --mem 8 --mem-window 600s -m peak --periods 1 "$T/d"
	# training [0, 1200): the windows [0, 600) (peak 1 GiB) and [600,
	# 1200), missing a sample (peak 3 GiB): the limit is ceil(3 GiB x
	# 1.15); 2 GiB at 1200 stays under it, 4 GiB at 1500 is a kill at a
	# level training never saw
	assert_line "oom c1 1 d n1 1 $(python3 -c 'import math; print(math.ceil(3 * 2**30 * 1.15))') 3221225472 4294967296 unseen"
	printf '%s\n' "$output" >"$T/bt"
	run -0 python3 "$ORACLE/backtest.py" --mem-window 600 "$T/bt" --series "$T/d"
	assert_output agree
}

@test "memory: --mem 0 and a file without mem series give the same cpu records, memory none" {
	ovb-backtest "${SMALL[@]}" --plan rolling,one-shot "$S" >"$T/a"
	ovb-backtest "${SMALL[@]}" --mem 0 --plan rolling,one-shot "$M" >"$T/b"
	cmp "$T/a" "$T/b"
	run -0 grep -Ec ' 0 0 none [0-9]+$' "$T/a"
	assert_output "$(grep -c '^node ' "$T/a")"
	refute_line --partial 'oom '
}

@test "memory: the oracle catches a wrong memory count or OOM kill" {
	ovb-backtest "${MEM[@]}" --mem-pool 1.5 -m peak,pct "$M" >"$T/bt"
	variant kills "$T/bt" 's/^(oom c2 1 a n1) 1 /\1 2 /'
	run -1 python3 "$ORACLE/backtest.py" --mem-window 300 "$BAD" --series "$M"
	assert_output --partial 'c2 period 1 oom records'
	variant mover "$T/bt" 's/^(node c2 1 n1 3 2 1 held) 2 2 broken 2$/\1 2 1 broken 2/'
	run -1 python3 "$ORACLE/backtest.py" --mem-window 300 "$BAD" --series "$M"
	assert_output --partial 'c2 period 1 node n1'
}

# ---------------------------------------------------------------------------
# Bad input.

@test "bad input: 65 with FILE:LINE, nothing written" {
	variant bad.series "$S" 's/^sample 300 2.5$/sample 300 x/'
	run -65 --separate-stderr ovb-backtest "${SMALL[@]}" -o "$T/out" "$BAD"
	[[ $stderr == *"$BAD:"*": "* ]] || fail "no FILE:LINE: $stderr"
	[[ ! -e $T/out ]] || fail "output written"
	[[ -z $(ls -A "$T" | grep -v -e '^bad.series$' -e '^separate-stderr') ]] ||
		fail "left behind: $(ls -A "$T")"
	# no cpu series
	printf 'ovb-series 1\nseries a net\ninterval 300 s\nsample 0 1\n' >"$T/net"
	run -65 --separate-stderr ovb-backtest "${SMALL[@]}" "$T/net"
	assert_equal "$stderr" "ovb-backtest: $T/net: no cpu series: nothing to place"
	# the series end before the first replayed period
	run -65 --separate-stderr ovb-backtest --start 0 --train 7d "$S"
	[[ $stderr == *"before the first replayed period"* ]] || fail "$stderr"
	# two intervals
	printf 'ovb-series 1\nseries d cpu\ninterval 60 s\nsample 0 1\n' >"$T/i60"
	run -65 --separate-stderr ovb-backtest "${SMALL[@]}" "$S" "$T/i60"
	[[ $stderr == *"$T/i60:2: series d cpu: interval 60 s"* ]] || fail "$stderr"
	run -66 --separate-stderr ovb-backtest "$T/nonesuch"
	# memory: a mem series on another interval than the cpu ones
	sed -E '/^series a mem$/,/^interval/ s/^interval 300 s$/interval 60 s/' \
		"$M" >"$T/m60"
	run -65 --separate-stderr ovb-backtest "${MEM[@]}" -o "$T/out" "$T/m60"
	assert_equal "$stderr" "ovb-backtest: $T/m60:$(line_of '^series a mem$' "$T/m60"): series a mem: interval 60 s, but 300 s for cpu"
	[[ ! -e $T/out ]] || fail "output written"
	# --mem without mem series
	run -65 --separate-stderr ovb-backtest "${MEM[@]}" "$S"
	assert_equal "$stderr" "ovb-backtest: $S: --mem: no mem series to replay"
	# memory windows of whole samples
	run -65 --separate-stderr ovb-backtest "${SMALL[@]}" --mem-window 400s "$M"
	assert_equal "$stderr" "ovb-backtest: $M: --mem-window 400 s is not a multiple of the series' interval 300 s"
}

@test "a method's option while -m runs none of its methods: said on stderr (not with -q), the run the same" {
	ovb-backtest "${SMALL[@]}" -m pct,vpa --vpa-margin 0.3 "$S" >"$T/plain"
	# vpa is run: its margin is not said
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" -m pct,vpa \
		--joint-margin 0.2 --growth-max 2 --vpa-margin 0.3 "$S"
	assert_equal "$stderr" "ovb-backtest: --growth-max: drift and calibrated are not run (-m): it changes nothing
ovb-backtest: --joint-margin: joint is not run (-m): it changes nothing"
	assert_output "$(cat "$T/plain")"
	run -0 --separate-stderr ovb-backtest -q "${SMALL[@]}" -m pct,vpa \
		--joint-margin 0.2 "$S"
	assert_equal "$stderr" ""
	# one of its methods run: nothing said
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" -m pct,calibrated \
		--growth-max 2 --k-min 1 "$S"
	assert_equal "$stderr" ""
	# the default methods read --nsigma and --tod-min's tod is not among them
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" --nsigma 2 \
		--tod-min 3 "$S"
	assert_equal "$stderr" "ovb-backtest: --tod-min: tod is not run (-m): it changes nothing"
}

@test "usage: 64 on bad options" {
	run -64 --separate-stderr ovb-backtest -m nonesuch "$S"
	# a typo is told every method there is, from the table
	run -64 --separate-stderr ovb-backtest -m pct,clairvoyent "$S"
	assert_equal "${stderr%%$'\n'*}" "ovb-backtest: --method: 'clairvoyent' is not overbook, aggregate, drift, peak, pct, nsigma, vpa, calibrated, mean, tod, hindsight, joint, clairvoyant or clairvoyant-pct"
	run -64 --separate-stderr ovb-backtest --train 3x "$S"
	assert_equal "${stderr%%$'\n'*}" "ovb-backtest: --train: '3x' is not a whole number of seconds, minutes, hours, days or weeks (3600, 60m, 1h, 1d, 1w)"
	run -64 --separate-stderr ovb-backtest --train 0s "$S"
	# one duration syntax: seconds, or s, m, h, d, w
	ovb-backtest --start 0 --train 600 --replay 10m "$S" >"$T/a"
	ovb-backtest --start 0 --train 600s --replay 600s "$S" >"$T/b"
	cmp "$T/a" "$T/b"
	ovb-backtest --start 0 --train 1w --replay 1d --periods 1 "$S" >"$T/a"
	ovb-backtest --start 0 --train 7d --replay 24h --periods 1 "$S" >"$T/b"
	cmp "$T/a" "$T/b"
	run -64 --separate-stderr ovb-backtest --tolerance 1 "$S"
	run -64 --separate-stderr ovb-backtest --plan sometimes "$S"
	run -64 --separate-stderr ovb-backtest --cpus 4 --mem 4,8 "$M"
	run -64 --separate-stderr ovb-backtest --cpus 4,8 --mem 0,8 "$M"
	run -64 --separate-stderr ovb-backtest --mem-margin -1 "$M"
	run -64 --separate-stderr ovb-backtest --mem-window 0h "$M"
}

@test "format: the reader checks a table's records against each other" {
	local E=$DATA/example.backtest
	variant sum "$E" 's/^summary c1 3 2 1.5 1 2 0 0 0 0 (.*)$/summary c1 3 2 1.5 1 1 1 0 0 0 \1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^summary c1' "$BAD"): summary: the counts are not the sums of the periods' (placed 3, nodes 2, held 2, broken 0, missing 0, moved 0, partial 0)"
	variant status "$E" 's/^node c2 1 n1 3 2 1 held (.*)$/node c2 1 n1 3 2 2 held \1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^node c2' "$BAD"): node: 2 slots, 2 over at O = 0.5 is broken, not held"
	variant vms "$E" 's/^node c1 1 n2 1 2 0 held (.*)$/node c1 1 n2 2 2 0 held \1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^node c1 1 n2' "$BAD"): node: VMS is 2 but 1 place records name node n2"
	variant placed "$E" 's/^period c2 1 600 1200 3 0 1 0$/period c2 1 600 1200 4 0 1 0/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^period c2' "$BAD"): period c2 1: PLACED 4 but 3 place records"
	variant k "$E" 's/^place c2 1 a n1$/place c2 2 a n1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^place c2 2' "$BAD"): place: period 2 is not the current period of 'c2'"
	variant valid "$E" 's/^(config c1 peak 4 0.5 600 600 rolling 1 .*)$/\1\nvalid c1 600/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^valid c1' "$BAD"): valid: configuration 'c1' is rolling (a validity is stated for one-shot plans)"
	head -n -1 "$E" >"$T/nosum"
	run -65 --separate-stderr ovb-fmt "$T/nosum"
	[[ $stderr == *"configuration 'c2' has no summary"* ]] || fail "$stderr"
}

@test "format: bound records are checked against each other and placed after the nodes" {
	local E=$DATA/example.backtest
	variant bnodes "$E" 's/^bound c1 1 1 1 1$/bound c1 1 2 1 1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^bound c1' "$BAD"): bound: NODES is 2, not max(1, CPU, MEM) = 1"
	variant bcpu "$E" 's/^bound c1 1 1 1 1$/bound c1 1 1 0 1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^bound c1' "$BAD"): bound: CPU must be at least 1 in a period with placed VMs"
	variant btwice "$E" 's/^(bound c1 1 1 1 1)$/\1\n\1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(($(line_of '^bound c1' "$BAD") + 1)): bound: given twice in period 1"
	variant bafter "$E" 's/^(oom c1 1 a n1 .*)$/\1\nbound c1 1 1 1 1/'
	sed -i '0,/^bound c1 1 1 1 1$/{/^bound c1 1 1 1 1$/d}' "$BAD"
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^bound c1' "$BAD"): bound: after the period's oom records"
	variant bnode "$E" 's/^node c1 1 n2 (.*)$/bound c1 1 1 1 1\nnode c1 1 n2 \1/'
	sed -i '0,/^bound c1 1 1 1 1$/!{/^bound c1 1 1 1 1$/d}' "$BAD"
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^node c1 1 n2' "$BAD"): node: after the period's bound record"
	# without memory a MEM bound is not one
	ovb-backtest "${SMALL[@]}" -m peak --periods 1 "$S" >"$T/nomem"
	grep -qx 'bound c1 1 1 1 0' "$T/nomem"
	variant bmem "$T/nomem" 's/^bound c1 1 1 1 0$/bound c1 1 1 1 1/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^bound c1' "$BAD"): bound: MEM 1 is not 0, but the memory limits bound no placement without memory (MEM 0)"
	# files without bound records read as before
	grep -v '^bound ' "$E" >"$T/old"
	run -0 ovb-fmt -c "$T/old"
}

@test "format: memory records are checked against each other" {
	local E=$DATA/example.backtest
	run -0 ovb-fmt -c "$E"
	# the memory status follows from MSLOTS and MOVER
	variant mstatus "$E" 's/^(node c2 1 n1 3 2 1 held 2 2) broken 2$/\1 held 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^node c2' "$BAD"): node: memory: 2 slots, 2 over at O = 0.5 is broken, not held"
	# an OOM kill is a slot above the limit: RPEAK must exceed LIMIT
	variant rpeak "$E" 's/^(oom c1 1 a n1 1 2469606196 2147483648) 2684354560 unseen$/\1 2469606196 unseen/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^oom c1' "$BAD"): oom: RPEAK 2469606196 does not exceed LIMIT 2469606196"
	# unseen is RPEAK > TPEAK
	variant seen "$E" 's/^(oom c1 1 a n1 .*) unseen$/\1 seen/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^oom c1' "$BAD"): oom: RPEAK 2684354560 > TPEAK 2147483648: unseen, not seen"
	# the VM must be on that node
	variant onnode "$E" 's/^oom c1 1 a n1 /oom c1 1 a n2 /'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^oom c1' "$BAD"): oom: vm a is not placed on node n2 in period 1"
	# the summary's OOM and KILLS are the oom records'
	variant kills "$E" 's/^(summary c2 3 1 3 2 1 0 0 0.5 0 0 1 0 1 2 1) 1 0$/\1 2 0/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^summary c2' "$BAD"): summary: the memory counts are not the sums of the periods' (held 0, broken 1, missing 0, over 2, oom 1, kills 1)"
	# memory counts without memory
	variant nomem "$E" 's/^(config c1 peak 4 0.5 600 600 rolling 1) 3221225472 1610612736$/\1 0 0/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^node c1 1 n1' "$BAD"): node: memory counts without memory (MEM 0): MSLOTS 0, MOVER 0 and MSTATUS none expected"
}

# ---------------------------------------------------------------------------
# The Bitbrains sample.

@test "bitbrains: rolling weekly, 8-CPU nodes, O = 1%: the oracle replays every plan from the raw CSVs" {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	bitbrains_months "$BB" "$T"
	ovb-backtest -m overbook,aggregate,drift,peak,pct --cpus 8 --tolerance 0.01 \
		--train 14d "$T/7.series" "$T/8.series" "$T/9.series" >"$T/bt"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --csv \
		"$BB"/2013-7/*.csv.gz "$BB"/2013-8/*.csv.gz "$BB"/2013-9/*.csv.gz
	assert_output agree
	# 11 weeks after the first two; vm20 has no samples in weeks 4-7;
	# memory by default: 4 GiB a cpu, a pool of a quarter of that
	grep -qx 'config c1 overbook 8 0.01 1209600 604800 rolling 11 34359738368 8589934592' "$T/bt" ||
		fail "no config c1 of 11 weeks, 32 GiB nodes"
	# its nodes are replayed with its samples as zero usage: FULL 0,
	# held or broken, not missing
	grep -q ' [a-z]* [0-9]* [0-9]* [a-z]* 0$' "$T/bt" || fail "no node with FULL 0"
	! grep -q '^node .* missing [0-9]* [0-9]* [a-z]* [0-9]*$' "$T/bt" ||
		fail "a node missing: every node has a VM with a sample"
	# VMs' memory above their limits: every one a peak never seen in
	# the training window (the limit is the largest hour's peak, the
	# largest training sample, x 1.15)
	grep -q '^oom ' "$T/bt" || fail "no OOM kill"
	[[ -z $(awk '$1 == "oom" && $10 != "unseen"' "$T/bt") ]] ||
		fail "an OOM kill of a peak seen in training"
	# same inputs, same bytes
	ovb-backtest -m overbook,aggregate,drift,peak,pct --cpus 8 --tolerance 0.01 \
		--train 14d "$T/7.series" "$T/8.series" "$T/9.series" >"$T/again"
	cmp "$T/bt" "$T/again"
	grep '^summary' "$T/bt" >&3
}

@test "bitbrains: rolling:1 (--max-moves 1), 4- and 8-CPU nodes: the oracle agrees, at most 1 move a week" {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	bitbrains_months "$BB" "$T"
	ovb-backtest --max-moves 1 -m overbook,drift,peak,pct --cpus 4,8 \
		--tolerance 0.01 --train 14d "$T/7.series" "$T/8.series" \
		"$T/9.series" >"$T/bt"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --csv \
		"$BB"/2013-7/*.csv.gz "$BB"/2013-8/*.csv.gz "$BB"/2013-9/*.csv.gz
	assert_output agree
	grep '^summary' "$T/bt" >&3
}

@test "bitbrains: one-shot July plans replayed monthly agree with the oracle" {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	bitbrains_months "$BB" "$T"
	# the default policy, worst-fit, spreads the VMs over the 4 nodes:
	# the oracle agrees with every count (the trend forecast then states
	# overbook's plan valid to the end, and 2 node-months break before it)
	ovb-backtest --plan one-shot --train 31d --replay 31d --periods 2 \
		-m overbook,aggregate,peak,pct,vpa --cpus 4 --nodes 4 \
		--tolerance 0.01 "$T/7.series" "$T/8.series" "$T/9.series" >"$T/bt"
	run -0 python3 "$ORACLE/backtest.py" --validity "$T/bt" --csv \
		"$BB"/2013-7/*.csv.gz "$BB"/2013-8/*.csv.gz "$BB"/2013-9/*.csv.gz
	assert_line agree
	printf '%s\n' "$output" >&3
	ovb-backtest --plan one-shot --train 31d --replay 31d --periods 2 \
		-m overbook,aggregate,peak,pct,vpa --cpus 4 --nodes 4 \
		--policy first-fit-decreasing \
		--tolerance 0.01 "$T/7.series" "$T/8.series" "$T/9.series" >"$T/bt"
	run -0 python3 "$ORACLE/backtest.py" --validity "$T/bt" --csv \
		"$BB"/2013-7/*.csv.gz "$BB"/2013-8/*.csv.gz "$BB"/2013-9/*.csv.gz
	assert_line agree
	# first fit decreasing: the July plan is stated valid until August
	# 1: its broken node-months (August and September) all start at or
	# after it
	assert_line --regexp '^c1 overbook valid-until 1375315200: 0 of [1-9][0-9]* broken node-periods start before it$'
	printf '%s\n' "$output" >&3
	grep '^summary' "$T/bt" >&3
}
