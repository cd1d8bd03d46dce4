#include "tokenizer/bert_pretokenizer.h"

#include "tokenizer/utf8.h"

namespace bertkit::tok {

void BertPreTokenizer::split(std::string_view text, std::uint32_t from, std::uint32_t to,
                             std::vector<ByteSpan>& words) const {
  using namespace charflag;
  std::uint32_t word_start = from;
  bool in_word = false;
  std::size_t i = from;
  while (i < to) {
    auto start = static_cast<std::uint32_t>(i);
    auto byte = static_cast<unsigned char>(text[i]);
    std::uint8_t f;
    if (byte < 0x80) {
      f = ascii_[byte];
      ++i;
    } else {
      f = table_.flags(next_code_point(text, i)) & (kWhitespace | kPunct);
    }
    if (f == 0) {
      if (!in_word) {
        word_start = start;
        in_word = true;
      }
      continue;
    }
    if (in_word) {
      words.push_back({word_start, start});
      in_word = false;
    }
    if (f & kPunct) words.push_back({start, static_cast<std::uint32_t>(i)});
  }
  if (in_word) words.push_back({word_start, to});
}

}  // namespace bertkit::tok
