#include "core/model/bert_pooler.h"
#include "core/model/linear_weights.h"

#include "core/model/gather_rows.h"

namespace bertkit::core {

LinearDecl BertPooler::declare(const ModelConfig& config, TensorDecls& decls, bool optional) {
  return decls.linear("pooler.dense", config.hidden_size, config.hidden_size, optional);
}

BertPooler::BertPooler(const ModelConfig& config, const Weights& weights) {
  TensorDecls decls;
  dense_ = linear_layer(weights, declare(config, decls, false), Eltwise::Tanh);
}

void BertPooler::forward(const EncoderOutput& out, std::vector<float>& pooled) {
  const auto batch = static_cast<std::int64_t>(out.size());
  pooled.resize(static_cast<std::size_t>(batch * dense_.out_features()));
  dense_.forward(gather_first_rows(out, rows_), batch, pooled.data());
}

}  // namespace bertkit::core
