#pragma once
// The byte-level BPE model (GPT-2, RoBERTa): a word's bytes start as one symbol each (the vocabulary's
// byte-level character for it), then the adjacent pair of lowest merge rank is merged, the leftmost on
// a tie, until no pair has a merge, as Hugging Face's BPE does. The vocabulary is read through the
// byte-level alphabet (byte_level.h), so the model works on the text's own bytes; a piece that ends
// inside a character spans the whole character, as the reference's offsets do.
#include "tokenizer/model.h"
#include "tokenizer/vocab.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bertkit::tok {

using BpeMerges = std::vector<std::pair<std::string, std::string>>;

// tokenizer.json's BPE fields bertkit follows; the others (dropout, a continuing-subword prefix, an
// end-of-word suffix, byte_fallback) are refused by the loader.
struct BpeOptions {
  std::optional<std::string> unk_token;  // none: a byte without a token is dropped
  bool fuse_unk = false;                 // consecutive unknown bytes become one unknown token
  bool ignore_merges = false;            // a word that is a token is that token, whatever the merges
  std::shared_ptr<const BpeMerges> merges = std::make_shared<const BpeMerges>();  // in rank order
};

class Bpe : public Model {
 public:
  // Throws BadInput naming `where` when a merge names a token the vocabulary lacks, or the unknown
  // token is not in it.
  Bpe(const Vocab& vocab, const BpeOptions& options, const std::string& where = "tokenizer.json");

  void tokenize(std::string_view word, std::vector<Piece>& out) const override;

 private:
  struct Merge {
    std::uint64_t pair;  // left id << 32 | right id; 0 and an id of -1 is never a pair
    std::int32_t rank = -1, merged = -1;
  };
  const Merge* find(std::int32_t left, std::int32_t right) const;
  // The merges of a short word's symbols (the thread's scratch), by scanning its pairs.
  void merge_short(std::string_view word, std::vector<Piece>& out) const;
  static void emit(std::string_view word, std::int32_t id, std::uint32_t begin, std::uint32_t end,
                   std::vector<Piece>& out);

  const Vocab& vocab_;
  BpeOptions options_;
  std::int32_t unk_id_ = -1;
  std::array<std::int32_t, 256> byte_ids_;  // -1: the byte has no token
  std::vector<Merge> merges_;               // open addressing, a power of two long
};

}  // namespace bertkit::tok
