// The task heads against transformers: MLM top-10 and logits, classification logits and labels, QA
// start/end logits (also on the pipelines' padded and unpadded windows), token-classification logits
// (the NER fixtures of models2), sentence embeddings. Each at
// batch size 1 and with all inputs in one batch.
#include "core/model/classification_head.h"
#include "core/model/family_spec.h"
#include "core/model/mlm_head.h"
#include "core/model/pooling.h"
#include "core/model/qa_head.h"
#include "core/model/token_classification_head.h"
#include "golden/encoder_fixtures.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace bertkit::core;
using nlohmann::json;

namespace {

using bktest::kTolerance;

// Runs `check(out, index_in_out, record_index)` on every record alone, then on all of them in one batch.
template <typename Check>
void at_batch_one_and_all(Encoder& encoder, const std::vector<bktest::Tokens>& tokens, Check check) {
  auto batch = bktest::sequences_of(tokens);
  EncoderOutput out;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    INFO("batch of one");
    encoder.forward(std::span(batch).subspan(i, 1), out);
    check(out, std::size_t{0}, i);
  }
  INFO("all in one batch");
  encoder.forward(batch, out);
  for (std::size_t i = 0; i < batch.size(); ++i) check(out, i, i);
}

std::vector<bktest::Tokens> case_tokens(const json& cases) {
  std::vector<bktest::Tokens> tokens;
  for (const auto& c : cases) tokens.push_back(bktest::tokens_of(c));
  return tokens;
}

void check_mlm(bktest::Fixture& f) {
  Encoder encoder(f.model.config, f.weights);
  MlmHead head(f.model.config, *f.weights);
  const auto& cases = f.goldens.at("cases");
  std::vector<float> logits;
  std::size_t positions_checked = 0;
  at_batch_one_and_all(encoder, case_tokens(cases), [&](const EncoderOutput& out, std::size_t s, std::size_t i) {
    const auto& mlm = cases[i].at("mlm");
    std::vector<TokenPosition> positions;
    for (const auto& m : mlm) positions.push_back({s, m.at("position").get<std::int64_t>()});
    head.forward(out, positions, logits);
    const auto vocab = static_cast<std::size_t>(head.vocab_size());
    REQUIRE(logits.size() == positions.size() * vocab);
    for (std::size_t p = 0; p < positions.size(); ++p) {
      INFO("case " << cases[i].at("id").get<std::string>() << " position " << positions[p].position);
      std::span<const float> row(logits.data() + p * vocab, vocab);
      std::vector<std::int32_t> order(vocab);
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + 10, order.end(),
                        [&](std::int32_t a, std::int32_t b) { return row[a] > row[b]; });
      auto expected_ids = mlm[p].at("top10_ids").get<std::vector<std::int32_t>>();
      CHECK(std::vector<std::int32_t>(order.begin(), order.begin() + 10) == expected_ids);
      std::vector<float> top;
      for (auto id : expected_ids) top.push_back(row[id]);
      CHECK(bktest::max_abs_diff(top, bktest::flatten(mlm[p].at("top10_logits"))) <= kTolerance);
      double max = *std::max_element(row.begin(), row.end()), sum = 0;
      for (float v : row) sum += std::exp(double(v) - max);
      CHECK(std::abs(max + std::log(sum) - mlm[p].at("logsumexp").get<double>()) <= kTolerance);
      ++positions_checked;
    }
  });
  CHECK(positions_checked > 0);
}

std::size_t argmax(std::span<const float> v) {
  return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// The text-classification pipeline's scores of every label (top_k None) for this case's logits, with
// the default function and with function_to_apply "none".
void check_pipeline_scores(const bktest::Fixture& f, const std::string& case_id, std::span<const float> logits) {
  for (const auto& p : f.goldens.at("pipelines")) {
    if (p.at("case") != case_id || !p.at("call").contains("top_k") || !p.at("call").at("top_k").is_null()) continue;
    auto function = default_score_function(f.model.config);
    if (p.at("call").contains("function_to_apply")) {
      REQUIRE(p.at("call").at("function_to_apply") == "none");
      function = ScoreFunction::None;
    }
    std::vector<float> scores(logits.begin(), logits.end());
    apply_score_function(function, scores);
    const auto& labels = f.model.config.id2label;
    REQUIRE(p.at("output").size() == labels.size());
    for (const auto& entry : p.at("output")) {
      auto label = std::find(labels.begin(), labels.end(), entry.at("label").get<std::string>());
      REQUIRE(label != labels.end());
      INFO("pipeline score of " << *label);
      CHECK(std::abs(scores[label - labels.begin()] - entry.at("score").get<double>()) <= kTolerance);
    }
  }
}

void check_classification(bktest::Fixture& f) {
  Encoder encoder(f.model.config, f.weights);
  ClassificationHead head(f.model.config, *f.weights);
  const auto& cases = f.goldens.at("cases");
  const auto labels = static_cast<std::size_t>(head.num_labels());
  CHECK(labels == f.model.config.id2label.size());
  std::vector<float> logits;
  at_batch_one_and_all(encoder, case_tokens(cases), [&](const EncoderOutput& out, std::size_t s, std::size_t i) {
    head.forward(out, logits);
    REQUIRE(logits.size() == out.size() * labels);
    std::span<const float> got(logits.data() + s * labels, labels);
    auto expected = bktest::flatten(cases[i].at("logits"));
    INFO("case " << cases[i].at("id").get<std::string>());
    CHECK(bktest::max_abs_diff(got, expected) <= kTolerance);
    std::vector<float> expected_f(expected.begin(), expected.end());
    CHECK(argmax(got) == argmax(expected_f));
    check_pipeline_scores(f, cases[i].at("id").get<std::string>(), got);
  });
}

// QA logits of `records`; tokens where `attention_mask` is 0 are padding and are left out of the input
// (they must not change the real tokens' logits). DistilBERT ignores the recorded token types.
void check_qa_records(Encoder& encoder, QaHead& head, const std::vector<const json*>& records) {
  std::vector<bktest::Tokens> tokens;
  for (const json* r : records) {
    auto t = bktest::tokens_of(*r);
    if (r->contains("attention_mask")) {
      auto mask = r->at("attention_mask").get<std::vector<int>>();
      auto real = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
      REQUIRE(std::all_of(mask.begin(), mask.begin() + real, [](int m) { return m == 1; }));  // right padding
      t.ids.resize(real);
      if (!t.types.empty()) t.types.resize(real);
    }
    tokens.push_back(std::move(t));
  }
  SpanLogits logits;
  at_batch_one_and_all(encoder, tokens, [&](const EncoderOutput& out, std::size_t s, std::size_t i) {
    head.forward(out, logits);
    const auto first = static_cast<std::size_t>(out.offsets[s]), length = static_cast<std::size_t>(out.length(s));
    auto start = bktest::flatten(records[i]->at("start_logits"));
    auto end = bktest::flatten(records[i]->at("end_logits"));
    start.resize(length);  // padding positions, if any, are not compared
    end.resize(length);
    INFO("record " << i);
    CHECK(bktest::max_abs_diff(std::span(logits.start).subspan(first, length), start) <= kTolerance);
    CHECK(bktest::max_abs_diff(std::span(logits.end).subspan(first, length), end) <= kTolerance);
  });
}

void check_qa(bktest::Fixture& f) {
  Encoder encoder(f.model.config, f.weights);
  QaHead head(f.model.config, *f.weights);
  std::vector<const json*> cases, windows, fast_windows;
  for (const auto& c : f.goldens.at("cases")) cases.push_back(&c);
  for (const auto& w : f.goldens.at("qa_windows"))
    for (const auto& feature : w.at("features")) windows.push_back(&feature);
  for (const auto& p : f.goldens.at("pipelines_fast"))
    for (const auto& w : p.at("windows")) fast_windows.push_back(&w);
  REQUIRE(!windows.empty());
  REQUIRE(!fast_windows.empty());
  {
    INFO("cases");
    check_qa_records(encoder, head, cases);
  }
  {
    INFO("the slow pipeline's padded windows");
    check_qa_records(encoder, head, windows);
  }
  {
    INFO("the fast pipeline's windows");
    check_qa_records(encoder, head, fast_windows);
  }
}

// The MLM, classification or QA head's check for the fixture's head; false for a head with tests of
// its own (token classification, next sentence, pre-training).
bool check_head(bktest::Fixture& fixture) {
  switch (fixture.model.config.head) {
    case HeadKind::MaskedLM: check_mlm(fixture); return true;
    case HeadKind::SequenceClassification: check_classification(fixture); return true;
    case HeadKind::QuestionAnswering: check_qa(fixture); return true;
    case HeadKind::None: CHECK(fixture.goldens.contains("sentence_embeddings")); return true;
    case HeadKind::PreTraining:
    case HeadKind::TokenClassification:
    case HeadKind::NextSentencePrediction: return false;
  }
  return false;
}

}  // namespace

TEST_CASE("heads: MLM, classification and QA outputs match transformers for every fixture model") {
  for (const auto& name : bktest::fixture_model_names()) {
    INFO("model " << name);
    auto fixture = bktest::load_fixture(name);
    CHECK_MESSAGE(check_head(fixture), "no fixture of models/ has this head");
  }
}

// The later fixtures of families bertkit has (RoBERTa, CamemBERT, ...), so that each family that lands
// is checked here too; their token-classification, next-sentence and pre-training heads have tests of
// their own.
TEST_CASE("heads: MLM, classification and QA outputs of every later fixture whose family is supported") {
  std::size_t checked = 0;
  for (const auto& name : bktest::fixture_model_names("models2")) {
    auto config = bktest::read_json(bktest::shared("fixtures/models2/" + name + "/config.json"));
    if (!find_family(config.at("model_type").get<std::string>())) continue;
    INFO("model " << name);
    auto fixture = bktest::load_fixture(name, "models2");
    checked += check_head(fixture);
  }
  CHECK(checked >= 6);  // roberta-mlm, -cls, -qa, camembert-cls, -embed and more as families land
}

TEST_CASE("heads: token-classification logits of every token match transformers (NER fixtures of models2)") {
  std::size_t fixtures = 0;
  for (const auto& name : bktest::fixture_model_names("models2")) {
    auto config = bktest::read_json(bktest::shared("fixtures/models2/" + name + "/config.json"));
    const auto architecture = config.at("architectures").at(0).get<std::string>();
    // Fixtures of families bertkit has, so that each family that lands is checked here too.
    if (!architecture.ends_with("ForTokenClassification") || !find_family(config.at("model_type").get<std::string>()))
      continue;
    INFO("model " << name);
    auto f = bktest::load_fixture(name, "models2");
    Encoder encoder(f.model.config, f.weights);
    TokenClassificationHead head(f.model.config, *f.weights);
    const auto labels = static_cast<std::size_t>(head.num_labels());
    CHECK(labels == f.model.config.id2label.size());
    const auto& cases = f.goldens.at("cases");
    std::vector<float> logits;
    at_batch_one_and_all(encoder, case_tokens(cases), [&](const EncoderOutput& out, std::size_t s, std::size_t i) {
      head.forward(out, logits);
      REQUIRE(logits.size() == static_cast<std::size_t>(out.tokens()) * labels);
      const auto first = static_cast<std::size_t>(out.offsets[s]), length = static_cast<std::size_t>(out.length(s));
      INFO("case " << cases[i].at("id").get<std::string>());
      CHECK(bktest::max_abs_diff(std::span(logits).subspan(first * labels, length * labels),
                                 bktest::flatten(cases[i].at("logits"))) <= kTolerance);
    });
    ++fixtures;
  }
  CHECK(fixtures >= 3);  // bert-cased-ner, distilbert-uncased-ner, electra-ner
}

namespace {

void check_sentence_embeddings(bktest::Fixture& fixture) {
  REQUIRE(fixture.model.sentence_transformer);
  const auto& st = *fixture.model.sentence_transformer;
  CHECK(st.pooling.mean);
  CHECK(st.normalize);
  const auto& golden = fixture.goldens.at("sentence_embeddings");
  std::vector<bktest::Tokens> tokens;
  for (const auto& ids : golden.at("input_ids")) tokens.push_back({ids.get<std::vector<std::int32_t>>(), {}});

  Encoder encoder(fixture.model.config, fixture.weights);
  SentencePooler normalized(st, fixture.model.config.hidden_size, *fixture.weights);
  auto mean_only = st;
  mean_only.normalize = false;
  SentencePooler mean(mean_only, fixture.model.config.hidden_size, *fixture.weights);
  CHECK(normalized.dimension() == fixture.model.config.hidden_size);

  std::vector<float> got;
  const auto dim = static_cast<std::size_t>(normalized.dimension());
  at_batch_one_and_all(encoder, tokens, [&](const EncoderOutput& out, std::size_t s, std::size_t i) {
    INFO("sentence " << i);
    mean.forward(out, got);
    CHECK(bktest::max_abs_diff(std::span(got).subspan(s * dim, dim), bktest::flatten(golden.at("mean_pooled")[i])) <=
          kTolerance);
    normalized.forward(out, got);
    auto row = std::span(got).subspan(s * dim, dim);
    CHECK(bktest::max_abs_diff(row, bktest::flatten(golden.at("normalized")[i])) <= kTolerance);
    CHECK(bktest::max_abs_diff(row, bktest::flatten(golden.at("normalized_batched")[i])) <= kTolerance);
  });
}

}  // namespace

TEST_CASE("pooling: sentence embeddings match sentence-transformers' recipe (mean, normalised)") {
  auto fixture = bktest::load_fixture("minilm-embed");
  check_sentence_embeddings(fixture);
}

TEST_CASE("pooling: sentence embeddings of every later sentence-transformers fixture whose family is supported") {
  std::size_t checked = 0;
  for (const auto& name : bktest::fixture_model_names("models2")) {
    auto config = bktest::read_json(bktest::shared("fixtures/models2/" + name + "/config.json"));
    if (!find_family(config.at("model_type").get<std::string>())) continue;
    auto goldens = bktest::read_json(bktest::shared("fixtures/models2/" + name + "/goldens.json"));
    if (!goldens.contains("sentence_embeddings")) continue;
    INFO("model " << name);
    auto fixture = bktest::load_fixture(name, "models2");
    check_sentence_embeddings(fixture);
    ++checked;
  }
  CHECK(checked >= 1);  // camembert-embed, and mpnet-embed with its family
}
