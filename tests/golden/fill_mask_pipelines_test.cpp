// fill-mask against transformers' fill-mask pipeline: every `pipelines` record of every MLM fixture
// (tokens, token_str and sequence identical, scores within 1e-4), with the slow tokenizer the goldens
// were made with and with the default fast tokenizer.
#include "commands/fill_mask.h"
#include "golden/pipeline_fixtures.h"
#include "core/error.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

void check_predictions(const std::vector<cmd::MaskPrediction>& got, const json& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("prediction " << i);
    CHECK(got[i].token == expected[i].at("token").get<std::int32_t>());
    CHECK(got[i].token_str == expected[i].at("token_str").get<std::string>());
    CHECK(got[i].sequence == expected[i].at("sequence").get<std::string>());
    CHECK(std::abs(got[i].score - expected[i].at("score").get<double>()) <= kTolerance);
  }
}

std::size_t check_fill_mask_fixture(const bktest::FixtureRef& name, const char* compat) {
  bktest::Fixture f = bktest::load_fixture(name.name, name.set);
  auto tokenizer = bktest::fixture_tokenizer(f, compat);
  cmd::FillMasker masker(f.model.config, f.weights, *tokenizer);
  std::size_t checked = 0;
  // The records were made with the slow tokenizer: on the fast path, leave out those whose input the
  // fast tokenizer encodes otherwise (mpnet-mlm's general-09: the slow one splits a literal <unk>).
  const json differing = f.goldens.contains("fast_tokenizer")
                             ? f.goldens.at("fast_tokenizer").value("cases_differing_from_slow", json::array())
                             : json::array();
  for (const json& p : f.goldens.at("pipelines")) {
    if (p.at("init").at("task") != "fill-mask") continue;
    if (std::string(compat) == "fast" && p.contains("case") &&
        std::find(differing.begin(), differing.end(), p.at("case")) != differing.end())
      continue;
    const json& call = p.at("call");
    INFO(name << " " << compat << " input " << p.at("input").dump() << " call " << call.dump());
    cmd::FillMaskOptions options;
    options.top_k = call.at("top_k").get<std::size_t>();
    if (call.contains("targets"))
      options.targets = cmd::resolve_targets(*tokenizer, call.at("targets").get<std::vector<std::string>>()).ids;
    std::vector<tok::Encoding> encodings{tokenizer->encode(p.at("input").get<std::string>(), std::nullopt, {})};
    auto results = masker.run(encodings, options, {});
    REQUIRE(results.size() == 1);
    const json& output = p.at("output");
    // One mask: a list of predictions; several: a list of lists.
    if (!output.empty() && output[0].is_array()) {
      REQUIRE(results[0].size() == output.size());
      for (std::size_t m = 0; m < output.size(); ++m) check_predictions(results[0][m], output[m]);
    } else {
      REQUIRE(results[0].size() == 1);
      check_predictions(results[0][0], output);
    }
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("fill-mask: every fill-mask pipeline record, slow tokenizer (--compat python)") {
  auto names = bktest::fixtures_with_pipelines("fill-mask");
  CHECK(names.size() >= 3);
  for (const auto& name : names) CHECK(check_fill_mask_fixture(name, "python") > 0);
}

// With the wave-2 folders: RoBERTa's <mask> (lstrip) in a byte-level BPE, MPNet's in a WordPiece
// vocabulary with <s> ... </s> around the text.
TEST_CASE("fill-mask: every fill-mask pipeline record, default fast tokenizer") {
  auto names = bktest::fixtures_with_pipelines("fill-mask", true);
  CHECK(names.size() >= 5);
  for (const auto& name : names) CHECK(check_fill_mask_fixture(name, "fast") > 0);
}

TEST_CASE("fill-mask: a text without a mask is refused, targets resolve as transformers does") {
  bktest::Fixture f = bktest::load_fixture("bert-uncased-mlm");
  auto tokenizer = bktest::fixture_tokenizer(f, "fast");
  tok::Encoding plain = tokenizer->encode("no mask here", std::nullopt, {});
  CHECK_THROWS_AS(cmd::mask_positions(*tokenizer, plain), Error);

  std::vector<std::string> targets{"paris", "paris", "Paris", "xyzzyq", ""};
  auto resolved = cmd::resolve_targets(*tokenizer, targets);
  // "paris" once (duplicates collapse), "Paris" becomes its first token, "" has none.
  REQUIRE(resolved.ids.size() == 2);
  CHECK(resolved.ids[0] == *tokenizer->token_id("paris"));
  CHECK(tokenizer->token(resolved.ids[1]).substr(0, 2) != "##");
  CHECK(resolved.notes.size() == 3);
  std::vector<std::string> none{""};
  CHECK_THROWS_AS(cmd::resolve_targets(*tokenizer, none), Error);
}
