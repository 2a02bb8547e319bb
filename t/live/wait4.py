#!/usr/bin/env python3
"""wait4.py OUT COMMAND [ARG...]: runs COMMAND as a child and writes to
OUT "pid PID" and "cpu_ns NS", NS the CPU time (user + system) wait4(2)
reports for it and the children it waited for: the kernel's accounting
of the process tree.  It reaps COMMAND as burn.py reaps, once its last
run has left its CPU, so that the run is in the figure (burn.py says
why).  Exits with the command's status."""
import os
import sys

from burn import reap

out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
_, status, ru = reap(pid)
with open(out, "w") as f:
    f.write("pid %d\ncpu_ns %d\n" % (
        pid, round((ru.ru_utime + ru.ru_stime) * 1e9)))
sys.exit(os.waitstatus_to_exitcode(status))
