#!/bin/sh
# bench/trade.sh [WORKDIR]: ovb-trade on the Sharc paper's scenarios and
# at scale, the numbers in bench/README.md (section ovb-trade).  Needs
# bin/ (make) and /usr/bin/python3.  SIZE="1000 8640" sets the speed
# case (capsules, 5-minute intervals; default one month); SIZE=skip
# leaves it out (it writes about 500 MB into WORKDIR).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATH=$ROOT/bin:$PATH
export PATH
W=${1:-$(mktemp -d)}
mkdir -p "$W"
GEN="/usr/bin/python3 $ROOT/t/gen/trade.py"
D=$ROOT/t/data

# next FILE CAPSULE T: the allocation given to CAPSULE at the end of [T, T+I)
next() {
	awk -v c="$2" -v t="$3" '$1 == "at" { at = $2 } $1 == "c" && $2 == c && at == t { print $7 }' "$1"
}
# recovery FILE CAPSULE FROM R: intervals from FROM until CAPSULE's next
# allocation is R again ("never" within the file)
recovery() {
	awk -v c="$2" -v f="$3" -v r="$4" '$1 == "at" { at = $2 }
		$1 == "c" && $2 == c && at >= f && $7 + 0 >= r && !d { d = 1; print (at - f) / (at - prev > 0 ? 1 : 1) }
		$1 == "at" { prev = at }
		END { if (!d) print "never" }' "$1" | head -1
}
# steps FILE CAPSULE FROM R I: recovery in intervals of I s
steps() {
	x=$(recovery "$1" "$2" "$3" "$4")
	[ "$x" = never ] && echo never || echo $((x / $5 + 1))
}

echo "== section 6.4: streaming, 2 capsules x 4 Mb/s, s1 needs 4.5, s2 uses 3 (I = 5 s, capped)"
for n1 in all borrowers; do
	ovb-trade -r net --enforce capped --n1 "$n1" --check "$D/trade-stream.cluster" "$D/trade-stream.apps" "$D/trade-stream.series" >"$W/s.$n1"
	echo "  trading, N1 $n1: s1 after one interval $(next "$W/s.$n1" s1 0) B/s; then $(next "$W/s.$n1" s1 5) $(next "$W/s.$n1" s1 10) $(next "$W/s.$n1" s1 15)"
done
sed 's/trade=yes/trade=no/' "$D/trade-stream.apps" >"$W/notrade.apps"
ovb-trade -r net --enforce capped --check "$D/trade-stream.cluster" "$W/notrade.apps" "$D/trade-stream.series" >"$W/s.no"
echo "  no trading: s1 $(next "$W/s.no" s1 0) $(next "$W/s.no" s1 5) $(next "$W/s.no" s1 10) B/s"

echo "== Table 2 / Fig. 6: node 3 (Summarizer 20%, Scientific 30%, Disksim 50% from 36 min); Scientific's N2 capsule idle 25-38 min"
mkdir -p "$W/t2"
$GEN table2 "$W/t2"
for e in work-conserving capped; do
	for r in paper fix; do
		for n1 in all borrowers; do
			o=$W/t2/$e.$r.$n1
			ovb-trade --enforce "$e" --reclaim "$r" --n1 "$n1" --check "$W/t2/cluster" "$W/t2/apps" "$W/t2/series" >"$o"
			printf '  %-15s %-5s N1 %-9s Sci-N3 @24 %s @30 %s @36 %s; N3 sum @36 %s; Sci-N2 @37 %s, back to 0.2 after %s interval(s) from 38 min\n' \
				"$e" "$r" "$n1" "$(next "$o" Scientific-N3 1440)" "$(next "$o" Scientific-N3 1800)" \
				"$(next "$o" Scientific-N3 2160)" \
				"$(awk '$1 == "at" { at = $2 } $1 == "n" && $2 == "N3" && at == 2160 { print $4 }' "$o")" \
				"$(next "$o" Scientific-N2 2220)" "$(steps "$o" Scientific-N2 2280 0.2 60)"
		done
		cmp -s "$W/t2/$e.$r.all" "$W/t2/$e.$r.borrowers" && same=identical || same=different
		[ "$(sed 1,3d "$W/t2/$e.$r.all" | md5sum)" = "$(sed 1,3d "$W/t2/$e.$r.borrowers" | md5sum)" ] && same=identical || same=different
		echo "    N1 all vs borrowers: intervals $same"
	done
done
set +e
ovb-trade --no-step4 --check "$W/t2/cluster" "$W/t2/apps" "$W/t2/series" >"$W/t2/no4" 2>"$W/t2/no4.err"
echo "  without Step 4 (exit $?): $(cat "$W/t2/no4.err")"
set -e
echo "    node-intervals over capacity: $(awk '$1 == "node" { c[$2] = $3 } $1 == "n" && $4 > c[$2] * (1 + 1e-9) { n++ } END { print n + 0 }' "$W/t2/no4"),"\
" application-intervals over R_i: $(awk '$1 == "a" && $3 < -1e-9 { n++ } END { print n + 0 }' "$W/t2/no4")"

echo "== starvation: R = 0.5 cpu, idle one interval then busy (I = 60 s, capped)"
mkdir -p "$W/st0" "$W/st1"
$GEN starve "$W/st0" --n 80
$GEN starve "$W/st1" --n 80 --lb 0.005
for r in paper fix; do
	ovb-trade --enforce capped --reclaim "$r" --check "$W/st0/cluster" "$W/st0/apps" "$W/st0/series" >"$W/st0/$r"
	ovb-trade --enforce capped --reclaim "$r" --check "$W/st1/cluster" "$W/st1/apps" "$W/st1/series" >"$W/st1/$r"
	echo "  $r: from A = 0: $(steps "$W/st0/$r" x 60 0.5 60) intervals; from LB = 0.01 R: $(steps "$W/st1/$r" x 60 0.5 60) intervals"
done
ovb-trade --check "$W/st0/cluster" "$W/st0/apps" "$W/st0/series" >"$W/st0/wc"
echo "  paper, work-conserving: from A = 0: $(steps "$W/st0/wc" x 60 0.5 60) interval(s)"

SIZE=${SIZE:-1000 8640}
if [ "$SIZE" != skip ]; then
	set -- $SIZE
	echo "== speed: $1 capsules x $2 intervals of 300 s"
	mkdir -p "$W/big"
	$GEN large "$1" "$2" "$W/big"
	for r in "" "--enforce capped --reclaim fix"; do
		rm -f "$W/big/out"    # replacing a 671 MB file costs its eviction
		# shellcheck disable=SC2086
		/usr/bin/time -f '  wall %e s, CPU user %U s + sys %S s, max RSS %M kB' ovb-trade -v $r -o "$W/big/out" "$W/big/cluster" "$W/big/apps" "$W/big/series" 2>&1 | sed 's/^ovb-trade: /  /'
	done
	echo "  output $(wc -c <"$W/big/out") bytes"
fi
