#pragma once
// Running the encoder over a command's encodings in batches that respect a token budget. The encoder
// packs sequences without padding, so how inputs are grouped never changes their results (int8 too:
// it quantises activations per token); the budget bounds memory.
#include "core/model/batching.h"
#include "core/model/encoder.h"
#include "tokenizer/encoding.h"

#include <cstddef>
#include <functional>
#include <span>

namespace bertkit::cmd {

// `consume(indices, output)`: sequence k of `output` is encodings[indices[k]]. Batches come longest
// inputs first; callers store results by index.
using ConsumeBatch = std::function<void(std::span<const std::size_t> indices, const core::EncoderOutput& output)>;

void run_encoder(core::Encoder& encoder, std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                 const ConsumeBatch& consume, bool all_layers = false);

// The same for encodings held inside other records: `encoding_of(i)` is the i-th of `count`.
void run_encoder(core::Encoder& encoder, std::size_t count,
                 const std::function<const tok::Encoding&(std::size_t)>& encoding_of,
                 const core::BatchLimits& limits, const ConsumeBatch& consume, bool all_layers = false);

}  // namespace bertkit::cmd
