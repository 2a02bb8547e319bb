#!/usr/bin/env bats
# ovb-reserves --method bank: the bank algorithm (section 3.2.2 of the
# hierarchical bank paper), as --help and ovb-reserves(1) define its six steps,
# and the comparison with the LP on the experiments of section 4.
#
# t/oracle/reserves_bank.py implements the documented bank again and must
# agree on random multi-round instances (spatial, temporal and partial
# balances); t/oracle/reserves_sim.py closes the manager loop over nodes
# whose usage follows the allocation (work-conserving proportional share).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
	EX=$DATA/example.reserves
}

R_of() {
	awk -v k="$2" -v n="$3" -v c="$4" '$1 == "round" { r = $2 }
		r == k && $1 == "R" && $2 == n && $3 == c { print $4 }' "$1"
}

# near X Y: |X - Y| <= 1e-6
near() {
	awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; if (d < 0) d = -d
		if (d > 1e-6) { print x " is not " y; exit 1 } }'
}

# sim SCENARIO ROUNDS OPTIONS...: the closed loop; prints its '# total'
# line's allocated mean |deviation| (summed over classes)
sim_total() {
	local sc=$1 k=$2
	shift 2
	python3 "$ORACLE/reserves_sim.py" "$sc" --rounds "$k" -- "$@" |
		awk '$2 == "total:" { print $4 }'
}

@test "example, round 1: the six steps by hand" {
	ovb-reserves -m bank "$EX" >"$T/out"
	# r = D everywhere; c3 is needy only on n4 (u = r), idle on n1-n3.
	# 1: c3 deposits 3 x 10.  2: n1 68/35/1, n4 62/32/12.  3: c1 has 266,
	# 26 over 240: scaled above the floor by 1 - 26/262; c2 137, 17 over:
	# 1 - 17/133; c3 15, 25 short: to n4 (37).  5: c3's 30 paid on n4
	# (67).  6: every node scaled above its floors to 100.
	local n1 n4
	n1=$(awk 'BEGIN { a = 1 + 67 * (1 - 26 / 262); b = 1 + 34 * (1 - 17 / 133)
		f = 97 / (a + b + 1 - 3); printf "%.9f %.9f", 1 + (a - 1) * f, 1 + (b - 1) * f }')
	n4=$(awk 'BEGIN { a = 1 + 61 * (1 - 26 / 262); b = 1 + 31 * (1 - 17 / 133)
		f = 97 / (a + b + 67 - 3); printf "%.9f %.9f %.9f", 1 + (a - 1) * f, 1 + (b - 1) * f, 1 + 66 * f }')
	near "$(R_of "$T/out" 1 n1 c1)" "${n1% *}"
	near "$(R_of "$T/out" 1 n1 c2)" "${n1#* }"
	near "$(R_of "$T/out" 1 n1 c3)" 1
	read -r a b c <<<"$n4"
	near "$(R_of "$T/out" 1 n4 c1)" "$a"
	near "$(R_of "$T/out" 1 n4 c2)" "$b"
	near "$(R_of "$T/out" 1 n4 c3)" "$c"
	grep -q '^# ovb-reserves: bank, floor 1%, c 2, keep 0$' "$T/out"
	ovb-fmt "$T/out"
}

@test "bank: every node's tickets add up to 100, never below the floor" {
	python3 "$ORACLE/reserves_gen.py" --seed 4 --nodes 30 --classes 7 \
		--rounds 4 >"$T/in"
	ovb-reserves -m bank --floor 0.5 "$T/in" >"$T/out"
	awk '$1 == "round" { k = $2 }
		$1 == "R" { if ($4 < 0.5 - 1e-9) exit 1; s[$2 " " k] += $4 }
		END { for (x in s) if (s[x] < 100 - 1e-6 || s[x] > 100 + 1e-6) exit 1 }' "$T/out"
}

@test "oracle: the documented bank, 120 instances, spatial compensation" {
	run -0 python3 "$ORACLE/reserves_bank.py" --count 120
	assert_output --partial 'agree 120 instances'
}

@test "oracle: temporal compensation (--bank-keep 1, c 3) and half balances" {
	run -0 python3 "$ORACLE/reserves_bank.py" --count 60 --seed0 500 \
		--keep 1 --c 3
	assert_output --partial 'agree 60 instances'
	run -0 python3 "$ORACLE/reserves_bank.py" --count 40 --seed0 900 \
		--keep 0.5
	assert_output --partial 'agree 40 instances'
}

@test "temporal compensation: a class that stopped is paid its balance on restart" {
	local keep
	for keep in 0 1; do
		python3 "$ORACLE/reserves_sim.py" dynamic100 --rounds 16 --history \
			-- -m bank --bank-keep "$keep" >"$T/k$keep"
	done
	# c1 stops in rounds 10-14 (floor allocation), needy again in 15
	[[ $(awk -F'\t' '$1 == 12 && $2 == "c1" { print $4 }' "$T/k0") == 1.000000 ]]
	[[ $(awk -F'\t' '$1 == 15 && $2 == "c1" { print $4 }' "$T/k0") == 60.000000 ]]
	awk -F'\t' '$1 == 15 && $2 == "c1" { exit !($4 > 80) }' "$T/k1"
}

# ---------------------------------------------------------------------------
# LP against the bank, over rounds (section 4).

@test "steady, 4 nodes (Fig. 4): the LP's shares are at least as close to D as the bank's" {
	local lp bank
	lp=$(sim_total steady4 30)
	bank=$(sim_total steady4 30 -m bank)
	awk -v l="$lp" -v b="$bank" 'BEGIN { exit !(l <= b) }' ||
		fail "LP $lp, bank $bank"
	# the paper: the bank within 2% of the desired shares
	python3 "$ORACLE/reserves_sim.py" steady4 --rounds 30 -- -m bank |
		awk '/^# c/ { if ($6 > 2) exit 1 }'
}

@test "steady, 100 nodes, c3 on 30 (Fig. 5), 10 managers: LP at least as close as the bank" {
	local lp bank
	lp=$(sim_total steady100 25 --fanout 10)
	bank=$(sim_total steady100 25 -m bank --fanout 10)
	awk -v l="$lp" -v b="$bank" 'BEGIN { exit !(l <= b) }' ||
		fail "LP $lp, bank $bank"
	python3 "$ORACLE/reserves_sim.py" steady100 --rounds 25 -- -m bank --fanout 10 |
		awk '/^# c/ { if ($6 > 2) exit 1 }'
}

@test "dynamic, 100 nodes, c1 stops twice (Fig. 8): LP at least as close as the bank" {
	local lp bank
	lp=$(sim_total dynamic100 32)
	bank=$(sim_total dynamic100 32 -m bank)
	awk -v l="$lp" -v b="$bank" 'BEGIN { exit !(l <= b) }' ||
		fail "LP $lp, bank $bank"
}
