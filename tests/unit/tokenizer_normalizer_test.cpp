// The normalisers on their own: BertNormalizer (fast tokenizer) and PythonBertNormalizer (--compat
// python), and the alignment of every normalised byte to the original text. Expected strings for inputs
// made up here were checked against the reference library (npm tokenizers 0.23.2, bertNormalizer).
#include "tokenizer_test_helpers.h"

#include "tokenizer/bert_normalizer.h"
#include "tokenizer/pipeline_pieces.h"
#include "tokenizer/python_normalizer.h"
#include "tokenizer/unicode_category.h"

#include <doctest/doctest.h>

using bertkit::tok::BertNormalizer;
using bertkit::tok::NormalizedText;
using bertkit::tok::NormalizerOptions;
using bertkit::tok::PythonBertNormalizer;
using bertkit::tok::UnicodeProfile;

namespace {

NormalizerOptions opts(bool lowercase, std::optional<bool> strip = std::nullopt, bool clean = true, bool chinese = true) {
  NormalizerOptions o;
  o.clean_text = clean;
  o.handle_chinese_chars = chinese;
  o.lowercase = lowercase;
  o.strip_accents = strip;
  return o;
}

NormalizedText run(const NormalizerOptions& o, std::string_view text, UnicodeProfile profile = UnicodeProfile::Rust) {
  NormalizedText out;
  if (profile == UnicodeProfile::Python)
    PythonBertNormalizer(o).normalize(text, 0, out);
  else
    BertNormalizer(o, profile).normalize(text, 0, out);
  return out;
}

std::string norm(const NormalizerOptions& o, std::string_view text, UnicodeProfile profile = UnicodeProfile::Rust) {
  return run(o, text, profile).text;
}

// "b:e" of the original span behind each normalised byte.
std::string alignment(const NormalizedText& n) {
  std::string s;
  for (std::size_t i = 0; i < n.text.size(); ++i) s += fmt::format("{}{}:{}", i ? " " : "", n.begin_of(i), n.end_of(i));
  return s;
}

}  // namespace

TEST_CASE("normalizer: clean_text drops NUL, U+FFFD, controls and format characters") {
  const std::string text = std::string("a\0b", 3) + "\xEF\xBF\xBD" "c\x07" "d\xE2\x80\x8B" "e\xC2\xAD" "f";
  CHECK(norm(opts(false), text) == "abcdef");
  CHECK(norm(opts(true), text) == "abcdef");
  CHECK(norm(opts(false), text, UnicodeProfile::Python) == "abcdef");
  // Without clean_text they stay.
  CHECK(norm(opts(false, std::nullopt, false), text) == text);
  // Deleted characters leave no trace in the alignment: 'b' is byte 2 of the original, 'c' byte 6.
  CHECK(alignment(run(opts(false), text)) == "0:1 2:3 6:7 8:9 12:13 15:16");
}

TEST_CASE("normalizer: every whitespace character becomes one space") {
  // tab, LF, CR, NBSP, U+3000 ideographic space, U+2028 line separator
  const std::string text = "a\tb\nc\r\xC2\xA0" "d\xE3\x80\x80" "e\xE2\x80\xA8" "f";
  CHECK(norm(opts(true), text) == "a b c  d e f");
  // The space for a multi-byte character spans all of its bytes.
  CHECK(alignment(run(opts(true), "x\xE3\x80\x80y")) == "0:1 1:4 4:5");
}

TEST_CASE("normalizer: Rust keeps unassigned code points, the Python tokenizer deletes them") {
  const std::string text = "a\xCD\xB8" "b";  // U+0378 is unassigned
  CHECK(norm(opts(false), text) == text);
  CHECK(norm(opts(false), text, UnicodeProfile::Python) == "ab");
}

TEST_CASE("normalizer: a code point assigned after Unicode 15.0 is unassigned to both references, whatever utf8proc says") {
  // U+2EBF0 (CJK Extension I) and U+31EF came with Unicode 15.1, which Debian 13's utf8proc has: the
  // override tables are differences from 15.0, and Python 3.11 (Unicode 14.0) deletes the code point.
  const std::string ext_i = "a\xF0\xAE\xAF\xB0" "b", stroke = "a\xE3\x87\xAF" "b";
  CHECK(norm(opts(false), ext_i) == ext_i);
  CHECK(norm(opts(false), ext_i, UnicodeProfile::Python) == "ab");
  CHECK(norm(opts(false), stroke, UnicodeProfile::Python) == "ab");
  CHECK(bertkit::tok::unicode_category(0x2EBF0) == UTF8PROC_CATEGORY_CN);
  CHECK(bertkit::tok::unicode_category(0x4E00) == UTF8PROC_CATEGORY_LO);  // assigned before: as utf8proc says
  // A utf8proc with yet another Unicode needs tokenizer/tables/gen_unicode_newer.py run again.
  CHECK_MESSAGE(bertkit::tok::unicode_version_covered(utf8proc_unicode_version()),
                "utf8proc has Unicode ", utf8proc_unicode_version());
  CHECK_FALSE(bertkit::tok::unicode_version_covered("16.0.0"));
}

TEST_CASE("normalizer: CJK ideographs get a space on each side") {
  const std::string text = "x\xE4\xB8\xAD\xE6\x96\x87y";  // x中文y
  CHECK(norm(opts(true), text) == "x \xE4\xB8\xAD  \xE6\x96\x87 y");
  CHECK(norm(opts(true, std::nullopt, true, false), text) == text);
  // The spaces belong to the ideograph they surround.
  CHECK(alignment(run(opts(true), "\xE4\xB8\xAD")) == "0:3 0:3 0:3 0:3 0:3");
  // Hiragana and Hangul are not in BERT's CJK blocks.
  CHECK(norm(opts(false), "\xE3\x81\x82\xED\x95\x9C") == "\xE3\x81\x82\xED\x95\x9C");
}

TEST_CASE("normalizer: CJK Extension E starts at U+2B920 in the Rust library, U+2B820 in Python") {
  CHECK_FALSE(bertkit::tok::is_chinese_char(0x2B820, UnicodeProfile::Rust));
  CHECK(bertkit::tok::is_chinese_char(0x2B920, UnicodeProfile::Rust));
  CHECK(bertkit::tok::is_chinese_char(0x2B820, UnicodeProfile::Python));
  CHECK(bertkit::tok::is_chinese_char(0x2B81F, UnicodeProfile::Rust));  // end of Extension D
  const std::string e1 = "\xF0\xAB\xA0\xA0", e2 = "\xF0\xAB\xA4\xA0";  // U+2B820, U+2B920
  CHECK(norm(opts(false), e1 + e2) == e1 + " " + e2 + " ");
  CHECK(norm(opts(false), e1 + e2, UnicodeProfile::Python) == " " + e1 + "  " + e2 + " ");
}

TEST_CASE("normalizer: lower-casing and accent stripping, strip_accents following lowercase unless set") {
  const std::string text = "H\xC3\xA9llo \xC4\xB0stanbul \xC3\x85\xC3\x89";  // Héllo İstanbul ÅÉ
  CHECK(opts(true).strips_accents());
  CHECK_FALSE(opts(false).strips_accents());
  CHECK_FALSE(opts(true, false).strips_accents());
  CHECK(opts(false, true).strips_accents());
  CHECK(norm(opts(true), text) == "hello istanbul ae");
  // lower case only: İ becomes i + U+0307 (the one two-character lower case)
  CHECK(norm(opts(true, false), text) == "h\xC3\xA9llo i\xCC\x87stanbul \xC3\xA5\xC3\xA9");
  CHECK(norm(opts(false), text) == text);
  CHECK(norm(opts(false, true), text) == "Hello Istanbul AE");
  // Lower-casing is per character: no final sigma (ΟΔΟΣ -> οδοσ).
  CHECK(norm(opts(true, false), "\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3") == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83");
  // ẞ lower-cases to ß; ǅ (title case) to ǆ.
  CHECK(norm(opts(true, false), "\xE1\xBA\x9E \xC7\x85") == "\xC3\x9F \xC7\x86");
}

TEST_CASE("normalizer: offsets survive lower-casing and NFD") {
  // İ (2 bytes) -> i + U+0307: all three bytes point at the whole İ.
  CHECK(norm(opts(true, false), "\xC4\xB0x") == "i\xCC\x87x");
  CHECK(alignment(run(opts(true, false), "\xC4\xB0x")) == "0:2 0:2 0:2 2:3");
  // With stripping the mark is gone; i still covers İ.
  CHECK(alignment(run(opts(true), "\xC4\xB0x")) == "0:2 2:3");
  // Precomposed é -> e covering both bytes; decomposed e + U+0301 -> e covering only the e.
  CHECK(alignment(run(opts(true), "\xC3\xA9!")) == "0:2 2:3");
  CHECK(norm(opts(true), "e\xCC\x81!") == "e!");
  CHECK(alignment(run(opts(true), "e\xCC\x81!")) == "0:1 3:4");
  // A base offset shifts every span.
  NormalizedText out;
  BertNormalizer(opts(true), UnicodeProfile::Rust).normalize("Ab", 10, out);
  CHECK(alignment(out) == "10:11 11:12");
}

TEST_CASE("normalizer: offsets into the original text through the whole tokenizer") {
  // Expected values from the reference library (npm tokenizers 0.23.2) on this made-up line.
  const std::string text = "\xC4\xB0stanbul cafe\xCC\x81 \xF0\x9F\x98\x80x H\xC3\xA9llo";  // İstanbul café 😀x Héllo
  const auto& uncased = bktest::shared_tokenizer("bert-base-uncased");
  auto e = uncased.encode(text, std::nullopt, {});
  CHECK(bktest::join(e.ids) == "101 9960 7668 100 7592 102");
  CHECK(bktest::char_offsets_str(e, text) == "0:0 0:8 9:13 15:17 18:23 0:0");
  CHECK(bktest::byte_offsets_str(e) == "0:0 0:9 10:14 17:22 23:29 0:0");

  const auto& cased = bktest::shared_tokenizer("bert-base-cased");
  e = cased.encode(text, std::nullopt, {});
  CHECK(bktest::join(e.ids) == "101 300 13946 27515 17287 28310 100 145 2744 6643 102");
  CHECK(bktest::char_offsets_str(e, text) == "0:0 0:1 1:5 5:8 9:13 13:14 15:17 18:19 19:20 20:23 0:0");
}

TEST_CASE("normalizer: --compat python applies NFC when not lower-casing") {
  const std::string decomposed = "cafe\xCC\x81";
  CHECK(norm(opts(false), decomposed) == decomposed);
  CHECK(norm(opts(false), decomposed, UnicodeProfile::Python) == "caf\xC3\xA9");
  // The composed é stands for both original characters.
  CHECK(alignment(run(opts(false), decomposed, UnicodeProfile::Python)) == "0:1 1:2 2:3 3:6 3:6");
  // Lower-casing: NFD + strip as the fast tokenizer does.
  CHECK(norm(opts(true), decomposed, UnicodeProfile::Python) == "cafe");
  CHECK(norm(opts(true), "H\xC3\xA9llo \xC4\xB0stanbul", UnicodeProfile::Python) == "hello istanbul");
}

TEST_CASE("normalizer: a Sequence runs each step on the text of the one before, offsets through all") {
  // BertNormalizer without lower-casing, then Lowercase: the same text and alignment as one
  // BertNormalizer that lower-cases (and keeps accents). İ becomes three bytes, 中 gets spaces.
  const std::string text = "\xC4\xB0x \xE4\xB8\xAD" "Ab\xC3\x89";  // İx 中AbÉ
  const std::vector<bertkit::tok::NormalizerStep> steps = {opts(false, false), bertkit::tok::LowercaseSpec{}};
  auto sequence = bertkit::tok::make_normalizer(steps, UnicodeProfile::Rust);
  NormalizedText out;
  sequence->normalize(text, 5, out);
  NormalizedText expected;
  BertNormalizer(opts(true, false), UnicodeProfile::Rust).normalize(text, 5, expected);
  CHECK(out.text == expected.text);
  CHECK(alignment(out) == alignment(expected));
  CHECK(alignment(out) == "5:7 5:7 5:7 7:8 8:9 9:12 9:12 9:12 9:12 9:12 12:13 13:14 14:16 14:16");
  // No steps at all: the text as it is.
  out.clear();
  bertkit::tok::make_normalizer({}, UnicodeProfile::Rust)->normalize("Ab", 3, out);
  CHECK(out.text == "Ab");
  CHECK(alignment(out) == "3:4 4:5");
}
