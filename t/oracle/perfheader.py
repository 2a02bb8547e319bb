#!/usr/bin/env python3
"""perfheader.py PERF.DATA: the trace record ovb-onoff should write for a
file-mode perf.data, read here from the header independently of
formats/perfdata.c: "trace HOST KERNEL WALL CLOCK" from the feature
sections HOSTNAME (3), OSRELEASE (4) and CLOCK_DATA (29), '-' for what is
absent, characters outside [A-Za-z0-9_.:+@/-] (and a first one that is
not alphanumeric) as '_'.  Prints the record on one line."""

import re
import struct
import sys


def name(b):
    n, = struct.unpack_from("<I", b, 0)
    s = b[4:4 + n].split(b"\0")[0].decode("latin-1")[:64]
    out = ""
    for i, ch in enumerate(s):
        ok = re.match(r"[A-Za-z0-9_]", ch) or (i and ch in ".:+@/-")
        out += ch if ok else "_"
    return out or "-"


def main():
    b = open(sys.argv[1], "rb").read()
    magic, hsize = struct.unpack_from("<8sQ", b, 0)
    if magic != b"PERFILE2" or hsize == 16:
        sys.exit("perfheader.py: not a file-mode perf.data")
    dstart, dsize = struct.unpack_from("<QQ", b, 40)
    feat = b[72:104]
    sec = dstart + dsize
    host = kernel = "-"
    wall = clock = "-"
    for bit in range(256):
        if not feat[bit // 8] >> (bit % 8) & 1:
            continue
        off, size = struct.unpack_from("<QQ", b, sec)
        sec += 16
        body = b[off:off + size]
        if bit == 3:
            host = name(body)
        elif bit == 4:
            kernel = name(body)
        elif bit == 29 and size >= 24:
            w, c = struct.unpack_from("<QQ", body, 8)
            if w:
                wall, clock = str(w), str(c)
    print("trace %s %s %s %s" % (host, kernel, wall, clock))


main()
