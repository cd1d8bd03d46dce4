#include "core/model/bert_pooler.h"
#include "core/model/linear_weights.h"

#include "core/model/gather_rows.h"

namespace bertkit::core {

BertPooler::BertPooler(const ModelConfig& config, const Weights& weights) {
  const std::int64_t h = config.hidden_size;
  dense_ = Linear(linear_weight(weights, "pooler.dense.weight", h, h), weights.require("pooler.dense.bias", {h}).f32(),
                  h, h, Eltwise::Tanh);
}

void BertPooler::forward(const EncoderOutput& out, std::vector<float>& pooled) {
  const auto batch = static_cast<std::int64_t>(out.size());
  pooled.resize(static_cast<std::size_t>(batch * dense_.out_features()));
  dense_.forward(gather_first_rows(out, rows_), batch, pooled.data());
}

}  // namespace bertkit::core
