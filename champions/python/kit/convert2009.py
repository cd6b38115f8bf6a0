"""Converts a 2009 (Python 2) champion to Python 3, in place, keeping its meaning.

Usage: python3 convert2009.py path/to/prologin.py [more.py ...]

Each file is rewritten by 2to3's fixers (`print "x"`, `xrange`, `d.has_key(k)`,
`d.keys()` as a list, `except E, e`, ...) through fissix, the maintained fork of lib2to3
(Debian: python3-fissix; pip: fissix), or the standard library's lib2to3 where it is still
there (Python 3.12 and older); plus what 2to3 leaves to the reader:

- `/` keeps Python 2's meaning: `a / b` becomes `div2009(a, b)`, floor division when
  both are integers, true division otherwise (`/=` likewise), `div2009` being defined at
  the top of the file;
- leading tabs are expanded as Python 2 read them (to the next multiple of 8), so that
  indentation mixing tabs and spaces is no TabError.

The original is kept beside it, its name ending in `2` (`prologin.py2`); a file already
converted (holding `div2009`'s definition) is left as it is, so running the command twice
changes nothing. A file with `from __future__ import
division` keeps its `/`. Exit status 0 when every file is Python 3 afterwards,
1 otherwise (the reason printed).
"""

import os
import sys

HELPER = '''

def div2009(a, b):
    """Python 2's `/`: floor division between integers (added by convert2009.py)."""
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return a / b
'''
MARK = "def div2009(a, b):"


def _refactoring():
    """The package of fixers and its refactoring tool, or an error message."""
    try:
        from fissix import fixer_base, pytree, refactor
        from fissix.fixer_util import Call, Name, Comma
        from fissix.pgen2 import token
        package = "fissix"
    except ImportError:
        try:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from lib2to3 import fixer_base, pytree, refactor
                from lib2to3.fixer_util import Call, Name, Comma
                from lib2to3.pgen2 import token
            package = "lib2to3"
        except ImportError:
            return None, ("neither fissix nor lib2to3 is installed: install fissix "
                          "(Debian: apt-get install python3-fissix; else pip install fissix)")

    class FixClassicDivision(fixer_base.BaseFix):
        """`a / b` -> `div2009(a, b)`, `x /= b` -> `x = div2009(x, b)`."""

        active = True

        PATTERN = "term< any+ > | expr_stmt< any '/=' any >"

        def transform(self, node, results):
            if not self.active:
                return None
            if node.type == self.syms.expr_stmt:
                target, _, value = node.children
                operand, divisor = target.clone(), value.clone()
                operand.prefix, divisor.prefix = "", " "
                call = Call(Name("div2009"), [operand, Comma(), divisor])
                call.prefix = value.prefix
                return pytree.Node(self.syms.expr_stmt, [
                    target.clone(), pytree.Leaf(token.EQUAL, "=", prefix=node.children[1].prefix),
                    call])
            children = node.children
            if not any(c.type == token.SLASH for c in children[1::2]):
                return None
            # Left-associative: rebuild from the left, one operator at a time.
            left = children[0].clone()
            prefix = left.prefix
            left.prefix = ""
            for op, right in zip(children[1::2], children[2::2]):
                right = right.clone()
                if op.type == token.SLASH:
                    right.prefix = " "
                    left = Call(Name("div2009"), [left, Comma(), right])
                else:
                    left = pytree.Node(self.syms.term, [left, op.clone(), right])
            left.prefix = prefix
            return left

    fixers = refactor.get_fixers_from_package(package + ".fixes")

    class Tool(refactor.RefactoringTool):
        def get_fixers(self):
            pre, post = super().get_fixers()
            self.division = FixClassicDivision(self.options, self.fixer_log)
            return pre, post + [self.division]

    return Tool(fixers, {"print_function": False}), None


def _expand_leading_tabs(text):
    out = []
    for line in text.splitlines(keepends=True):
        body = line.lstrip(" \t")
        indent = line[:len(line) - len(body)]
        out.append(indent.expandtabs(8) + body)
    return "".join(out)


def _is_python3(text, path):
    try:
        compile(text, path, "exec")
        return True, None
    except SyntaxError as e:
        return False, "%s:%s: %s" % (path, e.lineno, e.msg)


def convert(path, tool):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # 2009's files were Latin-1
    if MARK in text:
        print("convert2009: %s is already converted" % path)
        return True
    source = _expand_leading_tabs(text)
    tool.division.active = "from __future__ import division" not in source
    if not source.endswith("\n"):
        source += "\n"
    tree = tool.refactor_string(source, path)
    converted = str(tree)
    # The helper after the first lines of comments and imports' start: at the top.
    lines = converted.splitlines(keepends=True)
    at = 0
    while at < len(lines) and (lines[at].startswith("#") or not lines[at].strip()):
        at += 1
    converted = "".join(lines[:at]) + HELPER.lstrip("\n") + "\n" + "".join(lines[at:])
    ok, why = _is_python3(converted, path)
    if not ok:
        print("convert2009: %s: still not Python 3 after conversion: %s" % (path, why),
              file=sys.stderr)
        return False
    with open(path + "2", "wb") as f:
        f.write(raw)
    with open(path, "w", encoding="utf-8") as f:
        f.write(converted)
    print("convert2009: %s converted to Python 3 (the original is %s2)" % (path, path))
    return True


def main(argv):
    if len(argv) < 2:
        print("usage: python3 convert2009.py path/to/prologin.py [more.py ...]",
              file=sys.stderr)
        return 2
    tool, why = _refactoring()
    if tool is None:
        print("convert2009: " + why, file=sys.stderr)
        return 1
    ok = True
    for path in argv[1:]:
        if not os.path.isfile(path):
            print("convert2009: no file %s" % path, file=sys.stderr)
            ok = False
            continue
        try:
            ok = convert(path, tool) and ok
        except Exception as e:  # a parse error of the converter: name the file
            print("convert2009: %s: cannot convert: %s" % (path, e), file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
