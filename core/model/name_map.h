#pragma once
// From Hugging Face tensor names to bertkit's canonical names, by the family's name rows
// (core/model/families/), and the list of tensors a configuration needs.
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
#include "core/model/config.h"
#include "core/tensor.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// The canonical name of a checkpoint tensor of `family`; nullopt for names bertkit does not know
// (reported as unexpected). Buffers that carry no weights (embeddings.position_ids) map to "" (ignored
// silently).
std::optional<std::string> canonical_name(const FamilySpec& family, std::string_view checkpoint_name);

struct ExpectedTensor {
  std::string name;
  Shape shape;
  bool optional = false;  // a bare BertModel may come without its pooler
};

// Every tensor the model described by `config` reads, with its shape.
std::vector<ExpectedTensor> expected_tensors(const ModelConfig& config);

}  // namespace bertkit::core
