#!/usr/bin/env bats
# ovb-report --mode tod (issue 27, the report's part): the windows table, a
# row per node, resource and window of the day (the runs of hours in which
# every capsule's time-of-day window is the same), with the window's Eq. 1
# load and Pr(Y > C) against O_min and its status: ok, over C (Eq. 1),
# over O (Eq. 3), or unmeasured when a capsule has no samples there.
#
# t/oracle/tod.py (table) recomputes every row from the series alone
# (calendar, merge rule, bins, rho by a direct scan, Y by integer
# convolution); the statuses are also ovb-check --mode tod's, hour by hour
# and node by node.  Real data: two weeks of Bitbrains VMs 1 (busy in the
# afternoon) and 30 (busy at night), as t/0321-check-tod.bats; the tests
# skip when ../shared/data/bitbrains-rnd is absent.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	ORACLE="$BATS_TEST_DIRNAME/oracle"
	BB="$BATS_TEST_DIRNAME/../../shared/data/bitbrains-rnd"
}

# bb: $T/s.series, cpu of VMs 1 and 30 from 2013-08-05 to 08-19 (UTC), their
# usage with windows (CEST: UTC + 7200 s), curves and profiles at O = 0.01,
# tau = 300 s, and $T/s.plan placing both on the node n (no risk records:
# they state the whole-U numbers at 1000 cpu).
bb() {
	[[ -d $BB ]] || skip "../shared/data/bitbrains-rnd is absent"
	ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
		"$BB"/2013-8/{1,30}.csv.gz -o "$T/s.series"
	profiles "$T/s.series" "$T/s.profile"
	printf 'ovb-apps 1\napp a O=0.01\ncapsule c profile=vm1\napp b O=0.01\ncapsule c profile=vm30\n' \
		>"$T/s.apps"
	plan "$T/s.apps" "$T/s.profile" "$T/s.plan"
}

# profiles SERIES PROFILE [OFFSET [O TAU]]: the profiles with windows of MIN
# 100 on the clock UTC + OFFSET (default 7200 s), at O (0.01) and TAU (300 s).
profiles() {
	ovb-usage -r cpu --tod 100 --tod-offset "${3:-7200}" "$1" -o "$T/p.usage"
	ovb-tbucket -r cpu "$1" -o "$T/p.curve"
	ovb-profile -q -O "${4:-0.01}" -t "${5:-300}" "$T/p.usage" \
		"$T/p.curve" -o "$2"
}

# loose: $T/o.profile, $T/o.apps and $T/o.plan of the same VMs at O = 0.3
# and tau = 1 d, where Eq. 3 fails alone in some windows (the (1-O) factor
# and a small rho/tau bring Eq. 1's load under the p70 of Y).
loose() {
	profiles "$T/s.series" "$T/o.profile" 7200 0.3 86400
	sed 's/O=0.01/O=0.3/' "$T/s.apps" >"$T/o.apps"
	plan "$T/o.apps" "$T/o.profile" "$T/o.plan"
}

# plan APPS PROFILE PLAN: every capsule on the node n of 1000 cpu.
plan() {
	printf 'ovb-cluster 1\nnode n 1000 cpu 1e12 B/s\n' >"$T/big.cluster"
	ovb-place -q "$T/big.cluster" "$1" "$2" | grep -v '^risk ' >"$3"
	grep -q '^place ' "$3"
	! grep -q '^reject ' "$3"
}

# cluster C: $T/n.cluster, the node n of C cpu.
cluster() {
	printf 'ovb-cluster 1\nnode n %s cpu 1e12 B/s\n' "$1" >"$T/n.cluster"
}

# windows ARGS...: the windows table in TSV into $T/w.tsv.
windows() {
	ovb-report --mode tod -f tsv -t windows "$@" >"$T/w.tsv"
}

@test "windows table: every row is the oracle's (Bitbrains VMs 1 and 30, 2 weeks; O 0.01 at 2, 1.1, 0.6 cpu, O 0.3 at 0.15, 0.2 cpu; windows of other bounds per VM)" {
	bb
	for C in 2 1.1 0.6; do
		cluster $C
		windows "$T/n.cluster" "$T/s.plan" "$T/s.profile"
		run -0 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 $C \
			0.01 300 1000 "$T/w.tsv" vm1 vm30
		assert_output agree
		cp "$T/w.tsv" "$T/w$C.tsv"
	done
	# O = 0.3, tau = 1 d: a window's sigma is at least its mean (where its
	# curve starts), and Eq. 3 fails alone at 0.15 and 0.2 cpu
	loose
	for C in 0.15 0.2; do
		cluster $C
		windows "$T/n.cluster" "$T/o.plan" "$T/o.profile"
		run -0 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 $C \
			0.3 86400 1000 "$T/w.tsv" vm1 vm30
		assert_output agree
		grep -q $'\teq3\t' "$T/w.tsv"
	done
	assert_equal "$(cut -f11 "$T/w.tsv" | sort | uniq -c | tr -s ' ')" \
		"$(printf ' 1 eq1+eq3\n 5 eq3\n 26 ok\n 1 status')"
	# windows of other bounds per capsule (VM 1 with MIN 200: 2-hour
	# weekday windows; VM 30 with MIN 300: 3-hour ones): a row per
	# run of their common refinement, 16 weekday and 6 weekend ones
	ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
		"$BB"/2013-8/1.csv.gz -o "$T/a.series"
	ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
		"$BB"/2013-8/30.csv.gz -o "$T/b.series"
	ovb-usage -r cpu --tod 200 --tod-offset 7200 "$T/a.series" -o "$T/a.usage"
	ovb-usage -r cpu --tod 300 --tod-offset 7200 "$T/b.series" -o "$T/b.usage"
	ovb-tbucket -r cpu "$T/s.series" -o "$T/m.curve"
	ovb-profile -q -O 0.01 -t 300 "$T/a.usage" "$T/b.usage" "$T/m.curve" \
		-o "$T/m.profile"
	plan "$T/s.apps" "$T/m.profile" "$T/m.plan"
	for C in 1.1 0.8; do
		cluster $C
		windows "$T/n.cluster" "$T/m.plan" "$T/m.profile"
		run -0 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 $C \
			0.01 300 1000 "$T/w.tsv" vm1:200 vm30:300
		assert_output agree
	done
	assert_equal "$(cut -f3 "$T/w.tsv" | sort | uniq -c | tr -s ' ')" \
		"$(printf ' 1 days\n 16 weekday\n 6 weekend')"
	# hourly weekday windows, 3-hour weekend ones (t/0321): 24 + 8 rows
	assert_equal "$(grep -c $'^n\tcpu\t' "$T/w2.tsv")" 32
	# 2 cpu holds everywhere; 1.1 fails Eq. 1 in weekday 11-12 only; 0.6
	# fails Eq. 3 too (the oracle said which: rows above)
	assert_equal "$(cut -f11 "$T/w2.tsv" | sort | uniq -c | tr -s ' ')" \
		"$(printf ' 32 ok\n 1 status')"
	assert_equal "$(awk -F'\t' '$11 != "ok" && NR > 1 { print $3, $4, $5, $11 }' \
		"$T/w1.1.tsv")" 'weekday 11 12 eq1'
	grep -q $'\teq1+eq3\t' "$T/w0.6.tsv"
	# the oracle can fail: a load, a Pr(Y > C), a status, an hour changed
	variant load "$T/w1.1.tsv" '13s/^(([^\t]*\t){7})[^\t]*/\11.2718/'
	run -1 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 1.1 0.01 \
		300 1000 "$BAD" vm1 vm30
	assert_output --partial 'weekday 11-12: load 1.2718, want 1.27182'
	variant pr "$T/w0.6.tsv" '10s/^(([^\t]*\t){8})[^\t]*/\10.0417/'
	run -1 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 0.6 0.01 \
		300 1000 "$BAD" vm1 vm30
	assert_output --partial 'weekday 8-9: pr 0.0417, want 0.041666'
	variant status "$T/w1.1.tsv" '13s/\teq1\t/\tok\t/'
	run -1 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 1.1 0.01 \
		300 1000 "$BAD" vm1 vm30
	assert_output 'weekday 11-12: status ok, want eq1'
	variant hour "$T/w2.tsv" '26s/\t0\t3\t/\t0\t2\t/'
	run -1 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 2 0.01 \
		300 1000 "$BAD" vm1 vm30
	assert_output 'row weekend 0-2, want weekend 0-3'
}

@test "windows table as text: aligned, units labelled; in the HTML page; same bytes twice" {
	bb
	cluster 1.1
	run -0 --separate-stderr ovb-report --mode tod -t windows \
		"$T/n.cluster" "$T/s.plan" "$T/s.profile"
	assert_line --index 0 'Windows: Pr(Y > C) per node and window of the day (--mode tod)'
	assert_line --index 1 --regexp '^node +res +days +hours +clock +capacity +Eq\.1 load +Pr\(Y>C\) +O_min +status$'
	assert_line --regexp '^n +cpu +weekday +11-12 h +UTC\+02:00 +1\.1 cpu +1\.272 cpu +0\.002222 +0\.01 +over C \(Eq\.1\)$'
	assert_line --regexp '^n +cpu +weekend +21-24 h +UTC\+02:00 +1\.1 cpu +0\.1604 cpu +0 +0\.01 +ok$'
	# the text columns start where their heads do, in every row
	local head=${lines[1]} col at l
	for col in res days clock status; do
		at=${head%%"$col"*}
		for l in "${lines[@]:2:32}"; do
			[[ ${l:${#at}-1:1} == ' ' && ${l:${#at}:1} != ' ' ]] ||
				fail "column $col not aligned: $l"
		done
	done
	a=$output
	run -0 --separate-stderr ovb-report --mode tod -t windows \
		"$T/n.cluster" "$T/s.plan" "$T/s.profile"
	assert_equal "$output" "$a"
	# every table: windows after nodes; TSV: the table named
	run -0 --separate-stderr ovb-report --mode tod "$T/n.cluster" \
		"$T/s.plan" "$T/s.profile"
	assert_equal "$(grep -E '^(Nodes|Windows|Applications):' <<<"$output" |
		cut -d: -f1 | tr '\n' ' ')" 'Nodes Windows Applications '
	run -0 --separate-stderr ovb-report --mode tod -f tsv "$T/n.cluster" \
		"$T/s.plan" "$T/s.profile"
	assert_line '# windows'
	run -0 --separate-stderr ovb-report --mode tod -f html --no-plots \
		"$T/n.cluster" "$T/s.plan" "$T/s.profile"
	assert_output --partial '<section id="windows">'
	assert_output --partial '<a href="#windows">Windows</a>'
	# without --mode tod: no windows table, and the same tables as
	# --mode eq1
	run -0 --separate-stderr ovb-report "$T/n.cluster" "$T/s.plan" \
		"$T/s.profile"
	refute_output --partial 'Windows:'
	a=$output
	run -0 --separate-stderr ovb-report --mode eq1 "$T/n.cluster" \
		"$T/s.plan" "$T/s.profile"
	assert_equal "$output" "$a"
}

@test "a window without samples is unmeasured: no load, no Pr(Y > C), never 0; the oracle agrees" {
	[[ -d $BB ]] || skip "../shared/data/bitbrains-rnd is absent"
	# VM 1 from Monday 00:00 to Saturday 00:00 CEST only: no weekend
	ovb-import --bitbrains -q -r cpu --from 2013-08-04T22:00 \
		--to 2013-08-09T22:00 "$BB"/2013-8/1.csv.gz -o "$T/a.series"
	ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
		"$BB"/2013-8/30.csv.gz -o "$T/b.series"
	cat "$T/a.series" <(grep -v '^ovb-series' "$T/b.series") >"$T/s.series"
	profiles "$T/s.series" "$T/s.profile"
	printf 'ovb-apps 1\napp a O=0.01\ncapsule c profile=vm1\napp b O=0.01\ncapsule c profile=vm30\n' \
		>"$T/s.apps"
	plan "$T/s.apps" "$T/s.profile" "$T/s.plan"
	# 1000 cpu: everything measured holds, the weekend is not decided
	cluster 1000
	windows "$T/n.cluster" "$T/s.plan" "$T/s.profile"
	run -0 "$PY" "$ORACLE/tod.py" table "$T/s.series" 7200 100 1000 0.01 \
		300 1000 "$T/w.tsv" vm1 vm30
	assert_output agree
	assert_equal "$(awk -F'\t' '$3 == "weekend" { print $8, $9, $11, $14 }' \
		"$T/w.tsv" | sort | uniq -c | tr -s ' ')" ' 8 - - unmeasured a/c'
	assert_equal "$(awk -F'\t' '$3 == "weekday" { print $11 }' "$T/w.tsv" |
		sort | uniq -c | tr -s ' ')" ' 24 ok'
	run -0 --separate-stderr ovb-report --mode tod -t windows \
		"$T/n.cluster" "$T/s.plan" "$T/s.profile"
	assert_line --regexp '^n +cpu +weekend +0-3 h +UTC\+02:00 +1000 cpu +- +- +0\.01 +unmeasured: a/c has no samples$'
	# ovb-check says the same hours are unmeasured
	run -1 --separate-stderr ovb-check --mode tod "$T/n.cluster" \
		"$T/s.apps" "$T/s.profile" "$T/s.plan"
	assert_output --regexp '^violation n cpu unmeasured window weekend 0-24: capsule a/c '
}

# hours: "NODE DAYS HOUR KIND" per hour of every violation, from ovb-check's
# output (--mode tod) or from the windows table (TSV) in $output.
check_hours() {
	awk '$1 == "violation" { split($7, h, "[-:]")
		for (i = h[1]; i < h[2]; i++) print $2, $6, i, $4 }' <<<"$output" |
		sort
}
table_hours() {
	awk -F'\t' 'NR > 1 && $11 != "ok" { n = split($11, k, "+")
		for (i = $4; i < $5; i++) for (j = 1; j <= n; j++)
			print $1, $3, i, k[j] }' "$T/w.tsv" | sort
}

@test "the windows table fails exactly where ovb-check --mode tod does, node by node and hour by hour" {
	bb
	# a third application on its own node m: VM 1 alone
	printf 'ovb-apps 1\napp a O=0.01\ncapsule c profile=vm1\napp b O=0.01\ncapsule c profile=vm30\napp d O=0.01\ncapsule c profile=vm1\n' \
		>"$T/3.apps"
	plan "$T/3.apps" "$T/s.profile" "$T/3.plan"
	sed -i -E 's/^place d c n /place d c m /' "$T/3.plan"
	local cap
	loose
	for cap in '0.15 0.2' '0.2 0.1'; do
		printf 'ovb-cluster 1\nnode n %s cpu 1e12 B/s\nnode m %s cpu 1e12 B/s\n' \
			$cap >"$T/2.cluster"
		windows "$T/2.cluster" "$T/o.plan" "$T/o.profile"
		want=$(table_hours)
		grep -q ' eq3$' <<<"$want"
		run -1 --separate-stderr ovb-check --mode tod "$T/2.cluster" \
			"$T/o.apps" "$T/o.profile" "$T/o.plan"
		assert_equal "$(check_hours)" "$want"
	done
	for cap in '1.1 0.6' '0.6 1.1' '2 2' '0.9 0.45'; do
		set -- $cap
		printf 'ovb-cluster 1\nnode n %s cpu 1e12 B/s\nnode m %s cpu 1e12 B/s\n' \
			"$1" "$2" >"$T/2.cluster"
		windows "$T/2.cluster" "$T/3.plan" "$T/s.profile"
		want=$(table_hours)
		run --separate-stderr ovb-check --mode tod "$T/2.cluster" \
			"$T/3.apps" "$T/s.profile" "$T/3.plan"
		[[ $status -eq 0 || $status -eq 1 ]] || fail "ovb-check: $status"
		assert_equal "$(check_hours)" "$want"
		# which nodes fail (VM 1 alone holds at 1.1 cpu, t/0321)
		case $cap in
		'2 2') assert_equal "$want" '' ;;
		'0.6 1.1') assert_equal "$(cut -d' ' -f1 <<<"$want" | sort -u)" n ;;
		*) assert_equal "$(cut -d' ' -f1 <<<"$want" | sort -u |
			tr '\n' ' ')" 'm n ' ;;
		esac
		# ovb-check fails iff a row is not ok
		if [[ -n $want ]]; then
			assert_equal "$status" 1
		else
			assert_equal "$status" 0
		fi
	done
	# both nodes appear: n with two capsules, m with one
	assert_equal "$(cut -f1 "$T/w.tsv" | LC_ALL=C sort | uniq -c |
		tr -s ' ')" "$(printf ' 32 m\n 32 n\n 1 node')"
}

@test "bad input: windows on different clocks 65 with FILE:LINE" {
	[[ -d $BB ]] || skip "../shared/data/bitbrains-rnd is absent"
	ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
		"$BB"/2013-8/1.csv.gz -o "$T/a.series"
	ovb-import --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
		"$BB"/2013-8/30.csv.gz -o "$T/b.series"
	profiles "$T/a.series" "$T/a.profile" 7200
	profiles "$T/b.series" "$T/b.profile" 0
	printf 'ovb-apps 1\napp a O=0.01\ncapsule c profile=vm1\napp b O=0.01\ncapsule c profile=vm30\n' \
		>"$T/s.apps"
	plan "$T/s.apps" <(cat "$T/a.profile" <(grep -v '^ovb-profile' \
		"$T/b.profile")) "$T/s.plan"
	cluster 2
	run -65 --separate-stderr ovb-report --mode tod "$T/n.cluster" \
		"$T/s.plan" "$T/a.profile" "$T/b.profile"
	assert_equal "$output" ''
	assert_equal "$stderr" "ovb-report: $T/s.plan:$(line_of '^place b ' "$T/s.plan"): node n cpu: the members' windows have different clocks (windows OFFSET) (--mode tod)"
	# without --mode tod the plan reads as before
	run -0 --separate-stderr ovb-report -t nodes "$T/n.cluster" \
		"$T/s.plan" "$T/a.profile" "$T/b.profile"
}

# page ARGS...: the HTML page of --mode tod into $T/r.html, the gnuplot
# scripts it ran into $T/gp.in (a stand-in gnuplot that passes them on).
page() {
	command -v gnuplot >/dev/null ||
		skip "gnuplot is not installed (Debian package gnuplot-nox)"
	printf '#!/bin/sh\ntee -a "%s/gp.in" | gnuplot "$@"\n' "$T" >"$T/gp"
	chmod +x "$T/gp"
	rm -f "$T/gp.in"
	OVB_GNUPLOT="$T/gp" ovb-report --mode tod -f html "$@" -o "$T/r.html"
	windows "$@"
}

# example: $T/e.profile (t/data/example.series with windows of MIN 2: no
# weekday sample) and $T/e.plan placed by Eq. 1 on t/data's example.
example() {
	ovb-usage -r cpu --tod 2 "$DATA/example.series" -o "$T/e.usage"
	ovb-tbucket -r cpu "$DATA/example.series" -o "$T/e.curve"
	ovb-profile -q -O 0.1 -t 300 "$T/e.usage" "$T/e.curve" -o "$T/e.profile"
	ovb-place -q "$DATA/example.cluster" "$DATA/example.apps" \
		"$T/e.profile" -o "$T/e.plan"
}

@test "t/data's example (4 nodes, net, plain capsules, unmeasured weekdays): the page's plots draw the table; usage errors 64" {
	example
	page "$DATA/example.cluster" "$T/e.plan" "$T/e.profile"
	run -0 "$PY" "$BATS_TEST_DIRNAME/report/windows_plot.py" "$T/gp.in" \
		"$T/w.tsv"
	assert_output agree
	# shop/web on n1 and shop/db on n3 are unmeasured on weekdays; the
	# plain capsules' nodes hold all day on their sigma
	assert_equal "$(awk -F'\t' '$11 != "ok" { print $1, $3, $4, $5, $11, $14 }' \
		"$T/w.tsv")" "$(printf '%s\n' 'node days from_h to_h status unmeasured' \
		'n1 weekday 0 24 unmeasured shop/web' 'n3 weekday 0 24 unmeasured shop/db')"
	assert_equal "$(grep -c '<figcaption>Node n[0-9], [a-z]*, per hour' \
		"$T/r.html")" 6
	# usage errors
	run -64 --separate-stderr ovb-report --mode hourly \
		"$DATA/example.cluster" "$T/e.plan" "$T/e.profile"
	[[ $stderr == *"--mode: 'hourly' is not eq1 or tod"* ]] || fail "$stderr"
	run -64 --separate-stderr ovb-report -t windows "$DATA/example.cluster" \
		"$T/e.plan" "$T/e.profile"
	[[ $stderr == *"--table windows: needs --mode tod, an ovb-plan and its ovb-cluster file"* ]] ||
		fail "$stderr"
	run -64 --separate-stderr ovb-report --mode tod -t windows \
		"$T/e.profile"
	run -64 --separate-stderr ovb-report --mode tod -p cdf -c web \
		-r cpu "$T/e.profile"
	[[ $stderr == *"--mode, --no-plots and --title are for tables"* ]] ||
		fail "$stderr"
	command -v chromium >/dev/null ||
		skip "Chromium is not installed (Debian package chromium)"
	for w in 1280 700; do
		run -0 /usr/bin/python3 "$BATS_TEST_DIRNAME/report/layout.py" \
			"$T/r.html" "$w" "$T"
		assert_output --regexp "width $w \\(window $w, screenshot ${w}x2000\\): [0-9]+ figures, [0-9]+ texts, [0-9]+ pairs, 0 problems"
	done
}

@test "the page: a plot per node and resource of the windows table, drawing its numbers; no two labels overlap (Chromium)" {
	bb
	cluster 0.6
	page "$T/n.cluster" "$T/s.plan" "$T/s.profile"
	run -0 "$PY" "$BATS_TEST_DIRNAME/report/windows_plot.py" "$T/gp.in" \
		"$T/w.tsv"
	assert_output agree
	assert_equal "$(grep -c '<figcaption>Node n, cpu, per hour' "$T/r.html")" 1
	# the check can fail: a Pr(Y > C) of the table changed
	variant pr "$T/w.tsv" '5s/^(([^\t]*\t){8})[^\t]*/\10.5/'
	run -1 "$PY" "$BATS_TEST_DIRNAME/report/windows_plot.py" "$T/gp.in" \
		"$BAD"
	assert_output --regexp '^n cpu weekday 3: drawn \(0\.3788.*, 1e-06\), table \(0\.3788.*, 0\.5\)$'
	command -v chromium >/dev/null ||
		skip "Chromium is not installed (Debian package chromium)"
	for w in 1280 700; do
		run -0 /usr/bin/python3 "$BATS_TEST_DIRNAME/report/layout.py" \
			"$T/r.html" "$w" "$T"
		assert_output --regexp "width $w \\(window $w, screenshot ${w}x2000\\): [0-9]+ figures, [0-9]+ texts, [0-9]+ pairs, 0 problems"
	done
}
