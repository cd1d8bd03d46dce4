// The layers below the CLI name settings, never flags (core/setting.h); the CLI spells each as its flag,
// so a message reads as it did when the flag was written into it.
#include "cli/setting_spellings.h"
#include "core/error.h"
#include "core/setting.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace bertkit;

TEST_CASE("a Setting in a message is spelled as the CLI's flag") {
  // tests/main.cpp installs the CLI's speller, as bertkit does before any command runs.
  CHECK(fmt::format("{} must be at least 1", Setting::TopK) == "--top-k must be at least 1");
  CHECK(fmt::format("line longer than the limit of {} bytes ({})", 8, Setting::MaxLineBytes) ==
        "line longer than the limit of 8 bytes (--max-line-bytes)");
  CHECK(fmt::format("[{:>10}]", Setting::Field) == "[   --field]");  // string_view's format specs apply
  CHECK(spelling(Setting::NoNormalize) == "--no-normalize");
  try {
    usage_error("{} {} is larger than {} {}", Setting::DocStride, 9, Setting::MaxSeqLength, 8);
    FAIL("no error thrown");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "--doc-stride 9 is larger than --max-seq-length 8");
    CHECK(e.kind() == ErrorKind::Usage);
  }
}

TEST_CASE("every flag the CLI spells a Setting with is a distinct long flag") {
  // The enum's values run from Aggregation to Workloads (core/setting.h keeps them in that order).
  std::vector<std::string_view> flags;
  for (int i = static_cast<int>(Setting::Aggregation); i <= static_cast<int>(Setting::Workloads); ++i) {
    const std::string_view flag = cli::flag_of(static_cast<Setting>(i));
    CAPTURE(i);
    CHECK(flag.starts_with("--"));
    CHECK(std::find(flags.begin(), flags.end(), flag) == flags.end());
    flags.push_back(flag);
  }
}
