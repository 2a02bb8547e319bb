#!/bin/sh
# demo.sh: what `make demo` runs, the main job on the shipped real traces
# (t/fixtures: nginx under wrk, PostgreSQL under pgbench, redis under
# redis-benchmark, recorded with perf on Linux).  It grows with the
# pipeline; today: perf.data -> On/Off traces -> usage distributions and
# token-bucket curves -> profiles, and the table of percentiles and
# (sigma, rho) at O = 0.01 that README.md shows.
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
	ovb-onoff -c "$f=pid:$main" "$out/$f.perf.data" -o "$out/$f.onoff"
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
echo
echo "Files: $out/{*.onoff,fixtures.usage,fixtures.curve,fixtures.profile}"
