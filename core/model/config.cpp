#include "core/model/config.h"
#include "core/model/config_reader.h"

#include "core/model/family_spec.h"
#include "core/model/relative_position_bias.h"

#include "core/error.h"
#include "core/files.h"
#include "core/json.h"

#include <fmt/ranges.h>

#include <array>
#include <charconv>
#include <utility>

namespace bertkit::core {

namespace {

using nlohmann::json;

HeadKind parse_head(const ConfigReader& r, const FamilySpec& family, const std::string& architecture) {
  if (const ArchitectureSpec* a = family.architecture(std::string_view(architecture))) return a->head;
  // Stanford ColBERT names its own class over any family's encoder (core/loading/stanford_colbert.h).
  if (architecture == kStanfordColbertArchitecture) return HeadKind::None;
  r.refuse(fmt::format("unsupported architecture \"{}\" for model_type \"{}\"", architecture, family.model_type));
}

void parse_labels(const ConfigReader& r, ModelConfig& c) {
  const json& root = r.root();
  auto it = root.find("id2label");
  if (it != root.end() && !it->is_null()) {
    if (!it->is_object()) r.refuse("field \"id2label\" must be an object");
    if (it->size() > static_cast<std::size_t>(kMaxDim)) r.refuse("field \"id2label\" has too many labels");
    c.id2label.assign(it->size(), {});
    std::vector<bool> seen(it->size(), false);
    for (const auto& [key, value] : it->items()) {
      std::size_t id = 0;
      auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
      if (ec != std::errc() || end != key.data() + key.size() || id >= c.id2label.size() || seen[id])
        r.refuse(fmt::format("id2label key \"{}\" is not one of the ids 0..{}", key, c.id2label.size() - 1));
      if (!value.is_string()) r.refuse(fmt::format("id2label[\"{}\"] must be a string", key));
      seen[id] = true;
      c.id2label[id] = value.get<std::string>();
    }
  }
  if (root.contains("num_labels") && !root["num_labels"].is_null()) {
    int n = r.size("num_labels");
    if (c.id2label.empty()) {
      for (int i = 0; i < n; ++i) c.id2label.push_back(fmt::format("LABEL_{}", i));
    } else if (static_cast<std::size_t>(n) != c.id2label.size()) {
      r.refuse(fmt::format("num_labels = {} but id2label has {} labels", n, c.id2label.size()));
    }
  }
  // transformers' default when a classifier config names no labels: two, LABEL_0 and LABEL_1.
  const bool labelled = c.head == HeadKind::SequenceClassification || c.head == HeadKind::TokenClassification;
  if (c.id2label.empty() && labelled) c.id2label = {"LABEL_0", "LABEL_1"};
  if (!labelled) c.id2label.clear();
  c.num_labels = static_cast<int>(c.id2label.size());

  auto type = r.text("problem_type");
  if (!type) c.problem_type = ProblemType::Auto;
  else if (*type == "single_label_classification") c.problem_type = ProblemType::SingleLabel;
  else if (*type == "multi_label_classification") c.problem_type = ProblemType::MultiLabel;
  else if (*type == "regression") c.problem_type = ProblemType::Regression;
  else r.refuse(fmt::format("unsupported problem_type \"{}\"", *type));

  // Newer sentence-transformers keep it under "sentence_transformers", older ones at the top level;
  // the newer key wins, as CrossEncoder reads them.
  if (auto st = root.find("sentence_transformers"); st != root.end() && st->is_object() && st->contains("activation_fn")) {
    const json& fn = (*st)["activation_fn"];
    if (!fn.is_null() && !fn.is_string()) r.refuse("field \"sentence_transformers.activation_fn\" must be a string");
    if (fn.is_string()) c.cross_encoder_activation = fn.get<std::string>();
  }
  if (c.cross_encoder_activation.empty())
    if (auto fn = r.text("sbert_ce_default_activation_function")) c.cross_encoder_activation = *fn;
}

// The sizes and settings, from wherever the family keeps them (in this order, so that the first
// problem in a config is the one reported).
void parse_settings(const ConfigReader& r, const ConfigKeys& keys, ModelConfig& c) {
  c.vocab_size = r.size("vocab_size");
  c.hidden_size = r.size(keys.hidden_size);
  c.num_layers = r.size(keys.num_layers);
  c.num_heads = r.size(keys.num_heads);
  c.intermediate_size = r.size(keys.intermediate_size);
  c.max_position_embeddings = r.size("max_position_embeddings", 512);
  c.type_vocab_size = keys.type_vocab_size ? r.size(keys.type_vocab_size, 2) : 0;
  c.hidden_act = parse_activation(r, keys.activation);
  c.layer_norm_eps = keys.layer_norm_eps ? r.number(keys.layer_norm_eps, 1e-12) : 1e-12;
  if (keys.position_embedding_type) {
    auto position = r.text(keys.position_embedding_type).value_or("absolute");
    if (position != "absolute")
      r.refuse(fmt::format("unsupported {} \"{}\" (only \"absolute\")", keys.position_embedding_type, position));
  }
  c.embedding_size = keys.embedding_size ? r.size(keys.embedding_size, keys.default_embedding_size) : c.hidden_size;
  if (keys.relative_attention_buckets) {
    c.relative_attention_buckets = r.size(keys.relative_attention_buckets, kRelativePositionBuckets);
    // transformers buckets into 32 whatever the config says: a smaller table fails there too.
    if (c.relative_attention_buckets < kRelativePositionBuckets)
      r.refuse(fmt::format("field \"{}\" = {}: the model looks up {} buckets of relative positions",
                           keys.relative_attention_buckets, c.relative_attention_buckets, kRelativePositionBuckets));
  }
}

}  // namespace

Eltwise eltwise_for(Activation activation) {
  switch (activation) {
    case Activation::Gelu: return Eltwise::Gelu;
    case Activation::GeluTanh: return Eltwise::GeluTanh;
    case Activation::Relu: return Eltwise::Relu;
    case Activation::Silu: return Eltwise::Silu;
  }
  return Eltwise::Identity;
}

std::string_view family_name(const FamilySpec* family) { return family ? family->model_type : "?"; }

std::string_view activation_name(Activation act) {
  switch (act) {
    case Activation::Gelu: return "gelu";
    case Activation::GeluTanh: return "gelu_new";
    case Activation::Relu: return "relu";
    case Activation::Silu: return "silu";
  }
  return "?";
}

std::string_view head_name(HeadKind head) {
  switch (head) {
    case HeadKind::None: return "none";
    case HeadKind::MaskedLM: return "masked-lm";
    case HeadKind::SequenceClassification: return "sequence-classification";
    case HeadKind::QuestionAnswering: return "question-answering";
    case HeadKind::PreTraining: return "pretraining";
    case HeadKind::TokenClassification: return "token-classification";
    case HeadKind::NextSentencePrediction: return "next-sentence-prediction";
  }
  return "?";
}

const ModelConfig& require_head(const ModelConfig& config, HeadTest has_head, std::string_view command,
                                std::string_view wanted) {
  if (has_head(config)) return config;
  if (const auto& absent = config.absent_head) {
    ModelConfig named = config;
    named.head = absent->head;
    if (has_head(named))
      bad_input("{} needs a {} model: config.json names {}, but its {} head is not in the checkpoint (none of {}): "
                "it is the encoder alone, for embed and similarity",
                command, wanted, config.architecture, head_name(absent->head), fmt::join(absent->tensors, ", "));
  }
  if (config.head == HeadKind::None)
    usage_error("{} needs a {} model; {} is the encoder alone, with no head", command, wanted, config.architecture);
  usage_error("{} needs a {} model; {} has a {} head", command, wanted, config.architecture, head_name(config.head));
}

std::string_view problem_type_name(ProblemType type) {
  switch (type) {
    case ProblemType::Auto: return "auto";
    case ProblemType::SingleLabel: return "single_label_classification";
    case ProblemType::MultiLabel: return "multi_label_classification";
    case ProblemType::Regression: return "regression";
  }
  return "?";
}

ModelConfig parse_model_config(std::string_view json_text, std::string_view source) {
  json root = parse_json(json_text, source);
  if (!root.is_object()) bad_input("{}: not a JSON object", source);
  ConfigReader r(root, source);

  ModelConfig c;
  auto model_type = r.text("model_type");
  if (!model_type) r.refuse("missing field \"model_type\"");
  c.family = find_family(*model_type);
  if (!c.family)
    r.refuse(fmt::format("unsupported model_type \"{}\" (supported: {})", *model_type, supported_model_types()));
  const FamilySpec& family = *c.family;
  for (const ConfigKeyAlias& a : family.key_aliases)
    if ((!root.contains(a.key) || root[a.key].is_null()) && root.contains(a.alias)) root[a.key] = root[a.alias];

  auto arch = root.find("architectures");
  if (arch != root.end() && !arch->is_null()) {
    if (!arch->is_array() || arch->empty() || !(*arch)[0].is_string())
      r.refuse("field \"architectures\" must be a list of names");
    c.architecture = (*arch)[0].get<std::string>();
  } else {
    // Bare configs (no architectures) describe the base model.
    c.architecture = family.architectures.front().name;
  }
  c.head = parse_head(r, family, c.architecture);

  parse_settings(r, family.keys, c);
  if (c.hidden_size % c.num_heads != 0)
    r.refuse(fmt::format("hidden size {} is not a multiple of the number of attention heads {}",
                         c.hidden_size, c.num_heads));
  c.pad_token_id = r.size("pad_token_id", 0, 0);
  c.tie_word_embeddings = r.flag("tie_word_embeddings", true);
  if (family.positions_after_padding) {
    c.position_offset = c.pad_token_id + 1;
    if (c.position_offset >= c.max_position_embeddings)
      r.refuse(fmt::format("pad_token_id {} leaves no positions of max_position_embeddings {}", c.pad_token_id,
                           c.max_position_embeddings));
  }
  parse_labels(r, c);
  if (family.read_settings) family.read_settings(r, c);
  return c;
}

ModelConfig read_model_config(const std::filesystem::path& config_json) {
  return parse_model_config(read_text_file(config_json), config_json.string());
}

}  // namespace bertkit::core
