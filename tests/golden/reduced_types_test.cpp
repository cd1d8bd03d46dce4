// The reduced compute types against transformers' goldens: the top-1 label of every text-classification
// pipeline record and the top-1 token of the fill-mask records, with the weights in bf16 and int8, agree
// with the f32 goldens at least as often as each type promises (bf16 99%, int8 98%); `--dtype` at run
// time gives exactly the numbers of a file converted to that type; and an int8 record's numbers do not
// depend on the other records of its batch.
//
// The fixtures' random weights spread fill-mask's probability almost evenly over the vocabulary: some
// records' best two tokens differ by about 1% in probability, a tie that bf16's own rounding of the
// logits (about 0.05) decides at random. Those records (best leading second by less than
// kMinMargin in log-probability) are left out of the fill-mask count; a trained model's are not that close.
#include "cli/task_cli_helpers.h"
#include "cli/choice_flags.h"
#include "commands/classify.h"
#include "commands/fill_mask.h"
#include "core/checkpoint/reduce_weights.h"
#include "golden/pipeline_fixtures.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace bertkit;
using nlohmann::json;

namespace {

constexpr double kMinMargin = 0.05;

struct Agreement {
  std::size_t agree = 0, total = 0;
  void add(bool same) { agree += same, ++total; }
  double fraction() const { return total ? double(agree) / double(total) : 0.0; }
};

std::shared_ptr<const core::Weights> reduced(const bktest::Fixture& f, core::StoreType type) {
  return std::make_shared<const core::Weights>(core::with_store_type(*f.weights, type));
}

void classification(core::StoreType type, Agreement& a) {
  for (const auto& name : bktest::fixtures_with_pipelines("text-classification")) {
    bktest::Fixture f = bktest::load_fixture(name.name, name.set);
    auto tokenizer = bktest::fixture_tokenizer(f, "python");
    cmd::Classifier classifier(f.model.config, reduced(f, type));
    tok::EncodeOptions options;
    options.truncation = tok::TruncationParams{bktest::fixture_max_length(f, *tokenizer)};
    for (const json& p : f.goldens.at("pipelines")) {
      if (p.at("init").at("task") != "text-classification") continue;
      const json& input = p.at("input");
      std::string text = input.is_string() ? input.get<std::string>() : input.at("text").get<std::string>();
      std::optional<std::string> pair;
      if (input.is_object()) pair = input.at("text_pair").get<std::string>();
      std::vector<tok::Encoding> encodings{
          tokenizer->encode(text, pair ? std::optional<std::string_view>(*pair) : std::nullopt, options)};
      const json& call = p.at("call");
      std::string function = call.contains("function_to_apply") ? call.at("function_to_apply").get<std::string>() : "auto";
      auto ranked = cmd::rank_labels(classifier.logits(encodings, {}), cli::parse_score_function(function, classifier.config()));
      const json& output = p.at("output");
      const json& best = output.is_array() ? output.at(0) : output;
      a.add(classifier.config().id2label[ranked.at(0).label] == best.at("label").get<std::string>());
    }
  }
}

void fill_mask(core::StoreType type, Agreement& a, std::size_t& tied) {
  for (const auto& name : bktest::fixtures_with_pipelines("fill-mask")) {
    bktest::Fixture f = bktest::load_fixture(name.name, name.set);
    auto tokenizer = bktest::fixture_tokenizer(f, "python");
    cmd::FillMasker masker(f.model.config, reduced(f, type), *tokenizer);
    for (const json& p : f.goldens.at("pipelines")) {
      if (p.at("init").at("task") != "fill-mask" || p.at("call").contains("targets")) continue;
      std::vector<tok::Encoding> encodings{tokenizer->encode(p.at("input").get<std::string>(), std::nullopt, {})};
      cmd::FillMaskOptions options;
      options.top_k = 1;
      auto results = masker.run(encodings, options, {});
      const json& output = p.at("output");
      // One mask: a list of predictions; several: a list of lists.
      const bool several = !output.empty() && output[0].is_array();
      for (std::size_t m = 0; m < results.at(0).size(); ++m) {
        const json& ranked = several ? output.at(m) : output;
        const json& best = ranked.at(0);
        if (ranked.size() > 1 &&
            std::log(best.at("score").get<double>() / ranked.at(1).at("score").get<double>()) < kMinMargin) {
          ++tied;
          continue;
        }
        a.add(results[0][m].at(0).token == best.at("token").get<std::int32_t>());
      }
    }
  }
}

}  // namespace

TEST_CASE("reduced types: top-1 of classification and fill-mask pipeline records within each type's bound") {
  for (const auto& type_bound : {std::pair{core::StoreType::BF16, 0.99}, std::pair{core::StoreType::Int8, 0.98}}) {
    const auto type = type_bound.first;  // named, not bound: clang 14's CAPTURE cannot capture a binding
    const double bound = type_bound.second;
    CAPTURE(core::store_type_name(type));
    Agreement classes, masks;
    std::size_t tied = 0;
    classification(type, classes);
    fill_mask(type, masks, tied);
    MESSAGE(core::store_type_name(type) << ": classification " << classes.agree << "/" << classes.total << ", fill-mask "
                                        << masks.agree << "/" << masks.total << " (" << tied << " near-ties left out)");
    CHECK(classes.total >= 10);
    CHECK(masks.total >= 5);
    CHECK(classes.fraction() >= bound);
    CHECK(masks.fraction() >= bound);
  }
}

TEST_CASE("reduced types: --dtype at run time gives the numbers of a file converted to that type") {
  bktest::TempDir dir;
  const std::string input = "A man is eating food.\nThe quick brown fox jumps over the lazy dog.\nThanks!\n";
  for (const char* dtype : {"bf16", "int8"}) {
    for (const auto& name_command : {std::pair{"minilm-embed", "embed"}, std::pair{"distilbert-uncased-cls", "classify"}}) {
      const char* name = name_command.first;
      const char* command = name_command.second;
      CAPTURE(dtype);
      CAPTURE(name);
      const std::string folder = bktest::fixture_path(name), file = (dir / (std::string(name) + dtype + ".bk")).string();
      auto converted = bktest::run_bertkit({"-q", "convert", "--dtype", dtype, folder, file});
      REQUIRE_MESSAGE(converted.exit_code == 0, converted.err);
      auto from_file = bktest::run_bertkit({command, "-m", file}, input);
      auto at_load = bktest::run_bertkit({command, "-m", folder, "--dtype", dtype}, input);
      auto in_f32 = bktest::run_bertkit({command, "-m", folder}, input);
      REQUIRE(from_file.exit_code == 0);
      CHECK(at_load.exit_code == 0);
      CHECK(at_load.out == from_file.out);
      CHECK(in_f32.out != from_file.out);  // the reduced type is really used
    }
  }
}

// int8 quantises activations per token, so a text's numbers are exactly the same computed alone or in
// one batch with longer texts of another range (corpus lines, numbers and symbols), on every command's
// int8 path: encoder, pooling, BERT pooler, classification, MLM and QA heads.
TEST_CASE("reduced types: an int8 record is bitwise the same alone or in a batch with other texts") {
  std::vector<std::string> others = bktest::read_lines(bktest::shared("corpora/en_agnews.txt"));
  others.resize(3);
  others.push_back("9999999999 %%%% ~~~~ 0.000001 1e30 ZZZZZZ QQQQ !!!!!!!! ??? ### *** ^^^ $$$ 42424242");
  struct Path {
    const char* fixture;
    const char* command;
  };
  for (const Path& path : {Path{"minilm-embed", "embed"}, Path{"bert-uncased-mlm", "embed"},
                           Path{"bert-uncased-mlm", "fill-mask"}, Path{"distilbert-uncased-mlm", "fill-mask"},
                           Path{"bert-cased-cls", "classify"}, Path{"distilbert-uncased-cls", "classify"},
                           Path{"electra-cls", "classify"}, Path{"bert-uncased-qa", "qa"}, Path{"distilbert-uncased-qa", "qa"}}) {
    const std::string fixture = path.fixture, command = path.command;
    CAPTURE(fixture);
    CAPTURE(command);
    // Each line as the command reads it: fill-mask wants a mask, qa a question and its context.
    auto line = [&](const std::string& text) {
      if (command == "fill-mask") return "[MASK] " + text + "\n";  // first: long lines are cut
      if (command == "qa") return "What is it about?\t" + text + "\n";
      return text + "\n";
    };
    const std::string text = line("A man is eating food in the morning.");
    std::string batch = text;
    for (const std::string& other : others) batch += line(other);
    const std::vector<std::string> args{command, "-m", bktest::fixture_path(fixture), "--dtype", "int8"};
    auto alone = bktest::run_bertkit(args, text);
    auto together = bktest::run_bertkit(args, batch);
    REQUIRE_MESSAGE(alone.exit_code == 0, alone.err);
    REQUIRE_MESSAGE(together.exit_code == 0, together.err);
    const auto together_lines = bktest::split_lines(together.out);
    REQUIRE(together_lines.size() == others.size() + 1);
    CHECK(bktest::split_lines(alone.out).at(0) == together_lines[0]);
  }
}
