#include "commands/encoder_batches.h"

#include "core/error.h"

#include <algorithm>
#include <vector>

namespace bertkit::cmd {

namespace {

// The keys an encoding lets its tokens attend to: its attention mask's leading 1s, when 0s follow them
// (PyLate's query expansion); −1 (all) for a mask of 1s. A 0 before a 1 has no meaning without padding.
std::int64_t attended_keys(const tok::Encoding& e) {
  const auto zero = std::find(e.attention_mask.begin(), e.attention_mask.end(), 0);
  if (zero == e.attention_mask.end()) return -1;
  if (std::find(zero, e.attention_mask.end(), 1) != e.attention_mask.end())
    runtime_error("an attention mask with a 0 before a 1 (only trailing tokens can be left unattended)");
  return zero - e.attention_mask.begin();
}

}  // namespace

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
      sequences.push_back({e.ids, e.type_ids, attended_keys(e)});
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
