#!/usr/bin/env bats
# ovb-enforce: a plan rendered into SCHED_DEADLINE, cgroup v2, systemd, tc
# and Kubernetes settings.  t/oracle/enforce.py checks an output
# independently (exact rationals): every number within the kernel's
# limits, every guarantee at least the capsule's Eq. 1 term over its tau,
# every cap at least sigma tau + rho.  The last tests apply the settings to
# real kernel objects (as root; they skip, saying why, otherwise).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	ORACLE="$BATS_TEST_DIRNAME/oracle/enforce.py"
	CL=$DATA/example.cluster
	PL=$DATA/example.plan
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}

# oracle TARGET CLUSTER PLAN [ovb-enforce options...]
oracle() {
	local t=$1 c=$2 p=$3
	shift 3
	run -0 --separate-stderr ovb-enforce -t "$t" "$@" "$c" "$p"
	printf '%s\n' "$output" >"$T/out.$t"
	run -0 "$PY" "$ORACLE" "$t" "$c" "$p" "$T/out.$t"
	assert_output --regexp '^ok [1-9]'
}

@test "every target on the example plan: within the limits, guarantees and caps hold" {
	for t in sched-deadline cgroup cgroup1 systemd kubernetes; do
		oracle "$t" "$CL" "$PL"
	done
	oracle tc "$CL" "$PL" --clamp
}

@test "the oracle rejects a guarantee one unit short and a limit broken" {
	oracle sched-deadline "$CL" "$PL"
	# one ns less runtime on the web capsule's tasks
	awk '$1 == "dl" && $4 == "web" { $6 -= 1 } { print }' "$T/out.sched-deadline" >"$T/short"
	sed -i -E '/^chrt/ s/--sched-runtime 4851456 /--sched-runtime 4851455 /' "$T/short"
	run -1 "$PY" "$ORACLE" sched-deadline "$CL" "$PL" "$T/short"
	assert_output --partial "supply"
	oracle cgroup "$CL" "$PL"
	sed -E 's|^(n1/shop.web/cpu.weight) .*|\1 10001|' "$T/out.cgroup" >"$T/w"
	run -1 "$PY" "$ORACLE" cgroup "$CL" "$PL" "$T/w"
	assert_output --partial "weight 10001"
}

@test "tc: a burst of 0 is below the MTU and rate/HZ: exit 65 naming capsule, target, limit; --clamp warns" {
	run -65 --separate-stderr ovb-enforce -t tc -o "$T/o" "$CL" "$PL"
	stderr_has "example.plan:$(line_of '^place batch w1' "$PL"): capsule batch/w1: tc: burst 0 B < rate/HZ 100000 B"
	[[ ! -e $T/o ]] || fail "partial output"
	run -0 --separate-stderr ovb-enforce -t tc --clamp "$CL" "$PL"
	stderr_has "capsule batch/w1: tc: burst 0 B < rate/HZ 100000 B; clamped to the limit"
	assert_line "tc class add dev eth0 parent 1:1 classid 1:10 htb rate 80000000bit ceil 80000000bit burst 100000b cburst 100000b"
	# tc's units: rates in bit (bits/s), sizes in b (bytes): 4500000 B/s is 36000000bit
	assert_line --partial "ceil 36000000bit burst 200000b"
}

@test "the tolerance is applied once: guarantees scale with 1 - O, caps do not" {
	for o in 0 0.5; do
		sed -E "s/^(qos shop web cpu 0.95 0.02 1) 0.01$/\1 $o/" "$PL" >"$T/plan.$o"
		cmp -s "$PL" "$T/plan.$o" && fail "sed changed nothing"
		oracle cgroup "$CL" "$T/plan.$o"
		grep '^n1/shop.web/cpu.max ' "$T/out.cgroup" >"$T/max.$o"
		oracle sched-deadline "$CL" "$T/plan.$o"
		awk '$1 == "dl" && $4 == "web" { print $5 * $6 / $8 }' "$T/out.sched-deadline" >"$T/bw.$o"
	done
	cmp "$T/max.0" "$T/max.0.5"
	# the reserved bandwidth of O=0.5 is about half that of O=0 (the
	# supply bound's overhead of 2 (P - Q) aside), not a quarter
	run -0 awk -v a="$(cat "$T/bw.0")" -v b="$(cat "$T/bw.0.5")" \
		'BEGIN { r = b / a; print r; exit !(r > 0.49 && r < 0.53) }'
}

@test "the paper's x every y is reported, and the guarantee is the Eq. 1 term, above it" {
	run -0 --separate-stderr ovb-enforce -t sched-deadline "$CL" "$PL"
	# web: x/y = (1-O) sigma = 0.9405 cpu; Eq. 1 term (sigma + rho)(1-O) = 0.9603 cpu-s over 1 s
	assert_line --partial "# shop/web: Eq. 1 term 0.96029999999999993 cpu-s over tau 1 s; cap 0.96999999999999997 cpu-s; section 4.1 x 0.019800000000000002 cpu-s every y 0.021052631578947371 s"
	assert_line "dl n1 shop web 2 4851456 10000000 10000000 1"
}

@test "sched-deadline: an over-admitted node exits 65 naming the node and the sum" {
	run -65 --separate-stderr ovb-enforce -t sched-deadline --dl-cap 0.2 -o "$T/o" "$CL" "$PL"
	stderr_has "example.cluster:$(line_of '^node n1 ' "$CL"): node n1: sched-deadline: over-admitted: sum runtime/period"
	stderr_has "> 0.2 x 4 cpu = 0.8"
	[[ ! -e $T/o ]] || fail "partial output"
}

@test "kernel limits: a period below 100 us or 1000 us is exit 65, --clamp moves it to the limit" {
	sed -E "s/^(qos shop web cpu 0.95) 0.02 1 /\1 0.0001 0.005 /" "$PL" >"$T/p"
	run -65 --separate-stderr ovb-enforce -t sched-deadline "$CL" "$T/p"
	stderr_has "capsule shop/web: sched-deadline: period 50000 ns < sched_deadline_period_min_us 100 us"
	run -0 --separate-stderr ovb-enforce -t sched-deadline --clamp "$CL" "$T/p"
	stderr_has "clamped to the limit"
	assert_line --regexp "^dl n1 shop web [0-9]+ [0-9]+ 100000 100000 0.0050000000000000001$"
	printf '%s\n' "$output" >"$T/out"
	run -0 "$PY" "$ORACLE" sched-deadline "$CL" "$T/p" "$T/out"
	run -65 --separate-stderr ovb-enforce -t cgroup "$CL" "$T/p"
	stderr_has "capsule shop/web: cgroup: period 500 us < 1000 us"
	run -0 --separate-stderr ovb-enforce -t cgroup --clamp "$CL" "$T/p"
	assert_line --regexp "^n1/shop.web/cpu.max [0-9]+ 1000$"
}

@test "bad input: another cluster, unknown target, absurd numbers: 64/65, no partial output" {
	run -65 --separate-stderr ovb-enforce -t cgroup -o "$T/o" "$DATA/demo.cluster" "$PL"
	stderr_has "n1 has cpu capacity 4 here but 2 in"
	stderr_has "a plan for another cluster"
	sed -E '/^node n3 /d' "$CL" >"$T/c"
	run -65 --separate-stderr ovb-enforce -t cgroup -o "$T/o" "$T/c" "$PL"
	stderr_has "capsule shop/db is on node n3, which is not in"
	run -64 --separate-stderr ovb-enforce -t cgroups "$CL" "$PL"
	stderr_has "unknown target 'cgroups'"
	run -64 --separate-stderr ovb-enforce "$CL" "$PL"
	stderr_has "--target is required"
	run -64 --separate-stderr ovb-enforce -t tc "$PL"
	stderr_has "no ovb-cluster file"
	run -64 --separate-stderr ovb-enforce -t tc --dl-cap 1.5 "$CL" "$PL"
	run -64 --separate-stderr ovb-enforce -t tc --hz 0 "$CL" "$PL"
	sed -E "s/^(qos shop web cpu) 0.95 /\1 -0.95 /" "$PL" >"$T/p"
	run -65 --separate-stderr ovb-enforce -t cgroup -o "$T/o" "$CL" "$T/p"
	sed -E "s/^(qos shop web cpu) 0.95 /\1 1e300 /" "$PL" >"$T/p"
	for t in sched-deadline cgroup kubernetes; do
		run -65 --separate-stderr ovb-enforce -t $t -o "$T/o" "$CL" "$T/p"
		stderr_has "capsule shop/web: $t:"
		stderr_has "cannot be represented"
	done
	# a tau under two periods of 100 us: no task within the cap supplies anything
	sed -E "s/^(qos shop web cpu 0.95) 0.02 1 /\1 0 0.000001 /" "$PL" >"$T/p"
	run -65 --separate-stderr ovb-enforce -t sched-deadline --clamp -o "$T/o" "$CL" "$T/p"
	stderr_has "capsule shop/web: sched-deadline: tau 1e-06 s is too short for any task of period 100000 ns within the cap 0.9"
	sed -E "s/^(qos shop web net) 4500000 /\1 1e300 /" "$PL" >"$T/p"
	run -65 --separate-stderr ovb-enforce -t tc --clamp -o "$T/o" "$CL" "$T/p"
	stderr_has "beyond tc's range"
	[[ ! -e $T/o ]] || fail "partial output"
}

@test "property: random plans, every target within the limits, guarantees and caps hold" {
	local s t ok=0
	for s in 1 2 3 4 5 6 7 8; do
		mkdir "$T/$s"
		"$PY" "$BATS_TEST_DIRNAME/gen/place.py" $s "$T/$s"
		ovb-place -o "$T/$s/plan" "$T/$s/cluster" "$T/$s/apps" "$T/$s/profile"
		for t in cgroup cgroup1 systemd kubernetes; do
			oracle "$t" "$T/$s/cluster" "$T/$s/plan"
		done
		oracle tc "$T/$s/cluster" "$T/$s/plan" --clamp
		# SCHED_DEADLINE admits 0.90 of a CPU where Eq. 1 admits 1: a
		# node may be refused, but only one whose Eq. 1 load is above
		# 0.85 C (the supply bound's overhead is at most 2% here)
		run --separate-stderr ovb-enforce -t sched-deadline "$T/$s/cluster" "$T/$s/plan"
		if ((status == 65)); then
			local nd
			nd=$(grep -o 'node [^:]*: sched-deadline: over-admitted' <<<"$stderr" | head -1 | cut -d' ' -f2 | tr -d :)
			[[ -n $nd ]] || fail "seed $s: $stderr"
			awk -v n="$nd" '$1 == "risk" && $2 == n && $3 == "cpu" { exit !($6 > 0.85 * $7) }' "$T/$s/plan" ||
				fail "seed $s: node $nd refused with an Eq. 1 load of at most 0.85 C"
			ok=$((ok + 1))
		else
			oracle sched-deadline "$T/$s/cluster" "$T/$s/plan"
		fi
	done
	echo "# $ok of 8 plans refused by SCHED_DEADLINE's admission" >&3
}

# ---- memory: the plan's qos mem request and limit ----

# mem_example: $T/mc (a node of 2 GiB, pool 2 GiB) and $T/mp: db (cpu and
# mem, a limit off the page), cache (mem only, 1000.5 B), g (requests
# equal to limits for cpu and memory: Kubernetes's Guaranteed)
mem_example() {
	printf 'ovb-cluster 1\nnode n1 4 cpu 125000000 B/s mem 2147483648 B mem-pool 2147483648 B\n' >"$T/mc"
	cat >"$T/mp" <<-EOF
	ovb-plan 1
	place shop db n1 -
	qos shop db cpu 0.5 0 1 0
	qos shop db mem 1610612736 3704409293 900 0.5
	place shop cache n1 -
	qos shop cache mem 1000.5 1000.5 3600 0
	place shop g n1 -
	qos shop g cpu 0.00995 0 100 0
	qos shop g mem 1048576 1048576 3600 0
	EOF
}

@test "memory: the request is protected, the limit is the OOM kill point, rounded up to pages (Kubernetes: MiB); the oracle holds" {
	mem_example
	for t in cgroup cgroup1 systemd kubernetes; do
		oracle "$t" "$T/mc" "$T/mp"
	done
	run -0 --separate-stderr ovb-enforce -t cgroup "$T/mc" "$T/mp"
	# 3704409293 B is 904396.8 pages: 904397 pages are 3704410112 B
	assert_line "n1/shop.db/memory.min 1610612736"
	assert_line "n1/shop.db/memory.max 3704410112"
	assert_line "n1/shop.cache/memory.min 4096"
	assert_line "n1/shop.cache/memory.max 4096"
	refute_line --partial "shop.cache/cpu"
	assert_line --partial "# shop/db: memory request 1610612736 B (protected: 1610612736 B), limit 3704409293 B (the OOM kill point: 3704410112 B), window 900 s"
	run -0 --separate-stderr ovb-enforce -t cgroup1 "$T/mc" "$T/mp"
	assert_line "n1/shop.db/memory.soft_limit_in_bytes 1610612736"
	assert_line "n1/shop.db/memory.limit_in_bytes 3704410112"
	run -0 --separate-stderr ovb-enforce -t systemd "$T/mc" "$T/mp"
	assert_line "MemoryMin=4096"
	assert_line "MemoryMax=3704410112"
	run -0 --separate-stderr ovb-enforce -t kubernetes "$T/mc" "$T/mp"
	# 3704409293 B is 3532.8 MiB
	assert_line "    requests: {cpu: 500m, memory: 1536Mi}"
	assert_line "    limits: {cpu: 556m, memory: 3533Mi}"
	assert_line "    requests: {memory: 1Mi}"
	assert_line "  # QoS class Burstable: cpu request < limit; memory request < limit"
	assert_line "  # QoS class Burstable: no cpu request (no cpu qos in the plan)"
	assert_line "    requests: {cpu: 10m, memory: 1Mi}"
	assert_line "    limits: {cpu: 10m, memory: 1Mi}"
	assert_line "  # QoS class Guaranteed: requests equal limits for cpu and memory"
	# sched-deadline and tc have no memory: the same output as without it
	for t in sched-deadline tc; do
		run -0 --separate-stderr ovb-enforce -t $t --clamp "$T/mc" "$T/mp"
		printf '%s\n' "$output" >"$T/with"
		run -0 --separate-stderr ovb-enforce -t $t --clamp "$T/mc" <(grep -v ' mem ' "$T/mp")
		[[ "$output" == "$(cat "$T/with")" ]] || fail "$t: memory changed the output"
	done
	# MemoryMin= and MemoryMax= in bytes pass systemd-analyze verify
	if command -v systemd-analyze >/dev/null; then
		oracle systemd "$T/mc" "$T/mp"
		verify_systemd "$T/out.systemd" "$T/units"
	fi
}

@test "memory: the oracle rejects a protection a page short, a cap below the limit and a wrong QoS class" {
	mem_example
	oracle cgroup "$T/mc" "$T/mp"
	sed -E 's|^(n1/shop.db/memory.min) .*|\1 1610608640|' "$T/out.cgroup" >"$T/bad"
	run -1 "$PY" "$ORACLE" cgroup "$T/mc" "$T/mp" "$T/bad"
	assert_output --partial "protection 1610608640 B is not the request"
	sed -E 's|^(n1/shop.db/memory.max) .*|\1 3704406016|' "$T/out.cgroup" >"$T/bad"
	run -1 "$PY" "$ORACLE" cgroup "$T/mc" "$T/mp" "$T/bad"
	assert_output --partial "cap 3704406016 B is not the limit"
	sed -E '/shop.cache\/memory/d' "$T/out.cgroup" >"$T/bad"
	run -1 "$PY" "$ORACLE" cgroup "$T/mc" "$T/mp" "$T/bad"
	assert_output --partial "memory rendered 0 times"
	oracle kubernetes "$T/mc" "$T/mp"
	sed -E 's|QoS class Guaranteed|QoS class Burstable|' "$T/out.kubernetes" >"$T/bad"
	run -1 "$PY" "$ORACLE" kubernetes "$T/mc" "$T/mp" "$T/bad"
	assert_output --partial "QoS class Burstable, not Guaranteed"
}

@test "memory: a node's rendered requests add up to at most its memory, exactly; rounding up can break that (65 naming the node and the sum)" {
	local t
	for t in cgroup cgroup1 systemd; do
		# two requests of 4096 B on 8192 B: the boundary holds
		printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s mem 8192 B\n' >"$T/c"
		printf 'ovb-plan 1\nplace a x n1 -\nqos a x mem 4096 8192 60 0\nplace b x n1 -\nqos b x mem %s 4096.5 60 0\n' 4096 >"$T/p"
		oracle $t "$T/c" "$T/p"
		# 4096.5 B takes two pages: 12288 B > 8192 B
		sed -i 's/^qos b x mem 4096 /qos b x mem 4096.5 /' "$T/p"
		run -65 --separate-stderr ovb-enforce -t $t -o "$T/o" "$T/c" "$T/p"
		stderr_has "node n1: $t: the memory requests add up to 12288 B > the node's 8192 B"
		[[ ! -e $T/o ]] || fail "partial output"
	done
	# Kubernetes: MiB; two of 1 MiB on 2 MiB hold, a byte more does not
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s mem 2097152 B\n' >"$T/c"
	printf 'ovb-plan 1\nplace a x n1 -\nqos a x mem 1048576 1048576 60 0\nplace b x n1 -\nqos b x mem 1048576 2000000 60 0\n' >"$T/p"
	oracle kubernetes "$T/c" "$T/p"
	assert_output "ok 2"
	sed -i 's/^qos b x mem 1048576 /qos b x mem 1048577 /' "$T/p"
	run -65 --separate-stderr ovb-enforce -t kubernetes -o "$T/o" "$T/c" "$T/p"
	stderr_has "node n1: kubernetes: the memory requests add up to 3145728 B > the node's 2097152 B"
	[[ ! -e $T/o ]] || fail "partial output"
	# a limit beyond the page counter is no limit; a request there cannot be represented
	printf 'ovb-plan 1\nplace a x n1 -\nqos a x mem 4096 1e19 60 0\n' >"$T/p"
	for t in cgroup cgroup1 systemd kubernetes; do
		oracle $t "$T/c" "$T/p"
	done
	run -0 --separate-stderr ovb-enforce -t cgroup "$T/c" "$T/p"
	assert_line "n1/a.x/memory.max max"
	run -0 --separate-stderr ovb-enforce -t cgroup1 "$T/c" "$T/p"
	assert_line "n1/a.x/memory.limit_in_bytes -1"
	run -0 --separate-stderr ovb-enforce -t systemd "$T/c" "$T/p"
	assert_line "MemoryMax=infinity"
	run -0 --separate-stderr ovb-enforce -t kubernetes "$T/c" "$T/p"
	refute_line --partial "limits:"
	assert_line "  # QoS class Burstable: no cpu request (no cpu qos in the plan); no memory limit"
	printf 'ovb-plan 1\nplace a x n1 -\nqos a x mem 1e19 1e19 60 0\n' >"$T/p"
	run -65 --separate-stderr ovb-enforce -t cgroup -o "$T/o" "$T/c" "$T/p"
	stderr_has "capsule a/x: cgroup: memory request 1e+19 B cannot be represented"
	# a plan with memory for a cluster without it
	run -65 --separate-stderr ovb-enforce -t cgroup -o "$T/o" "$CL" <(printf 'ovb-plan 1\nplace a x n1 -\nqos a x mem 4096 4096 60 0\n')
	stderr_has "capsule a/x has a mem qos, but"
	stderr_has "gives no node memory: a plan for another cluster"
	[[ ! -e $T/o ]] || fail "partial output"
}

@test "memory: ovb-place -t and ovb-check -t apply the same rounding (one rule with ovb-enforce)" {
	# two capsules of 2 GiB + 0.5 B on 4 GiB + 1 B: Eq. 1 holds in B,
	# their pages (2 GiB + 4 KiB each) do not
	local GiB=1073741824 c
	{
		echo 'ovb-profile 1'
		for c in a b; do
			printf 'profile %s mem\nrequest 2147483648.5 B\nlimit 2684354560 B\nO 0.01\ninterval 3600 s\nwidth 1073741824 B\nintervals 4\nbin 2 4\n' $c
		done
	} >"$T/pr"
	printf 'ovb-apps 1\napp a\ncapsule c profile=a\napp b\ncapsule c profile=b\n' >"$T/a"
	printf 'ovb-cluster 1\nnode n1 64 cpu 1000000000 B/s mem %s B mem-pool %s B\n' $((4 * GiB + 1)) $GiB >"$T/c"
	run -0 --separate-stderr ovb-place --strict -o "$T/plan" "$T/c" "$T/a" "$T/pr"
	run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/plan" "$T/pr"
	for t in cgroup kubernetes; do
		run -65 --separate-stderr ovb-enforce -t $t "$T/c" "$T/plan"
		stderr_has "node n1: $t: the memory requests add up to"
		run -1 --separate-stderr ovb-check -t $t "$T/c" "$T/a" "$T/plan" "$T/pr"
		assert_output --partial "violation n1 mem target $t: the memory requests add up to"
		run -0 --separate-stderr ovb-place -t $t -o "$T/pt" "$T/c" "$T/a" "$T/pr"
		[[ $(grep -c '^place ' "$T/pt") == 1 ]] || fail "-t $t placed $(grep -c '^place ' "$T/pt")"
		grep -q "^reject b capsule c: .*mem --target $t: the memory requests add up to" "$T/pt" || fail "$(grep reject "$T/pt")"
		run -0 --separate-stderr ovb-check -t $t "$T/c" "$T/a" "$T/pt" "$T/pr"
		oracle $t "$T/c" "$T/pt"
	done
}

@test "property: random plans with memory, every memory target: the oracle holds, or 65 exactly where the rounded requests exceed a node" {
	local s t g want n0=0 n65=0
	for s in $(seq 1 24); do
		"$PY" "$BATS_TEST_DIRNAME/gen/enfmem.py" $s "$T/$s"
		for t in cgroup cgroup1 systemd kubernetes; do
			g=page
			[[ $t == kubernetes ]] && g=mi
			want=$(awk -v g=$g '$1 == g { print $2 }' "$T/$s/fits")
			if [[ $want == yes ]]; then
				oracle $t "$T/$s/cluster" "$T/$s/plan"
				n0=$((n0 + 1))
			else
				run -65 --separate-stderr ovb-enforce -t $t "$T/$s/cluster" "$T/$s/plan"
				stderr_has ": $t: the memory requests add up to"
				n65=$((n65 + 1))
			fi
		done
	done
	echo "# $n0 taken, $n65 refused by the memory admission" >&3
	((n0 > 0 && n65 > 0)) || fail "both outcomes must occur: $n0 taken, $n65 refused"
}

# ---- applied to the kernel ----

root_or_skip() {
	[[ $(id -u) == 0 ]] || skip "needs root to $1"
}

@test "live: the chrt -d lines start SCHED_DEADLINE tasks; a set over the cap gets EBUSY" {
	root_or_skip "start SCHED_DEADLINE tasks"
	command -v chrt >/dev/null || skip "no chrt"
	run -0 --separate-stderr ovb-enforce -t sched-deadline "$CL" "$PL"
	local line
	line=$(grep -m1 '^chrt -d' <<<"$output")
	line=${line% CMD}
	# runs a task under the emitted parameters and reads its policy back
	# (a SCHED_DEADLINE task may not fork: read it from outside)
	$line sleep 2 &
	local pid=$!
	sleep 0.2
	run -0 chrt -p $pid
	wait $pid
	assert_line --partial "SCHED_DEADLINE"
	assert_line --partial "runtime/deadline/period parameters: 4851456/10000000/10000000"
	# more tasks of 0.485 cpu than the CPUs' 0.90 each can admit
	local n pids=() i rc=0
	n=$(( $(nproc) * 90 / 48 + 1 ))
	for ((i = 0; i < n; i++)); do
		$line sleep 5 2>"$T/err.$i" &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || rc=1
	done
	[[ $rc == 1 ]] || fail "$n tasks of 0.485 cpu on $(nproc) CPUs all admitted"
	grep -l "Device or resource busy" "$T"/err.* >/dev/null || fail "no EBUSY: $(cat "$T"/err.*)"
}

@test "live: the tc commands load in a private network namespace and read back" {
	root_or_skip "make a network namespace"
	command -v tc >/dev/null || skip "no tc"
	unshare -n true 2>/dev/null || skip "unshare -n not permitted"
	run -0 --separate-stderr ovb-enforce -t tc --clamp --dev lo "$CL" "$PL"
	# the commands of node n1, applied on lo
	awk '/^# node n1:/ { on = 1; next } /^# node / { on = 0 } on && /^tc /' <<<"$output" >"$T/n1.sh"
	[[ -s $T/n1.sh ]] || fail "no commands for n1"
	run -0 unshare -n bash -c "ip link set lo up && set -e && . '$T/n1.sh' 2>/dev/null && tc -s class show dev lo"
	# tc prints rates with SI prefixes: 35720000bit is 35720Kbit
	assert_line --regexp "^class htb 1:10 parent 1:1 .*rate 35720Kbit ceil 36Mbit burst [0-9]+b cburst [0-9]+b"
	local b
	b=$(grep -o 'class htb 1:10 .* burst [0-9]*b' <<<"$output" | grep -o '[0-9]*b$')
	b=${b%b}
	# tc keeps a burst as a time in ticks: within 0.01% of 200000 B
	(( b >= 199980 && b <= 200020 )) || fail "burst read back as $b"
}

@test "live: the cgroup files are written into a private cgroup v2 subtree and read back" {
	root_or_skip "make a cgroup"
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[[ -n $root ]] || skip "no cgroup v2 mounted"
	grep -qw cpu "$root/cgroup.controllers" || skip "the cpu controller is not on cgroup v2 here ($root offers: $(cat "$root/cgroup.controllers")); the cgroup1 test applies the same plan"
	run -0 --separate-stderr ovb-enforce -t cgroup -o "$T/out.cgroup" "$CL" "$PL"
	apply_cgroup cgroup "$root"
}

@test "live: the cgroup1 files are written into a private subtree of the v1 cpu controller and read back" {
	root_or_skip "make a cgroup"
	local root
	root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
	[[ -n $root ]] || skip "the cpu controller is not on cgroup v1 here; the cgroup test applies the same plan"
	run -0 --separate-stderr ovb-enforce -t cgroup1 -o "$T/out.cgroup1" "$CL" "$PL"
	apply_cgroup cgroup1 "$root"
	# the test can fail: a burst above the quota is refused by the kernel
	local cg=$root/ovb-test.$$.x
	mkdir "$cg"
	echo 1000 >"$cg/cpu.cfs_quota_us"
	! (echo 2000 >"$cg/cpu.cfs_burst_us") 2>/dev/null || { rmdir "$cg"; fail "the kernel took a burst above the quota"; }
	rmdir "$cg"
}

@test "live: the cgroup1 memory files are written into a private subtree of the v1 memory controller and read back" {
	root_or_skip "make a cgroup"
	local root cg
	root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	[[ -n $root ]] || skip "the memory controller is not on cgroup v1 here; the cgroup test applies memory on v2"
	mem_example
	run -0 --separate-stderr ovb-enforce -t cgroup1 -o "$T/all" "$T/mc" "$T/mp"
	grep '/memory\.' "$T/all" >"$T/out.cgroup1mem"
	[[ $(wc -l <"$T/out.cgroup1mem") == 6 ]] || fail "$(cat "$T/out.cgroup1mem")"
	apply_cgroup cgroup1mem "$root"
	# the test can fail: the kernel counts pages and rounds a byte count
	# down, so a limit not rounded up would lose up to a page
	cg=$root/ovb-test.$$.x
	mkdir "$cg"
	echo 3704409293 >"$cg/memory.limit_in_bytes"
	local v
	v=$(cat "$cg/memory.limit_in_bytes")
	rmdir "$cg"
	[[ $v == 3704406016 ]] || fail "the kernel read 3704409293 back as $v"
}

@test "live: the systemd drop-ins pass systemd-analyze verify with no line on stderr" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze"
	run -0 --separate-stderr ovb-enforce -t systemd "$CL" "$PL"
	printf '%s\n' "$output" >"$T/out.systemd"
	local d=$T/units f
	verify_systemd "$T/out.systemd" "$d"
	# the test can fail: a weight beyond 10000 is a stderr line
	f=$(ls -d "$d"/n1/*.service.d)
	sed -i 's/^CPUWeight=.*/CPUWeight=10001/' "$f/50-ovb.conf"
	run -0 --separate-stderr env SYSTEMD_UNIT_PATH="$d/n1:" systemd-analyze verify "${f%.d}"
	[[ $stderr == *"Invalid CPU weight"* ]] || fail "verify took CPUWeight=10001: $stderr"
}

@test "the demo plan (placed --enforce every target): every target holds with no clamp, and applies to this machine's kernel" {
	run -0 --separate-stderr sh "$BATS_TEST_DIRNAME/../demo.sh" "$T/demo"
	local DC=$DATA/demo.cluster DP=$T/demo/demo.plan t n
	for t in sched-deadline cgroup cgroup1 systemd kubernetes; do
		oracle "$t" "$DC" "$DP"
	done
	# placed for tc: its bursts are what tc grants (the profiles' are
	# below the MTU or rate/HZ, t/0502-enforce-placed.bats), no --clamp
	oracle tc "$DC" "$DP" --dev lo
	for t in sched-deadline cgroup cgroup1 systemd kubernetes tc; do
		run -0 --separate-stderr ovb-enforce -t "$t" "$DC" "$DP"
		assert_equal "$stderr" ""
	done
	if command -v systemd-analyze >/dev/null; then
		verify_systemd "$T/out.systemd" "$T/units"
	fi
	[[ $(id -u) == 0 ]] || skip "needs root to apply the settings"
	if unshare -n true 2>/dev/null; then
		for n in n1 n2 n3 n4; do
			awk -v n=$n '$0 ~ "^# node " n ":" { on = 1; next } /^# node / { on = 0 } on && /^tc /' "$T/out.tc" >"$T/$n.sh"
			[[ -s $T/$n.sh ]] || continue
			run -0 unshare -n bash -c "ip link set lo up && set -e && . '$T/$n.sh' 2>/dev/null && tc class show dev lo"
			[[ ${#lines[@]} -eq $(grep -c '^tc class' "$T/$n.sh") ]] || fail "$n: classes missing: $output"
		done
	fi
	# SCHED_DEADLINE: every node that this machine's CPUs can be, its
	# tasks all started at once, all admitted by the kernel
	local cpus applied=0
	cpus=$(nproc)
	if command -v chrt >/dev/null; then
		for n in n1 n2 n3 n4; do
			awk -v n=$n -v c="$cpus" '$1 == "node" && $2 == n { exit !($3 <= c) }' "$DC" || continue
			grep "^dl $n " "$T/out.sched-deadline" | while read -r _ _ _ _ k Q D P _; do
				for ((i = 0; i < k; i++)); do
					echo "chrt -d --sched-runtime $Q --sched-deadline $D --sched-period $P 0 CMD"
				done
			done >"$T/$n.dl"
			[[ -s $T/$n.dl ]] || continue
			: >"$T/chrt.err"
			start_all "$T/$n.dl"
			[[ $ADMITTED == $(wc -l <"$T/$n.dl") ]] || fail "$n: the kernel took $ADMITTED of $(wc -l <"$T/$n.dl"): $(cat "$T/chrt.err")"
			applied=$((applied + 1))
		done
		((applied > 0)) || fail "no node of the demo fits this machine's $cpus CPUs"
	fi
	# cgroup v1's cpu controller (this machine) or v2's: written, read back
	local root
	root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts)
	if [[ -n $root ]]; then
		apply_cgroup cgroup1 "$root"
	fi
}

# verify_systemd OUT DIR: the drop-ins of OUT as units under DIR, each
# through systemd-analyze verify, which must say nothing on stderr
verify_systemd() {
	local d=$2 unit f
	awk -v d="$d" '/^### / { f = d "/" $2; sub(/\/[^\/]*$/, "", f); system("mkdir -p " f); f = d "/" $2; next }
		f && !/^#/ { print > f }' "$1"
	for f in "$d"/*/*.service.d; do
		unit=${f%.d}
		printf '[Unit]\nDescription=ovb test\n[Service]\nExecStart=/bin/true\n' >"$unit"
		printf '[Slice]\n' >"${f%/*}/ovb.slice"
		run -0 --separate-stderr env SYSTEMD_UNIT_PATH="${f%/*}:" systemd-analyze verify "$unit"
		[[ -z $stderr ]] || fail "systemd-analyze verify $unit: $stderr"
	done
}

# apply_cgroup TARGET ROOT: writes node n1's files of $T/out.TARGET
# under a private subtree of ROOT and reads them back
apply_cgroup() {
	local cg=$2/ovb-test.$$ path v f
	mkdir "$cg"
	[[ $1 == cgroup ]] && echo +cpu >"$cg/cgroup.subtree_control"
	if [[ $1 == cgroup ]] && grep -q '/memory\.' "$T/out.$1"; then
		echo +memory >"$cg/cgroup.subtree_control"
	fi
	: >"$T/bad"
	grep -E '^n1/' "$T/out.$1" | while read -r path v; do
		f=$cg/${path#n1/}
		mkdir -p "${f%/*}"
		echo "$v" >"$f" 2>>"$T/bad" || echo "$f: cannot write $v" >>"$T/bad"
		[[ $(cat "$f") == "$v" ]] || echo "$f: wrote $v, read $(cat "$f")" >>"$T/bad"
	done
	find "$cg" -depth -type d -exec rmdir {} \;
	[[ ! -s $T/bad ]] || fail "$(cat "$T/bad")"
}

# start_all FILE: starts every chrt line of FILE at once (sleep 2 as CMD);
# sets ADMITTED to how many the kernel took
start_all() {
	local line pids=() p
	ADMITTED=0
	while read -r line; do
		${line% CMD} sleep 2 2>>"$T/chrt.err" &
		pids+=($!)
	done < <(grep '^chrt -d' "$1")
	for p in "${pids[@]}"; do
		wait "$p" && ADMITTED=$((ADMITTED + 1))
	done
	return 0
}

@test "live: ovb-enforce's node admission agrees with the kernel's on a node of this machine's CPUs" {
	root_or_skip "start SCHED_DEADLINE tasks"
	command -v chrt >/dev/null || skip "no chrt"
	local n s i
	n=$(nproc)
	printf 'ovb-cluster 1\nnode m %d cpu 1000000 B/s\n' "$n" >"$T/m.cluster"
	for s in 0.85 0.9; do
		{
			echo "ovb-plan 1"
			for ((i = 1; i <= n; i++)); do
				echo "place a c$i m -"
				echo "qos a c$i cpu $s 0 1 0"
			done
		} >"$T/m.$s"
	done
	# one capsule of 0.85 cpu per CPU: within 0.90 x CPUs, all admitted
	run -0 --separate-stderr ovb-enforce -t sched-deadline -o "$T/ok" "$T/m.cluster" "$T/m.0.85"
	start_all "$T/ok"
	[[ $ADMITTED == $(grep -c '^chrt' "$T/ok") ]] || fail "the kernel took $ADMITTED: $(cat "$T/chrt.err")"
	# 0.9 per CPU needs a little more than 0.90 x CPUs (the supply bound's
	# overhead): ovb-enforce refuses, and the kernel refuses the same set
	run -65 --separate-stderr ovb-enforce -t sched-deadline "$T/m.cluster" "$T/m.0.9"
	stderr_has "node m: sched-deadline: over-admitted"
	run -0 --separate-stderr ovb-enforce -t sched-deadline --dl-cap 1 -o "$T/over" "$T/m.cluster" "$T/m.0.9"
	: >"$T/chrt.err"
	start_all "$T/over"
	((ADMITTED < $(grep -c '^chrt' "$T/over"))) || fail "the kernel took all $ADMITTED"
	grep -q "Device or resource busy" "$T/chrt.err" || fail "no EBUSY: $(cat "$T/chrt.err")"
}

# ---- one rule: ovb-enforce, ovb-check --target, ovb-place --target ----

@test "kubernetes: requests Eq. 1 admits but that add up beyond the node: enforce 65, check 1, place -t leaves it out; a sum equal to the node holds" {
	printf 'ovb-cluster 1\nnode n1 1 cpu 1000 B/s\n' >"$T/c"
	printf 'ovb-apps 1\n' >"$T/a"
	local i
	for i in 1 2 3; do
		# 1/3 as a double: three of them are below 1 (Eq. 1 holds), but
		# each request rounds up to 334m
		printf 'app a%d\ncapsule x cpu=0.3333333333333333\n' $i >>"$T/a"
	done
	run -0 --separate-stderr ovb-place -o "$T/p" "$T/c" "$T/a"
	[[ $(grep -c '^place ' "$T/p") == 3 ]] || fail "Eq. 1 placed $(grep -c '^place ' "$T/p")"
	run -65 --separate-stderr ovb-enforce -t kubernetes -o "$T/o" "$T/c" "$T/p"
	stderr_has "node n1: kubernetes: the requests add up to 1002m > the node's 1000m"
	[[ ! -e $T/o ]] || fail "partial output"
	run -1 --separate-stderr ovb-check -t kubernetes "$T/c" "$T/a" "$T/p"
	assert_output --partial "violation n1 cpu target kubernetes: the requests add up to 1002m"
	run -0 --separate-stderr ovb-check "$T/c" "$T/a" "$T/p"
	run -0 --separate-stderr ovb-place -t kubernetes -o "$T/pk" "$T/c" "$T/a"
	[[ $(grep -c '^place ' "$T/pk") == 2 ]] || fail "-t kubernetes placed $(grep -c '^place ' "$T/pk")"
	grep -q '^reject a3 capsule x: no feasible node of 1 (--target on 1); nearest n1, cpu --target kubernetes: the requests add up to 1002m' "$T/pk" ||
		fail "$(grep reject "$T/pk")"
	run -0 --separate-stderr ovb-check -t kubernetes "$T/c" "$T/a" "$T/pk"
	oracle kubernetes "$T/c" "$T/pk"
	# the boundary: two halves are exactly the node
	printf 'ovb-apps 1\napp h1\ncapsule x cpu=0.5\napp h2\ncapsule x cpu=0.5\n' >"$T/h"
	run -0 --separate-stderr ovb-place -t kubernetes -o "$T/ph" "$T/c" "$T/h"
	[[ $(grep -c '^place ' "$T/ph") == 2 ]] || fail "two halves: $(cat "$T/ph")"
	run -0 --separate-stderr ovb-check -t kubernetes "$T/c" "$T/h" "$T/ph"
	oracle kubernetes "$T/c" "$T/ph"
	assert_output "ok 2"
}

@test "property: a plan placed with -t T is enforced by T and passes ovb-check -t T; without -t, check and enforce refuse the same nodes" {
	local s t nd ok=0 refused=0 opt
	for s in 1 2 3 4 5 6 7 8; do
		mkdir "$T/$s"
		"$PY" "$BATS_TEST_DIRNAME/gen/place.py" $s "$T/$s"
		local C=$T/$s/cluster A=$T/$s/apps P=$T/$s/profile
		ovb-place -o "$T/$s/plan" "$C" "$A" "$P"
		for t in sched-deadline cgroup cgroup1 systemd kubernetes tc; do
			opt=()
			[[ $t == tc ]] && opt=(--clamp)
			# a tighter cap than the kernel's, so that nodes are refused
			[[ $t == sched-deadline ]] && opt=(--dl-cap 0.6)
			run -0 --separate-stderr ovb-place -t $t "${opt[@]}" -o "$T/$s/plan.$t" "$C" "$A" "$P"
			run -0 --separate-stderr ovb-check -t $t "${opt[@]}" "$C" "$A" "$T/$s/plan.$t" "$P"
			oracle "$t" "$C" "$T/$s/plan.$t" "${opt[@]}"
			# the plan of Eq. 1 alone: the nodes ovb-check -t flags are
			# those ovb-enforce refuses
			run --separate-stderr ovb-enforce -t $t "${opt[@]}" "$C" "$T/$s/plan"
			local es=$status
			sed -n 's/.*node \([^:]*\): [a-z-]*: .*/\1/p' <<<"$stderr" | sort -u >"$T/e"
			run --separate-stderr ovb-check -t $t "${opt[@]}" "$C" "$A" "$T/$s/plan" "$P"
			[[ $status == 0 || $status == 1 ]] || fail "seed $s $t: check exit $status: $stderr"
			awk '$4 == "target" { print $2 }' <<<"$output" | sort -u >"$T/c"
			if ((es == 0)); then
				[[ ! -s $T/c ]] || fail "seed $s $t: enforce took the plan, check flags $(cat "$T/c")"
				ok=$((ok + 1))
			else
				((es == 65)) || fail "seed $s $t: enforce exit $es"
				[[ -s $T/c ]] || fail "seed $s $t: enforce refused ($stderr), check flags nothing"
				# node-level refusals name the same nodes
				if [[ -s $T/e ]]; then
					comm -23 "$T/e" "$T/c" | grep -q . && fail "seed $s $t: enforce refuses $(cat "$T/e"), check flags $(cat "$T/c")"
				fi
				refused=$((refused + 1))
			fi
		done
	done
	echo "# $ok plans taken, $refused refused by a target (both tools agree)" >&3
	((refused > 0)) || fail "no plan refused: the property is not exercised"
}
