#!/bin/sh
# bench/table1.sh PROFILE: the paper's Table 1 for an ovb-profile file: per
# capsule and resource the 100th, 99th and 95th percentiles of U and the
# chosen (sigma, rho), as a Markdown table with units.
set -eu
awk '
function num(x, u) {
	if (u == "B/s" || u == "B") {
		if (x >= 1e6) return sprintf("%.3g M%s", x / 1e6, u)
		if (x >= 1e3) return sprintf("%.3g k%s", x / 1e3, u)
	}
	return sprintf("%.3g %s", x, u)
}
function row() {
	if (cap != "")
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", cap, res,
			p[100], p[99], p[95], sigma, rho, O
}
$1 == "profile" { row(); cap = $2; res = $3; delete p }
$1 == "pct" { p[$2] = num($3, $4) }
$1 == "sigma" { sigma = num($2, $3) }
$1 == "rho" { rho = num($2, $3) }
$1 == "O" { O = $2 }
BEGIN {
	print "| capsule | resource | 100th | 99th | 95th | sigma (rate) | rho (burst) | O |"
	print "| --- | --- | --- | --- | --- | --- | --- | --- |"
}
END { row() }
' "$1"
