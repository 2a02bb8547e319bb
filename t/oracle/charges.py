#!/usr/bin/env python3
"""charges.py PERF.DATA NAME=SEL...: the CPU time the kernel charged each
capsule within a trace, read with `perf script` (independently of
formats/perfdata.c and ovb-onoff).

Every sched:sched_stat_runtime event charges the task `pid=` the CPU time
`runtime=` ns it ran up to the event, so it covers [T - runtime, T]; that
interval is clipped to the trace's span [first sample, last sample] (what
a charge says of the time before the trace began is not in it).  A task
belongs to the capsule its process does when it is charged: SEL is
`comm:REGEX` (the process's command name, that of its main thread, from
the COMM records; a forked process starts with its parent's) or `pid:N`
(process N and the processes it forks, from the FORK records).

A run the trace has no charge of (a task switched in and out again on a
CPU with no sched_stat_runtime of it in between: perf dropped them)
counts from its switch in (or the span's start, when it ran when the
trace began) to its switch out, or to where the kernel began charging the
task after it on that CPU if that is earlier: that task's switch out
less what it was charged since it last left a CPU (the kernel charges a
woken task from its enqueue, and stops charging the one it displaces).

Prints `NAME CHARGED_NS EVENTS` per capsule, and `span T0 T1`; exits 2
when the trace has no sched_stat_runtime events."""
import re
import subprocess
import sys

HEAD = re.compile(r"^\s*(.*?)\s+(-?\d+)/(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(.*)$")
RUNTIME = re.compile(r"sched:sched_stat_runtime:.*\bpid=(\d+) runtime=(\d+)")
SWITCH = re.compile(r"sched:sched_switch:.* prev_pid=(\d+) .*==> .* next_pid=(\d+) ")
FORK = re.compile(r"^PERF_RECORD_FORK\((\d+):(\d+)\):\((\d+):(\d+)\)")
COMM = re.compile(r"^PERF_RECORD_COMM(?: exec)?: (.*):(\d+)/(\d+)$")


def main():
    data, sels = sys.argv[1], []
    for arg in sys.argv[2:]:
        name, _, sel = arg.partition("=")
        kind, _, text = sel.partition(":")
        sels.append((name, kind, re.compile(text) if kind == "comm"
                     else int(text)))
    out = subprocess.run(
        ["perf", "script", "-f", "-i", data, "--ns", "--show-task-events",
         "-F", "comm,pid,tid,cpu,time,event,trace"],
        capture_output=True, text=True, errors="replace", check=True).stdout
    tgid, comm, parent = {}, {}, {}
    history = {}         # pid -> [(since, process name)]
    events = []          # (time, line order, pid, process name, runtime)
    switches = []        # (time, line order, cpu, prev, next, pid, name)
    runtimes = []        # events, with the task charged
    t0 = t1 = None
    for i, line in enumerate(out.splitlines()):
        m = HEAD.match(line)
        if not m:
            continue
        rest = m.group(7)
        t = int(m.group(5)) * 10**9 + int(m.group(6))
        f = FORK.match(rest)
        if f:
            pid, tid, ppid = int(f.group(1)), int(f.group(2)), int(f.group(3))
            tgid[tid] = pid
            if pid == tid:
                parent[pid] = ppid
                comm[pid] = comm.get(ppid, "")
                history[pid] = [(0, comm[pid])]
            continue
        c = COMM.match(rest)
        if c:
            pid, tid = int(c.group(2)), int(c.group(3))
            tgid[tid] = pid
            if pid == tid:
                comm[pid] = c.group(1)
                history.setdefault(pid, []).append((t, comm[pid]))
            continue
        if rest.startswith("PERF_RECORD"):
            continue
        t0 = t if t0 is None else min(t0, t)
        t1 = t if t1 is None else max(t1, t)
        tgid.setdefault(int(m.group(3)), int(m.group(2)))
        w = SWITCH.match(rest)
        if w:
            prev, nxt = int(w.group(1)), int(w.group(2))
            switches.append((t, i, int(m.group(4)), prev, nxt,
                             tgid.get(prev, prev), comm.get(tgid.get(prev, prev), "")))
            continue
        r = RUNTIME.match(rest)
        if r:
            # the process's name as of this charge: decided in this pass
            tid = int(r.group(1))
            pid = tgid.get(tid, tid)
            events.append((t, i, pid, comm.get(pid, ""), int(r.group(2))))
            runtimes.append((t, i, pid, comm.get(pid, ""), int(r.group(2)), tid))
    if not events:
        print("no sched_stat_runtime events", file=sys.stderr)
        sys.exit(2)

    def descends(pid, root):
        for _ in range(4096):
            if pid == root:
                return True
            if pid not in parent:
                return False
            pid = parent[pid]
        return False

    def capsule(pid, name_of):
        for name, kind, what in sels:
            if (what.search(name_of) is not None if kind == "comm"
                    else descends(pid, what)):
                return name
        return None

    total = {name: [0, 0] for name, _, _ in sels}
    for t, _, pid, name_of, r in sorted(events):
        # a process renamed (exec, prctl) while it was charged is the
        # capsule of each name for the part of the charge it had it
        a, b = max(t - r, t0), min(t, t1)
        names = [(since, n) for since, n in history.get(pid, [(0, name_of)])
                 if since <= t]
        counted = False
        for j, (since, n) in enumerate(names):
            until = names[j + 1][0] if j + 1 < len(names) else b
            lo, hi = max(a, since), min(b, until)
            name = capsule(pid, n)
            if name and hi > lo:
                total[name][0] += hi - lo
            if name and j == len(names) - 1:
                counted = True
        if counted:
            total[capsule(pid, names[-1][1])][1] += 1
    # runs with no charge: per task, the times it was charged
    bytid = {}
    for line_t, tid in ((e[0], e[5]) for e in runtimes):
        bytid.setdefault(tid, []).append(line_t)
    charged = {}         # tid -> [(time, runtime)]
    for e in runtimes:
        charged.setdefault(e[5], []).append((e[0], e[4]))
    ordered = sorted(switches)
    outs = {}            # tid -> its switch-out times, any CPU
    for t, _, cpu, prev, nxt, pid, name_of in ordered:
        outs.setdefault(prev, []).append(t)

    after, seen = {}, {}  # switch -> the next switch on its CPU
    for k in range(len(ordered) - 1, -1, -1):
        cpu = ordered[k][2]
        if cpu in seen:
            after[k] = seen[cpu]
        seen[cpu] = k

    def charged_from(tid, t, cpu, k):
        """Where the kernel began charging tid, switched in on cpu at t
        (switch k): its switch out there less its charges since it last
        left a CPU; None when it does not leave that CPU in the trace."""
        j = after.get(k)
        if tid <= 0 or j is None or ordered[j][3] != tid:
            return None
        out = ordered[j][0]
        last = max((x for x in outs.get(tid, ()) if x < t), default=-1)
        c = sum(r for x, r in charged.get(tid, ()) if last < x <= out)
        return out - c if c else None

    cur = {}             # cpu -> (tid, since or None: since the start)
    for k, (t, _, cpu, prev, nxt, pid, name_of) in enumerate(ordered):
        if cpu not in cur or cur[cpu][0] == prev:
            since = cur[cpu][1] if cpu in cur else t0
            name = capsule(pid, name_of) if prev > 0 else None
            if name and not any(since < x <= t for x in bytid.get(prev, ())):
                s = charged_from(nxt, t, cpu, k)
                end = t if s is None or s >= t else max(s, since)
                total[name][0] += end - since
        cur[cpu] = (nxt, t)
    print("span %d %d" % (t0, t1))
    for name, _, _ in sels:
        print("%s %d %d" % (name, total[name][0], total[name][1]))


if __name__ == "__main__":
    main()
