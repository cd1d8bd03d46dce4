// classify against transformers' text-classification pipeline: every `pipelines` record of every
// classification fixture (labels identical, scores within 1e-4), with the slow tokenizer the goldens
// were made with, and with the default fast tokenizer wherever the two tokenize the input alike.
#include "cli/choice_flags.h"
#include "commands/classify.h"
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

// What the pipeline returned as a list of {label, score}: a bare dict for the legacy form of a pair.
json as_list(const json& output) { return output.is_array() ? output : json::array({output}); }

std::size_t check_classify_fixture(const bktest::FixtureRef& name, const char* compat) {
  bktest::Fixture f = bktest::load_fixture(name.name, name.set);
  auto tokenizer = bktest::fixture_tokenizer(f, compat);
  cmd::Classifier classifier(f.model.config, f.weights);
  const json& differing = f.goldens.at("fast_tokenizer").at("cases_differing_from_slow");
  const bool fast = std::string(compat) == "fast";

  tok::EncodeOptions options;  // truncation=True: longest_first
  options.truncation = tok::TruncationParams{bktest::fixture_max_length(f, *tokenizer), tok::TruncationStrategy::LongestFirst,
                                             0, tok::Side::Right};
  std::size_t checked = 0;
  for (const json& p : f.goldens.at("pipelines")) {
    if (p.at("init").at("task") != "text-classification") continue;
    if (fast && std::find(differing.begin(), differing.end(), p.at("case")) != differing.end()) continue;
    const json& input = p.at("input");
    std::string text = input.is_string() ? input.get<std::string>() : input.at("text").get<std::string>();
    std::optional<std::string> pair;
    if (input.is_object()) pair = input.at("text_pair").get<std::string>();
    std::vector<tok::Encoding> encodings;
    encodings.push_back(tokenizer->encode(text, pair ? std::optional<std::string_view>(*pair) : std::nullopt, options));
    std::vector<float> logits = classifier.logits(encodings, {});

    const json& call = p.at("call");
    std::string function = call.contains("function_to_apply") ? call.at("function_to_apply").get<std::string>() : "auto";
    auto ranked = cmd::rank_labels(logits, cli::parse_score_function(function, classifier.config()));
    // top_k absent: the best label only; null: all; a number: that many.
    std::size_t count = !call.contains("top_k") ? 1
                        : call.at("top_k").is_null() ? ranked.size()
                                                    : call.at("top_k").get<std::size_t>();
    json expected = as_list(p.at("output"));
    INFO(name << " " << compat << " case " << p.at("case").dump() << " call " << call.dump());
    REQUIRE(expected.size() == std::min(count, ranked.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(classifier.config().id2label[ranked[i].label] == expected[i].at("label").get<std::string>());
      CHECK(std::abs(ranked[i].score - expected[i].at("score").get<double>()) <= kTolerance);
    }
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("classify: every text-classification pipeline record, slow tokenizer (--compat python)") {
  auto names = bktest::fixtures_with_pipelines("text-classification");
  CHECK(names.size() >= 5);
  for (const auto& name : names) CHECK(check_classify_fixture(name, "python") > 0);
}

TEST_CASE("classify: pipeline records with the default fast tokenizer where it tokenizes alike") {
  // With the wave-2 folders: RoBERTa's head on <s> (cardiffnlp's folder: vocab.json + merges.txt),
  // CamemBERT's one-label cross-encoder (Unigram).
  auto names = bktest::fixtures_with_pipelines("text-classification", true);
  CHECK(names.size() >= 7);
  for (const auto& name : names) CHECK(check_classify_fixture(name, "fast") > 0);
}

TEST_CASE("classify: score functions and label ranking") {
  core::ModelConfig config;
  config.num_labels = 3;
  CHECK(cli::parse_score_function("auto", config) == core::ScoreFunction::Softmax);
  config.num_labels = 1;
  CHECK(cli::parse_score_function("auto", config) == core::ScoreFunction::Sigmoid);
  CHECK_THROWS_AS(cli::parse_score_function("tanh", config), Error);
  CHECK(!cli::parse_label_count("all"));
  CHECK(cli::parse_label_count("2") == 2u);
  CHECK_THROWS_AS(cli::parse_label_count("0"), Error);
  CHECK_THROWS_AS(cli::parse_label_count("2x"), Error);
  // Equal scores keep label order, as Python's stable sort does.
  std::vector<float> logits{0.5f, 2.0f, 0.5f};
  auto ranked = cmd::rank_labels(logits, core::ScoreFunction::None);
  CHECK(ranked[0].label == 1);
  CHECK(ranked[1].label == 0);
  CHECK(ranked[2].label == 2);
}
