"""onoff.py: a small independent reader of ovb-onoff files, for the test
oracles (python3 standard library only).  No validation beyond what the
oracles need: the files come from ovb's own tests."""

import sys


class Capsule:
    def __init__(self, name):
        self.name = name
        self.busy = []          # (start, end, ncpu), ns
        self.send = []          # (t, bytes)
        self.recv = []


class Trace:
    def __init__(self):
        self.cpus = 0
        self.t0 = self.t1 = 0
        self.caps = {}          # name -> Capsule, in file order
        self.gaps = []          # (start, end), closed, ns

    def xfers(self, res):
        return lambda c: c.send if res == "net" else c.recv


def read(path):
    tr = Trace()
    with open(path) as f:
        lines = [l.split("#", 1)[0].split() for l in f]
    for tok in lines:
        if not tok or tok[0].startswith("ovb-"):
            continue
        kw, a = tok[0], tok[1:]
        if kw == "cpus":
            tr.cpus = int(a[0])
        elif kw == "span":
            tr.t0, tr.t1 = int(a[0]), int(a[1])
        elif kw == "capsule":
            tr.caps[a[0]] = Capsule(a[0])
        elif kw == "busy":
            tr.caps[a[0]].busy.append((int(a[1]), int(a[2]), int(a[3])))
        elif kw in ("send", "recv"):
            getattr(tr.caps[a[0]], kw).append((int(a[1]), int(a[2])))
        elif kw == "gap":
            tr.gaps.append((int(a[0]), int(a[1])))
        else:
            sys.exit("onoff.py: %s: unknown record %s" % (path, kw))
    return tr


def transfers(cap, res):
    return cap.send if res == "net" else cap.recv
