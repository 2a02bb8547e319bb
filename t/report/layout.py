#!/usr/bin/env python3
"""layout.py PAGE WIDTH DIR: lays out ovb-report's HTML PAGE in headless
Chromium at a window WIDTH pixels wide and checks, from the boxes Chromium
itself computed, that no two texts of one plot overlap and that no text of
the page reads inf or nan.

A copy of PAGE in DIR gets a small script at its end that, once laid out,
takes every <text> of every <svg> (getBoundingClientRect: the box as
drawn, after the figure's scaling) and writes the boxes into the page;
Chromium's --dump-dom returns it (t/report/chromium.sh's flags); the
page itself is screenshotted at the same window size (DIR/layout-WIDTH.png).  Two boxes
overlap when they share more than 0.5 px in both directions (a text drawn
twice in one place, as gnuplot draws a boxed label, is one text).  Prints one
line per overlap or bad text, and a summary; exit 0 when there is none, 1
otherwise, 2 when Chromium failed."""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

SCRIPT = r"""
<script>
(function () {
  var out = [];
  var svgs = document.querySelectorAll('svg');
  for (var i = 0; i < svgs.length; i++) {
    var fig = svgs[i].closest('figure');
    var id = fig ? fig.id : 'svg' + i;
    var ts = svgs[i].querySelectorAll('text');
    for (var j = 0; j < ts.length; j++) {
      var s = ts[j].textContent.replace(/\s+/g, ' ').trim();
      if (!s) continue;
      var r = ts[j].getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      out.push([id, s, r.left, r.top, r.right, r.bottom]);
    }
  }
  var pre = document.createElement('pre');
  pre.id = 'ovb-layout';
  pre.textContent = JSON.stringify({w: window.innerWidth, texts: out,
    body: document.body.innerText});
  document.body.appendChild(pre);
})();
</script>
"""

BAD = re.compile(r"(?<![A-Za-z_])(inf|nan|-nan|infinity)(?![A-Za-z_])", re.I)


def main():
    page, width, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(page, encoding="utf-8") as f:
        html = f.read()
    copy = os.path.join(d, "layout-%d.html" % width)
    with open(copy, "w", encoding="utf-8") as f:
        f.write(html.replace("</body>", SCRIPT + "</body>"))
    ud = tempfile.mkdtemp(dir=d)
    args = ["timeout", "120", "chromium", "--headless", "--no-sandbox",
            "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--user-data-dir=" + ud,
            "--window-size=%d,2000" % width, "--dump-dom",
            "file://" + os.path.abspath(copy)]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    m = re.search(r'<pre id="ovb-layout">(.*?)</pre>', p.stdout.decode(),
                  re.S)
    if p.returncode or not m:
        print("chromium failed (%d): %s" % (p.returncode,
              p.stderr.decode()[-800:]))
        sys.exit(2)
    raw = m.group(1).replace("&lt;", "<").replace("&gt;", ">") \
        .replace("&quot;", '"').replace("&#39;", "'").replace("&amp;", "&")
    data = json.loads(raw)
    # and the screenshot of the same layout (the window's size, PNG)
    shot = os.path.join(d, "layout-%d.png" % width)
    q = subprocess.run(args[:-2] + ["--screenshot=" + shot, "file://" +
                                    os.path.abspath(page)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(shot, "rb") as f:
        png = f.read(24)
    if q.returncode or png[:8] != b"\x89PNG\r\n\x1a\n":
        print("chromium made no screenshot (%d)" % q.returncode)
        sys.exit(2)
    sw, sh = struct.unpack(">II", png[16:24])
    bad = []
    figs = {}
    for t in data["texts"]:
        figs.setdefault(t[0], []).append(t)
    npairs = 0
    for fig, ts in sorted(figs.items()):
        for i in range(len(ts)):
            for j in range(i + 1, len(ts)):
                a, b = ts[i], ts[j]
                if a[1] == b[1] and all(abs(a[k] - b[k]) < 0.5
                                        for k in range(2, 6)):
                    continue    # one text drawn twice (gnuplot's boxed text)
                npairs += 1
                dx = min(a[4], b[4]) - max(a[2], b[2])
                dy = min(a[5], b[5]) - max(a[3], b[3])
                if dx > 0.5 and dy > 0.5:
                    bad.append("%s: '%s' overlaps '%s' (%.1f x %.1f px)" % (
                        fig, a[1], b[1], dx, dy))
    texts = [t[1] for t in data["texts"]] + [data["body"]]
    for s in texts:
        for m in BAD.finditer(s):
            bad.append("bad text: '%s' in '%s'" % (
                m.group(0), s[max(0, m.start() - 30):m.end() + 30]))
    for b in bad:
        print(b)
    print("width %d (window %d, screenshot %dx%d): %d figures, %d texts, "
          "%d pairs, %d problems" % (width, data["w"], sw, sh, len(figs),
                                    len(data["texts"]), npairs, len(bad)))
    sys.exit(1 if bad else 0)


main()
