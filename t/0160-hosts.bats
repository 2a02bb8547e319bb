#!/usr/bin/env bats
# Profiling across hosts: ovb(7)'s recipe (GNU parallel --nonall over
# ssh, each host capturing and reducing its own trace, the profiles
# merged by ovb-merge) run on two hosts stood up by a stand-in ssh: each
# command runs on this machine, in its own UTS namespace named after the
# host, beside a CPU load under the host's own command name.

# ovb: serial (records the whole machine with perf: runs alone)
bats_require_minimum_version 1.5.0
load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
	[[ $(id -u) == 0 ]] || skip "needs root to record with perf and to name UTS namespaces"
	command -v perf >/dev/null || skip "no perf"
	command -v parallel >/dev/null || skip "no GNU parallel"
	unshare -u true 2>/dev/null || skip "unshare -u not permitted"
	ovb-capture -q -d 0.1 -o "$T/probe.data" 2>/dev/null || skip "ovb-capture cannot record here"
}

# ovb(7)'s block between its hosts-recipe markers
recipe() {
	awk '/^<!-- hosts-recipe/ { on = 1; next } /^<!-- \/hosts-recipe/ { on = 0 }
		on && !/^```/' "$BATS_TEST_DIRNAME/../man/ovb.7.md"
}

# stand_in_ssh: $T/ssh runs "ssh [OPTIONS] HOST [--] COMMAND..." as ssh
# would (the words joined, through sh -c), here, in a UTS namespace named
# HOST, with SHELL the login shell as sshd sets it; 1 s in, it starts HOST's load: $T/burn-HOST (a copy of yes, so
# its command name is its own) for 1.5 s, its CPU time (wait4, bash's
# time) in $T/cpu.HOST
stand_in_ssh() {
	cat >"$T/ssh" <<-EOS
	#!/bin/bash
	while [[ \$1 == -* ]]; do case \$1 in -[lpoiSFbcDeEJLmOQRWw]) shift 2;; *) shift;; esac; done
	h=\$1; shift
	[[ \$1 == -- ]] && shift
	export SHELL=\$(getent passwd "\$(id -un)" | cut -d: -f7)  # sshd sets it: GNU parallel's remote side runs \$SHELL
	cp /usr/bin/yes "$T/burn-\$h"
	( sleep 1; TIMEFORMAT='%U %S'; { time timeout 1.5 "$T/burn-\$h" >/dev/null; } 2>"$T/cpu.\$h" ) &
	unshare -u sh -c 'hostname "\$1"; shift; exec sh -c "\$*"' sh "\$h" "\$@"
	s=\$?
	wait
	exit \$s
	EOS
	chmod +x "$T/ssh"
}

@test "hosts: ovb(7)'s recipe profiles two hosts, ships back only the profiles, and merges them" {
	stand_in_ssh
	recipe >"$T/recipe.sh"
	[[ -s $T/recipe.sh ]] || fail "no hosts-recipe block in man/ovb.7.md"
	# two hosts, 4 s captures, each host's own load
	sed -i -e 's/^hosts=.*/hosts=h1,h2/' -e 's/-d 30 /-d 4 /' \
		-e 's/comm:^nginx\$/comm:^burn-$(hostname -s)$/' "$T/recipe.sh"
	grep -q 'hosts=h1,h2' "$T/recipe.sh" && grep -q -- '-d 4 ' "$T/recipe.sh" &&
		grep -q 'burn-' "$T/recipe.sh" || fail "the recipe changed: $(cat "$T/recipe.sh")"
	cd "$T"
	run -0 --separate-stderr env PARALLEL="--ssh $T/ssh" TMPDIR="$T/remote" \
		bash -c "mkdir -p '$T/remote' && set -e && . '$T/recipe.sh'"
	# what came back: one profile per host, KB-sized, merged into one
	local h busy cpu
	for h in h1 h2; do
		[[ -s $h.profile ]] || fail "no $h.profile"
		(($(stat -c %s $h.profile) < 65536)) || fail "$h.profile is $(stat -c %s $h.profile) bytes"
		run -0 ovb-fmt "$h.profile"
	done
	[[ -z $(ls -A "$T/remote") ]] || fail "left on the hosts: $(ls -A "$T/remote")"
	run -0 ovb-fmt -c fleet.profile
	[[ $(grep -c '^profile app-h1 cpu$' fleet.profile) == 1 && $(grep -c '^profile app-h2 cpu$' fleet.profile) == 1 ]] ||
		fail "fleet.profile: $(grep '^profile' fleet.profile)"
	# each host's profile measures its own load: busy CPU time (mean x
	# intervals x interval) within 1.5% of the kernel's for that load
	for h in h1 h2; do
		busy=$(awk '$1 == "profile" { on = ($2 == "app-'$h'" && $3 == "cpu") }
			on && $1 == "interval" { I = $2 } on && $1 == "intervals" { n = $2 }
			on && $1 == "mean" { m = $2 } END { printf "%.6f", m * n * I }' fleet.profile)
		cpu=$(awk '{ printf "%.6f", $1 + $2 }' "cpu.$h")
		awk -v b="$busy" -v c="$cpu" 'BEGIN { exit !(c > 0.05 && (b - c) / c <= 0.015 && (c - b) / c <= 0.015) }' ||
			fail "$h: profile busy $busy cpu-s, wait4 $cpu cpu-s"
		echo "# $h: busy $busy cpu-s in the profile, $cpu cpu-s by wait4" >&3
	done
}

@test "hosts: two hosts that name their capsules alike: ovb-merge names both places and writes nothing" {
	stand_in_ssh
	recipe >"$T/recipe.sh"
	sed -i -e 's/^hosts=.*/hosts=h1,h2/' -e 's/-d 30 /-d 2 /' \
		-e 's/app-$(hostname -s)=comm:^nginx\$/app=comm:^burn-/' "$T/recipe.sh"
	grep -q '"app=comm:^burn-"' "$T/recipe.sh" || fail "the recipe changed: $(cat "$T/recipe.sh")"
	cd "$T"
	run -65 --separate-stderr env PARALLEL="--ssh $T/ssh" bash -c ". '$T/recipe.sh'"
	[[ $stderr == *"ovb-merge: h2.profile:"*": profile app cpu is defined twice: also at h1.profile:"* ]] ||
		fail "$stderr"
	[[ ! -e fleet.profile ]] || fail "fleet.profile written"
}
