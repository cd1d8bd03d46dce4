#include "cli/choice_flags.h"

#include "cli/named_choice.h"
#include "core/error.h"

#include <charconv>

namespace bertkit::cli {

core::ScoreFunction parse_score_function(std::string_view name, const core::ModelConfig& config) {
  using F = std::optional<core::ScoreFunction>;  // nullopt: auto
  const F picked = pick_choice<F>("--function", name, {{"auto", std::nullopt},
                                                       {"softmax", core::ScoreFunction::Softmax},
                                                       {"sigmoid", core::ScoreFunction::Sigmoid},
                                                       {"none", core::ScoreFunction::None}});
  return picked ? *picked : core::default_score_function(config);
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
  using A = cmd::Aggregation;
  return pick_choice<A>("--aggregation", name,
                        {{"none", A::None}, {"simple", A::Simple}, {"first", A::First}, {"average", A::Average},
                         {"max", A::Max}});
}

cmd::PoolingMode parse_pooling_mode(std::string_view name) {
  if (name == "cls") return cmd::PoolingMode::Cls;
  if (name == "mean") return cmd::PoolingMode::Mean;
  if (name == "max") return cmd::PoolingMode::Max;
  usage_error("--pooling must be cls, mean or max, not '{}'", name);
}

}  // namespace bertkit::cli
