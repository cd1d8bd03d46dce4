#include "cli/score_modes.h"

#include "cli/embedding_flags.h"
#include "cli/list_flags.h"
#include "core/error.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <numeric>

namespace bertkit::cli {

namespace {

// --weights DENSE,SPARSE,COLBERT: three finite numbers >= 0, not all 0.
std::vector<float> parse_mode_weights(const std::string& text) {
  const std::vector<std::string> items = split_comma_list(text);
  std::vector<float> weights;
  for (const std::string& item : items) {
    char* end = nullptr;
    const double w = item.empty() ? -1 : std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(w) || w < 0)
      usage_error("--weights: '{}' is not a number >= 0 (give DENSE,SPARSE,COLBERT, e.g. 0.4,0.2,0.4)", item);
    weights.push_back(static_cast<float>(w));
  }
  if (weights.size() != 3) usage_error("--weights takes three numbers, DENSE,SPARSE,COLBERT; got {}", items.size());
  if (weights[0] + weights[1] + weights[2] <= 0) usage_error("--weights: at least one of the three must be above 0");
  return weights;
}

}  // namespace

void plan_score_modes(const ScoreModeFlags& flags, const EmbeddingModel& model, cmd::Scorer& scorer,
                      std::string& metric_from) {
  scorer.plan.emplace();
  auto& kinds = scorer.plan->vectors;
  if (flags.mode == "hybrid") {
    const std::vector<float> weights = parse_mode_weights(flags.weights.value_or("1,1,1"));
    const cmd::VectorKind order[] = {cmd::VectorKind::Dense, cmd::VectorKind::Sparse, cmd::VectorKind::Colbert};
    for (std::size_t k = 0; k < 3; ++k)
      if (weights[k] > 0) {
        kinds.push_back(order[k]);
        scorer.weights.push_back(weights[k]);
      }
  } else {
    if (flags.weights) usage_error("--weights applies to --mode hybrid");
    kinds.push_back(flags.mode.empty() ? model.default_vector() : cmd::parse_vector_kind(flags.mode, "--mode"));
  }
  for (cmd::VectorKind kind : kinds) model.require_offered(kind, "--mode");

  // sentence-transformers' similarity_fn_name is the default, as model.similarity() uses it.
  const auto& st = model.table ? std::optional(model.table->model.settings) : model.transformer->loaded.sentence_transformer;
  const bool named = flags.metric.empty() && st && st->similarity_fn_name;
  metric_from = !flags.metric.empty() ? "" : named ? " (similarity_fn_name of config_sentence_transformers.json)" : " (the default)";
  scorer.metric = metric_flag(!flags.metric.empty() ? flags.metric : named ? *st->similarity_fn_name : "cosine");
  if (kinds.front() == cmd::VectorKind::Dense) return;
  if (!flags.metric.empty() && (flags.metric != "dot" || kinds.front() != cmd::VectorKind::Sparse))
    usage_error("--metric {}: {} vectors are scored by {}", flags.metric, cmd::vector_kind_info(kinds.front()).name,
                kinds.front() == cmd::VectorKind::Sparse ? "their dot product" : "MaxSim");
  if (kinds.front() == cmd::VectorKind::Sparse) {
    scorer.metric = core::Metric::Dot;
    metric_from = " (sparse vectors: SparseEncoder's dot product)";
  }
}

std::string scoring_text(const cmd::Scorer& scorer, const std::string& metric_from) {
  const std::string dense = fmt::format("{} of the two embeddings{}", core::metric_name(scorer.metric), metric_from);
  auto kind_text = [&](cmd::VectorKind kind) -> std::string {
    switch (kind) {
      case cmd::VectorKind::Sparse: return "dot product of the sparse vectors";
      case cmd::VectorKind::Colbert: return "MaxSim of the ColBERT vectors (mean over the first text's)";
      case cmd::VectorKind::Dense: break;
    }
    return dense;
  };
  const auto& kinds = scorer.plan->vectors;
  if (!scorer.hybrid()) return "bi-encoder: " + kind_text(kinds.front());
  std::string parts;
  for (std::size_t k = 0; k < kinds.size(); ++k)
    parts += fmt::format("{}{} × {}", k ? " + " : "", scorer.weights[k], kind_text(kinds[k]));
  return fmt::format("bi-encoder, hybrid (--mode hybrid, FlagEmbedding's compute_score): ({}) / {}", parts,
                     std::accumulate(scorer.weights.begin(), scorer.weights.end(), 0.0f));
}

void attach_embedder(const EmbeddingModel& model, cmd::Scorer& scorer) {
  Embedders embedders = model.embedders(*scorer.plan);
  scorer.embedder = std::move(embedders.sentence);
  scorer.transformer = embedders.transformer;
}

}  // namespace bertkit::cli
