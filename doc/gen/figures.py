#!/usr/bin/env python3
"""figures.py -- fill the measured-figure tables of doc/*.md from the committed baseline.

A doc page asks for a table with a marker line naming what to select from
reports/baseline/metrics.csv (Python regular expressions, matched with re.search):

    <!-- figures: case=^compare-kepler$ metric=^order\\.(position|velocity)$ -->
    ...generated lines, replaced on every run...
    <!-- end figures -->

Optional keys: integrator=REGEX, precision=REGEX, dt=REGEX (the dt column as text; "^$" selects the
per-case rows, such as fitted orders).  The table lists case, integrator, dt, metric and
value, in the baseline's row order, values to 4 significant digits (round-off changes of
the baseline do not churn the docs; a real change does).

usage: doc/gen/figures.py [--check] [--baseline CSV] [PAGE.md ...]
  default pages: every doc/*.md; default baseline: reports/baseline/metrics.csv
  --check  write nothing; list the pages whose blocks differ and exit 1 (0 when all match)
Exit status 2 on a malformed marker (file:line named) or a block that selects no row.
"""
import csv
import glob
import os
import re
import sys

BEGIN = re.compile(r'^<!-- figures: (.*) -->$')
END = '<!-- end figures -->'
KEYS = ('case', 'integrator', 'precision', 'dt', 'metric')


def fail(msg):
    print('figures.py: ' + msg, file=sys.stderr)
    sys.exit(2)


def parse_spec(text, where):
    spec = {}
    for item in text.split():
        key, sep, value = item.partition('=')
        if not sep or key not in KEYS:
            fail('%s: "%s" is not KEY=REGEX with KEY one of %s' % (where, item, ', '.join(KEYS)))
        try:
            spec[key] = re.compile(value)
        except re.error as e:
            fail('%s: %s=%s: %s' % (where, key, value, e))
    if 'case' not in spec or 'metric' not in spec:
        fail('%s: a figures block needs at least case= and metric=' % where)
    return spec


def fmt(value):
    try:
        return '%.4g' % float(value)
    except ValueError:
        return value


def table(rows, spec, where):
    picked = [r for r in rows if all(spec[k].search(r[k]) for k in spec)]
    if not picked:
        fail('%s: the block selects no row of the baseline' % where)
    out = ['| case | integrator | dt | metric | value |', '| --- | --- | --- | --- | --- |']
    for r in picked:
        dt = fmt(r['dt']) if r['dt'] else ''
        scheme = r['integrator'] if r['precision'] == 'double' else '%s (%s)' % (
            r['integrator'], r['precision'])
        out.append('| %s | `%s` | %s | %s | %s |' % (r['case'], scheme, dt, r['metric'],
                                                  fmt(r['value'])))
    return out


def render(path, rows):
    lines = open(path, encoding='utf-8').read().split('\n')
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = BEGIN.match(lines[i])
        if m:
            where = '%s:%d' % (path, i + 1)
            spec = parse_spec(m.group(1), where)
            j = i + 1
            while j < len(lines) and lines[j] != END:
                j += 1
            if j == len(lines):
                fail('%s: no "%s" after the marker' % (where, END))
            out.extend(table(rows, spec, where))
            out.append(END)
            i = j
        i += 1
    return '\n'.join(out)


def main(argv):
    check = False
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    baseline = os.path.join(root, 'reports', 'baseline', 'metrics.csv')
    pages = []
    args = iter(argv)
    for a in args:
        if a == '--check':
            check = True
        elif a == '--baseline':
            baseline = next(args, None) or fail('--baseline needs a file')
        elif a.startswith('-'):
            fail('unknown option %s (--check, --baseline CSV)' % a)
        else:
            pages.append(a)
    if not pages:
        pages = sorted(glob.glob(os.path.join(root, 'doc', '*.md')))
    try:
        rows = list(csv.DictReader(open(baseline, newline='', encoding='utf-8')))
    except OSError as e:
        fail('%s: %s' % (baseline, e.strerror))
    differ = []
    for p in pages:
        old = open(p, encoding='utf-8').read()
        new = render(p, rows)
        if new != old:
            differ.append(p)
            if not check:
                open(p, 'w', encoding='utf-8').write(new)
    if check and differ:
        for p in differ:
            print('%s: figures differ from %s (run doc/gen/figures.py)' % (p, baseline))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
