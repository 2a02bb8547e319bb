#!/usr/bin/env bats
# ovb-report's plots laid out: no overlapping labels, no inf or nan, the
# axes chosen from the data, the CDF's dots on the curve, Pr(Y > C) = 0
# drawn as zero.
#
# The data: the shipped traces (nginx, postgres, redis) profiled and
# placed as make demo does, on the demo cluster with a node of absurd
# capacity (1.7e308 cpu and B/s) added.  The checks are independent of
# ovb-report's own layout estimates: t/report/layout.py reads the text
# boxes back from headless Chromium (getBoundingClientRect, after the
# page's layout) at two window widths; the gnuplot scripts are captured
# with a stand-in gnuplot and their data blocks checked in Python.

bats_require_minimum_version 1.5.0

setup_file() {
	load test_helper
	local D=$BATS_FILE_TMPDIR f main
	for f in nginx postgres redis; do
		main=$(awk '$1 == "main_pid" { print $2 }' "$FIXTURES/$f.acct")
		gzip -dc "$FIXTURES/$f.perf.data.gz" >"$D/$f.perf.data"
		ovb-onoff -q -c "$f=pid:$main" "$D/$f.perf.data" -o "$D/$f.onoff"
	done
	ovb-usage -q -I 0.01 "$D"/*.onoff -o "$D/f.usage"
	ovb-tbucket -q "$D"/*.onoff -o "$D/f.curve"
	ovb-profile -q -O 0.01 -t 1 "$D/f.usage" "$D/f.curve" -o "$D/f.profile"
	{ cat "$DATA/demo.cluster"; echo 'node big 1.7e308 cpu 1.7e308 B/s'; } \
		>"$D/c.cluster"
	ovb-place -q "$D/c.cluster" "$DATA/demo.apps" "$D/f.profile" \
		-o "$D/p.plan" || true
}

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	D=$BATS_FILE_TMPDIR
	R="$BATS_TEST_DIRNAME/report"
	PLAN=("$D/c.cluster" "$D/p.plan" "$D/f.profile")
	command -v gnuplot >/dev/null ||
		skip "gnuplot is not installed (Debian package gnuplot-nox)"
}


need_chromium() {
	command -v chromium >/dev/null ||
		skip "Chromium is not installed (Debian package chromium)"
}

@test "the report of a huge node: made, and no inf or nan in any table or plot" {
	run -0 --separate-stderr ovb-report -f html "${PLAN[@]}" -o "$T/r.html"
	run -1 grep -iwE 'inf|nan' "$T/r.html"
	run -0 --separate-stderr ovb-report -f tsv -t nodes "${PLAN[@]}"
	refute_output --regexp $'\t(-?inf|-?nan)\t'
	# a tiny capacity: reserved/capacity is a number beyond double's range
	printf 'ovb-cluster 1\nnode t 1e-300 cpu 1e-300 B/s\n' >"$T/t.cluster"
	printf '%s\n' 'ovb-plan 1' 'place a c t -' 'qos a c cpu 1e10 0 1 0' \
		'qos a c net 1e-290 0 1 0' >"$T/t.plan"
	run -0 --separate-stderr ovb-report -t nodes "$T/t.cluster" "$T/t.plan"
	assert_line --regexp '^t +cpu +1 +1e\+10 cpu +1e-300 cpu +1e\+312% '
	assert_line --regexp '^t +net +1 +1e-290 B/s +1e-300 B/s +1e\+12% '
	run -0 --separate-stderr ovb-report -f tsv -t nodes "$T/t.cluster" "$T/t.plan"
	assert_line --regexp $'^t\tcpu\t1\t10000000000\t1e-300\t9.9999999999999997e\\+311\t'
	run -0 --separate-stderr ovb-report -f html "$T/t.cluster" "$T/t.plan" \
		-o "$T/t.html"
	run -1 grep -iwE 'inf|nan' "$T/t.html"
}

@test "html in headless Chromium at 1280 and 700 px: no two labels of a plot overlap, no inf/nan" {
	need_chromium
	ovb-report -f html "${PLAN[@]}" "$DATA/report-small.gain" -o "$T/r.html"
	ovb-report -f html "$DATA/report-small.cluster" \
		"$DATA/report-small.plan" "$DATA/report-small.profile" \
		"$DATA/report-small.gain" -o "$T/s.html"
	local page w
	for page in r s; do
		for w in 1280 700; do
			run -0 /usr/bin/python3 "$R/layout.py" "$T/$page.html" "$w" "$T"
			assert_output --regexp "width $w \\(window $w, screenshot ${w}x2000\\): [0-9]+ figures, [0-9]+ texts, [0-9]+ pairs, 0 problems"
		done
	done
	# the check can fail: two labels put on one another are found
	sed 's|</svg>|<text x="10" y="20">clash one</text><text x="12" y="22">clash two</text></svg>|' \
		"$T/s.html" >"$T/bad.html"
	run -1 /usr/bin/python3 "$R/layout.py" "$T/bad.html" 1280 "$T"
	assert_output --partial "'clash one' overlaps 'clash two'"
	sed 's|<td class="n">0.0625</td>|<td class="n">inf</td>|' "$T/s.html" \
		>"$T/inf.html"
	run -1 /usr/bin/python3 "$R/layout.py" "$T/inf.html" 1280 "$T"
	assert_output --partial "bad text: 'inf'"
}

@test "cdf: each percentile's dot lies on the plotted curve (oracle on the script's data)" {
	capture
	local c r
	for c in nginx postgres redis; do
		for r in cpu net; do
			ovb-report -p cdf -c $c -r $r "$D/f.profile" -o "$T/x.svg"
		done
	done
	ovb-report -p cdf -c x -r cpu "$DATA/report-small.profile" -o "$T/x.svg"
	run -0 /usr/bin/python3 - "$T"/gp.* <<-'EOF'
	import sys
	def block(text, name):
	    s = text.split("$%s << EOD\n" % name)[1].split("EOD\n")[0]
	    return [tuple(map(float, l.split())) for l in s.splitlines()]
	n = 0
	for path in sys.argv[1:]:
	    t = open(path).read()
	    F, P = block(t, "F"), block(t, "P")
	    for x, p in P:
	        n += 1
	        on = False
	        for (x0, y0), (x1, y1) in zip(F, F[1:]):
	            # steps: (x0,y0)-(x1,y0), then (x1,y0)-(x1,y1)
	            if abs(p - y0) < 1e-12 and x0 - 1e-12 <= x <= x1 + 1e-12:
	                on = True
	            if abs(x - x1) < 1e-12 and min(y0, y1) - 1e-12 <= p <= max(y0, y1) + 1e-12:
	                on = True
	        if not on:
	            print("%s: dot (%g, %g) is off the curve" % (path, x, p))
	            sys.exit(1)
	print("%d dots on the curve" % n)
	EOF
	assert_output --regexp '^[0-9]+ dots on the curve$'
	[[ ${output%% *} -ge 30 ]] || fail "only $output"
}

@test "node: a capacity far above Y is off the axis, not an empty axis; Pr(Y > C) = 0 is not drawn as a value" {
	capture
	ovb-report -p node -n n1 -r net "${PLAN[@]}" -o "$T/n1.svg"
	# Y's largest value and the load from the plan, in MB/s
	local load top
	load=$(awk '$1 == "risk" && $2 == "n1" && $3 == "net" { print $6 / 1e6 }' "$D/p.plan")
	top=$(sed -n 's/^set xrange \[[^:]*:\([^]]*\)\]$/\1/p' "$T/gp.0")
	grep -q 'summed over its capsules \[MB/s\]' "$T/gp.0" || fail "not in MB/s"
	awk -v t="$top" -v l="$load" 'BEGIN { exit !(t >= l && t < 2 * l + 1 && t < 125) }' ||
		fail "x axis to $top MB/s for a load of $load MB/s on 125 MB/s"
	run -0 cat "$T/n1.svg"
	assert_output --partial 'capacity C = 125 MB/s: off the axis'
	assert_output --partial 'Pr(Y > C) = 0 (plan), C off axis'
	# a node whose capacity is on the axis, Pr(Y > C) = 0: an open
	# triangle on the floor, labelled, not the filled dot of a value
	rm "$T"/gp.*
	ovb-report -p node -n n4 -r cpu "${PLAN[@]}" -o "$T/n4.svg"
	run -1 grep -c 'pt 7 ' "$T/gp.0"
	assert_output 0
	run -0 grep -c "pt 10 .*'Pr(Y > C) = 0 (plan), under scale'" "$T/gp.0"
	assert_output 1
	# with Pr(Y > C) > 0 the value is a filled dot at its height
	rm "$T"/gp.*
	ovb-report -p node -n a -r cpu "$DATA/report-small.cluster" \
		"$DATA/report-small.plan" "$DATA/report-small.profile" -o "$T/a.svg"
	run -0 grep -c "using (1):(0.0625) every ::0::0 with points pt 7 " "$T/gp.0"
	assert_output 1
}

@test "pdf: percentile tags that would touch are one tag; the tags stay inside the graph, clear of the bars" {
	capture
	ovb-report -p pdf -c nginx -r net "$D/f.profile" -o "$T/p.svg"
	# the expected tags from nginx's net percentiles in the profile:
	# percentiles of one value share a tag (in the shipped trace, several
	# are nginx's peak rate), others far apart have their own
	local want
	want=$(awk '$1 == "profile" { on = $2 == "nginx" && $3 == "net" }
		on && $1 == "pct" { if ($3 != v) { if (t != "") print t; t = "" }
			t = t (t == "" ? "" : ",") "p" $2; v = $3 }
		END { print t }' "$D/f.profile")
	[[ $want == *,* ]] || fail "no two percentiles share a value: $want"
	run -0 grep -c '^set label .* rotate by 90' "$T/gp.0"
	assert_output "$(wc -l <<<"$want")"
	run -0 grep -o "^set label 'p[0-9,p]*'" "$T/gp.0"
	assert_output "$(sed "s/.*/set label '&'/" <<<"$want")"
	# p90 and p95 differ by 0.005 cpu, 2.5 px on a 1.1 cpu axis: one tag;
	# p99 far off: its own
	printf '%s\n' 'ovb-usage 1' 'usage u cpu' 'interval 1 s' 'width 0.01 cpu' \
		'intervals 100' 'pct 90 0.5 cpu' 'pct 95 0.505 cpu' 'pct 99 0.9 cpu' \
		'bin 10 50' 'bin 50 44' 'bin 51 1' 'bin 90 4' 'bin 100 1' >"$T/u.usage"
	rm "$T"/gp.*
	ovb-report -p pdf "$T/u.usage" -o "$T/u.svg"
	run -0 grep -o "^set label 'p[0-9,p]*'" "$T/gp.0"
	assert_output $'set label \'p90,p95\'\nset label \'p99\''
	if command -v chromium >/dev/null; then
		printf '<!DOCTYPE html><html><body><figure id="u">%s</figure></body></html>' \
			"$(cat "$T/u.svg")" >"$T/u.html"
		run -0 /usr/bin/python3 "$R/layout.py" "$T/u.html" 800 "$T"
		assert_output --partial ' 0 problems'
	fi
}

@test "cluster: the key is above each panel, clear of the bars' percentages; decades on a log scale" {
	capture
	ovb-report -p cluster "${PLAN[@]}" -o "$T/c.svg"
	run -0 grep -c '^set key tmargin' "$T/gp.0"
	run -0 grep -c '^set logscale y' "$T/gp.0"
	assert_output 2     # both panels: a 1.7e308 node beside 1-4 cpu ones
	ovb-report -p cluster "$DATA/report-small.cluster" "$DATA/report-small.plan" \
		"$DATA/report-small.profile" -o "$T/s.svg"
	run -0 grep -c '^set logscale y' "$T/gp.1"
	assert_output 1     # net: 459 kB/s on 1 MB/s beside 125 MB/s (272x)
}
