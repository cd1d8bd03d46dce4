// The byte-level pieces on their own: GPT-2's split pattern, the byte alphabet, BPE merges by rank, the
// ByteLevel decoder and offset trimming.
#include "tokenizer/bpe.h"
#include "tokenizer/byte_level.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace bertkit::tok;

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<ByteSpan> words;
  split_gpt2(text, 0, static_cast<std::uint32_t>(text.size()), words);
  std::vector<std::string> out;
  for (const ByteSpan& w : words) out.push_back(text.substr(w.begin, w.end - w.begin));
  return out;
}

std::string alphabet(const std::string& bytes) {
  std::string s;
  for (char b : bytes) append_utf8(s, byte_level_char(static_cast<std::uint8_t>(b)));
  return s;
}

}  // namespace

TEST_CASE("byte level: GPT-2's pattern cuts words, contractions, numbers, symbols and runs of spaces") {
  using V = std::vector<std::string>;
  CHECK(split("Hello my friend, how is your day going?") ==
        V{"Hello", " my", " friend", ",", " how", " is", " your", " day", " going", "?"});
  CHECK(split("I'm 'sup don't") == V{"I", "'m", " '", "sup", " don", "'t"});
  CHECK(split("abc123 45x") == V{"abc", "123", " 45", "x"});
  // A run of spaces leaves its last one to the next word; at the end it stays whole.
  CHECK(split("a   b  ") == V{"a", "  ", " b", "  "});
  CHECK(split("x\n\n y") == V{"x", "\n\n", " y"});
  CHECK(split("x\ny") == V{"x", "\n", "y"});
  CHECK(split("caf\xC3\xA9\xC2\xA0\xE3\x80\x80z") == V{"caf\xC3\xA9", "\xC2\xA0", "\xE3\x80\x80", "z"});
  CHECK(split("!?'s") == V{"!?'", "s"});
  CHECK(split("") == V{});
}

TEST_CASE("byte level: every byte has its character, and tokens go back to bytes") {
  CHECK(byte_level_char(' ') == 0x120);
  CHECK(byte_level_char('\n') == 0x10A);
  CHECK(byte_level_char(0) == 0x100);
  CHECK(byte_level_char(0xAD) == 0x143);
  CHECK(byte_level_char('a') == 'a');
  CHECK(byte_level_char(0xE9) == 0xE9);
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  CHECK(byte_level_bytes(alphabet(all)) == all);
  CHECK_FALSE(byte_level_bytes("\xE2\x96\x81").has_value());  // "▁" is not in the alphabet
}

TEST_CASE("byte-level BPE: merges by rank, the leftmost on a tie, pieces of a character span all of it") {
  std::vector<std::pair<std::string, std::int64_t>> entries;
  for (int b = 0; b < 256; ++b) entries.emplace_back(alphabet(std::string(1, static_cast<char>(b))), b);
  for (const char* t : {"ab", "bc", "abc", "aa", "\xC3\xA9"}) entries.emplace_back(alphabet(t), static_cast<std::int64_t>(entries.size()));
  const Vocab vocab = Vocab::from_pairs(entries, "test");
  BpeOptions options;
  // "b c" outranks "a b": "abc" is a + bc, then no merge of a + bc exists.
  options.merges = std::make_shared<const BpeMerges>(BpeMerges{{"b", "c"}, {"a", "b"}, {"a", "a"}, {"ab", "c"}});
  const Bpe bpe(vocab, options);
  auto pieces = [&](const std::string& word) {
    std::vector<Piece> out;
    bpe.tokenize(word, out);
    std::vector<std::string> s;
    for (const Piece& p : out) s.push_back(std::string(vocab.token(p.id)) + "@" + std::to_string(p.begin) + ":" + std::to_string(p.end));
    return s;
  };
  using V = std::vector<std::string>;
  CHECK(pieces("abc") == V{"a@0:1", "bc@1:3"});
  CHECK(pieces("aaa") == V{"aa@0:2", "a@2:3"});
  CHECK(pieces("ab") == V{"ab@0:2"});
  // é (two bytes) has no merge here: both byte tokens span the whole character.
  CHECK(pieces("\xC3\xA9") == V{alphabet("\xC3") + "@0:2", alphabet("\xA9") + "@0:2"});
  // A long word takes the heap path, with the same result.
  std::string long_word;
  V want;
  for (int i = 0; i < 50; ++i) {
    long_word += "abc";
    want.push_back("a@" + std::to_string(3 * i) + ":" + std::to_string(3 * i + 1));
    want.push_back("bc@" + std::to_string(3 * i + 1) + ":" + std::to_string(3 * i + 3));
  }
  CHECK(pieces(long_word) == want);
  // A merge naming a token the vocabulary lacks is refused, naming it.
  options.merges = std::make_shared<const BpeMerges>(BpeMerges{{"x", "y"}});
  CHECK_THROWS_WITH(Bpe(vocab, options, "f.json"), doctest::Contains("f.json: merge 1 'x y'"));
}

TEST_CASE("byte level: the decoder turns characters back into bytes, invalid UTF-8 into U+FFFD") {
  const ByteLevelDecoder decoder(ByteLevelDecoderOptions{});
  CHECK(decoder.join({"Hello", alphabet(" world"), alphabet(" .")}) == "Hello world .");
  CHECK(decoder.decode({"Hello", alphabet(" world"), alphabet(" .")}) == "Hello world.");
  CHECK(decoder.join({alphabet("\xF0\x9F"), " ok"}) == "\xEF\xBF\xBD ok");
}

TEST_CASE("byte level: trim_offsets moves offsets off the spaces at a token's ends") {
  std::uint32_t begin = 5, end = 11;
  trim_offsets(space_ends(alphabet(" world")), false, false, begin, end);
  CHECK((begin == 6 && end == 11));
  begin = 0, end = 5;
  trim_offsets(space_ends(alphabet(" hello")), true, true, begin, end);  // the space add_prefix_space added
  CHECK((begin == 0 && end == 5));
  begin = 3, end = 4;
  trim_offsets(space_ends(alphabet(" ")), false, false, begin, end);
  CHECK((begin == 4 && end == 4));
}
