#!/usr/bin/env bats
# ovb-fit: what-if answers (how many more copies fit, the fewest nodes of a
# shape, either against O), checked against exhaustive search on random
# instances (t/oracle/fit.py) and, on the demo cluster, by ovb-place and
# ovb-check themselves.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	T=$BATS_TEST_TMPDIR
	ORACLE="$BATS_TEST_DIRNAME/oracle"
}

# demo_profile (t/test_helper.bash): the profiles of `make demo` in $T/f.profile.

# copies APP FIRST LAST APPS: the copies APP+FIRST..APP+LAST of APPS's
# application APP, as an ovb-apps file on stdout (written here, not by
# ovb-fit).
copies() {
	awk -v app="$1" -v first="$2" -v last="$3" '
		$1 == "app" { on = $2 == app; if (on) head = $0; next }
		on && ($1 == "capsule" || $1 == "trust") { body = body $0 "\n" }
		END {
			print "ovb-apps 1"
			for (k = first; k <= last; k++) {
				h = head; sub(" " app, " " app "+" k, h)
				printf "%s\n%s", h, body
			}
		}' "$4"
}

@test "fit: --help, and bad option values exit 64 with nothing written" {
	run -0 ovb-fit --help
	assert_output --partial 'EXAMPLES:'
	assert_output --partial 'Exit status:'
	local a=("$DATA/example.cluster" "$DATA/example.apps" "$DATA/example.profile")
	run -64 --separate-stderr ovb-fit -o "$T/out" "${a[@]}"
	[[ $stderr == *"give one question"* ]]
	run -64 --separate-stderr ovb-fit --more shop --nodes n1 -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more 'not a name' -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --curve 1 -o "$T/out" "${a[@]}"
	[[ $stderr == *"--curve"* ]]
	run -64 --separate-stderr ovb-fit --more shop --curve 0.1,,0.2 -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --curve 0.1, -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --curve 0:0:0.1 -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --curve 0.2:0.1:0.1 -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --curve 0:x:1 -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --max 0 -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --policy first-fit -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --curve 0,0.1 --plan-out "$T/p" -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --more shop --cluster-out "$T/c" -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --nodes 'node big 0 cpu 1e9 B/s' -o "$T/out" "${a[@]}"
	[[ $stderr == *"--nodes"* ]]
	run -64 --separate-stderr ovb-fit --nodes 'node big 4 cores 1e9 B/s' -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --nodes 'node a 4 cpu 1e9 B/s
node b 4 cpu 1e9 B/s' -o "$T/out" "${a[@]}"
	run -64 --separate-stderr ovb-fit --nodes nosuch -o "$T/out" "${a[@]}"
	[[ $stderr == *"no node 'nosuch'"* ]]
	run -64 --separate-stderr ovb-fit --nodes n1 -o "$T/out" "$DATA/example.apps" "$DATA/example.profile"
	[[ $stderr == *"no cluster file"* ]]
	[[ ! -e $T/out && ! -e $T/p && ! -e $T/c ]]
}

@test "fit: bad input exits 65 with FILE:LINE and writes nothing" {
	local a=("$DATA/example.cluster" "$DATA/example.profile")
	# the candidate names a profile no file has
	variant noprof.apps "$DATA/example.apps" -e 's/profile=web/profile=nosuch/'
	run -65 --separate-stderr ovb-fit --more shop -o "$T/out" --plan-out "$T/p" "${a[@]}" "$BAD"
	assert_equal "$stderr" "ovb-fit: $BAD:$(line_of '^app shop' "$BAD"): application shop, capsule web: profile=nosuch is in none of the profile files (no cpu or net block)"
	# pinned to a node the cluster does not have
	variant pin.apps "$DATA/example.apps" -e 's/node=n3/node=n9/'
	run -65 --separate-stderr ovb-fit --more shop -o "$T/out" "${a[@]}" "$BAD"
	[[ $stderr == "ovb-fit: $BAD:$(line_of '^app shop' "$BAD"): application shop, capsule db: node=n9 is not in the cluster"* ]]
	# --nodes places on nodes of its own: a pin is bad input
	run -65 --separate-stderr ovb-fit --nodes 'node s 8 cpu 1e9 B/s' -o "$T/out" "$DATA/example.apps" "$DATA/example.profile"
	[[ $stderr == *"example.apps:$(line_of '^app shop' "$DATA/example.apps"): application shop, capsule db: node=n3 pins it"* ]]
	# no such application
	run -65 --separate-stderr ovb-fit --more nosuch -o "$T/out" "${a[@]}" "$DATA/example.apps"
	[[ $stderr == *"example.apps"*"no application nosuch"* ]]
	# a bad cluster: the reader's FILE:LINE
	variant bad.cluster "$DATA/example.cluster" -e 's/^(node n2 )[0-9.]+/\1-4/'
	run -65 --separate-stderr ovb-fit --more shop -o "$T/out" "$BAD" "$DATA/example.apps" "$DATA/example.profile"
	[[ $stderr == "ovb-fit: $BAD:$(line_of '^node n2' "$BAD"):"* ]]
	# a plan on a node the cluster lacks
	variant bad.plan "$DATA/example.plan" -e '0,/^(place [^ ]+ [^ ]+ )n1 /s//\1n9 /'
	run -65 --separate-stderr ovb-fit --more shop -o "$T/out" "${a[@]}" "$DATA/example.apps" "$BAD"
	[[ $stderr == "ovb-fit: $BAD:$(line_of ' n9 ' "$BAD"):"*"not in the cluster"* ]]
	[[ ! -e $T/out && ! -e $T/p ]]
}

@test "fit: the ovb-fit format: canonical example, and its errors at their line" {
	run -0 ovb-fmt -c "$DATA/example.fit"
	assert_output "$(cat "$DATA/example.fit")"
	variant order.fit "$DATA/example.fit" -e 's/^point 0.01 /point 0 /'
	run -65 --separate-stderr ovb-fmt "$BAD"
	assert_equal "$stderr" "ovb-fmt: $BAD:$(line_of '^point 0 6' "$BAD"): point: O = 0 is not above the previous point's (line $(line_of '^point 0 4' "$BAD")): points go in increasing O, once each"
	variant unit.fit "$DATA/example.fit" -e 's/ copies exact/ nodes exact/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"$BAD:$(line_of '^point' "$BAD"): point: the unit of a 'fit more' answer is 'copies', not 'nodes'" ]]
	variant never.fit "$DATA/example.fit" -e 's/^point 0 4 copies exact/point 0 0 copies never/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	variant where.fit "$DATA/example.fit" -e 's/^where n2 2/where n1 2/'
	run -65 --separate-stderr ovb-fmt "$BAD"
	[[ $stderr == *"where: node n1 twice"* ]]
	printf 'ovb-fit 1\nfit nodes s 4 cpu 1e9 B/s\nsearch worst-fit\npoint 0 3 nodes exact\nwhere s-1 2\n' >"$T/w.fit"
	run -65 --separate-stderr ovb-fmt "$T/w.fit"
	[[ $stderr == *"w.fit:5: where: only in the answer of 'fit more'"* ]]
	printf 'ovb-fit 1\nfit nodes s 4 cpu 1e9 B/s\nsearch worst-fit\npoint 0 0 nodes never\npoint 0.1 2 nodes exact\n' >"$T/ok.fit"
	run -0 ovb-fmt "$T/ok.fit"
}

@test "fit --more: equals exhaustive search with one capsule, never above it, and no copy fits on top of the plan written (200 instances)" {
	run -0 python3 "$ORACLE/fit.py" --seeds more 1 200
	echo "# $output" >&3
	run -0 python3 "$ORACLE/fit.py" --seeds more 201 260 --policy best-fit
	run -0 python3 "$ORACLE/fit.py" --seeds more 261 300 --curve 0,0.01,0.05,0.2
	echo "# --curve: $output" >&3
}

@test "fit --nodes: never below the exhaustive fewest, the plan on the cluster written holds every rule (100 instances)" {
	run -0 python3 "$ORACLE/fit.py" --seeds nodes 1 100
	echo "# $output" >&3
	run -0 python3 "$ORACLE/fit.py" --seeds nodes 101 140 --curve 0,0.05,0.2
}

@test "fit --exhaustive: counts equal exhaustive search (the most copies, the fewest nodes), plans accepted by ovb-check" {
	run -0 python3 "$ORACLE/fit.py" --seeds more 1 100 --exhaustive --budget 5000000
	echo "# --exhaustive: $output" >&3
	[[ $output == *" 0 where the policy's count is not the exhaustive one" ]]
	run -0 python3 "$ORACLE/fit.py" --seeds nodes 1 100 --exhaustive
	echo "# --exhaustive: $output" >&3
	[[ $output == *" 0 where the policy's count is not the exhaustive one" ]]
	run -0 python3 "$ORACLE/fit.py" --seeds nodes 101 130 --exhaustive --curve 0,0.2
	run -0 python3 "$ORACLE/fit.py" --seeds more 101 120 --exhaustive --budget 5000000 --curve 0,0.2
	[[ $output == *" 0 where the policy's count is not the exhaustive one" ]]
	# a budget too small for the search: a bound, and the policy's plan
	python3 "$BATS_TEST_DIRNAME/gen/fit.py" 272 "$T" more
	ovb-place -q --grid 0 "$T/cluster" "$T/base.apps" "$T/profile" -o "$T/plan"
	run -0 ovb-fit --grid 0 --exhaustive --budget 10 --more cand "$T/cluster" "$T/apps" "$T/profile" "$T/plan"
	assert_line --regexp '^point 0.2 [0-9]+ copies at-least$'
	assert_line 'search exhaustive'
	# --nodes --exhaustive takes new applications only
	run -65 --separate-stderr ovb-fit --exhaustive --nodes 'node s 8 cpu 1e9 B/s' -o "$T/out" <(printf 'ovb-apps 1\napp x\ncapsule a cpu=1\napp y op=terminate\n')
	[[ $stderr == *":4: application y: op=terminate, but --nodes --exhaustive places new applications only" ]]
	[[ ! -e $T/out ]]
}

@test "fit --more on the demo cluster: ovb-place places N copies and rejects copy N+1, ovb-check accepts the plan" {
	demo_profile
	local c="$DATA/demo.cluster" p="$T/f.profile" n
	# the demo's own plan is full (admission rejects the last six shops)
	ovb-place -q "$c" "$DATA/demo.apps" "$p" -o "$T/full.plan"
	run -0 ovb-fit --more shop01 "$c" "$DATA/demo.apps" "$p" "$T/full.plan"
	assert_line 'point 0.01 0 copies exact'
	copies shop01 1 1 "$DATA/demo.apps" >"$T/one.apps"
	run -0 ovb-place "$c" "$T/one.apps" "$p" "$T/full.plan"
	assert_line --regexp '^reject shop01\+1 '
	# on a plan of three shops
	awk '$1 == "app" { n++ } n <= 3' "$DATA/demo.apps" >"$T/three.apps"
	ovb-place -q "$c" "$T/three.apps" "$p" -o "$T/three.plan"
	run -0 ovb-fit --more shop01 -o "$T/ans" --plan-out "$T/more.plan" \
		--apps-out "$T/more.apps" "$c" "$T/three.apps" "$p" "$T/three.plan"
	n=$(awk '$1 == "point" { print $3 }' "$T/ans")
	((n >= 1)) || fail "no copy fits: $(cat "$T/ans")"
	echo "# demo, on a plan of 3 shops: $n more shop01 fit" >&3
	run -0 ovb-check "$c" "$T/three.apps" "$T/more.apps" "$T/more.plan" "$p"
	assert_equal "$(grep -c '^app ' "$T/more.apps")" "$n"
	# the where records add up to the copies' capsules in the plan
	assert_equal "$(awk '$1 == "where" { s += $3 } END { print s }' "$T/ans")" \
		"$(grep -c '^place shop01+' "$T/more.plan")"
	# ovb-place with N+1 copies arriving: the first N placed, the last rejected
	copies shop01 1 $((n + 1)) "$T/three.apps" >"$T/n1.apps"
	run -0 ovb-place "$c" "$T/n1.apps" "$p" "$T/three.plan"
	assert_equal "$(grep -c '^reject ' <<<"$output")" 1
	assert_line --regexp "^reject shop01\\+$((n + 1)) "
	# the plan ovb-fit wrote is ovb-place's with N copies
	copies shop01 1 "$n" "$T/three.apps" >"$T/n.apps"
	ovb-place -q "$c" "$T/n.apps" "$p" "$T/three.plan" -o "$T/n.plan"
	cmp "$T/n.plan" "$T/more.plan"
	# --max 1 stops at one copy ("at-least"); asked again on that plan,
	# the rest fit, numbered on from shop01+2
	run -0 ovb-fit --more shop01 --max 1 --plan-out "$T/p1" "$c" "$T/three.apps" "$p" "$T/three.plan"
	assert_line 'point 0.01 1 copies at-least'
	run -0 ovb-fit --more shop01 --plan-out "$T/p2" --apps-out "$T/a2" "$c" "$T/three.apps" "$p" "$T/p1"
	assert_line "point 0.01 $((n - 1)) copies exact"
	assert_equal "$(awk '$1 == "app" { print $2 }' "$T/a2" | head -1)" "shop01+2"
	cmp "$T/p2" "$T/more.plan"
}

@test "fit --nodes on the demo apps: ovb-check accepts the plan, ovb-place rejects an application on one node fewer" {
	demo_profile
	local a="$DATA/demo.apps" p="$T/f.profile" k i
	run -0 ovb-fit --nodes n3 -o "$T/ans" --plan-out "$T/n.plan" --cluster-out "$T/n.cluster" "$DATA/demo.cluster" "$a" "$p"
	k=$(awk '$1 == "point" { print $3 }' "$T/ans")
	echo "# demo apps: $k nodes like n3 (4 cpu)" >&3
	grep -qx "fit nodes n3 4 cpu 125000000 B/s" "$T/ans"
	assert_equal "$(grep -c '^node n3-[0-9]* 4 cpu 125000000 B/s rack=b$' "$T/n.cluster")" "$k"
	run -0 ovb-check "$T/n.cluster" "$a" "$T/n.plan" "$p"
	{ echo 'ovb-cluster 1'; for ((i = 1; i < k; i++)); do echo "node m$i 4 cpu 125000000 B/s"; done; } >"$T/fewer.cluster"
	run -0 ovb-place "$T/fewer.cluster" "$a" "$p"
	assert_line --regexp '^reject '
	# against O: never more nodes at a larger tolerance here
	run -0 ovb-fit --nodes 'node std 2 cpu 125000000 B/s' --curve 0,0.01,0.2 "$a" "$p"
	assert_line --regexp '^point 0 [0-9]+ nodes exact$'
	# a shape on which one capsule alone does not fit: never, exit 1
	run -1 --separate-stderr ovb-fit -v --nodes 'node tiny 0.1 cpu 125000000 B/s' -o "$T/never" --plan-out "$T/np" "$a" "$p"
	assert_equal "$(grep '^point' "$T/never")" "point 0.01 0 nodes never"
	[[ ! -e $T/np ]]
	# which application, capsule and resource, with units; never "0 nodes"
	[[ $stderr == *"O = 0.01: no number of nodes of tiny holds the applications (application shop"*", capsule "*": its cpu reservation "*" cpu is above a node's 0.1 cpu)"* ]] || fail "$stderr"
	[[ $stderr == *"no number of nodes of tiny holds the applications (application shop"*"); nothing else written"* ]] || fail "$stderr"
	[[ $stderr != *"0 nodes"* && $stderr != *"one does not fit"* ]] || fail "$stderr"
	# the capsule named is one whose Eq. 1 term (sigma + rho)(1 - O) over
	# tau 1 s is above 0.1 cpu, by the profile (awk, not ovb-fit)
	local app cap v
	read -r app cap v < <(grep -o 'application [^,]*, capsule [^:]*: its cpu reservation [0-9.e+-]*' <<<"$stderr" | head -1 | awk '{ sub(",", "", $2); print $2, $4, $NF }' | tr -d ':')
	awk -v v="$v" 'BEGIN { exit !(v > 0.1) }' || fail "$app/$cap: $v"
}

@test "fit: no ovb-place needed (on PATH or beside it): the same answers, each plan ovb-place's for the inputs written beside it" {
	demo_profile
	local c="$DATA/demo.cluster" p="$T/f.profile" a="$DATA/demo.apps" q
	mkdir "$T/alone"
	cp "$(command -v ovb-fit)" "$T/alone/"
	awk '$1 == "app" { n++ } n <= 3' "$a" >"$T/three.apps"
	ovb-place -q "$c" "$T/three.apps" "$p" -o "$T/three.plan"
	for q in worst-fit best-fit first-fit-decreasing; do
		# --more on top of a plan
		PATH="$T/alone:/usr/bin:/bin" run -0 --separate-stderr \
			ovb-fit --more shop01 --policy "$q" --plan-out "$T/m.plan" \
			--apps-out "$T/m.apps" "$c" "$T/three.apps" "$p" "$T/three.plan"
		assert_line --regexp '^point 0.01 [1-9][0-9]* copies exact$'
		ovb-place -q --policy "$q" "$c" "$T/m.apps" "$p" "$T/three.plan" \
			-o "$T/m.again"
		cmp "$T/m.plan" "$T/m.again"
		# --nodes, and --nodes --exhaustive (pinned capsules)
		PATH="$T/alone:/usr/bin:/bin" run -0 --separate-stderr \
			ovb-fit --nodes n3 --policy "$q" --plan-out "$T/n.plan" \
			--cluster-out "$T/n.cluster" "$c" "$a" "$p"
		assert_line --regexp '^point 0.01 [1-9][0-9]* nodes exact$'
		ovb-place -q --policy "$q" "$T/n.cluster" "$a" "$p" -o "$T/n.again"
		cmp "$T/n.plan" "$T/n.again"
	done
	PATH="$T/alone:/usr/bin:/bin" run -0 --separate-stderr ovb-fit \
		--nodes 'node std 2 cpu 125000000 B/s' --exhaustive --budget 2000 \
		--plan-out "$T/x.plan" --cluster-out "$T/x.cluster" "$T/three.apps" "$p"
	run -0 ovb-check "$T/x.cluster" "$T/three.apps" "$T/x.plan" "$p"
}

@test "fit: ovb-report reads an answer: the table gives every point, the plot draws the exact ones and marks the bounds" {
	printf 'ovb-fit 1\nfit more web\nsearch exhaustive\npoint 0 3 copies exact\nwhere n1 2\nwhere n2 1\npoint 0.05 5 copies at-least\npoint 0.2 8 copies exact\n' >"$T/a.fit"
	run -0 ovb-report -f tsv "$T/a.fit"
	# the rows, from the file by awk
	assert_equal "$output" "$(awk 'BEGIN { print "O\tcount\tunit\tbound\twhere" }
		$1 == "point" { if (row) print row w; row = $2 "\t" $3 "\t" $4 "\t" $5 "\t"; w = "" }
		$1 == "where" { w = w (w == "" ? "" : " ") $2 ":" $3 }
		END { print row (w == "" ? "-" : w) }' "$T/a.fit" | sed 's/\t$/\t-/')"
	run -0 ovb-report -t fit "$T/a.fit"
	assert_line --partial 'Copies that fit on top of the plan'
	printf 'ovb-fit 1\nfit nodes s 4 cpu 1e9 B/s\nsearch worst-fit\npoint 0 0 nodes never\n' >"$T/n.fit"
	run -0 ovb-report -f tsv "$T/n.fit"
	assert_line --regexp '^0	-	nodes	never	-$'
	sed 's/^point 0.2 /point 0.01 /' "$T/a.fit" >"$T/bad.fit"
	run -65 --separate-stderr ovb-report "$T/bad.fit"
	[[ $stderr == "ovb-report: $T/bad.fit:8: point: O = 0.01 is not above"* ]]
	run -64 --separate-stderr ovb-report "$T/a.fit" "$T/a.fit"
	[[ $stderr == *"a second ovb-fit file"* ]]
	run -64 --separate-stderr ovb-report -p fit "$DATA/example.profile"
	[[ $stderr == *"--plot fit: needs an ovb-fit answer"* ]]
	command -v gnuplot >/dev/null || skip "no gnuplot"
	run -0 ovb-report -p fit "$T/a.fit" -o "$T/a.svg"
	grep -q '<svg' "$T/a.svg"
	run -0 ovb-report -p fit "$T/n.fit" -o "$T/n.svg"
	run -0 ovb-report -f html "$T/a.fit" -o "$T/a.html"
	grep -q 'Copies of the application that fit on top of the plan' "$T/a.html"
	! grep -qwE 'inf|nan' "$T/a.html"
}
