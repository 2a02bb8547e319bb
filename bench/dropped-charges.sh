#!/bin/bash
# dropped-charges.sh [-m PAGES] [-k DIR]: how issue 30's cause was shown.
# One recording of bench/nginx-busy.sh's setup (nginx pinned to CPU 0 under
# wrk on CPU 1) by ovb-capture --mmap-pages PAGES (default 128: perf's own
# 512 KiB; ovb-capture's default is larger), with a tracefs instance
# recording sched_stat_runtime, sched_switch, sched_wakeup and
# irq_work_entry/exit beside it (mono clock), and the /proc/PID/schedstat of
# nginx's master and workers read after wrk ends.  bench/dropped_charges.py
# then prints, per process, schedstat's run time, the sum of tracefs's
# charges and of perf's up to that moment, and where the charges perf lacks
# were raised (inside an irq_work that woke perf, or elsewhere).  Root;
# holds /tmp/ovb-perf.lock while it records.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PATH=$here/bin:$PATH
pages=128 keep=
while getopts m:k: o; do
	case $o in
	m) pages=$OPTARG ;;
	k) keep=$OPTARG ;;
	*) exit 64 ;;
	esac
done
keep=${keep:-$(mktemp -d /tmp/ovb-dropped.XXXXXX)}
port=${OVB_NGINX_PORT:-18082}
. "$here/bench/nginx-site.sh"
nginx_site "$keep" "$port"
# the recorded command: nginx, the load, its processes' schedstat, a quit
cat >"$keep/run.sh" <<RUN
#!/bin/bash
taskset -c 0 nginx -c $keep/nginx.conf -p $keep &
w=\$!
for _ in \$(seq 100); do
	(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
	sleep 0.05
done
taskset -c 1 wrk -t1 -c4 -d2s http://127.0.0.1:$port/index.html >$keep/wrk.out 2>&1
sleep 0.2
m=\$(cat $keep/nginx.pid)
python3 $here/bench/dropped_charges.py --snapshot \$m >$keep/snap
kill -QUIT "\$m"
wait \$w
RUN
chmod +x "$keep/run.sh"
I=/sys/kernel/tracing/instances/ovb-dropped
record() {
	mkdir -p $I
	echo mono >$I/trace_clock
	echo 65536 >$I/buffer_size_kb
	local e
	for e in sched/sched_stat_runtime sched/sched_switch sched/sched_wakeup \
		irq_vectors/irq_work_entry irq_vectors/irq_work_exit; do
		echo 1 >"$I/events/$e/enable"
	done
	ovb-capture -q --mmap-pages "$pages" -o "$keep/t.data" -- "$keep/run.sh" || true
	for e in sched/sched_stat_runtime sched/sched_switch sched/sched_wakeup \
		irq_vectors/irq_work_entry irq_vectors/irq_work_exit; do
		echo 0 >"$I/events/$e/enable"
	done
	cat $I/trace >"$keep/tracefs.txt"
	grep -h -E 'overrun|dropped' $I/per_cpu/cpu*/stats >"$keep/tracefs.stats"
	rmdir $I
}
export -f record
export I keep pages
flock /tmp/ovb-perf.lock bash -c record
echo "# traces kept in $keep; ovb-capture --mmap-pages $pages"
python3 "$here/bench/dropped_charges.py" "$keep/tracefs.txt" "$keep/t.data" "$keep/snap"
