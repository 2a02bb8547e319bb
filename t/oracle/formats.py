"""formats.py: the one Python reader of overbook's formats that the test
oracles share (python3 standard library only).

It reads the formats as formats/*.md define them, independently of the C
readers, and validates only what the oracles rely on: the files come from
ovb's own tests.  Numbers are returned as Python floats (the double a
decimal rounds to), counts and times as ints; where an oracle needs the
decimal itself (exact rationals of a width), the text is kept too.

  records(path)        token lists, comments and the magic line left out
  kind(path)           the format named by the magic line ('onoff', ...)
  blocks(path, opener) {(capsule, res): [records]} in file order
  read_onoff(path)     Trace: cpus, span t0 t1, capsules (busy, send,
                       recv, wait), gaps
  read_dists(paths)    [Dist]: the ovb-usage and ovb-profile blocks
  read_curves(path)    {(capsule, res): {'mean', 'peak', 'pts'}}
  read_series(paths)   {(capsule, res): {'I': seconds, 's': [(t, v)]}}
  read_cluster(path)   {node: {'cpu': C, 'net': C, 'labels': {k: v}}} in file order
  read_apps(paths)     [App] in arrival order (op= left to the caller)
  read_plan(path)      Plan: grid, place, risk, reject records
  read_bitbrains(path) the rows of a Bitbrains CSV file (GWA-T-12)"""

import gzip
import math

RESOURCES = ("cpu", "net", "net-rx")


def hist_bin(x, w):
    """The bin of usage x on bins of width w (formats/usage.md): the least
    k with x <= k w, 0 for x == 0, decided in doubles as the C code does."""
    if not x > 0:
        return 0
    k = max(1, math.ceil(x / w))
    while k > 1 and (k - 1) * w >= x:
        k -= 1
    while k * w < x:
        k += 1
    return k


def records(path):
    """Each record of PATH as its list of fields: a field starting with #
    starts a comment (formats/README.md), blank lines are skipped, and so
    is the magic record (the first field starts with 'ovb-')."""
    with open(path) as f:
        for line in f:
            t = []
            for tok in line.split():
                if tok.startswith("#"):
                    break
                t.append(tok)
            if t and not t[0].startswith("ovb-"):
                yield t


def kind(path):
    """The format of PATH by its magic record ('ovb-series 1' -> 'series'),
    or None."""
    with open(path) as f:
        for line in f:
            t = line.split()
            if t and not t[0].startswith("#"):
                return t[0][4:] if t[0].startswith("ovb-") else None
    return None


def blocks(path, opener):
    """{(capsule, res): [records after the opener]} for every block of
    PATH opened by the record OPENER (usage, profile, curve, series), in
    file order."""
    out, cur = {}, None
    for t in records(path):
        if t[0] == opener:
            cur = []
            out[(t[1], t[2])] = cur
        elif cur is not None:
            cur.append(t)
    return out


# ---- ovb-onoff (formats/onoff.md) ----

class Capsule:
    def __init__(self, name):
        self.name = name
        self.busy = []          # (start, end, ncpu), ns
        self.send = []          # (t, bytes)
        self.recv = []
        self.wait = None        # (PREEMPTED, WOKEN, BUSY, AS) as text, or None

    def transfers(self, res):
        """(t, bytes) of net (sent) or net-rx (received)."""
        return self.send if res == "net" else self.recv


class Trace:
    def __init__(self):
        self.cpus = 0
        self.t0 = self.t1 = 0
        self.caps = {}          # name -> Capsule, in file order
        self.gaps = []          # (start, end), closed, ns
        self.trace = None       # (host, kernel, wall, clock), '-' unknown
        self.measured = None    # the 'measured' record's set, or None

    def was_measured(self, res):
        """formats/onoff.md: the 'measured' record; without one (an
        older file) cpu, and net (net-rx) when some capsule sent
        (received)."""
        if self.measured is not None:
            return res in self.measured
        if res == "cpu":
            return True
        return any(c.transfers(res) for c in self.caps.values())


def read_onoff(path):
    tr = Trace()
    for tok in records(path):
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
        elif kw == "trace":
            tr.trace = tuple(a)
        elif kw == "measured":
            tr.measured = set(a)
        elif kw == "wait":
            tr.caps[a[0]].wait = tuple(a[1:])
        else:
            raise SystemExit("formats.py: %s: unknown onoff record %s"
                             % (path, kw))
    return tr


# ---- ovb-usage and ovb-profile (formats/usage.md, formats/profile.md) ----

class Dist:
    """A usage distribution U: an ovb-usage block, or the U of an
    ovb-profile block with the profile's QoS."""

    def __init__(self, kind_, capsule, res):
        self.kind = kind_       # 'usage' or 'profile'
        self.capsule, self.res = capsule, res
        self.interval = None    # s
        self.width = None       # bin width, a float; width_text its decimal
        self.width_text = None
        self.n = None           # intervals
        self.mean = None
        self.pct = {}           # P -> value, floats
        self.bins = {}          # k -> count, as written (zeros included)
        self.sigma = self.rho = self.tau = self.O = None   # profiles
        self.forecast = None    # s since the epoch: U forecasts up to it
        self.lost = None        # intervals left out for lost events
        self.wait = None        # cpu: (PREEMPTED, WOKEN, BUSY, AS) as text
        self.trace = None       # the trace record's fields, or None
        self.curve = []         # profiles: (sigma, rho) floats
        self.unmeasured = False # the record 'unmeasured': no U
        self.recs = []          # every record of the block, as tokens

    @property
    def key(self):
        return (self.capsule, self.res)


def read_dists(paths):
    """[Dist] of every usage and profile block of PATHS, in input order."""
    if isinstance(paths, str):
        paths = [paths]
    out = []
    for p in paths:
        cur = None
        for t in records(p):
            kw = t[0]
            if kw in ("usage", "profile"):
                cur = Dist(kw, t[1], t[2])
                out.append(cur)
                continue
            cur.recs.append(t)
            if kw == "interval":
                cur.interval = float(t[1])
            elif kw == "width":
                cur.width, cur.width_text = float(t[1]), t[1]
            elif kw == "intervals":
                cur.n = int(t[1])
            elif kw == "mean":
                cur.mean = float(t[1])
            elif kw == "pct":
                cur.pct[float(t[1])] = float(t[2])
            elif kw == "bin":
                cur.bins[int(t[1])] = int(t[2])
            elif kw in ("sigma", "rho", "tau", "O"):
                setattr(cur, kw, float(t[1]))
            elif kw == "curve":
                cur.curve.append((float(t[1]), float(t[2])))
            elif kw == "trace":
                cur.trace = tuple(t[1:])
            elif kw == "forecast":
                cur.forecast = int(t[1])
            elif kw == "lost":
                cur.lost = int(t[1])
            elif kw == "unmeasured":
                cur.unmeasured = True
            elif kw == "wait":
                cur.wait = tuple(t[1:])
    return out


def trace_of(tr):
    """The 'trace HOST KERNEL START LENGTH s' fields a usage, profile or
    curve block made from onoff trace tr carries (formats/usage.md): the
    start is the wall-clock time of T0, WALL + (T0 - CLOCK) ns, in UTC."""
    import datetime
    if tr.trace is None:
        return None
    host, kernel, wall, clock = tr.trace
    start = "-"
    if wall != "-":
        ns = int(wall) + tr.t0 - int(clock)
        d = datetime.datetime(1970, 1, 1) + datetime.timedelta(
            seconds=ns // 10**9)
        start = d.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % (ns % 10**9)
    return (host, kernel, start, (tr.t1 - tr.t0) / 1e9, "s")


# ---- ovb-curve (formats/curve.md) ----

def read_curves(path):
    """{(capsule, res): {'mean': float, 'peak': float, 'pts': [(sigma,
    rho)] floats}} in file order."""
    out = {}
    for key, recs in blocks(path, "curve").items():
        c = {"pts": []}
        for t in recs:
            if t[0] in ("mean", "peak"):
                c[t[0]] = float(t[1])
            elif t[0] == "point":
                c["pts"].append((float(t[1]), float(t[2])))
        out[key] = c
    return out


# ---- ovb-series (formats/series.md) ----

def read_series(paths):
    """{(capsule, res): {'I': interval in s (int), 's': [(t, v)]}}, t int
    seconds, v float, in input order; a block met again in a later file
    continues the first."""
    if isinstance(paths, str):
        paths = [paths]
    out = {}
    for p in paths:
        cur = None
        for t in records(p):
            if t[0] == "series":
                cur = out.setdefault((t[1], t[2]), {"I": None, "s": []})
            elif t[0] == "interval":
                cur["I"] = int(t[1])
            elif t[0] == "sample":
                cur["s"].append((int(t[1]), float(t[2])))
    return out


# ---- ovb-cluster (formats/cluster.md) ----

def read_cluster(path):
    """{node: {'cpu': CPUs, 'net': B/s, 'labels': {key: value}}} in file
    order, with 'net-rx': B/s where the node gives a receive capacity, and
    'mem', 'mem-pool': B where it gives memory."""
    out = {}
    for t in records(path):
        if t[0] != "node":
            continue
        n = {"cpu": float(t[2]), "net": float(t[4])}
        rest = t[6:]
        if rest and rest[0] == "net-rx":
            n["net-rx"] = float(rest[1])
            rest = rest[3:]
        if rest and rest[0] == "mem":
            n["mem"] = float(rest[1])
            rest = rest[3:]
            n["mem-pool"] = 0.0
            if rest and rest[0] == "mem-pool":
                n["mem-pool"] = float(rest[1])
                rest = rest[3:]
        n["labels"] = _kv(rest)
        out[t[1]] = n
    return out


# ---- ovb-apps (formats/apps.md) ----

class App:
    def __init__(self, name, kv):
        self.name = name
        self.kv = kv            # O=, tau=, op=, ... as text
        self.caps = []          # (capsule name, {key: text}) in file order
        self.trust = {}         # other app -> trust, float


def _kv(tokens):
    return dict(x.split("=", 1) for x in tokens if "=" in x)


def read_apps(paths):
    """[App] of every app record of PATHS, in arrival order.  op=modify
    and op=terminate are the caller's to apply."""
    if isinstance(paths, str):
        paths = [paths]
    out = []
    for p in paths:
        for t in records(p):
            if t[0] == "app":
                out.append(App(t[1], _kv(t[2:])))
            elif t[0] == "capsule":
                out[-1].caps.append((t[1], _kv(t[2:])))
            elif t[0] == "trust":
                out[-1].trust[t[1]] = float(t[2])
    return out


# ---- ovb-plan (formats/plan.md) ----

class Plan:
    def __init__(self):
        self.grid = None        # the grid record's POINTS, or None
        self.place = []         # (app, capsule, node, profile or '-')
        self.risk = []          # (node, res, PR, OMIN, LOAD, CAPACITY)
        self.reject = []        # the reject records, as tokens
        self.recs = []          # every record, as tokens
        self.mode = "eq1"       # the mode record's: eq1 or aggregate


def read_plan(path):
    pl = Plan()
    for t in records(path):
        pl.recs.append(t)
        if t[0] == "grid":
            pl.grid = int(t[1])
        elif t[0] == "mode":
            pl.mode = t[1]
        elif t[0] == "place":
            pl.place.append(tuple(t[1:5]))
        elif t[0] == "risk":
            pl.risk.append((t[1], t[2], *(float(x) for x in t[3:7])))
        elif t[0] == "reject":
            pl.reject.append(t)
    return pl


# ---- Bitbrains CSV (GWA-T-12; the subset ovb-import reads) ----

BITBRAINS_HEADER = [
    "Timestamp [ms]", "CPU cores", "CPU capacity provisioned [MHZ]",
    "CPU usage [MHZ]", "CPU usage [%]", "Memory capacity provisioned [KB]",
    "Memory usage [KB]", "Disk read throughput [KB/s]",
    "Disk write throughput [KB/s]", "Network received throughput [KB/s]",
    "Network transmitted throughput [KB/s]"]


def read_bitbrains(path):
    """The rows of a Bitbrains CSV file (plain or gzip): [(timestamp (s,
    int), [the 11 fields as floats])], in file order.  Fields are
    separated by ';' and stripped of blanks; the header must be the
    GWA-T-12 one."""
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open(path, "rt") if gz else open(path)) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    head = [x.strip(" \t") for x in lines[0].rstrip("\r").split(";")]
    assert head == BITBRAINS_HEADER, (path, head)
    rows = []
    for line in lines[1:]:
        fld = [x.strip(" \t") for x in line.rstrip("\r").split(";")]
        assert len(fld) == 11, (path, line)
        rows.append((int(fld[0]), [float(v) for v in fld]))
    return rows


# ---- the grid rule of formats/plan.md (lib/pmf.c), in doubles ----

def grid_up(x, g):
    """ovb_grid_up: the least k >= 1 with k*g >= x (a double product), 0
    for x <= 0."""
    if not x > 0:
        return 0
    k = max(1, int(math.ceil(x / g)))
    while k > 1 and float(k - 1) * g >= x:
        k -= 1
    while float(k) * g < x:
        k += 1
    return k


def grid_down(c, g):
    """ovb_grid_down: the largest k >= 0 with k*g <= c."""
    k = max(0, int(math.floor(c / g)))
    while float(k + 1) * g <= c:
        k += 1
    while k > 0 and float(k) * g > c:
        k -= 1
    return k
