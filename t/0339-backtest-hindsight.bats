#!/usr/bin/env bats
# ovb-backtest's yardstick and its time-of-day method (issue 27):
# hindsight places the VMs on the replayed period's own samples through
# the engine (ovb-place --mode joint), so every node it uses holds by
# construction, as the independent replay counts it; with pct, every
# configuration gets a gap record, in nodes a VM placed (pct's - its) /
# (pct's - hindsight's), recomputed here from the summaries.  tod is ovb-place
# --mode tod on windows of U.  Both are ovb-place's plans (--keep).  The
# Bitbrains runs skip when ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	S=$DATA/backtest-small.series
	SMALL=(--start 0 --train 600s --replay 600s --cpus 4 --tolerance 0.5)
}

bitbrains() {
	[[ -d $BB ]] || skip "no $BB"
	ovb-import --bitbrains -r cpu -o "$T/bb.series" "$BB"/2013-7/*.csv.gz \
		"$BB"/2013-8/*.csv.gz
}

# replans DIR...: each kept period's cmd, run in its directory, makes its
# plan again, byte for byte
replans() {
	local d
	for d in "$@"; do
		(cd "$d" && sh cmd >"$T/replan" 2>/dev/null)
		cmp "$T/replan" "$d/plan"
	done
}

# oracles BT: both oracles agree with BT (the replay from $T/bb.series
# and ovb-report's table of it, written to $T/tsv)
oracles() {
	run -0 python3 "$ORACLE/backtest.py" "$1" --series "$T/bb.series"
	assert_output agree
	ovb-report -f tsv -t backtest "$1" >"$T/tsv"
	run -0 python3 "$ORACLE/backtest_report.py" table "$1" "$T/tsv"
	assert_output agree
}

# plans BT: "METHOD PLAN " of each configuration, in order
plans() {
	awk '$1 == "config" { print $3, $8 }' "$1" | tr '\n' ' '
}

# gaps BT: "ID CLOSED" of each configuration whose group (node size, O,
# windows, plan) has pct and hindsight with pct on more nodes a VM placed,
# computed from the summaries and config records alone
gaps() {
	awk '$1 == "config" { m[$2] = $3; g[$2] = $4 " " $5 " " $6 " " $7 " " $8
		n++; id[n] = $2 }
	$1 == "summary" { nodes[$2] = $4; placed[$2] = $3 }
	END {
		for (i = 1; i <= n; i++) {
			c = id[i]
			if (m[c] == "pct") P[g[c]] = nodes[c] / placed[c]
			if (m[c] == "hindsight") H[g[c]] = nodes[c] / placed[c]
		}
		for (i = 1; i <= n; i++) {
			c = id[i]
			if ((g[c] in P) && (g[c] in H) && P[g[c]] > H[g[c]] && placed[c])
				printf "%s %.12g\n", c,
					(P[g[c]] - nodes[c] / placed[c]) / (P[g[c]] - H[g[c]])
		}
	}' "$1"
}

@test "bitbrains: every hindsight node holds; the gap records are in nodes a VM placed (pct - its) / (pct - hindsight); the replay agrees" {
	bitbrains
	run -0 --separate-stderr ovb-backtest --mem 0 --cpus 4,8 \
		-m pct,hindsight,overbook,nsigma "$T/bb.series"
	printf '%s\n' "$output" >"$T/bt"
	# hindsight: held on every node it uses, none broken
	run -0 awk '$1 == "config" { m[$2] = $3 }
		$1 == "node" && m[$2] == "hindsight" { n++; if ($8 != "held") bad++ }
		END { print (n > 0), bad + 0 }' "$T/bt"
	assert_output '1 0'
	# the gap records, from the summaries (pct 0, hindsight 1)
	diff <(gaps "$T/bt") <(awk '$1 == "gap" { printf "%s %.12g\n", $2, $3 }' \
		"$T/bt")
	run -0 awk '$1 == "config" { m[$2] = $3 } $1 == "gap" { print m[$2], $3 }' \
		"$T/bt"
	assert_line --regexp '^pct 0$'
	assert_line --regexp '^hindsight 1$'
	# every count replayed from the raw samples
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/bb.series"
	assert_output agree
	# same inputs, same bytes
	run -0 ovb-backtest --mem 0 --cpus 4,8 -m pct,hindsight,overbook,nsigma \
		"$T/bb.series"
	cmp <(printf '%s\n' "$output") "$T/bt"
}

@test "bitbrains: hindsight's, joint's and tod's periods are ovb-place's plans (--mode joint on the period's series; --mode joint --slots overlap on the training window's; --mode tod)" {
	bitbrains
	ovb-backtest --mem 0 --cpus 8 --tolerance 0.05 --train 14d --periods 2 \
		-m hindsight,tod,joint --keep "$T/k" "$T/bb.series" >"$T/bt"
	# c1 tod, c2 hindsight, c3 joint (the methods' order)
	run -0 cat "$T/k/c2/p1/cmd"
	assert_output --regexp '^ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode joint --series series --from [0-9]+ --to [0-9]+ cluster apps profiles$'
	# joint, a forecast: only the span in which all of a node's VMs were
	# seen in the training window (an unseen sample is not 0)
	run -0 cat "$T/k/c3/p2/cmd"
	assert_output --regexp '^ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode joint --series series --from [0-9]+ --to [0-9]+ --slots overlap --max-moves 18446744073709551615 cluster apps profiles previous$'
	grep -qx "mode joint overlap" "$T/k/c3/p2/plan"
	run -0 cat "$T/k/c1/p2/cmd"
	# tod: re-planned from the last plan, as the others (its repair
	# judges a node per window)
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode tod --max-moves 18446744073709551615 cluster apps profiles previous'
	replans "$T"/k/c*/p*
	# the kept tod profiles carry windows
	run -0 grep -c '^window ' "$T/k/c1/p1/profiles"
	[[ $output -gt 0 ]]
	# and ovb-check of a hindsight plan on its week: every node holds
	(cd "$T/k/c2/p1" && eval "ovb-check $(sed 's/^.*--mode/--mode/; s/ cluster apps profiles$//' cmd) cluster apps plan profiles")
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/bb.series"
	assert_output agree
}

@test "bitbrains: --plan afresh re-plans every period from scratch (ovb-place without the last plan), counts its moves, has its own pct and gap; both oracles agree" {
	bitbrains
	ovb-backtest --mem 0 --cpus 8 --tolerance 0.05 --train 14d --periods 3 \
		--plan rolling,afresh -m pct,peak,tod,hindsight --keep "$T/k" \
		"$T/bb.series" >"$T/bt"
	# c1-c4 rolling, c5-c8 afresh (pct, peak, tod, hindsight)
	assert_equal "$(awk '$1 == "config" { print $2, $3, $8 }' "$T/bt" |
		tr '\n' ' ')" 'c1 peak rolling c2 pct rolling c3 tod rolling c4 hindsight rolling c5 peak afresh c6 pct afresh c7 tod afresh c8 hindsight afresh '
	run -0 cat "$T/k/c6/p2/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 cluster apps'
	run -0 cat "$T/k/c7/p2/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode tod cluster apps profiles'
	run -0 cat "$T/k/c2/p2/cmd"
	assert_output --regexp ' cluster apps previous$'
	for d in "$T"/k/c[5-8]/p*; do
		[[ ! -e $d/previous ]] || fail "$d: a previous plan"
		(cd "$d" && sh cmd >"$T/replan")
		cmp "$T/replan" "$d/plan"
	done
	# the same training windows: period 1 is the same plan either way
	for m in 1 2 3 4; do
		cmp "$T/k/c$m/p1/plan" "$T/k/c$((m + 4))/p1/plan"
	done
	# moves are counted as for any plan; afresh pct moves more than rolling
	run -0 awk '$1 == "summary" { print $2, $11 }' "$T/bt"
	local mr ma
	mr=$(awk '$1 == "summary" && $2 == "c2" { print $11 }' "$T/bt")
	ma=$(awk '$1 == "summary" && $2 == "c6" { print $11 }' "$T/bt")
	(( ma > mr )) || fail "afresh pct moved $ma, rolling $mr"
	# the gap of each plan kind against its own pct and hindsight
	diff <(gaps "$T/bt") <(awk '$1 == "gap" { printf "%s %.12g\n", $2, $3 }' \
		"$T/bt")
	oracles "$T/bt"
	run -0 ovb-report "$T/bt"
	assert_line --regexp '^c6 +pct +afresh +8 cpu '
	# the record reads back and is written as read; a valid record is a
	# one-shot plan's
	ovb-fmt "$T/bt"
	variant valid "$T/bt" 's/^(config c6 .*)$/\1\nvalid c6 1000/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *":"*": valid: configuration 'c6' is rolling"* ]] ||
		fail "$stderr"
	variant kind "$T/bt" 's/^(config c6 pct 8 0.05 1209600 604800) afresh /\1 anew /'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *":"*": config: 'anew' is not rolling, rolling:M, compact:M, consolidate:C, afresh or one-shot"* ]] ||
		fail "$stderr"
	run -64 --separate-stderr ovb-backtest --plan rolling,anew "$T/bb.series"
	assert_equal "${stderr%%$'\n'*}" "ovb-backtest: --plan: 'anew' is not rolling, afresh or one-shot"
}

@test "bitbrains: --max-moves 1 --consolidate (compact:1): at most one move a week but the hindsight's, the kept commands re-make the plans, the oracle agrees; rolling:1 with the hindsight reads back" {
	bitbrains
	ovb-backtest --mem 0 --cpus 4 --tolerance 0.05 --train 14d --periods 4 \
		--max-moves 1 --consolidate -m peak,pct,tod,hindsight --keep "$T/k" \
		"$T/bb.series" >"$T/bt"
	assert_equal "$(plans "$T/bt")" 'peak compact:1 pct compact:1 tod compact:1 hindsight compact:1 '
	run -0 cat "$T/k/c2/p2/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --max-moves 1 --consolidate cluster apps previous'
	replans "$T"/k/c[1-3]/p*
	[[ -z $(awk '$1 == "config" { m[$2] = $3 }
		$1 == "period" && m[$2] != "hindsight" && $9 > 1' "$T/bt") ]] ||
		fail "more than one move"
	ovb-fmt "$T/bt"
	oracles "$T/bt"
	# the hindsight is re-packed every period whatever the plan: its
	# moves are not bounded by M (the reader refused its own table before)
	ovb-backtest --mem 0 --cpus 4 --tolerance 0.05 --train 14d --periods 4 \
		--max-moves 1 -m pct,hindsight "$T/bb.series" >"$T/bt1"
	run -0 awk '$1 == "period" && $2 == "c2" && $9 > 1' "$T/bt1"
	[[ -n $output ]] || fail "the hindsight moved at most 1 a week"
	ovb-fmt "$T/bt1"
	variant pctmoves "$T/bt1" 's/^(period c1 2 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+) [0-9]+$/\1 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"MOVED 2 exceeds the 1 moves of rolling:1"* ]] || fail "$stderr"
	variant cmoves "$T/bt" 's/^(period c1 2 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+) [0-9]+$/\1 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"MOVED 2 exceeds the 1 moves of compact:1"* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-backtest --consolidate "$T/bb.series"
	assert_equal "$stderr" 'ovb-backtest: --consolidate needs its moves: --max-moves M (the plan compact:M) or --consolidate=C (consolidate:C)'
}

@test "bitbrains: --consolidate=1 (consolidate:1): every broken node repaired, then one move a week to empty a node; the kept commands re-make the plans, every pct node keeps its sum, the oracle agrees (clairvoyant-pct: each node within CPUS by its VMs' own percentiles of the week; a yardstick, it dominates no method)" {
	bitbrains
	ovb-backtest --mem 0 --cpus 4 --tolerance 0.05 --train 14d --periods 4 \
		--consolidate=1 -m peak,pct,tod,clairvoyant,hindsight,clairvoyant-pct --keep "$T/k" \
		"$T/bb.series" >"$T/bt"
	assert_equal "$(plans "$T/bt")" 'peak consolidate:1 pct consolidate:1 tod consolidate:1 hindsight consolidate:1 clairvoyant consolidate:1 clairvoyant-pct consolidate:1 '
	run -0 cat "$T/k/c2/p2/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --max-moves 18446744073709551615 --consolidate=1 cluster apps previous'
	replans "$T"/k/c[1-6]/p*
	# the clairvoyant, knowing each week, keeps every promise: no repair
	# was starved of moves
	run -0 awk '$1 == "node" && $2 == "c5" { n[$8]++ }
		END { print n["held"] + 0, n["broken"] + 0 }' "$T/bt"
	[[ $output == [1-9]*' 0' ]] || fail "clairvoyant held, broken: $output"
	ovb-fmt "$T/bt"
	oracles "$T/bt"
	# the repair's moves are not bounded by C: some week moves more
	run -0 awk '$1 == "period" && $9 > 1' "$T/bt"
	[[ -n $output ]] || fail "no week moved more than one VM"
	run -64 --separate-stderr ovb-backtest --max-moves 2 --consolidate=1 "$T/bb.series"
	assert_equal "$stderr" 'ovb-backtest: --consolidate=C is the plan consolidate:C, its repair unbounded: not with --max-moves (--max-moves M --consolidate: the plan compact:M)'
	run -64 --separate-stderr ovb-backtest --consolidate=0 "$T/bb.series"
	# clairvoyant-pct, a yardstick, is no method's rival
	run -0 awk -F '\t' '$19 ~ /clairvoyant/' "$T/tsv"
	assert_output ''
}

@test "bitbrains: the clairvoyant is the hindsight's test re-planned from its last plan (rolling: its kept commands, every node held; afresh: the hindsight's plans; compact:1: one move a week); it dominates no method; both oracles agree" {
	bitbrains
	ovb-backtest --mem 0 --cpus 8 --tolerance 0.05 --train 14d --periods 3 \
		--plan rolling,afresh -m peak,pct,hindsight,clairvoyant \
		--keep "$T/k" "$T/bb.series" >"$T/bt"
	assert_equal "$(awk '$1 == "config" { print $2, $3, $8 }' "$T/bt" |
		tr '\n' ' ')" 'c1 peak rolling c2 pct rolling c3 hindsight rolling c4 clairvoyant rolling c5 peak afresh c6 pct afresh c7 hindsight afresh c8 clairvoyant afresh '
	# rolling: the period's samples, from the last plan
	run -0 cat "$T/k/c4/p2/cmd"
	assert_output --regexp '^ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode joint --series series --from [0-9]+ --to [0-9]+ --max-moves 18446744073709551615 cluster apps profiles previous$'
	replans "$T"/k/c[48]/p*
	# its first plan is the hindsight's; afresh it is the hindsight
	cmp "$T/k/c3/p1/plan" "$T/k/c4/p1/plan"
	for p in 1 2 3; do
		cmp "$T/k/c7/p$p/plan" "$T/k/c8/p$p/plan"
	done
	# rolling, repaired without bound on the samples it is judged on:
	# every node holds, and it moves fewer VMs than the hindsight
	run -0 awk '$1 == "config" { m[$2] = $3 }
		$1 == "node" && m[$2] == "clairvoyant" { n++; if ($8 != "held") bad++ }
		END { print (n > 0), bad + 0 }' "$T/bt"
	assert_output '1 0'
	local mc mh
	mc=$(awk '$1 == "summary" && $2 == "c4" { print $11 }' "$T/bt")
	mh=$(awk '$1 == "summary" && $2 == "c3" { print $11 }' "$T/bt")
	(( mc < mh )) || fail "the clairvoyant moved $mc, the hindsight $mh"
	oracles "$T/bt"
	# afresh, the clairvoyant (the hindsight) holds every node and packs
	# denser than pct, yet pct is not dominated: a yardstick, no rival
	run -0 awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == "dominated_by") d = i }
		$1 == "c6" { print $2, $3, $d }' "$T/tsv"
	assert_output 'pct afresh none'
	# compact:1: the clairvoyant moves at most one VM a week, the reader
	# holds it to that (it is not re-packed, unlike the hindsight)
	ovb-backtest --mem 0 --cpus 4 --tolerance 0.05 --train 14d --periods 4 \
		--max-moves 1 --consolidate -m pct,hindsight,clairvoyant \
		"$T/bb.series" >"$T/bt1"
	[[ -z $(awk '$1 == "config" { m[$2] = $3 }
		$1 == "period" && m[$2] == "clairvoyant" && $9 > 1' "$T/bt1") ]] ||
		fail "the clairvoyant moved more than one"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt1" --series "$T/bb.series"
	assert_output agree
	variant smoves "$T/bt1" 's/^(period c3 2 [0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+) [0-9]+$/\1 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"MOVED 2 exceeds the 1 moves of compact:1"* ]] || fail "$stderr"
}

@test "bitbrains: one-shot, the yardsticks are packed anew every period yet move nothing (MOVED 0, as formats/backtest.md says); the oracle agrees" {
	bitbrains
	ovb-backtest --mem 0 --cpus 4 --tolerance 0.05 --train 14d \
		--replay 30d --plan one-shot -m peak,pct,hindsight,clairvoyant \
		"$T/bb.series" >"$T/bt"
	# packed anew: the nodes used differ from period to period
	run -0 awk '$1 == "config" { m[$2] = $3 } $1 == "period" &&
		m[$2] == "hindsight" { print $7 }' "$T/bt"
	[[ $(sort -u <<<"$output" | wc -l) -gt 1 ]] ||
		fail "the hindsight used the same nodes every month: $output"
	run -0 awk '$1 == "period" && $9 != 0' "$T/bt"
	assert_output ''
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/bb.series"
	assert_output agree
}

@test "format: a gap record is checked against its summary; 65 at its line" {
	# a and b: 3 cpu each in training (their sum 6 > 4: pct needs two
	# nodes), 1 each in the period replayed (the hindsight needs one)
	printf '%s\n' 'ovb-series 1' 'series a cpu' 'interval 300 s' \
		'sample 0 3' 'sample 300 3' 'sample 600 1' 'sample 900 1' \
		'series b cpu' 'interval 300 s' 'sample 0 3' 'sample 300 3' \
		'sample 600 1' 'sample 900 1' >"$T/ab.series"
	run -0 ovb-backtest "${SMALL[@]}" -m pct,hindsight,peak --periods 1 \
		"$T/ab.series"
	printf '%s\n' "$output" >"$T/bt"
	ovb-fmt "$T/bt"
	# c1 peak, c2 pct, c3 hindsight: pct 2 nodes, hindsight 1, each
	# placing both VMs
	assert_line 'gap c1 0 2 1 2 2'
	assert_line 'gap c2 0 2 1 2 2'
	assert_line 'gap c3 1 2 1 2 2'
	variant closed "$T/bt" 's/^gap c3 1 2 1 2 2$/gap c3 0.5 2 1 2 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *':'*': gap: CLOSED is 0.5, but'* ]]
	# 2 nodes for 4 VMs is not above 1 node for 2
	variant nogap "$T/bt" 's/^gap c3 1 2 1 2 2$/gap c3 1 2 1 4 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *'no gap to close'* ]]
	variant twice "$T/bt" 's/^gap c3 1 2 1 2 2$/gap c3 1 2 1 2 2\ngap c3 1 2 1 2 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *'has a gap record already'* ]]
	variant other "$T/bt" 's/^gap c3 1 2 1 2 2$/gap c2 1 2 1 2 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"gap: 'c2' is not the configuration"* ]]
	variant zero "$T/bt" 's/^gap c3 1 2 1 2 2$/gap c3 1 2 1 0 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *'a placed count is 0'* ]]
	variant half "$T/bt" 's/^gap c3 1 2 1 2 2$/gap c3 1 2 1 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *'PCT-PLACED without HINDSIGHT-PLACED'* ]]
	# a record of before the placed counts: in nodes, read and written
	# back as it was
	sed 's/^\(gap c[0-9]* [0-9.]* 2 1\) 2 2$/\1/' "$T/bt" >"$T/old"
	run -0 grep -c '^gap c[0-9]* [0-9.]* 2 1$' "$T/old"
	assert_output 3
	run -0 ovb-fmt -c "$T/old"
	cmp <(printf '%s\n' "$output") "$T/old"
}

@test "gap: in nodes a VM placed: a method that places fewer VMs is not credited with the nodes they would need" {
	# c has training samples and none in the period replayed: pct and vpa
	# place it, the hindsight does not (no samples to place it by).  At
	# O = 0.5, first-fit-decreasing: pct (medians c 3, a 2, b 2, d 1) c+d,
	# a+b: 2 nodes for 4 VMs; vpa (x 1.15: 3.45, 2.3, 2.3, 1.15) c, a+d,
	# b: 3 for 4; the hindsight a+b+d (1 each): 1 for 3
	printf '%s\n' 'ovb-series 1' 'series a cpu' 'interval 300 s' \
		'sample 0 2' 'sample 300 2' 'sample 600 1' 'sample 900 1' \
		'series b cpu' 'interval 300 s' 'sample 0 2' 'sample 300 2' \
		'sample 600 1' 'sample 900 1' \
		'series c cpu' 'interval 300 s' 'sample 0 3' 'sample 300 3' \
		'series d cpu' 'interval 300 s' 'sample 0 1' 'sample 300 1' \
		'sample 600 1' 'sample 900 1' >"$T/abcd.series"
	run -0 ovb-backtest "${SMALL[@]}" -m pct,hindsight,vpa --periods 1 \
		"$T/abcd.series"
	printf '%s\n' "$output" >"$T/bt"
	assert_line --regexp '^summary c1 4 2 '
	assert_line --regexp '^summary c2 4 3 '
	assert_line --regexp '^summary c3 3 1 '
	# vpa in nodes a VM: (2/4 - 3/4) / (2/4 - 1/3) = -1.5 (in nodes,
	# (2 - 3) / (2 - 1) = -1 would credit the hindsight's unplaced c)
	assert_line 'gap c1 0 2 1 4 3'
	assert_line 'gap c2 -1.5 2 1 4 3'
	assert_line 'gap c3 1 2 1 4 3'
	diff <(gaps "$T/bt") <(awk '$1 == "gap" { printf "%s %.12g\n", $2, $3 }' \
		"$T/bt")
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/abcd.series"
	assert_output agree
}

@test "usage: --tod-min and --tod-offset are strict; tod's windows need an interval dividing 1 h" {
	run -64 --separate-stderr ovb-backtest --tod-min 0 "$S"
	run -64 --separate-stderr ovb-backtest --tod-min 1x "$S"
	run -64 --separate-stderr ovb-backtest --tod-offset 86400 "$S"
	printf '%s\n' 'ovb-series 1' 'series a cpu' 'interval 7 s' \
		'sample 0 1' 'sample 7 2' 'sample 14 1' >"$T/odd.series"
	run -65 --separate-stderr ovb-backtest -m tod --start 0 --train 14s \
		--replay 7s "$T/odd.series"
	[[ $stderr == *'must divide 1 h'* ]]
}

@test "bitbrains, memory: --mem-rule promise is ovb-place's (kept plans), the config says promise, the replay agrees; pool is the default" {
	[[ -d $BB ]] || skip "no $BB"
	ovb-import --bitbrains -r cpu,mem -o "$T/bm.series" "$BB"/2013-7/*.csv.gz \
		"$BB"/2013-8/*.csv.gz
	ovb-backtest --mem-rule promise -m pct,aggregate,nsigma,hindsight \
		--cpus 8 --tolerance 0.01 --train 14d --periods 3 --keep "$T/k" \
		"$T/bm.series" >"$T/bt"
	# every method but nsigma (its mode has no promise rule)
	run -0 awk '$1 == "config" { print $3, $12 }' "$T/bt"
	assert_output $'aggregate promise\npct promise\nnsigma \nhindsight promise'
	run -0 cat "$T/k/c1/p2/cmd"
	assert_output --regexp '^ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode aggregate --mem-rule promise --max-moves [0-9]+ cluster apps profiles previous$'
	replans "$T"/k/c*/p*
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/bm.series"
	assert_output agree
	# pool, the default: no field, and the limits bound the nodes
	ovb-backtest -m pct --cpus 8 --tolerance 0.01 --train 14d --periods 3 \
		"$T/bm.series" >"$T/pool"
	run -0 awk '$1 == "config" { print NF }' "$T/pool"
	assert_output 11
	run -0 awk '$1 == "summary" { print $4 }' "$T/pool"
	pool_nodes=$output
	run -0 awk '$1 == "config" && $3 == "pct" { c = $2 } $1 == "summary" &&
		$2 == c { print $4 }' "$T/bt"
	(( output <= pool_nodes ))
	# the field is checked
	variant rule "$T/bt" '/^config c1 /s/ promise$/ pledge/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"'pledge' is not promise"* ]]
	run -64 --separate-stderr ovb-backtest --mem-rule pledge "$T/bm.series"
}
