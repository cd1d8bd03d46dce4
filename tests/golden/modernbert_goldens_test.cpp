// ModernBERT (fixtures/models3/modernbert-*) against transformers 5.17: every case's last hidden state
// within 1e-5 (a wrong rotary theta moves it by only 3e-5 to 1e-4: see models3/README.md) and every
// layer's sums, alone and in one batch (byte for byte the same), the padded batch's masked sums, the MLM
// top-10 logits and logsumexp, the sequence and token classifiers' logits, and config.json in the
// layout the Hub's checkpoints have (transformers 4.48's keys) giving the same numbers.
#include "core/loading/model_source.h"
#include "core/model/classification_head.h"
#include "core/model/mlm_head.h"
#include "core/model/token_classification_head.h"
#include "golden/encoder_fixtures.h"
#include "golden/w3_encoder_checks.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <numeric>
#include <optional>

using bertkit::core::EncoderOutput;
using nlohmann::json;

namespace {

namespace core = bertkit::core;

// float32 agreement: what a float32 implementation reaches (~1e-6), far below a wrong theta's effect.
constexpr double kHidden = 1e-5;

const char* const kTaskFixtures[] = {"modernbert-mlm", "modernbert-cls", "modernbert-ner"};

// Case `c` alone through the encoder.
EncoderOutput encode_case(core::Encoder& encoder, const json& c) {
  const bktest::Tokens t = bktest::tokens_of(c);
  const core::TokenSequence seq = t.sequence();
  EncoderOutput out;
  encoder.forward({&seq, 1}, out);
  return out;
}

}  // namespace

TEST_CASE("modernbert: hidden states of every case and layer, alone and batched, folder and converted (fixtures/models3)") {
  for (const char* name : kTaskFixtures)
    for (bool converted : {false, true}) {
      INFO(name << (converted ? " converted to f32" : ""));
      bktest::check_hidden_states(name, kHidden, converted);
    }
}

TEST_CASE("modernbert: the MLM head's top-10 ids, logits and logsumexp at each mask") {
  const bktest::Fixture f = bktest::load_fixture("modernbert-mlm", "models3");
  core::Encoder encoder(f.model.config, f.weights);
  core::MlmHead head(f.model.config, *f.weights);
  std::size_t masks = 0;
  for (const json& c : f.goldens.at("cases")) {
    INFO("case " << c.at("id").get<std::string>());
    const EncoderOutput out = encode_case(encoder, c);
    for (const json& m : c.at("mlm")) {
      const core::TokenPosition at{0, m.at("position").get<std::int64_t>()};
      std::vector<float> logits;
      head.forward(out, {&at, 1}, logits);
      std::vector<int> order(logits.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
      const auto top_ids = m.at("top_ids").get<std::vector<int>>();
      CHECK(std::vector<int>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top_ids.size())) == top_ids);
      for (std::size_t k = 0; k < top_ids.size(); ++k)
        CHECK(std::abs(logits[top_ids[k]] - m.at("top_logits")[k].get<double>()) <= bktest::kTolerance);
      const float peak = *std::max_element(logits.begin(), logits.end());
      double total = 0;
      for (float v : logits) total += std::exp(double(v) - peak);
      CHECK(std::abs(peak + std::log(total) - m.at("logsumexp").get<double>()) <= bktest::kTolerance);
      ++masks;
    }
  }
  CHECK(masks >= 2);
}

TEST_CASE("modernbert: sequence (mean pooling, pairs) and token classification logits") {
  for (const char* name : {"modernbert-cls", "modernbert-ner"}) {
    INFO(name);
    const bktest::Fixture f = bktest::load_fixture(name, "models3");
    core::Encoder encoder(f.model.config, f.weights);
    std::optional<core::ClassificationHead> sequence_head;
    std::optional<core::TokenClassificationHead> token_head;
    if (f.model.config.head == core::HeadKind::SequenceClassification) sequence_head.emplace(f.model.config, *f.weights);
    else token_head.emplace(f.model.config, *f.weights);
    REQUIRE(f.model.config.head != core::HeadKind::None);
    for (const json& c : f.goldens.at("cases")) {
      INFO("case " << c.at("id").get<std::string>());
      const EncoderOutput out = encode_case(encoder, c);
      std::vector<float> logits;
      if (sequence_head) sequence_head->forward(out, logits);
      else token_head->forward(out, logits);
      CHECK(bktest::max_abs_diff(logits, bktest::flatten(c.at("logits"))) <= bktest::kTolerance);
    }
  }
}

namespace {

// A copy of fixtures/models3/NAME whose config.json is rewritten by `edit`.
std::string edited_fixture(const bktest::TempDir& dir, const std::string& name, const std::function<void(json&)>& edit) {
  const auto to = dir / name;
  std::filesystem::copy(bktest::shared("fixtures/models3/" + name), to, std::filesystem::copy_options::recursive);
  json config = bktest::read_json(to / "config.json");
  edit(config);
  std::filesystem::permissions(to / "config.json", std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  bktest::write_file(to / "config.json", config.dump());
  return to.string();
}

// The last hidden state of every case, end to end.
std::vector<float> last_states(core::LoadedModel model, const json& goldens) {
  auto weights = std::make_shared<const core::Weights>(std::move(model.weights));
  core::Encoder encoder(model.config, weights);
  const auto tokens = bktest::case_tokens(goldens, model.config);
  EncoderOutput out;
  encoder.forward(bktest::sequences_of(tokens), out);
  return out.last();
}

double worst_against_goldens(const std::vector<float>& states, const json& goldens) {
  std::vector<double> want;
  for (const json& c : goldens.at("cases")) {
    const auto rows = bktest::flatten(c.at("last_hidden_state"));
    want.insert(want.end(), rows.begin(), rows.end());
  }
  return bktest::max_abs_diff(states, want);
}

}  // namespace

TEST_CASE("modernbert: config.json in the Hub's 4.48 layout, or with neither layout's keys, reads the same model") {
  const bktest::TempDir dir;
  const json goldens = bktest::read_json(bktest::shared("fixtures/models3/modernbert-mlm/goldens.json"));
  // transformers 4.48 wrote the thetas as global_rope_theta / local_rope_theta, and no layer_types.
  const auto legacy = edited_fixture(dir, "modernbert-mlm", [](json& c) {
    const json params = c.at("rope_parameters");
    c.erase("rope_parameters");
    c.erase("layer_types");
    c["global_rope_theta"] = params.at("full_attention").at("rope_theta");
    c["local_rope_theta"] = params.at("sliding_attention").at("rope_theta");
    c["position_embedding_type"] = "absolute";
  });
  CHECK(worst_against_goldens(last_states(core::load_model(legacy), goldens), goldens) <= kHidden);

  // Neither: transformers' defaults (160000 / 10000, every 3rd layer global) are the fixture's.
  const bktest::TempDir bare_dir;
  const auto bare = edited_fixture(bare_dir, "modernbert-mlm", [](json& c) {
    c.erase("rope_parameters");
    c.erase("layer_types");
    c.erase("global_attn_every_n_layers");
  });
  CHECK(worst_against_goldens(last_states(core::load_model(bare), goldens), goldens) <= kHidden);

  // The thetas swapped: the test above would see a wrong theta.
  const bktest::TempDir swapped_dir;
  const auto swapped = edited_fixture(swapped_dir, "modernbert-mlm", [](json& c) {
    std::swap(c["rope_parameters"]["full_attention"], c["rope_parameters"]["sliding_attention"]);
  });
  CHECK(worst_against_goldens(last_states(core::load_model(swapped), goldens), goldens) > kHidden);
}
