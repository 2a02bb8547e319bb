#!/usr/bin/env bats
# ovb-report's views of a trading replay (ovb-trade, issue 12) and of a
# market (ovb-market / ovb-rebalance, issue 13): the trade table against
# t/oracle/trade_months.py (the per-month figures recomputed from the
# ovb-trade files by their definitions), the market table against the
# Fraction oracle t/oracle/market.py; the replay of the Bitbrains sample
# skips when ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	PY=/usr/bin/python3
	GEN=$BATS_TEST_DIRNAME/gen/trade.py
	MONTHS=$BATS_TEST_DIRNAME/oracle/trade_months.py
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
}


# compare_months TSV-FROM-REPORT ORACLE-OUTPUT: the same rows (file,
# month, counts exactly, lent and the fraction above A within 1e-9)
compare_months() {
	$PY - "$1" "$2" <<'PY'
import sys
got = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])][1:]
want = [l.rstrip('\n').split('\t') for l in open(sys.argv[2])]
assert len(got) == len(want) and got, (len(got), len(want))
for g, w in zip(got, want):
    # report: replay file month intervals lent above over nint reclaims rec abandoned
    rec = g[9].split('/') if g[9] != '-' else ['-'] * 3
    gg = [g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8]] + rec + [g[10]]
    for i, (a, b) in enumerate(zip(gg, w)):
        if i in (3, 4):
            assert abs(float(a) - float(b)) <= 1e-9 * max(1, abs(float(b))), (g, w)
        else:
            assert a == b, (i, g, w)
print(len(got), 'rows')
PY
}

@test "report: trade table per month (two months, both enforcements) equals the oracle's recount" {
	local s
	for s in 3 5 8; do
		mkdir -p "$T/$s"
		$PY "$GEN" random "$s" "$T/$s"
		# 40 intervals of 60 s across the turn of August 2013
		awk '$1 == "sample" { $2 += 1377993600 - 1200 } { print }' "$T/$s/series" >"$T/$s/series.shift"
		ovb-trade --check "$T/$s/cluster" "$T/$s/apps" "$T/$s/series.shift" >"$T/$s/wc"
		ovb-trade --check --enforce capped --reclaim fix "$T/$s/cluster" "$T/$s/apps" "$T/$s/series.shift" >"$T/$s/cap"
		sed 's/trade=yes/trade=no/' "$T/$s/apps" >"$T/$s/apps.no"
		ovb-trade --check "$T/$s/cluster" "$T/$s/apps.no" "$T/$s/series.shift" >"$T/$s/no"
		run -0 --separate-stderr ovb-report -f tsv -t trade "$T/$s/wc" "$T/$s/cap" "$T/$s/no"
		printf '%s\n' "$output" >"$T/$s/got"
		assert_line --partial "	2013-08	20	"
		assert_line --partial "	2013-09	20	"
		assert_line --regexp "^no trading	"
		$PY "$MONTHS" "$T/$s/wc" "$T/$s/cap" "$T/$s/no" >"$T/$s/want"
		run -0 --separate-stderr compare_months "$T/$s/got" "$T/$s/want"
		assert_output "6 rows"
	done
}

@test "report: trade table in text and HTML; the plot over time is an SVG with a line per replay" {
	need_gnuplot
	mkdir -p "$T/r"
	$PY "$GEN" random 3 "$T/r"
	ovb-trade "$T/r/cluster" "$T/r/apps" "$T/r/series" >"$T/r/wc"
	ovb-trade --enforce capped "$T/r/cluster" "$T/r/apps" "$T/r/series" >"$T/r/cap"
	run -0 --separate-stderr ovb-report "$T/r/wc" "$T/r/cap"
	assert_line --partial "Resource trading replayed (Sharc), per month"
	assert_line --partial "work-conserving, paper"
	run -0 --separate-stderr ovb-report -p trade -o "$T/r/t.svg" "$T/r/wc" "$T/r/cap"
	grep -q '<svg' "$T/r/t.svg" || fail "not an SVG"
	grep -q 'capped, paper' "$T/r/t.svg" || fail "no line for the capped replay"
	run -0 --separate-stderr ovb-report -f html -o "$T/r/p.html" "$T/r/wc" "$T/r/cap"
	grep -q 'id="trade"' "$T/r/p.html" || fail "no trade section"
	grep -q '<svg' "$T/r/p.html" || fail "no plot in the page"
	# the same inputs, the same bytes
	run -0 --separate-stderr ovb-report -f html -o "$T/r/p2.html" "$T/r/wc" "$T/r/cap"
	cmp "$T/r/p.html" "$T/r/p2.html"
}

@test "report: market table: Fig. 3's allocations, shares, errors, price and bound; a migration plan's moves" {
	local D=$BATS_TEST_DIRNAME/data
	run -0 --separate-stderr ovb-report -f tsv -t market "$D/market-fig3.cluster" "$D/example.bids"
	printf '%s\n' "$output" >"$T/m"
	$PY - "$T/m" <<'PY'
import sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
head, rows = rows[0], rows[1:]
col = {h: i for i, h in enumerate(head)}
want = {'v1': (37.5, 100 / 3, 1 / 9), 'v4': (93.75, 100, 1 / 15), 'v5': (93.75, 100, 1 / 15)}
for r in rows:
    if r[0] in want:
        ai, ar, e = want[r[0]]
        got = float(r[col['alloc_i']]), float(r[col['alloc_r']]), float(r[col['e_r']])
        assert all(abs(a - b) <= 1e-12 * max(1, b) for a, b in zip(got, (ai, ar, e))), (r, want[r[0]])
PY
	run -0 --separate-stderr ovb-report -t market "$D/market-fig3.cluster" "$D/example.bids"
	assert_output --partial "cpu 0.32 credit/cpu"
	assert_output --partial "no placement below 0.1111"
	# a bad placement, rebalanced: the plan's moves in the table
	sed 's/^vm v4 n2$/vm v4 n1/' "$D/example.bids" >"$T/bad.bids"
	ovb-rebalance --seed 1 "$D/market-fig3.cluster" "$T/bad.bids" >"$T/plan"
	grep -q '^move ' "$T/plan" || fail "no move in the plan"
	run -0 --separate-stderr ovb-report -t market "$D/market-fig3.cluster" "$T/bad.bids" "$T/plan"
	local vm to
	read -r _ vm _ to < <(grep -m1 '^move ' "$T/plan")
	assert_output --partial "Migration plan $T/plan"
	assert_output --regexp "$vm .* 1\. -> $to"
}

@test "report: market table against the Fraction oracle on 10 random instances" {
	local s
	for s in $(seq 1 10); do
		mkdir -p "$T/$s"
		$PY "$BATS_TEST_DIRNAME/gen/market.py" "$T/$s" "$s" 3 6 $( ((s % 2)) && echo --mem)
		ovb-report -f tsv -t market "$T/$s/cluster" "$T/$s/bids" >"$T/$s/got"
		$PY "$BATS_TEST_DIRNAME/oracle/market.py" exact "$T/$s/cluster" "$T/$s/bids" >"$T/$s/want"
		$PY - "$T/$s/got" "$T/$s/want" <<'PY' || fail "instance $s"
import sys
from fractions import Fraction as F
got = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
col = {h: i for i, h in enumerate(got[0])}
want = {}
for l in open(sys.argv[2]):
    t = l.split()
    if t and t[0] == 'alloc' and t[2] != '-':
        want[(t[1], t[3])] = (F(t[4]), F(t[5]))
n = 0
for r in got[1:]:
    k = (r[col['vm']], r[col['res']])
    if k in want:
        ai, ar = want[k]
        assert abs(float(r[col['alloc_i']]) - ai) <= 1e-9 * ai, (r, ai)
        assert abs(float(r[col['alloc_r']]) - ar) <= 1e-9 * ai, (r, ar)
        n += 1
assert n == len(want), (n, len(want))
PY
	done
}

@test "report: the Bitbrains sample replayed with and without trading, per month (skips without ../shared)" {
	[[ -d $BB/2013-8 ]] || skip "no $BB"
	ovb-import -q --bitbrains "$BB"/2013-7/*.csv.gz -o "$T/7.series"
	ovb-import -q --bitbrains "$BB"/2013-8/*.csv.gz -o "$T/8.series"
	ovb-usage -q -I 300 -r cpu,net "$T/7.series" >"$T/u"
	ovb-tbucket -q -r cpu,net "$T/7.series" >"$T/c"
	ovb-profile -q -O 0.01 -t 86400 "$T/u" "$T/c" >"$T/profile"
	{
		echo 'ovb-cluster 1'
		for n in 1 2 3 4; do echo "node n$n 4 cpu 125000000 B/s"; done
	} >"$T/cluster"
	{
		echo 'ovb-apps 1'
		for a in 0 1 2 3 4 5 6 7; do
			echo "app g$a trade=yes"
			for k in 1 2 3 4; do echo "capsule vm$((a * 4 + k)) profile=vm$((a * 4 + k))"; done
		done
	} >"$T/apps"
	sed 's/ trade=yes$/ trade=no/' "$T/apps" >"$T/apps.no"
	ovb-place -q "$T/cluster" "$T/apps" "$T/profile" >"$T/plan" || true
	ovb-trade -q --check -o "$T/trade" "$T/cluster" "$T/apps" "$T/plan" "$T/8.series"
	ovb-trade -q --check -o "$T/fix" --enforce capped --reclaim fix "$T/cluster" "$T/apps" "$T/plan" "$T/8.series"
	ovb-trade -q --check -o "$T/none" "$T/cluster" "$T/apps.no" "$T/plan" "$T/8.series"
	run -0 --separate-stderr ovb-report -f tsv -t trade "$T/trade" "$T/fix" "$T/none"
	printf '%s\n' "$output" >"$T/got"
	assert_line --regexp "^work-conserving, paper	.*	2013-08	"
	assert_line --regexp "^no trading	.*	2013-08	"
	$PY "$MONTHS" "$T/trade" "$T/fix" "$T/none" >"$T/want"
	run -0 --separate-stderr compare_months "$T/got" "$T/want"
	# the table as text, for the log
	ovb-report -t trade "$T/trade" "$T/fix" "$T/none" | sed 's/^/# /' >&3
}
