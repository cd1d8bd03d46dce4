// BertPreTokenizer: whitespace splits and is dropped, every punctuation character (ASCII symbols and
// Unicode P*) is a word of its own. Expected splits checked against the reference library (npm
// tokenizers 0.23.2, bertPreTokenizer) on these made-up strings.
#include "tokenizer/bert_pretokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

using bertkit::tok::BertPreTokenizer;
using bertkit::tok::ByteSpan;
using bertkit::tok::UnicodeProfile;

namespace {

// The words of the whole text, separated by spaces (a word never holds whitespace).
std::string pretokenize(std::string_view text, UnicodeProfile profile = UnicodeProfile::Rust) {
  std::vector<ByteSpan> words;
  BertPreTokenizer(profile).split(text, 0, static_cast<std::uint32_t>(text.size()), words);
  std::string s;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i) s += ' ';
    s += text.substr(words[i].begin, words[i].end - words[i].begin);
  }
  return s;
}

}  // namespace

TEST_CASE("pre-tokenizer: whitespace separates words and is dropped") {
  CHECK(pretokenize("Hello, world!  foo") == "Hello , world ! foo");
  CHECK(pretokenize("  leading and trailing  ") == "leading and trailing");
  CHECK(pretokenize("a b\xE3\x80\x80" "c") == "a b c");  // U+3000
  CHECK(pretokenize("").empty());
  CHECK(pretokenize("   ").empty());
}

TEST_CASE("pre-tokenizer: ASCII symbols and Unicode punctuation are words of their own") {
  // $ ^ ` ~ are ASCII symbols (not Unicode P*) yet split; ¿ « — are P*; ₤ (Sc) is not punctuation.
  CHECK(pretokenize("a$b^c`d~e\xC2\xBF" "f\xC2\xAB" "g\xE2\x80\x94h\xE2\x82\xA4i") ==
        "a $ b ^ c ` d ~ e \xC2\xBF f \xC2\xAB g \xE2\x80\x94 h\xE2\x82\xA4i");
  CHECK(pretokenize("don't 3.14 x_y") == "don ' t 3 . 14 x _ y");
  CHECK(pretokenize("+=<>|") == "+ = < > |");
  CHECK(pretokenize("\xC2\xA1hola\xC2\xBF") == "\xC2\xA1 hola \xC2\xBF");
}

TEST_CASE("pre-tokenizer: splits only the given range, with offsets into the whole text") {
  std::vector<ByteSpan> words;
  std::string_view text = "skip this, not that";
  BertPreTokenizer(UnicodeProfile::Rust).split(text, 5, 10, words);
  REQUIRE(words.size() == 2);
  CHECK(words[0].begin == 5);
  CHECK(words[0].end == 9);
  CHECK(words[1].begin == 9);
  CHECK(words[1].end == 10);
}

TEST_CASE("pre-tokenizer: words and marks across the 63-byte blocks of the ASCII path") {
  // A long text built from known words, marks and separators of every length, so words start, end
  // and run on at every position of a block, and non-ASCII characters interrupt ASCII runs.
  const std::vector<std::string> words = {"a", "bb", "word", "\xC3\xA9t\xC3\xA9", "x\xE2\x82\xA4y",
                                          std::string(62, 'l'), std::string(63, 'm'), std::string(64, 'n'),
                                          std::string(130, 'o')};
  const std::vector<std::string> marks = {",", "!", "\xC2\xBF"};
  const std::vector<std::string> separators = {" ", "  ", std::string(61, ' '), "\xE3\x80\x80", " \xE3\x80\x80 "};
  std::string text, expected;
  std::uint32_t state = 12345;
  auto next = [&](std::size_t n) {
    state = state * 1103515245u + 12345u;
    return static_cast<std::size_t>(state >> 16) % n;
  };
  bool after_word = false;
  for (int k = 0; k < 2000; ++k) {
    const bool mark = next(3) == 0;
    const std::string& token = mark ? marks[next(marks.size())] : words[next(words.size())];
    // Two words need a separator between them; beside a mark one is optional.
    if ((after_word && !mark) || next(2) == 0) text += separators[next(separators.size())];
    text += token;
    if (!expected.empty()) expected += ' ';
    expected += token;
    after_word = !mark;
  }
  CHECK(pretokenize(text) == expected);
}
