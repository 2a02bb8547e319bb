#!/usr/bin/env python3
"""contend.py SECONDS BURNERS [ON:OFF]: a CPU-bound worker pinned to CPU 0
beside BURNERS busy loops pinned to the same CPU (its siblings), for
SECONDS of wall time; with ON:OFF (milliseconds) the worker spins ON ms,
sleeps OFF ms, and so on (so that it waits for the CPU after wake-ups).  Prints the worker's pid and, from its /proc/self/schedstat at
its end (the kernel's accounting: time on a CPU, time runnable waiting on
a run queue):

    pid PID
    cpu_ns NS
    run_delay_ns NS"""
import os
import sys
import time


def spin(until):
    while time.monotonic() < until:
        pass


def duty(until, on, off):
    while time.monotonic() < until:
        spin(min(until, time.monotonic() + on))
        if time.monotonic() < until:
            time.sleep(off)


def main():
    secs, n = float(sys.argv[1]), int(sys.argv[2])
    os.sched_setaffinity(0, {0})
    end = time.monotonic() + secs
    kids = []
    for _ in range(n):          # the burners: siblings of the worker
        pid = os.fork()
        if pid == 0:
            spin(end + 0.2)
            os._exit(0)
        kids.append(pid)
    r, w = os.pipe()
    worker = os.fork()
    if worker == 0:
        if len(sys.argv) > 3:
            on, off = (float(x) / 1000 for x in sys.argv[3].split(":"))
            duty(end, on, off)
        else:
            spin(end)
        with open("/proc/self/schedstat") as f:
            os.write(w, f.read().encode())
        os._exit(0)
    os.close(w)
    exec_ns, delay_ns, _ = map(int, os.read(r, 256).split())
    for pid in kids + [worker]:
        os.waitpid(pid, 0)
    print("pid", worker)
    print("cpu_ns", exec_ns)
    print("run_delay_ns", delay_ns)


if __name__ == "__main__":
    main()
