#pragma once
// tokenizer.json read in one pass: the WordPiece vocabulary streams into a list, the rest into a DOM.
// A Hugging Face tokenizer.json is mostly its vocabulary (30,000-120,000 entries); held as a DOM object
// (a std::map node and a string per entry) it cost most of a one-sentence call: parsing, copying and
// freeing it was 150 M instructions of 186 M for `bertkit tokenize -m MODEL "one sentence"`.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bertkit::tok {

struct TokenizerJson {
  nlohmann::json rest;  // the whole file but model.vocab
  // model.vocab's entries in file order; nullopt when there is no such object.
  std::optional<std::vector<std::pair<std::string, std::int64_t>>> vocab;
  // model.vocab as a list of [piece, score] (a Unigram model's); nullopt when it is no list. XLM-R's
  // 250,002 pieces as a DOM would cost a third of its load time in allocations.
  std::optional<std::vector<std::pair<std::string, double>>> scored_vocab;
};

// BadInput naming `where` for invalid JSON, nesting deeper than core::kMaxJsonDepth, or a vocabulary
// entry whose value is not an integer.
TokenizerJson parse_tokenizer_json(std::string_view text, std::string_view where);

}  // namespace bertkit::tok
