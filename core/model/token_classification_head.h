#pragma once
// Token classification: one Linear from every token's last hidden state to the labels' logits. Every
// family's token head is that plain classifier (dropout is identity at inference), whatever its
// sequence classifier looks like.
#include "core/checkpoint/weights.h"
#include "core/model/config.h"
#include "core/model/tensor_decls.h"
#include "core/model/encoder.h"
#include "core/ops/linear.h"

#include <cstdint>
#include <vector>

namespace bertkit::core {

class TokenClassificationHead {
 public:
  static LinearDecl declare(const ModelConfig& config, TensorDecls& decls);
  TokenClassificationHead(const ModelConfig& config, const Weights& weights);

  // logits: [out.tokens(), num_labels], raw; rows as in EncoderOutput (sequence i from offsets[i]).
  void forward(const EncoderOutput& out, std::vector<float>& logits);

  std::int64_t num_labels() const { return classifier_.out_features(); }

 private:
  Linear classifier_;
};

}  // namespace bertkit::core
