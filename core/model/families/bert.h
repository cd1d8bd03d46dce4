#pragma once
// BERT's tensor names, which other families' checkpoints share (ELECTRA: embeddings and layers).
#include "core/model/family_spec.h"

#include <span>

namespace bertkit::core {

std::span<const ModuleName> bert_embedding_modules();  // embeddings.{word,position,token_type}_embeddings, LayerNorm
std::span<const ModuleName> bert_layer_modules();      // attention.self.query ... output.LayerNorm

}  // namespace bertkit::core
