// `bertkit bench --attention`: the attention op timed alone on long sequences, with the memory it took.
// No timing thresholds; the memory figures are exact: the op's working memory grows with the length,
// not its square.
#include "support.h"

#include <doctest/doctest.h>

namespace {

std::vector<nlohmann::json> attention_rows(std::vector<std::string> args) {
  args.insert(args.begin(), "bench");
  for (const char* a : {"--threads", "1", "--format", "jsonl", "--min-time", "0", "--runs", "1"}) args.push_back(a);
  auto r = bktest::run_bertkit(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return bktest::json_lines(r.out);
}

}  // namespace

TEST_CASE("bench --attention: one row per length, memory linear in the length, bounded by a window") {
  double unwindowed_small = 0;
  for (bool window : {false, true}) {
    CAPTURE(window);
    std::vector<std::string> args{"--attention", "1024,4096", "--heads", "2"};
    if (window) args.insert(args.end(), {"--window", "64"});
    const auto rows = attention_rows(args);
    REQUIRE(rows.size() == 2);
    for (const auto& row : rows) {
      CHECK(row["mode"] == "attention");
      CHECK(row["heads"] == 2);
      CHECK(row["head_dim"] == 64);
      CHECK(row["threads"] == 1);
      CHECK(row["median_seconds"].get<double>() > 0);
      CHECK(row["peak_rss_mib"].get<double>() > row["input_mib"].get<double>());
      if (window)
        CHECK(row["window"] == 64);
      else
        CHECK(row["window"].is_null());
    }
    CHECK(rows[0]["length"] == 1024);
    CHECK(rows[1]["length"] == 4096);
    // Q | K | V and the output: 4 · length · 128 floats.
    CHECK(rows[1]["input_mib"].get<double>() == doctest::Approx(4.0 * 4096 * 128 * 4 / (1 << 20)));
    const double small = rows[0]["working_mib"], large = rows[1]["working_mib"];
    CHECK(small > 0);
    if (!window) {
      // Four times the length, four times the working memory (a [length, length] matrix would be 16
      // times; at 4096 tokens one head's alone is 64 MiB).
      CHECK(large == doctest::Approx(4 * small).epsilon(0.01));
      CHECK(large < 16.0);
      unwindowed_small = small;
    } else {
      // A window bounds the keys a block of queries needs, whatever the length.
      CHECK(large == small);
      CHECK(small < unwindowed_small);
    }
  }
}

TEST_CASE("bench --attention: flags that do not apply are usage errors") {
  const std::vector<std::vector<std::string>> bad = {
      {"bench", "--attention", "0"},
      {"bench", "--attention", "512,x"},
      {"bench", "--attention", "512", "--shape", "minilm-l6"},
      {"bench", "--attention", "512", "--tokenizer"},
      {"bench", "--attention", "512", "--workloads", "1x8"},
      {"bench", "--attention", "512", "--dtype", "int8"},
      {"bench", "--attention", "512", "--window", "-1"},
      {"bench", "--shape", "minilm-l6", "--window", "64"},
      {"bench", "--shape", "minilm-l6", "--heads", "4"},
      {"bench", "--shape", "minilm-l6", "--head-dim", "32"},
  };
  for (const auto& args : bad) {
    CAPTURE(args);
    auto r = bktest::run_bertkit(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(!r.err.empty());
  }
  auto r = bktest::run_bertkit({"bench", "--shape", "minilm-l6", "--window", "64"});
  CHECK(r.err == "bertkit: error: --window, --heads and --head-dim are for --attention\n");
}
