// BERT (model_type "bert"): the family the canonical names are taken from.
#include "core/model/families/bert.h"

namespace bertkit::core {

std::span<const ModuleName> bert_embedding_modules() {
  static constexpr ModuleName rows[] = {
      {"embeddings.word_embeddings", "embeddings.word_embeddings"},
      {"embeddings.position_embeddings", "embeddings.position_embeddings"},
      {"embeddings.token_type_embeddings", "embeddings.token_type_embeddings"},
      {"embeddings.LayerNorm", "embeddings.LayerNorm"},
  };
  return rows;
}

std::span<const ModuleName> bert_layer_modules() {
  static constexpr ModuleName rows[] = {
      {"attention.self.query", "attention.self.query"},
      {"attention.self.key", "attention.self.key"},
      {"attention.self.value", "attention.self.value"},
      {"attention.output.dense", "attention.output.dense"},
      {"attention.output.LayerNorm", "attention.output.LayerNorm"},
      {"intermediate.dense", "intermediate.dense"},
      {"output.dense", "output.dense"},
      {"output.LayerNorm", "output.LayerNorm"},
  };
  return rows;
}

const FamilySpec& bert_family() {
  static constexpr ModuleName other[] = {
      {"pooler.dense", "pooler.dense"},
      {"cls.predictions.transform.dense", "mlm.transform.dense"},
      {"cls.predictions.transform.LayerNorm", "mlm.transform.LayerNorm"},
      // The decoder bias is stored as cls.predictions.bias (cls.predictions.decoder.bias is tied to it).
      {"cls.predictions", "mlm.decoder", "bias"},
      {"cls.predictions.decoder", "mlm.decoder"},
      {"classifier", "classifier.out"},
      {"qa_outputs", "qa_outputs"},
      {"cls.seq_relationship", "nsp"},
  };
  // transformers builds the pooler for BertModel (where a checkpoint may lack it), sequence
  // classification, pre-training and next-sentence prediction; BertForPreTraining = MLM + next-sentence
  // head.
  static constexpr ArchitectureSpec architectures[] = {
      {.name = "BertModel", .head = HeadKind::None, .pooler = PoolerUse::Optional},
      {.name = "BertForMaskedLM", .head = HeadKind::MaskedLM, .mlm = true},
      {.name = "BertForSequenceClassification", .head = HeadKind::SequenceClassification, .pooler = PoolerUse::Required},
      {.name = "BertForQuestionAnswering", .head = HeadKind::QuestionAnswering},
      {.name = "BertForPreTraining", .head = HeadKind::PreTraining, .pooler = PoolerUse::Required, .mlm = true, .nsp = true},
      {.name = "BertForTokenClassification", .head = HeadKind::TokenClassification},
      {.name = "BertForNextSentencePrediction", .head = HeadKind::NextSentencePrediction, .pooler = PoolerUse::Required, .nsp = true},
  };
  static const FamilySpec spec{
      .model_type = "bert",
      .checkpoint_prefix = "bert.",
      .layer_prefix = "encoder.layer.",
      .embedding_modules = bert_embedding_modules(),
      .layer_modules = bert_layer_modules(),
      .other_modules = other,
      .architectures = architectures,
  };
  return spec;
}

}  // namespace bertkit::core
