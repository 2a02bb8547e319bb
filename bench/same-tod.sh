#!/bin/bash
# bench/same-tod.sh BASE_BIN: are the time-of-day mode's outputs unchanged?
# Runs BASE_BIN's tools (a build of the base, e.g. main in a copy made by
# `git archive`) and this tree's bin/ on: ovb-backtest -m tod on the
# 250-VM Bitbrains series (cpu at 32 cpu, O 5%, 14 d; 16 cpu, O 1%, 28 d;
# 32 cpu with memory); ovb-place --mode tod (first-fit decreasing on 300
# nodes of 64, 32 and 16 cpu, and the default policy at 32 cpu) on the 249
# profiles bench/tod-bitbrains.sh makes, and ovb-check --mode tod on each
# plan; with TESTS=1 also t/0321, t/0339 and t/0645 with every ovb-place,
# ovb-check, ovb-report, ovb-usage, ovb-profile and ovb-backtest run by
# both (a stand-in on the PATH runs the base's then this tree's on the
# same arguments and stdin, compares stdout, stderr, exit status and the
# -o FILE or --keep DIR, and passes this tree's on).  One line per
# comparison, "same" or "DIFFERENT", with the user CPU time of both for
# the backtests and placements; exit 1 on any difference.
#   BASE_BIN=/tmp/base/bin bench/same-tod.sh    (../shared/data needed)
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
B_OLD=${BASE_BIN:?BASE_BIN=DIR, the bin/ of the base build}
B_NEW=$ROOT/bin
data=../shared/data/bitbrains-rnd-250
[[ -d $data ]] || { echo "same-tod: $data is absent" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/ovb-same-tod.XXXXXX")
trap '[[ ${KEEP:-} ]] && echo "kept $W" >&2 || rm -rf "$W"' EXIT
bad=0

# compare NAME TOOL ARGS...: both builds, user time of each
compare() {
	local name=$1 tool=$2 s
	shift 2
	/usr/bin/time -f %U -o "$W/o.t" "$B_OLD/$tool" "$@" >"$W/o.out" \
		2>"$W/o.err" && s=0 || s=$?
	/usr/bin/time -f %U -o "$W/n.t" "$B_NEW/$tool" "$@" >"$W/n.out" \
		2>"$W/n.err" && n=0 || n=$?
	if [[ $s == "$n" ]] && cmp -s "$W/o.out" "$W/n.out" &&
	    cmp -s "$W/o.err" "$W/n.err"; then
		echo "same $name (status $n, $(wc -c <"$W/n.out") B; user $(tail -1 "$W/o.t") s -> $(tail -1 "$W/n.t") s)"
	else
		echo "DIFFERENT $name (status $s / $n): $tool $*"
		bad=1
	fi
}

"$B_NEW/ovb-import" --bitbrains -q -r cpu,mem -o "$W/s.series" \
	"$data"/2013-*/*.csv.gz
compare "backtest tod 32 cpu O 5% 14 d" ovb-backtest -m tod --cpus 32 \
	--tolerance 0.05 --train 14d --mem 0 "$W/s.series"
compare "backtest tod 16 cpu O 1% 28 d" ovb-backtest -m tod --cpus 16 \
	--tolerance 0.01 --train 28d --mem 0 "$W/s.series"
compare "backtest tod 32 cpu O 5% 14 d, memory" ovb-backtest -m tod \
	--cpus 32 --tolerance 0.05 --train 14d "$W/s.series"

# bench/tod-bitbrains.sh's profiles
"$B_NEW/ovb-import" --bitbrains -q -r cpu --from 2013-08-05 --to 2013-08-19 \
	"$data"/2013-8/*.csv.gz -o "$W/train.series"
"$B_NEW/ovb-usage" -r cpu --tod 100 --tod-offset 7200 "$W/train.series" \
	-o "$W/u"
"$B_NEW/ovb-tbucket" -r cpu "$W/train.series" -o "$W/c"
"$B_NEW/ovb-profile" -q -O 0.01 -t 300 "$W/u" "$W/c" -o "$W/p"
awk '$1 == "profile" { print "app", $2, "O=0.01"; print "capsule c profile=" $2 }
	BEGIN { print "ovb-apps 1" }' "$W/p" >"$W/apps"
for c in 64 32 16; do
	{ echo "ovb-cluster 1"
	  for i in $(seq 300); do echo "node n$i $c cpu 1e12 B/s"; done
	} >"$W/c$c"
	compare "place tod ffd $c cpu" ovb-place --mode tod \
		-p first-fit-decreasing "$W/c$c" "$W/apps" "$W/p"
	cp "$W/n.out" "$W/plan$c"
	compare "check tod ffd $c cpu" ovb-check --mode tod "$W/c$c" \
		"$W/apps" "$W/plan$c" "$W/p"
done
compare "place tod default policy 32 cpu" ovb-place --mode tod "$W/c32" \
	"$W/apps" "$W/p"
cp "$W/n.out" "$W/plan"
compare "check tod default policy 32 cpu" ovb-check --mode tod "$W/c32" \
	"$W/apps" "$W/plan" "$W/p"

if [[ ${TESTS:-} ]]; then
	mkdir "$W/shim"
	cat >"$W/shim/shim" <<'EOS'
#!/bin/bash
t=$(basename "$0")
d=$(mktemp -d "$SHIM_DIR/run.XXXXXX")
if [ -t 0 ]; then : >"$d/in"; else cat >"$d/in"; fi
out=
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	case ${args[i]} in
	-o|--keep|--output) out=${args[i+1]} ;;
	--output=*|--keep=*) out=${args[i]#*=} ;;
	/dev/fd/*) cat "${args[i]}" >"$d/fd$i"; args[i]=$d/fd$i ;;
	esac
done
set -- "${args[@]}"
OVB_GNUPLOT=gnuplot "$B_OLD/$t" "$@" <"$d/in" >"$d/o.out" 2>"$d/o.err"; os=$?
if [ -n "$out" ] && [ -e "$out" ]; then mv "$out" "$d/o.file"; fi
"$B_NEW/$t" "$@" <"$d/in" >"$d/n.out" 2>"$d/n.err"; ns=$?
v=same
cmp -s "$d/o.out" "$d/n.out" && cmp -s "$d/o.err" "$d/n.err" &&
	[ $os = $ns ] || v=DIFFERENT
if [ -n "$out" ] && { [ -e "$d/o.file" ] || [ -e "$out" ]; }; then
	diff -r "$d/o.file" "$out" >/dev/null 2>&1 || v=DIFFERENT
fi
echo "$v $t $*" >>"$SHIM_DIR/log"
cat "$d/n.out"; cat "$d/n.err" >&2
rm -rf "$d"
exit $ns
EOS
	chmod +x "$W/shim/shim"
	for t in ovb-place ovb-check ovb-report ovb-usage ovb-profile \
	    ovb-backtest; do
		ln -s shim "$W/shim/$t"
	done
	: >"$W/shim/log"
	if SHIM_DIR=$W/shim B_OLD=$B_OLD B_NEW=$B_NEW \
	    PATH="$W/shim:$B_NEW:$PATH" OVB_ROOT=$ROOT OVB_BUILD=$ROOT/build \
	    bats t/0321-check-tod.bats t/0339-backtest-hindsight.bats \
	    t/0645-report-tod.bats >"$W/bats.out" 2>&1; then
		echo "same tests: $(grep -c '^ok' "$W/bats.out") pass"
	else
		echo "DIFFERENT tests: failures"; grep '^not ok' "$W/bats.out"
		bad=1
	fi
	n=$(wc -l <"$W/shim/log")
	if grep -q '^DIFFERENT' "$W/shim/log"; then
		grep '^DIFFERENT' "$W/shim/log"
		bad=1
	fi
	echo "== tests: $n runs, $(grep -c '^same' "$W/shim/log") same ($(grep -c -- '--mode tod\|-m [a-z,]*tod' "$W/shim/log") of them in the tod mode)"
fi
exit $bad
