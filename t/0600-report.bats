#!/usr/bin/env bats
# ovb-report: tables, plots and one HTML page.
#
# Numbers are checked against the files and tools that made them:
# t/report/oracle.py compares the TSV tables with the usage and profile
# files (exactly), with the plan's risk records (exactly) and with its own
# computation of each node's Pr(Y > C) (integer counts, exact), and the
# text tables with the TSV ones (4 significant digits).  Plots are checked
# for their labels and units, pages for self-containment and determinism,
# and, with Chromium, for rendering (t/report/chromium.sh takes a
# screenshot, t/report/png.py counts the coloured pixels of the plots).
#
# t/data/report-small.*: a cluster, profiles and plan made by hand, where
# node a has Pr(Y > C) = 1/16 exactly and violates Eq. 1; report-small.gain
# a gain table with known means (in the older header-only form);
# report-fig7.gain real runs of ovb-place (ovb-gain 1, formats/gain.md).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	R="$BATS_TEST_DIRNAME/report"
	SMALL=("$DATA/report-small.cluster" "$DATA/report-small.plan"
		"$DATA/report-small.profile")
}

oracle() {
	python3 "$R/oracle.py" "$@"
}

stderr_has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
}


# ---------------------------------------------------------------------------
# Command line.

@test "--help names the inputs, the gain table, gnuplot-nox and the exits" {
	run -0 ovb-report --help
	assert_output --partial 'nodes O placed'
	assert_output --partial 'gnuplot-nox'
	assert_output --partial 'OVB_GNUPLOT'
	assert_output --partial 'EXAMPLES'
	assert_output --partial '69 gnuplot missing or failed'
}

@test "usage errors exit 64" {
	run -64 --separate-stderr ovb-report -f pdf "$DATA/example.profile"
	stderr_has "unknown format 'pdf'"
	run -64 --separate-stderr ovb-report -t nodes,bogus "$DATA/example.profile"
	stderr_has "unknown table 'bogus'"
	run -64 --separate-stderr ovb-report -p pie "$DATA/example.profile"
	stderr_has "unknown kind 'pie'"
	run -64 --separate-stderr ovb-report -p pdf -f html "$DATA/example.profile"
	stderr_has '--plot draws one plot'
	run -64 --separate-stderr ovb-report -c web "$DATA/example.profile"
	stderr_has 'choose what --plot draws'
	run -64 --separate-stderr ovb-report -p pdf -o "$T/x.jpg" "$DATA/example.profile"
	stderr_has 'FILE.svg or FILE.png'
	run -64 --separate-stderr ovb-report --no-plots "$DATA/example.profile"
	stderr_has 'for --format html'
	run -64 --separate-stderr ovb-report -p node -c web "$DATA/example.profile"
	stderr_has '--capsule is for'
	run -64 --separate-stderr ovb-report -r disk "$DATA/example.profile"
	stderr_has "unknown resource 'disk'"
	# what the inputs cannot give
	run -64 --separate-stderr ovb-report -t nodes "$DATA/example.profile"
	stderr_has '--table nodes: needs an ovb-cluster file'
	run -64 --separate-stderr ovb-report -p pdf -c nosuch "$DATA/example.profile"
	stderr_has 'no capsule nosuch in the inputs; there are: web cpu, web net, db cpu'
	run -64 --separate-stderr ovb-report -p pdf "$DATA/example.profile"
	stderr_has 'choose one with --capsule and --res'
	run -64 --separate-stderr ovb-report "$DATA/example.plan" "$DATA/example.profile"
	stderr_has 'a plan needs its cluster'
	run -64 --separate-stderr ovb-report "${SMALL[@]}" "$DATA/example.plan"
	stderr_has 'a second ovb-plan file'
}

# ---------------------------------------------------------------------------
# Tables agree with their inputs.

@test "capsules: the numbers of ovb-usage's output, exactly (random traces)" {
	python3 "$BATS_TEST_DIRNAME/gen/onoff.py" --seed 61 --capsules 3 \
		--cpus 4 --span 20000000000 --grid 100000000 >"$T/r.onoff"
	ovb-usage -q -r all -I 0.1 -p 97.5,12.5 "$T/r.onoff" >"$T/r.usage"
	run -0 --separate-stderr ovb-report -f tsv -t capsules "$T/r.usage"
	printf '%s\n' "$output" >"$T/c.tsv"
	run -0 oracle capsules "$T/c.tsv" "$T/r.usage"
	assert_output --partial 'checks agree'
	# and the text table shows them to 4 significant digits
	ovb-report -t capsules "$T/r.usage" >"$T/c.txt"
	run -0 oracle text "$T/c.tsv" "$T/c.txt"
}

@test "capsules: the shipped traces' usage, curves and profiles (as make demo)" {
	local f main
	for f in nginx postgres redis; do
		main=$(awk '$1 == "main_pid" { print $2 }' "$FIXTURES/$f.acct")
		ovb-onoff -q -c "$f=pid:$main" "$(unpack_fixture "$f")" \
			-o "$T/$f.onoff"
	done
	ovb-usage -q -I 0.01 "$T"/*.onoff -o "$T/f.usage"
	ovb-tbucket -q "$T"/*.onoff -o "$T/f.curve"
	ovb-profile -q -O 0.01 -t 1 "$T/f.usage" "$T/f.curve" -o "$T/f.profile"
	ovb-report -f tsv "$T/f.usage" >"$T/u.tsv"
	run -0 oracle capsules "$T/u.tsv" "$T/f.usage"
	ovb-report -f tsv "$T/f.profile" >"$T/p.tsv"
	run -0 oracle capsules "$T/p.tsv" "$T/f.profile"
	ovb-report "$T/f.profile" >"$T/p.txt"
	run -0 oracle text "$T/p.tsv" "$T/p.txt"
	# usage + profile: the profile's blocks are used, as documented
	run -0 --separate-stderr ovb-report -f tsv "$T/f.usage" "$T/f.profile"
	assert_output "$(cat "$T/p.tsv")"
	# curves: rho(sigma) of usage-only capsules comes from the curve file
	run -0 ovb-report -p curve -c redis -r cpu "$T/f.usage" "$T/f.curve"
	assert_output --partial 'token-bucket curve'
	refute_output --partial 'chosen'
}

@test "example plan: nodes agree with its risk records and the oracle" {
	ovb-report -f tsv "$DATA/example.cluster" "$DATA/example.plan" \
		"$DATA/example.profile" >"$T/e.tsv"
	run -0 oracle nodes "$T/e.tsv" "$DATA/example.cluster" \
		"$DATA/example.plan" "$DATA/example.profile"
	ovb-report "$DATA/example.cluster" "$DATA/example.plan" \
		"$DATA/example.profile" >"$T/e.txt"
	run -0 oracle text "$T/e.tsv" "$T/e.txt"
	run -0 grep -c . "$T/e.txt"
}

@test "hand-made plan: Pr(Y > C) = 1/16 on node a, Eq. 1 violated there" {
	run -0 --separate-stderr ovb-report -f tsv -t nodes "${SMALL[@]}"
	assert_equal "$stderr" ''
	assert_line --index 0 --partial $'node\tres\tcapsules\treserved\tcapacity'
	assert_line $'a\tcpu\t2\t1.44\t1\t144\t-0.43999999999999995\t0.0625\t0.0625\t0.1\tEq.1 violated\tcpu\t1.4400000000000002\t0.1\t0.25\tshop/x,blog/y'
	assert_line --regexp $'^b\tnet\t0\t0\t125000000\t0\t125000000\t-\t0\t-\tok\t'
	printf '%s\n' "$output" >"$T/n.tsv"
	run -0 oracle nodes "$T/n.tsv" "${SMALL[@]}"
	run -0 ovb-report -t nodes "${SMALL[@]}"
	assert_line --regexp '^a +cpu +2 +1.44 cpu +1 cpu +144.0% +-0.44 cpu +0.0625 +0.0625 +0.1 +Eq.1 violated +shop/x,blog/y$'
	# other tables: placements, rejects with the reason
	run -0 ovb-report -f tsv -t placements,rejects "${SMALL[@]}"
	assert_line '# placements'
	assert_line $'shop\tx\ta\tx\tnet\t500000\t10000\t1\t0.1\tB/s\tB\t-\t-\t-\t500000\t10000'
	assert_line '# rejects'
	assert_line $'huge\tcapsule big: no node has 16 cpu free'
}

@test "lower bounds: with the apps file, Eq. 1's load has lb (oracle, exact)" {
	# shop x: (0.75 + 0.05)(1 - 0.1) = 0.72 cpu, raised to lb-cpu=1
	cat >"$T/s.apps" <<-EOF
	ovb-apps 1
	app shop O=0.1
	capsule x profile=x lb-cpu=1 lb-net=600000
	app blog O=0.1
	capsule y profile=y
	app batch
	capsule w cpu=1 net=0 tau=2 lb-cpu=0.5
	EOF
	ovb-report -f tsv -t nodes "${SMALL[@]}" >"$T/no.tsv"
	ovb-report -f tsv -t nodes "${SMALL[@]}" "$T/s.apps" >"$T/lb.tsv"
	run -0 oracle nodes "$T/lb.tsv" "${SMALL[@]}" --apps "$T/s.apps"
	run -0 oracle nodes "$T/no.tsv" "${SMALL[@]}"
	run -1 oracle nodes "$T/no.tsv" "${SMALL[@]}" --apps "$T/s.apps"
	assert_output --partial 'a cpu Eq. 1 load computed'
	assert_output --partial 'a net Eq. 1 load computed'
	# shown as "reserved" when the plan states no load of its own
	variant norisk.plan "$DATA/report-small.plan" -e '/^risk a /d'
	run -0 ovb-report -t nodes "$DATA/report-small.cluster" "$BAD" \
		"$DATA/report-small.profile" "$T/s.apps"
	assert_line --regexp '^a +cpu +2 +1.72 cpu +1 cpu +172.0% '
	assert_line --regexp '^a +net +1 +600 kB/s +1 MB/s +60.0% '
	# an apps file without the plan, a placed capsule it lacks
	run -64 --separate-stderr ovb-report "$DATA/report-small.cluster" "$T/s.apps"
	stderr_has 'an apps file gives a plan'"'"'s lower bounds'
	variant s2.apps "$T/s.apps" -e 's/^capsule y /capsule z /'
	run -65 --separate-stderr ovb-report "${SMALL[@]}" "$BAD"
	assert_equal "$stderr" "ovb-report: $DATA/report-small.plan:$(line_of '^place blog' "$DATA/report-small.plan"): place blog y: the apps file ($BAD) has no capsule y of a live application blog"
}

@test "a node without a risk record is checked exactly (0.1 + 0.9 cpu on 1 cpu)" {
	# the doubles 0.1 and 0.9 add up to 1.0 in floating point, but their
	# exact sum is above 1 (checked here in Python's exact fractions)
	run -0 /usr/bin/python3 -c 'from fractions import Fraction as F
print(F(0.1) + F(0.9) > 1, 0.1 + 0.9 == 1.0)'
	assert_output 'True True'
	printf 'ovb-cluster 1\nnode n 1 cpu 1000 B/s\n' >"$T/b.cluster"
	printf '%s\n' 'ovb-plan 1' 'place a c n -' 'qos a c cpu 0.1 0 1 0' \
		'place b c n -' 'qos b c cpu 0.9 0 1 0' >"$T/b.plan"
	run -0 --separate-stderr ovb-report -f tsv -t nodes "$T/b.cluster" "$T/b.plan"
	assert_line --regexp $'^n\tcpu\t2\t1\t1\t100\t0\t-\t1\t0\tEq.1\\+Eq.3 violated\t'
	printf '%s\n' 'ovb-apps 1' 'app a' 'capsule c cpu=0.1 net=0' 'app b' \
		'capsule c cpu=0.9 net=0' >"$T/b.apps"
	run -1 --separate-stderr ovb-check "$T/b.cluster" "$T/b.apps" "$T/b.plan"
	assert_output --partial 'violation n cpu eq1'
}

@test "Eq. 1 at the exact boundary: the report and ovb-check agree, whatever load the risk record states" {
	printf 'ovb-cluster 1\nnode n 1 cpu 1000 B/s\n' >"$T/b.cluster"
	printf '%s\n' 'ovb-apps 1' 'app a' 'capsule c cpu=0.1 net=0' 'app b' \
		'capsule c cpu=0.9 net=0' >"$T/b.apps"
	local load
	# 0.1 + 0.9 is 1 in doubles, above 1 exactly; a record stating the
	# rounded load 1, or one a hair above (within the old 1e-9 margin)
	for load in 1 1.0000000005; do
		printf '%s\n' 'ovb-plan 1' 'place a c n -' 'qos a c cpu 0.1 0 1 0' \
			'place b c n -' 'qos b c cpu 0.9 0 1 0' \
			"risk n cpu 0 0 $load 1" >"$T/b.plan"
		run -1 --separate-stderr ovb-check "$T/b.cluster" "$T/b.apps" "$T/b.plan"
		assert_output --partial 'violation n cpu eq1'
		run -0 --separate-stderr ovb-report -f tsv -t nodes "$T/b.cluster" "$T/b.plan"
		assert_line --regexp $'^n\tcpu\t2\t.*\tEq.1 violated\t'
	done
	# and exactly at capacity: 0.5 + 0.5 = 1 holds for both
	printf '%s\n' 'ovb-plan 1' 'place a c n -' 'qos a c cpu 0.5 0 1 0' \
		'cpu-resv a c 0.5 1 0.5' 'place b c n -' 'qos b c cpu 0.5 0 1 0' \
		'cpu-resv b c 0.5 1 0.5' 'risk n cpu 0 0 1 1' >"$T/h.plan"
	printf '%s\n' 'ovb-apps 1' 'app a' 'capsule c cpu=0.5 net=0' 'app b' \
		'capsule c cpu=0.5 net=0' >"$T/h.apps"
	run -0 --separate-stderr ovb-check "$T/b.cluster" "$T/h.apps" "$T/h.plan"
	run -0 --separate-stderr ovb-report -f tsv -t nodes "$T/b.cluster" "$T/h.plan"
	assert_line --regexp $'^n\tcpu\t2\t1\t1\t.*\tok\t'
}

@test "a plan whose risk record differs from the profiles is warned about" {
	variant bad.plan "$DATA/report-small.plan" -e 's/^risk a cpu 0.0625 /risk a cpu 0.0624 /'
	run -0 --separate-stderr ovb-report -f tsv -t nodes \
		"$DATA/report-small.cluster" "$BAD" "$DATA/report-small.profile"
	assert_equal "$stderr" "ovb-report: $BAD:$(line_of '^risk a cpu' "$BAD"): risk a cpu: Pr(Y > C) is 0.0624 in the plan but 0.0625 from the profiles given"
	assert_line --partial $'a\tcpu\t2\t1.44\t1\t144\t-0.43999999999999995\t0.0624\t0.0625\t'
}

@test "random plans (grids, plain reservations): Pr(Y > C) agrees with the oracle" {
	run -0 oracle random 1 30 "$T"
	assert_output --regexp 'random: 30 plans agree \(([1-9][0-9]+) node'
}

@test "gain table: means, 95% intervals (Student's t), gain over O = 0" {
	run -0 --separate-stderr ovb-report -f tsv "$DATA/report-small.gain"
	assert_output "$(printf 'nodes\tO\truns\tplaced_mean\tci95\tgain
4\t0\t2\t11\t12.706\t1
4\t0.05\t3\t22\t4.96867641664592\t2
8\t0\t1\t30\t-\t1')"
	ovb-report "$DATA/report-fig7.gain" >"$T/g.txt"
	ovb-report -f tsv "$DATA/report-fig7.gain" >"$T/g.tsv"
	run -0 oracle text "$T/g.tsv" "$T/g.txt"
	run -0 grep -E '^ +16 +0.1 +5 +243.4 ' "$T/g.txt"
}

@test "gain format: example.gain canonical; the older form reads the same" {
	run -0 --separate-stderr ovb-fmt -c "$DATA/example.gain"
	ovb-fmt -c "$DATA/example.gain" >"$T/c.gain"
	cmp "$DATA/example.gain" "$T/c.gain"
	# the same runs in the older header-only form, made with awk
	awk 'BEGIN { print "nodes\tO\tplaced" }
		$1 == "run" { print $2 "\t" $3 "\t" $4 }' "$DATA/example.gain" \
		>"$T/old.tsv"
	run -0 --separate-stderr ovb-report -f tsv "$DATA/example.gain"
	assert_output "$(ovb-report -f tsv "$T/old.tsv")"
	assert_line $'4\t0.05\t2\t21\t12.706\t1.9090909090909092'
	assert_line $'8\t0.05\t1\t52\t-\t1.7333333333333334'
	# ovb-fmt writes the older form as ovb-gain, which reads the same
	ovb-fmt -c "$T/old.tsv" >"$T/new.gain"
	cmp "$DATA/example.gain" "$T/new.gain"
	ovb-fmt -c "$DATA/report-small.gain" >"$T/small.gain"
	run -0 ovb-report -f tsv "$T/small.gain"
	assert_output "$(ovb-report -f tsv "$DATA/report-small.gain")"
	run -1 ovb-fmt -l "$DATA/report-small.gain"
	# several gain tables: their runs are pooled
	run -0 ovb-report -f tsv "$T/old.tsv" "$DATA/report-small.gain"
	assert_line $'4\t0\t4\t11\t1.837128556561389\t1'   # 3.182 sqrt(4/3) / 2
}

# gain_error TOOL CONTENT LINE MESSAGE: TOOL on a file of CONTENT (printf
# format) exits 65 with "TOOL: FILE:LINE: MESSAGE".
gain_error() {
	printf "$2" >"$T/x.gain"
	run -65 --separate-stderr "$1" "$T/x.gain"
	assert_output ''
	assert_equal "$stderr" "$1: $T/x.gain:$3: $4"
}

@test "gain format: bad records are FILE:LINE, 65" {
	gain_error ovb-report 'ovb-gain 1\nrun 4 0.5\n' 2 \
		"run: expected 'run NODES O PLACED'"
	gain_error ovb-fmt 'ovb-gain 1\n# runs\nnodes O placed\n' 3 \
		"unknown record 'nodes' in an ovb-gain file (expected run)"
	gain_error ovb-report 'ovb-gain 1\n' 1 'no runs'
	gain_error ovb-report 'ovb-gain 1\nrun 0 0 3\n' 2 \
		'nodes: a cluster has at least 1 node'
	gain_error ovb-report 'ovb-gain 1\nrun 2 0.1 4.5\n' 2 \
		"placed: '4.5' is not an unsigned integer"
	gain_error ovb-fmt 'ovb-gain 2\nrun 2 0.1 4\n' 1 \
		'ovb-gain version 2 is not supported (this build reads version 1)'
	gain_error ovb-report 'nodes O placed\n# none\n' 2 \
		"no runs after the header 'nodes O placed'"
	: >"$T/g.gain"
	run -65 --separate-stderr ovb-fmt -t gain "$T/g.gain"
	assert_equal "$stderr" "ovb-fmt: $T/g.gain: empty input: expected 'ovb-gain 1'"
}

# ---------------------------------------------------------------------------
# Bad input: FILE:LINE, status 65, nothing written.

@test "a plan naming a missing profile: FILE:LINE, 65, -o not created" {
	variant p.plan "$DATA/report-small.plan" -e 's/^place blog y a y$/place blog y a nosuch/'
	run -65 --separate-stderr ovb-report -f html -o "$T/out.html" \
		"$DATA/report-small.cluster" "$BAD" "$DATA/report-small.profile"
	assert_output ''
	assert_equal "$stderr" "ovb-report: $BAD:$(line_of '^place blog' "$BAD"): place blog y: profile 'nosuch' is in no profile file"
	[[ ! -e $T/out.html ]] || fail "out.html was written"
	# an existing output keeps its contents
	echo old >"$T/out.html"
	run -65 --separate-stderr ovb-report -f html -o "$T/out.html" \
		"$DATA/report-small.cluster" "$BAD" "$DATA/report-small.profile"
	assert_equal "$(cat "$T/out.html")" old
	run -0 ls -A "$T"
	refute_output --partial '.out.html.'
	# no profile file at all
	run -65 --separate-stderr ovb-report "$DATA/report-small.cluster" \
		"$DATA/report-small.plan"
	stderr_has "report-small.plan:$(line_of '^place shop x' "$DATA/report-small.plan"): place shop x: profile 'x' is in no profile file (no ovb-profile file was given)"
}

@test "plan errors: a profile without the block, an unknown node, a capacity" {
	variant q.plan "$DATA/report-small.plan" -e 's/^qos blog y cpu (.*)$/&\nqos blog y net 1000 0 1 0/'
	run -65 --separate-stderr ovb-report "$DATA/report-small.cluster" "$BAD" \
		"$DATA/report-small.profile"
	assert_equal "$stderr" "ovb-report: $BAD:$(line_of '^place blog' "$BAD"): place blog y: profile 'y' has no net block, but the plan has its qos net"
	variant n.plan "$DATA/report-small.plan" -e 's/^place batch w b -$/place batch w c -/'
	run -65 --separate-stderr ovb-report "$DATA/report-small.cluster" "$BAD" \
		"$DATA/report-small.profile"
	assert_equal "$stderr" "ovb-report: $BAD:$(line_of '^place batch' "$BAD"): place batch w: node c is not in the cluster ($DATA/report-small.cluster)"
	variant c.plan "$DATA/report-small.plan" -e 's/^risk b cpu 0 0 1 2$/risk b cpu 0 0 1 4/'
	run -65 --separate-stderr ovb-report "$DATA/report-small.cluster" "$BAD" \
		"$DATA/report-small.profile"
	assert_equal "$stderr" "ovb-report: $BAD:$(line_of '^risk b cpu' "$BAD"): risk b cpu: capacity 4 is not the cluster's 2 cpu ($DATA/report-small.cluster)"
}

@test "empty distributions and other bad files: FILE:LINE, 65, no output" {
	printf 'ovb-usage 1\n' >"$T/e.usage"
	run -65 --separate-stderr ovb-report -o "$T/o.txt" "$T/e.usage"
	assert_equal "$stderr" "ovb-report: $T/e.usage:1: no distributions"
	printf 'ovb-usage 1\nusage a cpu\ninterval 1 s\nwidth 1 cpu\nintervals 0\n' >"$T/z.usage"
	run -65 --separate-stderr ovb-report -o "$T/o.txt" "$T/z.usage"
	assert_equal "$stderr" "ovb-report: $T/z.usage:5: intervals: must be at least 1"
	: >"$T/empty"
	run -65 --separate-stderr ovb-report -o "$T/o.txt" "$T/empty"
	assert_equal "$stderr" "ovb-report: $T/empty: empty input: no magic record"
	printf 'nodes O placed\n4 0.5\n' >"$T/g.gain"
	run -65 --separate-stderr ovb-report -o "$T/o.txt" "$T/g.gain"
	assert_equal "$stderr" "ovb-report: $T/g.gain:2: 4: expected 'NODES O PLACED'"
	printf 'nodes O placed\n4 1 7\n' >"$T/g.gain"
	run -65 --separate-stderr ovb-report "$T/g.gain"
	assert_equal "$stderr" "ovb-report: $T/g.gain:2: O: the tolerance 1 is not below 1"
	run -65 --separate-stderr ovb-report "$DATA/example.reserves"
	stderr_has 'example.reserves:'
	stderr_has 'this is an ovb-reserves file'
	[[ ! -e $T/o.txt ]] || fail "o.txt was written"
	# every bad file is reported, the status is the largest
	run -66 --separate-stderr ovb-report "$T/e.usage" "$T/nosuch"
	assert_equal "$stderr" "ovb-report: $T/e.usage:1: no distributions
ovb-report: $T/nosuch: cannot open: No such file or directory"
}

# ---------------------------------------------------------------------------
# gnuplot: missing, failing; plots.

@test "without gnuplot: text and TSV work, plots exit 69 naming gnuplot-nox" {
	local W=$T/w
	mkdir -p "$W/bin"
	ln -s "$(command -v ovb-report)" "$W/bin/ovb-report"
	run -0 --separate-stderr env PATH="$W/bin" ovb-report "${SMALL[@]}"
	assert_line --partial 'Nodes: reserved vs capacity'
	run -0 --separate-stderr env PATH="$W/bin" ovb-report -f tsv "${SMALL[@]}"
	run -0 --separate-stderr env PATH="$W/bin" ovb-report -f html --no-plots \
		"${SMALL[@]}" -o "$W/np.html"
	run -69 --separate-stderr env PATH="$W/bin" ovb-report -p cluster \
		"${SMALL[@]}" -o "$W/c.svg"
	stderr_has 'install the Debian package gnuplot-nox'
	run -69 --separate-stderr env OVB_GNUPLOT="$W/no/gnuplot" ovb-report \
		-f html "${SMALL[@]}" -o "$W/p.html"
	assert_equal "$stderr" "ovb-report: cannot run $W/no/gnuplot: No such file or directory (plots need gnuplot: install the Debian package gnuplot-nox, or name its binary in OVB_GNUPLOT)"
	run -0 ls -A "$W"
	assert_output $'bin\nnp.html'
}

@test "gnuplot failing half-way: 69 with its message, no page, no temporary" {
	cat >"$T/gp" <<-EOF
	#!/bin/sh
	cat >/dev/null
	n=\$(cat "$T/count" 2>/dev/null || echo 0)
	echo \$((n + 1)) >"$T/count"
	if [ "\$n" -ge 2 ]; then echo 'line 7: boom' >&2; exit 1; fi
	echo '<svg width="10" height="10"></svg>'
	EOF
	chmod +x "$T/gp"
	mkdir "$T/out"
	run -69 --separate-stderr env OVB_GNUPLOT="$T/gp" ovb-report -f html \
		"${SMALL[@]}" -o "$T/out/r.html"
	assert_equal "$stderr" "ovb-report: $T/gp failed (exit status 1): line 7: boom"
	assert_equal "$(cat "$T/count")" 3
	run -0 ls -A "$T/out"
	assert_output ''
	rm "$T/count"
	run -69 --separate-stderr env OVB_GNUPLOT=false ovb-report -p gain \
		"$DATA/report-small.gain" -o "$T/out/g.png"
	run -0 ls -A "$T/out"
	assert_output ''
}

@test "plots: every kind as SVG, with titles, axis units, legends, capacity" {
	need_gnuplot
	local all=("${SMALL[@]}" "$DATA/report-small.gain")
	ovb-report -p pdf -c x -r cpu "${all[@]}" -o "$T/pdf.svg"
	run -0 cat "$T/pdf.svg"
	assert_output --partial 'x · cpu: usage distribution U (4 intervals of 1 s)'
	assert_output --partial 'CPU usage per measurement interval [cpu]'
	assert_output --partial 'probability (share of intervals)'
	assert_output --partial 'σ (rate) = 0.75 cpu, O = 0.1'
	assert_output --partial '>p50<'
	ovb-report -p cdf -c x -r net "${all[@]}" -o "$T/cdf.svg"
	run -0 cat "$T/cdf.svg"
	assert_output --partial 'network usage (sent) per measurement interval [kB/s]'
	assert_output --partial 'p100 = 500 kB/s'
	ovb-report -p curve -c x "${all[@]}" -o "$T/curve.svg"
	run -0 cat "$T/curve.svg"
	assert_output --partial 'σ: token-bucket rate [cpu]'
	assert_output --partial 'ρ: least burst at rate σ [cpu-s]'
	assert_output --partial 'chosen: σ = 0.75 cpu, ρ = 0.05 cpu-s (O = 0.1)'
	ovb-report -p node -n a -r cpu "${all[@]}" -o "$T/node.svg"
	run -0 cat "$T/node.svg"
	assert_output --partial 'node a · cpu: aggregate usage Y of 2 capsules'
	assert_output --partial 'capacity C = 1 cpu'
	assert_output --partial 'reserved (Eq. 1) = 1.44 cpu'
	assert_output --partial 'Pr(Y > C) = 0.0625 (plan)'
	assert_output --partial 'O_min = 0.1 (Eq. 3 limit)'
	assert_output --partial 'Eq. 1 VIOLATED'
	assert_output --partial 'CPU usage of the node, summed over its capsules [cpu]'
	ovb-report -p cluster "${all[@]}" -o "$T/cluster.svg"
	run -0 cat "$T/cluster.svg"
	assert_output --partial 'reserved > capacity'
	assert_output --partial 'network (sent) [MB/s]'
	ovb-report -p gain "${all[@]}" -o "$T/gain.svg"
	run -0 cat "$T/gain.svg"
	assert_output --partial 'overbooking tolerance O [%]'
	assert_output --partial '4 nodes: 2.00x at O = 0.05'
	# a node's resource chosen when only one has capsules; stdout is SVG
	run -0 --separate-stderr ovb-report -p node -n b "${all[@]}"
	assert_output --partial 'node b · cpu'
}

@test "plots: PNG by pngcairo, not blank; SVG and PNG deterministic, no dates" {
	need_gnuplot
	ovb-report -p node -n a -r cpu "${SMALL[@]}" -o "$T/a.png"
	ovb-report -p node -n a -r cpu "${SMALL[@]}" -o "$T/b.png"
	run -0 python3 "$R/png.py" info "$T/a.png"
	assert_output '640 640'
	read -r ink colour < <(python3 "$R/png.py" ink "$T/a.png" 0 0 640 640 2)
	((ink > 3000 && colour > 1000)) || fail "blank plot: $ink $colour"
	cmp "$T/a.png" "$T/b.png"
	ovb-report -p cluster "${SMALL[@]}" -o "$T/a.svg"
	ovb-report -p cluster "${SMALL[@]}" -o "$T/b.svg"
	cmp "$T/a.svg" "$T/b.svg"
	run -1 grep -E "$(date +%Y)|[0-9]{2}:[0-9]{2}:[0-9]{2}" "$T/a.svg"
}

# ---------------------------------------------------------------------------
# The HTML page.

@test "html: self-contained, deterministic, every section and figure" {
	need_gnuplot
	local all=("${SMALL[@]}" "$DATA/report-small.gain")
	ovb-report -f html "${all[@]}" -o "$T/a.html"
	(cd "$T" && TMPDIR="$T" ovb-report -f html "${all[@]}") >"$T/b.html"
	cmp "$T/a.html" "$T/b.html"
	run -0 grep -c '<figure' "$T/a.html"
	assert_output 12      # cluster, 3 nodes, 3 x pdf/cdf, 2 curves, gain
	run -0 grep -oE '<section id="[a-z]+"' "$T/a.html"
	assert_output "$(printf '<section id="%s"\n' nodes apps placements rejects capsules gain)"
	# nothing fetched: no scripts, links, sources, imports; URLs only as
	# the SVG namespaces
	run -1 grep -iE '<script|<link|<img| src=|@import|<iframe|url\(http' "$T/a.html"
	run -0 bash -c "grep -oE 'https?://[^\"'\'' )]*' '$T/a.html' | sort -u"
	assert_output $'http://www.w3.org/1999/xlink\nhttp://www.w3.org/2000/svg'
	# gnuplot's ids are made unique per figure; print CSS is there
	run -0 bash -c "grep -oE \" id='[^']*'\" '$T/a.html' | sort | uniq -d"
	assert_output ''
	run -0 grep -c '@media print' "$T/a.html"
	# tables only
	run -0 ovb-report -f html --no-plots -t nodes "${all[@]}"
	refute_output --partial '<svg'
	assert_output --partial '<td class="n">0.0625</td>'
}

@test "html in headless Chromium: renders, plots not blank, no console errors" {
	need_gnuplot
	command -v chromium >/dev/null ||
		skip "Chromium is not installed (Debian package chromium)"
	ovb-report -f html "${SMALL[@]}" "$DATA/report-small.gain" -o "$T/r.html"
	ovb-report -f html --no-plots "${SMALL[@]}" -o "$T/np.html"
	sh "$R/chromium.sh" "$T/r.html" "$T/r.png" "$T/r.log" "$T/r.dom" ||
		fail "chromium failed: $(tail -5 "$T/r.log")"
	sh "$R/chromium.sh" "$T/np.html" "$T/np.png" "$T/np.log" ||
		fail "chromium failed: $(tail -5 "$T/np.log")"
	run -1 grep -E 'ERROR:CONSOLE|Uncaught|Not allowed to load|net::ERR' \
		"$T/r.log" "$T/np.log"
	# Chromium parsed the inline SVGs as SVG elements
	run -0 grep -c '<svg' "$T/r.dom"
	[[ $output -ge 12 ]] || fail "$output svg elements in the DOM"
	run -0 python3 "$R/png.py" info "$T/r.png"
	assert_output '1280 2000'
	# the plots' colours fill many bands of the screenshot; the page
	# without plots has a few coloured words only
	local plots bands
	read -r _ plots < <(python3 "$R/png.py" ink "$T/r.png" 0 0 1280 2000 2)
	bands=$(python3 "$R/png.py" rows "$T/r.png" | awk '$3 >= 75' | wc -l)
	((plots > 8000 && bands >= 8)) ||
		fail "plots look blank: $plots coloured pixels, $bands bands"
	read -r _ plots < <(python3 "$R/png.py" ink "$T/np.png" 0 0 1280 2000 2)
	((plots < 4000)) || fail "the page without plots has $plots coloured pixels"
}

@test "plots: a write error is seen (gnuplot alone exits 0 on a full stdout): 74 with one message" {
	run -74 --separate-stderr bash -c 'ovb-report -p node -n a -r cpu "$1" "$2" "$3" >/dev/full' \
		_ "$DATA/report-small.cluster" "$DATA/report-small.plan" "$DATA/report-small.profile"
	[[ $stderr == "ovb-report: <stdout>: write error: No space left on device" ]] || fail "stderr: $stderr"
}

@test "curve plot: the title says which axis is on a log scale (σ, ρ, both or none)" {
	need_gnuplot
	capture
	# x: σ spans 300 (log), ρ 4; y: σ 6, ρ 400 (log); b: both; n: neither
	printf 'ovb-curve 1\n' >"$T/c.curve"
	printf 'ovb-usage 1\n' >"$T/u"
	local k s0 r1
	for k in x:0.01:0.1 y:0.5:0.001 b:0.01:0.001 n:0.5:0.1; do
		IFS=: read -r k s0 r1 <<<"$k"
		printf 'curve %s cpu\nmean %s cpu\npeak 3 cpu\npoint %s 0.4\npoint 3 %s\n' "$k" "$s0" "$s0" "$r1" >>"$T/c.curve"
		printf 'usage %s cpu\ninterval 1 s\nwidth 0.25 cpu\nintervals 2\nmean 0.25 cpu\nbin 1 2\n' "$k" >>"$T/u"
	done
	for k in x y b n; do
		rm -f "$T"/gp.*
		run -0 --separate-stderr ovb-report -p curve -c "$k" -r cpu "$T/u" "$T/c.curve"
		grep -h '^set title' "$T"/gp.* >"$T/title.$k"
		grep -hc '^set logscale' "$T"/gp.* >"$T/nlog.$k" || :
	done
	grep -q '(σ on a log scale)' "$T/title.x" || fail "x: $(cat "$T/title.x")"
	grep -q '(ρ on a log scale)' "$T/title.y" || fail "y: $(cat "$T/title.y")"
	grep -q '(log scales)' "$T/title.b" || fail "b: $(cat "$T/title.b")"
	! grep -q 'log scale' "$T/title.n" || fail "n: $(cat "$T/title.n")"
	# and the axes are those: one log axis for x and y, two for b
	assert_equal "$(cat "$T/nlog.x") $(cat "$T/nlog.y") $(cat "$T/nlog.b") $(cat "$T/nlog.n")" "1 1 2 0"
}
