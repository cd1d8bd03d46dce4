// The encoder against transformers' hidden states (every layer where recorded) and BERT's pooler, for
// every fixture model, one case per batch and all cases in one batch.
#include "core/error.h"
#include "core/model/bert_pooler.h"
#include "core/model/family_spec.h"
#include "golden/encoder_fixtures.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>

using bertkit::core::EncoderOutput;
using nlohmann::json;

namespace {

using bktest::kTolerance;

std::span<const float> sequence_rows(const EncoderOutput& out, const std::vector<float>& layer, std::size_t s) {
  return {layer.data() + out.offsets[s] * out.hidden_size, static_cast<std::size_t>(out.length(s) * out.hidden_size)};
}

void check_sums(std::span<const float> values, double sum, double abs_sum) {
  double s = 0, a = 0;
  for (float v : values) {
    s += v;
    a += std::abs(v);
  }
  // Each value within kTolerance bounds the sums by kTolerance per value.
  const double bound = kTolerance * static_cast<double>(values.size());
  CHECK(std::abs(s - sum) <= bound);
  CHECK(std::abs(a - abs_sum) <= bound);
}

// Case `c` of the goldens is sequence `s` of `out` (computed with all layers).
void check_case(const EncoderOutput& out, std::size_t s, const json& c) {
  INFO("case " << c.at("id").get<std::string>());
  const auto& summary = c.at("last_hidden_state_summary");
  REQUIRE(out.length(s) == summary.at("shape")[0].get<std::int64_t>());
  REQUIRE(out.hidden_size == summary.at("shape")[1].get<std::int64_t>());
  const auto& rows = summary.at("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto expected = bktest::flatten(summary.at("first8")[i]);
    std::span<const float> got(out.row(s, rows[i].get<std::int64_t>()), expected.size());
    INFO("row " << rows[i]);
    CHECK(bktest::max_abs_diff(got, expected) <= kTolerance);
  }
  auto last = sequence_rows(out, out.last(), s);
  check_sums(last, summary.at("sum").get<double>(), summary.at("abs_sum").get<double>());
  if (c.contains("last_hidden_state"))
    CHECK(bktest::max_abs_diff(last, bktest::flatten(c.at("last_hidden_state"))) <= kTolerance);

  const auto& sums = c.at("hidden_states_sums");
  REQUIRE(sums.size() == out.layers.size());
  for (std::size_t l = 0; l < out.layers.size(); ++l) {
    INFO("hidden_states[" << l << "]");
    auto values = sequence_rows(out, out.layers[l], s);
    check_sums(values, sums[l][0].get<double>(), sums[l][1].get<double>());
    if (c.contains("hidden_states"))
      CHECK(bktest::max_abs_diff(values, bktest::flatten(c.at("hidden_states")[l])) <= kTolerance);
  }
}

void check_pooler(bertkit::core::BertPooler& pooler, const EncoderOutput& out, std::size_t s, const json& c) {
  std::vector<float> pooled;
  pooler.forward(out, pooled);
  std::span<const float> row(pooled.data() + s * out.hidden_size, static_cast<std::size_t>(out.hidden_size));
  INFO("pooler_output of case " << c.at("id").get<std::string>());
  CHECK(bktest::max_abs_diff(row, bktest::flatten(c.at("pooler_output"))) <= kTolerance);
}


void check_hidden_states(const bktest::Fixture& fixture) {
  bertkit::core::Encoder encoder(fixture.model.config, fixture.weights);
  std::optional<bertkit::core::BertPooler> pooler;
  if (fixture.weights->find("pooler.dense.weight")) pooler.emplace(fixture.model.config, *fixture.weights);

  const auto& cases = fixture.goldens.at("cases");
  REQUIRE(!cases.empty());
  std::vector<bktest::Tokens> tokens;
  for (const auto& c : cases) tokens.push_back(bktest::tokens_of(c));
  auto batch = bktest::sequences_of(tokens);

  std::vector<EncoderOutput> alone(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("batch of one");
    encoder.forward(std::span(batch).subspan(i, 1), alone[i], /*all_layers=*/true);
    check_case(alone[i], 0, cases[i]);
    if (cases[i].contains("pooler_output")) {
      REQUIRE(pooler);
      check_pooler(*pooler, alone[i], 0, cases[i]);
    }
  }

  EncoderOutput together;
  encoder.forward(batch, together, /*all_layers=*/true);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("all cases in one batch");
    check_case(together, i, cases[i]);
    if (cases[i].contains("pooler_output")) check_pooler(*pooler, together, i, cases[i]);
    // Neighbours and batch size must not change a sequence's numbers beyond float noise.
    for (std::size_t l = 0; l < together.layers.size(); ++l) {
      auto got = sequence_rows(together, together.layers[l], i);
      auto single = sequence_rows(alone[i], alone[i].layers[l], 0);
      CHECK(bktest::max_abs_diff(got, std::vector<double>(single.begin(), single.end())) <= 1e-6);
    }
  }
}

}  // namespace

TEST_CASE("encoder: hidden states and pooler match transformers for every fixture model") {
  for (const auto& name : bktest::fixture_model_names()) {
    INFO("model " << name);
    check_hidden_states(bktest::load_fixture(name));
  }
}

// The encoder of any checkpoint of a supported family runs (embed), whatever its head: the wave-2
// fixtures of families bertkit has (token classification, next-sentence prediction), found by their
// model_type, so each family that lands is checked here too.
TEST_CASE("encoder: hidden states of every later fixture whose family is supported, whatever its head") {
  std::size_t checked = 0;
  for (const auto& name : bktest::fixture_model_names("models2")) {
    auto config = bktest::read_json(bktest::shared("fixtures/models2/" + name + "/config.json"));
    if (!bertkit::core::find_family(config.at("model_type").get<std::string>())) continue;
    INFO("model " << name);
    check_hidden_states(bktest::load_fixture(name, "models2"));
    ++checked;
  }
  CHECK(checked >= 5);  // bert-cased-ner, distilbert-uncased-ner, electra-ner, bert-uncased-nsp, -pretraining
}

TEST_CASE("encoder: inputs the model cannot take are refused, naming the input") {
  auto fixture = bktest::load_fixture("bert-uncased-mlm");
  const auto& config = fixture.model.config;
  bertkit::core::Encoder encoder(config, fixture.weights);
  EncoderOutput out;
  auto refused = [&](std::vector<std::int32_t> ids, std::vector<std::int32_t> types, const std::string& words) {
    std::vector<std::int32_t> good{101, 102};
    std::vector<bertkit::core::TokenSequence> batch{{good, {}}, {ids, types}};
    try {
      encoder.forward(batch, out);
      FAIL("accepted");
    } catch (const bertkit::Error& e) {
      CHECK(e.kind() == bertkit::ErrorKind::BadInput);
      INFO(e.what());
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
  };
  refused({}, {}, "input 2 has no tokens");
  refused(std::vector<std::int32_t>(config.max_position_embeddings + 1, 1000), {}, "at most");
  refused({101, config.vocab_size, 102}, {}, "outside the vocabulary");
  refused({101, -1, 102}, {}, "outside the vocabulary");
  refused({101, 102}, {0, 2}, "token type");
  refused({101, 102}, {0}, "token type ids");

  std::vector<std::int32_t> longest(config.max_position_embeddings, 1000);
  std::vector<bertkit::core::TokenSequence> batch{{longest, {}}};
  encoder.forward(batch, out);
  CHECK(out.tokens() == config.max_position_embeddings);
  encoder.forward({}, out);
  CHECK(out.size() == 0);
}
