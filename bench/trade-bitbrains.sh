#!/bin/sh
# bench/trade-bitbrains.sh [WORKDIR]: ovb-trade on the Bitbrains sample
# (../shared/data/bitbrains-rnd): profile July, place 8 trading
# applications of 4 VMs each on four 4-CPU nodes, replay August and
# September with and without trading (work-conserving and capped, I = 300
# s, alpha 1);
# the numbers in bench/README.md (section ovb-trade).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATH=$ROOT/bin:$PATH
export PATH
W=${1:-$(mktemp -d)}
mkdir -p "$W"
BB=${BB:-$ROOT/../shared/data/bitbrains-rnd}
for m in 7 8 9; do
	ovb-import -q --bitbrains "$BB/2013-$m"/*.csv.gz -o "$W/$m.series"
done
ovb-usage -q -I 300 -r cpu,net "$W/7.series" >"$W/u"
ovb-tbucket -q -r cpu,net "$W/7.series" >"$W/c"
ovb-profile -q -O 0.01 -t 86400 "$W/u" "$W/c" >"$W/profile"
{
	echo 'ovb-cluster 1'
	for n in 1 2 3 4; do echo "node n$n 4 cpu 125000000 B/s"; done
} >"$W/cluster"
{
	echo 'ovb-apps 1'
	for a in 0 1 2 3 4 5 6 7; do
		echo "app g$a trade=yes"
		for k in 1 2 3 4; do v=$((a * 4 + k)); echo "capsule vm$v profile=vm$v"; done
	done
} >"$W/apps"
sed 's/ trade=yes$/ trade=no/' "$W/apps" >"$W/apps.no"
ovb-place -q "$W/cluster" "$W/apps" "$W/profile" >"$W/plan" || true
echo "placed: $(grep -c '^place' "$W/plan") capsules of 32"
# stats FILE: capsule-intervals, of them with usage above the allocation
# in force (demand not met by the reservation), lent (sum of R - A over
# lenders, cpu-intervals), node-intervals whose usage exceeds capacity
stats() {
	awk '$1 == "node" { cap[$2] = $3 } $1 == "capsule" { R[$2] = $5 }
		$1 == "at" { T++ }
		$1 == "c" { n++; if ($4 > $3 * (1 + 1e-9)) over++; if ($3 < R[$2]) lent += R[$2] - $3 }
		$1 == "n" { ni++; if ($3 > cap[$2] * (1 + 1e-9)) nover++ }
		END { printf "%d capsule-intervals, usage above A in %d (%.2f%%), lent %.1f cpu-intervals (mean %.3f cpu over %d intervals), node usage above capacity in %d of %d node-intervals\n", n, over, 100 * over / n, lent, lent / T, T, nover, ni }' "$1"
}
# recoveries FILE: per reclaim (a lender, A < R, whose usage reaches its
# allocation: class reclaim), the intervals until its allocation is R
# again; a reclaim that ends because the usage falls back (class under)
# is not counted.  The distribution's quartiles.
recoveries() {
	awk '$1 == "capsule" { R[$2] = $5 }
		$1 == "c" { if ($6 == "reclaim" && !e[$2]) { e[$2] = 1; k[$2] = 0 }
			if (e[$2]) { k[$2]++
				if ($7 >= R[$2] * (1 - 1e-9)) { print k[$2]; e[$2] = 0 }
				else if ($6 == "under") { e[$2] = 0; ab++ } } }
		END { print "abandoned", ab + 0 }' "$1" >"$W/rec"
	grep -v abandoned "$W/rec" | sort -n | awk -v ab="$(grep abandoned "$W/rec" | cut -d" " -f2)" '{ v[NR] = $1 }
		END { if (!NR) { print "no reclaim completed (" ab " abandoned)"; exit }
			printf "%d reclaims back to R in intervals: median %d, 90th %d, max %d (%d abandoned: usage fell back first)\n", NR, v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.999)], v[NR], ab }'
}
for m in 8 9; do
	for e in work-conserving capped; do
		for r in paper fix; do
			o=$W/t$m.$e.$r
			ovb-trade -q --enforce "$e" --reclaim "$r" --check -o "$o" "$W/cluster" "$W/apps" "$W/plan" "$W/$m.series"
			echo "2013-$m trading, $e, $r: $(stats "$o")"
			echo "    $(recoveries "$o")"
		done
	done
	ovb-trade -q --check -o "$W/n$m" "$W/cluster" "$W/apps.no" "$W/plan" "$W/$m.series"
	echo "2013-$m no trading: $(stats "$W/n$m")"
done
