#!/usr/bin/env python3
"""windows_plot.py SCRIPTS TSV: checks that the plots of ovb-report's
windows table (--mode tod, the HTML page) draw the table's numbers.

SCRIPTS holds the gnuplot scripts of one page as a stand-in gnuplot saw
them; TSV is `ovb-report --mode tod -f tsv -t windows` of the same inputs.
For every node and resource of the table there must be exactly one script
titled 'node NODE · RES: Eq. 1 and Eq. 3 per hour of the day', whose data
block $W holds, per day type (index 0 weekday, 2 weekend), a row 'HOUR
LOAD PR' for hours 0..24 (24 repeats 23, closing the steps) and, per day
type (index 1, 3), the unmeasured hours as HOUR.5.  Each hour's LOAD is
the table's load of the row whose [from_h, to_h) holds it, in the unit
of the panel's label (to 12 significant digits, the scripts' %.12g), PR the table's pr, or the panel's
floor (its yrange's low end) when the table's pr is 0; an unmeasured hour
has NaN for both and is listed.  Prints "agree", else each difference
(exit 1)."""
import re
import sys


def close(a, b):
    return abs(a - b) <= 1e-11 * max(abs(a), abs(b), 1e-300)


def blocks(script):
    """The four indexes of $W, each a list of rows of fields."""
    body = script.split('$W << EOD\n', 1)[1].split('\nEOD\n', 1)[0]
    return [[ln.split() for ln in part.split('\n') if ln.strip()]
            for part in body.split('\n\n\n')]


def main():
    scripts = open(sys.argv[1]).read().split('set encoding utf8\n')
    rows = [ln.rstrip('\n').split('\t') for ln in open(sys.argv[2])
            if ln.strip() and not ln.startswith('#')]
    head = rows[0]
    table = {}
    for r in rows[1:]:
        r = dict(zip(head, r))
        table.setdefault((r['node'], r['res']), []).append(r)
    bad = []
    for (node, res), rs in table.items():
        title = "'node %s · %s: Eq. 1 and Eq. 3 per hour of the day" % (
            node, res)
        mine = [s for s in scripts if title in s]
        if len(mine) != 1:
            bad.append('%s %s: %d scripts' % (node, res, len(mine)))
            continue
        s = mine[0]
        floor = float(re.findall(r'set yrange \[([^:]+):2\]', s)[0])
        unit = re.findall(r"set ylabel 'Eq. 1 load \[([^]]+)\]'", s)[0]
        div = {'k': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12}.get(
            unit[0], 1) if unit.endswith('B/s') else 1
        idx = blocks(s)
        if len(idx) != 4:
            bad.append('%s %s: %d indexes in $W' % (node, res, len(idx)))
            continue
        for k, days in enumerate(('weekday', 'weekend')):
            pts, unm = idx[2 * k], idx[2 * k + 1]
            if [int(p[0]) for p in pts] != list(range(25)):
                bad.append('%s %s %s: hours %s' % (node, res, days,
                                                    [p[0] for p in pts]))
                continue
            want_unm = []
            for h in range(25):
                hh = min(h, 23)
                r = [r for r in rs if r['days'] == days and
                     int(r['from_h']) <= hh < int(r['to_h'])]
                if len(r) != 1:
                    bad.append('%s %s %s %d: %d rows' % (node, res, days,
                                                         hh, len(r)))
                    continue
                r, p = r[0], pts[h]
                if r['status'] == 'unmeasured':
                    if h < 24:
                        want_unm.append('%d.5' % h)
                    if p[1:] != ['NaN', 'NaN']:
                        bad.append('%s %s %s %d: unmeasured drawn as %s'
                                   % (node, res, days, h, p[1:]))
                    continue
                pr = float(r['pr'])
                want = (float(r['load']), pr if pr > 0 else floor)
                got = (float(p[1]) * div, float(p[2]))
                if not (close(got[0], want[0]) and close(got[1], want[1])):
                    bad.append('%s %s %s %d: drawn %s, table %s' % (
                        node, res, days, h, got, want))
            got_unm = [u[0] for u in unm if u != ['NaN']]
            if got_unm != want_unm:
                bad.append('%s %s %s: unmeasured hours drawn %s, table %s'
                           % (node, res, days, got_unm, want_unm))
    print('\n'.join(bad) if bad else 'agree')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
