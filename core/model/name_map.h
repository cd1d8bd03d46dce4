#pragma once
// From Hugging Face tensor names to bertkit's canonical names, by the family's name rows and the
// architecture's own (core/model/families/); the tensors a model reads are what its parts declare
// (core/model/model_tensors.h).
//
// Canonical names are Hugging Face's BERT names without the model prefix, weights in PyTorch Linear
// layout [out, in]:
//   embeddings.{word,position,token_type}_embeddings.weight, embeddings.LayerNorm.{weight,bias},
//   embeddings_project.{weight,bias}                        (ELECTRA when embedding_size != hidden)
//   encoder.layer.N.attention.self.{query,key,value}.{weight,bias},
//   encoder.layer.N.attention.output.{dense,LayerNorm}.{weight,bias},
//   encoder.layer.N.intermediate.dense.{weight,bias}, encoder.layer.N.output.{dense,LayerNorm}.{weight,bias},
//   encoder.relative_attention_bias.weight                  (MPNet: [buckets, heads])
//   pooler.dense.{weight,bias}
//   mlm.transform.{dense,LayerNorm}.{weight,bias}, mlm.decoder.{weight,bias}
//   classifier.dense.{weight,bias}  (DistilBERT pre_classifier, ELECTRA classifier.dense)
//   classifier.out.{weight,bias}    (BERT classifier, DistilBERT classifier, ELECTRA classifier.out_proj)
//   qa_outputs.{weight,bias}, discriminator.{dense,out}.{weight,bias} (ElectraForPreTraining)
#include "core/model/family_spec.h"

#include <optional>
#include <string>
#include <string_view>

namespace bertkit::core {

// The canonical name of a checkpoint tensor of `architecture` (a row of `family`): the architecture's
// name rows first, then the family's; nullopt for names bertkit does not know (reported as
// unexpected). Buffers that carry no weights (embeddings.position_ids) map to "" (ignored silently).
std::optional<std::string> canonical_name(const FamilySpec& family, const ArchitectureSpec& architecture,
                                          std::string_view checkpoint_name);
// The same for whichever architecture of `family` knows the name.
std::optional<std::string> canonical_name(const FamilySpec& family, std::string_view checkpoint_name);

// How checkpoints of `architecture` spell a canonical name, without the model's prefix: for messages
// (mlm.decoder.bias is BERT's cls.predictions.bias) and for `bench --save`'s folders (ModernBERT's
// encoder.layer.0.attn.Wqkv.weight is layers.0.attn.Wqkv.weight); names no row knows as they are.
std::string checkpoint_spelling(const FamilySpec& family, const ArchitectureSpec& architecture,
                                std::string_view canonical);

}  // namespace bertkit::core
