// NomicBERT (fixtures/models3/nomic-*) against transformers 5.17 and Nomic's remote code: the same
// weights in the Hub's remote-code layout (nomic-base, nomic-cls: n_embd keys, a 256-wide padded
// SwiGLU, tensors under "bert.") and transformers 5's native one (nomic-*-native: hidden_size keys,
// rope_parameters, "nomic_bert."), each case's layers and last hidden state within 1e-5, alone and in
// one batch (byte for byte the same), and the classifier's logits.
#include "golden/encoder_fixtures.h"
#include "golden/w3_encoder_checks.h"
#include "support.h"

#include <doctest/doctest.h>

using nlohmann::json;

namespace {

namespace core = bertkit::core;

}  // namespace

TEST_CASE("nomic_bert: hidden states of every case and layer in both layouts, alone and batched, folder and f32 file") {
  bktest::check_fixture_states({"nomic-base", "nomic-base-native", "nomic-cls", "nomic-cls-native"}, "models3",
                               bktest::kHiddenTolerance);
}

TEST_CASE("nomic_bert: the sequence classifier (BERT's pooler, then classifier) in both layouts") {
  for (const char* name : {"nomic-cls", "nomic-cls-native"}) {
    INFO(name);
    const bktest::Fixture f = bktest::load_fixture(name, "models3");
    REQUIRE(f.model.config.head == core::HeadKind::SequenceClassification);
    bktest::check_head_logits(f.model.config, f.weights, f.goldens);
  }
}
