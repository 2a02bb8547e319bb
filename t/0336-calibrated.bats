#!/usr/bin/env bats
# ovb-backtest's method calibrated (lib/drift.c): recency weights, the
# trend of daily quantiles forecast to the end of the period planned for,
# and the inflation k calibrated on the folds held out of the training
# window.  t/oracle/drift.py recomputes every weight sum, sigma, held-out
# node count and verdict, and the choice of k, from the series and the
# -vv lines; t/oracle/backtest.py replays the plans.  The series is
# synthetic (t/oracle/drift_series.py: four VMs, hourly, 49 days, trends
# up and down, one VM without samples in days 35-41).  The Bitbrains run
# skips when ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
	S=$T/s.series
	python3 "$ORACLE/drift_series.py" >"$S"
	RUN=(-m calibrated --plan rolling --start 0 --cpus 2,4 --tolerance 0.05
		--train 14d,28d)
}

@test "calibrated: weights, trend, sigma, held-out verdicts and k agree with the oracle" {
	run -0 --separate-stderr ovb-backtest -vv "${RUN[@]}" "$S"
	printf '%s\n' "$output" >"$T/bt"
	printf '%s\n' "$stderr" >"$T/err"
	run -0 python3 "$ORACLE/drift.py" "$T/err" --series "$S" --start 0 \
		--maxtrain 2419200
	assert_output agree
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --series "$S"
	assert_output agree
	# 3 weeks after the first 28 days; 2 sizes x 2 windows
	assert_equal "$(grep -c '^config c[0-9]* calibrated ' "$T/bt")" 4
	# 28-day windows calibrate on two folds, 14-day ones on one
	grep -q 'train 2419200 period 1 fold 2 held-out 1209600 1814400 ' "$T/err" ||
		fail "no second fold"
	! grep -q 'train 1209600 period [0-9]* fold 2' "$T/err" ||
		fail "a second fold in a 14-day window"
	# c has no sample in the part held out of period 3's 14-day window:
	# left out of that fold's plans
	! grep -E 'train 1209600 period 3 fold.*: .*\bc\b' "$T/err" ||
		fail "c placed without held-out samples"
}

@test "calibrated: the oracle catches a wrong half-life, a wrong count, a skipped k" {
	ovb-backtest -vv "${RUN[@]}" "$S" >"$T/bt" 2>"$T/err"
	run -1 python3 "$ORACLE/drift.py" "$T/err" --series "$S" --start 0 \
		--maxtrain 2419200 --half-life 259200
	assert_output --partial 'sigma'
	run -1 python3 "$ORACLE/drift.py" "$T/err" --series "$S" --start 0 \
		--maxtrain 2419200 --trend-quantile 0.5
	assert_output --partial 'sigma'
	# the first broken node's count of overflows, 9 more
	variant over "$T/err" '0,/ broken:/s/ over ([0-9]+) broken:/ over 9\1 broken:/'
	run -1 python3 "$ORACLE/drift.py" "$BAD" --series "$S" --start 0 \
		--maxtrain 2419200
	assert_output --partial 'node'
	variant skip "$T/err" '/ k 0\.5 node /d'
	run -1 python3 "$ORACLE/drift.py" "$BAD" --series "$S" --start 0 \
		--maxtrain 2419200
	assert_output --partial 'want 0.5'
}

@test "calibrated: k and the plan of a period come from its training window only" {
	ovb-backtest -vv "${RUN[@]}" --train 28d "$S" >"$T/a" 2>"$T/a.err"
	# the first replayed week [28d, 35d) scaled by 3: what is replayed
	# changes, the calibration and the plan of period 1 do not
	awk '$1 == "sample" && $2 >= 2419200 && $2 < 3024000 { $3 = 3 * $3 } 1' \
		"$S" >"$T/s3"
	ovb-backtest -vv "${RUN[@]}" --train 28d "$T/s3" >"$T/b" 2>"$T/b.err"
	diff <(grep ' period 1 ' "$T/a.err") <(grep ' period 1 ' "$T/b.err")
	diff <(grep '^place c[0-9]* 1 ' "$T/a") <(grep '^place c[0-9]* 1 ' "$T/b")
	! cmp -s <(grep '^node c[0-9]* 1 ' "$T/a") <(grep '^node c[0-9]* 1 ' "$T/b") ||
		fail "the replay did not change"
}

@test "calibrated: one-shot plans state a validity; the oracle replays them" {
	run -0 ovb-backtest -m calibrated,drift --plan one-shot --start 0 \
		--train 28d --replay 7d --cpus 2 --tolerance 0.05 "$S"
	printf '%s\n' "$output" >"$T/bt"
	assert_equal "$(grep -c '^valid ' "$T/bt")" 2
	run -0 python3 "$ORACLE/backtest.py" --validity "$T/bt" --series "$S"
	assert_output --partial agree
}

@test "calibrated: same inputs, same bytes; bad options" {
	ovb-backtest "${RUN[@]}" "$S" >"$T/a"
	ovb-backtest "${RUN[@]}" "$S" >"$T/b"
	cmp "$T/a" "$T/b"
	ovb-fmt -c "$T/a" | cmp - "$T/a"
	run -64 --separate-stderr ovb-backtest --k-min 2 --k-max 1 "$S"
	[[ $stderr == *"--k-max 1 is below --k-min 2"* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-backtest --trend-quantile 1.5 "$S"
	run -64 --separate-stderr ovb-backtest --cal-half-life -1 "$S"
}

@test "bitbrains: calibrated, 8-CPU nodes, O = 1%, 14 days: both oracles agree" {
	[[ -d $BB/2013-7 && -d $BB/2013-8 && -d $BB/2013-9 ]] ||
		skip "the Bitbrains traces are not at $BB"
	bitbrains_months "$BB" "$T"
	ovb-backtest -vv -m calibrated,pct --cpus 8 --tolerance 0.01 --train 14d \
		"$T/7.series" "$T/8.series" "$T/9.series" >"$T/bt" 2>"$T/err"
	run -0 python3 "$ORACLE/backtest.py" "$T/bt" --csv \
		"$BB"/2013-7/*.csv.gz "$BB"/2013-8/*.csv.gz "$BB"/2013-9/*.csv.gz
	assert_output agree
	local first
	first=$(awk '$1 == "period" { print $4; exit }' "$T/bt")
	run -0 python3 "$ORACLE/drift.py" "$T/err" --series "$T/7.series" \
		"$T/8.series" "$T/9.series" --start $((first - 1209600)) \
		--maxtrain 1209600
	assert_output agree
	grep '^summary' "$T/bt" >&3
}

@test "ovb-usage --half-life, --horizon, --calibrate: weighted U of a series, the oracle agrees" {
	local u=$T/u
	ovb-usage -q --half-life 7d --horizon 7d --calibrate 0.05 -p 97.5 "$S" >"$u"
	ovb-fmt "$u"
	run -0 python3 "$ORACLE/drift.py" --usage "$u" --series "$S" \
		--half-life 604800 --horizon 604800 --calibrate 0.05
	assert_output agree
	# the weights alone: no trend, k = 1
	ovb-usage -q --half-life 2d "$S" >"$u"
	run -0 python3 "$ORACLE/drift.py" --usage "$u" --series "$S" \
		--half-life 172800
	assert_output agree
	# N is the sum of the weights: 1024 for the newest interval of a
	grep -qx 'intervals [0-9]*' "$u"
	# no recency weighting, a 3-day holdout, daily medians
	ovb-usage -q --calibrate 0.01 --holdout 3d --horizon 2d \
		--trend-quantile 0.5 "$S" >"$u"
	run -0 python3 "$ORACLE/drift.py" --usage "$u" --series "$S" \
		--half-life 0 --calibrate 0.01 --holdout 259200 --horizon 172800 \
		--trend-quantile 0.5
	assert_output agree
	# and the oracle notices another trend quantile
	run -1 python3 "$ORACLE/drift.py" --usage "$u" --series "$S" \
		--half-life 0 --calibrate 0.01 --holdout 259200 --horizon 172800
	assert_output --partial 'bins differ'
	# -v says k
	run -0 --separate-stderr ovb-usage -v --calibrate 0.05 "$S"
	[[ $stderr == *"series a cpu: calibrated on ["*") held out: k = "* ]] ||
		fail "$stderr"
}

@test "ovb-usage drift options: onoff input 65, bad values 64" {
	run -65 --separate-stderr ovb-usage --half-life 1d "$DATA/example.onoff"
	[[ $stderr == *"need ovb-series input"* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-usage --half-life 3x "$S"
	run -64 --separate-stderr ovb-usage --calibrate 1 "$S"
	run -64 --separate-stderr ovb-usage --trend-quantile 2 "$S"
}
