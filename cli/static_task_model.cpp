#include "cli/static_task_model.h"

#include "commands/static_embedder.h"
#include "core/error.h"
#include "core/loading/model_source.h"
#include "tokenizer/loader.h"

#include <fmt/format.h>

#include <filesystem>

namespace bertkit::cli {

namespace fs = std::filesystem;

namespace {

void refuse_flags(const TaskFlags& flags, const core::StaticModel& model) {
  const std::string what = fmt::format("{} is a static embedding model ({})", flags.model, core::static_layout_name(model.layout));
  if (!flags.dtype.empty()) usage_error("--dtype sets the type Linear layers compute in; {}, which has none", what);
  if (flags.compat != "fast")
    usage_error("--compat {}: {}, which both sentence-transformers and model2vec tokenize with the fast tokenizer",
                flags.compat, what);
  if (model.layout == core::StaticLayout::SentenceTransformers && flags.max_length)
    usage_error("--max-length: {}, whose StaticEmbedding module truncates nothing (its max_seq_length is infinite)", what);
  if (model.layout == core::StaticLayout::Model2Vec && flags.truncate == "error")
    usage_error("--truncate error: {}, whose cuts (max_length tokens of a text cut to max_length × the median token "
                "length in characters) are its encode's rules, not marked as truncation",
                what);
}

std::string max_length_setting(const TaskFlags& flags, const StaticTaskModel& m) {
  if (m.model.layout == core::StaticLayout::Model2Vec)
    return fmt::format("{} tokens, the unknown token's removed, of a text cut to its first {} characters ({})",
                       m.max_length, m.max_length * cmd::median_token_length(*m.tokenizer),
                       flags.max_length ? "--max-length" : "model2vec's encode default");
  if (m.model.truncation_max_length)
    return fmt::format("{} tokens (truncation of {})", *m.model.truncation_max_length, core::kTokenizerJson);
  return "none (StaticEmbedding truncates nothing)";
}

}  // namespace

std::optional<StaticTaskModel> load_static_task_model(const TaskFlags& flags) {
  if (flags.model.empty()) return std::nullopt;
  const fs::path location = core::resolve_model_location(flags.model);
  std::error_code ec;
  if (!fs::is_directory(location, ec) || !core::static_layout(location)) return std::nullopt;
  StaticTaskModel m;
  m.model = core::load_static_model(location, flags.model);
  refuse_flags(flags, m.model);
  m.tokenizer = std::make_unique<tok::Tokenizer>(tok::build_tokenizer_spec(m.model.tokenizer));
  const auto tokens = static_cast<std::int64_t>(m.tokenizer->vocab_size());
  // model2vec's StaticModel refuses a table without one row per token.
  if (m.model.layout == core::StaticLayout::Model2Vec && tokens != m.model.rows)
    bad_input("{}: {} has {} rows and the tokenizer {} tokens: model2vec needs one row per token", location.string(),
              m.model.table_name, m.model.rows, tokens);
  m.max_length = flags.max_length.value_or(cmd::kModel2VecMaxLength);
  return m;
}

records::PipelineOptions static_pipeline_options(const TaskFlags& flags, const StaticTaskModel& m) {
  records::PipelineOptions o = pipeline_options(flags, m.model.files);
  o.tokenize.encode.add_special_tokens = false;
  o.tokenize.encode.keep_overflow = false;
  if (m.model.truncation_max_length) {
    tok::TruncationParams t;
    t.max_length = *m.model.truncation_max_length;
    t.side = m.model.truncation_left ? tok::Side::Left : tok::Side::Right;
    o.tokenize.encode.truncation = t;
  }
  return o;
}

Settings static_settings(const TaskFlags& flags, const StaticTaskModel& m) {
  Settings s;
  s.add("model", fmt::format("{} ({})", flags.model, m.model.location.string()));
  s.add("architecture", fmt::format("static embeddings ({}): a table of token vectors, no transformer",
                                    core::static_layout_name(m.model.layout)));
  s.add("tokenizer", fmt::format("fast (Hugging Face tokenizers), {} tokens, no special tokens added", m.tokenizer->vocab_size()));
  s.add("max length", max_length_setting(flags, m));
  add_run_settings(s, flags);
  return s;
}

}  // namespace bertkit::cli
