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
#include "core/model/family_spec.h"
#include "core/tensor.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bertkit::core {

// The canonical name of a checkpoint tensor of `architecture` (a row of `family`): the architecture's
// name rows first, then the family's; nullopt for names bertkit does not know (reported as
// unexpected). Buffers that carry no weights (embeddings.position_ids) map to "" (ignored silently).
std::optional<std::string> canonical_name(const FamilySpec& family, const ArchitectureSpec& architecture,
                                          std::string_view checkpoint_name);
// The same for whichever architecture of `family` knows the name.
std::optional<std::string> canonical_name(const FamilySpec& family, std::string_view checkpoint_name);

struct ExpectedTensor {
  std::string name;
  Shape shape;
  bool optional = false;  // a bare BertModel may come without its pooler
};

// Every tensor the model described by `config` reads, with its shape.
std::vector<ExpectedTensor> expected_tensors(const ModelConfig& config);

// How checkpoints of `architecture` spell the canonical name of a head or embedding tensor, for
// messages (mlm.decoder.bias is BERT's cls.predictions.bias); other names as they are.
std::string checkpoint_spelling(const FamilySpec& family, const ArchitectureSpec& architecture,
                                std::string_view canonical);

// A head whose tensors are all absent is not there: when `present` (a canonical name) finds none of
// the tensors config.json's head adds to the encoder, `config` becomes the encoder alone (head None)
// and absent_head names the head and its tensors as the checkpoint would spell them. A head in part
// present stays, to be refused naming what it lacks.
void drop_absent_head(ModelConfig& config, const std::function<bool(std::string_view)>& present);

}  // namespace bertkit::core
