#include "commands/static_embedder.h"

#include "core/error.h"
#include "core/model/pooling.h"
#include "core/setting.h"
#include "tokenizer/utf8.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <variant>

namespace bertkit::cmd {

std::size_t median_token_length(const tok::Tokenizer& tokenizer) {
  std::vector<std::size_t> lengths(tokenizer.vocab_size());
  for (std::size_t id = 0; id < lengths.size(); ++id)
    lengths[id] = tok::count_code_points(tokenizer.token(static_cast<std::int32_t>(id)));
  if (lengths.empty()) return 0;
  // numpy's median: the middle value, or the mean of the two middle ones; int() drops the fraction.
  const std::size_t half = lengths.size() / 2;
  std::nth_element(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(half), lengths.end());
  const std::size_t upper = lengths[half];
  if (lengths.size() % 2) return upper;
  const std::size_t lower = *std::max_element(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(half));
  return (lower + upper) / 2;
}

std::optional<std::int32_t> model_unknown_id(const tok::Tokenizer& tokenizer) {
  const tok::ModelSpec& model = tokenizer.spec().model;
  std::optional<std::string> unk;
  if (const auto* wordpiece = std::get_if<tok::WordPieceOptions>(&model)) unk = wordpiece->unk_token;
  if (const auto* bpe = std::get_if<tok::BpeOptions>(&model)) unk = bpe->unk_token;
  return unk ? tokenizer.token_id(*unk) : std::nullopt;
}

namespace {

std::string_view norm_formula(core::StaticLayout layout) {
  return layout == core::StaticLayout::Model2Vec ? "x / (|x| + 1e-32)" : "x / max(|x|, 1e-12)";
}

}  // namespace

EmbedPlan plan_static_embedding(const core::StaticModel& model, const tok::Tokenizer& tokenizer,
                                const EmbedOptions& options, std::size_t max_length) {
  if (options.pooling && *options.pooling != PoolingMode::Mean)
    usage_error("{}: a static embedding model's embedding is the mean of its token vectors: leave {} out",
                model.location.string(), Setting::Pooling);
  EmbedOptions o = options;
  o.pooling.reset();
  EmbedPlan plan = plan_embedding(model.settings, o);
  plan.pooling_text = fmt::format("mean of the token vectors ({}, table {} [{}, {}])", core::static_layout_name(model.layout),
                                  model.table_name, model.rows, model.dim);
  if (!plan.truncate_dim)
    plan.normalize_text = plan.modules.normalize
                              ? fmt::format("{} ({})", norm_formula(model.layout),
                                            options.normalize ? spelling(Setting::Normalize) : model.normalize_from)
                              : fmt::format("none ({})", options.normalize ? spelling(Setting::NoNormalize)
                                                                           : model.normalize_from);
  if (model.layout == core::StaticLayout::Model2Vec) {
    plan.max_chars = max_length * median_token_length(tokenizer);
    plan.max_ids = max_length;
  }
  return plan;
}

namespace {

core::StaticRules static_rules(const core::StaticModel& model, const tok::Tokenizer& tokenizer, const EmbedPlan& plan) {
  core::StaticRules rules;
  const bool model2vec = model.layout == core::StaticLayout::Model2Vec;
  if (model2vec) rules.dropped_id = model_unknown_id(tokenizer);
  rules.max_ids = plan.max_ids;
  if (plan.modules.normalize) rules.norm = model2vec ? core::StaticNorm::Epsilon : core::StaticNorm::Clamped;
  return rules;
}

}  // namespace

StaticEmbedder::StaticEmbedder(const core::StaticModel& model, const tok::Tokenizer& tokenizer, const EmbedPlan& plan)
    : table_(*model.weights.find(core::kStaticTable), static_rules(model, tokenizer, plan)),
      dimension_(kept_dimension(plan, table_.dimension())),
      normalize_truncated_(plan.normalize_truncated) {}

void StaticEmbedder::sentence_embeddings(std::span<const tok::Encoding> encodings, const core::BatchLimits&,
                                         std::vector<float>& rows) {
  const auto dim = static_cast<std::size_t>(dimension_);
  const auto full = static_cast<std::size_t>(table_.dimension());
  rows.resize(encodings.size() * dim);
  std::exception_ptr error;
  std::mutex error_lock;
  const auto n = static_cast<std::int64_t>(encodings.size());
#pragma omp parallel
  {
    std::vector<float> row(full);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t i = 0; i < n; ++i) {
      try {
        table_.embed(encodings[static_cast<std::size_t>(i)].ids, row.data());
      } catch (...) {
        const std::lock_guard lock(error_lock);
        if (!error) error = std::current_exception();
        continue;
      }
      float* out = rows.data() + static_cast<std::size_t>(i) * dim;
      std::copy_n(row.begin(), dim, out);
      if (normalize_truncated_) core::l2_normalize(out, static_cast<std::int64_t>(dim));
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace bertkit::cmd
