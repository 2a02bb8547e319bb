#!/usr/bin/env python3
"""lo-send.py HOST SIZE: a TCP transfer to HOST from a process named
ovbsend (prctl) to its child ovbrecv, after 50000 bytes over a unix
socket pair (no network traffic).  The sender's sendall returns once
the data is queued and it closes at once, so the kernel may send the rest
from softirqs with the socket in FIN_WAIT1 (t/0125-select.bats,
t/fixtures/record-lo.sh).  Prints "received N" (the child), then "pid
PID" and "sent SIZE"."""
import ctypes, os, socket, sys
host, size = sys.argv[1], int(sys.argv[2])
ctypes.CDLL(None).prctl(15, b"ovbsend", 0, 0, 0)
s = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
s.bind((host, 0)); s.listen(1)
port = s.getsockname()[1]
if os.fork() == 0:
    ctypes.CDLL(None).prctl(15, b"ovbrecv", 0, 0, 0)
    a, _ = s.accept(); n = 0
    while True:
        d = a.recv(65536)
        if not d: break
        n += len(d)
    print("received", n, flush=True); os._exit(0)
u, v = socket.socketpair()           # unix-domain: no network traffic
u.sendall(bytes(50000)); v.recv(65536); u.close(); v.close()
c = socket.create_connection((host, port))
c.sendall(bytes(size)); c.close(); os.wait()
print("pid", os.getpid()); print("sent", size)
