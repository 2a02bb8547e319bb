#!/usr/bin/env bats
# Memory as a promise: ovb-place --mem-rule promise [--mem-tolerance O]
# and ovb-check on its plans (formats/plan.md, "Memory", the record
# mem-rule).  Under the rule promise a node's one memory rule is Pr(Y > C)
# <= O_mem, Y the sum of its capsules' window peaks (independent), decided
# as Eq. 3; the sum of the requests and the limits within C + pool are no
# rule (they stay in the plan, for enforcement).
#
# t/oracle/mem.py node recomputes every node's Pr(Y > C) and OOM exposure
# exactly (Fractions) from the profiles' mem U, by the rule the plan
# records, and checks the plan's risk records and that no rejected
# application fits.  The boundary is built by hand: Pr(Y > C) exactly
# 1/4 against O_mem = 0.25 (holds), the next double below (breaks), and
# one bin over (breaks).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	T=$BATS_TEST_TMPDIR
}

GiB=1073741824

# Three capsules whose window peaks are 1 GiB in 99 windows of 100 and 4
# GiB in one: requests 3 GiB (9 GiB together), limits 4.6 GiB (13.8 GiB).
rare_profiles() {
	local c
	echo 'ovb-profile 1'
	for c in a b c; do
		cat <<-EOF
		profile $c mem
		request 3221225472 B
		limit 4939212390 B
		O 0.01
		interval 3600 s
		width 1073741824 B
		intervals 100
		bin 1 99
		bin 4 1
		EOF
	done
}

apps_of() {     # NAME...: one application of one capsule per profile
	local c
	echo 'ovb-apps 1'
	for c in "$@"; do
		printf 'app %s\ncapsule c profile=%s\n' "$c" "$c"
	done
}

one_node() {    # MEM POOL [B]
	printf 'ovb-cluster 1\nnode n1 64 cpu 1000000000 B/s mem %s B mem-pool %s B\n' \
		"$1" "$2"
}

# Two capsules a, b: peaks 1 or 2 GiB, each in half the windows (b's
# high bin at B_HIGH GiB); requests 2 GiB, own O 0.3.
half_profiles() {       # B_HIGH
	local c hi
	echo 'ovb-profile 1'
	for c in a:2 b:$1; do
		hi=${c#*:}
		cat <<-EOF
		profile ${c%:*} mem
		request 2147483648 B
		limit 2469606195 B
		O 0.3
		interval 3600 s
		width 1073741824 B
		intervals 2
		bin 1 1
		bin $hi 1
		EOF
	done
}

nodes_used() {
	awk '$1 == "place" { print $4 }' "$1" | sort -u | wc -l
}

@test "promise: requests above MEM and limits above MEM + pool share a node when the peaks rarely coincide; pool refuses them" {
	rare_profiles >"$T/p"
	apps_of a b c >"$T/a"
	one_node $((8 * GiB)) $GiB >"$T/c"
	# pool: a alone (b's limits 9.2 GiB > 8 + 1 GiB)
	run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/p"
	assert_line --regexp '^place a c n1 a$'
	assert_line --partial 'reject b capsule c: no feasible node of 1 (mem limits on 1)'
	assert_line --partial 'reject c capsule c'
	refute_line --partial 'mem-rule'
	echo "$output" >"$T/pool"
	run -0 python3 "$ORACLE/mem.py" node --rule pool --apps "$T/a" "$T/c" "$T/pool" "$T/p"
	assert_line agree
	# promise, O_mem the capsules' 0.01: all three; Y > 8 GiB when two
	# or three peak at once: 3 (0.01^2 0.99) + 0.01^3 = 0.000298; the
	# exposure 0.000297 x 1 GiB + 0.000001 x 4 GiB
	run -0 --separate-stderr ovb-place --mem-rule promise "$T/c" "$T/a" "$T/p"
	refute_line --regexp '^reject'
	assert_line 'mem-rule promise'
	assert_line --regexp '^place c c n1 c$'
	assert_line 'qos a c mem 3221225472 4939212390 3600 0.01'
	echo "$output" >"$T/prom"
	run -0 python3 -c "
import sys
from fractions import Fraction as F
r = [l.split() for l in open('$T/prom') if l.startswith('risk n1 mem')][0]
pr = 3 * F(1, 100) ** 2 * F(99, 100) + F(1, 100) ** 3
ex = (3 * F(1, 100) ** 2 * F(99, 100) * 1 + F(1, 100) ** 3 * 4) * $GiB
assert abs(float(r[3]) - float(pr)) <= 1e-15, (r, float(pr))
assert r[4] == '0.01', r
assert float(r[5]) == 3 * 3221225472, r
assert abs(float(r[7]) - float(ex)) <= 1e-9 * float(ex), (r, float(ex))
print('ok')"
	assert_output ok
	run -0 python3 "$ORACLE/mem.py" node --rule promise --apps "$T/a" "$T/c" "$T/prom" "$T/p"
	assert_line --regexp '^n1 holds requests 9663676416.0 limits 14817637170.0 '
	assert_line agree
	run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/prom" "$T/p"
	assert_output ''
	# O_mem 0.0002 < 0.000298: the third does not fit, and the reason
	# is Eq. 3 (not the requests or limits)
	run -0 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0.0002 "$T/c" "$T/a" "$T/p"
	assert_line 'mem-rule promise 0.0002'
	assert_line --regexp '^reject c capsule c: no feasible node of 1 \(Eq. 3 on 1\); nearest n1, mem Eq. 3 Pr\(Y>C\)=0.000298 > O_mem=0.0002$'
	echo "$output" >"$T/prom2"
	run -0 python3 "$ORACLE/mem.py" node --rule promise --tolerance 0.0002 --apps "$T/a" "$T/c" "$T/prom2" "$T/p"
	assert_line agree
}

@test "promise at the limit: Pr(Y > C) exactly O_mem holds; O_mem's next double below, or one bin over, breaks" {
	apps_of a b >"$T/a"
	one_node $((3 * GiB)) 0 >"$T/c"
	half_profiles 2 >"$T/p"
	# Y > 3 GiB only when both peak at 2 GiB: Pr = 1/4 exactly; the
	# requests (4 GiB) and limits (4.6 GiB) are above C + pool = 3 GiB
	run -0 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0.25 "$T/c" "$T/a" "$T/p"
	refute_line --regexp '^reject'
	assert_line 'risk n1 mem 0.25 0.25 4294967296 3221225472 268435456'
	# the qos records state the capsules' own O, not O_mem
	assert_line 'qos b c mem 2147483648 2469606195 3600 0.3'
	echo "$output" >"$T/plan"
	run -0 ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	run -0 python3 "$ORACLE/mem.py" node --rule promise --tolerance 0.25 --apps "$T/a" "$T/c" "$T/plan" "$T/p"
	assert_line agree
	# the next double below 0.25: b does not fit
	run -0 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0.24999999999999997 "$T/c" "$T/a" "$T/p"
	assert_line --partial 'reject b capsule c: no feasible node of 1 (Eq. 3 on 1)'
	echo "$output" >"$T/plan2"
	run -0 python3 "$ORACLE/mem.py" node --rule promise --tolerance 0.24999999999999997 --apps "$T/a" "$T/c" "$T/plan2" "$T/p"
	assert_line agree
	# without --mem-tolerance: the capsules' own O, 0.3 >= 1/4
	run -0 --separate-stderr ovb-place --mem-rule promise "$T/c" "$T/a" "$T/p"
	refute_line --regexp '^reject'
	assert_line 'risk n1 mem 0.25 0.3 4294967296 3221225472 268435456'
	# b's high peak one bin over (3 GiB): Y > 3 GiB whenever b peaks, 1/2
	half_profiles 3 >"$T/p3"
	run -0 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0.25 "$T/c" "$T/a" "$T/p3"
	assert_line --regexp '^reject b capsule c: no feasible node of 1 \(Eq. 3 on 1\); nearest n1, mem Eq. 3 Pr\(Y>C\)=0.5 > O_mem=0.25$'
	echo "$output" >"$T/plan3"
	run -0 python3 "$ORACLE/mem.py" node --rule promise --tolerance 0.25 --apps "$T/a" "$T/c" "$T/plan3" "$T/p3"
	assert_line agree
	# the pool rule refuses b at once: the requests are above the
	# cluster's memory (Sharc's admission, which promise leaves out)
	run -0 --separate-stderr ovb-place "$T/c" "$T/a" "$T/p"
	assert_line 'reject b admission: mem reservations would reach 4294967296 B, above the cluster'"'"'s 3221225472 B'
}

@test "ovb-check judges a promise plan by its mem-rule record; a node made to break it is an eq3 violation" {
	rare_profiles >"$T/p"
	apps_of a b c >"$T/a"
	one_node $((8 * GiB)) $GiB >"$T/c"
	ovb-place --mem-rule promise --mem-tolerance 0.001 "$T/c" "$T/a" "$T/p" >"$T/plan"
	grep -qx 'mem-rule promise 0.001' "$T/plan"
	run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/p"
	assert_output ''
	run -0 --separate-stderr ovb-check --mem-rule promise --mem-tolerance 0.001 "$T/c" "$T/a" "$T/plan" "$T/p"
	# the record's tolerance lowered below Pr(Y > C) = 0.000298: the node
	# breaks its promise (and its risk record states another O_mem)
	variant lower "$T/plan" 's/^mem-rule promise 0.001$/mem-rule promise 0.0002/'
	run -1 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	assert_line --regexp '^violation n1 mem eq3 Pr\(Y>C\)=0.000298 > O_mem=0.0002 C=8589934592 B \(grid 1073741824 B\) OOM exposure E\[\(Y-C\)\+\]=.* B capsules a/c,b/c,c/c$'
	assert_line --regexp '^violation n1 mem risk OMIN=0.001 \(recomputed 0.0002\)'
	run -1 python3 "$ORACLE/mem.py" node --apps "$T/a" "$T/c" "$BAD" "$T/p"
	assert_line 'n1: breaks the memory rules'
	# the record taken out: a pool plan, whose requests and limits break
	variant nopromise "$T/plan" '/^mem-rule/d'
	run -1 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	assert_line --regexp '^violation n1 mem request requests=9663676416 B > C=8589934592 B'
	assert_line --regexp '^violation n1 mem limit limits=14817637170 B > C=8589934592 B \+ pool=1073741824 B'
	# --mem-rule pool judges the promise plan so too (a what-if)
	run -1 --separate-stderr ovb-check --mem-rule pool "$T/c" "$T/a" "$T/plan" "$T/p"
	assert_line --regexp '^violation n1 mem request '
	assert_line --regexp '^violation n1 mem limit '
	# a pool plan judged as a promise at its capsules' own O holds
	ovb-place "$T/c" "$T/a" "$T/p" >"$T/pool"
	run -0 --separate-stderr ovb-check --mem-rule promise "$T/c" "$T/a" "$T/pool" "$T/p"
	# a capsule moved onto a full node: the plan breaks
	one_node $((5 * GiB)) 0 >"$T/c5"
	run -1 --separate-stderr ovb-check "$T/c5" "$T/a" "$T/plan" "$T/p"
	assert_line --regexp '^violation n1 mem eq3 Pr\(Y>C\)=0.029.* > O_mem=0.001 '
	# ovb-report reads the record: the node is ok, its requests no rule
	run -0 --separate-stderr ovb-report --format tsv "$T/c" "$T/a" "$T/plan" "$T/p"
	refute_output --partial 'violated'
}

@test "bad input: --mem-tolerance out of [0, 1) or not a number, without --mem-rule promise, a bad rule: 64; a bad mem-rule record: 65" {
	rare_profiles >"$T/p"
	apps_of a b c >"$T/a"
	one_node $((8 * GiB)) $GiB >"$T/c"
	ovb-place --mem-rule promise --mem-tolerance 0.01 "$T/c" "$T/a" "$T/p" >"$T/plan"
	local t o
	for t in ovb-place ovb-check; do
		for o in 1 1.5 -0.1 0.1x nan inf '' 0x0.1 1e-400x; do
			run -64 --separate-stderr $t --mem-rule promise --mem-tolerance="$o" "$T/c" "$T/a" "$T/p" "$T/plan"
			[[ $stderr == *--mem-tolerance* ]] || fail "$t --mem-tolerance=$o: $stderr"
			assert_output ''
		done
		run -64 --separate-stderr $t --mem-tolerance 0.1 "$T/c" "$T/a" "$T/p" "$T/plan"
		[[ $stderr == *'--mem-tolerance is the O_mem of --mem-rule promise'* ]] || fail "$stderr"
		run -64 --separate-stderr $t --mem-rule pool --mem-tolerance 0.1 "$T/c" "$T/a" "$T/p" "$T/plan"
		run -64 --separate-stderr $t --mem-rule Promise "$T/c" "$T/a" "$T/p" "$T/plan"
		[[ $stderr == *"--mem-rule: 'Promise' is not pool or promise"* ]] || fail "$stderr"
	done
	# 0 is a tolerance: every node's peaks must fit
	run -0 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0 "$T/c" "$T/a" "$T/p"
	assert_line 'mem-rule promise 0'
	assert_line 'risk n1 mem 0 0 6442450944 8589934592 0'
	assert_line --partial 'reject c capsule c: no feasible node of 1 (Eq. 3 on 1)'
	# with --mode nsigma: not both
	run -64 --separate-stderr ovb-place --mode nsigma --mem-rule promise "$T/c" "$T/a" "$T/p"
	[[ $stderr == *'not both'* ]] || fail "$stderr"
	assert_output ''
	# a plan given keeps its rule: another is refused, none given keeps it
	apps_of d >"$T/a2"
	sed 's/profile a mem/profile d mem/' <(rare_profiles | sed -n 1,10p) >"$T/p2"
	run -64 --separate-stderr ovb-place --mem-rule pool "$T/c" "$T/a2" "$T/p" "$T/p2" "$T/plan"
	[[ $stderr == *'a plan of mem-rule promise; --mem-rule pool would change'* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0.02 "$T/c" "$T/a2" "$T/p" "$T/p2" "$T/plan"
	run -0 --separate-stderr ovb-place "$T/c" "$T/a2" "$T/p" "$T/p2" "$T/plan"
	assert_line 'mem-rule promise 0.01'
	run -0 --separate-stderr ovb-place --mem-rule promise --mem-tolerance 0.01 "$T/c" "$T/a2" "$T/p" "$T/p2" "$T/plan"
	assert_line 'mem-rule promise 0.01'
	# the record: bad values, twice, beside mode nsigma (65 at its line)
	local n k=0
	n=$(grep -n '^mem-rule' "$T/plan" | cut -d: -f1)
	for o in 'promise 1' 'promise -0.1' 'promise x' 'pool 0.1' 'Pool' 'promise 0.1 0.2' ''; do
		k=$((k + 1))
		variant "r$k" "$T/plan" "s/^mem-rule promise 0.01\$/mem-rule $o/"
		run -65 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
		[[ $stderr == *"$BAD:$n:"* ]] || fail "mem-rule $o: $stderr"
		assert_output ''
	done
	variant twice "$T/plan" "s/^mem-rule promise 0.01\$/&\\nmem-rule promise 0.01/"
	run -65 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	[[ $stderr == *"$BAD:$((n + 1)): mem-rule is given twice"* ]] || fail "$stderr"
	variant ns "$T/plan" "s/^mem-rule promise 0.01\$/&\\nmode nsigma 3/"
	run -65 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	[[ $stderr == *"$BAD:$((n + 1)): mem-rule promise"*'mode nsigma'* ]] || fail "$stderr"
	# mem-rule pool, written out, reads as no record
	variant pool "$T/plan" 's/^mem-rule promise 0.01$/mem-rule pool/'
	run -1 --separate-stderr ovb-check "$T/c" "$T/a" "$BAD" "$T/p"
	assert_line --regexp '^violation n1 mem request '
}

@test "bitbrains: the 32 VMs' memory by both rules: the promise uses fewer nodes, the oracle agrees on every node" {
	local BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd" c i r
	[[ -d $BB/2013-7 ]] || skip "the Bitbrains traces are not at $BB"
	ovb-import -q --bitbrains -r mem "$BB"/2013-7/*.csv.gz -o "$T/m7"
	ovb-usage -q -r mem "$T/m7" >"$T/u"
	ovb-profile -q -O 0.01 "$T/u" >"$T/p"
	{
		echo 'ovb-apps 1'
		for c in $(awk '/^profile/ { print $2 }' "$T/p"); do
			printf 'app %s\ncapsule c profile=%s\n' "$c" "$c"
		done
	} >"$T/a"
	[[ $(grep -c '^app' "$T/a") -eq 32 ]]
	{
		echo 'ovb-cluster 1'
		for i in $(seq 1 32); do
			echo "node n$i 64 cpu 1000000000 B/s mem $((32 * GiB)) B mem-pool $((8 * GiB)) B"
		done
	} >"$T/c"
	for r in pool promise; do
		ovb-place -p first-fit-decreasing --mem-rule $r "$T/c" "$T/a" "$T/p" >"$T/$r"
		! grep -q '^reject' "$T/$r" || fail "$r: $(grep '^reject' "$T/$r")"
		run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/$r" "$T/p"
		run -0 python3 "$ORACLE/mem.py" node --rule $r --apps "$T/a" "$T/c" "$T/$r" "$T/p"
		assert_line agree
		[[ $(grep -c ' holds ' <<<"$output") -eq $(nodes_used "$T/$r") ]]
	done
	echo "nodes: pool $(nodes_used "$T/pool"), promise $(nodes_used "$T/promise")" >&3
	[[ $(nodes_used "$T/promise") -le $(nodes_used "$T/pool") ]]
	[[ $(nodes_used "$T/promise") -lt $(nodes_used "$T/pool") ]]
	# the promise plan by the pool rule: its nodes' requests or limits break
	run -1 --separate-stderr ovb-check --mem-rule pool "$T/c" "$T/a" "$T/promise" "$T/p"
	assert_line --regexp '^violation n[0-9]+ mem (request|limit) '
}
