// ELECTRA (model_type "electra"): BERT's encoder with embeddings embedding_size wide, projected to the
// hidden size; the generator's MLM head in the embedding width, its heads always GELU.
#include "core/model/families/bert.h"

namespace bertkit::core {

const FamilySpec& electra_family() {
  static constexpr ModuleName other[] = {
      {"embeddings_project", "embeddings_project"},
      {"generator_predictions.dense", "mlm.transform.dense"},
      {"generator_predictions.LayerNorm", "mlm.transform.LayerNorm"},
      {"generator_lm_head", "mlm.decoder"},
      {"classifier.dense", "classifier.dense"},
      {"classifier.out_proj", "classifier.out"},
      {"qa_outputs", "qa_outputs"},
      {"discriminator_predictions.dense", "discriminator.dense"},
      {"discriminator_predictions.dense_prediction", "discriminator.out"},
  };
  // ElectraForPreTraining is the discriminator.
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "ElectraModel", .head = HeadKind::None},
      {.name = "ElectraForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "ElectraForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "ElectraForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "ElectraForTokenClassification", .head = HeadKind::TokenClassification, .modules = kTokenClassifierModules},
      {.name = "ElectraForPreTraining", .head = HeadKind::PreTraining, .discriminator = true},
  };
  static const FamilySpec spec{
      .model_type = "electra",
      .keys = {.embedding_size = "embedding_size", .default_embedding_size = 128},  // ElectraConfig's default
      .checkpoint_prefix = "electra.",
      .layer_prefix = "encoder.layer.",
      .embedding_modules = bert_embedding_modules(),
      .layer_modules = bert_layer_modules(),
      .other_modules = other,
      .embedding_projection = true,
      .architectures = architectures,
      .mlm = {.embedding_width = true, .activation = Eltwise::Gelu},
      .classifier = {.dense = Eltwise::Gelu},
  };
  return spec;
}

}  // namespace bertkit::core
