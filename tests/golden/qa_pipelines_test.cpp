// qa against transformers' question-answering pipeline. Default (fast-tokenizer) path: every
// `pipelines_fast` record of every QA fixture, its windows (ids, type ids, offsets, words, p_mask) and
// its answers (text and span identical, scores within 1e-4). --compat python: every slow-path
// `pipelines` record and the windows of `qa_windows`.
#include "commands/qa.h"
#include "commands/qa_spans.h"
#include "golden/pipeline_fixtures.h"
#include "core/error.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace bertkit;
using nlohmann::json;

namespace {

using bktest::kTolerance;

// With `models2`, also RoBERTa's (deepset's folder: vocab.json + merges.txt), whose records are on the
// fast path only.
std::vector<bktest::FixtureRef> qa_fixtures(bool models2) {
  auto names = bktest::fixtures_with_pipelines("question-answering", models2);
  CHECK(names.size() >= (models2 ? 3u : 2u));
  return names;
}

void check_answers(const std::vector<cmd::Answer>& got, const json& output) {
  json expected = output.is_array() ? output : json::array({output});
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("answer " << i);
    CHECK(got[i].answer == expected[i].at("answer").get<std::string>());
    CHECK(got[i].start == expected[i].at("start").get<std::size_t>());
    CHECK(got[i].end == expected[i].at("end").get<std::size_t>());
    CHECK(std::abs(got[i].score - expected[i].at("score").get<double>()) <= kTolerance);
  }
}

// The window as the goldens record it: offsets in code points into the question or the context.
void check_fast_window(const cmd::QaExample& ex, const cmd::QaWindow& w, const json& expected) {
  const tok::Encoding& e = w.encoding;
  CHECK(e.ids == expected.at("input_ids").get<std::vector<std::int32_t>>());
  CHECK(e.type_ids == expected.at("token_type_ids").get<std::vector<std::int32_t>>());
  std::vector<int> p_mask(w.p_mask.begin(), w.p_mask.end());
  CHECK(p_mask == expected.at("p_mask").get<std::vector<int>>());
  REQUIRE(e.size() == expected.at("offsets").size());
  for (std::size_t i = 0; i < e.size(); ++i) {
    INFO("token " << i);
    const json& word = expected.at("word_ids")[i];
    CHECK(e.words[i] == (word.is_null() ? -1 : word.get<std::int32_t>()));
    tok::Offsets o = e.offsets[i];
    if (e.sequence[i] >= 0) tok::to_char_offsets(e.sequence[i] == 0 ? ex.question : ex.context, std::span(&o, 1));
    CHECK(o.begin == expected.at("offsets")[i][0].get<std::uint32_t>());
    CHECK(o.end == expected.at("offsets")[i][1].get<std::uint32_t>());
  }
}

cmd::QaSettings settings_of(const json& call, std::size_t model_max_length, bool python) {
  cmd::QaSettings s;
  s.python = python;
  s.top_k = call.value("top_k", std::size_t{1});
  s.max_question_len = call.value("max_question_len", std::size_t{64});
  s.max_answer_len = call.value("max_answer_len", std::size_t{15});
  s.handle_impossible = call.value("handle_impossible_answer", false);
  s.align_to_words = call.value("align_to_words", true);
  if (call.contains("max_seq_len")) s.max_seq_len = call.at("max_seq_len").get<std::size_t>();
  if (call.contains("doc_stride")) s.doc_stride = call.at("doc_stride").get<std::size_t>();
  return cmd::resolve_qa_settings(s, call.contains("max_seq_len"), call.contains("doc_stride"), model_max_length);
}

}  // namespace

TEST_CASE("qa: every pipelines_fast record, windows and answers (default path)") {
  for (const auto& name : qa_fixtures(true)) {
    bktest::Fixture f = bktest::load_fixture(name.name, name.set);
    auto tokenizer = bktest::fixture_tokenizer(f, "fast");
    cmd::QuestionAnswerer qa(f.model.config, f.weights);
    const json& records = f.goldens.at("pipelines_fast");
    CHECK(records.size() > 0);
    std::size_t several_windows = 0;
    for (const json& p : records) {
      INFO(name << " " << p.at("tag").get<std::string>() << " call " << p.at("call").dump());
      cmd::QaSettings s = settings_of(p.at("call"), bktest::fixture_max_length(f, *tokenizer), false);
      std::vector<cmd::QaExample> examples;
      examples.push_back(cmd::make_qa_example(*tokenizer, p.at("input").at("question").get<std::string>(),
                                              p.at("input").at("context").get<std::string>(), s));
      const json& windows = p.at("windows");
      REQUIRE(examples[0].windows.size() == windows.size());
      several_windows += windows.size() > 1;
      for (std::size_t k = 0; k < windows.size(); ++k) {
        INFO("window " << k);
        check_fast_window(examples[0], examples[0].windows[k], windows[k]);
      }
      auto answers = qa.run(examples, s, {});
      check_answers(answers[0], p.at("output"));
    }
    CHECK(several_windows > 0);
  }
}

TEST_CASE("qa: the pipeline's answers from its own logits (span selection alone)") {
  // Feeding the recorded window logits isolates span ranking and character mapping from the encoder.
  for (const auto& name : qa_fixtures(true)) {
    bktest::Fixture f = bktest::load_fixture(name.name, name.set);
    auto tokenizer = bktest::fixture_tokenizer(f, "fast");
    for (const json& p : f.goldens.at("pipelines_fast")) {
      INFO(name << " " << p.at("tag").get<std::string>());
      cmd::QaSettings s = settings_of(p.at("call"), bktest::fixture_max_length(f, *tokenizer), false);
      cmd::QaExample ex = cmd::make_qa_example(*tokenizer, p.at("input").at("question").get<std::string>(),
                                               p.at("input").at("context").get<std::string>(), s);
      std::vector<std::vector<float>> starts, ends;
      for (const json& w : p.at("windows")) {
        starts.push_back(w.at("start_logits").get<std::vector<float>>());
        ends.push_back(w.at("end_logits").get<std::vector<float>>());
      }
      check_answers(cmd::answers_from_logits(ex, starts, ends, s), p.at("output"));
    }
  }
}

TEST_CASE("qa: every slow-path pipelines record and its windows (--compat python)") {
  for (const auto& name : qa_fixtures(false)) {
    bktest::Fixture f = bktest::load_fixture(name.name, name.set);
    auto tokenizer = bktest::fixture_tokenizer(f, "python");
    cmd::QuestionAnswerer qa(f.model.config, f.weights);
    const std::size_t model_max = bktest::fixture_max_length(f, *tokenizer);
    std::size_t checked = 0;
    for (const json& p : f.goldens.at("pipelines")) {
      if (p.at("init").at("task") != "question-answering") continue;
      INFO(name << " case " << p.at("case").dump() << " call " << p.at("call").dump());
      cmd::QaSettings s = settings_of(p.at("call"), model_max, true);
      std::vector<cmd::QaExample> examples;
      examples.push_back(cmd::make_qa_example(*tokenizer, p.at("input").at("question").get<std::string>(),
                                              p.at("input").at("context").get<std::string>(), s));
      check_answers(qa.run(examples, s, {})[0], p.at("output"));
      ++checked;
    }
    CHECK(checked > 0);

    for (const json& w : f.goldens.at("qa_windows")) {
      INFO(name << " qa_windows " << w.at("case").dump());
      const json& args = w.at("preprocess_args");
      cmd::QaSettings s = settings_of(args, model_max, true);
      cmd::QaExample ex =
          cmd::make_qa_example(*tokenizer, w.at("question").get<std::string>(), w.at("context").get<std::string>(), s);
      CHECK(ex.words.size() == w.at("doc_tokens").size());
      const json& features = w.at("features");
      REQUIRE(ex.windows.size() == features.size());
      for (std::size_t k = 0; k < features.size(); ++k) {
        INFO("window " << k);
        const cmd::QaWindow& got = ex.windows[k];
        const json& want = features[k];
        // The goldens are padded to max_seq_len; bertkit's windows are not (padding is masked anyway).
        const std::size_t n = got.encoding.size();
        auto ids = want.at("input_ids").get<std::vector<std::int32_t>>();
        auto p_mask = want.at("p_mask").get<std::vector<int>>();
        REQUIRE(n <= ids.size());
        for (std::size_t i = n; i < ids.size(); ++i) CHECK(ids[i] == tokenizer->pad_id());
        CHECK(got.encoding.ids == std::vector<std::int32_t>(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n)));
        CHECK(std::vector<int>(got.p_mask.begin(), got.p_mask.end()) ==
              std::vector<int>(p_mask.begin(), p_mask.begin() + static_cast<std::ptrdiff_t>(n)));
        for (std::size_t i = 0; i < n; ++i) {
          auto it = want.at("token_to_orig_map").find(std::to_string(i));
          CHECK(got.token_to_word[i] == (it == want.at("token_to_orig_map").end() ? -1 : it->get<std::int32_t>()));
        }
      }
    }
  }
}

TEST_CASE("qa: span selection keeps only context spans within max_answer_len, best first") {
  // [CLS] q [SEP] c c c [SEP]
  std::vector<std::uint8_t> p_mask{0, 1, 1, 0, 0, 0, 1};
  std::vector<float> start{5, 9, 9, 1, 3, 2, 9}, end{5, 9, 9, 2, 1, 3, 9};
  auto w = cmd::select_spans(start, end, p_mask, 10, 2);
  REQUIRE(!w.spans.empty());
  for (const auto& s : w.spans) {
    CHECK(s.start >= 3);
    CHECK(s.end <= 5);
    CHECK(s.end >= s.start);
    CHECK(s.end - s.start < 2);
  }
  CHECK(w.spans.size() == 5);  // (3,3) (3,4) (4,4) (4,5) (5,5)
  CHECK(w.spans[0].start == 4);
  CHECK(w.spans[0].end == 5);
  for (std::size_t i = 1; i < w.spans.size(); ++i) CHECK(w.spans[i - 1].score >= w.spans[i].score);
  CHECK(w.null_score > 0);
}
