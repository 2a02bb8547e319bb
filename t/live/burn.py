#!/usr/bin/env python3
"""burn.py: a known CPU load with the kernel's own accounting of it.

Forks a coordinator process that forks N workers; each worker burns CPU for
SECONDS of wall time, and the coordinator sleeps a little between starting
them so that the capsule's concurrency varies.  With ON:OFF (milliseconds)
a worker is duty-cycled: it spins ON ms, sleeps OFF ms, and so on, so that
its CPU goes idle between runs (the case where a kernel that drops the idle
task's switches hides when each run began).  With CPUS (e.g. 1 or 0,1)
worker i is pinned to the (i mod k)-th CPU of the list.  The coordinator
waits for its workers, and this script waits for the coordinator with
wait4(2), whose resource usage is the kernel's accounting of the
coordinator and the workers it reaped, exit paths included (user + system
time, microseconds).  A child's rusage is read when its parent reaps it,
and a parent woken by the child's exit may reap it before the child's
last run ends on another CPU: the kernel's figure would then miss what
that run is charged after the read (a few us; once 6 us in t/0120).  So
every parent waits for its child with WNOWAIT, leaves it REAP_DELAY s to
leave its CPU, and only then reaps it.  It prints

    pid COORDINATOR_PID
    cpu_ns TOTAL_NS

Usage: burn.py [SECONDS [N [ON:OFF [CPUS]]]]"""
import os
import sys
import time

REAP_DELAY = 0.05   # s: far beyond what CFS keeps a runnable task waiting


def reap(pid):
    """Reap child pid once it has surely left its CPU: os.wait4's
    (pid, status, rusage).  (wait4.py reaps with it too.)"""
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    time.sleep(REAP_DELAY)
    return os.wait4(pid, 0)


def spin(seconds):
    end = time.monotonic() + seconds
    x = 0
    while time.monotonic() < end:
        x += 1


def duty(seconds, on, off):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        spin(on)
        time.sleep(off)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    on = off = 0.0
    if len(sys.argv) > 3 and sys.argv[3] != "-":
        on, off = (float(x) / 1000 for x in sys.argv[3].split(":"))
    cpus = [int(c) for c in sys.argv[4].split(",")] if len(sys.argv) > 4 \
        else []
    coord = os.fork()
    if coord == 0:
        kids = []
        for i in range(n):
            pid = os.fork()
            if pid == 0:
                if cpus:
                    os.sched_setaffinity(0, {cpus[i % len(cpus)]})
                if off > 0:
                    duty(seconds, on, off)
                else:
                    spin(seconds)
                os._exit(0)
            kids.append(pid)
            time.sleep(seconds / 3)
        for pid in kids:
            reap(pid)
        os._exit(0)
    ru = reap(coord)[2]
    total = round((ru.ru_utime + ru.ru_stime) * 1e6) * 1000
    print("pid", coord)
    print("cpu_ns", total)


if __name__ == "__main__":
    main()
