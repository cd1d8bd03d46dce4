#include "commands/fill_mask.h"

#include "commands/encoder_batches.h"
#include "commands/fill_mask_output.h"
#include "core/error.h"
#include "core/setting.h"
#include "core/model/family_spec.h"
#include "core/model/gather_rows.h"
#include "core/ops/softmax.h"

#include <algorithm>
#include <numeric>

namespace bertkit::cmd {

namespace {

// The MLM head projects every requested position onto the whole vocabulary; positions are taken in
// groups so a batch with many masks does not hold all their vocabulary rows at once.
constexpr std::size_t kPositionsPerHeadCall = 64;

const core::ModelConfig& with_mlm_head(const core::ModelConfig& config, const tok::Tokenizer& tokenizer) {
  core::require_head(
      config, [](const core::ModelConfig& c) { return core::architecture_spec(c).mlm; }, "fill-mask", "masked-language");
  if (tokenizer.mask_id() < 0) usage_error("the tokenizer has no mask token ({})", tokenizer.spec().special.mask);
  return config;
}

}  // namespace

ResolvedTargets resolve_targets(const tok::Tokenizer& tokenizer, std::span<const std::string> targets) {
  ResolvedTargets out;
  for (const std::string& target : targets) {
    std::optional<std::int32_t> id = tokenizer.token_id(target);
    if (!id) {
      tok::Encoding e;
      tokenizer.encode_sequence(target, 0, e);
      if (e.ids.empty()) {
        out.notes.push_back(fmt::format("target '{}' has no token in this vocabulary: ignored", target));
        continue;
      }
      id = e.ids.front();
      out.notes.push_back(
          fmt::format("target '{}' is not a vocabulary token: replaced by '{}'", target, tokenizer.token(*id)));
    }
    if (std::find(out.ids.begin(), out.ids.end(), *id) == out.ids.end()) out.ids.push_back(*id);
  }
  if (out.ids.empty()) usage_error("none of the {} is usable: give at least one word of the vocabulary", Setting::Targets);
  return out;
}

std::vector<std::int64_t> mask_positions(const tok::Tokenizer& tokenizer, const tok::Encoding& encoding) {
  std::vector<std::int64_t> positions;
  for (std::size_t i = 0; i < encoding.ids.size(); ++i)
    if (encoding.ids[i] == tokenizer.mask_id()) positions.push_back(static_cast<std::int64_t>(i));
  if (positions.empty()) {
    // A mask the model's limit cut off: say so, and where, rather than that there is none. The limit
    // counts the special tokens too, so it is told with the room it leaves for the text.
    std::size_t kept = 0;  // the text's tokens within the limit
    for (std::size_t i = 0; i < encoding.size(); ++i) kept += encoding.special_mask[i] ? 0 : 1;
    std::size_t at = kept;  // the text's tokens before the one looked at
    for (const tok::Encoding& part : encoding.overflowing)
      for (std::size_t i = 0; i < part.size(); ++i) {
        if (part.special_mask[i]) continue;
        if (part.ids[i] == tokenizer.mask_id())
          bad_input("the mask token {} is past the model's limit of {} tokens, which leaves room for the text's "
                    "first {} (the special tokens take {}): it is the text's token {} (byte {} of the text)",
                    tokenizer.spec().special.mask, encoding.size(), kept, encoding.size() - kept, at + 1,
                    part.offsets[i].begin);
        ++at;
      }
    bad_input("no mask token {} in the text", tokenizer.spec().special.mask);
  }
  return positions;
}

std::vector<MaskPrediction> predictions_at(const tok::Tokenizer& tokenizer, std::span<const float> probabilities,
                                           std::span<const std::int32_t> ids, std::size_t position,
                                           bool single_mask, const FillMaskOptions& options) {
  std::vector<std::int32_t> candidates = options.targets;
  if (candidates.empty()) {
    candidates.resize(probabilities.size());
    std::iota(candidates.begin(), candidates.end(), 0);
  }
  const std::size_t k = std::min(options.top_k, candidates.size());
  // Best first; equal probabilities in id order.
  auto better = [&](std::int32_t a, std::int32_t b) {
    float pa = probabilities[static_cast<std::size_t>(a)], pb = probabilities[static_cast<std::size_t>(b)];
    return pa > pb || (pa == pb && a < b);
  };
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k), candidates.end(), better);

  std::vector<MaskPrediction> out;
  std::vector<std::int32_t> filled;
  for (std::size_t r = 0; r < k; ++r) {
    const std::int32_t token = candidates[r];
    filled.clear();
    // As the pipeline: the candidate goes in, then every padding id comes out.
    for (std::size_t i = 0; i < ids.size(); ++i) {
      std::int32_t id = i == position ? token : ids[i];
      if (id != tokenizer.pad_id()) filled.push_back(id);
    }
    MaskPrediction p;
    p.score = probabilities[static_cast<std::size_t>(token)];
    p.token = token;
    p.token_str = tokenizer.decode(std::span(&token, 1), false);
    p.sequence = tokenizer.decode(filled, single_mask);
    out.push_back(std::move(p));
  }
  return out;
}

FillMasker::FillMasker(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights,
                       const tok::Tokenizer& tokenizer)
    : tokenizer_(tokenizer), encoder_(with_mlm_head(config, tokenizer), weights), head_(config, *weights) {}

std::vector<MaskPredictions> FillMasker::run(std::span<const tok::Encoding> encodings, const FillMaskOptions& options,
                                             const core::BatchLimits& limits) {
  for (std::int32_t id : options.targets)
    if (id < 0 || id >= head_.vocab_size()) usage_error("target id {} is outside the model's vocabulary", id);
  std::vector<std::vector<std::int64_t>> masks(encodings.size());
  for (std::size_t i = 0; i < encodings.size(); ++i) masks[i] = mask_positions(tokenizer_, encodings[i]);

  std::vector<MaskPredictions> results(encodings.size());
  std::vector<float> logits;
  const auto vocab = static_cast<std::size_t>(head_.vocab_size());
  run_encoder(encoder_, encodings, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
    // Every mask of the batch as (sequence in batch, position), and whose it is.
    std::vector<core::TokenPosition> positions;
    std::vector<std::size_t> owner;
    for (std::size_t k = 0; k < indices.size(); ++k)
      for (std::int64_t p : masks[indices[k]]) {
        positions.push_back({k, p});
        owner.push_back(indices[k]);
      }
    for (std::size_t from = 0; from < positions.size(); from += kPositionsPerHeadCall) {
      const std::size_t n = std::min(kPositionsPerHeadCall, positions.size() - from);
      head_.forward(out, std::span(positions).subspan(from, n), logits);
      core::softmax_rows(logits.data(), static_cast<std::int64_t>(n), static_cast<std::int64_t>(vocab));
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t input = owner[from + j];
        const tok::Encoding& e = encodings[input];
        results[input].push_back(predictions_at(tokenizer_, std::span(logits).subspan(j * vocab, vocab), e.ids,
                                                static_cast<std::size_t>(positions[from + j].position),
                                                masks[input].size() == 1, options));
      }
    }
  });
  return results;
}

void FillMaskTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  out.results()
      .begin(batch.records[i], batch.truncated[i])
      .nested("predictions", [&](records::JsonLine& j) { write_predictions(j, predictions_[i]); })
      .end();
}

}  // namespace bertkit::cmd
