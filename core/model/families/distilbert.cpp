// DistilBERT (model_type "distilbert"): its own config keys and layer names, no token types, no pooler,
// pre_classifier + ReLU before the classifier.
#include "core/model/families/bert.h"

namespace bertkit::core {

const FamilySpec& distilbert_family() {
  static constexpr ModuleName layer[] = {
      {"attention.q_lin", "attention.self.query"},
      {"attention.k_lin", "attention.self.key"},
      {"attention.v_lin", "attention.self.value"},
      {"attention.out_lin", "attention.output.dense"},
      {"sa_layer_norm", "attention.output.LayerNorm"},
      {"ffn.lin1", "intermediate.dense"},
      {"ffn.lin2", "output.dense"},
      {"output_layer_norm", "output.LayerNorm"},
  };
  static constexpr ModuleName other[] = {
      {"vocab_transform", "mlm.transform.dense"},
      {"vocab_layer_norm", "mlm.transform.LayerNorm"},
      {"vocab_projector", "mlm.decoder"},
      {"pre_classifier", "classifier.dense"},
      {"classifier", "classifier.out"},
      {"qa_outputs", "qa_outputs"},
  };
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "DistilBertModel", .head = HeadKind::None},
      {.name = "DistilBertForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "DistilBertForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "DistilBertForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "DistilBertForTokenClassification", .head = HeadKind::TokenClassification},
  };
  static const FamilySpec spec{
      .model_type = "distilbert",
      .keys = {.hidden_size = "dim",
               .num_layers = "n_layers",
               .num_heads = "n_heads",
               .intermediate_size = "hidden_dim",
               .activation = "activation",
               .layer_norm_eps = nullptr,  // hard-coded 1e-12 in DistilBERT's modelling code
               .type_vocab_size = nullptr,
               .position_embedding_type = nullptr},
      .checkpoint_prefix = "distilbert.",
      .layer_prefix = "transformer.layer.",
      // The embedding names are BERT's (a DistilBERT checkpoint has no token_type_embeddings).
      .embedding_modules = bert_embedding_modules(),
      .layer_modules = layer,
      .other_modules = other,
      .architectures = architectures,
      .classifier = {.dense = Eltwise::Relu},
  };
  return spec;
}

}  // namespace bertkit::core
