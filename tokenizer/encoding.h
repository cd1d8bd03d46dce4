#pragma once
// The result of tokenising one input (a text or a pair), as Hugging Face's Encoding: ids and their
// aligned attributes, plus the overflowing windows that truncation cut off.
#include <cstdint>
#include <vector>

namespace bertkit::tok {

struct Offsets {
  std::uint32_t begin = 0, end = 0;
  bool operator==(const Offsets&) const = default;
};

struct Encoding {
  std::vector<std::int32_t> ids;
  std::vector<std::int32_t> type_ids;
  std::vector<Offsets> offsets;            // UTF-8 byte offsets into the text of the token's sequence
  std::vector<std::int32_t> words;         // word index within its sequence; -1 for special tokens
  std::vector<std::int8_t> sequence;       // 0 = first text, 1 = second, -1 = special token
  std::vector<std::uint8_t> special_mask;  // 1 for tokens added by the post-processor and padding
  std::vector<std::uint8_t> attention_mask;
  std::vector<Encoding> overflowing;
  bool truncated = false;  // truncation removed tokens (kept in `overflowing` or not)

  std::size_t size() const { return ids.size(); }
  void clear();
  void reserve(std::size_t n);
  void push(std::int32_t id, std::int32_t type_id, Offsets offsets, std::int32_t word, std::int8_t seq,
            bool special);
  // Appends the tokens of one text in two steps: ids, offsets and words (push_text_token, or the arrays
  // directly), then, for all of them at once, what every token of a text shares (type id 0, the
  // sequence, not special, attended). In between, the other arrays are shorter than `ids`.
  void push_text_token(std::int32_t id, Offsets off, std::int32_t word) {
    ids.push_back(id);
    offsets.push_back(off);
    words.push_back(word);
  }
  void finish_text_tokens(std::int8_t seq);
  // Appends tokens [from, to) of `other`.
  void append(const Encoding& other, std::size_t from, std::size_t to);
};

}  // namespace bertkit::tok
