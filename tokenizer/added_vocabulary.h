#pragma once
// Added tokens ([CLS], [MASK], user tokens): found in the text before the model sees it and kept whole,
// with Hugging Face's flags. Tokens with normalized=false are matched in the raw text, the others in the
// normalised text.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::tok {

struct AddedToken {
  std::string content;
  std::int32_t id = -1;
  bool special = false;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = false;
};

// A piece of text: either an added token (index into the token list) or plain text (-1).
struct Segment {
  std::uint32_t begin = 0, end = 0;
  std::int32_t token = -1;
};

class AddedVocabulary {
 public:
  AddedVocabulary() = default;
  // `normalized_contents[i]` is tokens[i].content after normalisation (used when normalized is true).
  AddedVocabulary(std::vector<AddedToken> tokens, std::vector<std::string> normalized_contents);

  // Splits text[from, to) on the tokens of one kind (normalized or not), leftmost-longest as the
  // Rust library's Aho-Corasick matcher does, then applies single_word / lstrip / rstrip.
  void split(std::string_view text, std::uint32_t from, std::uint32_t to, bool normalized,
             std::vector<Segment>& out) const;

  const std::vector<AddedToken>& tokens() const { return tokens_; }
  bool has(bool normalized) const { return normalized ? !by_first_byte_[1].empty() : !by_first_byte_[0].empty(); }
  const AddedToken* find_by_id(std::int32_t id) const;
  bool is_special_id(std::int32_t id) const;

 private:
  struct Pattern {
    std::string text;
    std::int32_t token;
  };
  std::vector<AddedToken> tokens_;
  // [normalized][first byte] -> patterns, longest first.
  std::vector<std::vector<Pattern>> by_first_byte_[2];
  bool starts_[2][256] = {};  // some pattern starts with this byte: the scan skips all others quickly
  int only_start_[2] = {-1, -1};  // the one byte all patterns start with, or -1
};

}  // namespace bertkit::tok
