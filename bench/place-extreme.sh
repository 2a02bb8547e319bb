#!/bin/sh
# bench/place-extreme.sh: issue 18's variants of issue 15's small-
# applications case (bench/place.sh 4 33000), made from
# `t/gen/place_large.py DIR 4 33000`'s files: each capsule its own
# application (33,000 one-capsule applications on the same 4 nodes; the
# trust records dropped: they name the old applications), the
# same on 4 nodes whose cpu and net capacities are all 1e308 (valid by
# formats/cluster.md), ovb-check of that plan, and ovb-check of the example
# files with every capacity 1e308 (t/data/example.*: exit 1, the plan
# states the old capacities).  Best of REPEAT runs (default 3): wall and
# CPU time (user + system), peak memory (bench/measure.py).  Every plan
# must read back with ovb-fmt.  Usage: bench/place-extreme.sh [REPEAT]
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
rep=${1:-3}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
python3 t/gen/place_large.py "$d" 4 33000
# one application per capsule, with its application's settings
awk '$1 == "app" { a = $2; s = ""; for (i = 3; i <= NF; i++) s = s " " $i; next }
	$1 == "capsule" { print "app " a "_" $2 s; print; next }
	$1 == "trust" { next }
	{ print }' "$d/apps" >"$d/apps1"
awk '$1 == "node" { $3 = "1e308"; $5 = "1e308" } { print }' "$d/cluster" >"$d/cluster308"
awk '$1 == "node" { $3 = "1e308"; $5 = "1e308" } { print }' t/data/example.cluster \
	>"$d/example308"
count() { grep -c "^$1 " "$2" || true; }
m() { python3 bench/measure.py "$rep" "$@"; }
r=$(m ovb-place -q -o "$d/plan1" "$d/cluster" "$d/apps1" "$d/profile")
echo "33000 one-capsule applications on 4 nodes: ovb-place $r;" \
	"$(count place "$d/plan1") placed, $(count reject "$d/plan1") rejected"
r=$(m ovb-place -q -o "$d/plan308" "$d/cluster308" "$d/apps1" "$d/profile")
echo "the same on 4 nodes of capacity 1e308: ovb-place $r;" \
	"$(count place "$d/plan308") placed, $(count reject "$d/plan308") rejected"
ovb-fmt "$d/plan1" >/dev/null
ovb-fmt "$d/plan308" >/dev/null
r=$(m ovb-check "$d/cluster308" "$d/apps1" "$d/plan308" "$d/profile")
echo "  ovb-check of that plan (accepts it): $r"
# exit 1 (violations: the plan's stated capacities), so not measure.py
python3 - "$rep" "$d/example308" <<'EOF2'
import os, resource, subprocess, sys, time
rep, cl = int(sys.argv[1]), sys.argv[2]
best = cpu = None
for _ in range(rep):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    st = subprocess.run(['ovb-check', cl, 't/data/example.apps', 't/data/example.plan',
                         't/data/example.profile'], stdout=subprocess.DEVNULL).returncode
    t = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    c = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    assert st == 1, st
    best = t if best is None else min(best, t)
    cpu = c if cpu is None else min(cpu, c)
print('ovb-check on the example files with every capacity 1e308: '
      'seconds=%.3f cpu=%.3f (exit 1: the plan states other capacities)' % (best, cpu))
EOF2
