#include "core/model/similarity.h"

#include <algorithm>
#include <cmath>

namespace bertkit::core {

std::string_view metric_name(Metric metric) {
  switch (metric) {
    case Metric::Cosine: return "cosine";
    case Metric::Dot: return "dot";
    case Metric::Euclidean: return "euclidean";
    case Metric::Manhattan: return "manhattan";
  }
  return "";
}

std::optional<Metric> parse_metric(std::string_view name) {
  if (name == "cosine") return Metric::Cosine;
  if (name == "dot") return Metric::Dot;
  if (name == "euclidean") return Metric::Euclidean;
  if (name == "manhattan") return Metric::Manhattan;
  return std::nullopt;
}

float similarity(Metric metric, std::span<const float> a, std::span<const float> b) {
  const std::size_t n = std::min(a.size(), b.size());
  switch (metric) {
    case Metric::Cosine:
    case Metric::Dot: {
      double ab = 0, aa = 0, bb = 0;
#pragma omp simd reduction(+ : ab, aa, bb)
      for (std::size_t i = 0; i < n; ++i) {
        ab += double(a[i]) * b[i];
        aa += double(a[i]) * a[i];
        bb += double(b[i]) * b[i];
      }
      if (metric == Metric::Dot) return static_cast<float>(ab);
      return static_cast<float>(ab / (std::max(std::sqrt(aa), 1e-8) * std::max(std::sqrt(bb), 1e-8)));
    }
    case Metric::Euclidean: {
      double squares = 0;
#pragma omp simd reduction(+ : squares)
      for (std::size_t i = 0; i < n; ++i) {
        const double d = double(a[i]) - b[i];
        squares += d * d;
      }
      return static_cast<float>(-std::sqrt(squares));
    }
    case Metric::Manhattan: {
      double sum = 0;
#pragma omp simd reduction(+ : sum)
      for (std::size_t i = 0; i < n; ++i) sum += std::abs(double(a[i]) - b[i]);
      return static_cast<float>(-sum);
    }
  }
  return 0;
}

}  // namespace bertkit::core
