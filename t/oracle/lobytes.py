#!/usr/bin/env python3
"""lobytes.py PERF.DATA: the bytes a trace shows queued on the loopback
device, read with `perf script` (independently of formats/perfdata.c and
ovb-onoff's rules): every net:net_dev_queue with dev=lo, split by length
into packets that certainly carry payload (longer than the largest
header-only TCP/IPv4 frame: 14 B Ethernet + 60 B IP + 60 B TCP = 134 B)
and the rest.  Prints "total PAYLOAD SHORT" in bytes, with PAYLOAD +
SHORT = TOTAL."""

import re
import subprocess
import sys

HEADERS_MAX = 14 + 60 + 60


def main():
    out = subprocess.run(["perf", "script", "-i", sys.argv[1], "-F",
                          "event,trace"], capture_output=True, text=True,
                         check=True).stdout
    payload = short = 0
    for line in out.splitlines():
        if "net:net_dev_queue" not in line:
            continue
        m = re.search(r"\bdev=(\S+) .*\blen=(\d+)", line)
        if not m or m.group(1) != "lo":
            continue
        n = int(m.group(2))
        if n > HEADERS_MAX:
            payload += n
        else:
            short += n
    print(payload + short, payload, short)


if __name__ == "__main__":
    main()
