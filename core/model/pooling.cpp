#include "core/model/pooling.h"
#include "core/model/linear_weights.h"

#include "core/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bertkit::core {
namespace {

int mode_count(const Pooling& p) {
  return int{p.cls} + int{p.max} + int{p.mean} + int{p.mean_sqrt_len} + int{p.weighted_mean} + int{p.last_token};
}

}  // namespace

void pool_sequence(const Pooling& p, const float* rows, std::int64_t length, std::int64_t h, float* out) {
  auto row = [&](std::int64_t t) { return rows + t * h; };
  if (p.cls) out = std::copy(row(0), row(0) + h, out);
  if (p.max) {
    for (std::int64_t j = 0; j < h; ++j) {
      float m = -std::numeric_limits<float>::infinity();
      for (std::int64_t t = 0; t < length; ++t) m = std::max(m, row(t)[j]);
      *out++ = m;
    }
  }
  if (p.mean || p.mean_sqrt_len) {
    std::vector<double> sum(static_cast<std::size_t>(h), 0.0);
    for (std::int64_t t = 0; t < length; ++t)
      for (std::int64_t j = 0; j < h; ++j) sum[j] += row(t)[j];
    if (p.mean)
      for (double s : sum) *out++ = static_cast<float>(s / static_cast<double>(length));
    if (p.mean_sqrt_len)
      for (double s : sum) *out++ = static_cast<float>(s / std::sqrt(static_cast<double>(length)));
  }
  if (p.weighted_mean) {  // token t weighs t + 1
    std::vector<double> sum(static_cast<std::size_t>(h), 0.0);
    double weights = 0;
    for (std::int64_t t = 0; t < length; ++t) {
      weights += static_cast<double>(t + 1);
      for (std::int64_t j = 0; j < h; ++j) sum[j] += static_cast<double>(t + 1) * row(t)[j];
    }
    for (double s : sum) *out++ = static_cast<float>(s / weights);
  }
  if (p.last_token) std::copy(row(length - 1), row(length - 1) + h, out);
}

void l2_normalize(float* v, std::int64_t n) {
  double squares = 0;
  for (std::int64_t j = 0; j < n; ++j) squares += double(v[j]) * v[j];
  const double scale = 1.0 / std::max(std::sqrt(squares), 1e-12);
  for (std::int64_t j = 0; j < n; ++j) v[j] = static_cast<float>(v[j] * scale);
}

std::vector<Linear> dense_layers(const std::vector<DenseLayer>& dense, std::int64_t width, const Weights& weights) {
  std::vector<Linear> layers;
  for (std::size_t k = 0; k < dense.size(); ++k) {
    const auto& d = dense[k];
    if (d.in_features != width)
      bad_input("Dense module {} takes {} features but receives {}", k, d.in_features, width);
    const std::string prefix = fmt::format("dense.{}.", k);
    auto weight = linear_weight(weights, prefix + "weight", d.out_features, d.in_features);
    std::span<const float> bias;
    if (d.bias) bias = weights.require(prefix + "bias", {d.out_features}).f32();
    layers.emplace_back(weight, bias, d.out_features, d.in_features,
                        d.activation == DenseActivation::Tanh ? Eltwise::Tanh : Eltwise::Identity);
    width = d.out_features;
  }
  return layers;
}

SentencePooler::SentencePooler(const SentenceTransformerConfig& config, std::int64_t hidden_size,
                               const Weights& weights)
    : modes_(config.pooling), pooled_size_(mode_count(config.pooling) * hidden_size), normalize_(config.normalize) {
  if (mode_count(modes_) == 0) bad_input("the pooling configuration selects no pooling mode");
  dense_ = dense_layers(config.dense, pooled_size_, weights);
}

std::int64_t SentencePooler::dimension() const { return dense_.empty() ? pooled_size_ : dense_.back().out_features(); }

void SentencePooler::forward(const EncoderOutput& out, std::vector<float>& embeddings) {
  const auto batch = static_cast<std::int64_t>(out.size());
  float* pooled = a_.reserve(static_cast<std::size_t>(batch * pooled_size_));
  for (std::size_t s = 0; s < out.size(); ++s)
    pool_sequence(modes_, out.row(s, 0), out.length(s), out.hidden_size, pooled + static_cast<std::int64_t>(s) * pooled_size_);
  const float* current = pooled;
  for (const auto& dense : dense_) {
    float* next = (current == a_.data() ? b_ : a_).reserve(static_cast<std::size_t>(batch * dense.out_features()));
    dense.forward(current, batch, next);
    current = next;
  }
  const std::int64_t dim = dimension();
  embeddings.assign(current, current + batch * dim);
  if (normalize_)
    for (std::int64_t s = 0; s < batch; ++s) l2_normalize(embeddings.data() + s * dim, dim);
}

}  // namespace bertkit::core
