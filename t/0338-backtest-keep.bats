#!/usr/bin/env bats
# ovb-backtest places through lib/place.c's engine, as ovb-place does:
# --keep DIR writes every planned period's cluster, apps, profiles, the
# plan re-planned from (previous), the plan and cmd, the ovb-place command.
# ovb-place, a separate process reading those files, must make the same
# plan byte for byte, and the backtest's place records of the period must
# be that plan's.  Every method is ovb-place's: nsigma its --mode nsigma,
# the plain sums with memory plain cpu=, mem= and mem-limit= reservations
# (formats/apps.md).  The Bitbrains runs skip when
# ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	S=$DATA/backtest-small.series
	M=$DATA/backtest-mem.series
	SMALL=(--start 0 --train 600s --replay 600s --cpus 4 --tolerance 0.5)
	ALL=overbook,aggregate,drift,peak,pct,nsigma,vpa,calibrated,mean
}

# replan BT KEEP: for every period kept, ovb-place on its files (its cmd)
# makes its plan, byte for byte, and BT's place records of that
# configuration and period are the plan's; prints "compared N own M" (M
# periods of methods ovb-place cannot run)
replan() {
	local bt=$1 keep=$2 d n=0 own=0 id k
	for d in "$keep"/c*/p*; do
		id=${d%/*}
		id=${id##*/}
		k=${d##*/p}
		if [[ $(head -c1 "$d/cmd") == '#' ]]; then
			own=$((own + 1))
			continue
		fi
		if ! (cd "$d" && sh cmd >"$T/replan" 2>"$T/replan.err"); then
			echo "$d: ovb-place failed: $(cat "$T/replan.err")"
			return 1
		fi
		if ! cmp -s "$T/replan" "$d/plan"; then
			echo "$d: ovb-place made another plan"
			return 1
		fi
		if ! diff <(awk -v c="$id" -v k="$k" '$1 == "place" && $2 == c &&
		    $3 == k { print $4, $5 }' "$bt" | sort) \
		    <(awk '$1 == "place" { print $2, $4 }' "$d/plan" | sort) \
		    >/dev/null; then
			echo "$d: the backtest's place records are not the plan"
			return 1
		fi
		n=$((n + 1))
	done
	echo "compared $n own $own"
}

@test "hand-made: every method, rolling and one-shot: ovb-place on the kept files makes each period's plan" {
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" -m "$ALL" \
		--plan rolling,one-shot --keep "$T/k" "$S"
	assert_equal "$stderr" ''
	printf '%s\n' "$output" >"$T/bt"
	# 9 methods x (2 rolling periods + 1 one-shot plan), every one
	# ovb-place's
	run -0 replan "$T/bt" "$T/k"
	assert_output 'compared 27 own 0'
	run -0 cat "$T/k/c6/p1/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --mode nsigma --nsigma 3 cluster apps profiles'
	# re-planning: period 2 of a rolling plan starts from period 1's
	cmp "$T/k/c1/p1/plan" "$T/k/c1/p2/previous"
	run -0 grep -c 'op=modify' "$T/k/c1/p2/apps"
	assert_output 3
	# the oracle replays every plan (and checks peak's, pct's and mean's
	# sums)
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$S"
	assert_output agree
}

@test "memory: every method is ovb-place's; the plain sums' memory is mem= and mem-limit=" {
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" --mem-window 300s \
		--mem 3 --mem-pool 1.5 -m "$ALL" --keep "$T/k" "$M"
	printf '%s\n' "$output" >"$T/bt"
	# 9 methods: 2 periods each
	run -0 replan "$T/bt" "$T/k"
	assert_output 'compared 18 own 0'
	run -0 cat "$T/k/c4/p1/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 cluster apps'
	# peak: its memory the largest window peak, the limit that x 1.15
	run -0 grep -c '^capsule vm cpu=[0-9.e+-]* net=0 mem=[0-9.e+-]* mem-limit=[0-9]*$' "$T/k/c4/p1/apps"
	assert_output 3
	[[ ! -e $T/k/c4/p1/profiles ]]
	run -0 grep -c '^profile .* mem$' "$T/k/c1/p1/profiles"
	assert_output 3
	run -0 python3 "$ORACLE/backtest.py" --mem-window 300 "$T/bt" \
		--series "$M"
	assert_output agree
}

@test "--policy first-fit-decreasing and --max-moves 1: still ovb-place's plans" {
	ovb-backtest "${SMALL[@]}" -m "$ALL" --policy first-fit-decreasing \
		--max-moves 1 --keep "$T/k" "$S" >"$T/bt"
	run -0 replan "$T/bt" "$T/k"
	assert_output 'compared 18 own 0'
	run -0 cat "$T/k/c1/p2/cmd"
	assert_output 'ovb-place --policy first-fit-decreasing --seed 1 --grid 1000 --max-moves 1 cluster apps profiles previous'
}

@test "the comparison fails on another policy's plan" {
	ovb-backtest "${SMALL[@]}" -m peak --periods 1 --policy worst-fit \
		--keep "$T/k" "$S" >"$T/bt"
	run -0 replan "$T/bt" "$T/k"
	# worst-fit puts c beside b, best-fit beside a
	sed -i 's/worst-fit/best-fit/' "$T/k/c1/p1/cmd"
	run -1 replan "$T/bt" "$T/k"
	assert_output --partial 'c1/p1: ovb-place made another plan'
}

@test "a new method is a row: mean, the sum of the training means, packs all three; the oracle checks its sums" {
	run -0 ovb-backtest "${SMALL[@]}" -m mean,peak --periods 1 "$S"
	assert_line --regexp '^config c2 mean '
	# the training means fit one node of 4 cpus (peak needs two)
	assert_line 'place c2 1 a n1'
	assert_line 'place c2 1 b n1'
	assert_line 'place c2 1 c n1'
	printf '%s\n' "$output" >"$T/bt"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$S"
	assert_output agree
	# the oracle catches a mean plan whose sum exceeds the node
	run -0 ovb-backtest --start 0 --train 600s --replay 600s --cpus 2 \
		--tolerance 0.5 -m mean --periods 1 "$S"
	printf '%s\n' "$output" >"$T/bt2"
	variant bigger "$T/bt2" 's/^config c1 mean 2 /config c1 mean 1.5 /'
	run -1 python3 "$ORACLE/backtest.py" "$BAD" --series "$S"
	assert_output --partial 'the mean sum'
}

@test "a VM that used no cpu in training is placed (1 B/s of net: ovb-apps wants a positive reservation), by ovb-place too" {
	printf '%s\n' 'ovb-series 1' 'series a cpu' 'interval 300 s' \
		'sample 0 1' 'sample 300 2' 'sample 600 1' 'sample 900 1' \
		'series z cpu' 'interval 300 s' 'sample 0 0' 'sample 300 0' \
		'sample 600 0' 'sample 900 0.5' >"$T/z.series"
	run -0 --separate-stderr ovb-backtest "${SMALL[@]}" -m peak,pct,vpa,mean \
		--periods 1 --keep "$T/k" "$T/z.series"
	printf '%s\n' "$output" >"$T/bt"
	assert_line 'place c1 1 z n1'
	run -0 grep -c 'capsule vm cpu=0 net=1$' "$T/k/c1/p1/apps"
	assert_output 1
	run -0 replan "$T/bt" "$T/k"
	assert_output 'compared 4 own 0'
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/z.series"
	assert_output agree
}

@test "re-planning: a VM of the last plan that no node takes alone now leaves (op=terminate), as a fresh plan would reject it" {
	printf '%s\n' 'ovb-series 1' 'series a cpu' 'interval 300 s' \
		'sample 0 1' 'sample 300 1' 'sample 600 5' 'sample 900 5' \
		'sample 1200 1' 'sample 1500 1' \
		'series b cpu' 'interval 300 s' 'sample 0 1' 'sample 300 1' \
		'sample 600 1' 'sample 900 1' 'sample 1200 1' 'sample 1500 1' \
		>"$T/g.series"
	run -0 --separate-stderr ovb-backtest --start 0 --train 600s \
		--replay 600s --cpus 4 --tolerance 0 -m peak --periods 2 \
		--keep "$T/k" "$T/g.series"
	printf '%s\n' "$output" >"$T/bt"
	# a's training peak is 5 cpu for period 2: above 4, it is out
	assert_line 'period c1 2 1200 1800 1 1 1 0'
	run -0 grep -c '^app a op=terminate$' "$T/k/c1/p2/apps"
	assert_output 1
	run -0 replan "$T/bt" "$T/k"
	assert_output 'compared 2 own 0'
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/g.series"
	assert_output agree
}

@test "same inputs, same bytes, kept files too; the table is the same with and without --keep" {
	ovb-backtest "${SMALL[@]}" --keep "$T/a" "$S" >"$T/a.bt"
	ovb-backtest "${SMALL[@]}" --keep "$T/b" "$S" >"$T/b.bt"
	ovb-backtest "${SMALL[@]}" "$S" >"$T/c.bt"
	cmp "$T/a.bt" "$T/b.bt"
	cmp "$T/a.bt" "$T/c.bt"
	diff -r "$T/a" "$T/b"
}

@test "bad options and an unwritable --keep: 64 and 74, nothing written" {
	run -64 --separate-stderr ovb-backtest "${SMALL[@]}" --policy worstfit "$S"
	assert_output ''
	assert_equal "${stderr_lines[0]}" "ovb-backtest: --policy: 'worstfit' is not worst-fit, best-fit, tolerance, random or first-fit-decreasing"
	: >"$T/file"
	run -74 --separate-stderr ovb-backtest "${SMALL[@]}" --keep "$T/file" -o "$T/out" "$S"
	assert_output ''
	assert_equal "$stderr" "ovb-backtest: $T/file/c1: cannot create: Not a directory"
	[[ ! -e $T/out ]]
}

@test "bitbrains: every rolling period of the shipped backtest, every method: ovb-place on the kept files makes the same plan" {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	bitbrains_months "$BB" "$T"
	# the shipped configurations (README): 4, 8, 16 cpus, O 1% and 5%,
	# 14 and 28 days, rolling weekly, memory 4 GiB a cpu
	ovb-backtest --keep "$T/k" "$T/7.series" "$T/8.series" \
		"$T/9.series" >"$T/bt"
	local periods
	periods=$(grep -c '^period ' "$T/bt")
	# 96 configurations x 9 weeks, every one ovb-place's
	assert_equal "$periods" 864
	run -0 replan "$T/bt" "$T/k"
	assert_output "compared 864 own 0"
	# cpu alone: the plain sums go through the engine too
	ovb-backtest --mem 0 -m peak,pct,vpa,mean --keep "$T/k0" \
		"$T/7.series" "$T/8.series" "$T/9.series" >"$T/bt0"
	run -0 replan "$T/bt0" "$T/k0"
	assert_output "compared 432 own 0"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt0" --csv \
		"$BB"/2013-7/*.csv.gz "$BB"/2013-8/*.csv.gz "$BB"/2013-9/*.csv.gz
	assert_output agree
}

# margin_series FILE: a, b and c of 2, 1.9 and 1 cpu in each of 150
# slots of 300 s (the training window [0, 30000) and a week [30000, 45000))
margin_series() {
	awk 'BEGIN { print "ovb-series 1"
		split("a b c", n, " "); split("2 1.9 1", v, " ")
		for (i = 1; i <= 3; i++) {
			print "series " n[i] " cpu"; print "interval 300 s"
			for (k = 0; k < 150; k++) print "sample " k * 300, v[i]
		} }' >"$1"
}

@test "--joint-margin M: joint plans on its training samples times 1 + M, keeps those, and ovb-place and the oracle agree" {
	margin_series "$T/m.series"
	local opt=(--start 0 --train 30000s --replay 15000s --cpus 4
		--tolerance 0.1 -m joint --periods 1)
	# no margin: a and b (3.9 cpu) share a node
	run -0 ovb-backtest "${opt[@]}" "$T/m.series"
	assert_line 'place c1 1 a n1'
	assert_line 'place c1 1 b n1'
	assert_line 'place c1 1 c n2'
	printf '%s\n' "$output" >"$T/bt0"
	run -0 ovb-backtest "${opt[@]}" --joint-margin 0 "$T/m.series"
	assert_output "$(cat "$T/bt0")"
	# 10%: 2.2 + 2.09 > 4, a goes with c (3.3)
	run -0 --separate-stderr ovb-backtest "${opt[@]}" --joint-margin 0.1 \
		--keep "$T/k" "$T/m.series"
	assert_line 'place c1 1 a n1'
	assert_line 'place c1 1 b n2'
	assert_line 'place c1 1 c n1'
	printf '%s\n' "$output" >"$T/bt"
	# the kept samples are the training window's times 1.1, exactly
	run -0 python3 - "$T/m.series" "$T/k/c1/p1/series" <<-'PY'
		import sys
		def read(p):
		    s, cur = {}, None
		    for line in open(p):
		        f = line.split()
		        if f[:1] == ['series']: cur = s.setdefault(f[1], {})
		        elif f[:1] == ['sample']: cur[int(f[1])] = float(f[2])
		    return s
		raw, kept = read(sys.argv[1]), read(sys.argv[2])
		n = 0
		for vm, ks in kept.items():
		    assert sorted(ks) == [t for t in sorted(raw[vm]) if t < 30000], vm
		    for t, v in ks.items():
		        assert v == raw[vm][t] * 1.1, (vm, t, v)
		        n += 1
		print(n)
	PY
	assert_output 300
	run -0 replan "$T/bt" "$T/k"
	assert_output 'compared 1 own 0'
	run -0 python3 "$ORACLE/place_joint.py" --slots overlap \
		"$T/k/c1/p1/cluster" "$T/k/c1/p1/apps" "$T/k/c1/p1/plan" \
		"$T/k/c1/p1/series" "$T/k/c1/p1/profiles"
	assert_line agree
	# the replay is of the samples as they are
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$T/m.series"
	assert_output agree
	run -64 --separate-stderr ovb-backtest "${opt[@]}" --joint-margin -0.1 \
		"$T/m.series"
	assert_equal "${stderr_lines[0]}" "ovb-backtest: --joint-margin: -0.1 is outside [0, 100]"
}
