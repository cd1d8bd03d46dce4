#pragma once
// A PyLate ColBERT model's vectors: a query or document text becomes the model input PyLate builds
// (ColBERT.tokenize: truncated to length − 1, the prefix id inserted after [CLS], queries padded with
// [MASK] to query_length and those left unattended unless attend_to_expansion_tokens), the encoder
// runs, every token's row goes through the Dense modules, a document's skiplist tokens are dropped, and
// each kept vector is L2-normalised (ColBERT.encode).
#include "commands/embed.h"
#include "core/loading/model_source.h"
#include "core/model/batching.h"
#include "core/model/encoder.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"
#include "tokenizer/encoding.h"
#include "tokenizer/tokenizer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace bertkit::cmd {

// How one side, queries or documents, becomes a model input.
struct ColbertSide {
  std::optional<std::int32_t> prefix_id;  // none: an empty prefix
  std::int64_t length = 0;                // model input tokens at most (a query's exactly, when expanded)
  bool expand = false;                    // pad to `length` with the mask id
  bool attend_expansion = false;          // the padding is attended to
  // Tokens the tokenizer may keep (special tokens included) before the prefix goes in.
  std::int64_t text_tokens() const { return prefix_id ? length - 1 : length; }
};

struct ColbertPlan {
  ColbertSide query, document;
  std::int32_t mask_id = 0;
  std::vector<std::int32_t> skiplist;  // sorted token ids whose document vectors are dropped
  EmbedPlan text;                      // how a text is read: stripped, as the Transformer module does
};

// From the model's ColBERT settings and its tokenizer (prefixes and skiplist words are tokens of it).
// Bad input: a prefix the tokenizer lacks, a length past the model's positions, no mask token to expand
// queries with.
ColbertPlan plan_colbert(const core::LoadedModel& model, const tok::Tokenizer& tokenizer);

// The model input of a tokenized text (`encoding`: [CLS] … [SEP], truncated to text_tokens() or longer).
void colbert_input(const tok::Encoding& encoding, const ColbertSide& side, std::int32_t mask_id, tok::Encoding& out);

class ColbertEncoder {
 public:
  ColbertEncoder(const core::LoadedModel& model, std::shared_ptr<const core::Weights> weights, ColbertPlan plan);

  std::int64_t dimension() const { return dense_.back().out_features(); }
  const ColbertPlan& plan() const { return plan_; }

  // The kept vectors of each encoding ([kept, dimension()], row-major), in input order; encoding i is a
  // query where queries[i] is set.
  void vectors(std::span<const tok::Encoding> encodings, std::span<const std::uint8_t> queries,
               const core::BatchLimits& limits, std::vector<std::vector<float>>& out);

 private:
  void keep_rows(const tok::Encoding& input, bool query, const float* rows, std::vector<float>& out) const;

  ColbertPlan plan_;
  core::Encoder encoder_;
  std::vector<core::Linear> dense_;
  std::vector<tok::Encoding> inputs_;
  core::FloatBuffer a_, b_;
};

}  // namespace bertkit::cmd
