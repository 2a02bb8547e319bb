#!/usr/bin/env python3
"""png.py: a tiny PNG reader for tests (python3 stdlib only: zlib, struct).

    png.py info FILE                  width height
    png.py ink FILE [X0 Y0 X1 Y1 [STEP]]
                                      pixels that are not (near) white, and
                                      pixels with colour (max-min > 60 of 255),
                                      looking at every STEP-th row and column
    png.py rows FILE                  per band of 100 rows: "Y0 INK COLOURED"
                                      (every 2nd row and column)
    png.py crop FILE X0 Y0 X1 Y1 OUT  write the region as a new PNG

Reads 8-bit greyscale, RGB, grey+alpha and RGBA, non-interlaced (what
Chromium and gnuplot write); alpha is composed over white."""

import struct
import sys
import zlib


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("png.py: %s: not a PNG file" % path)
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
        sys.exit("png.py: %s: unsupported PNG (depth %d, colour type %d, "
                 "interlace %d)" % (path, depth, ctype, interlace))
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        ft = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if ft == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif ft == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif ft == 3:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
        elif ft == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def rgb(px, bpp):
    """The pixel over white, as (r, g, b)."""
    if bpp == 1:
        return px[0], px[0], px[0]
    if bpp == 2:
        g, a = px
        v = (g * a + 255 * (255 - a)) // 255
        return v, v, v
    if bpp == 3:
        return px[0], px[1], px[2]
    r, g, b, a = px
    return tuple((c * a + 255 * (255 - a)) // 255 for c in (r, g, b))


def ink(img, x0=0, y0=0, x1=None, y1=None, step=1):
    w, h, bpp, rows = img
    x1 = w if x1 is None else min(x1, w)
    y1 = h if y1 is None else min(y1, h)
    n = coloured = 0
    for y in range(y0, y1, step):
        row = rows[y]
        for x in range(x0, x1, step):
            r, g, b = rgb(row[x * bpp:(x + 1) * bpp], bpp)
            if min(r, g, b) < 235:
                n += 1
            if max(r, g, b) - min(r, g, b) > 60:
                coloured += 1
    return n, coloured


def chunk(kind, body):
    c = struct.pack(">I", len(body)) + kind + body
    return c + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)


def crop(img, x0, y0, x1, y1, out):
    w, h, bpp, rows = img
    x1, y1 = min(x1, w), min(y1, h)
    raw = b"".join(b"\0" + rows[y][x0 * bpp:x1 * bpp] for y in range(y0, y1))
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[bpp]
    with open(out, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", x1 - x0, y1 - y0, 8,
                                           ctype, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, path = sys.argv[1], sys.argv[2]
    args = [int(a) for a in sys.argv[3:7 if cmd == "crop" else 8]]
    img = read(path)
    if cmd == "info":
        print(img[0], img[1])
    elif cmd == "ink":
        print(*ink(img, *args))
    elif cmd == "rows":
        for y in range(0, img[1], 100):
            print(y, *ink(img, 0, y, None, y + 100, 2))
    elif cmd == "crop":
        crop(img, *args[:4], sys.argv[7])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
