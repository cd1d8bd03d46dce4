// The user's files and fields are never altered or lost (issue 19): an output that is one of the
// inputs is refused before it is opened (item 8); input fields are never overwritten by result fields
// (item 9); vector rows stay aligned with input records when bad ones are skipped (item 10); TSV output
// escapes instead of quoting, table input keeps its columns in JSONL, output extensions are checked
// (item 21).
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using bktest::run_bertkit;
using bktest::with;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {


}  // namespace

TEST_CASE("an output that is one of the inputs is refused before it is opened (issue 19, item 8)") {
  bktest::TempDir dir;
  const fs::path in = dir.path() / "in.txt";
  const std::string text = "hello world\nsecond line\n";
  bktest::write_file(in, text);
  fs::create_symlink(in, dir.path() / "link.txt");
  fs::create_hard_link(in, dir.path() / "hard.txt");
  const fs::path csv = dir.path() / "in.csv";
  const std::string table = "text,id\nhello,1\n";
  bktest::write_file(csv, table);

  struct Case {
    std::vector<std::string> args;
    fs::path victim;
    std::string contents;
  };
  const std::string same = (dir.path() / "." / "in.txt").string();
  const std::vector<Case> cases = {
      {{"tokenize", "-i", in.string(), "--format", "jsonl", "-o", in.string()}, in, text},
      {{"tokenize", "-i", in.string(), "--format", "jsonl", "-o", same}, in, text},
      {{"tokenize", "-i", (dir.path() / "link.txt").string(), "--format", "jsonl", "-o", in.string()}, in, text},
      {{"tokenize", "-i", in.string(), "--format", "jsonl", "-o", (dir.path() / "hard.txt").string()}, in, text},
      {{"embed", "-m", bktest::minilm(), "-i", (dir.path() / "other.txt").string(), "-i", in.string(), "--format", "npy", "-o",
        (dir.path() / "link.txt").string()},
       in, text},
      {{"embed", "-m", bktest::minilm(), "-i", csv.string(), "-o", csv.string()}, csv, table},
      {{"similarity", "-m", bktest::minilm(), "--query", "hello", "--corpus", in.string(), "--format", "jsonl", "-o", same}, in, text},
  };
  bktest::write_file(dir.path() / "other.txt", "other\n");
  for (const Case& c : cases) {
    auto r = run_bertkit(c.args);
    INFO(c.args[0], " ", r.err);
    CHECK(r.exit_code == 2);
    CHECK(bktest::split_lines(r.err).size() == 1);
    CHECK(r.err.find("is the input") != std::string::npos);
    CHECK(bktest::read_file(c.victim) == c.contents);
  }
  // A new output file, or one that is not an input, is written as before.
  auto r = run_bertkit({"tokenize", "-i", in.string(), "-o", (dir.path() / "out.jsonl").string()});
  CHECK(r.exit_code == 0);
  CHECK(bktest::count_lines(bktest::read_file(dir.path() / "out.jsonl")) == 2);
}

namespace {

// One model command with an input whose columns (or JSONL members) are `columns`.
struct ModelCommand {
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> columns;
  std::vector<std::string> table_flags, jsonl_flags;  // what names the pair column or field
};

std::vector<ModelCommand> model_commands() {
  return {
      {{"classify", "-m", bktest::fixture_path("bert-cased-cls")}, {{"text", "a good film"}}, {"--column", "text"}, {}},
      {{"embed", "-m", bktest::minilm()}, {{"text", "a good film"}}, {"--column", "text"}, {}},
      {{"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm")}, {{"text", "the [MASK] is good"}}, {"--column", "text"}, {}},
      {{"qa", "-m", bktest::fixture_path("bert-uncased-qa")}, {{"question", "who is here"}, {"context", "bob is here"}}, {}, {}},
      {{"similarity", "-m", bktest::minilm()},
       {{"text", "a"}, {"text_pair", "b"}},
       {"--column", "text", "--pair-column", "text_pair"},
       {"--pair-field", "text_pair"}},
  };
}

enum class Table { Csv, Tsv, Jsonl };

// Writes the command's input, plus `extra` fields, in the format; returns its path.
std::string write_input(const fs::path& dir, const ModelCommand& c, Table format,
                        const std::vector<std::pair<std::string, std::string>>& extra) {
  auto fields = c.columns;
  fields.insert(fields.end(), extra.begin(), extra.end());
  std::string bytes;
  if (format == Table::Jsonl) {
    json object = json::object();
    for (const auto& [k, v] : fields) object[k] = v;
    bytes = object.dump() + "\n";
  } else {
    const char sep = format == Table::Csv ? ',' : '\t';
    std::string header, row;
    for (const auto& [k, v] : fields) {
      header += (header.empty() ? "" : std::string(1, sep)) + k;
      row += (row.empty() ? "" : std::string(1, sep)) + v;
    }
    bytes = header + "\n" + row + "\n";
  }
  const fs::path path = dir / (format == Table::Csv ? "in.csv" : format == Table::Tsv ? "in.tsv" : "in.jsonl");
  bktest::write_file(path, bytes);
  return path.string();
}

}  // namespace

TEST_CASE("an input field named like an output field is refused, and --output-prefix keeps both (issue 19, item 9)") {
  bktest::TempDir dir;
  for (const ModelCommand& c : model_commands()) {
    INFO(c.args[0]);
    // The output fields: the CSV header after the input's columns.
    auto plain = run_bertkit(with(c.args, with({"-i", write_input(dir.path(), c, Table::Csv, {}), "--format", "csv"}, c.table_flags)));
    INFO(plain.err);
    REQUIRE(plain.exit_code == 0);
    std::vector<std::string> header;
    std::string first = bktest::split_lines(plain.out).at(0);
    for (std::size_t at = 0, comma; at <= first.size(); at = comma + 1) {
      comma = std::min(first.find(',', at), first.size());
      header.push_back(first.substr(at, comma - at));
    }
    const std::vector<std::string> outputs(header.begin() + static_cast<std::ptrdiff_t>(c.columns.size()), header.end());
    REQUIRE(outputs.size() >= 2);
    CHECK(outputs.back() == "truncated");

    std::vector<std::pair<std::string, std::string>> gold;
    for (const std::string& name : outputs) gold.emplace_back(name, "gold-" + name);
    for (Table format : {Table::Csv, Table::Tsv, Table::Jsonl}) {
      const auto& flags = format == Table::Jsonl ? c.jsonl_flags : c.table_flags;
      for (const auto& field : gold) {
        const std::string in = write_input(dir.path(), c, format, {field});
        for (const std::string out : {"jsonl", "csv"}) {
          auto r = run_bertkit(with(c.args, with({"-i", in, "--format", out}, flags)));
          INFO(field.first, " ", in, " ", out, " ", r.err);
          CHECK(r.exit_code == 2);
          CHECK(r.err.find("'" + field.first + "'") != std::string::npos);
          CHECK(r.err.find("--output-prefix") != std::string::npos);
        }
      }
      // Every output field's name as an input field: each kept, the results beside them.
      const std::string in = write_input(dir.path(), c, format, gold);
      auto r = run_bertkit(with(c.args, with({"-i", in, "--output-prefix", "pred_"}, flags)));
      INFO(in, " ", r.err);
      REQUIRE(r.exit_code == 0);
      json record = bktest::json_lines(r.out).at(0);
      for (const auto& [k, v] : c.columns) CHECK(record[k] == v);
      for (const auto& [k, v] : gold) CHECK(record[k] == v);
      for (std::size_t i = 0; i + 1 < outputs.size(); ++i) CHECK(record.contains("pred_" + outputs[i]));
      if (format != Table::Jsonl) {
        auto table = run_bertkit(with(c.args, with({"-i", in, "--output-prefix", "pred_", "--format", "csv"}, flags)));
        REQUIRE(table.exit_code == 0);
        std::string expected;
        for (const auto& [k, v] : c.columns) expected += k + ",";
        for (const auto& [k, v] : gold) expected += k + ",";
        for (const std::string& name : outputs) expected += "pred_" + name + ",";
        expected.pop_back();
        CHECK(bktest::split_lines(table.out).at(0) == expected);
      }
    }
  }
}

namespace {

// The float32 rows of an .npy file (version 1, C order) and its shape text.
std::vector<float> npy_values(const std::string& bytes, std::string& header) {
  REQUIRE(bytes.size() >= 10);
  const std::size_t length = static_cast<unsigned char>(bytes[8]) | static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8;
  header = bytes.substr(10, length);
  std::vector<float> values((bytes.size() - 10 - length) / sizeof(float));
  std::memcpy(values.data(), bytes.data() + 10 + length, values.size() * sizeof(float));
  return values;
}

}  // namespace

TEST_CASE("vector output keeps row i for input record i when bad records are skipped (issue 19, item 10)") {
  bktest::TempDir dir;
  // Bad records (invalid UTF-8 under --strict) first, between good ones across batches, and last.
  const std::vector<bool> good = {false, true, false, false, true, true, false};
  std::string input;
  for (std::size_t i = 0; i < good.size(); ++i) input += good[i] ? "record " + std::to_string(i) + "\n" : "bad \xFF\n";
  const std::string in = (dir.path() / "in.txt").string();
  bktest::write_file(in, input);
  for (const std::string format : {"npy", "f32"}) {
    const std::string out = (dir.path() / ("out." + format)).string();
    auto r = run_bertkit({"embed", "-m", bktest::minilm(), "-i", in, "--strict", "--on-error", "skip", "--batch-size", "2", "-o", out});
    INFO(format, " ", r.err);
    REQUIRE(r.exit_code == 0);
    std::string header;
    const std::string bytes = bktest::read_file(out);
    std::vector<float> values;
    if (format == "npy") {
      values = npy_values(bytes, header);
      CHECK(header.find("'shape': (" + std::to_string(good.size()) + ",") != std::string::npos);
    } else {
      values.resize(bytes.size() / sizeof(float));
      std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    }
    REQUIRE(values.size() % good.size() == 0);
    const std::size_t width = values.size() / good.size();
    for (std::size_t i = 0; i < good.size(); ++i) {
      INFO("row ", i);
      for (std::size_t k = 0; k < width; ++k) REQUIRE(std::isnan(values[i * width + k]) == !good[i]);
      if (!good[i]) CHECK(r.err.find(in + ":" + std::to_string(i + 1) + ":") != std::string::npos);
    }
    // Each good row is the embedding of its own text.
    auto one = run_bertkit({"embed", "-m", bktest::minilm(), "record 4"});
    REQUIRE(one.exit_code == 0);
    const json embedding = bktest::json_lines(one.out).at(0)["embedding"];
    REQUIRE(embedding.size() == width);
    for (std::size_t k = 0; k < width; ++k) CHECK(std::abs(values[4 * width + k] - embedding[k].get<float>()) < 1e-5);
  }
}

TEST_CASE("TSV output escapes and never quotes, and reads back as TSV input (issue 19, item 21)") {
  bktest::TempDir dir;
  const std::string tricky = "say \"hi\"\tto\nthe [MASK] \\ here\r";
  const fs::path in = dir.path() / "in.jsonl";
  bktest::write_file(in, json{{"text", tricky}}.dump() + "\n" + json{{"text", "the [MASK] is good"}}.dump() + "\n");
  auto r = run_bertkit({"fill-mask", "-m", bktest::fixture_path("bert-uncased-mlm"), "-i", in.string(), "--format", "tsv"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto lines = bktest::split_lines(r.out);
  REQUIRE(lines.size() == 3);  // the header and one line per record
  CHECK(lines[1].find("say \"hi\"\\tto\\nthe [MASK] \\\\ here\\r\t") == 0);
  // Never quoted: the results cell is the JSON text itself, so `cut -f2 | jq` reads it.
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::size_t first = lines[i].find('\t');
    CHECK(lines[i].substr(first + 1, 2) == "[{");
  }
  const std::size_t first = lines[2].find('\t'), second = lines[2].find('\t', first + 1);
  CHECK(json::parse(lines[2].substr(first + 1, second - first - 1)).is_array());
  // Read back as TSV, the text is the original one.
  const fs::path tsv = dir.path() / "out.tsv";
  bktest::write_file(tsv, r.out);
  auto back = run_bertkit({"embed", "-m", bktest::minilm(), "-i", tsv.string(), "--column", "text", "--output-prefix", "e_", "--tsv-escapes"});
  INFO(back.err);
  REQUIRE(back.exit_code == 0);
  CHECK(bktest::json_lines(back.out).at(0)["text"] == tricky);
}

TEST_CASE("CSV input keeps its columns in JSONL output, qa's are question and context (issue 19, item 21)") {
  bktest::TempDir dir;
  const fs::path csv = dir.path() / "in.csv";
  bktest::write_file(csv, "id,text,note\n7,a good film,\"x, y\"\n");
  auto r = bktest::run_jsonl({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "-i", csv.string(), "--column", "text"});
  CHECK(r.at(0)["id"] == "7");
  CHECK(r.at(0)["text"] == "a good film");
  CHECK(r.at(0)["note"] == "x, y");
  CHECK(r.at(0).contains("label"));

  const fs::path qa = dir.path() / "qa.csv";
  bktest::write_file(qa, "question,context\nwho is here,bob is here\n");
  auto answers = bktest::run_jsonl({"qa", "-m", bktest::fixture_path("bert-uncased-qa"), "-i", qa.string()});
  CHECK(answers.at(0)["question"] == "who is here");
  CHECK(answers.at(0)["context"] == "bob is here");
  CHECK_FALSE(answers.at(0).contains("text"));
  CHECK_FALSE(answers.at(0).contains("text_pair"));
}

TEST_CASE("output extensions: any case, and an unknown one is a usage error (issue 19, item 21)") {
  bktest::TempDir dir;
  const std::string out_csv = (dir.path() / "OUT.CSV").string();
  auto r = run_bertkit({"embed", "-m", bktest::minilm(), "hello", "-o", out_csv});
  REQUIRE(r.exit_code == 0);
  CHECK(bktest::read_file(out_csv).rfind("text,embedding,truncated\n", 0) == 0);
  const std::string npy = (dir.path() / "v.NPY").string();
  REQUIRE(run_bertkit({"embed", "-m", bktest::minilm(), "hello", "-o", npy}).exit_code == 0);
  CHECK(bktest::read_file(npy).rfind("\x93NUMPY", 0) == 0);
  for (const char* name : {"out.parquet", "out.xlsx", "out.txt"}) {
    const fs::path path = dir.path() / name;
    auto bad = run_bertkit({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "hello", "-o", path.string()});
    INFO(name, " ", bad.err);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--format") != std::string::npos);
    CHECK_FALSE(fs::exists(path));
  }
  auto npy_classify = run_bertkit({"classify", "-m", bktest::fixture_path("bert-cased-cls"), "hello", "-o", (dir.path() / "x.npy").string()});
  CHECK(npy_classify.exit_code == 2);
  // No extension: JSON lines; --format overrides any extension.
  const fs::path plain = dir.path() / "results";
  REQUIRE(run_bertkit({"embed", "-m", bktest::minilm(), "hello", "-o", plain.string()}).exit_code == 0);
  CHECK(json::parse(bktest::split_lines(bktest::read_file(plain)).at(0))["text"] == "hello");
  const fs::path txt = dir.path() / "forced.txt";
  REQUIRE(run_bertkit({"embed", "-m", bktest::minilm(), "hello", "--format", "csv", "-o", txt.string()}).exit_code == 0);
}
