#!/usr/bin/env python3
"""Lists the sources that break the project's size limits: a file outside tests/ over 500 lines, a
function over 80 lines (from the first line of its signature to its closing brace). A function that is
a state machine or an opcode switch may be longer: the script lists it anyway, for a reader to judge.

    tests/tools/size_limits.py [--max-file 500] [--max-function 80] [PATH ...]

PATH defaults to the project's source folders (core cli commands records tokenizer bench). Exit status
1 when anything is listed, else 0. The parser is a brace counter, not a C++ parser: strings, character
literals and comments are skipped; a function is a brace block that ends its line, opened at namespace
or class level after a statement holding a parenthesis (lambdas inside a function count with it).
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_DIRS = ["core", "cli", "commands", "records", "tokenizer", "bench"]
SOURCE_SUFFIXES = {".cpp", ".h", ".cc", ".hpp"}


def code_only(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def without_directives(code):
    """Preprocessor lines (and their continuations) as statement ends: `#if defined(X)` is no signature."""
    lines, continued = code.split("\n"), False
    for k, line in enumerate(lines):
        directive = continued or line.lstrip().startswith("#")
        continued = directive and line.rstrip().endswith("\\")
        if directive:
            lines[k] = ";" + " " * max(len(line) - 1, 0)
    return "\n".join(lines)


def long_functions(path, limit):
    code = without_directives(code_only(path.read_text(encoding="utf-8", errors="replace")))
    stack = []  # per open brace: "scope" (namespace, class, extern, initialiser) or "function"
    statement_start = 0  # offset where the current statement began
    found = []
    for i, c in enumerate(code):
        if c in ";":
            statement_start = i + 1
        elif c == "{":
            head = code[statement_start:i]
            line_rest = code[i + 1:code.find("\n", i) if code.find("\n", i) >= 0 else len(code)]
            in_function = "function" in [kind for kind, _ in stack]
            is_function = (not in_function and "(" in head and not head.rstrip().endswith("=")
                           and not re.match(r"\s*(namespace|extern)\b", head) and line_rest.strip() == "")
            stack.append(("function" if is_function else "scope", head_start(code, statement_start)))
            statement_start = i + 1
        elif c == "}":
            if stack:
                kind, start = stack.pop()
                if kind == "function":
                    first = code.count("\n", 0, start) + 1
                    last = code.count("\n", 0, i) + 1
                    if last - first + 1 > limit:
                        name = re.sub(r"\s+", " ", code[start:code.find("(", start)]).strip().split(" ")[-1]
                        found.append((last - first + 1, first, name))
            statement_start = i + 1
    return found


def head_start(code, offset):
    """The first non-blank character of the statement that begins at `offset`."""
    while offset < len(code) and code[offset].isspace():
        offset += 1
    return offset


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-file", type=int, default=500)
    parser.add_argument("--max-function", type=int, default=80)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    roots = [pathlib.Path(p) for p in args.paths] or [ROOT / d for d in DEFAULT_DIRS]
    files = sorted(f for r in roots for f in ([r] if r.is_file() else r.rglob("*"))
                   if f.suffix in SOURCE_SUFFIXES and f.is_file())
    listed = 0
    for f in files:
        shown = f.relative_to(ROOT) if f.is_absolute() and ROOT in f.parents else f
        lines = f.read_text(encoding="utf-8", errors="replace").count("\n")
        if lines > args.max_file and "tests" not in shown.parts:
            print(f"{shown}: {lines} lines (file limit {args.max_file})")
            listed += 1
        for length, first, name in long_functions(f, args.max_function):
            print(f"{shown}:{first}: {name}: {length} lines (function limit {args.max_function})")
            listed += 1
    return 1 if listed else 0


if __name__ == "__main__":
    sys.exit(main())
