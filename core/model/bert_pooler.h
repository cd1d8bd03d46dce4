#pragma once
// BERT's pooler: tanh(dense(h[CLS])), the input of its sequence classifier (pooler_output).
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/model/encoder.h"
#include "core/ops/buffer.h"
#include "core/ops/linear.h"

#include <vector>

namespace bertkit::core {

class BertPooler {
 public:
  // `optional`: the model runs without it (a bare BertModel's checkpoint may lack it).
  static LinearDecl declare(const ModelConfig& config, TensorDecls& decls, bool optional);
  BertPooler(const ModelConfig& config, const Weights& weights);

  // pooled: [batch, hidden]
  void forward(const EncoderOutput& out, std::vector<float>& pooled);

 private:
  Linear dense_;
  FloatBuffer rows_;
};

}  // namespace bertkit::core
