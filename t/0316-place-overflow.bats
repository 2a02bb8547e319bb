#!/usr/bin/env bats
# Valid profiles whose reservations overflow a double (issue 30 item 4): a
# tau of 4.9e-324 s, a rho of 1e308 cpu-s, sigmas of 1e308 cpu.  ovb-place
# rejects them and ovb-check finds the violation, as before; their messages
# say the number, or that it lies above the largest representable value,
# never "inf".
bats_require_minimum_version 1.5.0
load test_helper

# profile FIELD VALUE WHO...: example.profile with FIELD set to VALUE in the
# cpu profiles of the capsules WHO, into $BATS_TEST_TMPDIR/p
profile() {
	local field=$1 value=$2
	shift 2
	awk -v f="$field" -v v="$value" -v who=" $* " '
		$1 == "profile" { on = $3 == "cpu" && index(who, " " $2 " ") }
		on && $1 == f { $2 = v }
		{ print }' "$DATA/example.profile" >"$BATS_TEST_TMPDIR/p"
}

BIG='above the largest representable value (1.7976931348623157e+308)'

@test "place, check: an overflowing load is said in words, never inf (tau 4.9e-324 s, rho 1e308 cpu-s, sigma 1e308 cpu twice)" {
	local d=$BATS_TEST_TMPDIR case
	ovb-place "$DATA/example.cluster" "$DATA/example.apps" \
		"$DATA/example.profile" >"$d/plan"
	for case in "tau 4.9e-324 db" "rho 1e308 db" "sigma 1e308 web db"; do
		profile $case
		run -0 --separate-stderr ovb-place "$DATA/example.cluster" \
			"$DATA/example.apps" "$d/p"
		assert_line "reject shop admission: cpu reservations would reach $BIG cpu, above the cluster's 18 cpu"
		refute_output --regexp '\binf\b'
		run -1 --separate-stderr ovb-check "$DATA/example.cluster" \
			"$DATA/example.apps" "$d/plan" "$d/p"
		refute_output --regexp '\binf\b'
		[[ $case == sigma* ]] ||
			assert_line --regexp "^violation n3 cpu eq1 load=$(sed 's/[().+]/\\&/g' <<<"$BIG") cpu > C=8 cpu \(tau_min=[0-9.e+-]+ s\) capsules shop/db$"
	done
	# one sigma of 1e308 is no overflow: the number, exactly
	profile sigma 1e308 db
	run -0 --separate-stderr ovb-place "$DATA/example.cluster" \
		"$DATA/example.apps" "$d/p"
	assert_line "reject shop admission: cpu reservations would reach 1e+308 cpu, above the cluster's 18 cpu"
	run -1 --separate-stderr ovb-check "$DATA/example.cluster" \
		"$DATA/example.apps" "$d/plan" "$d/p"
	assert_line --partial 'violation n3 cpu eq1 load=1e+308 cpu > C=8 cpu'
}
