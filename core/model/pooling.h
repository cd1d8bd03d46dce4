#pragma once
// Sentence embeddings the sentence-transformers way: Pooling (modes concatenated in its order: cls,
// max, mean, mean_sqrt_len, weighted_mean, last_token), then its Dense modules, then Normalize (L2).
// Sequences are unpadded here, so "masked" pooling is over exactly the sequence's tokens.
#include "core/model/sentence_transformer_config.h"
#include "core/checkpoint/weights.h"
#include "core/model/encoder.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <vector>

namespace bertkit::core {

// Pools one sequence's rows [length, h] into `out` (its modes' widths end to end), mode after mode;
// sums in double.
void pool_sequence(const Pooling& p, const float* rows, std::int64_t length, std::int64_t h, float* out);

// v / max(|v|, 1e-12), as torch.nn.functional.normalize (and sentence-transformers' Normalize).
void l2_normalize(float* v, std::int64_t n);

// The Dense modules (dense.K.weight / dense.K.bias of `weights`) over rows of `width` features.
std::vector<Linear> dense_layers(const std::vector<DenseLayer>& dense, std::int64_t width, const Weights& weights);

class SentencePooler {
 public:
  // Dense module K reads dense.K.weight / dense.K.bias from `weights`.
  SentencePooler(const SentenceTransformerConfig& config, std::int64_t hidden_size, const Weights& weights);

  // embeddings: [batch, dimension()]
  void forward(const EncoderOutput& out, std::vector<float>& embeddings);

  std::int64_t dimension() const;

 private:
  Pooling modes_;
  std::int64_t pooled_size_;
  std::vector<Linear> dense_;
  bool normalize_;
  FloatBuffer a_, b_;
};

}  // namespace bertkit::core
