#!/usr/bin/env bats
# Sweeps: ovb(7)'s recipes (GNU parallel locally and on hosts, a
# Slurm job array) run on make demo's profiles; their one table must equal
# the rows computed one by one in a plain loop, byte for byte.

bats_require_minimum_version 1.5.0
load test_helper

setup_file() {
	export D=$BATS_FILE_TMPDIR/demo
	sh "$BATS_TEST_DIRNAME/../demo.sh" "$D" >/dev/null 2>&1
	cp "$BATS_TEST_DIRNAME/data/demo.cluster" "$BATS_TEST_DIRNAME/data/demo.apps" "$D"
}

setup() {
	T=$BATS_TEST_TMPDIR
	command -v parallel >/dev/null || skip "no GNU parallel"
	[[ -s $D/fixtures.usage ]] || fail "demo.sh made no profiles in $D"
}

# block NAME: ovb(7)'s block between <!-- NAME and <!-- /NAME
block() {
	awk -v b="$1" '$0 ~ "^<!-- " b { on = 1; next } $0 ~ "^<!-- /" b { on = 0 }
		on && !/^```/' "$BATS_TEST_DIRNAME/../man/ovb.7.md"
}

# want: the table of the recipe, one row at a time, without parallel
want() {
	local O s
	printf 'O\tseed\tplaced\n'
	for O in 0 0.01 0.05 0.1; do
		for s in 1 2 3; do
			printf '%s\t%s\t%s\n' $O $s "$(ovb-profile -q -O $O -t 1 "$D/fixtures.usage" "$D/fixtures.curve" |
				ovb-place -p random --seed $s "$D/demo.cluster" "$D/demo.apps" - | grep -c '^place ')"
		done
	done
}

@test "sweep: ovb(7)'s GNU parallel recipe gives the table of a plain loop, the same bytes every run" {
	block sweep-recipe >"$T/recipe.sh"
	grep -q '^parallel -k row' "$T/recipe.sh" || fail "the recipe changed: $(cat "$T/recipe.sh")"
	want >"$T/want"
	(($(wc -l <"$T/want") == 13)) || fail "$(cat "$T/want")"
	cd "$D"
	run -0 --separate-stderr bash -c "set -e; . '$T/recipe.sh'"
	run -0 diff "$T/want" sweep.tsv
	cp sweep.tsv "$T/first"
	run -0 --separate-stderr bash -c "set -e; . '$T/recipe.sh'"
	run -0 cmp "$T/first" sweep.tsv
	# not vacuous: the tolerance changes the answer
	[[ $(cut -f3 sweep.tsv | sort -u | wc -l) -gt 2 ]] || fail "every row alike: $(cat sweep.tsv)"
}

@test "sweep: on two hosts (-S, --wd, --env, a stand-in ssh): the same table" {
	cat >"$T/ssh" <<-'EOS'
	#!/bin/bash
	# stand-in ssh: the words joined and run by bash here, as ssh would there,
	# with SHELL the login shell as sshd sets it (GNU parallel's remote side runs $SHELL)
	while [[ $1 == -* ]]; do case $1 in -[lpoiSFbcDeEJLmOQRWw]) shift 2;; *) shift;; esac; done
	shift
	[[ $1 == -- ]] && shift
	export SHELL=$(getent passwd "$(id -un)" | cut -d: -f7)
	exec bash -c "$*"
	EOS
	chmod +x "$T/ssh"
	block sweep-recipe | sed 's|^parallel -k row|parallel -k -S 2/h1,2/h2 --wd "$PWD" --env row row|' >"$T/recipe.sh"
	grep -q -- '-S 2/h1,2/h2' "$T/recipe.sh" || fail "$(cat "$T/recipe.sh")"
	want >"$T/want"
	cd "$D"
	run -0 --separate-stderr env PARALLEL="--ssh $T/ssh" bash -c "set -e; . '$T/recipe.sh'"
	run -0 diff "$T/want" sweep.tsv
}

load slurm

teardown() {
	slurm_stop
}

@test "sweep: ovb(7)'s Slurm job array gives the same table (a private single-host Slurm)" {
	slurm_or_skip
	slurm_start
	block slurm-recipe >"$T/recipe.sh"
	want >"$T/want"
	cd "$D"
	run -0 --separate-stderr timeout 300 bash -c "set -e; . '$T/recipe.sh'"
	run -0 diff "$T/want" sweep.tsv
	# the rows were Slurm array tasks
	grep -q 'array' "$SL/slurmctld.log" || fail "no array job in the controller's log"
}
