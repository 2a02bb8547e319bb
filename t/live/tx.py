#!/usr/bin/env python3
"""tx.py: a TCP transfer over loopback with its own byte count.

Listens on 127.0.0.1, forks a child that connects and sends SIZE bytes
(sendall), receives them in the parent, and prints

    pid PARENT_PID          (the receiver)
    sender CHILD_PID
    sent BYTES              (what the child's sendall sent)
    received BYTES
    wire BYTES              (the data bytes the kernel put on the wire for
                             it, retransmissions included: tcpi_bytes_sent;
                             -1 on a kernel without it)
    retrans BYTES           (of them retransmitted: tcpi_bytes_retrans)

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
    rd, wr = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(rd)
        c = socket.create_connection(('127.0.0.1', port))
        c.sendall(bytes(size))
        # every byte acknowledged once the receiver has closed: then the
        # kernel's counts are final (struct tcp_info, linux/tcp.h:
        # tcpi_bytes_sent at 200 counts the data bytes put on the wire,
        # retransmissions included; tcpi_bytes_retrans at 208)
        c.shutdown(socket.SHUT_WR)
        while c.recv(65536):
            pass
        info = c.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
        wire = retrans = -1
        if len(info) >= 216:
            wire = int.from_bytes(info[200:208], sys.byteorder)
            retrans = int.from_bytes(info[208:216], sys.byteorder)
        os.write(wr, b"%d %d" % (wire, retrans))
        c.close()
        os._exit(0)
    os.close(wr)
    a, _ = s.accept()
    n = 0
    while True:
        d = a.recv(65536)
        if not d:
            break
        n += len(d)
    a.close()
    wire, retrans = os.read(rd, 64).split()
    _, status = os.waitpid(child, 0)
    if status != 0:
        sys.exit("tx.py: the sender failed")
    print("pid", os.getpid())
    print("sender", child)
    print("sent", size)
    print("received", n)
    print("wire", int(wire))
    print("retrans", int(retrans))


if __name__ == "__main__":
    main()
