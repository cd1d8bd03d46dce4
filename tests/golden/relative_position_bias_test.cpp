// MPNet's relative position buckets against transformers' own (goldens.json of the MPNet fixtures
// tabulates them for every relative position −513 .. 513), and the bias table built from them.
#include "core/model/relative_position_bias.h"
#include "golden/encoder_fixtures.h"
#include "support.h"

#include <doctest/doctest.h>

using namespace bertkit::core;

TEST_CASE("relative position buckets: transformers' MPNetEncoder.relative_position_bucket, every position") {
  for (const char* fixture : {"mpnet-embed", "mpnet-mlm"}) {
    INFO(fixture);
    const auto table = bktest::read_json(bktest::shared(std::string("fixtures/models2/") + fixture + "/goldens.json"))
                           .at("relative_position_buckets");
    const auto positions = table.at("relative_positions").get<std::vector<std::int64_t>>();
    const auto buckets = table.at("buckets").get<std::vector<int>>();
    REQUIRE(positions.size() == buckets.size());
    REQUIRE(positions.size() > 1000);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < positions.size(); ++i)
      if (relative_position_bucket(positions[i]) != buckets[i]) {
        ++differing;
        INFO("relative position " << positions[i]);
        CHECK(relative_position_bucket(positions[i]) == buckets[i]);
      }
    CHECK(differing == 0);
  }
}

TEST_CASE("relative position bias: one row per head, each query's biases one contiguous run of it") {
  auto fixture = bktest::load_fixture("mpnet-embed", "models2");
  const auto& config = fixture.model.config;
  const auto weights = fixture.weights->require("encoder.relative_attention_bias.weight",
                                                {config.relative_attention_buckets, config.num_heads})
                           .f32();
  RelativePositionBias bias(config, *fixture.weights);
  for (std::int64_t longest : {1, 7, 300}) {
    INFO("longest " << longest);
    const RelativeScoreBias table = bias.tabulate(longest);
    CHECK(table.center == longest - 1);
    for (int h = 0; h < config.num_heads; ++h)
      for (std::int64_t i = 0; i < longest; i += 13)
        for (std::int64_t j = 0; j < longest; j += 7)
          CHECK(table.head(h)[j - i] ==
                weights[static_cast<std::size_t>(relative_position_bucket(j - i) * config.num_heads + h)]);
  }
}
