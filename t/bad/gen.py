#!/usr/bin/python3
"""t/bad/gen.py: writes the malformed-input corpus t/bad/FORMAT/*.

Run from anywhere: /usr/bin/python3 t/bad/gen.py [--big DIR]
It rewrites t/bad/FORMAT/ (deterministic: the same files every run) from
the valid examples in t/data and t/fixtures, and t/bad/MANIFEST, one line
per file:

    FORMAT/NAME CLASS LINE

CLASS says what the spec allows:
  bad  malformed: every tool that reads it must reject it (65, or 74)
       with a message naming the file;
  ok   valid by the spec: ovb-fmt accepts it and its canonical form reads
       back (t/0050-bad.bats lists the tools that still refuse it, and why);
  any  may be valid (a truncation at a line end, an extreme but finite
       number): accepted with an output that reads back, or rejected
       with a message naming the file.
LINE is the line ovb-fmt must report, or - when it is not known.

--big DIR writes the large variants (over 20,000 bytes: long lines,
corrupted whole perf.data traces), which are not committed, to
DIR/FORMAT/NAME with their DIR/MANIFEST; t/0050-bad.bats runs them too.

To grow the corpus, add a variant below; it then runs under every tool of
its format in t/0050-bad.bats.
"""
import gzip
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')
FIX = os.path.join(HERE, '..', 'fixtures')

FORMATS = os.path.join(HERE, '..', '..', 'formats')


def text_formats():
    """The overbook formats: every formats/NAME.md whose example
    t/data/example.NAME starts with the magic 'ovb-NAME 1' (so a new
    format is in the corpus once its spec and example exist)."""
    names = []
    for md in sorted(os.listdir(FORMATS)):
        name = md[:-3]
        ex = os.path.join(DATA, 'example.' + name)
        if md.endswith('.md') and os.path.isfile(ex):
            with open(ex, 'rb') as f:
                if f.readline() == b'ovb-%s 1\n' % name.encode():
                    names.append(name)
    return names


TEXT = text_formats()
# Formats whose grammar allows a file of only its magic line.
MAGIC_ONLY_OK = {'apps', 'reserves'}

manifest = []
ROOT = HERE     # where put() writes: t/bad, or --big's DIR
BIG = False     # writing the large variants (not committed)


def put(fmt, name, data, cls, line=None):
    assert cls in ('bad', 'ok', 'any')
    if (len(data) > 20000) != BIG:
        return
    d = os.path.join(ROOT, fmt)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)
    manifest.append('%s/%s %s %s' % (fmt, name, cls,
                                     '-' if line is None else line))


def is_num(t):
    try:
        float(t)
        return t[0].isdigit() or (t[0] == '-' and t[1:2].isdigit())
    except ValueError:
        return False


# Records whose fields after the first few are free text (a plan's reasons).
FREE = (b'reject',)


def records(lines, data=False):
    """Indexes of the record lines (not blank, not comments), magic first;
    with data, only those whose fields are all data (no free text)."""
    return [i for i, l in enumerate(lines)
            if l.strip() and not l.lstrip().startswith(b'#')
            and not (data and l.split()[0] in FREE)]


def numeric_lines(lines):
    """(line index, token index) of the first and the last record with a
    number after its keyword."""
    found = []
    for i in records(lines, True)[1:]:
        toks = lines[i].split()
        for j, t in enumerate(toks[1:], 1):
            if t.startswith(b'#'):
                break
            if is_num(t.decode('latin-1')):
                found.append((i, j))
                break
    return [found[0], found[-1]] if len(found) > 1 else found


def subst(lines, i, j, new):
    toks = lines[i].rstrip(b'\n').split()
    toks[j] = new
    out = list(lines)
    out[i] = b' '.join(toks) + b'\n'
    return b''.join(out)


def text_variants(fmt, src, prefix=''):
    raw = open(src, 'rb').read()
    lines = raw.splitlines(keepends=True)
    recs = records(lines)
    first, last = recs[1] if len(recs) > 1 else 0, recs[-1]
    p = prefix
    rnd = random.Random('%s%s' % (fmt, prefix))

    # empty, blank, magic only
    put(fmt, p + 'empty', b'', 'bad')
    put(fmt, p + 'blank-lines', b'\n\n# nothing\n', 'bad', 3)
    put(fmt, p + 'magic-only', lines[0],
        'ok' if fmt in MAGIC_ONLY_OK and not p else 'any')

    # truncations: at several byte offsets, and without the last newline
    for frac in (10, 33, 50, 90):
        put(fmt, '%strunc-%d' % (p, frac), raw[:len(raw) * frac // 100],
            'any')
    put(fmt, p + 'trunc-nl', raw[:-1], 'ok')
    put(fmt, p + 'trunc-end2', raw[:-2], 'any')

    # NUL bytes, line ends
    nul = list(lines)
    mid = len(nul[first]) // 2
    nul[first] = nul[first][:mid] + b'\0' + nul[first][mid:]
    put(fmt, p + 'nul', b''.join(nul), 'bad', first + 1)
    put(fmt, p + 'nul-end', raw + b'\0', 'bad', len(lines) + 1)
    put(fmt, p + 'cr-only', raw.replace(b'\n', b'\r'), 'bad', 1)
    put(fmt, p + 'crlf', raw.replace(b'\n', b'\r\n'), 'ok')
    cr = list(lines)
    cr[last] = cr[last].replace(b' ', b'\r', 1)
    put(fmt, p + 'cr-inside', b''.join(cr), 'bad', last + 1)

    # very long lines: the limit is 65536 bytes counting the newline
    put(fmt, p + 'long-comment-ok',
        lines[0] + b'#' + b'x' * 65534 + b'\n' + b''.join(lines[1:]), 'ok')
    put(fmt, p + 'long-comment',
        lines[0] + b'#' + b'x' * 65535 + b'\n' + b''.join(lines[1:]), 'bad', 2)
    put(fmt, p + 'long-field',
        subst(lines, last, len(lines[last].split()) - 1, b'9' * 70000),
        'bad', last + 1)

    # binary garbage
    put(fmt, p + 'garbage', bytes(rnd.randrange(256) for _ in range(2048)),
        'bad')
    put(fmt, p + 'magic-garbage',
        lines[0] + bytes(rnd.randrange(256) for _ in range(512)), 'bad')
    if p:
        return

    # magic and version
    magic = lines[0].split()
    other = b'ovb-usage' if fmt != 'usage' else b'ovb-curve'
    for name, new in (('magic-v2', magic[0] + b' 2'),
                      ('magic-v1.0', magic[0] + b' 1.0'),
                      ('magic-v01', magic[0] + b' 01'),
                      ('magic-case', magic[0].upper() + b' 1'),
                      ('magic-other', other + b' 1'),
                      ('magic-unknown', b'ovb-nosuch 1'),
                      ('magic-extra', magic[0] + b' 1 x')):
        put(fmt, name, new + b'\n' + b''.join(lines[1:]), 'bad',
            1 if name != 'magic-other' else None)
    put(fmt, 'magic-missing', b''.join(lines[1:]), 'bad', recs[1] if
        len(recs) > 1 else None)

    # numbers: the first and the last record with a number
    for k, (i, j) in enumerate(numeric_lines(lines)):
        for name, val, cls in (('nan', b'nan', 'bad'), ('inf', b'inf', 'bad'),
                               ('neg-inf', b'-inf', 'bad'),
                               ('1e309', b'1e309', 'bad'),
                               ('1e-400', b'1e-400', 'bad'),
                               ('hex', b'0x10', 'bad'),
                               ('plus', b'+1', 'bad'),
                               ('dot5', b'.5', 'bad'),
                               ('comma', b'1,5', 'bad'),
                               ('1e', b'1e', 'bad'),
                               ('suffix', b'12abc', 'bad'),
                               ('u64-over', b'18446744073709551616', 'any'),
                               ('neg-zero', b'-0', 'any'),
                               ('neg', b'-1', 'any'),
                               ('huge', b'1e308', 'any'),
                               ('tiny', b'4.9e-324', 'any'),
                               ('zero', b'0', 'any')):
            put(fmt, 'num%d-%s' % (k, name), subst(lines, i, j, val), cls,
                i + 1 if cls == 'bad' else None)

    # units: the first unit field after a number
    wrong = {b'cpu': b'B/s', b'cpu-s': b'cpu', b'B': b'B/s', b'B/s': b'B',
             b's': b'ms'}
    done = False
    for i in records(lines, True)[1:]:
        toks = lines[i].split()
        for j in range(2, len(toks)):
            if toks[j] in wrong and is_num(toks[j - 1].decode('latin-1')):
                put(fmt, 'unit-wrong', subst(lines, i, j, wrong[toks[j]]),
                    'bad', i + 1)
                put(fmt, 'unit-case', subst(lines, i, j, toks[j].upper()
                    if toks[j] != b'B' else b'b'), 'bad', i + 1)
                put(fmt, 'unit-missing', subst(lines, i, j, b''), 'bad',
                    i + 1)
                done = True
                break
        if done:
            break

    # names: the first record whose second field is a name
    for i in recs[1:]:
        toks = lines[i].split()
        if len(toks) > 1 and not is_num(toks[1].decode('latin-1')) \
                and b'=' not in toks[1]:
            for name, val in (('name-dollar', b'we$b'),
                              ('name-dash', b'-web'),
                              ('name-long', b'n' * 129),
                              ('name-utf8', 'wéb'.encode())):
                put(fmt, name, subst(lines, i, 1, val), 'bad', i + 1)
            break

    # records: duplicated, an extra field, an unknown keyword
    for k, i in enumerate((first, last)):
        dup = list(lines)
        dup.insert(i + 1, lines[i])
        put(fmt, 'dup%d' % k, b''.join(dup), 'any')
        put(fmt, 'extra%d' % k,
            subst(lines, i, 0, lines[i].split()[0]).rstrip(b'\n') + b' 7\n',
            'any')
    put(fmt, 'keyword-unknown', raw + b'nosuch 1\n', 'bad', len(lines) + 1)
    put(fmt, 'keyword-case', raw.replace(lines[last], lines[last][:1].swapcase()
        + lines[last][1:], 1), 'bad')     # reserves: R -> r is a keyword


def bitbrains(src):
    raw = open(src, 'rb').read()
    lines = raw.splitlines(keepends=True)
    f = 'bitbrains'
    rnd = random.Random(f)
    put(f, 'empty.csv', b'', 'bad')
    put(f, 'header-only.csv', lines[0], 'any')
    for frac in (10, 50, 90):
        put(f, 'trunc-%d.csv' % frac, raw[:len(raw) * frac // 100], 'any')
    put(f, 'trunc-nl.csv', raw[:-1], 'ok')
    put(f, 'nul.csv', lines[0] + lines[1][:5] + b'\0' + lines[1][5:]
        + b''.join(lines[2:]), 'bad')
    put(f, 'cr-only.csv', raw.replace(b'\n', b'\r'), 'bad')
    put(f, 'crlf.csv', raw.replace(b'\n', b'\r\n'), 'any')
    put(f, 'garbage.csv', bytes(rnd.randrange(256) for _ in range(2048)),
        'bad')
    put(f, 'header-wrong.csv', lines[0].replace(b'CPU usage [MHZ]',
        b'CPU usage [GHZ]') + b''.join(lines[1:]), 'bad')
    put(f, 'header-missing.csv', b''.join(lines[1:]), 'bad')
    row = lines[1].split(b';')
    for name, col, val in (('nan', 3, b'\tnan'), ('inf', 3, b'\tinf'),
                           ('neg', 3, b'\t-5'), ('1e309', 9, b'\t1e309'),
                           ('text', 0, b'abc'), ('huge-ts', 0,
                                                 b'99999999999999999999'),
                           ('empty-field', 4, b'')):
        r = list(row)
        r[col] = val + (b'\n' if col == len(r) - 1 else b'')
        put(f, 'field-%s.csv' % name, lines[0] + b';'.join(r)
            + b''.join(lines[2:]), 'any')
    put(f, 'field-extra.csv', lines[0] + lines[1].rstrip(b'\n')
        + b';\t7\n' + b''.join(lines[2:]), 'any')
    put(f, 'field-missing.csv', lines[0] + b';'.join(row[:5]) + b'\n'
        + b''.join(lines[2:]), 'bad')
    put(f, 'dup-row.csv', lines[0] + lines[1] + b''.join(lines[1:]), 'any')
    put(f, 'long-line.csv', lines[0] + b'1' * 70000 + b'\n'
        + b''.join(lines[1:]), 'bad')


def perfdata():
    f = 'perfdata'
    trace = gzip.open(os.path.join(FIX, 'nginx.perf.data.gz')).read()
    rnd = random.Random(f)
    put(f, 'empty', b'', 'bad')
    for n in (7, 8, 16, 64, 104, 1000, 4096, 16384):
        put(f, 'head-%d' % n, trace[:n], 'bad')
    put(f, 'magic-wrong', b'PERFILE3' + trace[8:4096], 'bad')
    put(f, 'garbage', bytes(rnd.randrange(256) for _ in range(4096)), 'bad')
    put(f, 'magic-garbage', b'PERFILE2'
        + bytes(rnd.randrange(256) for _ in range(4088)), 'bad')
    # pipe mode: header size 16, then records
    put(f, 'pipe-head-16', b'PERFILE2' + (16).to_bytes(8, 'little'), 'bad')
    put(f, 'pipe-garbage', b'PERFILE2' + (16).to_bytes(8, 'little')
        + bytes(rnd.randrange(256) for _ in range(4096)), 'bad')
    put(f, 'pipe-huge-size', b'PERFILE2' + (16).to_bytes(8, 'little')
        + (1).to_bytes(4, 'little') + (0).to_bytes(2, 'little')
        + (65535).to_bytes(2, 'little') + b'\0' * 64, 'bad')
    put(f, 'pipe-zero-size', b'PERFILE2' + (16).to_bytes(8, 'little')
        + (70).to_bytes(4, 'little') + b'\0' * 60, 'bad')
    for k in range(4):
        t = bytearray(trace)
        r = random.Random(k)
        for _ in range(8 << k):
            t[r.randrange(len(t))] = r.randrange(256)
        put(f, 'flip-%d' % k, bytes(t), 'any')
    put(f, 'trunc-75', trace[:len(trace) * 3 // 4], 'bad')
    put(f, 'whole', trace, 'ok')


def regressions():
    """Hand-made cases of defects the corpus found (issue 18)."""
    # a bin beyond the largest real: ovb-profile wrote 'sigma inf',
    # ovb-convolve called it a usage error (64) naming no file
    u = (b'ovb-usage 1\nusage web cpu\ninterval 1 s\nwidth 1e308 cpu\n'
         b'intervals 2\nbin 0 1\nbin 2 1\n')
    put('usage', 'reg-width-inf', u, 'bad', 2)
    put('profile', 'reg-width-inf', b'ovb-profile 1\nprofile web cpu\n'
        b'sigma 1 cpu\nrho 0 cpu-s\ntau 1 s\nO 0.01\ninterval 1 s\n'
        b'width 1e308 cpu\nintervals 2\nbin 0 1\nbin 2 1\n', 'bad', 2)
    # a plan with CR-only line ends was read as an empty plan
    put('plan', 'reg-cr-only-short', b'ovb-plan 1\r# x\rreject a b: c\r',
        'bad', 1)
    # fresh corpus (seed 7331): a sample of the largest double made
    # ovb-tbucket write 'rho inf' (the burst of a long run near it)
    se = open(os.path.join(DATA, 'replay-small.series'), 'rb').read()
    put('series', 'rp-reg-rho-inf', se.replace(b'sample 600 1.0000000000000002\n',
        b'sample 600 1.7976931348623157e308\n', 1), 'any')
    # (seed 99): a placed capsule's sigma of the largest double in a plan
    # to add to made ovb-place write 'cpu-resv ... inf' and 'load inf'
    pl = open(os.path.join(DATA, 'example.plan'), 'rb').read()
    put('plan', 'reg-qos-huge', pl.replace(b'qos batch w2 cpu 1 0 2 0\n',
        b'qos batch w2 cpu 1.7976931348623157e308 0 2 0\n', 1), 'any')
    # a reserves file of only its magic is valid (was 'no classes')
    put('reserves', 'reg-magic-only-crlf', b'ovb-reserves 1\r\n', 'ok')
    # fresh corpus (seed 8128): a VM with a cpu series and no mem series
    # beside VMs with both made ovb-backtest read an unset pointer (SIGSEGV)
    se = open(os.path.join(DATA, 'backtest-mem.series'), 'rb').read()
    cut = se.index(b'series c mem\n')
    put('series', 'btm-reg-vm-without-mem', se[:cut], 'ok')
    # (seed 60606): a sample too large for the bin limit, after a first
    # plan, made ovb-backtest free the last profiles twice (abort)
    put('series', 'btm-reg-bins-double-free', se.replace(b'sample 600 3\n',
        b'sample 600 1000001\n', 1), 'any')
    # libFuzzer: a bound record before any config made the reader index
    # a period that did not exist (UBSan: an offset to a null pointer)
    put('backtest', 'reg-bound-first', b'ovb-backtest 1\nbound c1 1 1 1 1\n',
        'bad', 2)


def heldout():
    """The held-out test's records broken by hand (t/data/oneshot.backtest:
    heldout at line 13, hplace 14-16, hnode 17, valid 18; the test of c1
    held, so its validity may reach 900)."""
    os_ = open(os.path.join(DATA, 'oneshot.backtest'), 'rb').read()
    # a validity past the test's end plus the span it held for
    put('backtest', 'os-valid-past-test', os_.replace(b'valid c1 600\n',
        b'valid c1 901\n', 1), 'bad', 18)
    # an hnode of a node no hplace names
    put('backtest', 'os-hnode-orphan', os_.replace(b'hnode c1 n1 3 1 0 held\n',
        b'hnode c1 n2 3 1 0 held\n', 1), 'bad', 17)
    # an hplace after the hnode records
    put('backtest', 'os-hplace-late', os_.replace(b'hnode c1 n1 3 1 0 held\n',
        b'hnode c1 n1 3 1 0 held\nhplace c1 d n1\n', 1), 'bad', 18)
    # a node of the plan without its hnode (reported at valid)
    put('backtest', 'os-hnode-missing', os_.replace(b'hnode c1 n1 3 1 0 held\n',
        b'', 1), 'bad', 17)
    # the test of a rolling plan
    put('backtest', 'os-heldout-rolling', os_.replace(
        b'config c1 peak 4 0.5 600 600 one-shot', b'config c1 peak 4 0.5 600 '
        b'600 rolling', 1), 'bad', 13)
    # a status its counts do not give, and a held-out span longer than
    # the training window
    put('backtest', 'os-hnode-status', os_.replace(b'hnode c1 n1 3 1 0 held\n',
        b'hnode c1 n1 3 1 0 broken\n', 1), 'bad', 17)
    put('backtest', 'os-heldout-long', os_.replace(b'heldout c1 300 600\n',
        b'heldout c1 0 601\n', 1), 'bad', 13)


def main():
    global ROOT, BIG
    if len(sys.argv) == 3 and sys.argv[1] == '--big':
        ROOT, BIG = sys.argv[2], True
    elif len(sys.argv) != 1:
        sys.exit('usage: gen.py [--big DIR]')
    for fmt in TEXT + ['bitbrains', 'perfdata']:
        shutil.rmtree(os.path.join(ROOT, fmt), ignore_errors=True)
    for fmt in TEXT:
        text_variants(fmt, os.path.join(DATA, 'example.' + fmt))
    text_variants('apps', os.path.join(DATA, 'example.rsl'), 'rsl-')
    # rp-: from the inputs ovb-replay runs on (t/data/replay-small.*)
    text_variants('series', os.path.join(DATA, 'replay-small.series'), 'rp-')
    text_variants('plan', os.path.join(DATA, 'replay-small.plan'), 'rp-')
    # btm-: from ovb-backtest's series with memory (backtest-mem.series)
    text_variants('series', os.path.join(DATA, 'backtest-mem.series'), 'btm-')
    # os-: from a one-shot backtest with its held-out test's records
    text_variants('backtest', os.path.join(DATA, 'oneshot.backtest'), 'os-')
    heldout()
    bitbrains(os.path.join(DATA, 'replay-bitbrains.csv'))
    perfdata()
    regressions()
    with open(os.path.join(ROOT, 'MANIFEST'), 'w') as m:
        m.write('# FORMAT/NAME CLASS LINE: written by gen.py\n')
        m.write('\n'.join(sorted(manifest)) + '\n')


main()
