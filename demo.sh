#!/bin/sh
# demo.sh: what `make demo` runs, the main job on the shipped real traces
# (t/fixtures: nginx under wrk, PostgreSQL under pgbench, redis under
# redis-benchmark, recorded with perf on Linux).  It grows with the
# pipeline: perf.data -> On/Off traces -> usage distributions and
# token-bucket curves -> profiles (with the table of percentiles and
# (sigma, rho) at O = 0.01 that README.md shows) -> a placement of web
# shops on a small cluster -> ovb-check -> a per-node summary and an HTML
# report.
#
# Usage: demo.sh [OUTDIR]   (default: build/demo)
set -eu
cd "$(dirname "$0")"
PATH="$PWD/bin:$PATH"
out=${1:-build/demo}
mkdir -p "$out"

for f in nginx postgres redis; do
	gzip -dc "t/fixtures/$f.perf.data.gz" >"$out/$f.perf.data"
	main=$(awk '$1 == "main_pid" { print $2 }' "t/fixtures/$f.acct")
	# recorded with what ovb-capture records (sched_stat_runtime included),
	# so ovb-onoff bounds every run; the .acct beside each is the kernel's
	# own accounting of the same window (t/fixtures/README.md)
	ovb-onoff -q -c "$f=pid:$main" "$out/$f.perf.data" \
		-o "$out/$f.onoff"
done
ovb-usage -I 0.01 "$out"/*.onoff -o "$out/fixtures.usage"
ovb-tbucket "$out"/*.onoff -o "$out/fixtures.curve"
ovb-profile -O 0.01 -t 1 "$out/fixtures.usage" "$out/fixtures.curve" \
	-o "$out/fixtures.profile"
ovb-fmt "$out"/*.onoff "$out/fixtures.usage" "$out/fixtures.curve" \
	"$out/fixtures.profile"

echo "Profiles of the shipped traces (I = 10 ms, O = 0.01, tau = 1 s):"
echo
sh bench/table1.sh "$out/fixtures.profile"

# placed so that the plan reaches the machines as written: every node's
# reservations within what the kernel's SCHED_DEADLINE admits (0.90 of
# each CPU), and every capsule's burst what each target grants (tc: the
# MTU and rate/HZ; CFS and SCHED_DEADLINE: their least quota and runtime),
# so that every target renders it with no --clamp
targets=sched-deadline,cgroup,cgroup1,systemd,tc,kubernetes
ovb-place --enforce "$targets" t/data/demo.cluster t/data/demo.apps \
	"$out/fixtures.profile" -o "$out/demo.plan"
ovb-check --enforce "$targets" t/data/demo.cluster t/data/demo.apps \
	"$out/demo.plan" "$out/fixtures.profile"
echo
echo "Placement of $(grep -c '^app ' t/data/demo.apps) web shops (ovb-place --enforce, every target; checked by ovb-check):"
echo
ovb-report -t nodes t/data/demo.cluster "$out/demo.plan" "$out/fixtures.profile"
echo
ovb-report -t rejects t/data/demo.cluster "$out/demo.plan" "$out/fixtures.profile"
ovb-enforce -t sched-deadline t/data/demo.cluster "$out/demo.plan" \
	-o "$out/demo.sched-deadline"
echo
echo "SCHED_DEADLINE reservations that enforce it (ovb-enforce, all in $out/demo.sched-deadline):"
echo
grep '^# node ' "$out/demo.sched-deadline"
if command -v gnuplot >/dev/null; then
	ovb-report -f html --title 'overbook demo: the shipped traces' \
		t/data/demo.cluster "$out/demo.plan" "$out/fixtures.profile" \
		-o "$out/report.html"
	echo
	echo "Report: $out/report.html"
fi
