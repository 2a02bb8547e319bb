#!/bin/sh
# bench/backtest-bitbrains.sh [WORKDIR]: ovb-backtest on the Bitbrains
# sample (../shared/data/bitbrains-rnd): rolling weekly re-planning
# (trained on the previous 2 or 4 weeks, the next week replayed, the 9
# weeks after the first 4), nodes of 4, 8 and 16 CPUs as many as needed,
# O = 1% and 5%, every method; one-shot July plans replayed on August and
# September (4 nodes of 4 CPUs, as ovb-replay's walk); and rolling again
# from last week's plan with at most 1 move a week (--max-moves 1).  Prints the tables
# of bench/README.md (section ovb-backtest): per configuration and method
# the node-week promises held (of those measured; a node with a VM without
# samples is not measured), density against the sum of the (1-O)
# percentiles (pct: p99 at O = 1%) and against peak, the VMs moved per
# week (% of those placed), and whether a baseline dominates overbook
# or calibrated (holds at least as many promises, as a fraction, and packs
# at least as densely, one of them strictly; for overbook the other modes
# count too, for calibrated only pct, peak, nsigma and vpa).
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
ovb-backtest -q "$W/7.series" "$W/8.series" "$W/9.series" >"$W/rolling"
ovb-backtest -q --max-moves 1 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/repair"
ovb-backtest -q --plan one-shot --train 31d --replay 31d --periods 2 \
	--cpus 4 --nodes 4 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/oneshot"
table() {
	awk '
	$1 == "config" { key[$2] = $6 / 86400 "d | " $4 " | " $5; m[$2] = $3 }
	$1 == "summary" {
		id = $2; k = key[id]
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		n = $7 + $8
		held[k, m[id]] = n ? $7 / n : 1
		hs[k, m[id]] = $7 "/" n
		dens[k, m[id]] = $5; vp[k, m[id]] = $6
		mv[k, m[id]] = $3 ? 100 * $11 / $3 : 0
		methods[m[id]] = 1
	}
	END {
		print "| train | cpus | O | method | held | density / pct | density / peak | moved per week | dominated by |"
		print "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
		split("overbook aggregate drift calibrated pct peak nsigma vpa", ms, " ")
		for (i = 1; i <= nk; i++) {
			k = order[i]
			for (j = 1; j <= 8; j++) {
				x = ms[j]
				if (!((k, x) in dens)) continue
				dom = ""
				if (x == "overbook" || x == "calibrated")
					for (q = 2; q <= 8; q++) {
						y = ms[q]
						# calibrated: against the baselines
						if (x == "calibrated" && q <= 4) continue
						if (!((k, y) in dens)) continue
						if (held[k, y] >= held[k, x] && dens[k, y] >= dens[k, x] &&
						    (held[k, y] > held[k, x] || dens[k, y] > dens[k, x]))
							dom = dom (dom ? ", " : "") y
					}
				printf "| %s | %s | %s/%s (%.1f%%) | %.2f | %.2f | %.1f%% | %s |\n",
					k, x, hs[k, x], "", 100 * held[k, x],
					dens[k, "pct"] ? dens[k, x] / dens[k, "pct"] : 0,
					vp[k, x], mv[k, x], x == "overbook" || x == "calibrated" ? (dom ? dom : "none") : ""
			}
		}
	}' "$1" | sed 's|/ (|(|; s|/)|)|'
}
echo "## rolling weekly"
table "$W/rolling"
echo
echo "## rolling weekly from last week's plan, at most 1 move a week (--max-moves 1)"
table "$W/repair"
echo
echo "## one-shot July plans, August and September (4 nodes of 4 CPUs)"
table "$W/oneshot"
echo
echo "valid-until (the trend forecast's date) and the broken node-months that start before it:"
echo
awk '$1 == "config" { m[$2] = $3 " O=" $5 }
	$1 == "valid" { v[$2] = $3 }
	$1 == "period" { s[$2, $3] = $4 }
	$1 == "node" && $8 == "broken" { nb[$2]++; if (s[$2, $3] < v[$2]) e[$2]++ }
	$1 == "summary" { printf "- %s: valid until %s (%s), %d of %d broken node-months before it\n",
		m[$2], v[$2], strftime("%Y-%m-%d", v[$2], 1), e[$2], nb[$2] }' "$W/oneshot"
