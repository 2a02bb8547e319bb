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
# count too, for calibrated only pct, peak, nsigma and vpa).  The cpu-only
# tables (--mem 0) come first; then memory (nodes of 4 GiB a cpu, a pool
# of a quarter of that, the defaults): the node-week memory promises held,
# the node memory overflows (slots whose memory sum exceeded the node's),
# and the OOM kills (VM-weeks with a slot above the VM's limit, and those
# slots), with whether each was a peak never seen in training.
# Last, the bound (bench/backtest-bound.py): the fewest nodes any
# placement of pct's VMs could have used, so the largest density any
# method could have reached against pct's.
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
	$1 == "config" { key[$2] = $6 / 86400 "d | " $4 " | " $10 / 1073741824 " | " $5; m[$2] = $3 }
	$1 == "summary" {
		id = $2; k = key[id]
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		n = $7 + $8
		held[k, m[id]] = n ? $7 / n : 1
		hs[k, m[id]] = $7 "/" n
		mn = $12 + $13
		mhs[k, m[id]] = mn ? sprintf("%d/%d (%.1f%%)", $12, mn, 100 * $12 / mn) : "-"
		oom[k, m[id]] = $17 " (" $18 ")"; mo[k, m[id]] = $16
		dens[k, m[id]] = $5; vp[k, m[id]] = $6
		mv[k, m[id]] = $3 ? 100 * $11 / $3 : 0
		methods[m[id]] = 1
	}
	END {
		print "| train | cpus | mem [GiB] | O | method | held | mem held | density / pct | density / peak | moved per week | OOM kills (slots) | mem overflows [slots] | dominated by |"
		print "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
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
				printf "| %s | %s | %s/%s (%.1f%%) | %s | %.2f | %.2f | %.1f%% | %s | %s | %s |\n",
					k, x, hs[k, x], "", 100 * held[k, x], mhs[k, x],
					dens[k, "pct"] ? dens[k, x] / dens[k, "pct"] : 0,
					vp[k, x], mv[k, x], oom[k, x], mo[k, x],
					x == "overbook" || x == "calibrated" ? (dom ? dom : "none") : ""
			}
		}
	}' "$1" | sed 's|/ (|(|; s|/)|)|'
}
# per method over a run's configurations: cpu and memory node-periods
# held, OOM kills (VM-periods, slots) and how many of them were a peak
# never seen in training
totals() {
	awk '
	$1 == "config" { m[$2] = $3 }
	$1 == "oom" { if ($10 == "unseen") un[m[$2]]++ }
	$1 == "summary" { x = m[$2]
		if (!(x in h)) order[++n] = x
		h[x] += $7; b[x] += $8; mh[x] += $12; mb[x] += $13
		o[x] += $17; k[x] += $18; mo[x] += $16 }
	END {
		print "| method | held | mem held | OOM kills (slots) | of them a peak never seen in training | mem overflows [slots] |"
		print "| --- | --- | --- | --- | --- | --- |"
		for (i = 1; i <= n; i++) { x = order[i]
			printf "| %s | %d/%d (%.1f%%) | %d/%d (%.1f%%) | %d (%d) | %d | %d |\n", x,
				h[x], h[x] + b[x], 100 * h[x] / (h[x] + b[x]),
				mh[x], mh[x] + mb[x], mh[x] + mb[x] ? 100 * mh[x] / (mh[x] + mb[x]) : 100,
				o[x], k[x], un[x], mo[x] }
	}' "$1"
}
# the memory defaults argued: rolling weekly again with other node
# memories and pools, per method over the 12 configurations
sweep() {
	awk -v what="$1" '
	$1 == "config" { m[$2] = $3 }
	$1 == "summary" { x = m[$2]; if (!(x in h)) order[++n] = x
		h[x] += $7; b[x] += $8; mh[x] += $12; mb[x] += $13
		mo[x] += $16; pl[x] += $3; nd[x] += $4 }
	END { for (i = 1; i <= n; i++) { x = order[i]
		mn = mh[x] + mb[x]
		printf "| %s | %s | %.2f | %d/%d (%.1f%%) | %s | %s |\n", what, x,
			pl[x] / nd[x], h[x], h[x] + b[x], 100 * h[x] / (h[x] + b[x]),
			mn ? sprintf("%d/%d (%.1f%%)", mh[x], mn, 100 * mh[x] / mn) : "-",
			mn ? mo[x] : "-" } }' "$2"
}
ovb-backtest -q --mem 0 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/nomem"
ovb-backtest -q --mem-pool 0 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/pool0"
ovb-backtest -q --mem-pool 8,16,32 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/pool50"
ovb-backtest -q --mem-pool 16,32,64 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/pool100"
ovb-backtest -q --mem 8,16,32 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/mem2"
echo "## rolling weekly, memory not modeled (--mem 0)"
table "$W/nomem"
echo
ovb-backtest -q --mem 0 --max-moves 1 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/nomem-repair"
echo "## rolling weekly from last week's plan, at most 1 move a week (--max-moves 1), memory not modeled (--mem 0)"
table "$W/nomem-repair"
echo
ovb-backtest -q --mem 0 --plan one-shot --train 31d --replay 31d --periods 2 \
	--cpus 4 --nodes 4 "$W/7.series" "$W/8.series" "$W/9.series" >"$W/nomem-oneshot"
echo "## one-shot July plans, memory not modeled (--mem 0)"
table "$W/nomem-oneshot"
echo
echo "## memory defaults: rolling weekly, per method over the 12 configurations"
echo "| nodes | method | VMs per node | held | mem held | mem overflows [slots] |"
echo "| --- | --- | --- | --- | --- | --- |"
sweep "memory not modeled (--mem 0)" "$W/nomem"
sweep "4 GiB a cpu, pool 0" "$W/pool0"
sweep "4 GiB a cpu, pool 25% (default)" "$W/rolling"
sweep "4 GiB a cpu, pool 50%" "$W/pool50"
sweep "4 GiB a cpu, pool 100%" "$W/pool100"
sweep "2 GiB a cpu, pool 25%" "$W/mem2"
echo
echo "## rolling weekly"
table "$W/rolling"
echo
totals "$W/rolling"
echo
echo "## rolling weekly from last week's plan, at most 1 move a week (--max-moves 1)"
table "$W/repair"
echo
totals "$W/repair"
echo
echo "## one-shot July plans, August and September (4 nodes of 4 CPUs)"
table "$W/oneshot"
echo
totals "$W/oneshot"
echo
echo "valid-until (the trend forecast's date) and the broken node-months that start before it:"
echo
awk '$1 == "config" { m[$2] = $3 " O=" $5 }
	$1 == "valid" { v[$2] = $3 }
	$1 == "period" { s[$2, $3] = $4 }
	$1 == "node" && $8 == "broken" { nb[$2]++; if (s[$2, $3] < v[$2]) e[$2]++ }
	$1 == "summary" { printf "- %s: valid until %s (%s), %d of %d broken node-months before it\n",
		m[$2], v[$2], strftime("%Y-%m-%d", v[$2], 1), e[$2], nb[$2] }' "$W/oneshot"
echo
# the fewest nodes any placement of pct's VMs could have used (every node
# held, in hindsight; the limits within MEM + POOL): bench/backtest-bound.py
bound() {
	python3 "$ROOT/bench/backtest-bound.py" "$2" "$W/7.series" "$W/8.series" "$W/9.series" |
	awk -v what="$1" '$2 == "pct" {
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			what, $5 "d", $3, $4, $8, $9, $10, $11, $13, $14 }'
}
echo "## the bound: the largest density any method placing pct's VMs could have reached"
echo "| memory | train | cpus | O | pct's nodes | bound [nodes] | pct's density | best density | best / pct | best / p99 |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
bound "not modeled" "$W/nomem"
bound "4 GiB a cpu, pool 25%" "$W/rolling"
