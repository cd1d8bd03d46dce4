#include "commands/info.h"

#include "commands/static_embedder.h"
#include "commands/vector_kinds.h"
#include "core/loading/converted_file.h"
#include "core/error.h"
#include "core/json.h"
#include "core/model/family_spec.h"
#include "tokenizer/loader.h"
#include "tokenizer/wordpiece_image.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace bertkit::cmd {

namespace {

using Fields = std::vector<InfoField>;
using ordered_json = nlohmann::ordered_json;

void add(Fields& out, std::string key, std::string text) {
  ordered_json value = text;
  out.push_back({std::move(key), std::move(text), std::move(value)});
}
void add(Fields& out, std::string key, std::int64_t number) {
  out.push_back({std::move(key), std::to_string(number), number});
}
void add_yes_no(Fields& out, std::string key, bool b) { out.push_back({std::move(key), b ? "yes" : "no", b}); }
// A list: words joined by spaces in the text ("none" when empty), an array in JSON.
void add_list(Fields& out, std::string key, const std::vector<std::string>& items) {
  out.push_back({std::move(key), items.empty() ? "none" : fmt::format("{}", fmt::join(items, " ")), items});
}


// A checkpoint with more than one head (BertForPreTraining): each, under the name `head` would give it
// alone; fill-mask uses the masked-LM head, classify the next-sentence one.
std::vector<std::string> heads(const core::ModelConfig& c) {
  const core::ArchitectureSpec& a = core::architecture_spec(c);
  std::vector<std::string> out;
  if (a.mlm) out.emplace_back(core::head_name(core::HeadKind::MaskedLM));
  if (a.nsp) out.emplace_back(core::head_name(core::HeadKind::NextSentencePrediction));
  return out;
}

// Whether WordPiece's tables come compiled: a file converted by another bertkit version still works,
// but builds them at every start.
std::string tokenizer_tables(const core::TokenizerFiles& files) {
  if (!files.wordpiece_image) return "built at load";
  if (tok::wordpiece_image_current(files.wordpiece_image->bytes)) return "compiled (wordpiece.bin, used in place)";
  return "built at load (wordpiece.bin is from another bertkit version: convert again for a faster start)";
}

// A few settings of tokenizer_config.json, as the file states them.
void tokenizer_settings(const core::TokenizerFiles& tokenizer, Fields& out) {
  std::vector<std::string> files;
  if (tokenizer.vocab_txt) files.push_back("vocab.txt");
  if (tokenizer.tokenizer_json) files.push_back("tokenizer.json");
  if (tokenizer.tokenizer_config_json) files.push_back("tokenizer_config.json");
  if (tokenizer.special_tokens_map_json) files.push_back("special_tokens_map.json");
  if (tokenizer.vocab_json) files.push_back("vocab.json");
  if (tokenizer.merges_txt) files.push_back("merges.txt");
  if (tokenizer.wordpiece_image) files.push_back("wordpiece.bin");
  add_list(out, "tokenizer_files", files);
  add(out, "tokenizer_tables", tokenizer_tables(tokenizer));
  try {
    const tok::TokenizerSpec spec = tok::build_tokenizer_spec(tokenizer);
    add(out, "tokenizer_model", tok::model_summary(spec));
    add(out, "tokenizer_normalizer", tok::normalizer_summary(spec));
  } catch (const Error& e) {
    add(out, "tokenizer_model", fmt::format("not loadable: {}", e.what()));
  }
  if (!tokenizer.tokenizer_config_json) return;
  auto config = core::parse_json(*tokenizer.tokenizer_config_json, "tokenizer_config.json");
  for (const char* key : {"tokenizer_class", "do_lower_case", "strip_accents", "tokenize_chinese_chars", "model_max_length"}) {
    if (!config.is_object() || !config.contains(key)) continue;
    const auto& v = config[key];
    out.push_back({std::string("tokenizer.") + key, v.is_string() ? v.get<std::string>() : v.dump(), v});
  }
}

// A rotary family's positions: the share of each head rotated and its layout, then each kind of layer
// (attending to every key, or to those within a window each side) with its rotary base and its layers.
void add_rotary(Fields& out, const core::ModelConfig& c) {
  if (c.layer_attention.empty()) return;
  out.push_back({"rotary",
                 fmt::format("{:g}% of each head, {}", 100 * c.rotary.fraction,
                             c.rotary.interleaved ? "interleaved pairs" : "NeoX halves"),
                 ordered_json{{"fraction", c.rotary.fraction}, {"interleaved", c.rotary.interleaved}}});
  std::vector<std::pair<core::LayerAttention, std::vector<int>>> kinds;
  for (int l = 0; l < static_cast<int>(c.layer_attention.size()); ++l) {
    const core::LayerAttention& a = c.layer_attention[static_cast<std::size_t>(l)];
    auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) {
      return k.first.window == a.window && k.first.rope_theta == a.rope_theta;
    });
    if (kind == kinds.end()) kind = kinds.insert(kinds.end(), {a, {}});
    kind->second.push_back(l);
  }
  for (const auto& [a, layers] : kinds)
    out.push_back({a.window < 0 ? std::string("attention.global") : fmt::format("attention.window_{}", a.window),
                   fmt::format("rope_theta {:g}, layers {}", a.rope_theta, fmt::join(layers, " ")),
                   ordered_json{{"rope_theta", a.rope_theta}, {"layers", layers}}});
}

// DeBERTa's disentangled attention as config.json sets it; nothing for other families.
void disentangled_settings(const core::DisentangledAttention& a, Fields& out) {
  if (a.scale_factor() == 1 && !a.relative) return;
  add(out, "pos_att_type", a.c2p && a.p2c ? "c2p|p2c" : a.c2p ? "c2p" : a.p2c ? "p2c" : "none");
  add_yes_no(out, "relative_attention", a.relative);
  if (!a.relative) return;
  add(out, "position_buckets", a.buckets);
  add(out, "max_relative_positions", a.max_relative);
  add_yes_no(out, "share_att_key", a.share_key);
  add_yes_no(out, "norm_rel_ebd", a.norm_relative);
}

// config_sentence_transformers.json's prompts and similarity function.
void prompt_settings(const core::SentenceTransformerConfig& st, Fields& out) {
  for (const auto& [name, text] : st.prompts) add(out, "prompt." + name, text);
  if (st.default_prompt_name) add(out, "default_prompt", *st.default_prompt_name);
  if (st.similarity_fn_name) add(out, "similarity_fn_name", *st.similarity_fn_name);
}

void origin_fields(const std::vector<std::pair<std::string, std::string>>& origins, Fields& out) {
  for (const auto& [what, where] : origins) out.push_back({"from." + what, where, where, true});
}

}  // namespace

Fields static_model_info(const core::StaticModel& m) {
  Fields out;
  add(out, "model", m.name);
  add(out, "location", m.location.string());
  const bool model2vec = m.layout == core::StaticLayout::Model2Vec;
  add(out, "format", fmt::format("static embeddings, {} folder", model2vec ? "model2vec" : "sentence-transformers"));
  add(out, "architecture", model2vec ? "StaticModel" : "StaticEmbedding");
  add(out, "embedding_table", fmt::format("{} [{}, {}]", m.table_name, m.rows, m.dim));
  add(out, "vocab_size", m.rows);
  add(out, "dimension", m.dim);
  add(out, "parameters", m.rows * m.dim);
  tokenizer_settings(m.tokenizer, out);
  add(out, "pooling", "mean");
  add_yes_no(out, "normalize", m.settings.normalize);
  if (model2vec) {
    const tok::Tokenizer tokenizer(tok::build_tokenizer_spec(m.tokenizer));
    add(out, "median_token_length", static_cast<std::int64_t>(median_token_length(tokenizer)));
    const std::optional<std::int32_t> unknown = model_unknown_id(tokenizer);
    out.push_back({"removed_token_id", unknown ? std::to_string(*unknown) : "none",
                   unknown ? ordered_json(*unknown) : ordered_json()});
    add(out, "max_length", static_cast<std::int64_t>(kModel2VecMaxLength));
  } else if (m.truncation_max_length) {
    add(out, "max_length", static_cast<std::int64_t>(*m.truncation_max_length));
  }
  prompt_settings(m.settings, out);
  origin_fields(m.origins, out);
  return out;
}

namespace {

// Counted as `convert` and `convert --check` count them: int8 scales are not weights of the model.
void weight_counts(const core::Weights& weights, Fields& out) {
  std::int64_t parameters = 0, tensors = 0, scales = 0;
  for (const auto& name : weights.names()) {
    if (name.ends_with(".scale")) {
      ++scales;
      continue;
    }
    ++tensors;
    parameters += core::shape_numel(weights.info(name)->shape);
  }
  add(out, "tensors", tensors);
  if (scales > 0) add(out, "int8_scales", scales);
  add(out, "parameters", parameters);
}

}  // namespace

Fields model_info(const core::LoadedModel& m) {
  const core::ModelConfig& c = m.config;
  Fields out;
  add(out, "model", m.name);
  add(out, "location", m.location.string());
  add(out, "format", core::is_converted_file(m.location) ? "bertkit converted file"
                     : m.sentence_transformer          ? "sentence-transformers folder"
                                                       : "Hugging Face folder");
  add(out, "architecture", c.architecture);
  add(out, "model_type", std::string(core::family_name(c.family)));
  add(out, "head", std::string(core::head_name(c.head)));
  if (c.absent_head)
    add(out, "absent_head", fmt::format("{} (named by config.json, none of its tensors in the checkpoint: {})",
                                        core::head_name(c.absent_head->head), fmt::join(c.absent_head->tensors, " ")));
  if (auto both = heads(c); both.size() > 1) add_list(out, "heads", both);
  add(out, "vocab_size", c.vocab_size);
  add(out, "hidden_size", c.hidden_size);
  add(out, "num_layers", c.num_layers);
  add(out, "num_heads", c.num_heads);
  add(out, "intermediate_size", c.intermediate_size);
  add(out, "max_position_embeddings", c.max_position_embeddings);
  add(out, "type_vocab_size", c.type_vocab_size);
  if (c.relative_attention_buckets > 0) add(out, "relative_attention_buckets", c.relative_attention_buckets);
  disentangled_settings(c.disentangled, out);
  if (c.embedding_size != c.hidden_size) add(out, "embedding_size", c.embedding_size);
  add_rotary(out, c);
  add(out, "hidden_act", std::string(core::activation_name(c.hidden_act)));
  out.push_back({"layer_norm_eps", fmt::format("{}", c.layer_norm_eps), c.layer_norm_eps});
  if (c.num_labels > 0) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < c.id2label.size(); ++i) labels.push_back(fmt::format("{}={}", i, c.id2label[i]));
    add(out, "num_labels", c.num_labels);
    // JSON: the labels in id order.
    out.push_back({"labels", fmt::format("{}", fmt::join(labels, " ")), c.id2label});
    add(out, "problem_type", std::string(core::problem_type_name(c.problem_type)));
  }
  weight_counts(m.weights, out);
  add(out, "dtype", std::string(core::stored_dtype_name(m.stored_dtype)));
  tokenizer_settings(m.tokenizer, out);
  if (m.sentence_transformer || m.config.head == core::HeadKind::None) {  // what embed --vectors and similarity --mode take
    std::vector<std::string> vectors;
    for (VectorKind kind : offered_vectors(m)) vectors.emplace_back(vector_kind_info(kind).name);
    add_list(out, "vectors", vectors);
  }
  if (m.sentence_transformer) {
    const auto& st = *m.sentence_transformer;
    if (st.colbert) {  // a vector per token: no pooling; every vector is normalised
      const core::ColbertConfig& c = *st.colbert;
      out.push_back({"colbert", fmt::format("query \"{}\" {} tokens, document \"{}\" {} tokens", c.query_prefix,
                                            c.query_length, c.document_prefix, c.document_length),
                     core::colbert_config_json(c)});
    } else {
      add(out, "pooling", core::pooling_modes_name(st.pooling));
      add_yes_no(out, "normalize", st.normalize);
    }
    for (std::size_t k = 0; k < st.dense.size(); ++k) {
      const auto& d = st.dense[k];
      const char* activation = d.activation == core::DenseActivation::Tanh ? "tanh" : "identity";
      out.push_back({fmt::format("dense.{}", k),
                     fmt::format("{} -> {}{}, {}", d.in_features, d.out_features, d.bias ? " with bias" : "", activation),
                     ordered_json{{"in_features", d.in_features},
                                  {"out_features", d.out_features},
                                  {"bias", d.bias},
                                  {"activation", activation}}});
    }
    if (st.max_seq_length) add(out, "max_seq_length", static_cast<std::int64_t>(*st.max_seq_length));
    if (st.do_lower_case) add_yes_no(out, "do_lower_case", *st.do_lower_case);
    prompt_settings(st, out);
  }
  if (!m.unexpected_tensors.empty()) add_list(out, "unused_tensors", m.unexpected_tensors);
  origin_fields(m.origins, out);
  return out;
}

nlohmann::ordered_json info_json(const std::vector<InfoField>& fields) {
  ordered_json j = ordered_json::object();
  for (const auto& f : fields) {
    if (f.repeats)
      j[f.key].push_back(f.value);
    else
      j[f.key] = f.value;
  }
  return j;
}

}  // namespace bertkit::cmd
