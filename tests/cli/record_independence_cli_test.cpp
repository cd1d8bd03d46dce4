// A record's output depends on that record alone: not on the batch it is computed in, nor on the
// threads. This is what makes shards (GNU parallel, Spark) concatenate to one process's bytes and
// --resume continue a run exactly. Checked byte for byte for f32, bf16 and int8.
#include "task_cli_helpers.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using bktest::run_bertkit;

// Lines of every length from a few words to past the fixtures' maximum (truncated).
std::string uneven_lines(bool masked) {
  const auto all = bktest::read_lines(bktest::shared("corpora/en_agnews.txt"));
  std::string text;
  for (std::size_t i = 0; i < 48 && i < all.size(); ++i) {
    std::string line = all[i].substr(0, 20 + (i * 37) % 400);
    if (masked) {
      const auto space = line.find(' ', line.size() / 2);
      line = line.substr(0, space == std::string::npos ? line.size() : space) + " [MASK] .";
    }
    text += line + "\n";
  }
  return text;
}

void check_independent(const std::vector<std::string>& args, const std::string& input, std::size_t records = 48) {
  for (const char* dtype : {"f32", "bf16", "int8"}) {
    CAPTURE(dtype);
    std::vector<std::string> one = args, many = args;
    for (const char* a : {"--dtype", dtype, "--batch-size", "1", "--threads", "1"}) one.push_back(a);
    for (const char* a : {"--dtype", dtype, "--batch-size", "64", "--threads", "2"}) many.push_back(a);
    auto a = run_bertkit(one, input);
    auto b = run_bertkit(many, input);
    INFO(a.err, b.err);
    REQUIRE(a.exit_code == 0);
    REQUIRE(b.exit_code == 0);
    CHECK(bktest::count_lines(a.out) >= records);
    CHECK(a.out == b.out);
  }
}

void check_independent(const std::vector<std::string>& args, bool masked) {
  check_independent(args, uneven_lines(masked));
}

}  // namespace

TEST_CASE("record independence: embed (jsonl) is the same bytes in batches of 1 and 64, on 1 and 2 threads") {
  check_independent({"embed", "-m", bktest::fixture_path("minilm-embed")}, false);
}

TEST_CASE("record independence: classify") {
  check_independent({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "--top-k", "2"}, false);
}

TEST_CASE("record independence: fill-mask") {
  check_independent({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm")}, true);
}

TEST_CASE("record independence: ner") {
  check_independent({"ner", "-m", bktest::models2_path("bert-cased-ner"), "--format", "jsonl"}, false);
}

// Records that fan out to several model inputs: batches fill with model inputs, so one record's inputs
// share a batch with others' or (a batch of 1) run alone.
TEST_CASE("record independence: fan-out (rerank's documents, qa's windows, a bi-encoder's two texts)") {
  const auto lines = bktest::split_lines(uneven_lines(false));
  std::string lists, pairs, questions, context;
  for (std::size_t i = 0; i + 5 < lines.size(); ++i) {
    const std::vector<std::string> documents(lines.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                             lines.begin() + static_cast<std::ptrdiff_t>(i + 1 + i % 5));
    lists += nlohmann::json{{"query", lines[i]}, {"documents", documents}}.dump() + "\n";
    pairs += lines[i] + "\t" + lines[i + 1] + "\n";
    if (i < 12) questions += "What about " + lines[i].substr(0, 30) + "?\n";
    if (i < 10) context += lines[i] + " ";
  }
  check_independent({"rerank", "-m", bktest::fixture_path("bert-chinese-cross"), "--jsonl"}, lists, 40);
  check_independent({"similarity", "-m", bktest::fixture_path("minilm-embed"), "--pairs"}, pairs, 40);
  bktest::TempDir dir;
  bktest::write_file(dir / "context.txt", context);
  check_independent({"qa", "-m", bktest::fixture_path("bert-uncased-qa"), "--context-file", (dir / "context.txt").string(),
                     "--max-seq-length", "48", "--doc-stride", "16"},
                    questions, 12);
}
