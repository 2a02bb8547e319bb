#!/usr/bin/env python3
"""t/live/shape.py: traffic for the tc acceptance test (t/0505-enforce-apply.bats).

  shape.py sink PORT LOG        accept TCP connections, read and discard;
                                every 0.1 s append "TIME PEERPORT BYTES" per
                                connection (bytes received so far) to LOG
  shape.py send HOST PORT SECS PORTFILE
                                send as fast as TCP takes it for SECS s; the
                                local port is written to PORTFILE first
  shape.py rates LOG T1 T2 PORTFILE...
                                the payload rate (B/s) each sender's
                                connection got at the sink between T1 and T2
                                (the last sample at or before each time)
  shape.py tc SNAP1 SNAP2 T1 T2 CLASSID...
                                the rate (B/s) of each htb class between two
                                `tc -s class show` snapshots (its Sent bytes)
The sink's clock is the senders' (CLOCK_REALTIME is not per namespace).
"""
import socket
import sys
import threading
import time


def sink(port, log):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(16)
    got = {}
    lock = threading.Lock()

    def serve(c, peer):
        while True:
            b = c.recv(1 << 20)
            if not b:
                break
            with lock:
                got[peer] += len(b)

    def report():
        with open(log, "a") as f:
            while True:
                time.sleep(0.1)
                now = time.time()
                with lock:
                    rows = ["%.6f %d %d\n" % (now, p, n) for p, n in got.items()]
                f.writelines(rows)
                f.flush()

    threading.Thread(target=report, daemon=True).start()
    while True:
        c, a = srv.accept()
        with lock:
            got[a[1]] = 0
        threading.Thread(target=serve, args=(c, a[1]), daemon=True).start()


def send(host, port, secs, portfile):
    s = socket.create_connection((host, port))
    with open(portfile, "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    buf = b"x" * 65536
    end = time.time() + secs
    while time.time() < end:
        s.send(buf)
    s.close()


def at(rows, t):
    best = None
    for (ts, n) in rows:
        if ts <= t:
            best = (ts, n)
    return best


def rates(log, t1, t2, portfiles):
    by = {}
    for line in open(log):
        ts, p, n = line.split()
        by.setdefault(int(p), []).append((float(ts), int(n)))
    for pf in portfiles:
        p = int(open(pf).read())
        a, b = at(by[p], t1), at(by[p], t2)
        print("%.0f" % ((b[1] - a[1]) / (b[0] - a[0])))


def tc(j1, j2, t1, t2, classes):
    def load(f):
        out, h = {}, None
        for line in open(f):
            w = line.split()
            if w[:2] == ["class", "htb"]:
                h = w[2]
            elif w[:1] == ["Sent"] and h:
                out[h], h = int(w[1]), None
        return out
    a, b = load(j1), load(j2)
    for c in classes:
        print("%.0f" % ((b[c] - a[c]) / (t2 - t1)))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "sink":
        sink(int(args[0]), args[1])
    elif cmd == "send":
        send(args[0], int(args[1]), float(args[2]), args[3])
    elif cmd == "rates":
        rates(args[0], float(args[1]), float(args[2]), args[3:])
    elif cmd == "tc":
        tc(args[0], args[1], float(args[2]), float(args[3]), args[4:])
    else:
        sys.exit("usage: shape.py sink|send|rates|tc ...")
