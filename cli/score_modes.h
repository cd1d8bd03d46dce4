#pragma once
// --mode dense|sparse|colbert|hybrid and --weights DENSE,SPARSE,COLBERT of similarity and rerank: which of
// a bi-encoder's vectors score a pair of texts and, with hybrid, the weight of each (FlagEmbedding's
// compute_score: Σ w·score / Σ w), and the scorer that embeds and compares them.
#include "cli/embedding_model.h"
#include "commands/similarity.h"

#include <optional>
#include <string>
#include <vector>

namespace bertkit::cli {

struct ScoreModeFlags {
  std::string mode;                    // empty: the model's default vector
  std::optional<std::string> weights;  // --mode hybrid only; default 1,1,1
  std::string metric;                  // --metric, empty: the model's similarity_fn_name, else cosine
};

// The scorer's vectors (plan->vectors, weights) and metric, from the flags and the model: each kind must be
// offered, a kind weighted 0 is left out, and --metric applies to dense vectors (dot for sparse ones).
// `metric_from` says where the metric came from, for --dry-run.
void plan_score_modes(const ScoreModeFlags& flags, const EmbeddingModel& model, cmd::Scorer& scorer,
                      std::string& metric_from);

// What a pair's score is, for --dry-run ("bi-encoder: cosine of the two embeddings", the hybrid's sum).
std::string scoring_text(const cmd::Scorer& scorer, const std::string& metric_from);

// The embedder of scorer.plan, with the heads its vectors need.
void attach_embedder(const EmbeddingModel& model, cmd::Scorer& scorer);

}  // namespace bertkit::cli
