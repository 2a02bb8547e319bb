#!/usr/bin/env bats
# ovb-report's usage over time (issue 17): ovb-onoff and ovb-series inputs,
# the usage table, --plot usage and the page's figures.
#
# The plotted points are checked against t/oracle/usage_time.py, which
# recomputes the usage per measurement interval from the onoff or series
# file with Fractions (formats/onoff.md, formats/series.md) and bins it by
# the largest usage per bucket on its own; the gnuplot scripts are
# captured with a stand-in gnuplot.  Data: the shipped nginx trace (as
# t/0612-report-layout.bats records it), the
# example series and a series of 5000 samples with gaps made here.

bats_require_minimum_version 1.5.0

setup_file() {
	load test_helper
	local D=$BATS_FILE_TMPDIR main
	main=$(awk '$1 == "main_pid" { print $2 }' "$FIXTURES/nginx.acct")
	gzip -dc "$FIXTURES/nginx.perf.data.gz" >"$D/nginx.perf.data"
	ovb-onoff -q -c "nginx=pid:$main" \
		"$D/nginx.perf.data" -o "$D/n.onoff"
	ovb-usage -q -I 0.01 "$D/n.onoff" -o "$D/n.usage"
	ovb-tbucket -q "$D/n.onoff" -o "$D/n.curve"
	ovb-profile -q -O 0.01 -t 1 "$D/n.usage" "$D/n.curve" -o "$D/n.profile"
	# 5000 slots of 300 s from 2013-07-01, every 7th sample missing and a
	# hole of 200; values with many digits
	/usr/bin/python3 - "$D/g.series" <<-'EOF'
	import sys
	with open(sys.argv[1], "w") as f:
	    f.write("ovb-series 1\n")
	    for res, scale in (("cpu", 1.0), ("net", 1e6)):
	        f.write("series g %s\ninterval 300 s\n" % res)
	        for k in range(5000):
	            if k % 7 == 3 or 2000 <= k < 2200:
	                continue
	            v = ((k * 7919) % 1009) / 1009 * scale / 3
	            f.write("sample %d %r\n" % (1372636800 + 300 * k, v))
	EOF
}

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	D=$BATS_FILE_TMPDIR
	O="/usr/bin/python3 $BATS_TEST_DIRNAME/oracle/usage_time.py"
	command -v gnuplot >/dev/null ||
		skip "gnuplot is not installed (Debian package gnuplot-nox)"
}

stderr_is() {
	[[ $stderr == "$1" ]] || fail "stderr is '$stderr', not '$1'"
}

stderr_matches() {
	[[ $stderr =~ $1 ]] || fail "stderr '$stderr' does not match '$1'"
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}


@test "onoff fixture: the plotted usage per interval is the oracle's, at 10 ms and binned at 1 ms" {
	capture
	local r I n=0
	for I in 0.01 0.001; do
		ovb-report -f tsv -t usage -I $I "$D/n.onoff" >"$T/u.tsv"
		for r in cpu net; do
			ovb-report -p usage -c nginx -r $r -I $I "$D/n.onoff" \
				-o "$T/u.svg"
			run -0 $O --interval $I "$D/n.onoff" nginx $r "$T/gp.$n" "$T/u.tsv"
			n=$((n + 1))
			# the counts are the oracle's: at 10 ms one interval per
			# point; at 1 ms (more than 2000 intervals) two per point
			[[ $output =~ ^agree:\ ([0-9]+)\ intervals,\ ([0-9]+)\ points\ \(([0-9]+)\ per\ point\)$ ]] ||
				fail "$output"
			local ni=${BASH_REMATCH[1]} np=${BASH_REMATCH[2]} per=${BASH_REMATCH[3]}
			if [[ $I == 0.01 ]]; then
				((ni == np && per == 1 && ni <= 2000)) || fail "$output"
				N10=$ni
			else
				((ni > 2000 && per == 2 && np == (ni + 1) / 2)) || fail "$output"
			fi
		done
	done
	grep -q "title 'usage: the largest of each 2 intervals of 0.001 s'" \
		"$T/gp.3" || fail "the binning is not named in the key"
	# the check can fail: one value changed
	sed '/^\$U << EOD$/{n;n;s/ [0-9.e+-]*$/ 0.5/}' "$T/gp.0" >"$T/bad"
	run -1 $O --interval 0.01 "$D/n.onoff" nginx cpu "$T/bad"
	assert_output --partial 'line 2 of $U: expected'
}

@test "onoff: the interval is -I, else the profile's (10 ms), else 1 s; sigma and p99 drawn and named" {
	capture
	ovb-report -p usage -c nginx -r cpu "$D/n.onoff" "$D/n.profile" -o "$T/a.svg"
	local n10
	n10=$(ovb-report -f tsv -t usage -I 0.01 "$D/n.onoff" | awk -F '\t' 'NR > 1 && $1 == "nginx" && $2 == "cpu" { print $4; exit }')
	grep -q "usage over time ($n10 intervals of 0.01 s)" "$T/gp.0" ||
		fail "not the profile's interval ($n10 intervals of 0.01 s expected)"
	run -0 $O --interval 0.01 "$D/n.onoff" nginx cpu "$T/gp.0"
	local sigma p99
	sigma=$(awk '$1 == "profile" { on = $2 == "nginx" && $3 == "cpu" }
		on && $1 == "sigma" { print $2 }' "$D/n.profile")
	p99=$(awk '$1 == "profile" { on = $2 == "nginx" && $3 == "cpu" }
		on && $1 == "pct" && $2 == 99 { print $3 }' "$D/n.profile")
	run -0 grep -c "^set arrow 1 from graph 0, first $sigma to graph 1, first $sigma " "$T/gp.0"
	run -0 grep -c "^set arrow 2 from graph 0, first $p99 to graph 1, first $p99 " "$T/gp.0"
	run -0 grep -o "title 'σ (rate) = [^']*'" "$T/gp.0"
	assert_output "title 'σ (rate) = $(printf '%.4g' "$sigma") cpu'"
	run -0 grep -o "title 'p99 of U = [^']*'" "$T/gp.0"
	assert_output "title 'p99 of U = $(printf '%.4g' "$p99") cpu'"
	grep -q "^set xlabel 'time from the trace start \[s\]'" "$T/gp.0"
	grep -q "^set ylabel 'CPU usage per interval \[cpu\]'" "$T/gp.0"
	# a usage file gives the interval and p99, no sigma
	ovb-report -p usage -c nginx -r net "$D/n.onoff" "$D/n.usage" -o "$T/b.svg"
	grep -q "intervals of 0.01 s)" "$T/gp.1"
	run -1 grep -c "σ (rate)" "$T/gp.1"
	run -0 grep -c "p99 of U" "$T/gp.1"
	grep -q "per interval \[MB/s\]" "$T/gp.1" || fail "net not in MB/s"
	# alone: 1 s intervals, no lines
	ovb-report -p usage -c nginx -r cpu "$D/n.onoff" -o "$T/c.svg"
	grep -q "usage over time (3 intervals of 1 s)" "$T/gp.2"
	run -0 $O "$D/n.onoff" nginx cpu "$T/gp.2"
	run -1 grep -c "^set arrow" "$T/gp.2"
}

@test "series: the plotted usage per interval is the oracle's, with gaps, binned beyond 2000, and at -I 900" {
	capture
	local r n=0
	for r in cpu net; do
		ovb-report -f tsv -t usage "$D/g.series" >"$T/u.tsv"
		ovb-report -p usage -c g -r $r "$D/g.series" -o "$T/g.svg"
		run -0 $O "$D/g.series" g $r "$T/gp.$n" "$T/u.tsv"
		# 5000 slots less 715 (k % 7 == 3) and 200 (the hole) plus the
		# 29 counted twice: 4114 intervals; 1667 buckets of 3 slots less
		# the 66 inside the hole
		assert_output 'agree: 4114 intervals, 1601 points (3 per point)'
		n=$((n + 1))
		ovb-report -f tsv -t usage -I 900 "$D/g.series" >"$T/h.tsv"
		ovb-report -p usage -c g -r $r -I 900 "$D/g.series" -o "$T/g.svg"
		run -0 $O --interval 900 "$D/g.series" g $r "$T/gp.$n" "$T/h.tsv"
		n=$((n + 1))
	done
	# a blank line where the 200 missing samples are
	grep -q "^set xdata time" "$T/gp.0"
	grep -q "^set xlabel 'date (UTC)'" "$T/gp.0"
	[[ $(sed -n '/^\$U << EOD$/,/^EOD$/p' "$T/gp.0" | grep -c '^$') -ge 1 ]] ||
		fail "no break in the line"
	# the example series: 4 samples, one missing
	ovb-report -p usage -c web -r net "$DATA/example.series" -o "$T/e.svg"
	run -0 $O "$DATA/example.series" web net "$T/gp.$n"
	assert_output 'agree: 4 intervals, 4 points (1 per point)'
}

@test "at most 2000 points: the oracle's count, named in the table and the page's caption" {
	run -0 --separate-stderr ovb-report -t usage "$D/g.series"
	assert_line --regexp '^g +cpu +300 s +4114 +2013-07-01T00:00:00Z +1\.5e\+06 s .* 1601 \(max of 3\)$'
	run -0 --separate-stderr ovb-report -f html "$D/g.series" "$D/n.onoff" \
		"$D/n.profile" -o "$T/r.html"
	run -0 grep -c '<figcaption>[^<]*usage in each measurement interval' "$T/r.html"
	assert_output 4
	run -0 grep -o '<figcaption>g cpu: [^<]*' "$T/r.html"
	assert_output --regexp 'dates in UTC.*drawn as 1601 boxes, each over 3 intervals and as high as the largest usage among them'
	run -0 grep -o '<figcaption>nginx cpu: [^<]*' "$T/r.html"
	assert_output --partial 'horizontal: σ (rate) = '
	assert_output --partial 'p99 of U = '
	run -1 grep -iwE 'inf|nan' "$T/r.html"
}

@test "html with usage figures in headless Chromium at 1280 and 700 px: no two labels overlap, no inf/nan" {
	command -v chromium >/dev/null ||
		skip "Chromium is not installed (Debian package chromium)"
	ovb-report -f html "$D/g.series" "$D/n.onoff" "$D/n.profile" \
		"$DATA/example.series" -o "$T/r.html"
	local w
	for w in 1280 700; do
		run -0 /usr/bin/python3 "$BATS_TEST_DIRNAME/report/layout.py" \
			"$T/r.html" "$w" "$T"
		assert_output --regexp "width $w \\(window $w, screenshot ${w}x2000\\): [0-9]+ figures, [0-9]+ texts, [0-9]+ pairs, 0 problems"
	done
}

@test "bad input: 65 with FILE:LINE; a capsule given twice; a wrong interval; usage errors 64" {
	# a malformed onoff record
	variant bad.onoff "$DATA/example.onoff" 's/^busy web 1200000000 1210000000 1$/busy web 1200000000 1100000000 1/'
	run -65 --separate-stderr ovb-report -t usage "$BAD"
	stderr_matches "^ovb-report: $BAD:$(line_of '^busy web 1200000000 1100000000' "$BAD"): "
	# a malformed series record
	variant bad.series "$DATA/example.series" 's/^sample 1372630200 0.5$/sample 1372630200 -0.5/'
	run -65 --separate-stderr ovb-report -t usage "$BAD"
	stderr_matches "^ovb-report: $BAD:$(line_of '^sample 1372630200 -0.5' "$BAD"): "
	# -I not a multiple of the series' 300 s: the series' line
	run -65 --separate-stderr ovb-report -t usage -I 450 "$DATA/example.series"
	stderr_is "ovb-report: $DATA/example.series:$(line_of '^series web cpu' "$DATA/example.series"): series web cpu: -I 450 s is not a multiple of its interval 300 s"
	# web cpu in an onoff and a series: named both
	run -65 --separate-stderr ovb-report -t usage "$DATA/example.onoff" "$DATA/example.series"
	stderr_is "ovb-report: $DATA/example.series:$(line_of '^series web cpu' "$DATA/example.series"): usage over time of web cpu was already read from $DATA/example.onoff"
	# an interval longer than the trace
	run -65 --separate-stderr ovb-report -t usage -I 5 "$DATA/example.onoff"
	stderr_has "ovb-report: $DATA/example.onoff: capsule web cpu: no complete gap-free measurement interval of 5 s"
	run -64 --separate-stderr ovb-report -p usage "$DATA/example.profile" -o "$T/x.svg"
	stderr_has 'needs an ovb-onoff or ovb-series file'
	run -64 --separate-stderr ovb-report -p usage -c web "$DATA/example.onoff" -o "$T/x.svg"
	stderr_has 'choose one with --capsule and --res'
	run -64 --separate-stderr ovb-report -p usage -c nosuch -r cpu "$DATA/example.onoff" -o "$T/x.svg"
	stderr_has 'no capsule nosuch cpu over time'
	[[ ! -e $T/x.svg ]]
}
