#include "core/model/model_tensors.h"

#include "core/model/bert_pooler.h"
#include "core/model/blocks/block.h"
#include "core/model/classification_head.h"
#include "core/model/embeddings.h"
#include "core/model/encoder.h"
#include "core/model/family_spec.h"
#include "core/model/mlm_head.h"
#include "core/model/name_map.h"
#include "core/model/qa_head.h"
#include "core/model/relative_position_bias.h"
#include "core/model/token_classification_head.h"

#include <set>
#include <string>

namespace bertkit::core {

namespace {

// ELECTRA's replaced-token detector (ElectraForPreTraining): no command runs it, but its checkpoint
// loads (embed uses the encoder) and converts whole.
void declare_discriminator(const ModelConfig& config, TensorDecls& decls) {
  decls.linear("discriminator.dense", config.hidden_size, config.hidden_size);
  decls.linear("discriminator.out", 1, config.hidden_size);
}

}  // namespace

std::vector<TensorDecl> model_tensors(const ModelConfig& c) {
  const ArchitectureSpec& architecture = architecture_spec(c);
  TensorDecls decls;
  Embeddings::declare(c, decls);
  if (c.relative_attention_buckets > 0) RelativePositionBias::declare(c, decls);
  for (int l = 0; l < c.num_layers; ++l) c.family->block->declare(c, l, decls);
  declare_final_norm(c, decls);
  if (architecture.pooler != PoolerUse::None) BertPooler::declare(c, decls, architecture.pooler == PoolerUse::Optional);
  if (architecture.mlm) MlmHead::declare(c, decls);
  if (has_sequence_head(c)) ClassificationHead::declare(c, decls);
  if (c.head == HeadKind::TokenClassification) TokenClassificationHead::declare(c, decls);
  if (c.head == HeadKind::QuestionAnswering) QaHead::declare(c, decls);
  if (architecture.discriminator) declare_discriminator(c, decls);
  return decls.take();
}

void drop_absent_head(ModelConfig& config, const std::function<bool(std::string_view)>& present) {
  if (config.head == HeadKind::None) return;
  ModelConfig encoder = config;
  encoder.head = HeadKind::None;
  std::set<std::string, std::less<>> encoder_names;
  for (const auto& t : model_tensors(encoder)) encoder_names.insert(t.name);
  AbsentHead absent{config.head, {}};
  for (const auto& t : model_tensors(config)) {
    if (encoder_names.count(t.name) || t.optional) continue;
    // The tied decoder is the word embedding matrix: no file needs it.
    if (t.name == "mlm.decoder.weight" && config.tie_word_embeddings) continue;
    if (present(t.name)) return;
    absent.tensors.push_back(checkpoint_spelling(*config.family, architecture_spec(config), t.name));
  }
  if (absent.tensors.empty()) return;
  encoder.absent_head = std::move(absent);
  config = std::move(encoder);
}

}  // namespace bertkit::core
