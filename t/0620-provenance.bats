#!/usr/bin/env bats
# Provenance (where and when a profile was measured) from perf.data through
# ovb-onoff, ovb-usage, ovb-tbucket and ovb-profile into ovb-report, and the
# report's per-application view with the rejections' shortfalls.
#
# Oracles: t/oracle/perfheader.py reads the perf.data header's HOSTNAME,
# OSRELEASE and CLOCK_DATA itself; t/oracle/usage.py (through
# t/oracle/formats.py) computes each usage block's trace record, the UTC
# time of the span's start included, from the onoff file; the apps table is
# compared with the plan's records in Python.

# ovb: serial (the live test records the whole machine with perf)
bats_require_minimum_version 1.5.0

setup_file() {
	load test_helper
	local D=$BATS_FILE_TMPDIR f main
	for f in nginx postgres redis; do
		main=$(awk '$1 == "main_pid" { print $2 }' "$FIXTURES/$f.acct")
		gzip -dc "$FIXTURES/$f.perf.data.gz" >"$D/$f.perf.data"
		ovb-onoff -q -c "$f=pid:$main" "$D/$f.perf.data" -o "$D/$f.onoff"
	done
	ovb-usage -q -r all -I 0.01 "$D"/*.onoff -o "$D/f.usage"
	ovb-tbucket -q "$D"/*.onoff -o "$D/f.curve"
	ovb-profile -q -O 0.01 -t 1 "$D/f.usage" "$D/f.curve" -o "$D/f.profile"
	# the demo cluster and a fifth, smaller node: the last application is
	# rejected for a capsule no node takes (the demo's own four nodes
	# reject it at admission, before any node is tried; a fifth node of 4
	# CPUs takes every shop of the shipped profiles)
	{ cat "$DATA/demo.cluster"; echo 'node n5 1.5 cpu 125000000 B/s rack=b'; } \
		>"$D/c.cluster"
	ovb-place -q "$D/c.cluster" "$DATA/demo.apps" "$D/f.profile" \
		-o "$D/p.plan" || true
}

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	D=$BATS_FILE_TMPDIR
}

@test "ovb-onoff: the trace record is the perf.data header's host, kernel and clock data" {
	local f
	for f in nginx postgres redis; do
		run -0 python3 "$BATS_TEST_DIRNAME/oracle/perfheader.py" "$D/$f.perf.data"
		assert_output --regexp '^trace [^ -][^ ]* [^ -][^ ]* [0-9]+ [0-9]+$'
		run -0 grep -c '^trace ' "$D/$f.onoff"
		assert_output 1
		run -0 grep '^trace ' "$D/$f.onoff"
		assert_output "$(python3 "$BATS_TEST_DIRNAME/oracle/perfheader.py" "$D/$f.perf.data")"
	done
	# canonical, and read back the same
	ovb-fmt -c "$D/nginx.onoff" >"$T/c.onoff"
	run -0 grep '^trace ' "$T/c.onoff"
	assert_output "$(grep '^trace ' "$D/nginx.onoff")"
}

@test "ovb-usage: each block's trace record (host, kernel, UTC start of the span, length) agrees with the oracle" {
	local f
	for f in nginx postgres redis; do
		ovb-usage -q -r all -I 0.01 "$D/$f.onoff" >"$T/$f.usage"
		run -0 python3 "$BATS_TEST_DIRNAME/oracle/usage.py" --res all \
			--interval 0.01 "$D/$f.onoff" "$T/$f.usage"
		assert_output --partial 'distributions agree (3 with a trace record)'
	done
	# the oracle can fail: a changed host, or start, is found
	sed 's/^trace \([^ ]*\) /trace x\1 /' "$T/nginx.usage" >"$T/bad.usage"
	run -1 python3 "$BATS_TEST_DIRNAME/oracle/usage.py" --res all \
		--interval 0.01 "$D/nginx.onoff" "$T/bad.usage"
	assert_output --partial 'nginx cpu: trace'
	sed -E 's/^(trace [^ ]+ [^ ]+ [0-9-]+T[0-9:]+)\.[0-9]+Z/\1.000000001Z/' \
		"$T/nginx.usage" >"$T/bad.usage"
	run -1 python3 "$BATS_TEST_DIRNAME/oracle/usage.py" --res all \
		--interval 0.01 "$D/nginx.onoff" "$T/bad.usage"
}

@test "ovb-tbucket and ovb-profile carry the trace record; ovb-fmt keeps it" {
	local cap res
	for cap in nginx postgres redis; do
		for res in cpu net; do
			local want
			want=$(awk -v c="$cap" -v r="$res" '$1 == "usage" { on = $2 == c && $3 == r }
				on && $1 == "trace"' "$D/f.usage")
			[[ -n $want ]] || fail "no trace in usage $cap $res"
			run -0 awk -v c="$cap" -v r="$res" '$1 == "curve" && NF == 3 { on = $2 == c && $3 == r }
				on && $1 == "trace"' "$D/f.curve"
			assert_output "$want"
			run -0 awk -v c="$cap" -v r="$res" '$1 == "profile" { on = $2 == c && $3 == r }
				on && $1 == "trace"' "$D/f.profile"
			assert_output "$want"
		done
	done
	local k
	for k in usage curve profile; do
		ovb-fmt -c "$D/f.$k" >"$T/c.$k"
		cmp "$D/f.$k" "$T/c.$k"
	done
	# a profile from a usage file without trace records takes the curve's
	grep -v '^trace ' "$D/f.usage" >"$T/nt.usage"
	ovb-profile -q -O 0.01 -t 1 "$T/nt.usage" "$D/f.curve" -o "$T/nt.profile"
	# (but for the net-rx blocks, unmeasured: the fixtures were recorded
	# without --recv; they have no curve, so their trace is the usage's)
	cmp <(awk '$1 == "profile" { u = 0 } $1 == "unmeasured" { u = 1 }
		!(u && $1 == "trace")' "$D/f.profile") "$T/nt.profile"
	run -0 grep -c '^unmeasured' "$D/f.profile"
	assert_output 3
	# and without any: no trace record, as before
	grep -v '^trace ' "$D/f.curve" >"$T/nt.curve"
	ovb-profile -q -O 0.01 -t 1 "$T/nt.usage" "$T/nt.curve" -o "$T/none.profile"
	run -1 grep -c '^trace' "$T/none.profile"
	diff <(grep -v '^trace ' "$D/f.profile") "$T/none.profile"
}

@test "trace records: bad fields are FILE:LINE, 65; old files without them still read" {
	local bad
	printf 'ovb-onoff 1\ncpus 1\ntrace h k 5 -\nspan 0 10\n' >"$T/a.onoff"
	run -65 --separate-stderr ovb-fmt "$T/a.onoff"
	assert_equal "$stderr" "ovb-fmt: $T/a.onoff:3: trace: WALL and CLOCK are both numbers or both '-'"
	printf 'ovb-onoff 1\ncpus 1\ntrace h k - -\ntrace h k - -\nspan 0 10\n' >"$T/b.onoff"
	run -65 --separate-stderr ovb-fmt "$T/b.onoff"
	assert_equal "$stderr" "ovb-fmt: $T/b.onoff:4: trace is given twice"
	printf 'ovb-onoff 1\ncpus 1\ntrace - - - -\nspan 0 10\n' >"$T/c.onoff"
	run -0 ovb-fmt "$T/c.onoff"
	for bad in 'h k 2026-13-01T00:00:00Z 1 s' 'h k 2026-01-01T00:00:00 1 s' \
		'h k - -1 s' 'h k - 1 ms' 'h k - 1' '!h k - 1 s'; do
		sed "/^intervals /a trace $bad" "$DATA/example.usage" >"$T/x.usage"
		run -65 --separate-stderr ovb-fmt "$T/x.usage"
		[[ $stderr == "ovb-fmt: $T/x.usage:$(line_of '^trace' "$T/x.usage"): "* ]] ||
			fail "trace $bad: $stderr"
	done
	sed '/^intervals /a trace h 6.1.0-1+deb12 2026-01-01T00:00:00.5Z 1.5 s' \
		"$DATA/example.usage" >"$T/ok.usage"
	run -0 ovb-fmt "$T/ok.usage"
	for f in onoff usage profile curve; do
		run -0 ovb-fmt "$DATA/example.$f"
		run -1 grep -c '^trace' "$DATA/example.$f"
	done
}

@test "report: the traces table is the profiles' trace records; the page names host, kernel and dates" {
	run -0 --separate-stderr ovb-report -f tsv -t traces "$D/f.profile"
	assert_line --index 0 $'capsule\tres\thost\tkernel\tstart\tlength_s\tfile'
	local n=0 cap res host kernel start len rest
	while IFS=$'\t' read -r cap res host kernel start len rest; do
		[[ $cap == capsule ]] && continue
		run -0 awk -v c="$cap" -v r="$res" '$1 == "profile" { on = $2 == c && $3 == r }
			on && $1 == "trace" { print $2, $3, $4, $5 }' "$D/f.profile"
		assert_output "$host $kernel $start $len"
		n=$((n + 1))
	done < <(ovb-report -f tsv -t traces "$D/f.profile")
	# 3 capsules x cpu, net and net-rx (unmeasured, said with its trace)
	[[ $n == 9 ]] || fail "$n rows"
	# text, and the oracle's text check of its numbers
	ovb-report -f tsv "$D/f.profile" >"$T/p.tsv"
	ovb-report "$D/f.profile" >"$T/p.txt"
	run -0 python3 "$BATS_TEST_DIRNAME/report/oracle.py" text "$T/p.tsv" "$T/p.txt"
	# the expected text from the profile's trace records: the start to
	# the second, the length to the ms
	local want h k s0 s1 l0 l1
	want=$(awk '$1 == "profile" { on = $2 == "nginx" && $3 == "cpu" }
		on && $1 == "trace" { sub(/\..*/, "", $4); printf "%s %s %s %.3f s", $2, $3, $4, $5; exit }' "$D/f.profile")
	run -0 ovb-report -t traces "$D/f.profile"
	assert_line --regexp "^nginx +cpu +$(sed 's/\./\\./g; s/ /  */g' <<<"$want")\$"
	read -r h k s0 s1 l0 l1 < <(awk '$1 == "trace" { sub(/\..*/, "", $4)
			if (n++ == 0 || $4 < s0) s0 = $4; if ($4 > s1) s1 = $4
			if (n == 1 || $5 < l0) l0 = $5; if ($5 > l1) l1 = $5; h = $2; k = $3 }
		END { printf "%s %s %s %s %.3f %.3f\n", h, k, s0, s1, l0, l1 }' "$D/f.profile")
	# the page: the summary line and the section
	run -0 ovb-report -f html --no-plots "$D/f.profile"
	assert_output --partial '<section id="traces">'
	assert_output --partial "<li>Measured "
	# the net-rx blocks the traces did not measure are not counted as measured
	assert_output --partial "<li>6 capsule resources profiled (6 with a QoS profile); 3 not measured by their traces.</li>"
	assert_output --partial ": 6 of them on host $h, kernel $k, traces starting $s0 to $s1 UTC, $l0 s to $l1 s long.</li>"
	# inputs without trace records: no traces table, as before
	run -64 --separate-stderr ovb-report -t traces "$DATA/example.profile"
	assert_output ''
	[[ $stderr == *'--table traces: needs a profile, usage or curve file with trace records'* ]] ||
		fail "$stderr"
}

@test "report: per application, its capsules' nodes, sigma and node Pr(Y > C); rejected ones with what the nearest node lacks" {
	ovb-report -f tsv -t apps "$D/c.cluster" "$D/p.plan" "$D/f.profile" >"$T/a.tsv"
	ovb-report -f tsv -t nodes "$D/c.cluster" "$D/p.plan" "$D/f.profile" >"$T/n.tsv"
	run -0 python3 - "$T/a.tsv" "$D/p.plan" <<-'EOF'
	import sys
	rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
	head, rows = rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
	place, qos, risk, rej = [], {}, {}, []
	for l in open(sys.argv[2]):
	    t = l.split()
	    if not t or t[0].startswith("#"):
	        continue
	    if t[0] == "place":
	        place.append((t[1], t[2], t[3]))
	    elif t[0] == "qos":
	        qos[(t[1], t[2], t[3])] = (float(t[4]), float(t[7]))
	    elif t[0] == "risk":
	        risk[(t[1], t[2])] = float(t[3])
	    elif t[0] == "reject":
	        rej.append((t[1], " ".join(t[2:])))
	# placed rows: the plan's place records, grouped by application in
	# order of first appearance, then the rejections in file order
	order = []
	for a, c, n in place:
	    if a not in order:
	        order.append(a)
	want = [(a, c, n) for a in order for (b, c, n) in place if b == a]
	got = [(r["app"], r["capsule"], r["node"]) for r in rows if r["status"] != "rejected"]
	assert got == want, (got[:3], want[:3])
	bad = 0
	for r in rows:
	    if r["status"] == "rejected":
	        continue
	    for res in ("cpu", "net"):
	        s, O = qos[(r["app"], r["capsule"], res)]
	        assert float(r["sigma_" + res]) == s, (r, s)
	        assert float(r["pr_" + res]) == risk[(r["node"], res)], r
	    assert float(r["O"]) == O
	rj = [r for r in rows if r["status"] == "rejected"]
	assert [(r["app"], r["reason"]) for r in rj] == rej
	nearest = 0
	for r in rj:
	    why = r["reason"]
	    if "; nearest " not in why:     # another reason: shown whole
	        assert (r["capsule"], r["node"], r["lacks"]) == ("-", "-", why), r
	        continue
	    nearest += 1
	    assert why.startswith("capsule %s: " % r["capsule"]), r
	    assert "; nearest %s, " % r["node"] in why, r
	    assert why.endswith(r["lacks"]) and " more " in r["lacks"], r
	print("apps: %d placed rows, %d rejected (%d with the nearest node) agree"
	      % (len(rows) - len(rj), len(rj), nearest))
	EOF
	assert_output --regexp '^apps: [1-9][0-9]* placed rows, [1-9][0-9]* rejected \([1-9][0-9]* with the nearest node\) agree$'
	run -0 ovb-report -t apps "$D/c.cluster" "$D/p.plan" "$D/f.profile"
	assert_line --regexp '^shop[0-9]+ +cache +rejected +n[0-9] +- +- +- +- +- +cpu Eq\. 1 needs [0-9.]+ cpu more \(load [0-9.]+ > [0-9]+ cpu\)$'
	# the text table's numbers are the TSV's (4 significant digits)
	ovb-report -f tsv "$D/c.cluster" "$D/p.plan" "$D/f.profile" >"$T/all.tsv"
	ovb-report "$D/c.cluster" "$D/p.plan" "$D/f.profile" >"$T/all.txt"
	run -0 python3 "$BATS_TEST_DIRNAME/report/oracle.py" text "$T/all.tsv" "$T/all.txt"
	# in the page, rejected rows are marked
	run -0 ovb-report -f html --no-plots -t apps "$D/c.cluster" "$D/p.plan" "$D/f.profile"
	assert_output --partial '<section id="apps">'
	assert_output --regexp '<tr class="bad"><td>shop[0-9]+</td><td>cache</td><td><span class="bad">rejected</span>'
}

@test "live: a recording here, file and pipe mode, names this host and kernel and starts now" {
	require_tracing
	local mode before after
	for mode in file pipe; do
		before=$(date +%s)
		if [[ $mode == file ]]; then
			perf record -q -a -k CLOCK_MONOTONIC -e sched:sched_switch -e sched:sched_stat_runtime \
				-o "$T/t.data" -- sleep 0.3 2>/dev/null
			ovb-onoff -q --allow-empty -c 'x=comm:^sleep$' "$T/t.data" \
				-o "$T/t.onoff"
		else
			perf record -q -a -k CLOCK_MONOTONIC -e sched:sched_switch -e sched:sched_stat_runtime \
				-o - -- sleep 0.3 2>/dev/null >"$T/t.data"
			ovb-onoff -q --allow-empty -c 'x=comm:^sleep$' - <"$T/t.data" \
				>"$T/t.onoff"
		fi
		after=$(date +%s)
		run -0 grep '^trace ' "$T/t.onoff"
		local host
		host=$(hostname | sed 's/[^A-Za-z0-9_.:+@/-]/_/g; s/^[^A-Za-z0-9_]/_/')
		assert_output --regexp "^trace $host $(uname -r | sed 's/[.+]/\\&/g') [0-9]+ [0-9]+\$"
		ovb-usage -q -I 0.01 "$T/t.onoff" -o "$T/t.usage"
		run -0 awk '$1 == "trace" { print $4; exit }' "$T/t.usage"
		local start
		start=$(date -u -d "$output" +%s) || fail "start $output"
		((start >= before - 2 && start <= after + 1)) ||
			fail "$mode: trace starts $output, recorded between $(date -u -d @"$before") and $(date -u -d @"$after")"
	done
}
