// ner against transformers' token-classification pipeline (fast-tokenizer path): for every NER fixture
// of models2, the windows of `ner_windows` (ids, offsets, logits), then every `pipelines_fast` record
// (every aggregation strategy, ignore_labels and stride): labels, words, indices and offsets identical,
// scores within 1e-4 — from the recorded logits (the pipeline's post-processing alone), then end to end.
#include "cli/choice_flags.h"
#include "commands/ner.h"
#include "core/model/family_spec.h"
#include "golden/pipeline_fixtures.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <stdexcept>

using namespace bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

// The token-classification fixtures of models2 whose family and tokenizer bertkit has.
std::vector<std::string> ner_fixtures() {
  std::vector<std::string> names;
  for (const std::string& name : bktest::fixture_model_names("models2")) {
    auto config = bktest::read_json(bktest::shared("fixtures/models2/" + name + "/config.json"));
    if (config.at("architectures").at(0).get<std::string>().ends_with("ForTokenClassification") &&
        core::find_family(config.at("model_type").get<std::string>()) && bktest::builds_tokenizer(name, "models2"))
      names.push_back(name);
  }
  CHECK(names.size() >= 4);  // bert-cased-ner, distilbert-uncased-ner, electra-ner, roberta-ner
  return names;
}

// Those that record every case's windows (ner_windows); roberta-ner records windows for its long text
// only, and is checked end to end.
std::vector<std::string> fixtures_with_windows() {
  std::vector<std::string> names;
  for (const std::string& name : ner_fixtures())
    if (bktest::read_json(bktest::shared("fixtures/models2/" + name + "/goldens.json")).contains("ner_windows"))
      names.push_back(name);
  CHECK(names.size() >= 3);
  return names;
}

// The pipeline's encoding: truncated to model_max_length, overflowing into windows with a stride.
std::vector<tok::Encoding> pipeline_windows(const tok::Tokenizer& tokenizer, const std::string& text,
                                            std::optional<std::size_t> stride) {
  tok::EncodeOptions options;
  options.truncation = tok::TruncationParams{*tokenizer.spec().model_max_length, tok::TruncationStrategy::LongestFirst,
                                             stride.value_or(0), tok::Side::Right};
  options.keep_overflow = stride.has_value();
  std::vector<tok::Encoding> windows{tokenizer.encode(text, std::nullopt, options)};
  for (tok::Encoding& o : windows.front().overflowing) windows.push_back(std::move(o));
  windows.front().overflowing.clear();
  return windows;
}

std::vector<const tok::Encoding*> pointers(const std::vector<tok::Encoding>& windows) {
  std::vector<const tok::Encoding*> out;
  for (const tok::Encoding& w : windows) out.push_back(&w);
  return out;
}

std::optional<std::size_t> stride_of(const json& call) {
  if (!call.contains("stride") || call.at("stride").is_null()) return std::nullopt;
  return call.at("stride").get<std::size_t>();
}

cmd::NerSettings settings_of(const json& call) {
  cmd::NerSettings s;
  s.aggregation = cli::parse_aggregation(call.at("aggregation_strategy").get<std::string>());
  if (call.contains("ignore_labels")) s.ignore_labels = call.at("ignore_labels").get<std::vector<std::string>>();
  return s;
}

// The ner_windows entry of a case and stride.
const json& recorded_windows(const json& goldens, const json& record) {
  const std::optional<std::size_t> stride = stride_of(record.at("call"));
  for (const json& w : goldens.at("ner_windows"))
    if (w.at("case") == record.at("case") && stride_of(w) == stride) return w.at("windows");
  FAIL("no ner_windows entry for " << record.at("case") << " stride " << record.at("call").dump());
  throw std::logic_error("unreachable");
}

// Whether the record matched entirely (each difference is a failed CHECK).
bool check_entities(const std::vector<cmd::Entity>& got, const json& expected, bool none) {
  bool same = got.size() == expected.size();
  CHECK(got.size() == expected.size());
  for (std::size_t i = 0; same && i < got.size(); ++i) {
    INFO("entity " << i << ": " << expected[i].dump());
    const json& e = expected[i];
    const bool ok = got[i].label == e.at(none ? "entity" : "entity_group").get<std::string>() &&
                    got[i].word == e.at("word").get<std::string>() && got[i].start == e.at("start").get<std::size_t>() &&
                    got[i].end == e.at("end").get<std::size_t>() &&
                    (!none || got[i].index == e.at("index").get<std::int64_t>()) &&
                    std::abs(got[i].score - e.at("score").get<double>()) <= kTolerance;
    CHECK_MESSAGE(ok, "got " << got[i].label << " '" << got[i].word << "' [" << got[i].start << "," << got[i].end
                             << ") index " << got[i].index << " score " << got[i].score);
    same = same && ok;
  }
  return same;
}

}  // namespace

TEST_CASE("ner: the pipeline's windows (ids, offsets) and the model's logits on them") {
  for (const std::string& name : fixtures_with_windows()) {
    bktest::Fixture f = bktest::load_fixture(name, "models2");
    auto tokenizer = bktest::fixture_tokenizer(f, "fast");
    cmd::TokenClassifier classifier(f.model.config, f.weights);
    for (const json& entry : f.goldens.at("ner_windows")) {
      INFO(name << " " << entry.at("case") << " stride " << entry.at("stride").dump());
      std::string text;
      for (const json& p : f.goldens.at("pipelines_fast"))
        if (p.at("case") == entry.at("case")) text = p.at("input").get<std::string>();
      const auto windows = pipeline_windows(*tokenizer, text, stride_of(entry));
      const json& expected = entry.at("windows");
      REQUIRE(windows.size() == expected.size());
      const auto logits = classifier.logits(pointers(windows), {});
      for (std::size_t k = 0; k < windows.size(); ++k) {
        INFO("window " << k);
        const tok::Encoding& w = windows[k];
        // The pipeline pads every window to the first's length: padding is special and never looked at.
        const auto ids = expected[k].at("input_ids").get<std::vector<std::int32_t>>();
        const auto mask = expected[k].at("attention_mask").get<std::vector<int>>();
        std::size_t real = 0;
        while (real < mask.size() && mask[real]) ++real;
        CHECK(w.ids == std::vector<std::int32_t>(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(real)));
        std::vector<tok::Offsets> chars = w.offsets;
        tok::to_char_offsets(text, chars);
        for (std::size_t i = 0; i < std::min(real, w.size()); ++i) {
          INFO("token " << i);
          CHECK(chars[i].begin == expected[k].at("offsets")[i][0].get<std::uint32_t>());
          CHECK(chars[i].end == expected[k].at("offsets")[i][1].get<std::uint32_t>());
        }
        std::vector<double> want = bktest::flatten(expected[k].at("logits"));
        want.resize(logits[k].size());
        CHECK(bktest::max_abs_diff(logits[k], want) <= kTolerance);
      }
    }
  }
}

TEST_CASE("ner: every pipelines_fast record from the recorded logits (post-processing alone)") {
  for (const std::string& name : fixtures_with_windows()) {
    bktest::Fixture f = bktest::load_fixture(name, "models2");
    auto tokenizer = bktest::fixture_tokenizer(f, "fast");
    std::size_t matched = 0, records = 0;
    for (const json& p : f.goldens.at("pipelines_fast")) {
      INFO(name << " " << p.at("tag") << " " << p.at("case") << " call " << p.at("call").dump());
      const std::string text = p.at("input").get<std::string>();
      const auto windows = pipeline_windows(*tokenizer, text, stride_of(p.at("call")));
      const json& recorded = recorded_windows(f.goldens, p);
      REQUIRE(windows.size() == recorded.size());
      std::vector<std::vector<float>> logits;
      for (std::size_t k = 0; k < windows.size(); ++k) {
        std::vector<double> all = bktest::flatten(recorded[k].at("logits"));
        all.resize(windows[k].size() * f.model.config.id2label.size());
        logits.emplace_back(all.begin(), all.end());
      }
      const cmd::NerSettings s = settings_of(p.at("call"));
      const auto got = cmd::text_entities(*tokenizer, text, pointers(windows), logits, f.model.config.id2label, s);
      matched += check_entities(got, p.at("output"), s.aggregation == cmd::Aggregation::None);
      ++records;
    }
    CHECK(records == f.goldens.at("pipelines_fast").size());
    MESSAGE(name << ": " << matched << " of " << records << " pipelines_fast records matched");
  }
}

TEST_CASE("ner: every pipelines_fast record end to end (encoder, head, pipeline)") {
  for (const std::string& name : ner_fixtures()) {
    bktest::Fixture f = bktest::load_fixture(name, "models2");
    auto tokenizer = bktest::fixture_tokenizer(f, "fast");
    cmd::TokenClassifier classifier(f.model.config, f.weights);
    std::size_t matched = 0, strided = 0;
    for (const json& p : f.goldens.at("pipelines_fast")) {
      INFO(name << " " << p.at("tag") << " " << p.at("case") << " call " << p.at("call").dump());
      const std::string text = p.at("input").get<std::string>();
      const auto windows = pipeline_windows(*tokenizer, text, stride_of(p.at("call")));
      strided += windows.size() > 1;
      const cmd::NerSettings s = settings_of(p.at("call"));
      const auto got = cmd::text_entities(*tokenizer, text, pointers(windows), classifier.logits(pointers(windows), {}),
                                          f.model.config.id2label, s);
      matched += check_entities(got, p.at("output"), s.aggregation == cmd::Aggregation::None);
    }
    CHECK(strided > 0);
    MESSAGE(name << ": " << matched << " of " << f.goldens.at("pipelines_fast").size() << " records matched");
  }
}

TEST_CASE("ner --compat python: every slow-tokenizer pipelines record end to end") {
  for (const std::string& name : ner_fixtures()) {
    bktest::Fixture f = bktest::load_fixture(name, "models2");
    auto tokenizer = bktest::fixture_tokenizer(f, "python");
    cmd::TokenClassifier classifier(f.model.config, f.weights);
    std::size_t records = 0;
    for (const json& p : f.goldens.at("pipelines")) {
      if (p.at("init").value("use_fast", true)) continue;
      INFO(name << " " << p.at("case") << " call " << p.at("call").dump());
      const std::string text = p.at("input").get<std::string>();
      const auto windows = pipeline_windows(*tokenizer, text, std::nullopt);
      cmd::NerSettings s = settings_of(p.at("call"));
      s.slow_tokenizer = true;
      auto got = cmd::text_entities(*tokenizer, text, pointers(windows), classifier.logits(pointers(windows), {}),
                                    f.model.config.id2label, s);
      // The slow path has no offsets (null in the record, written so by the command): compare the rest.
      json expected = p.at("output");
      for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i) {
        REQUIRE(expected[i].at("start").is_null());
        expected[i]["start"] = got[i].start;
        expected[i]["end"] = got[i].end;
      }
      check_entities(got, expected, s.aggregation == cmd::Aggregation::None);
      ++records;
    }
    CHECK(records > 0);
  }
}
