# bench/backtest-pool.awk: an ovb-backtest table pooled per method over
# its configurations (issue 27): VMs placed per node, node-periods held of
# those measured, VMs moved a period (share of those placed), the gap
# closed pooled in nodes a VM placed, (pct's - its) / (pct's -
# hindsight's), each the sum of its nodes over the sum of its VMs placed
# over the groups with both, and the configurations with at least 10
# measured node-periods whose share held is below 90%.
#   awk -f bench/backtest-pool.awk bt.txt
$1 == "config" { m[$2] = $3; g[$2] = $4 " " $5 " " $6 " " $7 " " $8 " " $10
	id[++n] = $2; if (!($3 in seen)) { seen[$3] = 1; order[++nm] = $3 } }
$1 == "summary" { nodes[$2] = $4; placed[$2] = $3; held[$2] = $7
	broken[$2] = $8; moved[$2] = $11 }
END {
	for (i = 1; i <= n; i++) {
		c = id[i]
		if (m[c] == "pct") { P[g[c]] = nodes[c]; PP[g[c]] = placed[c] }
		if (m[c] == "hindsight") { H[g[c]] = nodes[c]; HP[g[c]] = placed[c] }
	}
	for (i = 1; i <= n; i++) {
		c = id[i]; k = m[c]
		PL[k] += placed[c]; N[k] += nodes[c]; HE[k] += held[c]
		ME[k] += held[c] + broken[c]; MV[k] += moved[c]
		if (held[c] + broken[c] >= 10 && held[c] < 0.9 * (held[c] + broken[c]))
			low[k]++
		if ((g[c] in P) && (g[c] in H) && PP[g[c]] && HP[g[c]] &&
		    P[g[c]] * HP[g[c]] > H[g[c]] * PP[g[c]] && placed[c]) {
			GP[k] += P[g[c]]; GN[k] += nodes[c]; GH[k] += H[g[c]]
			GPP[k] += PP[g[c]]; GNP[k] += placed[c]; GHP[k] += HP[g[c]]
		}
	}
	printf "%-10s %9s %18s %8s %8s %s\n", "method", "VMs/node", "held",
		"moved", "gap", "configs <90%"
	for (j = 1; j <= nm; j++) {
		k = order[j]
		gap = "-"
		if (GPP[k] && GHP[k] && GP[k] / GPP[k] > GH[k] / GHP[k]) {
			a = GP[k] / GPP[k]
			b = a - GN[k] / GNP[k]; h = a - GH[k] / GHP[k]
			gap = sprintf("%.1f%%", 100 * b / h)
		}
		d = N[k] ? PL[k] / N[k] : 0
		h = ME[k] ? 100 * HE[k] / ME[k] : 0
		mv = PL[k] ? 100 * MV[k] / PL[k] : 0
		printf "%-10s %9.2f %8d/%-4d %5.1f%% %7.1f%% %7s %d\n", k, d,
			HE[k], ME[k], h, mv, gap, low[k] + 0
	}
}
