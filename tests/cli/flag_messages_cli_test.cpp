// Values that core only recognises (core::parse_metric, core::parse_precision: nullopt for another
// name) are refused by the CLI in a usage error that names the flag: the message users see is the
// CLI's, whatever layer knows the names.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>

using bktest::run_bertkit;

TEST_CASE("flag messages: an unknown --metric or similarity --precision names its flag, exit 2") {
  const auto m = bktest::fixture_path("minilm-embed");
  auto metric = run_bertkit({"similarity", "-m", m, "--metric", "cosin", "a", "b"});
  CHECK(metric.exit_code == 2);
  CHECK(metric.err == "bertkit: error: --metric must be cosine, dot, euclidean or manhattan, not 'cosin'\n");
  CHECK(metric.out.empty());
  auto precision = run_bertkit({"similarity", "-m", m, "--precision", "int4", "a", "b"});
  CHECK(precision.exit_code == 2);
  CHECK(precision.err == "bertkit: error: --precision must be float32, int8, uint8, binary or ubinary, not 'int4'\n");
}
