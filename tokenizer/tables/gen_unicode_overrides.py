#!/usr/bin/env python3
"""Writes ../unicode_overrides.inc: the code points where the reference tokenizers' character tables
disagree with utf8proc's (Debian's libutf8proc, Unicode 15.0), which bertkit uses for everything else.

  * Rust: Hugging Face `tokenizers` 0.23.2 uses older category/normalisation tables (crates
    unicode_categories, unicode-normalization-alignments) and Rust's own, newer, lower-case mapping.
    Its behaviour comes from probe_rust_tokenizers.mjs's output (argument 1), which covers
    BertNormalizer, BertPreTokenizer, StripAccents, NFKD and the Whitespace and Digits pre-tokenizers.
  * Python: transformers' slow BertTokenizer on Python 3.11 uses unicodedata (Unicode 14.0): run this
    script with Python 3.11 so `unicodedata` is the reference.

The base rules below must stay identical to tokenizer/unicode.cpp's utf8proc-based rules.
Usage: python3.11 gen_unicode_overrides.py rust_props.tsv > ../unicode_overrides.inc
"""
import ctypes
import sys
import unicodedata

lib = ctypes.CDLL("libutf8proc.so.2")
lib.utf8proc_category.restype = ctypes.c_int
lib.utf8proc_tolower.restype = ctypes.c_int32
lib.utf8proc_decompose_char.restype = ctypes.c_ssize_t
lib.utf8proc_decompose_char.argtypes = [ctypes.c_int32, ctypes.POINTER(ctypes.c_int32), ctypes.c_ssize_t,
                                        ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
CATEGORIES = ["Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe",
              "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co"]
UTF8PROC_COMPAT = 1 << 2
UTF8PROC_DECOMPOSE = 1 << 3
WHITE_SPACE = {0x9, 0xA, 0xB, 0xC, 0xD, 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
               0x202F, 0x205F, 0x3000}
ASCII_PUNCT = {ord(c) for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}
_buf = (ctypes.c_int32 * 32)()
_last = ctypes.c_int(0)


def category(cp):
    return CATEGORIES[lib.utf8proc_category(cp)]


def nfd(cp, compat=0):
    n = lib.utf8proc_decompose_char(cp, _buf, 32, UTF8PROC_DECOMPOSE | compat, ctypes.byref(_last))
    return [_buf[i] for i in range(n)]


def ranges(cps):
    out = []
    for cp in sorted(cps):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def compare(cp, base, rust, only_base, only_rust):
    """Files cp where the base rule and the Rust library disagree on a class."""
    if base and not rust:
        only_base.append(cp)
    elif rust and not base:
        only_rust.append(cp)


def emit(name, comment, cps):
    print(f"// {comment}")
    print(f"constexpr CodeRange {name}[] = {{")
    rs = ranges(cps)
    for i in range(0, len(rs), 6):
        print("    " + " ".join(f"{{0x{a:X}, 0x{b:X}}}," for a, b in rs[i:i + 6]))
    if not rs:
        print("    {0x110000, 0x110000},  // none")
    print("};\n")


def main():
    rust = {}
    for line in open(sys.argv[1], encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        rust[int(f[0], 16)] = f
    if len(rust) != 0x110000 - 0x800:
        sys.exit("the probe output must cover every code point but the surrogates")

    keep_format, not_mn, extra_mn, no_decomp, not_punct, extra_punct, lower = [], [], [], [], [], [], []
    not_mark, extra_mark, no_compat = [], [], []
    not_word, extra_word, not_space, extra_space, not_numeric, extra_numeric = [], [], [], [], [], []
    for cp, (_, clean, strip, low, _cjk, pre, strip_accents, nfkd, ws_class, digit) in rust.items():
        cat = category(cp)
        removed = cp in (0, 0xFFFD) or (cat in ("Cc", "Cf", "Co", "Cs") and cp not in (9, 10, 13))
        if removed and clean == "K":
            keep_format.append(cp)
        elif not removed and clean == "D":
            sys.exit(f"U+{cp:04X}: deleted by the Rust library but not by the base rule")
        d = nfd(cp)
        if d == [cp]:
            if cat == "Mn" and strip == "=":
                not_mn.append(cp)
            elif cat != "Mn" and strip == "-":
                extra_mn.append(cp)
        elif strip == "=":
            no_decomp.append(cp)
        compare(cp, cat in ("Mn", "Mc", "Me"), strip_accents == "-", not_mark, extra_mark)
        kd = nfd(cp, UTF8PROC_COMPAT)
        rust_kd = [cp] if nfkd == "=" else [int(x, 16) for x in nfkd.split()]
        if rust_kd == [cp] and kd != [cp]:
            no_compat.append(cp)
        elif rust_kd != kd:
            sys.exit(f"U+{cp:04X}: the Rust library's NFKD is {rust_kd}, utf8proc's {kd}")
        if ws_class not in ("W", "S", "O"):
            sys.exit(f"U+{cp:04X}: the Whitespace pre-tokenizer gave {ws_class}")
        word = cat[0] in "LM" or cat in ("Nd", "Nl", "Pc") or cp in (0x200C, 0x200D)
        compare(cp, word, ws_class == "W", not_word, extra_word)
        compare(cp, cp in WHITE_SPACE, ws_class == "S", not_space, extra_space)
        compare(cp, cat in ("Nd", "Nl", "No"), digit == "1", not_numeric, extra_numeric)
        punct = cat.startswith("P") or cp in ASCII_PUNCT
        if pre == "P" and not punct:
            extra_punct.append(cp)
        elif pre == "N" and punct and cp not in WHITE_SPACE:
            not_punct.append(cp)
        simple = lib.utf8proc_tolower(cp)
        rust_lower = [cp] if low == "=" else [int(x, 16) for x in low.split()]
        if cp != 0x130 and rust_lower != [simple]:
            if len(rust_lower) != 1:
                sys.exit(f"U+{cp:04X}: unexpected multi-character lower case")
            lower.append((cp, rust_lower[0]))

    python_unassigned = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF
                         and unicodedata.category(chr(cp)) == "Cn" and category(cp) != "Cn"]
    python_other = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF
                    and unicodedata.category(chr(cp)) not in ("Cn", category(cp))]
    if python_other:
        sys.exit(f"Python's categories differ beyond new assignments: {python_other[:10]}")

    print("// Generated by tokenizer/tables/gen_unicode_overrides.py: do not edit by hand.")
    print(f"// Rust reference: tokenizers 0.23.2; Python reference: unicodedata {unicodedata.unidata_version}.\n")
    emit("kRustKeptFormat", "Cf in Unicode 15 but unassigned in the Rust tables: clean_text keeps them", keep_format)
    emit("kRustNotMn", "Mn in Unicode 15 but not in the Rust tables: strip_accents keeps them", not_mn)
    emit("kRustExtraMn", "Mn in the Rust tables only", extra_mn)
    emit("kRustNoDecomposition", "canonical decompositions newer than the Rust tables", no_decomp)
    emit("kRustNoCompatDecomposition", "compatibility decompositions newer than the Rust tables", no_compat)
    emit("kRustNotMark", "marks (Mn, Mc, Me) in Unicode 15 but not in the Rust tables: StripAccents keeps them",
         not_mark)
    emit("kRustExtraMark", "marks in the Rust tables only", extra_mark)
    emit("kRustNotWord", "word characters by the base rule (L, M, Nd, Nl, Pc, ZWNJ, ZWJ) that the Whitespace "
         "pre-tokenizer's \\w does not take", not_word)
    emit("kRustExtraWord", "word characters of the Whitespace pre-tokenizer's \\w beyond the base rule", extra_word)
    emit("kRustNotRegexSpace", "White_Space that the Whitespace pre-tokenizer's \\s does not take", not_space)
    emit("kRustExtraRegexSpace", "the Whitespace pre-tokenizer's \\s beyond White_Space", extra_space)
    emit("kRustNotNumeric", "numeric (Nd, Nl, No) in Unicode 15 but not to the Digits pre-tokenizer", not_numeric)
    emit("kRustExtraNumeric", "numeric to the Digits pre-tokenizer only", extra_numeric)
    emit("kRustNotPunct", "punctuation in Unicode 15 but not in the Rust tables", not_punct)
    emit("kRustExtraPunct", "punctuation in the Rust tables only", extra_punct)
    print("// Rust's lower case (a newer Unicode than utf8proc's) where it differs from utf8proc_tolower")
    print("constexpr LowerCase kRustLower[] = {")
    for i in range(0, len(lower), 6):
        print("    " + " ".join(f"{{0x{a:X}, 0x{b:X}}}," for a, b in lower[i:i + 6]))
    print("};\n")
    emit("kPythonUnassigned", f"assigned in Unicode 15 but not in Python's Unicode {unicodedata.unidata_version}",
         python_unassigned)


main()
