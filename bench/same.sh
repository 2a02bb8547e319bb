#!/bin/bash
# bench/same.sh [BASE]: is behaviour unchanged?  Builds BASE (a git
# revision, default 18673de, the last commit before the issue-10 wave) in a
# temporary git worktree, and the current tree as it is; generates inputs
# once with the current tree's t/gen (and t/oracle/reserves_gen.py); runs
# both builds' tools on them and compares stdout and the exit status byte
# for byte.  One line per comparison: "same" or "DIFFERENT", the name, the
# exit status, the command; exit 1 on any difference.  The same exit
# status other than 0 or 1 on both sides (bad input, usage) compares
# nothing: "BROKEN", which fails too.  Each build runs the whole pipeline
# on its own outputs (perf.data -> onoff -> usage, curve -> profile ->
# place -> check), so a difference upstream shows again downstream.
# BASE_BIN=DIR takes the base's tools from DIR (built already) instead.
#
# Compared: ovb-onoff, ovb-usage, ovb-tbucket, ovb-profile on the three
# shipped traces, on random onoff traces and on random series;
# ovb-convolve (doubles, --exact, --dist) on random distributions;
# ovb-place (four policies, --grid 0) and ovb-check (on the cluster, and on
# one of half the capacity: violations) on random small instances, one
# larger one and the demo; ovb-reserves (LP, bank, --report) on random
# instances; ovb-fit (--more, --nodes, --exhaustive, under each policy)
# and ovb-report (its tables of each plan) on the place instances; and
# ovb-place and ovb-check on the instances of bench/place.sh (10,000
# capsules on 100 nodes, with and without mem) and of
# bench/place-extreme.sh (33,000 one-capsule applications on 4 nodes);
# ovb-check (also --float) and ovb-report on t/data's plans (check-*,
# aggregate.*, mem.*, report-small.*; there also every table as text and
# as a page) and on bench/slow_gen.py's
# instances (300 nodes, and at half capacity; the trusting 33,000).
# Usage: bench/same.sh [BASE]  (KEEP=1 keeps the directory)
set -eu
base=${1:-18673de}
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=python3
[[ -x /usr/bin/python3 ]] && PY=/usr/bin/python3
W=$(mktemp -d "${TMPDIR:-/tmp}/ovb-same.XXXXXX")
cleanup() {
	git -C "$ROOT" worktree remove --force "$W/src" 2>/dev/null || true
	git -C "$ROOT" worktree prune 2>/dev/null || true
	[[ ${KEEP:-} ]] && echo "kept $W" >&2 || rm -rf "$W"
}
trap cleanup EXIT

if [[ ${BASE_BIN:-} ]]; then
	rev=$BASE_BIN
	B_OLD=$BASE_BIN
	echo "== base $BASE_BIN; current tree $ROOT ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with changes'))"
else
	rev=$(git rev-parse --short "$base^{commit}")
	git worktree add -q --detach "$W/src" "$rev"
	echo "== base $rev in $W/src; current tree $ROOT ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with changes'))"
	make -s -C "$W/src" -j2 all >"$W/base-build.log" 2>&1 ||
		{ cat "$W/base-build.log" >&2; exit 2; }
	B_OLD=$W/src/bin
fi
make -s -C "$ROOT" -j2 all >"$W/new-build.log" 2>&1 ||
	{ cat "$W/new-build.log" >&2; exit 2; }
B_NEW=$ROOT/bin

# inputs, generated once
IN=$W/in
mkdir -p "$IN"
for f in nginx postgres redis; do
	gzip -dc "t/fixtures/$f.perf.data.gz" >"$IN/$f.perf.data"
done
for s in 1 2 3 4 5; do
	$PY t/gen/onoff.py --seed "$s" --capsules 4 --cpus 8 --span 20000000000 \
		--busy 300 --xfers 300 --gaps 2 >"$IN/r$s.onoff"
	$PY t/gen/replay.py series "$s" >"$IN/r$s.series"
	$PY t/gen/convolve.py --seed "$s" --usage "$IN/c$s.usage" \
		--profile "$IN/c$s.profile" --res cpu >"$IN/c$s.caps"
	$PY t/oracle/reserves_gen.py --seed "$s" --nodes 30 --classes 6 \
		--rounds 3 >"$IN/r$s.reserves"
done
for s in $(seq 1 20); do
	mkdir -p "$IN/p$s"
	$PY t/gen/place.py "$s" "$IN/p$s"
	awk '$1 == "node" { $3 /= 2; $5 /= 2 } 1' "$IN/p$s/cluster" >"$IN/p$s/half"
done
mkdir -p "$IN/large" "$IN/bench" "$IN/benchmem"
$PY t/gen/place_large.py "$IN/large" 100 3000 7
$PY t/gen/place_large.py "$IN/bench" 100 10000 1
$PY t/gen/place_large.py "$IN/benchmem" 100 10000 1 mem
# bench/place-extreme.sh's instance: 33,000 one-capsule applications
$PY - "$IN/extreme" <<'PYEOF'
import os, sys
d = sys.argv[1]
os.makedirs(d)
with open(d + "/cluster", "w") as f:
    f.write("ovb-cluster 1\n")
    for i in range(4):
        f.write("node n%d 8 cpu 1000000000 B/s\n" % i)
with open(d + "/apps", "w") as f:
    f.write("ovb-apps 1\n")
    for i in range(33000):
        f.write("app a%d\ncapsule c cpu=0.0009\n" % i)
PYEOF

ndiff=0 n=0
# run NAME CMD...: CMD run by both builds (tools found on PATH) in
# $W/old and $W/new, stdout to NAME there (later commands read it by that
# name), exit status to NAME.exit; both compared.
run() {
	local name=$1 side
	shift
	for side in old new; do
		local bin=$B_OLD
		[[ $side == new ]] && bin=$B_NEW
		mkdir -p "$W/$side"
		local st=0
		(cd "$W/$side" && PATH="$bin:$PATH" "$@" >"$W/$side/$name" 2>/dev/null) || st=$?
		echo "exit $st" >"$W/$side/$name.exit"
	done
	n=$((n + 1))
	local what=same cmd="$*" st
	st=$(cat "$W/new/$name.exit")
	if ! cmp -s "$W/old/$name" "$W/new/$name" ||
		! cmp -s "$W/old/$name.exit" "$W/new/$name.exit"; then
		what=DIFFERENT
		ndiff=$((ndiff + 1))
	elif [[ $st != "exit 0" && $st != "exit 1" ]]; then
		what=BROKEN     # the same, but nothing was compared: fix this script
		ndiff=$((ndiff + 1))
	fi
	printf '%-9s %-24s %-7s %s\n' "$what" "$name" "${st#exit }" "${cmd//$W\//}"
}
for f in nginx postgres redis; do
	main=$(awk '$1 == "main_pid" { print $2 }' "t/fixtures/$f.acct")
	run "$f.onoff" ovb-onoff -c "$f=pid:$main" "$IN/$f.perf.data"
	run "$f.onoff-comm" ovb-onoff -c "all=comm:." "$IN/$f.perf.data"
done
run fixtures.usage ovb-usage -I 0.01 nginx.onoff postgres.onoff redis.onoff
run fixtures.curve ovb-tbucket nginx.onoff postgres.onoff redis.onoff
run fixtures.profile ovb-profile -O 0.01 -t 1 fixtures.usage fixtures.curve
run demo.plan ovb-place "$ROOT/t/data/demo.cluster" "$ROOT/t/data/demo.apps" fixtures.profile
run demo.check ovb-check "$ROOT/t/data/demo.cluster" "$ROOT/t/data/demo.apps" demo.plan fixtures.profile
run demo.fit-more ovb-fit --more shop01 "$ROOT/t/data/demo.cluster" "$ROOT/t/data/demo.apps" fixtures.profile
run demo.fit-nodes ovb-fit --nodes n3 --curve 0,0.01,0.1 "$ROOT/t/data/demo.cluster" "$ROOT/t/data/demo.apps" fixtures.profile
run demo.report ovb-report -f tsv -t nodes,placements,rejects "$ROOT/t/data/demo.cluster" demo.plan fixtures.profile
for s in 1 2 3 4 5; do
	run "r$s.usage" ovb-usage -I 0.1 -r all -p 97.5 "$IN/r$s.onoff"
	run "r$s.curve" ovb-tbucket -r all "$IN/r$s.onoff"
	run "r$s.profile" ovb-profile -O 0.05 -t 0.5 "r$s.usage" "r$s.curve"
	run "r$s.series-usage" ovb-usage -r cpu,net "$IN/r$s.series"
	run "r$s.series-curve" ovb-tbucket -r cpu,net "$IN/r$s.series"
	caps=$(tr ' ' '\n' <"$IN/c$s.caps" | grep -v '^$' | sed 's/^/-C /' | tr '\n' ' ')
	# shellcheck disable=SC2086
	run "c$s.convolve" ovb-convolve -r cpu $caps "$IN/c$s.usage" "$IN/c$s.profile"
	# shellcheck disable=SC2086
	run "c$s.convolve-exact" ovb-convolve --exact -r cpu $caps "$IN/c$s.usage" "$IN/c$s.profile"
	run "c$s.dist" ovb-convolve --dist -r cpu "$IN/c$s.usage" "$IN/c$s.profile"
	run "r$s.reserves" ovb-reserves "$IN/r$s.reserves"
	run "r$s.reserves-bank" ovb-reserves -m bank "$IN/r$s.reserves"
	run "r$s.reserves-report" ovb-reserves --report "$IN/r$s.reserves"
done
for s in $(seq 1 20); do
	d=$IN/p$s
	for p in worst-fit best-fit tolerance random; do
		run "p$s.$p.plan" ovb-place --grid 0 -p "$p" --seed 7 "$d/cluster" "$d/apps" "$d/profile"
		run "p$s.$p.check" ovb-check "$d/cluster" "$d/apps" "p$s.$p.plan" "$d/profile"
	done
	run "p$s.half.check" ovb-check "$d/half" "$d/apps" "p$s.worst-fit.plan" "$d/profile"
done
d=$IN/large
run large.plan ovb-place "$d/cluster" "$d/apps" "$d/profile"
run large.check ovb-check "$d/cluster" "$d/apps" large.plan "$d/profile"
for b in bench benchmem; do
	d=$IN/$b
	run "$b.plan" ovb-place "$d/cluster" "$d/apps" "$d/profile"
	run "$b.check" ovb-check "$d/cluster" "$d/apps" "$b.plan" "$d/profile"
	run "$b.report" ovb-report -f tsv -t nodes,placements,rejects "$d/cluster" "$b.plan" "$d/profile"
done
d=$IN/extreme
run extreme.plan ovb-place "$d/cluster" "$d/apps"
run extreme.check ovb-check "$d/cluster" "$d/apps" extreme.plan
# ovb-fit: --more on top of a plan, --nodes with a node as the shape
for s in 1 2 3 4 5 6; do
	d=$IN/p$s
	app=$(awk '$1 == "app" { print $2; exit }' "$d/apps")
	node=$(awk '$1 == "node" { print $2; exit }' "$d/cluster")
	sed 's/ node=[^ ]*//' "$d/apps" >"$d/free"   # --nodes: no pins
	for p in worst-fit best-fit tolerance random; do
		run "f$s.$p.more" ovb-fit --grid 0 --policy "$p" --seed 3 --more "$app" "$d/cluster" "$d/apps" "$d/profile" "p$s.worst-fit.plan"
		run "f$s.$p.nodes" ovb-fit --grid 0 --policy "$p" --seed 3 --nodes "$node" --curve 0,0.05 "$d/cluster" "$d/free" "$d/profile"
	done
	run "f$s.x.more" ovb-fit --grid 0 --exhaustive --budget 3000 --more "$app" "$d/cluster" "$d/apps" "$d/profile"
	run "f$s.x.nodes" ovb-fit --grid 0 --exhaustive --budget 3000 --nodes "$node" "$d/cluster" "$d/free" "$d/profile"
	run "p$s.report" ovb-report -f tsv -t nodes,placements,rejects "$d/cluster" "p$s.worst-fit.plan" "$d/profile"
done
# ovb-check (exact and --float) and ovb-report on t/data's plans and on
# bench/slow_gen.py's instances (its own generator; check: 300 nodes, and
# the cluster at half its capacity for violations; trust: the 33,000
# trusting applications)
T=$ROOT/t/data
run data.check ovb-check "$T/check-cluster" "$T/check-apps" "$T/check-plan" "$T/check-profile"
run data.check-float ovb-check --float "$T/check-cluster" "$T/check-apps" "$T/check-plan" "$T/check-profile"
run data.check-report ovb-report -f tsv -t nodes,placements,rejects "$T/check-cluster" "$T/check-plan" "$T/check-profile"
run data.aggregate.plan ovb-place "$T/aggregate.cluster" "$T/aggregate.apps" "$T/aggregate.profile"
run data.aggregate.check ovb-check "$T/aggregate.cluster" "$T/aggregate.apps" data.aggregate.plan "$T/aggregate.profile"
run data.aggregate.report ovb-report -f tsv -t nodes,placements,rejects "$T/aggregate.cluster" data.aggregate.plan "$T/aggregate.profile"
run data.mem.check ovb-check "$T/mem.cluster" "$T/example.apps" "$T/mem.plan" "$T/mem.profile"
run data.mem.report ovb-report -f tsv -t nodes,placements,rejects "$T/mem.cluster" "$T/mem.plan" "$T/mem.profile"
run data.report-small ovb-report -f tsv -t nodes,placements,rejects "$T/report-small.cluster" "$T/report-small.plan" "$T/report-small.profile"
# every table as text and as a page (lib/table.c's three writers)
for f in "-f text" "-f html --no-plots"; do
	k=${f#-f }; k=${k%% *}
	# shellcheck disable=SC2086
	run "data.report-small.$k" ovb-report $f "$T/report-small.cluster" "$T/report-small.plan" "$T/report-small.profile"
	# shellcheck disable=SC2086
	run "data.mem.report.$k" ovb-report $f "$T/mem.cluster" "$T/mem.plan" "$T/mem.profile"
	# shellcheck disable=SC2086
	run "data.check-report.$k" ovb-report $f "$T/check-cluster" "$T/check-apps" "$T/check-plan" "$T/check-profile"
done
mkdir -p "$IN/slow" "$IN/trust"
$PY bench/slow_gen.py check "$IN/slow" 300 1 300
$PY bench/slow_gen.py trust "$IN/trust"
awk '$1 == "node" { $3 /= 2; $5 /= 2 } 1' "$IN/slow/cluster" >"$IN/slow/half"
d=$IN/slow
run slow.plan ovb-place "$d/cluster" "$d/apps" "$d/profile"
run slow.check ovb-check "$d/cluster" "$d/apps" slow.plan "$d/profile"
run slow.check-float ovb-check --float "$d/cluster" "$d/apps" slow.plan "$d/profile"
run slow.half.check ovb-check "$d/half" "$d/apps" slow.plan "$d/profile"
run slow.half.check-float ovb-check --float "$d/half" "$d/apps" slow.plan "$d/profile"
run slow.report ovb-report -f tsv -t nodes,placements,rejects "$d/cluster" slow.plan "$d/profile"
d=$IN/trust
run trust.plan ovb-place "$d/cluster" "$d/apps"
run trust.check ovb-check "$d/cluster" "$d/apps" trust.plan
echo "== $n comparisons, $ndiff different (base $rev against the current tree)"
((ndiff == 0))
