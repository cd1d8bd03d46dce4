#include "cli/choice_flags.h"

#include "core/error.h"

#include <charconv>

namespace bertkit::cli {

core::ScoreFunction parse_score_function(std::string_view name, const core::ModelConfig& config) {
  if (name == "auto") return core::default_score_function(config);
  if (name == "softmax") return core::ScoreFunction::Softmax;
  if (name == "sigmoid") return core::ScoreFunction::Sigmoid;
  if (name == "none") return core::ScoreFunction::None;
  usage_error("unknown --function '{}' (expected auto, softmax, sigmoid or none)", name);
}

std::optional<std::size_t> parse_label_count(std::string_view text) {
  if (text == "all") return std::nullopt;
  std::size_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n == 0)
    usage_error("--top-k must be a positive number or 'all', not '{}'", text);
  return n;
}

cmd::Aggregation parse_aggregation(std::string_view name) {
  if (name == "none") return cmd::Aggregation::None;
  if (name == "simple") return cmd::Aggregation::Simple;
  if (name == "first") return cmd::Aggregation::First;
  if (name == "average") return cmd::Aggregation::Average;
  if (name == "max") return cmd::Aggregation::Max;
  usage_error("unknown --aggregation '{}' (expected none, simple, first, average or max)", name);
}

cmd::PoolingMode parse_pooling_mode(std::string_view name) {
  if (name == "cls") return cmd::PoolingMode::Cls;
  if (name == "mean") return cmd::PoolingMode::Mean;
  if (name == "max") return cmd::PoolingMode::Max;
  usage_error("--pooling must be cls, mean or max, not '{}'", name);
}

}  // namespace bertkit::cli
