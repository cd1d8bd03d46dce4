#include "golden/w3_encoder_checks.h"

#include "core/loading/converted_file.h"
#include "core/loading/model_source.h"
#include "core/model/classification_head.h"
#include "core/model/mlm_head.h"
#include "core/model/token_classification_head.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <span>

namespace bktest {

namespace core = bertkit::core;
using bertkit::core::EncoderOutput;
using nlohmann::json;

namespace {

std::span<const float> rows_of(const EncoderOutput& out, const std::vector<float>& layer, std::size_t s) {
  return {layer.data() + out.offsets[s] * out.hidden_size, static_cast<std::size_t>(out.length(s) * out.hidden_size)};
}

}  // namespace

Tokens case_tokens_of(const json& c, const core::ModelConfig& config) {
  Tokens t = tokens_of(c);
  // The goldens list no token types: a pair's are BERT's where the model has them (0 through the
  // first [SEP], 1 after), as its tokenizer gives them.
  if (t.types.empty() && config.type_vocab_size > 1 && c.contains("text_pair") && !c.at("text_pair").is_null()) {
    const auto tokens = c.at("tokens").get<std::vector<std::string>>();
    const auto sep = std::find(tokens.begin(), tokens.end(), "[SEP]");
    t.types.assign(tokens.size(), 0);
    std::fill(t.types.begin() + std::min<std::ptrdiff_t>(sep - tokens.begin() + 1, std::ssize(tokens)), t.types.end(), 1);
  }
  return t;
}

std::vector<Tokens> case_tokens(const json& goldens, const core::ModelConfig& config) {
  std::vector<Tokens> tokens;
  for (const json& c : goldens.at("cases")) tokens.push_back(case_tokens_of(c, config));
  return tokens;
}

// Every case alone, all layers kept: the sums of each layer's output and the whole last hidden state.
void check_cases_alone(core::Encoder& encoder, const json& goldens, double tolerance) {
  for (const json& c : goldens.at("cases")) {
    INFO("case " << c.at("id").get<std::string>());
    const Tokens t = case_tokens_of(c, encoder.config());
    const core::TokenSequence seq = t.sequence();
    EncoderOutput out;
    encoder.forward({&seq, 1}, out, true);
    const json& sums = c.at("hidden_states_sums");
    REQUIRE(sums.size() == out.layers.size());
    for (std::size_t l = 0; l < out.layers.size(); ++l) {
      INFO("hidden_states[" << l << "]");
      double sum = 0, abs_sum = 0;
      for (float v : rows_of(out, out.layers[l], 0)) {
        sum += v;
        abs_sum += std::abs(v);
      }
      const double bound = tolerance * static_cast<double>(out.tokens() * out.hidden_size);
      CHECK(std::abs(sum - sums[l][0].get<double>()) <= bound);
      CHECK(std::abs(abs_sum - sums[l][1].get<double>()) <= bound);
      // Goldens that list every layer's values (fixtures/models3/deberta-v3-*, short cases) are compared whole.
      if (c.contains("hidden_states")) CHECK(max_abs_diff(out.layers[l], flatten(c.at("hidden_states")[l])) <= tolerance);
    }
    if (c.contains("last_hidden_state")) CHECK(max_abs_diff(out.last(), flatten(c.at("last_hidden_state"))) <= tolerance);
  }
}

// All cases as one packed batch give each case's own bytes (on x86-64: core/ops/linear_row_blocks.cpp
// calls oneDNN's x86 sgemm in row blocks it computes alike wherever they lie; oneDNN's aarch64 sgemm blocks
// rows its own way, so there a case agrees with itself to rounding); the padded batch's masked sums agree.
void check_batch(core::Encoder& encoder, const json& goldens, double tolerance) {
  const auto tokens = case_tokens(goldens, encoder.config());
  const auto batch = sequences_of(tokens);
  EncoderOutput together;
  encoder.forward(batch, together);
  const json masked = goldens.contains("batch") ? goldens.at("batch").at("last_hidden_state_masked_sums") : json::array();
  for (std::size_t s = 0; s < batch.size(); ++s) {
    INFO("case " << s);
    EncoderOutput alone;
    encoder.forward({&batch[s], 1}, alone);
    const auto got = rows_of(together, together.last(), s);
    REQUIRE(got.size() == alone.last().size());
#if defined(__x86_64__)
    CHECK(std::memcmp(got.data(), alone.last().data(), got.size_bytes()) == 0);
#else
    const auto own = alone.last();
    CHECK(max_abs_diff(got, std::vector<double>(own.begin(), own.end())) <= tolerance);
#endif
    CHECK(std::none_of(got.begin(), got.end(), [](float v) { return std::isnan(v); }));
    // The padded batch (the single texts, pairs excluded): the sum over the case's real rows.
    if (s >= masked.size()) continue;
    const double sum = std::accumulate(got.begin(), got.end(), 0.0);
    CHECK(std::abs(sum - masked[s].get<double>()) <= tolerance * static_cast<double>(got.size()));
  }
}

EncoderOutput encode_case(core::Encoder& encoder, const json& c) {
  const Tokens t = case_tokens_of(c, encoder.config());
  const core::TokenSequence seq = t.sequence();
  EncoderOutput out;
  encoder.forward({&seq, 1}, out);
  return out;
}

namespace {

// Both checks on the fixture at `path` under ../shared (its folder, or its f32 file written by convert's
// code and loaded back) against the folder's goldens.
void check_fixture_at(const std::string& path, double tolerance, bool converted) {
  const auto folder = shared(path);
  TempDir dir;
  const auto file = dir / "converted.bk";
  if (converted) core::write_converted_file(core::load_model(folder.string()), file, core::StoreType::F32);
  core::LoadedModel model = core::load_model((converted ? file : folder).string());
  const auto weights = std::make_shared<const core::Weights>(std::move(model.weights));
  core::Encoder encoder(model.config, weights);
  const nlohmann::json goldens = read_json(folder / "goldens.json");
  check_cases_alone(encoder, goldens, tolerance);
  check_batch(encoder, goldens, tolerance);
}

}  // namespace

void check_fixture_states(std::initializer_list<const char*> names, const char* set, double tolerance) {
  for (const char* name : names)
    for (bool converted : {false, true}) {
      INFO(name << (converted ? " converted to f32" : ""));
      check_fixture_at(std::string("fixtures/") + set + "/" + name, tolerance, converted);
    }
}

void check_head_logits(const core::ModelConfig& config, const std::shared_ptr<const core::Weights>& weights,
                       const json& goldens) {
  core::Encoder encoder(config, weights);
  std::optional<core::ClassificationHead> sequence_head;
  std::optional<core::TokenClassificationHead> token_head;
  REQUIRE(config.head != core::HeadKind::None);
  if (config.head == core::HeadKind::SequenceClassification) sequence_head.emplace(config, *weights);
  else token_head.emplace(config, *weights);
  for (const json& c : goldens.at("cases")) {
    INFO("case " << c.at("id").get<std::string>());
    const EncoderOutput out = encode_case(encoder, c);
    std::vector<float> logits;
    if (sequence_head) sequence_head->forward(out, logits);
    else token_head->forward(out, logits);
    CHECK(max_abs_diff(logits, flatten(c.at("logits"))) <= kTolerance);
  }
}

// Logits closer than this may come out in either order.
constexpr double kRankSlack = 1e-5;

std::size_t check_mlm_cases(const Fixture& fixture, const char* ids_key, const char* logits_key) {
  core::Encoder encoder(fixture.model.config, fixture.weights);
  core::MlmHead head(fixture.model.config, *fixture.weights);
  std::size_t positions = 0;
  for (const json& c : fixture.goldens.at("cases")) {
    INFO("case " << c.at("id").get<std::string>());
    const EncoderOutput out = encode_case(encoder, c);
    for (const json& m : c.at("mlm")) {
      const core::TokenPosition at{0, m.at("position").get<std::int64_t>()};
      std::vector<float> logits;
      head.forward(out, {&at, 1}, logits);
      const auto top_ids = m.at(ids_key).get<std::vector<int>>();
      REQUIRE(!top_ids.empty());
      for (std::size_t k = 0; k < top_ids.size(); ++k) {
        CHECK(std::abs(logits[top_ids[k]] - m.at(logits_key)[k].get<double>()) <= kTolerance);
        // Ranked as recorded, but for ties within float32 noise (deberta-v3-mlm has two logits 5e-7 apart).
        if (k > 0) CHECK(logits[top_ids[k - 1]] >= logits[top_ids[k]] - kRankSlack);
      }
      // No other row outranks the last of the top.
      std::vector<float> others = logits;
      for (int id : top_ids) others[static_cast<std::size_t>(id)] = -INFINITY;
      CHECK(*std::max_element(others.begin(), others.end()) <= logits[top_ids.back()] + kRankSlack);
      const float peak = *std::max_element(logits.begin(), logits.end());
      double total = 0;
      for (float v : logits) total += std::exp(double(v) - peak);
      CHECK(std::abs(peak + std::log(total) - m.at("logsumexp").get<double>()) <= kTolerance);
      ++positions;
    }
  }
  return positions;
}

}  // namespace bktest
