#include "cli/embedding_flags.h"

#include "core/error.h"

namespace bertkit::cli {

core::Precision precision_flag(std::string_view value) {
  if (auto precision = core::parse_precision(value)) return *precision;
  usage_error("--precision must be float32, int8, uint8, binary or ubinary, not '{}'", value);
}

core::Metric metric_flag(std::string_view value) {
  if (auto metric = core::parse_metric(value)) return *metric;
  usage_error("--metric must be cosine, dot, euclidean or manhattan, not '{}'", value);
}

}  // namespace bertkit::cli
