#pragma once
// `bertkit bench --corpus FILE`: real, uneven text through the encoder, fed two ways.
//   bertkit: as the model commands feed it: records in groups of the pipeline's batch size, each group
//            sorted by token count and cut by the token budget, sequences packed without padding.
//   sentence-transformers: the whole text sorted by character length (longest first, as its encode()
//            sorts), batches of 32, every sequence padded to the batch's longest (what PyTorch and ONNX
//            Runtime then compute).
#include "records/encode_records.h"
#include "core/model/batching.h"
#include "core/model/encoder.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bertkit::cmd {

struct CorpusText {
  std::vector<std::string> lines;
  std::vector<tok::Encoding> encodings;  // of each line, truncated to the model's maximum length
};

// Every non-empty line of `file`, tokenized.
CorpusText tokenize_corpus(const tok::Tokenizer& tokenizer, const records::TokenizeOptions& options, const std::string& file);

struct CorpusTiming {
  std::size_t sequences = 0, batches = 0;
  std::int64_t tokens = 0;    // of the text itself
  std::int64_t computed = 0;  // rows the encoder ran, padding included
  double seconds = 0;         // one pass, after an untimed one (primitives made, buffers grown)
  double cpu_share = 0;       // process CPU time over wall time × threads

  double padding_fraction() const { return computed > 0 ? 1.0 - static_cast<double>(tokens) / computed : 0.0; }
};

// `group_size` records at a time, batched within the group by `limits` (the model commands' defaults).
CorpusTiming time_packed_feeding(core::Encoder& encoder, const CorpusText& corpus, std::size_t group_size,
                                 const core::BatchLimits& limits, int threads);

// Batches of `batch_size` in sentence-transformers' order, padded with `pad_id`.
CorpusTiming time_padded_feeding(core::Encoder& encoder, const CorpusText& corpus, std::size_t batch_size,
                                 std::int32_t pad_id, int threads);

}  // namespace bertkit::cmd
