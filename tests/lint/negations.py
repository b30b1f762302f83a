#!/usr/bin/env python3
"""A negated check in a bats test must be able to fail.

    tests/lint/negations.py FILE...       (exit 1 and one line per dead check)
    tests/lint/negations.py --self-test   (the lint on tests/lint/negations.cases)

bats runs a test's body under `set -e`, and bash exempts a pipeline negated
with `!` from it: `! grep -q x f` in the middle of a test never fails the
test, whatever grep finds.  Only as the last command of a test (or of a
function, whose status its caller sees) does its status count.  So in the
body of a `@test` or a function, a `!` that starts a pipeline -- at the
start of a line or after `;`, `&&`, `||` -- is refused unless it is the
last pipeline of the body's last line.  Conditions (`if !`, `while !`,
`until !`) are tests of their own and are left alone; `run ! cmd`,
`[ ! -e f ]` and `! cmd || false` are the forms that can fail.  A
continued command is named by its first line.

The self-test runs the lint over a file of cases, each dead one marked
`# dead` on its line (a continued command's on its last line), and fails
unless the lint names exactly those: a lint that cannot fail checks
nothing either.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, 'tests/lint/negations.cases')
OPEN = re.compile(r'^(@test\b.*|[A-Za-z_][\w-]*\s*\(\)\s*)\{\s*$')
NEGATION = re.compile(r'(?:^|;|&&|\|\|)\s*!\s')
CONDITION = re.compile(r'^\s*(if|elif|while|until)\b')


HEREDOC = re.compile(r'<<-?\s*([\'"]?)(\w+)\1')


def logical_lines(text):
    """(first line, last line, code) of each command line of a shell file,
    continuations, multi-line strings and lines ending in | or && joined.
    Of the code only what runs at its top level is kept: a quoted string
    or a command or parameter substitution is one word `S`; comments and
    here-documents are gone."""
    out, code, first, stack, heredocs = [], [], 1, [], []
    lines, n = text.split('\n'), 0
    while n < len(lines):
        line, j, continued = lines[n], 0, False
        n += 1
        while j < len(line):
            c, top = line[j], (stack[-1] if stack else None)
            opened = None
            if top == "'":
                if c == "'":
                    stack.pop()
            elif c == '\\':
                continued = j == len(line) - 1
                j += 1
            elif top == '"' and c == '"':
                stack.pop()
            elif line.startswith('$(', j) or line.startswith('${', j):
                opened = line[j:j + 2]
                j += 1
            elif top == '"':
                pass
            elif c in '\'"':
                opened = c
            elif c == '(' and top in ('$(', '('):
                opened = '('
            elif (c == ')' and top in ('$(', '(')) or (c == '}' and top == '${'):
                stack.pop()
            elif top is None:
                if c == '#' and (j == 0 or line[j - 1] in ' \t;'):
                    break
                m = HEREDOC.match(line, j)
                if m and not line.startswith('<<<', j):
                    heredocs.append(m.group(2))
                code.append(c)
            if opened:
                if not stack:
                    code.append('S')
                stack.append(opened)
            j += 1
        if stack or continued or re.search(r'(\||&&)\s*$', ''.join(code)):
            code.append(' ')
            continue
        out.append((first, n, ''.join(code)))
        for word in heredocs:
            while n < len(lines) and lines[n].strip() != word:
                n += 1
            n += 1
        code, first, heredocs = [], n + 1, []
    return out


def blocks(lines):
    """The bodies of tests and functions: lists of (first, last, text), code only."""
    body = None
    for first, last, text in lines:
        if body is None:
            if OPEN.match(text):
                body = []
            continue
        if text.rstrip() == '}':
            yield body
            body = None
        elif text.strip():
            body.append((first, last, text))


def can_fail(rest, is_last_line):
    """Whether a negated pipeline, followed on its line by REST, fails its test
    when it is false: when `||` takes over its status, or nothing follows it on
    the body's last line."""
    op = re.search(r';|&&|\|\|', rest)
    if op:
        return op.group() == '||'
    return is_last_line


def dead(path):
    """(first, last) lines of each negation in PATH that cannot fail its test."""
    found = []
    for body in blocks(logical_lines(open(path).read())):
        for i, (first, last, text) in enumerate(body):
            if CONDITION.match(text):
                continue
            for m in NEGATION.finditer(text):
                if not can_fail(text[m.end():], i == len(body) - 1):
                    found.append((first, last))
                    break
    return found


def self_test():
    want = [n for n, line in enumerate(open(CASES).read().split('\n'), 1) if line.endswith('# dead')]
    got = [last for first, last in dead(CASES)]
    if not want or got != want:
        print('negations.py --self-test: %s names lines %s, its cases mark %s'
              % (os.path.relpath(CASES, ROOT), got, want))
        return 1
    return 0


def main(args):
    if args == ['--self-test']:
        return self_test()
    bad = 0
    for path in args:
        for n, _ in dead(path):
            print('%s:%d: a `!` check that is not the test\'s last command never fails it '
                  '(use run !, [ ... ] or || false)' % (os.path.relpath(path, ROOT), n))
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
