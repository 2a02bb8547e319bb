#!/usr/bin/env python3
"""measure.py: run a command REPEAT times, report its best wall time,
peak resident memory (ru_maxrss of the child) and best CPU time (user +
system: what a loaded machine does not inflate).  stdout of the command goes
to /dev/null.  Usage: measure.py REPEAT COMMAND [ARG...]
Prints: seconds=S maxrss_kb=K cpu=C"""
import os
import resource
import subprocess
import sys
import time


def main():
    repeat = int(sys.argv[1])
    cmd = sys.argv[2:]
    best = cpu = None
    rss = 0
    for _ in range(repeat):
        t = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.execvp(cmd[0], cmd)
        _, status, ru = os.wait4(pid, 0)
        dt = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("measure.py: %s failed" % " ".join(cmd))
        best = dt if best is None else min(best, dt)
        c = ru.ru_utime + ru.ru_stime
        cpu = c if cpu is None else min(cpu, c)
        rss = max(rss, ru.ru_maxrss)
    print("seconds=%.3f maxrss_kb=%d cpu=%.3f" % (best, rss, cpu))


if __name__ == "__main__":
    main()
