// DeBERTa-v3 (fixtures/models3/deberta-v3-*) against transformers 4.33.3, from the token ids the
// goldens record (their tokenizer is spm.model's, read elsewhere): transformers' relative-position
// buckets for every δ of −511..511, every case's every layer within 1e-5 (all values where listed,
// sums otherwise), alone and in one batch (byte for byte the same), the sequence classifiers' logits
// (three labels; one logit, the reranker), the token classifier's, the MLM head's top 10 at each mask,
// and each folder converted to an f32 file giving the same numbers.
#include "core/loading/converted_file.h"
#include "core/model/blocks/deberta_positions.h"
#include "golden/encoder_fixtures.h"
#include "golden/w3_encoder_checks.h"
#include "support.h"

#include <doctest/doctest.h>

using nlohmann::json;

namespace {

namespace core = bertkit::core;

const char* const kDebertaFolders[] = {"deberta-v3-nli", "deberta-v3-rerank", "deberta-v3-ner", "deberta-v3-mlm"};

}  // namespace

TEST_CASE("deberta-v2: relative positions bucketed as transformers does, δ −511..511") {
  for (const char* name : kDebertaFolders) {
    INFO(name);
    const bktest::Fixture f = bktest::load_fixture(name, "models3");
    const core::DisentangledAttention& a = f.model.config.disentangled;
    const json& table = f.goldens.at("relative_positions");
    REQUIRE(table.at("position_buckets").get<int>() == a.buckets);
    const auto deltas = table.at("delta").get<std::vector<std::int64_t>>();
    const auto buckets = table.at("bucket").get<std::vector<std::int64_t>>();
    REQUIRE(deltas.size() == 1023);
    REQUIRE(buckets.size() == deltas.size());
    for (std::size_t i = 0; i < deltas.size(); ++i) {
      INFO("delta " << deltas[i]);
      CHECK(core::deberta_relative_bucket(deltas[i], a.buckets, a.max_relative) == buckets[i]);
    }
  }
}

TEST_CASE("deberta-v2: hidden states of every case and layer, alone and batched, folder and f32 file (fixtures/models3)") {
  bktest::check_fixture_states({"deberta-v3-nli", "deberta-v3-rerank", "deberta-v3-ner", "deberta-v3-mlm"}, "models3",
                               bktest::kHiddenTolerance);
}

TEST_CASE("deberta-v2: sequence classifier (ContextPooler, gelu), one-logit reranker and token classifier logits") {
  for (const char* name : {"deberta-v3-nli", "deberta-v3-rerank", "deberta-v3-ner"}) {
    INFO(name);
    const bktest::Fixture f = bktest::load_fixture(name, "models3");
    bktest::check_head_logits(f.model.config, f.weights, f.goldens);
  }
}

TEST_CASE("deberta-v2: the MLM head's top 10 over all 128100 rows at each mask") {
  const bktest::Fixture f = bktest::load_fixture("deberta-v3-mlm", "models3");
  REQUIRE(f.model.config.vocab_size == 128100);
  CHECK(bktest::check_mlm_cases(f, "top10_ids", "top10_logits") >= 43);
}

TEST_CASE("deberta-v2: every folder converted to an f32 file runs the same (classifier logits, hidden states)") {
  bktest::TempDir dir;
  for (const char* name : kDebertaFolders) {
    INFO(name);
    const auto file = dir / (std::string(name) + ".bk");
    core::write_converted_file(core::load_model(bktest::shared(std::string("fixtures/models3/") + name).string()), file,
                               core::StoreType::F32);
    core::LoadedModel converted = core::load_model(file.string());
    const json goldens = bktest::read_json(bktest::shared(std::string("fixtures/models3/") + name + "/goldens.json"));
    auto weights = std::make_shared<const core::Weights>(std::move(converted.weights));
    core::Encoder encoder(converted.config, weights);
    bktest::check_cases_alone(encoder, goldens, bktest::kHiddenTolerance);
    if (converted.config.head != core::HeadKind::MaskedLM) bktest::check_head_logits(converted.config, weights, goldens);
  }
}
