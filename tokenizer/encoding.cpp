#include "tokenizer/encoding.h"

namespace bertkit::tok {

void Encoding::clear() {
  ids.clear();
  type_ids.clear();
  offsets.clear();
  words.clear();
  sequence.clear();
  special_mask.clear();
  attention_mask.clear();
  overflowing.clear();
  truncated = false;
}

void Encoding::reserve(std::size_t n) {
  ids.reserve(n);
  type_ids.reserve(n);
  offsets.reserve(n);
  words.reserve(n);
  sequence.reserve(n);
  special_mask.reserve(n);
  attention_mask.reserve(n);
}

void Encoding::push(std::int32_t id, std::int32_t type_id, Offsets off, std::int32_t word, std::int8_t seq,
                    bool special) {
  ids.push_back(id);
  type_ids.push_back(type_id);
  offsets.push_back(off);
  words.push_back(word);
  sequence.push_back(seq);
  special_mask.push_back(special ? 1 : 0);
  attention_mask.push_back(1);
}

void Encoding::finish_text_tokens(std::int8_t seq) {
  type_ids.resize(ids.size(), 0);
  sequence.resize(ids.size(), seq);
  special_mask.resize(ids.size(), 0);
  attention_mask.resize(ids.size(), 1);
}

void Encoding::append(const Encoding& other, std::size_t from, std::size_t to) {
  auto copy = [&](auto& dst, const auto& src) { dst.insert(dst.end(), src.begin() + from, src.begin() + to); };
  copy(ids, other.ids);
  copy(type_ids, other.type_ids);
  copy(offsets, other.offsets);
  copy(words, other.words);
  copy(sequence, other.sequence);
  copy(special_mask, other.special_mask);
  copy(attention_mask, other.attention_mask);
}

}  // namespace bertkit::tok
