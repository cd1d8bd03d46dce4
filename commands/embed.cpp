#include "commands/embed.h"

#include "commands/encoder_batches.h"
#include "core/error.h"
#include "core/setting.h"
#include "records/log.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>

namespace bertkit::cmd {

namespace {

// Python's str.isspace(), which str.strip() removes.
bool python_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

}  // namespace

std::string_view python_strip(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t i = begin;
    if (!python_space(tok::next_code_point(s, i))) break;
    begin = i;
  }
  std::size_t end = begin;  // end of the last non-space code point
  for (std::size_t i = begin; i < s.size();)
    if (!python_space(tok::next_code_point(s, i))) end = i;
  return s.substr(begin, end - begin);
}

namespace {

// The bytes of the first `n` code points of `s` (Python's s[:n]).
std::size_t code_point_prefix(std::string_view s, std::size_t n) {
  std::size_t i = 0;
  for (std::size_t k = 0; k < n && i < s.size(); ++k) tok::next_code_point(s, i);
  return i;
}

std::string lower_case(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();)
    tok::append_utf8(out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(tok::next_code_point(s, i)))));
  return out;
}

}  // namespace

EmbedPlan plan_embedding(const core::LoadedModel& model, const EmbedOptions& options) {
  EmbedPlan plan = plan_embedding(model.sentence_transformer, options);
  if (options.vectors.empty()) plan.vectors = {default_vector(model)};
  return plan;
}

EmbedPlan plan_embedding(const std::optional<core::SentenceTransformerConfig>& st, const EmbedOptions& options) {
  EmbedPlan plan;
  if (st) plan.modules = *st;
  std::string pooling_from = st ? "1_Pooling/config.json" : "default for a transformers checkpoint";
  if (options.pooling || !st) {
    core::Pooling pooling;
    pooling.include_prompt = plan.modules.pooling.include_prompt;
    PoolingMode mode = options.pooling.value_or(PoolingMode::Mean);
    pooling.cls = mode == PoolingMode::Cls;
    pooling.mean = mode == PoolingMode::Mean;
    pooling.max = mode == PoolingMode::Max;
    plan.modules.pooling = pooling;
    if (options.pooling) pooling_from = spelling(Setting::Pooling);
  }
  plan.pooling_text = fmt::format("{} ({})", core::pooling_modes_name(plan.modules.pooling), pooling_from);
  if (!plan.modules.dense.empty()) plan.pooling_text += fmt::format(", then {} Dense module{}", plan.modules.dense.size(),
                                                                    plan.modules.dense.size() == 1 ? "" : "s");

  std::string normalize_from = st ? "modules.json" : "default for a transformers checkpoint";
  if (options.normalize) {
    plan.modules.normalize = *options.normalize;
    normalize_from = spelling(*options.normalize ? Setting::Normalize : Setting::NoNormalize);
  }
  plan.normalize_text = fmt::format("{} ({})", plan.modules.normalize ? "L2" : "none", normalize_from);

  plan.truncate_dim = options.truncate_dim ? options.truncate_dim : st ? st->truncate_dim : std::nullopt;
  if (plan.truncate_dim) {
    plan.truncate_dim_given = options.truncate_dim.has_value();
    plan.truncate_from = options.truncate_dim ? spelling(Setting::TruncateDim)
                                             : "truncate_dim of config_sentence_transformers.json";
    if (options.normalize.value_or(false)) {
      // The checkpoint's Normalize module still runs before truncation; --normalize acts after it.
      plan.modules.normalize = st && st->normalize;
      plan.normalize_truncated = true;
      plan.normalize_text = fmt::format("{}L2 of the truncated embedding ({})",
                                        plan.modules.normalize ? "L2 (modules.json), then " : "", Setting::Normalize);
    } else if (plan.modules.normalize) {
      plan.normalize_text += ", before truncation: the truncated embeddings are not unit length";
    }
  }

  if (options.prefix && options.prompt) usage_error("give {} or {}, not both", Setting::Prefix, Setting::Prompt);
  std::optional<std::string> prompt = options.prompt;
  if (!prompt && !options.prefix && st && st->default_prompt_name) prompt = st->default_prompt_name;
  if (prompt) {
    static const std::map<std::string, std::string> no_prompts;
    const auto& prompts = st ? st->prompts : no_prompts;
    auto it = prompts.find(*prompt);
    if (it == prompts.end()) {
      std::string names;
      for (const auto& [name, text] : prompts) names += (names.empty() ? "" : ", ") + name;
      usage_error("the model has no prompt '{}' ({})", *prompt,
                  names.empty() ? "config_sentence_transformers.json defines none" : "it has: " + names);
    }
    plan.prompt_name = *prompt;
    plan.prefix = it->second;
    plan.prompt_text = fmt::format("{} = \"{}\"{}", *prompt, it->second, options.prompt ? "" : " (default_prompt_name)");
  } else if (options.prefix) {
    plan.prefix = *options.prefix;
    plan.prompt_text = fmt::format("\"{}\" ({})", *options.prefix, Setting::Prefix);
  } else {
    plan.prompt_text = "none";
  }
  if (!plan.prefix.empty() && !plan.modules.pooling.include_prompt)
    usage_error("this model's pooling leaves the prompt's tokens out (include_prompt false), which bertkit does not "
                "support yet: embed without a prompt or prefix");
  plan.lower_case = st && st->do_lower_case.value_or(false);
  plan.vectors = options.vectors;
  if (plan.vectors.empty()) plan.vectors.push_back(VectorKind::Dense);
  return plan;
}

std::string model_text(const EmbedPlan& plan, std::string_view text) {
  std::string joined = plan.prefix;
  joined += text;
  std::string_view stripped = plan.modules.strip_texts ? python_strip(joined) : std::string_view(joined);
  if (plan.max_chars) stripped = stripped.substr(0, code_point_prefix(stripped, *plan.max_chars));
  return plan.lower_case ? lower_case(stripped) : std::string(stripped);
}

std::int64_t kept_dimension(const EmbedPlan& plan, std::int64_t full) {
  if (!plan.truncate_dim) return full;
  if (*plan.truncate_dim < 1 || *plan.truncate_dim > full) {
    if (plan.truncate_dim_given)
      usage_error("{} must be 1..{} (the model's dimension), not {}", Setting::TruncateDim, full, *plan.truncate_dim);
    bad_input("{} {} is more than the model's dimension {}", plan.truncate_from, *plan.truncate_dim, full);
  }
  return *plan.truncate_dim;
}

std::string_view model_view(const EmbedPlan& plan, std::string_view text) {
  return plan.modules.strip_texts ? python_strip(text) : text;
}

Embedder::Embedder(const core::ModelConfig& config, std::shared_ptr<const core::Weights> weights, const EmbedPlan& plan)
    : encoder_(config, weights),
      pooler_(plan.modules, config.hidden_size, *weights),
      dimension_(kept_dimension(plan, pooler_.dimension())),
      normalize_truncated_(plan.normalize_truncated) {}

void Embedder::sentence_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                                   std::vector<float>& rows) {
  embed(encodings, limits, {.dense = &rows});
}

void Embedder::sparse_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                                 std::vector<core::SparseVector>& vectors) {
  embed(encodings, limits, {.sparse = &vectors});
}

void Embedder::embed(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits, const Outputs& outputs) {
  const auto dim = static_cast<std::size_t>(dimension());
  const auto full = static_cast<std::size_t>(pooler_.dimension());
  if (outputs.dense) outputs.dense->resize(encodings.size() * dim);
  if (outputs.sparse) outputs.sparse->assign(encodings.size(), {});
  if (outputs.colbert) outputs.colbert->resize(encodings.size());
  run_encoder(encoder_, encodings, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
    if (outputs.sparse)
      for (std::size_t k = 0; k < indices.size(); ++k)
        (*outputs.sparse)[indices[k]] = sparse_->forward(out, k, encodings[indices[k]].ids);
    if (outputs.colbert) colbert_->forward(out, indices, *outputs.colbert);
    if (!outputs.dense) return;
    pooler_.forward(out, pooled_);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      float* row = outputs.dense->data() + indices[k] * dim;
      std::copy_n(pooled_.begin() + static_cast<std::ptrdiff_t>(k * full), dim, row);
      if (normalize_truncated_) core::l2_normalize(row, static_cast<std::int64_t>(dim));
    }
  });
}

void Embedder::token_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits& limits,
                                std::vector<std::vector<float>>& states) {
  states.resize(encodings.size());
  const auto hidden = static_cast<std::size_t>(hidden_size());
  run_encoder(encoder_, encodings, limits, [&](std::span<const std::size_t> indices, const core::EncoderOutput& out) {
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const float* first = out.row(k, 0);
      states[indices[k]].assign(first, first + static_cast<std::size_t>(out.length(k)) * hidden);
    }
  });
}

std::vector<std::string> EmbedTask::result_fields() const {
  if (token_embeddings_) return {"tokens", "token_embeddings"};
  std::vector<std::string> fields;
  for (VectorKind kind : plan_.vectors) {
    if (kind == VectorKind::Sparse) add_sparse_fields(sparse_writing_, fields);
    else fields.emplace_back(vector_kind_info(kind).field);
  }
  return fields;
}

bool EmbedTask::wants(VectorKind kind) const {
  return has_vector(plan_.vectors, kind);
}

records::TextInput EmbedTask::model_input(const records::Record& record, std::string& text, std::string& pair) {
  text = model_text(plan_, record.text);
  if (!record.has_pair) return {text, std::nullopt};
  pair = model_text(plan_, record.text_pair);
  return {text, std::optional<std::string_view>(pair)};
}

void EmbedTask::compute(const records::Batch& batch) {
  if (token_embeddings_) transformer_->token_embeddings(batch.encodings, limits_, states_);
  else if (transformer_)
    transformer_->embed(batch.encodings, limits_,
                        {.dense = wants(VectorKind::Dense) ? &rows_ : nullptr,
                         .sparse = wants(VectorKind::Sparse) ? &sparse_ : nullptr,
                         .colbert = wants(VectorKind::Colbert) ? &colbert_ : nullptr});
  else embedder_.sentence_embeddings(batch.encodings, limits_, rows_);
}

void EmbedTask::quantize(core::Precision precision, std::optional<core::Ranges> calibration) {
  precision_ = precision;
  ranges_ = std::move(calibration);
  keep_all_ = (precision == core::Precision::Int8 || precision == core::Precision::Uint8) && !ranges_;
}

void EmbedTask::write(const records::Batch& batch, std::size_t i, records::RecordOutput& out) {
  if (token_embeddings_) return write_tokens(batch, i, out.results());
  if (plan_.vectors != std::vector{VectorKind::Dense}) return write_vectors(batch, i, out.results());
  const auto dim = static_cast<std::size_t>(embedder_.dimension());
  std::span<const float> row(rows_.data() + i * dim, dim);
  if (!keep_all_) return write_row(batch.records[i], batch.truncated[i], row, out);
  kept_.push_back(batch.records[i]);
  kept_truncated_.push_back(batch.truncated[i]);
  kept_errors_.emplace_back();
  kept_rows_.insert(kept_rows_.end(), row.begin(), row.end());
}

void EmbedTask::write_failed(const records::Record& record, const std::string& error, records::RecordOutput& out) {
  if (!keep_all_) return out.failed(record, error);
  kept_.push_back(record);
  kept_truncated_.push_back(0);
  kept_errors_.push_back(error);
}

void EmbedTask::finish(records::RecordOutput& out) {
  if (!keep_all_ || kept_.empty()) return;
  const auto dim = static_cast<std::size_t>(embedder_.dimension());
  ranges_.emplace(dim);
  ranges_->add(kept_rows_);
  check_input_ranges();
  std::size_t row = 0;
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    if (!kept_errors_[i].empty()) {
      out.failed(kept_[i], kept_errors_[i]);
      continue;
    }
    write_row(kept_[i], kept_truncated_[i], std::span<const float>(kept_rows_.data() + row++ * dim, dim), out);
  }
  out.end_batch();
}

// quantize_embeddings gives 0 wherever a range is one value: for every dimension with one embedding
// (or identical ones), which is refused, as no range can be taken from it; for a few, a warning.
void EmbedTask::check_input_ranges() const {
  const auto dim = static_cast<std::size_t>(embedder_.dimension());
  const std::size_t single = ranges_->single_value_dimensions();
  const std::size_t rows = kept_rows_.size() / dim;
  if (rows == 0)  // every record failed (--on-error skip): nothing is quantised
    return;
  const std::string_view name = core::precision_name(precision_);
  if (single == dim)
    usage_error("{} {} without {} takes each dimension's range from the input's embeddings, and {} give{} none (every "
                "value would quantise to 0): give {} FILE.npy, the float32 embeddings of many texts (embed {} npy "
                "writes them)",
                Setting::Precision, name, Setting::Calibration, rows == 1 ? std::string("one embedding") : fmt::format("{} identical embeddings", rows),
                rows == 1 ? "s" : "", Setting::Calibration, Setting::Format);
  if (single)
    records::warn("{} {}: {} of {} dimensions have one value in every embedding of the input: they quantise to 0 "
                  "({} FILE.npy gives the ranges)", Setting::Precision, name, single, dim, Setting::Calibration);
}

void EmbedTask::write_row(const records::Record& record, bool truncated, std::span<const float> row,
                          records::RecordOutput& out) {
  if (precision_ == core::Precision::Float32) {
    if (out.vectors()) return out.vector(row);
    out.results().begin(record, truncated).field("embedding", row).end();
    return;
  }
  bytes_.resize(core::quantized_width(precision_, row.size()));
  core::quantize_row(precision_, row, ranges_ ? &*ranges_ : nullptr, bytes_);
  if (out.vectors()) return out.vector(std::span<const std::uint8_t>(bytes_));
  out.results()
      .begin(record, truncated)
      .nested("embedding", [&](records::JsonLine& j) { write_quantized(j, precision_, bytes_); })
      .end();
}

// Dense, sparse and ColBERT vectors in the order --vectors gives them (float32: quantising is refused with
// more than dense).
void EmbedTask::write_vectors(const records::Batch& batch, std::size_t i, records::ResultWriter& results) {
  const auto dim = static_cast<std::size_t>(embedder_.dimension());
  results.begin(batch.records[i], batch.truncated[i]);
  for (VectorKind kind : plan_.vectors) {
    if (kind == VectorKind::Sparse) write_sparse(results, sparse_[i], sparse_writing_, tokenizer_);
    else if (kind == VectorKind::Colbert)
      results.nested(vector_kind_info(kind).field, [&](records::JsonLine& j) {
        write_vector_list(j, colbert_[i], static_cast<std::size_t>(transformer_->colbert_dimension()),
                          core::Precision::Float32, nullptr, bytes_);
      });
    else results.field(vector_kind_info(kind).field, std::span<const float>(rows_.data() + i * dim, dim));
  }
  results.end();
}

void write_vector_list(records::JsonLine& j, std::span<const float> vectors, std::size_t dim, core::Precision precision,
                       const core::Ranges* ranges, std::vector<std::uint8_t>& bytes) {
  j.begin_array();
  for (std::size_t at = 0; at < vectors.size(); at += dim) {
    const std::span<const float> row(vectors.data() + at, dim);
    if (precision == core::Precision::Float32) {
      j.value(row);
      continue;
    }
    bytes.resize(core::quantized_width(precision, dim));
    core::quantize_row(precision, row, ranges, bytes);
    write_quantized(j, precision, bytes);
  }
  j.end_array();
}

void write_quantized(records::JsonLine& j, core::Precision precision, std::span<const std::uint8_t> bytes) {
  const bool is_signed = core::is_signed(precision);
  j.begin_array();
  for (std::uint8_t b : bytes) is_signed ? j.value(static_cast<std::int8_t>(b)) : j.value(b);
  j.end_array();
}

void EmbedTask::write_tokens(const records::Batch& batch, std::size_t i, records::ResultWriter& results) {
  const tok::Encoding& e = batch.encodings[i];
  const auto hidden = static_cast<std::size_t>(transformer_->hidden_size());
  results.begin(batch.records[i], batch.truncated[i]);
  results.nested("tokens", [&](records::JsonLine& j) {
    j.begin_array();
    for (auto id : e.ids) j.value(tokenizer_.token(id));
    j.end_array();
  });
  results.nested("token_embeddings", [&](records::JsonLine& j) {
    j.begin_array();
    for (std::size_t t = 0; t < e.size(); ++t) j.value(std::span<const float>(states_[i].data() + t * hidden, hidden));
    j.end_array();
  });
  results.end();
}

}  // namespace bertkit::cmd
