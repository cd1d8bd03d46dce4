#pragma once
// The masked-language-model head: transform (dense, activation, LayerNorm) then the decoder onto the
// vocabulary, tied to the word embeddings, plus its bias; its width and activation as the family's
// MlmHeadSpec says. Only the requested positions go through the vocabulary projection.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/model/layer_norm_weights.h"
#include "core/model/gather_rows.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <vector>

namespace bertkit::core {

// The head's tensors: transform (dense, LayerNorm) and decoder; the decoder weight is tied to the word
// embeddings unless the file has its own.
struct MlmHeadTensors {
  LinearDecl transform;
  NormDecl norm;
  LinearDecl decoder;
};

class MlmHead {
 public:
  static MlmHeadTensors declare(const ModelConfig& config, TensorDecls& decls);
  MlmHead(const ModelConfig& config, const Weights& weights);

  // logits: [positions.size(), vocab_size], raw (no softmax).
  void forward(const EncoderOutput& out, std::span<const TokenPosition> positions, std::vector<float>& logits);

  std::int64_t vocab_size() const { return decoder_.out_features(); }

 private:
  Linear transform_;
  LayerNormWeights norm_;
  Linear decoder_;
  FloatBuffer rows_, transformed_;
};

}  // namespace bertkit::core
