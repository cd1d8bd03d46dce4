#pragma once
// How alike two embeddings are, as sentence-transformers' similarity functions define it: higher is
// more similar, so distances are negated.
#include <optional>
#include <span>
#include <string_view>

namespace bertkit::core {

enum class Metric {
  Cosine,     // a.b / (|a| |b|), each norm at least 1e-8 (torch's cosine_similarity eps)
  Dot,        // a.b
  Euclidean,  // -|a - b|
  Manhattan,  // -sum |a_i - b_i|
};

// cosine, dot, euclidean or manhattan; nullopt for any other name (the caller says where it came from).
std::optional<Metric> parse_metric(std::string_view name);
std::string_view metric_name(Metric metric);

// a and b have the same size. Sums in double.
float similarity(Metric metric, std::span<const float> a, std::span<const float> b);

}  // namespace bertkit::core
