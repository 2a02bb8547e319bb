#!/bin/sh
# bench/onoff.sh: ovb-onoff against perf script on the same perf.data of at
# least 1M sched_switch events, side by side in one run (CPU time, best of 3), and ovb-onoff's
# peak memory on a trace and on its first half (it must not grow with the
# trace's length), and both on a trace a tenth as long (the growth).
# Needs root (or perf_event_paranoid <= -1) to record.
# Usage: bench/onoff.sh [LOOPS]   (default 700000 ping-pong loops)
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"
loops=${1:-700000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# a context-switch-heavy load: two tasks ping-ponging over a pipe
perf record -q -a -e sched:sched_switch -o "$dir/big.data" -- \
	perf bench sched pipe -l "$loops" >/dev/null 2>&1
perf record -q -a -e sched:sched_switch -o "$dir/half.data" -- \
	perf bench sched pipe -l "$((loops / 2))" >/dev/null 2>&1
perf record -q -a -e sched:sched_switch -o "$dir/tenth.data" -- \
	perf bench sched pipe -l "$((loops / 10))" >/dev/null 2>&1
events=$(perf script -i "$dir/big.data" -F event 2>/dev/null | grep -c sched_switch)
half=$(perf script -i "$dir/half.data" -F event 2>/dev/null | grep -c sched_switch)
tenth=$(perf script -i "$dir/tenth.data" -F event 2>/dev/null | grep -c sched_switch)

onoff="ovb-onoff --max-uncertainty=any -q -c pipe=comm:^sched-pipe$ -c all=comm:."
o=$(python3 bench/measure.py 3 $onoff "$dir/big.data")
p=$(python3 bench/measure.py 3 perf script -i "$dir/big.data")
h=$(python3 bench/measure.py 3 $onoff "$dir/half.data")
ot=$(python3 bench/measure.py 3 $onoff "$dir/tenth.data")
pt=$(python3 bench/measure.py 3 perf script -i "$dir/tenth.data" 2>/dev/null)
# the figure is CPU time (user + system, best of 3): a loaded machine
# inflates wall time, not CPU time; wall time is shown beside it
os=${o#seconds=}; os=${os%% *}
ps=${p#seconds=}; ps=${ps%% *}
oc=${o##*cpu=}
pc=${p##*cpu=}
echo "trace: $events sched_switch events ($(du -h "$dir/big.data" | cut -f1)); half: $half; tenth: $tenth"
echo "ovb-onoff:   $o"
echo "perf script: $p"
echo "ovb-onoff on the half-length trace: $h"
echo "ovb-onoff on the tenth-length trace:   $ot"
echo "perf script on the tenth-length trace: $pt"
python3 -c "print('speed-up: %.1fx in CPU time, %.1fx in wall time' % ($pc / $oc, $ps / $os))"
python3 -c "print('growth of CPU time from the tenth to the full trace (%.1fx the events): ovb-onoff %.1fx, perf script %.1fx' % ($events / $tenth, $oc / ${ot##*cpu=}, $pc / ${pt##*cpu=}))"
