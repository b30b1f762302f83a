#!/usr/bin/env python3
"""Each header of reports/ declares what its own source defines.

    tests/lint/headers.py      (after make all; exit 1 and one line per miss)

For every reports/STAGE/NAME.h, each function it declares must be defined
in reports/STAGE/NAME.c, as the objects under build/obj say (nm), so that a
reader finds a function where its header is.  render.h is the one header of
the renderer family: each render_FORMAT.c defines its render_FORMAT().
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAMILY = {'reports/render/render.h': 'reports/render/render_'}


def defined():
    where = {}
    for o in glob.glob(os.path.join(ROOT, 'build/obj/reports/**/*.o'), recursive=True):
        out = subprocess.run(['nm', '--defined-only', o], capture_output=True, text=True).stdout
        src = os.path.relpath(o, os.path.join(ROOT, 'build/obj'))[:-2]
        for line in out.split('\n'):
            f = line.split()
            if len(f) == 3 and f[1] in 'TDRB':
                where[f[2]] = src
    return where


def main():
    where = defined()
    if not where:
        print('headers.py: no objects under build/obj/reports (make all first)')
        return 1
    bad = 0
    for h in sorted(glob.glob(os.path.join(ROOT, 'reports/*/*.h'))):
        rel = os.path.relpath(h, ROOT)
        text = re.sub(r'/\*.*?\*/', '', open(h).read(), flags=re.S)
        for name in re.findall(r'^[a-z][\w \*]*?\b(\w+)\(', text, flags=re.M):
            src = where.get(name)
            want = rel[:-2]
            ok = src == want or (rel in FAMILY and src and src.startswith(FAMILY[rel]))
            if not ok:
                print('%s declares %s, defined %s' % (rel, name, 'in ' + src + '.c' if src else 'nowhere'))
                bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
