#!/bin/sh
# bench/reserves.sh [WORKDIR]: ovb-reserves timings and deviations, the
# numbers in bench/README.md (section ovb-reserves).  ACCEPTANCE=1 runs
# only sections A and B (issue 16: hierarchy against the flat optimum,
# scale through --worker-cmd).  Runs one job at a time (the machine stays
# usable); about 10 minutes on 2 cores.  Needs bin/ (make) and python3;
# instances come from t/oracle/reserves_gen.py and the closed-loop
# simulator t/oracle/reserves_sim.py and are kept in WORKDIR (default a
# temporary directory).  FLAT10K=1 also tries the flat 10,000 x 100
# problem (long).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATH=$ROOT/bin:$PATH
export PATH
W=${1:-$(mktemp -d)}
mkdir -p "$W"
GEN="python3 $ROOT/t/oracle/reserves_gen.py"
SIM="python3 $ROOT/t/oracle/reserves_sim.py"

# secs CMD...: wall seconds of CMD (its stdout discarded)
secs() {
	/usr/bin/time -f %e -o "$W/time" "$@" >/dev/null
	cat "$W/time"
}

# timed CMD...: wall and CPU of CMD (children included: the workers), peak
# memory of the largest process, and the load average before and after
timed() {
	l0=$(load)
	/usr/bin/time -f '%e s wall, %U s user + %S s system (all processes), %M KB peak' \
		-o "$W/time" "$@" >/dev/null
	echo "$(cat "$W/time"); load average $l0 before, $(load) after"
}

# load: the 1-minute load average
load() {
	sed 's/ .*//' /proc/loadavg
}

# best3 CMD...: the least wall time of three runs
best3() {
	a=$(secs "$@"); b=$(secs "$@"); c=$(secs "$@")
	printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | head -1
}

# rounds_ms FILE OPTIONS...: mean ms per round over rounds 6.., and mean
# step-1 pivots (from -vv)
rounds_ms() {
	f=$1
	shift
	ovb-reserves -vv "$@" "$f" 2>&1 >/dev/null |
		awk -F'\t' 'NR > 2 && $1 >= 6 { s += $4; p += $5; n++ }
			END { printf "%.1f ms/round, %.0f pivots", s / n, p / n }'
}

# dev FILE: the deviation notes of an ovb-reserves output, round 1
dev1() {
	sed -n 's/^# round 1: //p' "$1"
}

# note FILE KEY: the value after KEY in round 1's note
note() {
	sed -n "s/^# round 1: .*$2 \([-0-9.e+]*\).*/\1/p" "$1" | head -1
}

# Issue 16's acceptance figures first (ACCEPTANCE=1: only these).
# HiGHS's flat V (scipy's linprog, t/oracle/reserves_lp.py) beside the
# tool's when $PY (default /usr/bin/python3) has scipy
PY=${PY:-/usr/bin/python3}
highs_v() {
	"$PY" -c 'import sys; sys.path.insert(0, sys.argv[1])
from reserves_lp import lp_v, model, parse
c, D, n, U, R = parse(open(sys.argv[2]).read())
lb, ub, _, _, T = model(D, U, R, 1.0)
print(repr(lp_v(lb, ub, T)))' "$ROOT/t/oracle" "$1" 2>/dev/null || echo -
}
echo "## A. Hierarchy against the flat optimum: 2,000 x 50, r = D, steps 1-2, --fanout 100 and 500, seeds ${SEEDS:=16 17 18}"
echo "seed	usage	fanout	grouping	flat V	HiGHS V	lower bound	hierarchy deviation	above flat V	above HiGHS V	pricing rounds	seconds"
for seed in $SEEDS; do
for usage in random blocky; do
	f=$W/a2000$usage$seed.reserves
	$GEN --seed "$seed" --nodes 2000 --classes 50 --no-r --usage $usage >"$f"
	ovb-reserves --steps 2 "$f" -o "$f.flat"
	V=$(sed -n 's/^# round 1: V \([^;]*\);.*/\1/p' "$f.flat")
	HV=$(highs_v "$f")
	for fo in 100 500; do
	for g in contiguous random similar; do
		s=$(secs ovb-reserves --steps 2 --fanout $fo --grouping $g "$f" -o "$f.$g")
		lb=$(note "$f.$g" "lower bound")
		d=$(note "$f.$g" "deviation")
		pr=$(sed -n 's/^# round 1: .*(\([0-9]*\) pricing rounds*).*/\1/p' "$f.$g")
		awk -v seed="$seed" -v u=$usage -v fo=$fo -v g=$g -v V="$V" -v HV="$HV" -v lb="$lb" -v d="$d" -v p="$pr" -v s="$s" \
			'BEGIN { printf "%s\t%s\t%s\t%s\t%.3f\t%s\t%.3f\t%.3f\t%.2g%%\t%s\t%s\t%s\n", seed, u, fo, g, V,
				HV == "-" ? "-" : sprintf("%.3f", HV), lb, d, 100 * (d - V) / V,
				HV == "-" ? "-" : sprintf("%.2g%%", 100 * (d - HV) / HV), p, s }'
	done
	done
done
done

echo
echo "## B. Scale: 10,000 x 100, r = D, --fanout 100 (steps 1-3); then 100,000 x 100 through --worker-cmd"
$GEN --seed 5 --nodes 10000 --classes 100 --sum-d 100 --no-r >"$W/b10k.reserves"
echo "10,000 x 100 --floor 0.5 --fanout 100: $(timed ovb-reserves --floor 0.5 --fanout 100 "$W/b10k.reserves" -o "$W/b10k.out")"
sed -n 's/^# round 1: /  /p' "$W/b10k.out"
[ -s "$W/b100k.reserves" ] || python3 - "$W/b100k.reserves" <<'PY'
import random, sys
# 100,000 nodes x 100 classes, r = D, random usage (like reserves_gen.py,
# written in one pass to keep memory small)
rng = random.Random(100)
n, s = 100000, 100
w = [rng.expovariate(1) for _ in range(s)]
D = [int(x * 100 / sum(w) * 1000) / 1000 for x in w]
with open(sys.argv[1], "w") as f:
    f.write("ovb-reserves 1\n")
    f.writelines(f"class c{j + 1} {D[j]:g}\n" for j in range(s))
    f.writelines(f"node n{i + 1}\n" for i in range(n))
    f.write("round 1\n")
    for i in range(n):
        v = [0.0 if rng.random() < 0.15 else rng.uniform(0, 100) for _ in range(s)]
        fill = 100 if rng.random() < 0.4 else rng.uniform(10, 100)
        t = sum(v) or 1
        f.writelines(f"u n{i + 1} c{j + 1} {int(v[j] * fill / t * 1000) / 1000:g}\n"
                     for j in range(s))
PY
mkdir -p "$W/fake"
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done\nshift\nexec sh -c "$*"\n' >"$W/fake/ssh"
chmod +x "$W/fake/ssh"
echo "100,000 x 100 --floor 0.5 --fanout 100 -j 2 --worker-cmd 'ssh -T %h ovb-reserves --serve' (stand-in ssh): $(PATH=$W/fake:$PATH timed ovb-reserves --floor 0.5 --fanout 100 -j 2 --hosts a,b --worker-cmd 'ssh -T %h ovb-reserves --serve' "$W/b100k.reserves" -o "$W/b100k.out")"
sed -n 's/^# round 1: /  /p' "$W/b100k.out"
[ "${ACCEPTANCE:-0}" = 1 ] && exit 0

echo
echo "## 1. 1,000 nodes x 50 classes, one round, steps 1-3 (read, solve, write)"
$GEN --seed 11 --nodes 1000 --classes 50 >"$W/n1000.reserves"
echo "wall: $(best3 ovb-reserves "$W/n1000.reserves") s (best of 3)"
ovb-reserves -vv "$W/n1000.reserves" 2>&1 >/dev/null | tail -1 |
	awk -F'\t' '{ printf "solve: %s ms (step 1 %s ms, %s pivots; step 2 %s ms, %s Newton iterations, bound %s; step 3 %s ms)\n", $4, $9, $5, $10, $6, $7, $11 }'
echo "hierarchy --fanout 100: $(best3 ovb-reserves --fanout 100 "$W/n1000.reserves") s"

echo
echo "## 2. Warm-started rounds against cold solves (1,000 x 50, closed loop)"
for noise in 0 0.02; do
	f=$W/loop$noise.reserves
	[ -s "$f" ] || RSV_NOISE=$noise $SIM random1000 --rounds 20 --emit "$f" >/dev/null
	echo "demand noise $noise: warm $(rounds_ms "$f"); cold $(rounds_ms "$f" --cold)"
	echo "  with --fanout 100: warm $(rounds_ms "$f" --fanout 100); cold $(rounds_ms "$f" --fanout 100 --cold)"
done

echo
echo "## 3. 10,000 nodes x 100 classes via the hierarchy (--floor 0.5)"
$GEN --seed 5 --nodes 10000 --classes 100 --sum-d 100 >"$W/n10k.reserves"
for j in 1 2; do
	echo "--fanout 100 -j $j: $(secs ovb-reserves --floor 0.5 --fanout 100 -j "$j" "$W/n10k.reserves") s wall"
done
ovb-reserves --floor 0.5 --fanout 100 --steps 2 "$W/n10k.reserves" -o "$W/n10k.h"
echo "steps 1-2: $(dev1 "$W/n10k.h")"
if [ "${FLAT10K:-0}" = 1 ]; then
	echo "flat: $(secs ovb-reserves --floor 0.5 --steps 2 "$W/n10k.reserves" -o "$W/n10k.f") s"
	echo "flat steps 1-2: $(dev1 "$W/n10k.f")"
fi

echo
echo "## 4. Hierarchy against the flat optimum (2,000 x 100, --floor 0.5, steps 1-2)"
$GEN --seed 6 --nodes 2000 --classes 100 --sum-d 100 >"$W/n2000.reserves"
echo "flat: $(secs ovb-reserves --floor 0.5 --steps 2 "$W/n2000.reserves") s"
ovb-reserves --floor 0.5 --steps 2 "$W/n2000.reserves" -o "$W/n2000.f"
echo "  $(dev1 "$W/n2000.f")"
for g in contiguous random similar; do
	echo "--fanout 100 --grouping $g: $(secs ovb-reserves --floor 0.5 --steps 2 --fanout 100 --grouping $g "$W/n2000.reserves") s"
	ovb-reserves --floor 0.5 --steps 2 --fanout 100 --grouping $g "$W/n2000.reserves" -o "$W/n2000.$g"
	echo "  $(dev1 "$W/n2000.$g")"
done

echo
echo "## 5. Grouping: blocks1000 (class j on one block of nodes), closed loop, 8 rounds"
echo "(sum over classes of the mean |allocated share - D| over rounds 3-8, steps 1-2; then with step 3)"
for steps in 2 3; do
	for g in flat "--fanout 50" "--fanout 50 --grouping random" \
		"--fanout 50 --grouping similar" "--fanout 10" \
		"--fanout 10 --grouping random" "--fanout 10 --grouping similar"; do
		o=$g
		[ "$g" = flat ] && o=
		# shellcheck disable=SC2086
		t=$($SIM blocks1000 --rounds 8 --warmup 2 -- --steps $steps $o |
			sed -n 's/^# total: //p')
		echo "steps 1-$steps, $g: $t"
	done
done

echo
echo "## 6. LP against the bank over rounds (section 4; mean |share - D| after round 3)"
run_sim() {
	echo "$1 $2:"
	sc=$1
	k=$2
	shift 2
	$SIM "$sc" --rounds "$k" -- "$@" | sed -n 's/^# /    /p'
}
for m in lp bank; do
	run_sim steady4 30 -m $m
	run_sim steady100 25 -m $m --fanout 10
	run_sim steady900 15 -m $m --fanout 30
	run_sim dynamic100 35 -m $m
done
echo "bank, temporal compensation (--bank-keep 1):"
$SIM dynamic100 --rounds 35 --history -- -m bank --bank-keep 1 | sed -n 's/^# /    /p'
echo "lp --floor 0 (no reserve on idle nodes):"
run_sim steady4 30 --floor 0
run_sim steady100 25 --floor 0 --fanout 10
