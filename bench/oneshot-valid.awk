# bench/oneshot-valid.awk: one-shot plans against their stated validity
# (issue 27): per method, the one-shot configurations whose held-out test
# passed (heldout: the method's plan on the window's first half kept every
# measured node's promise on its second half, and some node was measured),
# the node-periods inside the validity (period END <= the config's valid
# T) and how many of them broke (cpu or memory), then those past it and
# how many broke there.  Every broken node-period inside its validity is
# listed.
#   ovb-backtest --plan one-shot --replay 30d ... > bt.txt
#   awk -f bench/oneshot-valid.awk bt.txt
$1 == "config" && $8 == "one-shot" { m[$2] = $3; os[$2] = 1
	if (!($3 in seen)) { seen[$3] = 1; order[++nm] = $3 } }
$1 == "heldout" { T[m[$2]]++; tested[$2] = 1 }
$1 == "hnode" { if ($7 == "broken") tbroke[$2] = 1; if ($7 != "missing") tseen[$2] = 1 }
$1 == "valid" { valid[$2] = $3
	if (tested[$2] && tseen[$2] && !tbroke[$2]) TP[m[$2]]++ }
$1 == "period" && os[$2] { end[$2 " " $3] = $5 }
$1 == "node" && os[$2] {
	k = m[$2]; e = end[$2 " " $3]
	bad = $8 == "broken" || $11 == "broken"
	if (($2 in valid) && e <= valid[$2]) {
		IN[k]++; INB[k] += bad
		if (bad)
			print "broken inside its validity:", $0 > "/dev/stderr"
	} else {
		OUT[k]++; OUTB[k] += bad
	}
}
END {
	printf "%-11s %12s %22s %22s\n", "method", "tests passed",
		"inside: broken/nodes", "past: broken/nodes"
	for (j = 1; j <= nm; j++) {
		k = order[j]
		printf "%-11s %12s %22s %22s\n", k, TP[k] + 0 "/" T[k] + 0,
			INB[k] + 0 "/" IN[k] + 0, OUTB[k] + 0 "/" OUT[k] + 0
	}
}
