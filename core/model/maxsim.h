#pragma once
// Late-interaction scoring of a query's token vectors against a document's: for each query vector the
// best dot product with any document vector, then their sum (PyLate's colbert_scores, MaxSim) or mean
// (BGE-M3's colbert_score, averaged over the query's vectors).
#include <cstdint>
#include <span>

namespace bertkit::core {

enum class MaxSimReduction { Sum, Mean };

// `query`: [query rows, dim], `document`: [document rows, dim], row-major. A document without vectors
// scores 0 (each query vector's best match is taken as 0, as PyLate's zero padding gives it).
float maxsim(std::span<const float> query, std::span<const float> document, std::int64_t dim,
             MaxSimReduction reduction);

}  // namespace bertkit::core
