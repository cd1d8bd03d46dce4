#pragma once
// Learned-sparse vectors in commands: the head a model's sparse vectors come from, and how a record's
// vector is written (`sparse`: ascending ids and their values; `sparse_tokens`: the same entries as
// vocabulary tokens), optionally cut to its k largest values.
#include "core/checkpoint/weights.h"
#include "core/loading/model_source.h"
#include "core/model/sparse_head.h"
#include "records/result_writer.h"
#include "tokenizer/tokenizer.h"

#include <cstddef>
#include <memory>
#include <string>
#include <optional>

namespace bertkit::cmd {

// A SparseEncoder's SpladePooling over the MLM head, or BGE-M3's sparse_linear head dropping the
// tokenizer's cls, eos, pad and unk ids. The model must offer sparse vectors (vector_kinds.h).
std::unique_ptr<core::SparseHead> make_sparse_head(const core::LoadedModel& model, const core::Weights& weights,
                                                   const tok::Tokenizer& tokenizer);

struct SparseWriting {
  std::optional<std::size_t> top_k;  // --sparse-top-k
  bool tokens = false;               // --sparse-tokens
};

// The result fields of a record's sparse vector: "sparse", then "sparse_tokens" when asked.
// What make_sparse_head computes for `model`, for --dry-run.
std::string sparse_head_text(const core::LoadedModel& model);

void add_sparse_fields(const SparseWriting& how, std::vector<std::string>& fields);
// Writes them; `v` is cut to its top k first.
void write_sparse(records::ResultWriter& results, core::SparseVector& v, const SparseWriting& how,
                  const tok::Tokenizer& tokenizer);

}  // namespace bertkit::cmd
