#include "commands/info.h"

#include "core/checkpoint/converted_file.h"
#include "core/json.h"
#include "tokenizer/wordpiece_image.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace bertkit::cmd {

namespace {

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string pooling_modes(const core::Pooling& p) {
  std::vector<std::string> modes;
  if (p.cls) modes.push_back("cls");
  if (p.max) modes.push_back("max");
  if (p.mean) modes.push_back("mean");
  if (p.mean_sqrt_len) modes.push_back("mean_sqrt_len");
  if (p.weighted_mean) modes.push_back("weighted_mean");
  if (p.last_token) modes.push_back("last_token");
  return fmt::format("{}", fmt::join(modes, "+"));
}

// Whether WordPiece's tables come compiled: a file converted by another bertkit version still works,
// but builds them at every start.
std::string tokenizer_tables(const core::TokenizerFiles& files) {
  if (!files.wordpiece_image) return "built at load";
  if (tok::wordpiece_image_current(files.wordpiece_image->bytes)) return "compiled (wordpiece.bin, used in place)";
  return "built at load (wordpiece.bin is from another bertkit version: convert again for a faster start)";
}

// A few settings of tokenizer_config.json, as the file states them.
void tokenizer_settings(const core::LoadedModel& m, std::vector<std::pair<std::string, std::string>>& out) {
  std::vector<std::string> files;
  if (m.tokenizer.vocab_txt) files.push_back("vocab.txt");
  if (m.tokenizer.tokenizer_json) files.push_back("tokenizer.json");
  if (m.tokenizer.tokenizer_config_json) files.push_back("tokenizer_config.json");
  if (m.tokenizer.special_tokens_map_json) files.push_back("special_tokens_map.json");
  if (m.tokenizer.wordpiece_image) files.push_back("wordpiece.bin");
  out.emplace_back("tokenizer_files", files.empty() ? "none" : fmt::format("{}", fmt::join(files, " ")));
  out.emplace_back("tokenizer_tables", tokenizer_tables(m.tokenizer));
  if (!m.tokenizer.tokenizer_config_json) return;
  auto config = core::parse_json(*m.tokenizer.tokenizer_config_json, "tokenizer_config.json");
  for (const char* key : {"tokenizer_class", "do_lower_case", "strip_accents", "tokenize_chinese_chars", "model_max_length"}) {
    if (!config.is_object() || !config.contains(key)) continue;
    const auto& v = config[key];
    out.emplace_back(std::string("tokenizer.") + key, v.is_string() ? v.get<std::string>() : v.dump());
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> model_info(const core::LoadedModel& m) {
  const core::ModelConfig& c = m.config;
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("model", m.name);
  out.emplace_back("location", m.location.string());
  std::string format = core::is_converted_file(m.location) ? "bertkit converted file"
                       : m.sentence_transformer          ? "sentence-transformers folder"
                                                         : "Hugging Face folder";
  out.emplace_back("format", format);
  out.emplace_back("architecture", c.architecture);
  out.emplace_back("model_type", std::string(core::family_name(c.family)));
  out.emplace_back("head", std::string(core::head_name(c.head)));
  out.emplace_back("vocab_size", std::to_string(c.vocab_size));
  out.emplace_back("hidden_size", std::to_string(c.hidden_size));
  out.emplace_back("num_layers", std::to_string(c.num_layers));
  out.emplace_back("num_heads", std::to_string(c.num_heads));
  out.emplace_back("intermediate_size", std::to_string(c.intermediate_size));
  out.emplace_back("max_position_embeddings", std::to_string(c.max_position_embeddings));
  out.emplace_back("type_vocab_size", std::to_string(c.type_vocab_size));
  if (c.embedding_size != c.hidden_size) out.emplace_back("embedding_size", std::to_string(c.embedding_size));
  out.emplace_back("hidden_act", std::string(core::activation_name(c.hidden_act)));
  out.emplace_back("layer_norm_eps", fmt::format("{}", c.layer_norm_eps));
  if (c.num_labels > 0) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < c.id2label.size(); ++i) labels.push_back(fmt::format("{}={}", i, c.id2label[i]));
    out.emplace_back("num_labels", std::to_string(c.num_labels));
    out.emplace_back("labels", fmt::format("{}", fmt::join(labels, " ")));
    out.emplace_back("problem_type", std::string(core::problem_type_name(c.problem_type)));
  }
  // Counted as `convert` and `convert --check` count them: int8 scales are not weights of the model.
  std::int64_t parameters = 0;
  std::size_t tensors = 0, scales = 0;
  for (const auto& name : m.weights.names()) {
    if (name.ends_with(".scale")) {
      ++scales;
      continue;
    }
    ++tensors;
    parameters += core::shape_numel(m.weights.info(name)->shape);
  }
  out.emplace_back("tensors", std::to_string(tensors));
  if (scales > 0) out.emplace_back("int8_scales", std::to_string(scales));
  out.emplace_back("parameters", std::to_string(parameters));
  out.emplace_back("dtype", std::string(core::stored_dtype_name(m.stored_dtype)));
  tokenizer_settings(m, out);
  if (m.sentence_transformer) {
    const auto& st = *m.sentence_transformer;
    out.emplace_back("pooling", pooling_modes(st.pooling));
    out.emplace_back("normalize", yes_no(st.normalize));
    for (std::size_t k = 0; k < st.dense.size(); ++k)
      out.emplace_back(fmt::format("dense.{}", k),
                       fmt::format("{} -> {}{}, {}", st.dense[k].in_features, st.dense[k].out_features,
                                   st.dense[k].bias ? " with bias" : "",
                                   st.dense[k].activation == core::DenseActivation::Tanh ? "tanh" : "identity"));
    if (st.max_seq_length) out.emplace_back("max_seq_length", std::to_string(*st.max_seq_length));
    if (st.do_lower_case) out.emplace_back("do_lower_case", yes_no(*st.do_lower_case));
    for (const auto& [name, text] : st.prompts) out.emplace_back("prompt." + name, text);
    if (st.default_prompt_name) out.emplace_back("default_prompt", *st.default_prompt_name);
  }
  if (!m.unexpected_tensors.empty())
    out.emplace_back("unused_tensors", fmt::format("{}", fmt::join(m.unexpected_tensors, " ")));
  for (const auto& [what, where] : m.origins) out.emplace_back("from." + what, where);
  return out;
}

}  // namespace bertkit::cmd
