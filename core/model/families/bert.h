#pragma once
// Tensor names that several families' checkpoints share: BERT's (ELECTRA, RoBERTa: embeddings and
// layers), RoBERTa's pooler and heads (MPNet).
#include "core/model/family_spec.h"

#include <span>

namespace bertkit::core {

std::span<const ModuleName> bert_embedding_modules();  // embeddings.{word,position,token_type}_embeddings, LayerNorm
std::span<const ModuleName> bert_layer_modules();      // attention.self.query ... output.LayerNorm
std::span<const ModuleName> roberta_other_modules();   // pooler.dense, lm_head.*, classifier.*, qa_outputs

// The token classifier of the families whose sequence classifier is classifier.dense/out_proj: one
// Linear named classifier (RoBERTa's, ELECTRA's, MPNet's ForTokenClassification rows).
inline constexpr ModuleName kTokenClassifierModules[] = {{"classifier", "classifier.out"}};

}  // namespace bertkit::core
