#include "tokenizer/unicode.h"

#include "tokenizer/unicode_category.h"

#include <algorithm>
#include <span>

namespace bertkit::tok {

namespace {

struct CodeRange {
  char32_t first, last;
};
struct LowerCase {
  char32_t from, to;
};

#include "tokenizer/unicode_newer.inc"
#include "tokenizer/unicode_overrides.inc"

// Always inlined: a call per character otherwise, depending on what else shares the unity batch.
inline __attribute__((always_inline)) bool in_ranges(std::span<const CodeRange> ranges, char32_t c) {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), c,
                             [](char32_t v, const CodeRange& r) { return v < r.first; });
  return it != ranges.begin() && c <= std::prev(it)->last;
}

bool is_ascii_punct(char32_t c) {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

constexpr char32_t kDottedCapitalI = 0x130;  // lower case: i + U+0307, the only two-character mapping

}  // namespace

utf8proc_category_t unicode_category(char32_t c) {
  const utf8proc_category_t cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
  if (cat != UTF8PROC_CATEGORY_CN && c >= kAssignedAfterUnicode15[0].first && in_ranges(kAssignedAfterUnicode15, c))
    return UTF8PROC_CATEGORY_CN;
  return cat;
}

bool unicode_version_covered(std::string_view utf8proc_version) {
  return utf8proc_version == "15.0.0" || utf8proc_version == kNewerUnicodeVersion;
}

bool is_chinese_char(char32_t c, UnicodeProfile profile) {
  // The CJK Unified Ideographs blocks exactly as each reference lists them: the Rust library starts its
  // Extension E range at U+2B920 where BERT's Python code (and Unicode) says U+2B820.
  char32_t ext_e_first = profile == UnicodeProfile::Rust ? 0x2B920 : 0x2B820;
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= ext_e_first && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

const CharTable& CharTable::get(UnicodeProfile profile) {
  static const CharTable rust(UnicodeProfile::Rust);
  static const CharTable python(UnicodeProfile::Python);
  return profile == UnicodeProfile::Rust ? rust : python;
}

CharTable::~CharTable() {
  for (auto& block : blocks_) delete[] block.load();
}

const std::uint8_t* CharTable::fill_block(char32_t block) const {
  auto* flags = new std::uint8_t[256];
  for (char32_t k = 0; k < 256; ++k) {
    char32_t c = (block << 8) | k;
    flags[k] = (c >= 0xD800 && c <= 0xDFFF) ? 0 : compute_flags(c);
  }
  const std::uint8_t* expected = nullptr;
  if (blocks_[block].compare_exchange_strong(expected, flags, std::memory_order_acq_rel)) return flags;
  delete[] flags;
  return expected;
}

bool CharTable::unassigned_in_reference(char32_t c) const {
  return profile_ == UnicodeProfile::Python && in_ranges(kPythonUnassigned, c);
}

bool CharTable::is_mn(char32_t c) const {
  if (profile_ == UnicodeProfile::Rust) {
    if (in_ranges(kRustExtraMn, c)) return true;
    if (in_ranges(kRustNotMn, c)) return false;
  } else if (unassigned_in_reference(c)) {
    return false;
  }
  return unicode_category(c) == UTF8PROC_CATEGORY_MN;
}

char32_t CharTable::simple_lower(char32_t c) const {
  if (profile_ == UnicodeProfile::Rust) {
    auto it = std::lower_bound(std::begin(kRustLower), std::end(kRustLower), c,
                               [](const LowerCase& l, char32_t v) { return l.from < v; });
    if (it != std::end(kRustLower) && it->from == c) return it->to;
  }
  return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
}

std::uint8_t CharTable::compute_flags(char32_t c) const {
  using namespace charflag;
  utf8proc_category_t cat = unicode_category(c);
  bool unassigned = cat == UTF8PROC_CATEGORY_CN || unassigned_in_reference(c);
  std::uint8_t f = 0;

  bool other = cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF || cat == UTF8PROC_CATEGORY_CO ||
               cat == UTF8PROC_CATEGORY_CS;
  if (profile_ == UnicodeProfile::Rust && in_ranges(kRustKeptFormat, c)) other = false;
  // The Python tokenizer drops every category starting with C, unassigned code points included.
  if (profile_ == UnicodeProfile::Python && unassigned) other = true;
  bool keep_as_space = c == '\t' || c == '\n' || c == '\r';
  if (c == 0 || c == 0xFFFD || (other && !keep_as_space)) {
    f |= kDelete;
  } else if (profile_ == UnicodeProfile::Rust ? is_white_space(c)
                                              : (keep_as_space || c == ' ' || cat == UTF8PROC_CATEGORY_ZS)) {
    f |= kCleanSpace;
  }
  if (is_white_space(c)) f |= kWhitespace;

  bool punct = is_ascii_punct(c) || (!unassigned && cat >= UTF8PROC_CATEGORY_PC && cat <= UTF8PROC_CATEGORY_PO);
  if (profile_ == UnicodeProfile::Rust) {
    if (in_ranges(kRustExtraPunct, c)) punct = true;
    if (in_ranges(kRustNotPunct, c)) punct = false;
  }
  if (punct && !is_white_space(c)) f |= kPunct;
  if (is_chinese_char(c, profile_)) f |= kChinese;

  if (is_mn(c)) f |= kMn | kAccent;
  std::u32string nfd;
  decompose(c, nfd);
  if (nfd.size() != 1 || nfd[0] != c) f |= kAccent;
  if (c == kDottedCapitalI || simple_lower(c) != c) f |= kLowerChange;
  return f;
}

void CharTable::decompose(char32_t c, std::u32string& out) const { append_decomposition(c, false, out); }

void CharTable::decompose_compat(char32_t c, std::u32string& out) const { append_decomposition(c, true, out); }

void CharTable::append_decomposition(char32_t c, bool compat, std::u32string& out) const {
  if (profile_ == UnicodeProfile::Rust &&
      (in_ranges(kRustNoDecomposition, c) || (compat && in_ranges(kRustNoCompatDecomposition, c)))) {
    out.push_back(c);
    return;
  }
  utf8proc_int32_t buf[32];  // the longest, U+FDFA's compatibility decomposition, is 18
  int last_boundclass = 0;
  const auto options = static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE | (compat ? UTF8PROC_COMPAT : 0));
  utf8proc_ssize_t n = utf8proc_decompose_char(static_cast<utf8proc_int32_t>(c), buf, 32, options, &last_boundclass);
  if (n <= 0 || n > 32) {
    out.push_back(c);
    return;
  }
  for (utf8proc_ssize_t i = 0; i < n; ++i) out.push_back(static_cast<char32_t>(buf[i]));
}

int CharTable::combining_class(char32_t c) const {
  if (c < 0x300) return 0;
  if (profile_ == UnicodeProfile::Rust && in_ranges(kRustNotMark, c)) return 0;
  return utf8proc_get_property(static_cast<utf8proc_int32_t>(c))->combining_class;
}

bool CharTable::is_mark(char32_t c) const {
  if (c < 0x300) return false;
  if (profile_ == UnicodeProfile::Rust) {
    if (in_ranges(kRustExtraMark, c)) return true;
    if (in_ranges(kRustNotMark, c)) return false;
  }
  const auto cat = unicode_category(c);
  return cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC || cat == UTF8PROC_CATEGORY_ME;
}

bool CharTable::is_word(char32_t c) const {
  if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  if (profile_ == UnicodeProfile::Rust) {
    if (in_ranges(kRustExtraWord, c)) return true;
    if (in_ranges(kRustNotWord, c)) return false;
  }
  if (c == 0x200C || c == 0x200D) return true;
  switch (unicode_category(c)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_PC:
      return true;
    default:
      return false;
  }
}

bool CharTable::is_regex_space(char32_t c) const {
  if (profile_ == UnicodeProfile::Rust) {
    if (in_ranges(kRustExtraRegexSpace, c)) return true;
    if (in_ranges(kRustNotRegexSpace, c)) return false;
  }
  return is_white_space(c);
}

bool CharTable::is_numeric(char32_t c) const {
  if (c < 0x80) return c >= '0' && c <= '9';
  if (profile_ == UnicodeProfile::Rust) {
    if (in_ranges(kRustExtraNumeric, c)) return true;
    if (in_ranges(kRustNotNumeric, c)) return false;
  }
  const auto cat = unicode_category(c);
  return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_NO;
}

void CharTable::lower(char32_t c, std::u32string& out) const {
  if (c == kDottedCapitalI) {
    out.push_back('i');
    out.push_back(0x307);
    return;
  }
  out.push_back(simple_lower(c));
}

bool is_white_space(char32_t c) {
  switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20: case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

}  // namespace bertkit::tok
