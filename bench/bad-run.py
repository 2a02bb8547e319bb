#!/usr/bin/python3
"""bench/bad-run.py CORPUS BINDIR LOG: every file of a corpus written by
bench/bad-fresh.py through every tool that reads its format (as
t/0050-bad.bats does; ovb-onoff on standard input as well, and more:
ovb-report on onoff, series, backtest, fit and trade files, ovb-merge and
ovb-fit on profiles, ovb-fit on clusters and apps, ovb-backtest on its
series, the mem-* files with
t/data/mem.* as companions), with the tools
of BINDIR (bin, or build/asan/bin for ASan+UBSan with LeakSanitizer), 20 s
at most each.  Prints the counts: runs, crashes (a signal, 70), sanitizer
reports, hangs, accepted outputs that do not read back with ovb-fmt,
malformed inputs accepted, valid ones refused, errors whose message does
not name the file, other statuses, files left in the -o directory; LOG
lists each case."""
import os
import subprocess
import sys
import tempfile
import shutil

CORPUS, BIN, LOG = sys.argv[1:4]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
D = ROOT + '/t/data'
CL, AP, PR, PL = D + '/example.cluster', D + '/example.apps', D + '/example.profile', D + '/example.plan'
US, CU = D + '/example.usage', D + '/example.curve'
RCL, RPL, RSE = D + '/replay-small.cluster', D + '/replay-small.plan', D + '/replay-small.series'
MCL = D + '/market-fig3.cluster'
AP0 = ROOT + '/t/bad/apps/magic-only'
# the companions of the mem-* files: a cluster with mem, mem profiles,
# their plan
MCL_, MPR, MPL = [D + '/mem.' + x for x in ('cluster', 'profile', 'plan')]
BT = ['--start', '0', '--train', '600s', '--replay', '600s', '--cpus', '4',
      '--tolerance', '0.5']
BTM = BT + ['--mem-window', '300s', '--mem', '3']
env = dict(os.environ, PATH=BIN + ':' + os.environ['PATH'],
           ASAN_OPTIONS='detect_leaks=1:abort_on_error=0',
           UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1')
work = tempfile.mkdtemp(prefix='bad-run.')
RSLPLAN = work + '/rsl.plan'
subprocess.run([BIN + '/ovb-place', '-q', '-o', RSLPLAN, CL, D + '/example.rsl', PR],
               env=env, check=True)

# (readback, tool, args with @ for the file)
FMT = [(1, 'ovb-fmt', ['-c', '@'])]


def readers(fmt, name):
    r = list(FMT)
    mem = name.startswith('mem-')
    cl, pr, pl = (MCL_, MPR, MPL) if mem else (CL, PR, PL)
    if fmt == 'onoff':
        r += [(1, 'ovb-usage', ['@']), (1, 'ovb-tbucket', ['@']),
              (0, 'ovb-report', ['@'])]
    elif fmt == 'series':
        r += [(1, 'ovb-usage', ['@']), (1, 'ovb-tbucket', ['@']),
              (0, 'ovb-report', ['@'])]
        if name.startswith('rp-'):
            r += [(0, 'ovb-replay', [RPL, RCL, '@'])]
        if name.startswith('bt-'):
            r += [(1, 'ovb-backtest', BT + ['@'])]
        if name.startswith('btm-'):
            r += [(1, 'ovb-usage', ['-r', 'mem', '--window', '1h', '@']),
                  (1, 'ovb-backtest', BTM + ['@'])]
    elif fmt == 'usage':
        if mem:
            r += [(1, 'ovb-profile', ['-O', '0.01', '-q', '@']),
                  (0, 'ovb-report', ['@'])]
        else:
            r += [(1, 'ovb-profile', ['-O', '0.01', '-t', '1', '-q', '@', CU]),
                  (1, 'ovb-convolve', ['-r', 'cpu', '--dist', '-q', '@']),
                  (0, 'ovb-report', ['@'])]
    elif fmt == 'curve':
        r += [(1, 'ovb-profile', ['-O', '0.01', '-t', '1', '-q', US, '@'])]
    elif fmt == 'profile':
        r += [(1, 'ovb-place', [cl, AP, '@']), (0, 'ovb-check', [cl, AP, pl, '@']),
              (0, 'ovb-report', [cl, pl, '@']),
              (1, 'ovb-convolve', ['-r', 'cpu', '--dist', '-q', '@']),
              (1, 'ovb-merge', ['@']),
              (1, 'ovb-fit', ['--more', 'shop', cl, AP, '@'])]
    elif fmt == 'cluster':
        r += [(1, 'ovb-place', ['@', AP, pr]), (0, 'ovb-check', ['@', AP, pl, pr]),
              (0, 'ovb-report', ['@', pl, pr]), (0, 'ovb-replay', [RPL, '@', RSE]),
              (0, "ovb-enforce", ['-t', 'cgroup', '@', pl]),
              (1, 'ovb-fit', ['--more', 'shop', '@', AP, pr])]
    elif fmt == 'apps':
        plan = RSLPLAN if name.startswith('rsl-') else PL
        r += [(1, 'ovb-place', [CL, '@', PR]), (0, 'ovb-check', [CL, '@', plan, PR]),
              (0, 'ovb-report', [CL, '@', plan, PR])]
        if not name.startswith('rsl-'):
            r += [(1, 'ovb-fit', ['--more', 'shop', CL, '@', PR])]
    elif fmt == 'plan':
        if name.startswith('rp-'):
            r += [(0, 'ovb-replay', ['@', RCL, RSE])]
        else:
            r += [(1, 'ovb-place', [cl, AP0, pr, '@']), (0, 'ovb-check', [cl, AP, '@', pr]),
                  (0, 'ovb-report', [cl, '@', pr]),
                  (0, "ovb-enforce", ['-t', 'cgroup', cl, '@'])]
            if mem:
                r += [(0, "ovb-enforce", ['-t', 'kubernetes', cl, '@'])]
    elif fmt == 'reserves':
        r += [(1, 'ovb-reserves', ['@']), (1, 'ovb-reserves', ['-j', '2', '--fanout', '2', '@'])]
    elif fmt == 'gain':
        r += [(0, 'ovb-report', ['@'])]
    elif fmt == 'bids':
        r += [(0, 'ovb-market', [MCL, '@']), (1, 'ovb-rebalance', [MCL, '@'])]
    elif fmt == 'rt':
        r += [(0, 'ovb-rt', ['@'])]
    elif fmt in ('backtest', 'fit', 'trade'):
        r += [(0, 'ovb-report', ['@'])]
    elif fmt == 'bitbrains':
        r = [(1, 'ovb-import', ['--bitbrains', '@'])]
    elif fmt == 'perfdata':
        r = [(1, 'ovb-onoff', ['-q', '-c', 'w=comm:^(nginx|postgres|redis)', '@']),
             (1, 'ovb-onoff', ['-q', '-c', 'w=comm:^(nginx|postgres|redis)', '<@'])]
    return r


counts = dict(runs=0, crash=0, sanitizer=0, hang=0, noreadback=0,
              bad_accepted=0, ok_rejected=0, unnamed=0, badstatus=0, leftover=0)
log = open(LOG, 'w')
for line in open(os.path.join(CORPUS, 'MANIFEST')):
    rel, cls = line.split()
    fmt, name = rel.split('/')
    path = os.path.join(CORPUS, rel)
    fmt_ok = None
    for rb, tool, args in readers(fmt, name):
        a = [path if x == '@' else '-' if x == '<@' else x for x in args]
        fin = open(path, 'rb') if '<@' in args else subprocess.DEVNULL
        d = os.path.join(work, 'o')
        shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
        counts['runs'] += 1
        why = []
        try:
            p = subprocess.run([tool, '-o', d + '/out'] + a, env=env,
                               stdin=fin, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=20)
            st, err = p.returncode, p.stderr.decode('latin-1')
        except subprocess.TimeoutExpired:
            counts['hang'] += 1
            log.write('HANG %s %s\n' % (tool, rel))
            continue
        if st < 0 or st >= 128 or st in (70, 134):
            counts['crash'] += 1
            why.append('crash/status %d' % st)
        if 'Sanitizer' in err or 'runtime error' in err:
            counts['sanitizer'] += 1
            why.append('sanitizer')
        left = os.listdir(d)
        ok1 = tool in ('ovb-check', 'ovb-replay', 'ovb-rt')
        if tool == 'ovb-fmt':
            fmt_ok = st == 0
        if st in (0,) or (st == 1 and ok1):
            if cls == 'bad':
                counts['bad_accepted'] += 1
                why.append('malformed accepted')
            if left != ['out']:
                counts['leftover'] += 1
                why.append('-o dir: %s' % left)
            elif rb:
                q = subprocess.run([BIN + '/ovb-fmt', d + '/out'], env=env,
                                   capture_output=True)
                if q.returncode:
                    counts['noreadback'] += 1
                    why.append('no readback: ' + q.stderr.decode('latin-1').strip()[:200])
        else:
            if cls == 'ok':
                counts['ok_rejected'] += 1
                why.append('valid input refused')
            if st not in (1, 64, 65, 66, 74) or (st == 1 and not ok1):
                if not why:
                    counts['badstatus'] += 1
                    why.append('status %d' % st)
            names = [path, '<stdin>'] + [x for x in a if os.path.isfile(x)]
            if not any(('\n' + err).find('\n%s: %s:' % (tool, n)) >= 0 for n in names):
                counts['unnamed'] += 1
                why.append('message does not name the file')
            if left:
                counts['leftover'] += 1
                why.append('-o dir: %s' % left)
        if why:
            log.write('%s %s %s [%s]: %s\n    %s\n' % (cls, tool, ' '.join(args), rel,
                      '; '.join(why), err.strip().replace('\n', '\n    ')[:600]))
shutil.rmtree(work)
print(' '.join('%s=%d' % kv for kv in counts.items()))
log.write(' '.join('%s=%d' % kv for kv in counts.items()) + '\n')
