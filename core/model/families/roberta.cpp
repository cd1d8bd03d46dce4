// RoBERTa (model_type "roberta") and the families that are RoBERTa under another name: XLM-RoBERTa
// ("xlm-roberta") and CamemBERT ("camembert") share its modelling code, config keys and tensor names
// (prefix "roberta." for all three); only their architecture names differ. BERT's keys and layer
// names, positions after the padding index, an MLM head always GELU (lm_head.*), a classifier
// dense -> tanh -> out_proj on <s> without pooler (the token classifier: classifier).
#include "core/model/families/bert.h"

namespace bertkit::core {

std::span<const ModuleName> roberta_other_modules() {
  static constexpr ModuleName rows[] = {
      {"pooler.dense", "pooler.dense"},
      {"lm_head.dense", "mlm.transform.dense"},
      {"lm_head.layer_norm", "mlm.transform.LayerNorm"},
      // The decoder bias is stored as lm_head.bias (lm_head.decoder.bias, where present, is tied to it);
      // the decoder weight is the word embedding matrix unless the file has one.
      {"lm_head", "mlm.decoder", "bias"},
      {"lm_head.decoder", "mlm.decoder"},
      {"classifier.dense", "classifier.dense"},
      {"classifier.out_proj", "classifier.out"},
      {"qa_outputs", "qa_outputs"},
  };
  return rows;
}

namespace {

// Only the base model builds the pooler (transformers' add_pooling_layer); a checkpoint may lack it.
FamilySpec roberta_like(std::string_view model_type, std::span<const ArchitectureSpec> architectures) {
  return {
      .model_type = model_type,
      .checkpoint_prefix = "roberta.",
      .layer_prefix = "encoder.layer.",
      .embedding_modules = bert_embedding_modules(),
      .layer_modules = bert_layer_modules(),
      .other_modules = roberta_other_modules(),
      .positions_after_padding = true,
      .architectures = architectures,
      .mlm = {.activation = Eltwise::Gelu},
      .classifier = {.dense = Eltwise::Tanh},
      .special_tokens = {.cls = "<s>", .sep = "</s>", .pad = "<pad>", .mask = "<mask>", .unk = "<unk>"},
  };
}

}  // namespace

const FamilySpec& roberta_family() {
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "RobertaModel", .head = HeadKind::None, .pooler = PoolerUse::Optional},
      {.name = "RobertaForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "RobertaForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "RobertaForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "RobertaForTokenClassification", .head = HeadKind::TokenClassification, .modules = kTokenClassifierModules},
  };
  static const FamilySpec spec = roberta_like("roberta", architectures);
  return spec;
}

const FamilySpec& xlm_roberta_family() {
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "XLMRobertaModel", .head = HeadKind::None, .pooler = PoolerUse::Optional},
      {.name = "XLMRobertaForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "XLMRobertaForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "XLMRobertaForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "XLMRobertaForTokenClassification", .head = HeadKind::TokenClassification, .modules = kTokenClassifierModules},
  };
  static const FamilySpec spec = roberta_like("xlm-roberta", architectures);
  return spec;
}

const FamilySpec& camembert_family() {
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "CamembertModel", .head = HeadKind::None, .pooler = PoolerUse::Optional},
      {.name = "CamembertForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "CamembertForSequenceClassification", .head = HeadKind::SequenceClassification},
      {.name = "CamembertForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "CamembertForTokenClassification", .head = HeadKind::TokenClassification, .modules = kTokenClassifierModules},
  };
  static const FamilySpec spec = roberta_like("camembert", architectures);
  return spec;
}

}  // namespace bertkit::core
