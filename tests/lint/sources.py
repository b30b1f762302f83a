#!/usr/bin/env python3
"""Every shell file sources what it calls.

For each of the suite's shell files: the functions it calls that another
file defines must be defined in a file it sources, itself or through the
files those source.  A library that works only because its caller sourced
something first breaks the day it is sourced from somewhere else.

    tests/lint/sources.py FILE...        (exit 1 and one line per miss)

Calls are found as words: a name defined as a function anywhere in FILES,
standing in code (comments and quoted strings' words are skipped where a
simple scan can tell them apart).  Calls a file makes of functions that a
sourced bench/NAME.sh or the caller's own file provides on purpose
(driver_args, a monitor's NAME_start through "${m}_start") are not words
and are not seen.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEF = re.compile(r'^\s*([a-z_][a-z0-9_]*)\s*\(\)\s*[{(]', re.M)
SOURCE = re.compile(r'^\s*(?:source|\.)\s+"([^"]+)"', re.M)


def code_of(text):
    """The code of a shell file: no comments, no here-documents, and of a
    quoted string only its command substitutions."""
    out, i, n = [], 0, len(text)
    quote, heredoc = None, None
    lines = text.split('\n')
    for line in lines:
        if heredoc:
            if line.strip() == heredoc:
                heredoc = None
            else:
                out.append(' '.join(re.findall(r'\$\(([^)]*)\)', line)))
            continue
        m = re.search(r"<<-?\s*'?\"?(\w+)'?\"?", line)
        if m and not quote:
            heredoc = m.group(1)
        kept, j = [], 0
        while j < len(line):
            c = line[j]
            if quote == "'":
                if c == "'":
                    quote = None
                j += 1
                continue
            if quote == '"':
                if c == '\\':
                    j += 2
                    continue
                if c == '"':
                    quote = None
                elif line.startswith('$(', j):
                    depth, k = 0, j + 1
                    while k < len(line):
                        depth += line[k] == '('
                        depth -= line[k] == ')'
                        if depth == 0:
                            break
                        k += 1
                    kept.append(' ' + line[j + 2:k] + ' ')
                    j = k
                j += 1
                continue
            if c == '#' and (j == 0 or line[j - 1] in ' \t;'):
                break
            if c in '"\'':
                quote = c
            elif c == '\\':
                j += 1
            else:
                kept.append(c)
            j += 1
        out.append(''.join(kept))
    return '\n'.join(out)


def resolve(path, src):
    """The file a source line names, or None when it is not one of ours."""
    for prefix in ('${BASH_SOURCE[0]%/*}/',):
        if src.startswith(prefix):
            return os.path.normpath(os.path.join(os.path.dirname(path), src[len(prefix):]))
    m = re.match(r'\$(?:MMDELTA_ROOT|ROOT)/(.*)$', src)
    if m:
        return os.path.normpath(os.path.join(ROOT, m.group(1)))
    return None


def main(files):
    files = [os.path.normpath(os.path.abspath(f)) for f in files]
    text = {f: open(f).read() for f in files}
    # What a library defines; an executable's own functions are its own.
    defs = {}
    for f in files:
        if os.path.relpath(f, ROOT).startswith('drivers/'):
            for name in DEF.findall(text[f]):
                defs.setdefault(name, f)
    sources = {f: [r for r in (resolve(f, s) for s in SOURCE.findall(text[f])) if r] for f in files}

    def closure(f, seen):
        if f in seen:
            return seen
        seen.add(f)
        for s in sources.get(f, []):
            if s not in text and os.path.exists(s):
                text[s] = open(s).read()
                sources[s] = [r for r in (resolve(s, x) for x in SOURCE.findall(text[s])) if r]
            closure(s, seen)
        return seen

    misses = 0
    for f in files:
        for src in SOURCE.findall(text[f]):
            r = resolve(f, src)
            if r and '$' not in r and not os.path.exists(r):
                print('%s: sources %s, which does not exist' % (os.path.relpath(f, ROOT), src))
                misses += 1
        have = set()
        for g in closure(f, set()):
            have.update(DEF.findall(text.get(g, '')))
        code = code_of(text[f])
        for word in sorted(set(re.findall(r'(?<![\w$.-])([a-z_][a-z0-9_]*)(?![\w-])', code))):
            if word in defs and word not in have:
                print('%s: calls %s (%s) without sourcing it' %
                      (os.path.relpath(f, ROOT), word, os.path.relpath(defs[word], ROOT)))
                misses += 1
    return 1 if misses else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
