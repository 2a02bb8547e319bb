#!/usr/bin/env python3
"""dropped_charges.py --snapshot MASTER_PID: prints `time T` (CLOCK_MONOTONIC
ns) and, for the process MASTER_PID and its children, `pid P schedstat NS`
(the first field of /proc/P/schedstat: its time on a CPU).

dropped_charges.py TRACEFS.TXT PERF.DATA SNAPSHOT: for each process of the
snapshot, its schedstat run time against the sum of the
sched:sched_stat_runtime charges to it up to the snapshot's time, as a
tracefs instance recorded them (TRACEFS.TXT, the instance's `trace`, mono
clock) and as perf did (PERF.DATA, read with `perf script`); and, for the
charges tracefs has and perf lacks (matched by task and runtime), where
they were raised: inside an irq_work (irq_work_entry .. irq_work_exit on
that CPU) that woke perf (a sched_wakeup of comm perf in it), inside one
that did not, or outside any.  bench/dropped-charges.sh runs it."""
import collections
import os
import re
import subprocess
import sys


def snapshot(master):
    pids = [master]
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            st = open("/proc/%s/stat" % p).read()
        except OSError:
            continue
        if int(st[st.rindex(")") + 2:].split()[1]) == master:
            pids.append(int(p))
    print("time", __import__("time").clock_gettime_ns(
        __import__("time").CLOCK_MONOTONIC))
    for p in pids:
        print("pid", p, "schedstat", open("/proc/%d/schedstat" % p).read().split()[0])


RUNTIME = re.compile(r"\bpid=(\d+) runtime=(\d+)")
TRACEFS = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)")


def compare(tracefs, data, snap):
    t_snap, pids = None, {}
    for line in open(snap):
        f = line.split()
        if f[0] == "time":
            t_snap = int(f[1])
        else:
            pids[int(f[1])] = int(f[3])
    out = subprocess.run(["perf", "script", "-f", "-i", data, "--ns", "-F",
                          "time,event,trace"], capture_output=True,
                         text=True, errors="replace", check=True).stdout
    in_perf = collections.Counter()
    perf_sum = collections.Counter()
    stamp = re.compile(r"(\d+)\.(\d{9}):")
    for line in out.splitlines():
        if "sched_stat_runtime" not in line:
            continue
        m, r = stamp.search(line), RUNTIME.search(line)
        t = int(m.group(1)) * 10**9 + int(m.group(2))
        key = (int(r.group(1)), int(r.group(2)))
        in_perf[key] += 1
        if key[0] in pids and t <= t_snap:
            perf_sum[key[0]] += key[1]
    ft_sum = collections.Counter()
    where = collections.Counter()
    where_ns = collections.Counter()
    inside = {}          # cpu -> [missing runtimes], woke perf
    for line in open(tracefs):
        m = TRACEFS.match(line)
        if not m:
            continue
        cpu, ev = int(m.group(3)), m.group(7)
        t = int(m.group(5)) * 10**9 + int(m.group(6).ljust(9, "0"))
        if ev == "irq_work_entry":
            inside[cpu] = [[], False]
        elif ev == "irq_work_exit" and cpu in inside:
            miss, woke = inside.pop(cpu)
            for r in miss:
                k = "in an irq_work that woke perf" if woke else \
                    "in an irq_work that did not wake perf"
                where[k] += 1
                where_ns[k] += r
        elif ev == "sched_wakeup" and cpu in inside and \
                re.search(r"comm=perf\b", m.group(8)):
            inside[cpu][1] = True
        elif ev == "sched_stat_runtime":
            r = RUNTIME.search(m.group(8))
            key = (int(r.group(1)), int(r.group(2)))
            if in_perf[key]:
                in_perf[key] -= 1
                if key[0] in pids and t <= t_snap:
                    ft_sum[key[0]] += key[1]
                continue
            if key[0] not in pids or t > t_snap:
                continue
            ft_sum[key[0]] += key[1]
            if cpu in inside:
                inside[cpu][0].append(key[1])
            else:
                where["outside any irq_work"] += 1
                where_ns["outside any irq_work"] += key[1]
    print("# %7s %14s %14s %14s %9s" % ("pid", "schedstat_ns", "tracefs_ns",
                                       "perf_ns", "perf_rel"))
    for p in sorted(pids):
        print("  %7d %14d %14d %14d %8.3f%%" % (
            p, pids[p], ft_sum[p], perf_sum[p],
            100.0 * (perf_sum[p] - pids[p]) / pids[p] if pids[p] else 0))
    for k in sorted(where):
        print("# charges perf lacks, %s: %d (%d ns)" % (k, where[k], where_ns[k]))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--snapshot":
        snapshot(int(sys.argv[2]))
    elif len(sys.argv) == 4:
        compare(*sys.argv[1:])
    else:
        sys.exit("usage: dropped_charges.py --snapshot PID | TRACEFS PERF.DATA SNAPSHOT")
