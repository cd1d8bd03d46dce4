#include "core/model/encoder.h"

#include "core/model/family_spec.h"
#include "core/ops/threading.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>

namespace bertkit::core {

namespace {

// Preemptions of any of the process's threads so far (they count as contention: see AdaptiveThreads).
std::int64_t involuntary_switches() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_nivcsw;
}

// The batch's multiply-adds per layer, up to a constant: the matmuls grow with its tokens, attention
// with the square of each sequence's length.
double layer_work(const ModelConfig& c, const EncoderOutput& out) {
  const double h = static_cast<double>(c.hidden_size), i = static_cast<double>(c.intermediate_size);
  double work = 0;
  for (std::size_t s = 0; s < out.size(); ++s) {
    const double n = static_cast<double>(out.length(s));
    work += n * (4 * h * h + 2 * h * i) + 2 * n * n * h;
  }
  return work;
}

}  // namespace

std::optional<NormDecl> declare_final_norm(const ModelConfig& config, TensorDecls& decls) {
  if (!config.family->final_norm) return std::nullopt;
  return decls.layer_norm("final_norm", config.hidden_size, config.biases.norm);
}

Encoder::Encoder(const ModelConfig& config, std::shared_ptr<const Weights> weights)
    : config_(config), weights_(std::move(weights)), embeddings_(config_, *weights_) {
  layers_.reserve(static_cast<std::size_t>(config_.num_layers));
  for (int l = 0; l < config_.num_layers; ++l) layers_.push_back(config_.family->block->build(config_, *weights_, l));
  if (config_.relative_attention_buckets > 0) relative_bias_.emplace(config_, *weights_);
  TensorDecls decls;
  if (auto norm = declare_final_norm(config_, decls)) final_norm_.emplace(*weights_, *norm, config_.layer_norm_eps);
}

void Encoder::forward(std::span<const TokenSequence> batch, EncoderOutput& out, bool all_layers) {
  embeddings_.validate(batch);
  const std::int64_t h = config_.hidden_size;
  out.hidden_size = h;
  out.offsets.assign(1, 0);
  for (const auto& seq : batch) out.offsets.push_back(out.offsets.back() + static_cast<std::int64_t>(seq.ids.size()));
  const auto size = static_cast<std::size_t>(out.offsets.back() * h);
  out.layers.resize(all_layers ? layers_.size() + 1 : 1);
  for (auto& layer : out.layers) layer.resize(size);

  std::int64_t longest = 0;
  for (std::size_t i = 0; i + 1 < out.offsets.size(); ++i) longest = std::max(longest, out.length(i));
  for (const auto& layer : layers_) layer->prepare(longest);

  last_threads_ = threads_.next(omp_get_max_threads());
  ThreadLimit limit(last_threads_);
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t switches = involuntary_switches();
  run_layers(batch, out, all_layers);
  threads_.record({last_threads_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                   layer_work(config_, out), involuntary_switches() - switches});
}

void Encoder::run_layers(std::span<const TokenSequence> batch, EncoderOutput& out, bool all_layers) {
  embeddings_.forward(batch, out.offsets, out.layers[0].data());
  attended_keys_.clear();
  for (std::size_t s = 0; s < batch.size(); ++s)
    if (batch[s].attended_keys >= 0) attended_keys_.resize(batch.size());
  for (std::size_t s = 0; s < attended_keys_.size(); ++s)
    attended_keys_[s] = batch[s].attended_keys >= 0 ? std::min(batch[s].attended_keys, out.length(s)) : out.length(s);
  std::optional<RelativeScoreBias> bias;
  if (relative_bias_) {
    std::int64_t longest = 0;
    for (std::size_t s = 0; s < batch.size(); ++s) longest = std::max(longest, out.length(s));
    bias = relative_bias_->tabulate(longest);
  }
  scratch_.hidden_copy.clear();  // the embeddings wrote hidden in f32 alone
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    float* hidden = out.layers[0].data();
    if (all_layers) {
      std::copy(out.layers[l].begin(), out.layers[l].end(), out.layers[l + 1].begin());
      hidden = out.layers[l + 1].data();
    }
    const LayerContext context{.index = static_cast<int>(l),
                               .last = l + 1 == layers_.size(),
                               .score_bias = bias ? &*bias : nullptr,
                               .attended_keys = attended_keys_};
    layers_[l]->forward(hidden, out.offsets, scratch_, context);
  }
  // In place of the last layer's raw output, as transformers 5 reports hidden_states.
  if (final_norm_) final_norm_->apply(out.layers.back().data(), out.tokens());
}

void Encoder::add_packed_to(Weights& weights) const {
  for (const auto& layer : layers_) layer->add_packed_to(*weights_, weights);
}

}  // namespace bertkit::core
