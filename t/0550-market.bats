#!/usr/bin/env bats
# ovb-market: Merkat's proportional-share allocations, errors and prices,
# against the paper's Fig. 3 and the independent Fraction oracle
# t/oracle/market.py on instances from t/gen/market.py.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	PY=/usr/bin/python3
	ORACLE=$BATS_TEST_DIRNAME/oracle/market.py
	GEN=$BATS_TEST_DIRNAME/gen/market.py
	FIG3=("$DATA/market-fig3.cluster" "$DATA/example.bids")
}

# field RECORD-PREFIX N: field N of the output line starting with PREFIX
field() {
	awk -v p="$1" -v n="$2" 'index($0, p) == 1 { print $n; exit }' <<<"$output"
}

@test "market: Fig. 3 exactly: alloc_i 37.5 x3 and 93.75 x2, price 0.32, alloc_r 33.33/100/100, errors 1/9 and 1/15" {
	run -0 --separate-stderr ovb-market --exact "${FIG3[@]}"
	assert_equal "$(field 'price cpu' 3)" 8/25
	for v in v1 v2 v3; do
		assert_equal "$(field "alloc $v n1 cpu" 5)" 75/2
		assert_equal "$(field "alloc $v n1 cpu" 6)" 100/3
		assert_equal "$(field "alloc $v n1 cpu" 7)" 1/9
	done
	assert_equal "$(field 'alloc v4 n2 cpu' 5)" 375/4
	assert_equal "$(field 'alloc v4 n2 cpu' 6)" 100
	assert_equal "$(field 'alloc v4 n2 cpu' 7)" 1/15
	assert_equal "$(field 'alloc v5 n3 cpu' 7)" 1/15
	assert_equal "$(field 'error max' 3)" 1/9
	# the doubles: the same to 1e-12
	run -0 --separate-stderr ovb-market "${FIG3[@]}"
	$PY -c "import sys; v=[float(x) for x in sys.argv[1:]]; \
		e=[0.32, 37.5, 100/3, 1/9, 93.75, 100, 1/15]; \
		assert all(abs(a-b) <= 1e-12*b for a, b in zip(v, e)), v" \
		"$(field 'price cpu' 3)" "$(field 'alloc v1 n1' 5)" "$(field 'alloc v1 n1' 6)" \
		"$(field 'alloc v1 n1' 7)" "$(field 'alloc v4 n2' 5)" "$(field 'alloc v4 n2' 6)" \
		"$(field 'alloc v4 n2' 7)"
}

@test "market: Fig. 3's placement is the best of all 243 (exhaustive oracle): min max-error 1/9" {
	run -0 --separate-stderr "$PY" "$ORACLE" best "${FIG3[@]}"
	read -r best _ count total <<<"$output"
	assert_equal "$total" 243
	assert_equal "$best" 1/9
	run -0 --separate-stderr ovb-market --exact "${FIG3[@]}"
	assert_equal "$(field 'error max' 3)" "$best"
	# the bound never exceeds the optimum
	run -0 --separate-stderr ovb-market "${FIG3[@]}"
	$PY -c "import sys; assert float(sys.argv[1]) <= 1/9" "$(field 'error bound' 3)"
}

@test "market: --exact equals the Fraction oracle on 40 random instances (caps binding, mem, new VMs, reserve prices)" {
	local s
	for s in $(seq 1 40); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" $((2 + s % 3)) $((3 + s % 6)) \
			$( ((s % 2)) && echo --mem) --new $((s % 3 == 0))
		ovb-market --exact "$T/$s/cluster" "$T/$s/bids" |
			grep -v -e '^#' -e '^error bound' >"$T/$s/got"
		$PY "$ORACLE" exact "$T/$s/cluster" "$T/$s/bids" >"$T/$s/want"
		diff "$T/$s/want" "$T/$s/got" || fail "instance $s differs"
	done
}

@test "market: properties (exact): per node sum alloc_r <= capacity, every alloc <= a_max, bound <= error" {
	local s
	for s in $(seq 101 130); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" 3 8 --mem
		ovb-market --exact "$T/$s/cluster" "$T/$s/bids" >"$T/$s/out"
		$PY - "$T/$s/cluster" "$T/$s/bids" "$T/$s/out" <<'PY' || fail "instance $s"
import sys
from fractions import Fraction as F
cap, amax, load = {}, {}, {}
for line in open(sys.argv[1]):
    t = line.split()
    if t and t[0] == 'node':
        lab = dict(x.split('=') for x in t[6:])
        cap[(t[1], 'cpu')] = F(t[2]); cap[(t[1], 'mem')] = F(lab['mem'])
for line in open(sys.argv[2]):
    t = line.split()
    if t and t[0] == 'bid':
        amax[(t[1], t[2])] = F(t[5])
for line in open(sys.argv[3]):
    t = line.split()
    if t and t[0] == 'alloc':
        ai, ar = F(t[4]), F(t[5])
        assert ai <= amax[(t[1], t[3])] and ar <= amax[(t[1], t[3])], t
        load[(t[2], t[3])] = load.get((t[2], t[3]), 0) + ar
    if t and t[0] == 'error' and t[1] == 'max':
        emax = F(t[2])
    if t and t[0] == 'error' and t[1] == 'bound':
        bound = float(t[2])
for k, v in load.items():
    assert v <= cap[k], (k, v, cap[k])
assert bound <= float(emax) + 1e-12
PY
	done
}

@test "market: double mode: per node the written alloc_r sum to at most the capacity, exactly (Fraction of the decimals)" {
	local s
	for s in $(seq 201 260); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" $((2 + s % 3)) $((4 + s % 9)) $( ((s % 2)) && echo --mem)
		ovb-market "$T/$s/cluster" "$T/$s/bids" >"$T/$s/out"
	done
	run -0 --separate-stderr $PY - "$T" <<'PY'
import sys, os
from fractions import Fraction as F
tight = over = 0
for s in range(201, 261):
    d = os.path.join(sys.argv[1], str(s))
    cap, load, fsum = {}, {}, {}
    for line in open(d + '/cluster'):
        t = line.split()
        if t and t[0] == 'node':
            cap[(t[1], 'cpu')] = F(t[2])
            for x in t[6:]:
                if x.startswith('mem='):
                    cap[(t[1], 'mem')] = F(x[4:])
    for line in open(d + '/out'):
        t = line.split()
        if t and t[0] == 'alloc' and t[2] != '-':
            k = (t[2], t[3])
            load[k] = load.get(k, 0) + F(t[5])
            fsum[k] = fsum.get(k, 0.0) + float(t[5])
    for k, v in load.items():
        assert v <= cap[k], (s, k, float(v - cap[k]))
        tight += v == cap[k]
print("nodes at capacity exactly: %d" % tight)
PY
	# the instances are tight: many nodes are filled to the last digit
	[[ ${output##* } -ge 20 ]] || fail "$output"
}

@test "market: the error bound is positive on Fig. 3 (1/9 less 1e-12) and never above the exhaustive optimum (30 small instances)" {
	run -0 --separate-stderr ovb-market "${FIG3[@]}"
	$PY -c "import sys; b = float(sys.argv[1]); assert 1/9 - 1e-9 < b <= 1/9, b" "$(field 'error bound' 3)"
	local s best bound pos=0 tight=0
	for s in $(seq 301 330); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" $((2 + s % 2)) $((6 + s % 2)) $( ((s % 2)) && echo --mem)
		run -0 --separate-stderr ovb-market "$T/$s/cluster" "$T/$s/bids"
		bound=$(field 'error bound' 3)
		read -r _ best _ _ < <($PY "$ORACLE" best "$T/$s/cluster" "$T/$s/bids")
		$PY -c "import sys; b, o = map(float, sys.argv[1:]); assert b <= o, (b, o)" \
			"$bound" "$best" || fail "instance $s: bound $bound above the optimum $best"
		$PY -c "import sys; sys.exit(not float(sys.argv[1]) > 0)" "$bound" && pos=$((pos + 1))
		$PY -c "import sys; b, o = map(float, sys.argv[1:]); sys.exit(not b >= o - 1e-9)" \
			"$bound" "$best" && tight=$((tight + 1))
	done
	echo "# bound > 0 on $pos of 30, equal to the optimum on $tight of 30" >&3
	((pos > 0)) || fail "the bound is 0 everywhere"
}

@test "market: error 0 on perfectly partitionable instances (each node's bids its share of the total)" {
	local s
	for s in $(seq 1 15); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" $((2 + s % 4)) $((6 + s % 5)) --partition
		run -0 --separate-stderr ovb-market --exact "$T/$s/cluster" "$T/$s/bids"
		assert_equal "$(field 'error max' 3)" 0
	done
}

# bad NAME SED: the Fig. 3 bids edited by SED must exit 65 with
# FILE:LINE at the edited line, and write nothing with -o.
bad() {
	variant "$1.bids" "$DATA/example.bids" "$2"
	local line
	line=$(diff "$DATA/example.bids" "$BAD" | sed -n 's/^[0-9,]*c\([0-9]*\).*/\1/p' | head -1)
	run -65 --separate-stderr ovb-market -o "$T/out" "$DATA/market-fig3.cluster" "$BAD"
	assert_equal "$output" ""
	[[ $stderr == "ovb-market: $BAD:$line: "* ]] || fail "stderr: $stderr (line $line)"
	[[ ! -e $T/out ]] || fail "-o was written"
	run -65 --separate-stderr ovb-rebalance -o "$T/out" "$DATA/market-fig3.cluster" "$BAD"
	[[ $stderr == "ovb-rebalance: $BAD:$line: "* ]] || fail "stderr: $stderr (line $line)"
	[[ ! -e $T/out ]] || fail "-o was written"
}

@test "market: bad input: negative bid, a_max 0, a VM bigger than every node, unknown node: 65 at FILE:LINE, nothing written" {
	bad negbid 's/^bid v4 cpu 30 /bid v4 cpu -30 /'
	[[ $stderr == *bid* ]]
	bad amax0 's/^bid v2 cpu 12 credit 100 /bid v2 cpu 12 credit 0 /'
	[[ $stderr == *a_max* ]]
	bad bigger 's/^bid v5 cpu 30 credit 100 /bid v5 cpu 30 credit 101 /'
	[[ $stderr == *"bigger than every node"* ]]
	bad unknown 's/^vm v3 n1$/vm v3 n9/'
	[[ $stderr == *"'n9' is not in the cluster"* ]]
}

@test "market: a mem bid needs mem=MiB on every node: 65 at the cluster's node line" {
	sed '/^bid v1 cpu/a bid v1 mem 1 credit 512 MiB' "$DATA/example.bids" >"$T/mem.bids"
	run -65 --separate-stderr ovb-market "$DATA/market-fig3.cluster" "$T/mem.bids"
	[[ $stderr == *"mem bid"* ]] || fail "$stderr"
	for v in v2 v3 v4 v5; do
		sed -i "/^bid $v cpu/a bid $v mem 1 credit 512 MiB" "$T/mem.bids"
	done
	sed 's/ mem=10240$//' "$DATA/market-fig3.cluster" >"$T/nomem.cluster"
	run -65 --separate-stderr ovb-market "$T/nomem.cluster" "$T/mem.bids"
	assert_equal "$stderr" "ovb-market: $T/nomem.cluster:3: node n1: the vms bid for mem, and the node gives no memory (mem MEM B, or a label mem=MiB)"
	run -0 --separate-stderr ovb-market --exact "$DATA/market-fig3.cluster" "$T/mem.bids"
	# mem: 5 x 512 MiB fit anywhere: every VM gets its cap, error 0 on mem
	assert_equal "$(field 'alloc v1 n1 mem' 5)" 512
	assert_equal "$(field 'alloc v1 n1 mem' 7)" 0
}

@test "market: a node's memory from the cluster format's own field (mem MEM B), the label agreeing or refused" {
	for v in v1 v2 v3 v4 v5; do
		printf '%s\n' "/^bid $v cpu/a bid $v mem 1 credit 1024 MiB"
	done >"$T/sed"
	sed -f "$T/sed" "$DATA/example.bids" >"$T/mem.bids"
	# 1536 MiB nodes in bytes: one 1024 MiB VM a node at most
	sed 's/ mem=10240$/ mem 1610612736 B/' "$DATA/market-fig3.cluster" >"$T/field.cluster"
	sed 's/ mem=10240$/ mem=1536/' "$DATA/market-fig3.cluster" >"$T/label.cluster"
	run -0 --separate-stderr ovb-market --exact "$T/field.cluster" "$T/mem.bids"
	printf '%s\n' "$output" >"$T/field.out"
	run -0 --separate-stderr ovb-market --exact "$T/label.cluster" "$T/mem.bids"
	assert_equal "$output" "$(cat "$T/field.out")"
	run -0 "$PY" "$ORACLE" exact "$T/field.cluster" "$T/mem.bids"
	assert_equal "$output" "$(grep -v -e '^#' -e '^error bound' "$T/field.out")"
	# both, agreeing: fine; disagreeing: 65 at the node's line
	sed 's/ mem=10240$/ mem 1610612736 B mem=1536/' "$DATA/market-fig3.cluster" >"$T/both.cluster"
	run -0 --separate-stderr ovb-market "$T/both.cluster" "$T/mem.bids"
	sed 's/ mem=10240$/ mem 1610612736 B mem=2048/' "$DATA/market-fig3.cluster" >"$T/bad.cluster"
	run -65 --separate-stderr ovb-market "$T/bad.cluster" "$T/mem.bids"
	assert_equal "$stderr" "ovb-market: $T/bad.cluster:3: node n1: label mem=2048 MiB, but its mem field says 1536 MiB"
}

@test "market: the output is deterministic and the inputs' order does not matter" {
	run -0 --separate-stderr ovb-market "${FIG3[@]}"
	local a=$output
	run -0 --separate-stderr ovb-market "$DATA/example.bids" "$DATA/market-fig3.cluster"
	assert_equal "$output" "$a"
	run -64 --separate-stderr ovb-market "$DATA/example.bids"
}

@test "market: --budget (Algorithm 3, fixed): the most VMs a budget buys at their caps, against a brute-force Fraction count" {
	run -0 --separate-stderr ovb-market --budget 50 --nvms 8 --vm-cpu 25 "${FIG3[@]}"
	# the other bids 96 over 300 cpu: 4 VMs of 25 cpu cost 0.32*100/(1-1/3) = 48
	assert_line --regexp '^afford 4 vms 4[78]\.9*[0-9]* credit$'
	local s
	for s in $(seq 1 20); do
		mkdir -p "$T/$s"
		$PY "$GEN" "$T/$s" "$s" 3 6 $( ((s % 2)) && echo --mem)
		local args=(--budget $((s * 7)) --nvms 12 --vm-cpu $((5 + s)))
		((s % 2)) && args+=(--vm-mem 700)
		ovb-market "${args[@]}" "$T/$s/cluster" "$T/$s/bids" >"$T/$s/out"
		$PY - "$T/$s/cluster" "$T/$s/bids" "$T/$s/out" $((s * 7)) 12 $((5 + s)) 700 <<'PY' || fail "instance $s"
import sys
from fractions import Fraction as F
cl, bi, out = sys.argv[1:4]
budget, nmax, acpu, amem = F(sys.argv[4]), int(sys.argv[5]), F(sys.argv[6]), F(sys.argv[7])
cap = {'cpu': F(0), 'mem': F(0)}
for line in open(cl):
    t = line.split()
    if t and t[0] == 'node':
        cap['cpu'] += F(t[2])
        lab = dict(x.split('=') for x in t[6:])
        cap['mem'] += F(lab.get('mem', 0))
bids = {}
for line in open(bi):
    t = line.split()
    if t and t[0] == 'bid':
        bids[t[2]] = bids.get(t[2], 0) + F(t[3])
a = {'cpu': acpu, 'mem': amem}
def total(n):
    s = 0
    for r in bids:
        if a[r] * n >= cap[r]:
            return None
        s += bids[r] / cap[r] * a[r] * n / (1 - a[r] * n / cap[r])
    return s
best = 0
for n in range(1, nmax + 1):
    t = total(n)
    if t is not None and t < budget:
        best = n
got = [l.split() for l in open(out) if l.startswith('afford ')][0]
assert int(got[1]) == best, (got, best)
if best:
    assert abs(float(got[3]) - float(total(best))) <= 1e-9 * float(total(best)), got
PY
	done
}

@test "market: --policy (Algorithm 2, fixed): T grows when v > v_ref, damping on reversals, budget; against the oracle's replay" {
	# v = 3 v_ref: T = floor(2/1) = 2, the bid triples (the paper's T = -1 would double it)
	run -0 --separate-stderr ovb-market --policy v1 --perf 3 --vref 1 --vlow 0.75 --vhigh 0.95 --bid-max 1000 "${FIG3[@]}"
	assert_line --regexp '^policy 1 v1 3 cpu 33\.33333+[0-9]* 36$'
	# 20 -> 10 (a decrease of 10), then an increase of 10 is halved: 15
	run -0 --separate-stderr ovb-market --policy v1 --perf 2,1.5,1.2,0.9,0.5,0.5,2 --vref 1 --vlow 0.75 --vhigh 0.95 --bid-max 40 "${FIG3[@]}"
	assert_line 'policy 5 v1 0.5 cpu 62.5 20'
	assert_line --regexp '^policy 6 v1 0.5 cpu 45\.45[0-9]* 10$'
	assert_line --regexp '^policy 7 v1 2 cpu 29\.41[0-9]* 15$'
	local s perf
	for s in $(seq 1 15); do
		mkdir -p "$T/p$s"
		$PY "$GEN" "$T/p$s" "$s" 3 6 $( ((s % 2)) && echo --mem)
		perf=$($PY -c "import random; r = random.Random($s); print(','.join('%.3g' % r.uniform(0.3, 3) for _ in range(12)))")
		ovb-market --policy v2 --perf "$perf" --vref 1 --vlow 0.75 --vhigh 0.95 \
			--bid-max $((10 + s * 3)) --alloc-min 0.1 "$T/p$s/cluster" "$T/p$s/bids" |
			awk '$1 == "policy" { $1 = $2 = $3 = ""; print }' | tr -s ' ' >"$T/p$s/got"
		$PY "$ORACLE" policy "$T/p$s/cluster" "$T/p$s/bids" v2 "$perf" 1 0.75 0.95 $((10 + s * 3)) 0.1 >"$T/p$s/want"
		$PY - "$T/p$s/got" "$T/p$s/want" <<-'PY' || fail "instance $s"
		import sys
		got = [[float(x) for x in l.split() if x not in ('cpu', 'mem')] for l in open(sys.argv[1])]
		want = [[float(x) for x in l.split()] for l in open(sys.argv[2])]
		assert len(got) == len(want) == 12, (len(got), len(want))
		for g, w in zip(got, want):
		    assert len(g) == len(w) and all(abs(a - b) <= 1e-9 * max(1, abs(b)) for a, b in zip(g, w)), (g, w)
		PY
	done
}
