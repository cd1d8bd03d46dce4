// ModernBERT (fixtures/models3/modernbert-*) against transformers 5.17: every case's last hidden state
// within 1e-5 (a wrong rotary theta moves it by only 3e-5 to 1e-4: see models3/README.md) and every
// layer's sums, alone and in one batch (byte for byte the same), the padded batch's masked sums, the MLM
// top-10 logits and logsumexp, the sequence and token classifiers' logits, and config.json in the
// layout the Hub's checkpoints have (transformers 4.48's keys) giving the same numbers.
#include "core/loading/model_source.h"
#include "golden/encoder_fixtures.h"
#include "golden/w3_encoder_checks.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>

using bertkit::core::EncoderOutput;
using nlohmann::json;

namespace {

namespace core = bertkit::core;

}  // namespace

TEST_CASE("modernbert: hidden states of every case and layer, alone and batched, folder and f32 file (fixtures/models3)") {
  bktest::check_fixture_states({"modernbert-mlm", "modernbert-cls", "modernbert-ner"}, "models3",
                               bktest::kHiddenTolerance);
}

TEST_CASE("modernbert: the MLM head's top-10 ids, logits and logsumexp at each mask") {
  CHECK(bktest::check_mlm_cases(bktest::load_fixture("modernbert-mlm", "models3"), "top_ids", "top_logits") >= 2);
}

TEST_CASE("modernbert: sequence (mean pooling, pairs) and token classification logits") {
  for (const char* name : {"modernbert-cls", "modernbert-ner"}) {
    INFO(name);
    const bktest::Fixture f = bktest::load_fixture(name, "models3");
    bktest::check_head_logits(f.model.config, f.weights, f.goldens);
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
  CHECK(worst_against_goldens(last_states(core::load_model(legacy), goldens), goldens) <= bktest::kHiddenTolerance);

  // Neither: transformers' defaults (160000 / 10000, every 3rd layer global) are the fixture's.
  const bktest::TempDir bare_dir;
  const auto bare = edited_fixture(bare_dir, "modernbert-mlm", [](json& c) {
    c.erase("rope_parameters");
    c.erase("layer_types");
    c.erase("global_attn_every_n_layers");
  });
  CHECK(worst_against_goldens(last_states(core::load_model(bare), goldens), goldens) <= bktest::kHiddenTolerance);

  // The thetas swapped: the test above would see a wrong theta.
  const bktest::TempDir swapped_dir;
  const auto swapped = edited_fixture(swapped_dir, "modernbert-mlm", [](json& c) {
    std::swap(c["rope_parameters"]["full_attention"], c["rope_parameters"]["sliding_attention"]);
  });
  CHECK(worst_against_goldens(last_states(core::load_model(swapped), goldens), goldens) > bktest::kHiddenTolerance);
}
