// Input dialects (issue 30, item 3): --delimiter for CSV (kept by CSV output), nested JSONL paths for
// --field, --pair-field and --documents-field (a dot in a name written \.), and lone surrogate escapes
// in JSONL read as U+FFFD with a warning naming file and line, the member echoed as written.
#include "task_cli_helpers.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bktest::run_bertkit;
using nlohmann::json;


}  // namespace

TEST_CASE("--delimiter reads semicolon CSV, CSV output keeps it, nonsense combinations are refused naming the flags (issue 30, item 3)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.csv", "id;text\n1;\"good; very good\"\n2;a,b\n");
  const auto rows = bktest::run_jsonl({"embed", "-m", bktest::minilm(), "-i", (dir / "in.csv").string(), "--delimiter", ";", "--column", "text"});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("id") == "1");
  CHECK(rows[0].at("text") == "good; very good");
  CHECK(rows[1].at("text") == "a,b");
  CHECK(rows[0].at("embedding") == bktest::run_jsonl({"embed", "-m", bktest::minilm(), "good; very good"}).at(0).at("embedding"));
  // CSV output in the input's dialect: the rows echo byte for byte.
  auto csv = run_bertkit({"classify", "-m", bktest::fixture_path("distilbert-uncased-cls"), "-i", (dir / "in.csv").string(),
                          "--delimiter", ";", "--column", "text", "--format", "csv"});
  INFO(csv.err);
  REQUIRE(csv.exit_code == 0);
  const auto lines = bktest::split_lines(csv.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].starts_with("id;text;label;"));
  CHECK(lines[1].starts_with("1;\"good; very good\";"));
  CHECK(lines[2].starts_with("2;a,b;"));

  // Without it the header is one column named "id;text".
  auto plain = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.csv").string(), "--column", "text"});
  CHECK(plain.exit_code == 3);
  bktest::write_file(dir / "in.tsv", "text\nx\n");
  bktest::write_file(dir / "in.jsonl", "{\"text\": \"x\"}\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"-i", (dir / "in.tsv").string(), "--delimiter", ";"}, "--delimiter applies to CSV input, not TSV input"},
      {{"--tsv", "-i", (dir / "in.csv").string(), "--delimiter", ";"}, "--delimiter applies to CSV input, not TSV input"},
      {{"-i", (dir / "in.jsonl").string(), "--delimiter", ";"}, "--delimiter applies to CSV input, not JSONL input"},
      {{"--delimiter", ";", "some text"}, "--delimiter describes -i files, not texts given as arguments"},
      {{"-i", (dir / "in.csv").string(), "--delimiter", "\\t"}, "give --tsv instead"},
      {{"-i", (dir / "in.csv").string(), "--delimiter", "\""}, "--delimiter cannot be a quote"},
      {{"-i", (dir / "in.csv").string(), "--delimiter", ";;"}, "--delimiter must be one ASCII character"},
      {{"-i", (dir / "in.csv").string(), "--delimiter", ""}, "--delimiter is given an empty value"},
  };
  for (const auto& refusal : refused) {
    const auto& args = refusal.first;
    const std::string& message = refusal.second;  // not a structured binding: CAPTURE's lambda takes it (clang)
    std::vector<std::string> full = {"embed", "-m", bktest::minilm()};
    full.insert(full.end(), args.begin(), args.end());
    auto r = run_bertkit(full);
    CAPTURE(message);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
  }
}

TEST_CASE("--field and --pair-field take a nested path, a missing one names file, line and path (issue 30, item 3)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.jsonl",
                     "{\"id\": 1, \"doc\": {\"title\": \"A man eats\", \"body\": \"food\"}, \"v1.2\": \"dotted\"}\n"
                     "{\"id\": 2, \"doc\": {\"body\": \"no title\"}}\n"
                     "{\"id\": 3, \"doc\": \"flat\"}\n");
  const std::string in = (dir / "in.jsonl").string();
  auto r = run_bertkit({"similarity", "-m", bktest::minilm(), "-i", in, "--field", "doc.title", "--pair-field", "doc.body", "--on-error", "skip"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto rows = bktest::json_lines(r.out);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].at("doc") == json{{"title", "A man eats"}, {"body", "food"}});  // echoed whole
  CHECK(rows[0].at("score") == bktest::run_jsonl({"similarity", "-m", bktest::minilm(), "A man eats", "food"}).at(0).at("score"));
  CHECK(rows[1].at("error").get<std::string>().find("in.jsonl:2: no field \"doc.title\": \"doc\" has no member \"title\" (its members: body)") !=
        std::string::npos);
  CHECK(rows[2].at("error").get<std::string>().find("in.jsonl:3: no field \"doc.title\": \"doc\" is string, not an object") !=
        std::string::npos);
  // Without skip: exit 3 naming file, line and path.
  auto fail = run_bertkit({"embed", "-m", bktest::minilm(), "-i", in, "--field", "doc.title"});
  CHECK(fail.exit_code == 3);
  CHECK(fail.err.find("in.jsonl:2: no field \"doc.title\"") != std::string::npos);
  // Missing from the first record: refused before any output.
  auto first = run_bertkit({"embed", "-m", bktest::minilm(), "-i", in, "--field", "doc.name", "-o", (dir / "never.jsonl").string()});
  CHECK(first.exit_code == 3);
  CHECK(first.err.find("in.jsonl:1: no field \"doc.name\"") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "never.jsonl"));
  // A dot inside a name is \. ; the plain spelling points to it.
  const auto dotted = bktest::run_jsonl({"embed", "-m", bktest::minilm(), "-i", in, "--field", "v1\\.2", "--on-error", "skip"});
  CHECK(dotted.at(0).at("embedding") == bktest::run_jsonl({"embed", "-m", bktest::minilm(), "dotted"}).at(0).at("embedding"));
  auto undotted = run_bertkit({"embed", "-m", bktest::minilm(), "-i", in, "--field", "v1.2"});
  CHECK(undotted.exit_code == 3);
  CHECK(undotted.err.find("the member named \"v1.2\" is written --field 'v1\\.2'") != std::string::npos);
  for (const char* bad : {"doc..title", ".doc", "doc.", "doc\\title"}) {
    CAPTURE(bad);
    auto u = run_bertkit({"embed", "-m", bktest::minilm(), "-i", in, "--field", bad});
    CHECK(u.exit_code == 2);
    CHECK(u.err.find(std::string("--field '") + bad + "'") != std::string::npos);
  }
}

TEST_CASE("rerank --documents-field takes a nested path (issue 30, item 3)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.jsonl", "{\"query\": \"q\", \"hits\": {\"docs\": [\"one\", \"two\"]}}\n");
  const auto nested = bktest::run_jsonl({"rerank", "-m", bktest::fixture_path("bert-chinese-cross"), "-i", (dir / "in.jsonl").string(),
                                         "--documents-field", "hits.docs"});
  bktest::write_file(dir / "flat.jsonl", "{\"query\": \"q\", \"documents\": [\"one\", \"two\"]}\n");
  const auto flat = bktest::run_jsonl({"rerank", "-m", bktest::fixture_path("bert-chinese-cross"), "-i", (dir / "flat.jsonl").string()});
  CHECK(nested.at(0).at("results") == flat.at(0).at("results"));
}

TEST_CASE("a lone surrogate escape in JSONL is read as U+FFFD with a warning, the member is echoed as written (issue 30, item 4)") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.jsonl", "{\"text\": \"good\"}\n{\"text\": \"broken \\ud800 text\", \"n\": \"\\udc00\"}\n");
  auto r = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.jsonl").string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("in.jsonl:2: a lone surrogate escape") != std::string::npos);
  CHECK(r.err.find("U+FFFD (1 record in all; --strict refuses it)") != std::string::npos);
  const auto lines = bktest::split_lines(r.out);
  REQUIRE(lines.size() == 2);
  const std::string& line = lines[1];
  const std::string prefix = "{\"text\":\"broken \\ud800 text\",\"n\":\"\\udc00\",\"embedding\":";
  REQUIRE(line.starts_with(prefix));
  const json embedding = json::parse(line.substr(prefix.size(), line.size() - prefix.size() - 1));
  CHECK(embedding == bktest::run_jsonl({"embed", "-m", bktest::minilm(), "broken \xEF\xBF\xBD text"}).at(0).at("embedding"));
  // A valid pair and an escaped backslash are no lone surrogates.
  bktest::write_file(dir / "ok.jsonl", "{\"text\": \"\\ud83d\\ude00 and \\\\ud800\"}\n");
  auto ok = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "ok.jsonl").string()});
  CHECK(ok.exit_code == 0);
  CHECK(ok.err.find("surrogate") == std::string::npos);
  // --strict refuses it, naming file, line and byte.
  auto strict = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.jsonl").string(), "--strict"});
  CHECK(strict.exit_code == 3);
  CHECK(strict.err.find("in.jsonl:2: a lone surrogate escape at byte 18 (\\ud800") != std::string::npos);
}
