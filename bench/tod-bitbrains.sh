#!/bin/sh
# Time-of-day windows (issue 27): nodes needed for the same VMs under the
# paper's Eq. 1 and Eq. 3 (ovb-check) and per hour of the day (ovb-check
# --mode tod), first-fit decreasing with ovb-check as the node test,
# trained on two weeks of the Bitbrains traces, replayed on the week after.
#   bench/tod-bitbrains.sh [DATA [CPUS...]]   (default: bitbrains-rnd-250, 64 32 16)
# Needs ../shared/data; bin/ on the PATH (make).  Output: bench/README.md.
set -eu
data=${1:-../shared/data/bitbrains-rnd-250}
[ $# -gt 0 ] && shift
cpus=${*:-64 32 16}
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
	"$data"/2013-8/*.csv.gz -o "$t/train.series"
ovb-import --bitbrains -q -r cpu --from 2013-08-19 --to 2013-08-26 \
	"$data"/2013-8/*.csv.gz -o "$t/next.series"
ovb-usage -r cpu --tod 100 --tod-offset 7200 "$t/train.series" -o "$t/u"
ovb-tbucket -r cpu "$t/train.series" -o "$t/c"
ovb-profile -q -O 0.01 -t 300 "$t/u" "$t/c" -o "$t/p"
mkdir "$t/p.d"
awk -v d="$t/p.d" '$1 == "profile" { f = d "/" $2 ".profile";
	print "ovb-profile 1" > f } f { print > f }' "$t/p"
awk '$1 == "profile" { print "app", $2, "O=0.01"; print "capsule c profile=" $2 }
	BEGIN { print "ovb-apps 1" }' "$t/p" >"$t/apps"
printf 'ovb-cluster 1\nnode big 1000000 cpu 1e12 B/s\n' >"$t/big"
ovb-place -q "$t/big" "$t/apps" "$t/p" -o "$t/all.plan"
for c in $cpus; do
	for m in eq1 tod; do
		python3 "$here/tod_ffd.py" "$t/all.plan" "$t/apps" "$t/p.d" "$c" \
			"$m" "$t/next.series" 0.01 7200
	done
done
