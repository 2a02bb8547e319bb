#!/usr/bin/env python3
"""veth-send.py recv HOST PORT | send HOST PORT SIZE tcp|sendfile:
the two ends of a TCP transfer, each a process of its own named by prctl
(ovbrecv, ovbsend), for recordings over a veth pair between two network
namespaces (bench/devq-stress.sh, t/0127-onoff-devq.bats).

recv listens on HOST:PORT, accepts one connection, reads it to its end
and prints "received N".  send connects and sends SIZE zero bytes with
sendall (tcp) or sendfile(2) from a temporary file (sendfile), closes,
and prints "pid PID" and "sent SIZE"."""
import ctypes
import os
import socket
import sys
import tempfile
import time


def main():
    role, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ctypes.CDLL(None).prctl(15, b"ovb" + role.encode(), 0, 0, 0)
    if role == "recv":
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))
        s.listen(1)
        a, _ = s.accept()
        n = 0
        while True:
            d = a.recv(65536)
            if not d:
                break
            n += len(d)
        print("received", n, flush=True)
        return
    size, how = int(sys.argv[4]), sys.argv[5]
    for _ in range(200):        # the receiver may not listen yet
        try:
            c = socket.create_connection((host, port))
            break
        except OSError:
            time.sleep(0.01)
    else:
        sys.exit("veth-send.py: cannot connect")
    if how == "sendfile":
        with tempfile.TemporaryFile() as f:
            f.write(bytes(size))
            f.flush()
            off = 0
            while off < size:
                off += os.sendfile(c.fileno(), f.fileno(), off, size - off)
    else:
        c.sendall(bytes(size))
    c.close()
    print("pid", os.getpid())
    print("sent", size)


if __name__ == "__main__":
    main()
