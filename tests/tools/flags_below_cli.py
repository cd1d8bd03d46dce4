#!/usr/bin/env python3
"""Lists the string literals below the CLI that spell a command-line flag (`"--max-line-bytes"`).

    tests/tools/flags_below_cli.py [PATH ...]

Flags are the CLI's: core, tokenizer, records and commands name a setting (core/setting.h) and the
CLI spells it (cli/setting_spellings.cpp). A comment may still name a flag; a literal may not. PATH
defaults to those four folders. Raw string literals are data (the bench corpus quotes
`./configure --prefix=/usr/local`), not messages, and are not read. Exit status 1 when anything is
listed, else 0.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_DIRS = ["core", "tokenizer", "records", "commands"]
SOURCE_SUFFIXES = {".cpp", ".h", ".cc", ".hpp", ".inc"}

# One alternation, so a quote inside a comment or a comment marker inside a literal is not misread:
# comments, raw string literals (skipped whole), ordinary string literals, character literals.
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"'
                   r'|"(?P<text>(?:\\.|[^"\\\n])*)"|\'(?:\\.|[^\'\\\n])*\'', re.S)
FLAG = re.compile(r"--[a-z][a-z-]*")


def flag_literals(text):
    """(line, literal) for each string literal in `text` that holds a flag."""
    for match in TOKEN.finditer(text):
        literal = match.group("text")
        if literal is not None and FLAG.search(literal):
            yield text.count("\n", 0, match.start()) + 1, literal


def main(argv):
    paths = [pathlib.Path(p) for p in argv] or [ROOT / d for d in DEFAULT_DIRS]
    files = []
    for path in paths:
        files += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in SOURCE_SUFFIXES)
    found = 0
    for file in files:
        for line, literal in flag_literals(file.read_text(encoding="utf-8", errors="replace")):
            print(f"{file}:{line}: \"{literal}\" spells a flag below the CLI: name a Setting (core/setting.h)")
            found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
