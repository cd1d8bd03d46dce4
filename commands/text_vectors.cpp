#include "commands/similarity.h"

#include "core/model/maxsim.h"

namespace bertkit::cmd {

void TextVectors::embed(const Scorer& scorer, std::span<const tok::Encoding> encodings, const core::BatchLimits& limits) {
  if (scorer.dense_only()) return scorer.embedder->sentence_embeddings(encodings, limits, dense_);
  const auto& kinds = scorer.plan->vectors;
  auto wants = [&](VectorKind kind) { return has_vector(kinds, kind); };
  scorer.transformer->embed(encodings, limits,
                            {.dense = wants(VectorKind::Dense) ? &dense_ : nullptr,
                             .sparse = wants(VectorKind::Sparse) ? &sparse_ : nullptr,
                             .colbert = wants(VectorKind::Colbert) ? &colbert_ : nullptr});
}

float pair_score(const Scorer& scorer, const TextVectors& a, std::size_t i, const TextVectors& b, std::size_t j,
                 std::span<float> parts) {
  const auto& kinds = scorer.plan->vectors;
  double weighted = 0, total = 0;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    float part = 0;
    switch (kinds[k]) {
      case VectorKind::Dense: {
        const std::int64_t dim = scorer.embedder->dimension();
        part = core::similarity(scorer.metric, embedding_row(a.dense_, i, dim), embedding_row(b.dense_, j, dim));
        break;
      }
      case VectorKind::Sparse: part = core::sparse_dot(a.sparse_[i], b.sparse_[j]); break;
      case VectorKind::Colbert:
        // BGE-M3's colbert_score: the mean over the first text's vectors of each one's best match.
        part = core::maxsim(a.colbert_[i], b.colbert_[j], scorer.transformer->colbert_dimension(), core::MaxSimReduction::Mean);
        break;
    }
    parts[k] = part;
    const double w = scorer.hybrid() ? scorer.weights[k] : 1.0;
    weighted += w * part;
    total += w;
  }
  return static_cast<float>(weighted / total);
}

}  // namespace bertkit::cmd
