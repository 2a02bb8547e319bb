#!/usr/bin/python3
"""bench/bad-fresh.py OUT SEED: a fresh malformed-input corpus of the
kinds of t/bad/gen.py, outside the project (issue 18's acceptance): random
mutations of the same sources under SEED (malformed numbers, extreme
numbers, fields dropped or repeated, records swapped, removed or repeated,
\\v and \\f as blanks, bytes flipped, cuts, bad names and keywords, CRs
and NULs inside records), perf.data flips and cuts of the three shipped
traces, Bitbrains rows with odd values, and gen.py's own variants under
another prefix.  Every format of formats/*.md but worker (a protocol:
fuzz/fuzz-worker.c) is mutated, memory included: mem-* are mutations of
t/data/mem.* (a cluster with mem and mem-pool, profiles with mem blocks,
their plan with qos mem and risk mem, a mem usage); bt-* and btm-* of
ovb-backtest's series (t/data/backtest-small.series, backtest-mem.series).
Writes OUT/FORMAT/NAME and OUT/MANIFEST (FORMAT/NAME CLASS: bad =
certainly malformed, any = either).  bench/bad-run.py runs it."""
import gzip
import os
import random
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(REPO, 't/bad/gen.py')
src = open(GEN).read().rsplit('\nmain()', 1)[0]
g = {'__file__': GEN, '__name__': 'gen'}
exec(compile(src, GEN, 'exec'), g)

OUT, SEED = sys.argv[1], int(sys.argv[2])
g['ROOT'] = OUT
DATA = os.path.join(REPO, 't/data')
FIX = os.path.join(REPO, 't/fixtures')
manifest = []


def put(fmt, name, data, cls):
    d = os.path.join(OUT, fmt)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)
    manifest.append('%s/%s %s' % (fmt, name, cls))


BADNUM = [b'nan', b'inf', b'-inf', b'1e999', b'1e-999', b'0x1p3', b'+2',
          b'.25', b'3.', b'2e', b'7..1', b'1_000', b'--1', b'1e+', b'NaN',
          b'Infinity', b'0b1', b'1/2', b'\xff', b'1e99999999999']
ODDNUM = [b'0', b'-0', b'-1', b'1e308', b'-1e308', b'1.7976931348623157e308',
          b'4.9e-324', b'2.2250738585072014e-308', b'18446744073709551615',
          b'18446744073709551616', b'9223372036854775808', b'1e-300',
          b'0.000000000000000000001', b'99999999999999999999999', b'1e22',
          b'4294967296', b'65536', b'65537', b'100000001', b'1000001',
          b'000000000000000000000000000001', b'0.5', b'1e-9']


def rsl_name(toks, j):
    """Sharc RSL: the ids after Application and Capsule, and a Node's, are
    names that may look like numbers (formats/apps.md): 'nan' is one."""
    return (j == 1 and toks[0] in (b'Application', b'Capsule')) or \
        (j > 0 and toks[j - 1] == b'Node')


def mutate(raw, rnd):
    """One random mutation; its class: bad (certainly malformed) or any."""
    lines = raw.splitlines(keepends=True)
    recs = g['records'](lines)
    i = rnd.choice(recs[1:] or recs)
    toks = lines[i].rstrip(b'\r\n').split()
    op = rnd.randrange(14)
    nums = [j for j, t in enumerate(toks) if g['is_num'](t.decode('latin-1'))]
    out = list(lines)
    if op == 0 and nums:        # a malformed number
        j = rnd.choice(nums)
        toks[j] = rnd.choice(BADNUM)
        out[i] = b' '.join(toks) + b'\n'
        return b''.join(out), 'bad' if toks[0] not in g['FREE'] and \
            not rsl_name(toks, j) else 'any'
    if op in (1, 2) and nums:   # an extreme but well-formed number
        j = rnd.choice(nums)
        toks[j] = rnd.choice(ODDNUM)
        out[i] = b' '.join(toks) + b'\n'
        return b''.join(out), 'any'
    if op == 3 and len(toks) > 1:   # a field dropped
        del toks[rnd.randrange(1, len(toks))]
        out[i] = b' '.join(toks) + b'\n'
        return b''.join(out), 'any'
    if op == 4:                 # a field repeated
        j = rnd.randrange(len(toks))
        toks.insert(j, toks[j])
        out[i] = b' '.join(toks) + b'\n'
        return b''.join(out), 'any'
    if op == 5:                 # two records swapped
        k = rnd.choice(recs[1:] or recs)
        out[i], out[k] = out[k], out[i]
        return b''.join(out), 'any'
    if op == 6:                 # a record removed
        del out[i]
        return b''.join(out), 'any'
    if op == 7:                 # a record repeated many times
        out[i:i + 1] = [lines[i]] * rnd.randrange(2, 50)
        return b''.join(out), 'any'
    if op == 8:                 # a vertical tab or form feed as a blank
        c = rnd.choice([b'\v', b'\f'])
        out[i] = c.join(toks) + b'\n'
        return b''.join(out), 'bad' if len(toks) > 1 and toks[0] not in g['FREE'] else 'any'
    if op == 9:                 # random bytes flipped
        b = bytearray(raw)
        for _ in range(rnd.randrange(1, 6)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        return bytes(b), 'any'
    if op == 10:                # a cut at a random byte
        return raw[:rnd.randrange(len(raw))], 'any'
    if op == 11 and len(toks) > 1:  # a name made bad
        j = rnd.randrange(1, len(toks))
        if not g['is_num'](toks[j].decode('latin-1')) and toks[0] not in g['FREE']:
            toks[j] = rnd.choice([b'a$b', b'-x', b'x' * 129, b'\xc3\xa9',
                                  b'a"b', b'a;b', b"a'b"])
            out[i] = b' '.join(toks) + b'\n'
            return b''.join(out), 'any'
    if op == 12:                # a keyword changed
        toks[0] = rnd.choice([b'nosuch', toks[0].upper(), toks[0] + b'x',
                              toks[0][:-1] or b'x'])
        out[i] = b' '.join(toks) + b'\n'
        return b''.join(out), 'bad' if toks[0] != lines[i].split()[0] else 'any'
    # a CR inside a record, a NUL
    c = rnd.choice([b'\r', b'\0'])
    p = rnd.randrange(len(lines[i].rstrip(b'\n')) or 1)
    out[i] = lines[i][:p] + c + lines[i][p:]
    return b''.join(out), 'bad'


SOURCES = {   # format: sources whose companions the runner knows
    'onoff': ['example.onoff'], 'usage': ['example.usage', 'mem:mem.usage'],
    'profile': ['example.profile', 'mem:mem.profile'],
    'series': ['example.series', 'rp:replay-small.series',
               'bt:backtest-small.series', 'btm:backtest-mem.series'],
    'curve': ['example.curve'],
    'cluster': ['example.cluster', 'mem:mem.cluster'],
    'apps': ['example.apps', 'rsl:example.rsl'],
    'plan': ['example.plan', 'rp:replay-small.plan', 'mem:mem.plan'],
    'reserves': ['example.reserves'], 'gain': ['example.gain'],
    'bids': ['example.bids'], 'migrations': ['example.migrations'],
    'rt': ['example.rt'], 'trade': ['example.trade'],
    'backtest': ['example.backtest'], 'fit': ['example.fit'],
}
def main():
    rnd = random.Random(SEED)
    for fmt, srcs in SOURCES.items():
        for s in srcs:
            pre, _, name = s.rpartition(':')
            raw = open(os.path.join(DATA, name), 'rb').read()
            for k in range(60):
                data, cls = mutate(raw, rnd)
                if data == raw:
                    continue
                put(fmt, '%sm%03d' % (pre + '-' if pre else '', k), data, cls)
    # perf.data: other flips and cuts of the three traces
    for t in ('nginx', 'postgres', 'redis'):
        trace = gzip.open(os.path.join(FIX, t + '.perf.data.gz')).read()
        for k in range(6):
            b = bytearray(trace)
            for _ in range(rnd.choice([1, 4, 16, 64])):
                b[rnd.randrange(len(b))] = rnd.randrange(256)
            put('perfdata', '%s-flip%d' % (t, k), bytes(b), 'any')
            cut = rnd.randrange(16, len(trace))
            put('perfdata', '%s-cut%d' % (t, k), trace[:cut], 'any')
        # the header of a valid trace, then garbage
        put('perfdata', t + '-hdr-garbage', trace[:104] + bytes(
            rnd.randrange(256) for _ in range(4096)), 'bad')
    # bitbrains: random mutations of the CSV rows
    raw = open(os.path.join(DATA, 'replay-bitbrains.csv'), 'rb').read()
    lines = raw.splitlines(keepends=True)
    for k in range(40):
        out = list(lines)
        i = rnd.randrange(1, len(out))
        f = out[i].rstrip(b'\n').split(b';')
        j = rnd.randrange(len(f))
        f[j] = b'\t' + rnd.choice(BADNUM + ODDNUM)
        out[i] = b';'.join(f) + b'\n'
        put('bitbrains', 'm%03d.csv' % k, b''.join(out), 'any')
    # gen.py's own variants (truncations, NUL, CR, long lines, garbage)
    # under another prefix: other random garbage, other cut points
    for fmt in g['TEXT']:
        for big in (False, True):
            g['BIG'] = big
            g['text_variants'](fmt, os.path.join(DATA, 'example.' + fmt),
                               'f%d-' % SEED)
    for e in g['manifest']:
        manifest.append(' '.join(e.split()[:2]))
    with open(os.path.join(OUT, 'MANIFEST'), 'w') as m:
        m.write('\n'.join(sorted(manifest)) + '\n')
    print(len(manifest), 'files')


main()
