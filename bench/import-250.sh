#!/bin/sh
# bench/import-250.sh [WORKDIR]: ovb-import --bitbrains of the 250-VM
# Bitbrains set (../shared/data/bitbrains-rnd-250: 750 .csv.gz files, 0.74
# GB of CSV) against the peer a user would otherwise write,
# bench/import-peer.py (python3's csv and gzip modules, the same rules),
# side by side in one run.  Both outputs are compared first (cmp: the
# peer writes the same bytes).  Figures: wall time, CPU time (user +
# system, gzip's included: bench/measure.py counts the children), peak
# resident memory; best of REPEAT (default 3; the peer once).  BASE=PATH
# times another ovb-import binary too (e.g. main's, built elsewhere) and
# checks that it writes the same bytes.  JOBS="1 2" also times -j 1 and
# -j 2.  The load average is printed before and after: the machine may be
# shared, and wall time on a busy machine is not the tool's.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PATH=$ROOT/bin:$PATH
export PATH
BB=${BB:-$ROOT/../shared/data/bitbrains-rnd-250}
REPEAT=${REPEAT:-3}
W=${1:-$(mktemp -d)}
mkdir -p "$W"
[ -d "$BB/2013-7" ] || { echo "import-250.sh: no traces at $BB" >&2; exit 66; }
set -- "$BB"/2013-*/*.csv.gz
echo "input: $# files, $(cat "$@" | wc -c) bytes gzip, $(gzip -dc "$@" | wc -c) bytes of CSV"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
ovb-import -q --bitbrains "$@" -o "$W/ovb.series"
python3 "$ROOT/bench/import-peer.py" "$@" >"$W/peer.series"
cmp "$W/ovb.series" "$W/peer.series"
echo "outputs: the same $(wc -c <"$W/ovb.series") bytes (ovb-import, peer)"
if [ -n "${BASE:-}" ]; then
	"$BASE" -q --bitbrains "$@" -o "$W/base.series"
	cmp "$W/ovb.series" "$W/base.series"
	echo "BASE writes the same bytes"
fi
M=$ROOT/bench/measure.py
ovb=$(python3 "$M" "$REPEAT" ovb-import -q --bitbrains "$@" -o "$W/ovb.series")
echo "ovb-import -o FILE:      $ovb"
out=$(python3 "$M" "$REPEAT" sh -c 'ovb-import -q --bitbrains "$@" >"$0"' "$W/ovb2.series" "$@")
echo "ovb-import >FILE:        $out"
for j in ${JOBS:-}; do
	r=$(python3 "$M" "$REPEAT" ovb-import -j "$j" -q --bitbrains "$@" -o "$W/ovb.series")
	echo "ovb-import -j $j -o FILE: $r"
done
if [ -n "${BASE:-}" ]; then
	base=$(python3 "$M" 1 "$BASE" -q --bitbrains "$@" -o "$W/base.series")
	echo "BASE -o FILE:            $base"
fi
peer=$(python3 "$M" 1 python3 "$ROOT/bench/import-peer.py" "$@")
echo "peer (python3 csv):      $peer"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$ovb" "$peer" <<'PY'
import sys
def parse(s):
    return dict(kv.split('=') for kv in s.split())
a, b = parse(sys.argv[1]), parse(sys.argv[2])
print('ratio (peer / ovb-import): %.1fx CPU, %.1fx wall, %.1fx memory' % (
    float(b['cpu']) / float(a['cpu']), float(b['seconds']) / float(a['seconds']),
    float(b['maxrss_kb']) / float(a['maxrss_kb'])))
PY
