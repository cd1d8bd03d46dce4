#include "commands/encoder_batches.h"

#include <vector>

namespace bertkit::cmd {

void run_encoder(core::Encoder& encoder, std::size_t count,
                 const std::function<const tok::Encoding&(std::size_t)>& encoding_of,
                 const core::BatchLimits& limits, const ConsumeBatch& consume, bool all_layers) {
  std::vector<std::int64_t> lengths(count);
  for (std::size_t i = 0; i < count; ++i) lengths[i] = static_cast<std::int64_t>(encoding_of(i).size());
  std::vector<core::TokenSequence> sequences;
  core::EncoderOutput output;
  for (const auto& indices : core::plan_batches(lengths, limits)) {
    sequences.clear();
    for (std::size_t i : indices) {
      const tok::Encoding& e = encoding_of(i);
      sequences.push_back({e.ids, e.type_ids});
    }
    encoder.forward(sequences, output, all_layers);
    consume(indices, output);
  }
}

void run_encoder(core::Encoder& encoder, std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                 const ConsumeBatch& consume, bool all_layers) {
  run_encoder(
      encoder, encodings.size(), [&](std::size_t i) -> const tok::Encoding& { return encodings[i]; }, limits, consume,
      all_layers);
}

}  // namespace bertkit::cmd
