#include "core/checkpoint/name_map.h"

#include <array>
#include <utility>

namespace bertkit::core {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Module paths (without ".weight"/".bias") that are renamed, in one table: checkpoint -> canonical.
// Per-layer entries are relative to the layer ("transformer.layer.N." / "encoder.layer.N.").
constexpr std::array<std::pair<std::string_view, std::string_view>, 23> kModules = {{
    // BERT / ELECTRA embeddings and pooler keep their names.
    {"embeddings.word_embeddings", "embeddings.word_embeddings"},
    {"embeddings.position_embeddings", "embeddings.position_embeddings"},
    {"embeddings.token_type_embeddings", "embeddings.token_type_embeddings"},
    {"embeddings.LayerNorm", "embeddings.LayerNorm"},
    {"embeddings_project", "embeddings_project"},
    {"pooler.dense", "pooler.dense"},
    // BERT heads.
    {"cls.predictions.transform.dense", "mlm.transform.dense"},
    {"cls.predictions.transform.LayerNorm", "mlm.transform.LayerNorm"},
    {"cls.predictions.decoder", "mlm.decoder"},
    {"classifier", "classifier.out"},
    {"qa_outputs", "qa_outputs"},
    // DistilBERT heads.
    {"vocab_transform", "mlm.transform.dense"},
    {"vocab_layer_norm", "mlm.transform.LayerNorm"},
    {"vocab_projector", "mlm.decoder"},
    {"pre_classifier", "classifier.dense"},
    // ELECTRA heads.
    {"generator_predictions.dense", "mlm.transform.dense"},
    {"generator_predictions.LayerNorm", "mlm.transform.LayerNorm"},
    {"generator_lm_head", "mlm.decoder"},
    {"classifier.dense", "classifier.dense"},
    {"classifier.out_proj", "classifier.out"},
    {"discriminator_predictions.dense", "discriminator.dense"},
    {"discriminator_predictions.dense_prediction", "discriminator.out"},
    // The decoder bias of BERT's MLM head is stored as cls.predictions.bias (decoder.bias is tied to it).
    {"cls.predictions", "mlm.decoder"},
}};

constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kLayerModules = {{
    {"attention.self.query", "attention.self.query"},
    {"attention.self.key", "attention.self.key"},
    {"attention.self.value", "attention.self.value"},
    {"attention.output.dense", "attention.output.dense"},
    {"attention.output.LayerNorm", "attention.output.LayerNorm"},
    {"intermediate.dense", "intermediate.dense"},
    {"output.dense", "output.dense"},
    {"output.LayerNorm", "output.LayerNorm"},
    // DistilBERT
    {"attention.q_lin", "attention.self.query"},
    {"attention.k_lin", "attention.self.key"},
    {"attention.v_lin", "attention.self.value"},
    {"attention.out_lin", "attention.output.dense"},
}};

constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kDistilLayerModules = {{
    {"sa_layer_norm", "attention.output.LayerNorm"},
    {"ffn.lin1", "intermediate.dense"},
    {"ffn.lin2", "output.dense"},
    {"output_layer_norm", "output.LayerNorm"},
}};

std::optional<std::string> map_module(std::string_view module) {
  for (std::string_view layers : {"encoder.layer.", "transformer.layer."}) {
    if (!starts_with(module, layers)) continue;
    std::string_view rest = module.substr(layers.size());
    auto dot = rest.find('.');
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    std::string_view index = rest.substr(0, dot);
    for (char c : index)
      if (c < '0' || c > '9') return std::nullopt;
    std::string_view inner = rest.substr(dot + 1);
    auto build = [&](std::string_view canonical) {
      return "encoder.layer." + std::string(index) + "." + std::string(canonical);
    };
    for (const auto& [from, to] : kLayerModules)
      if (inner == from) return build(to);
    for (const auto& [from, to] : kDistilLayerModules)
      if (inner == from) return build(to);
    return std::nullopt;
  }
  for (const auto& [from, to] : kModules)
    if (module == from) return std::string(to);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> canonical_name(std::string_view name) {
  for (std::string_view prefix : {"bert.", "distilbert.", "electra."})
    if (starts_with(name, prefix)) {
      name.remove_prefix(prefix.size());
      break;
    }
  if (name == "embeddings.position_ids") return std::string();
  auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view module = name.substr(0, dot);
  std::string_view param = name.substr(dot + 1);
  // The original BERT release (bert-base-uncased, bert-base-cased) names LayerNorm parameters gamma/beta.
  bool layer_norm = module.ends_with("LayerNorm") || module.ends_with("layer_norm");
  if (layer_norm && param == "gamma") param = "weight";
  if (layer_norm && param == "beta") param = "bias";
  if (param != "weight" && param != "bias") return std::nullopt;
  auto canonical = map_module(module);
  if (!canonical) return std::nullopt;
  return *canonical + "." + std::string(param);
}

std::vector<ExpectedTensor> expected_tensors(const ModelConfig& c) {
  const std::int64_t V = c.vocab_size, H = c.hidden_size, E = c.embedding_size, I = c.intermediate_size;
  std::vector<ExpectedTensor> out;
  auto linear = [&](const std::string& module, std::int64_t out_features, std::int64_t in_features,
                    bool optional = false) {
    out.push_back({module + ".weight", {out_features, in_features}, optional});
    out.push_back({module + ".bias", {out_features}, optional});
  };
  auto layer_norm = [&](const std::string& module, std::int64_t width) {
    out.push_back({module + ".weight", {width}});
    out.push_back({module + ".bias", {width}});
  };

  out.push_back({"embeddings.word_embeddings.weight", {V, E}});
  out.push_back({"embeddings.position_embeddings.weight", {c.max_position_embeddings, E}});
  if (c.type_vocab_size > 0) out.push_back({"embeddings.token_type_embeddings.weight", {c.type_vocab_size, E}});
  layer_norm("embeddings.LayerNorm", E);
  if (c.family == Family::Electra && E != H) linear("embeddings_project", H, E);
  for (int l = 0; l < c.num_layers; ++l) {
    std::string p = "encoder.layer." + std::to_string(l) + ".";
    linear(p + "attention.self.query", H, H);
    linear(p + "attention.self.key", H, H);
    linear(p + "attention.self.value", H, H);
    linear(p + "attention.output.dense", H, H);
    layer_norm(p + "attention.output.LayerNorm", H);
    linear(p + "intermediate.dense", I, H);
    linear(p + "output.dense", H, I);
    layer_norm(p + "output.LayerNorm", H);
  }
  // Only BERT has a pooler, and transformers builds it for BertModel, sequence classification and
  // pre-training (not for MaskedLM or QA).
  if (c.family == Family::Bert) {
    if (c.head == HeadKind::None) linear("pooler.dense", H, H, /*optional=*/true);
    if (c.head == HeadKind::SequenceClassification || c.head == HeadKind::PreTraining) linear("pooler.dense", H, H);
  }
  const bool mlm = c.head == HeadKind::MaskedLM || (c.head == HeadKind::PreTraining && c.family == Family::Bert);
  if (mlm) {
    // ELECTRA's generator head works in the embedding width; BERT's and DistilBERT's in the hidden width.
    const std::int64_t W = c.family == Family::Electra ? E : H;
    linear("mlm.transform.dense", W, H);
    layer_norm("mlm.transform.LayerNorm", W);
    linear("mlm.decoder", V, W);
  }
  if (c.head == HeadKind::SequenceClassification) {
    if (c.family != Family::Bert) linear("classifier.dense", H, H);
    linear("classifier.out", c.num_labels, H);
  }
  if (c.head == HeadKind::QuestionAnswering) linear("qa_outputs", 2, H);
  if (c.head == HeadKind::PreTraining && c.family == Family::Electra) {
    linear("discriminator.dense", H, H);
    linear("discriminator.out", 1, H);
  }
  return out;
}

}  // namespace bertkit::core
