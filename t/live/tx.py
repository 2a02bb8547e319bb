#!/usr/bin/env python3
"""tx.py: a TCP transfer over loopback with its own byte count.

Listens on 127.0.0.1, forks a child that connects and sends SIZE bytes
(sendall), receives them in the parent, and prints

    pid PARENT_PID          (the receiver)
    sender CHILD_PID
    sent BYTES              (what the child's sendall sent)
    received BYTES

Usage: tx.py SIZE"""
import os
import socket
import sys


def main():
    size = int(sys.argv[1])
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    s.listen(1)
    port = s.getsockname()[1]
    child = os.fork()
    if child == 0:
        c = socket.create_connection(('127.0.0.1', port))
        c.sendall(bytes(size))
        c.close()
        os._exit(0)
    a, _ = s.accept()
    n = 0
    while True:
        d = a.recv(65536)
        if not d:
            break
        n += len(d)
    _, status = os.waitpid(child, 0)
    if status != 0:
        sys.exit("tx.py: the sender failed")
    print("pid", os.getpid())
    print("sender", child)
    print("sent", size)
    print("received", n)


if __name__ == "__main__":
    main()
