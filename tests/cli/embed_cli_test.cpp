// `bertkit embed` end to end: output formats (an .npy parser of our own reads the file back), CSV
// round trips, stdin, thread counts, bad records both ways, truncation, Ctrl-C, --dry-run, and the
// input checks that come before any output exists.
#include "support.h"
#include "task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <thread>

extern char** environ;

using bktest::run_bertkit;
using nlohmann::json;

namespace {





std::vector<std::vector<float>> embeddings(const std::vector<json>& recs) {
  std::vector<std::vector<float>> out;
  for (const auto& r : recs) out.push_back(r.at("embedding").get<std::vector<float>>());
  return out;
}

// A NumPy .npy file (version 1.0 or 2.0, C-order little-endian float32, two dimensions), read
// strictly: anything else fails the test.
struct Npy {
  std::size_t rows = 0, cols = 0;
  std::vector<float> data;
};

Npy parse_npy(const std::string& bytes) {
  REQUIRE(bytes.size() >= 10);
  REQUIRE(bytes.compare(0, 6, "\x93NUMPY") == 0);
  const int major = static_cast<unsigned char>(bytes[6]);
  REQUIRE((major == 1 || major == 2));
  std::size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    start = 10;
  } else {
    REQUIRE(bytes.size() >= 12);
    for (int i = 3; i >= 0; --i) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + i]);
    start = 12;
  }
  REQUIRE(start + header_len <= bytes.size());
  CHECK((start + header_len) % 64 == 0);  // the format aligns the data
  const std::string header = bytes.substr(start, header_len);
  CHECK(header.back() == '\n');
  std::smatch m;
  REQUIRE(std::regex_search(header, std::regex(R"('descr':\s*'<f4')")));
  REQUIRE(std::regex_search(header, std::regex(R"('fortran_order':\s*False)")));
  REQUIRE(std::regex_search(header, m, std::regex(R"('shape':\s*\((\d+),\s*(\d+)\))")));
  Npy npy;
  npy.rows = std::stoul(m[1]);
  npy.cols = std::stoul(m[2]);
  const std::size_t data_bytes = bytes.size() - start - header_len;
  REQUIRE(data_bytes == npy.rows * npy.cols * sizeof(float));
  npy.data.resize(npy.rows * npy.cols);
  std::memcpy(npy.data.data(), bytes.data() + start + header_len, data_bytes);
  return npy;
}

// RFC 4180 records (quotes, doubled quotes, newlines inside quotes).
std::vector<std::vector<std::string>> parse_csv(const std::string& text, char delimiter = ',') {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == delimiter) {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
    } else if (c != '\r') {
      field += c;
    }
    any = true;
  }
  if (!rows.back().empty() || !field.empty()) rows.back().push_back(field);
  else rows.pop_back();
  if (!any) rows.clear();
  return rows;
}

std::vector<std::string> corpus(std::size_t n) {
  std::vector<std::string> out;
  for (auto& line : bktest::read_lines(bktest::shared("corpora/en_sst2_dev.txt"))) {
    if (line.empty()) continue;
    out.push_back(line);
    if (out.size() == n) break;
  }
  return out;
}

// The lines, one a line, `times` over.
std::string join(const std::vector<std::string>& lines, int times = 1) {
  std::string s;
  for (int rep = 0; rep < times; ++rep)
    for (const auto& l : lines) s += l + "\n";
  return s;
}

void check_same(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b, double tol) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].size() == b[i].size());
    for (std::size_t j = 0; j < a[i].size(); ++j) REQUIRE(std::abs(a[i][j] - b[i][j]) <= tol);
  }
}

}  // namespace

TEST_CASE("embed: jsonl, npy, f32, csv and tsv hold the same vectors") {
  bktest::TempDir dir;
  const std::vector<std::string> texts = {"A man is eating food.", "The girl is carrying a baby.", "x"};
  std::vector<std::string> args = {"embed", "-m", bktest::minilm()};
  args.insert(args.end(), texts.begin(), texts.end());
  auto r = run_bertkit(args);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(recs[i]["text"] == texts[i]);
  auto rows = embeddings(recs);
  const std::size_t dim = rows[0].size();
  CHECK(dim == bktest::read_json(bktest::shared("fixtures/models/minilm-embed/config.json"))["hidden_size"].get<std::size_t>());

  auto with = [&](std::vector<std::string> extra) {
    auto a = args;
    a.insert(a.end(), extra.begin(), extra.end());
    return run_bertkit(a);
  };
  // npy: a valid array of shape (3, dim), the same floats bit for bit as the JSON text.
  auto npy_run = with({"--format", "npy", "-o", (dir / "v.npy").string()});
  REQUIRE(npy_run.exit_code == 0);
  CHECK(npy_run.out.empty());
  Npy npy = parse_npy(bktest::read_file(dir / "v.npy"));
  CHECK(npy.rows == 3);
  CHECK(npy.cols == dim);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < dim; ++j) CHECK(npy.data[i * dim + j] == rows[i][j]);

  auto f32 = with({"--format", "f32"});
  REQUIRE(f32.exit_code == 0);
  REQUIRE(f32.out.size() == 3 * dim * sizeof(float));
  CHECK(std::memcmp(f32.out.data(), npy.data.data(), f32.out.size()) == 0);

  for (const char* fmt : {"csv", "tsv"}) {
    CAPTURE(fmt);
    auto t = with({"--format", fmt});
    REQUIRE(t.exit_code == 0);
    auto table = parse_csv(t.out, fmt[0] == 'c' ? ',' : '\t');
    REQUIRE(table.size() == 4);
    CHECK(table[0] == std::vector<std::string>{"text", "embedding", "truncated"});
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK(table[i + 1][0] == texts[i]);
      CHECK(json::parse(table[i + 1][1]).get<std::vector<float>>() == rows[i]);
      CHECK(table[i + 1][2] == "false");
    }
  }
  // npy needs a file (its header is completed at the end), and per-token vectors are not rows.
  CHECK(with({"--format", "npy"}).exit_code == 2);
  CHECK(with({"--format", "npy", "--token-embeddings", "-o", (dir / "t.npy").string()}).exit_code == 2);
  CHECK(with({"--format", "parquet"}).exit_code == 2);
}

TEST_CASE("embed: CSV round trip keeps every column byte for byte, tricky quoting included") {
  bktest::TempDir dir;
  // BOM, quoted commas, doubled quotes, a newline inside a field, an empty field, CRLF.
  const std::string input =
      "\xEF\xBB\xBFid,text,note\r\n"
      "1,\"Hello, world\",plain\r\n"
      "2,\"She said \"\"hi\"\"\",\"multi\nline\"\r\n"
      "3,no quotes at all,\r\n"
      "4,\"  spaced  \",\"\"\"quoted\"\"\"\r\n";
  bktest::write_file(dir / "in.csv", input);
  auto r = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.csv").string(), "--column", "text", "-o",
                        (dir / "out.csv").string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string out = bktest::read_file(dir / "out.csv");
  auto in_rows = parse_csv(input.substr(3));
  auto out_rows = parse_csv(out);
  REQUIRE(out_rows.size() == in_rows.size());
  CHECK(out_rows[0] == std::vector<std::string>{"id", "text", "note", "embedding", "truncated"});
  std::vector<std::string> texts;
  for (std::size_t i = 1; i < in_rows.size(); ++i) {
    CAPTURE(i);
    REQUIRE(out_rows[i].size() == 5);
    for (std::size_t c = 0; c < 3; ++c) CHECK(out_rows[i][c] == in_rows[i][c]);
    texts.push_back(in_rows[i][1]);
  }
  // Byte for byte: each input row's bytes start its output row.
  for (const char* raw : {"1,\"Hello, world\",plain,", "2,\"She said \"\"hi\"\"\",\"multi\nline\",",
                          "3,no quotes at all,,", "4,\"  spaced  \",\"\"\"quoted\"\"\","})
    CHECK(out.find(raw) != std::string::npos);
  // The vectors are those of the texts given directly.
  std::vector<std::string> args = {"embed", "-m", bktest::minilm()};
  args.insert(args.end(), texts.begin(), texts.end());
  auto direct = embeddings(bktest::json_lines(run_bertkit(args).out));
  for (std::size_t i = 0; i < texts.size(); ++i)
    CHECK(json::parse(out_rows[i + 1][3]).get<std::vector<float>>() == direct[i]);

  // TSV input by extension, JSONL output keeps the text only.
  bktest::write_file(dir / "in.tsv", "text\tlabel\nfirst\t1\nsecond\t0\n");
  auto tsv = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.tsv").string(), "--column", "text", "--format", "tsv"});
  REQUIRE(tsv.exit_code == 0);
  auto tsv_lines = bktest::split_lines(tsv.out);
  REQUIRE(tsv_lines.size() == 3);
  CHECK(tsv_lines[0] == "text\tlabel\tembedding\ttruncated");
  CHECK(tsv_lines[1].rfind("first\t1\t[", 0) == 0);
}

TEST_CASE("embed: JSONL input keeps its fields, stdin equals a file, --pairs") {
  bktest::TempDir dir;
  const std::string jsonl = "{\"id\": 7, \"body\": \"first text\"}\n{\"id\": 8, \"body\": \"second\"}\n";
  auto r = run_bertkit({"embed", "-m", bktest::minilm(), "--jsonl", "--field", "body"}, jsonl);
  REQUIRE(r.exit_code == 0);
  auto recs = bktest::json_lines(r.out);
  REQUIRE(recs.size() == 2);
  CHECK(recs[0]["id"] == 7);
  CHECK(recs[0]["body"] == "first text");
  CHECK(recs[1]["id"] == 8);

  auto lines = corpus(40);
  bktest::write_file(dir / "in.txt", join(lines));
  auto from_stdin = run_bertkit({"embed", "-m", bktest::minilm()}, join(lines));
  auto from_file = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.txt").string()});
  REQUIRE(from_stdin.exit_code == 0);
  CHECK(from_stdin.out == from_file.out);
  auto stdin_recs = bktest::json_lines(from_stdin.out);
  REQUIRE(stdin_recs.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) CHECK(stdin_recs[i]["text"] == lines[i]);

  auto pair = run_bertkit({"embed", "-m", bktest::minilm(), "--pairs"}, "a question\tan answer\n");
  REQUIRE(pair.exit_code == 0);
  auto p = bktest::json_lines(pair.out).at(0);
  CHECK(p["text_pair"] == "an answer");
  CHECK(p["embedding"].size() == recs[0]["embedding"].size());
  CHECK(p["embedding"] != bktest::json_lines(run_bertkit({"embed", "-m", bktest::minilm(), "a question"}).out).at(0)["embedding"]);
}

TEST_CASE("embed: the order and the vectors do not depend on threads or batch sizes" * doctest::test_suite("threads")) {
  auto lines = corpus(300);
  const std::string input = join(lines);
  auto one = run_bertkit({"--threads", "1", "embed", "-m", bktest::minilm()}, input);
  auto two = run_bertkit({"embed", "-m", bktest::minilm(), "--threads", "2", "--batch-size", "7", "--max-batch-tokens", "100"}, input);
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  auto a = bktest::json_lines(one.out), b = bktest::json_lines(two.out);
  REQUIRE(a.size() == lines.size());
  REQUIRE(b.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) REQUIRE(b[i]["text"] == lines[i]);
  check_same(embeddings(a), embeddings(b), 1e-5);
}

TEST_CASE("embed: --on-error fail keeps the records before the bad one, skip goes on") {
  bktest::TempDir dir;
  const std::string input = "{\"text\": \"one\"}\n{\"text\": \"two\"}\n{\"text\": \"three\"\n{\"text\": \"four\"}\n{\"other\": 5}\n";
  bktest::write_file(dir / "in.jsonl", input);
  const std::string out = (dir / "out.jsonl").string();
  auto fail = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.jsonl").string(), "-o", out});
  CHECK(fail.exit_code == 3);
  CHECK(fail.err.find("in.jsonl:3") != std::string::npos);
  auto kept = bktest::json_lines(bktest::read_file(out));
  REQUIRE(kept.size() == 2);
  CHECK(kept[0]["text"] == "one");
  CHECK(kept[1]["text"] == "two");

  auto skip = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.jsonl").string(), "-o", out, "--on-error", "skip"});
  INFO(skip.err);
  CHECK(skip.exit_code == 0);
  auto all = bktest::json_lines(bktest::read_file(out));
  REQUIRE(all.size() == 5);  // a row per record, the bad ones with their error
  CHECK(all[3]["text"] == "four");
  CHECK(all[2].at("line") == "{\"text\": \"three\"");
  CHECK(all[4].at("other") == 5);
  CHECK(all[4].contains("error"));
  CHECK(skip.err.find("in.jsonl:3") != std::string::npos);
  CHECK(skip.err.find("in.jsonl:5") != std::string::npos);
  CHECK(skip.err.find("2 bad records skipped") != std::string::npos);
  CHECK(run_bertkit({"embed", "-m", bktest::minilm(), "x", "--on-error", "ignore"}).exit_code == 2);

  // A pair line without its tab.
  auto pairs = run_bertkit({"embed", "-m", bktest::minilm(), "--pairs"}, "a\tb\nno tab\n");
  CHECK(pairs.exit_code == 3);
  CHECK(pairs.err.find("<stdin>:2") != std::string::npos);
  CHECK(bktest::json_lines(pairs.out).size() == 1);
}

TEST_CASE("embed: truncation is marked and counted, or refused") {
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "word ";
  auto r = run_bertkit({"embed", "-m", bktest::minilm(), "--max-length", "8", "short", long_text});
  REQUIRE(r.exit_code == 0);
  auto recs = bktest::json_lines(r.out);
  CHECK_FALSE(recs[0].contains("truncated"));
  CHECK(recs[1]["truncated"] == true);
  CHECK(r.err.find("1 record longer than 8 tokens truncated") != std::string::npos);
  // The cut input embeds as its first 6 words do.
  auto six = bktest::json_lines(run_bertkit({"embed", "-m", bktest::minilm(), "word word word word word word"}).out).at(0);
  CHECK(six["embedding"] == recs[1]["embedding"]);

  auto refused = run_bertkit({"embed", "-m", bktest::minilm(), "--max-length", "8", "--truncate", "error", "short", long_text});
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.find("<argument>:2") != std::string::npos);
  CHECK(bktest::json_lines(refused.out).size() == 1);
  CHECK(run_bertkit({"embed", "-m", bktest::minilm(), "--max-length", "100000", "x"}).exit_code == 2);
}

TEST_CASE("embed: --prefix, --prompt, --pooling, --normalize, --dry-run") {
  auto vec = [](std::vector<std::string> args) {
    auto r = run_bertkit(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return bktest::json_lines(r.out).at(0)["embedding"].get<std::vector<float>>();
  };
  const std::string m = bktest::minilm();
  CHECK(vec({"embed", "-m", m, "--prefix", "query: ", "rice"}) == vec({"embed", "-m", m, "query: rice"}));
  CHECK(run_bertkit({"embed", "-m", m, "--prompt", "nope", "x"}).exit_code == 2);
  CHECK(run_bertkit({"embed", "-m", m, "--prompt", "a", "--prefix", "b", "x"}).exit_code == 2);
  auto cls = vec({"embed", "-m", m, "--pooling", "cls", "--no-normalize", "x"});
  auto tokens = bktest::json_lines(run_bertkit({"embed", "-m", m, "--token-embeddings", "x"}).out).at(0);
  CHECK(tokens["tokens"].front() == "[CLS]");
  CHECK(tokens["tokens"].back() == "[SEP]");
  CHECK(tokens["token_embeddings"][0].get<std::vector<float>>() == cls);
  auto normalized = vec({"embed", "-m", m, "--pooling", "max", "--normalize", "x"});
  double norm = 0;
  for (float v : normalized) norm += double(v) * v;
  CHECK(std::abs(norm - 1) < 1e-5);
  CHECK(run_bertkit({"embed", "-m", m, "--pooling", "sum", "x"}).exit_code == 2);

  // Any checkpoint embeds through its encoder, whatever its head.
  auto mlm = run_bertkit({"embed", "-m", bktest::shared("fixtures/models/bert-uncased-mlm").string(), "hello"});
  CHECK(mlm.exit_code == 0);

  auto dry = run_bertkit({"embed", "-m", m, "--dry-run"});
  REQUIRE(dry.exit_code == 0);
  for (const char* s : {"model:", "architecture:", "head:", "pooling:", "mean", "normalization:", "L2", "prompt:",
                        "max length:", "64 tokens", "truncation:", "dtype:", "threads:"})
    CHECK_MESSAGE(dry.out.find(s) != std::string::npos, s);
}

TEST_CASE("embed: bad input is refused before any output file is created") {
  bktest::TempDir dir;
  const auto out = dir / "out.jsonl";
  bktest::write_file(dir / "in.csv", "id,body\n1,hello\n");
  auto r = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "in.csv").string(), "--column", "text", "-o", out.string()});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("text") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  r = run_bertkit({"embed", "-m", bktest::minilm(), "-i", (dir / "missing.txt").string(), "-o", out.string()});
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("missing.txt") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  r = run_bertkit({"embed", "-m", (dir / "no-model").string(), "x", "-o", out.string()});
  CHECK(r.exit_code != 0);
  CHECK_FALSE(std::filesystem::exists(out));
  r = run_bertkit({"embed", "x"});
  CHECK(r.exit_code == 2);  // -m is required
}

TEST_CASE("embed: Ctrl-C leaves a valid output holding every finished record") {
  bktest::TempDir dir;
  std::vector<std::string> lines = corpus(500);
  bktest::write_file(dir / "big.txt", join(lines, 60));

  for (const char* format : {"jsonl", "npy"}) {
    CAPTURE(format);
    const auto out = dir / (std::string("out.") + format);
    std::vector<std::string> args = {BERTKIT_BINARY, "embed", "-m", bktest::minilm(), "-i", (dir / "big.txt").string(),
                                     "-o", out.string(), "--format", format, "--batch-size", "32", "-q"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, BERTKIT_BINARY, nullptr, nullptr, argv.data(), environ) == 0);
    // Wait until some batches are out, then interrupt.
    const std::uintmax_t enough = std::string(format) == "npy" ? 128 + 64 * 32 * 4 : 20000;
    for (int i = 0; i < 600; ++i) {
      std::error_code ec;
      if (std::filesystem::exists(out, ec) && std::filesystem::file_size(out, ec) > enough) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid, SIGINT);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    const std::string bytes = bktest::read_file(out);
    if (std::string(format) == "npy") {
      Npy npy = parse_npy(bytes);
      CHECK(npy.rows > 0);
      CHECK(npy.rows < 60 * lines.size());
    } else {
      REQUIRE(!bytes.empty());
      CHECK(bytes.back() == '\n');
      auto recs = bktest::json_lines(bytes);
      CHECK(recs.size() < 60 * lines.size());
      for (std::size_t i = 0; i < recs.size(); ++i) REQUIRE(recs[i]["text"] == lines[i % lines.size()]);
    }
  }
}

TEST_CASE("embed: a full disk ends with one error line, status 1, and -o holds whole records (jsonl, npy)") {
  bktest::TempDir dir;
  const std::vector<std::string> lines = corpus(500);
  bktest::write_file(dir / "in.txt", join(lines));
  for (const std::string format : {"jsonl", "npy"}) {
    CAPTURE(format);
    const auto full = dir / ("full." + format), cut = dir / ("cut." + format);
    auto args = [&](const std::filesystem::path& out) {
      return std::vector<std::string>{"embed", "-m", bktest::minilm(), "-i", (dir / "in.txt").string(), "--format", format,
                                      "--batch-size", "16", "-o", out.string()};
    };
    auto whole = bktest::run_bertkit(args(full));
    REQUIRE(whole.exit_code == 0);
    const std::string expected = bktest::read_file(full);
    const std::uint64_t limit = expected.size() / 5;
    auto r = bktest::run_bertkit_with_file_limit(limit, args(cut));
    CHECK(r.exit_code == 1);
    CHECK(bktest::count_lines(r.err) == 1);
    CHECK(r.err.find("cannot write " + cut.string()) != std::string::npos);
    const std::string bytes = bktest::read_file(cut);
    REQUIRE(bytes.size() <= limit);
    if (format == "npy") {
      Npy whole_npy = parse_npy(expected), cut_npy = parse_npy(bytes);
      CHECK(cut_npy.cols == whole_npy.cols);
      CHECK(cut_npy.rows > 0);
      CHECK(cut_npy.rows < lines.size());
      CHECK(std::equal(cut_npy.data.begin(), cut_npy.data.end(), whole_npy.data.begin()));
    } else {
      REQUIRE(!bytes.empty());
      CHECK(bytes.back() == '\n');
      CHECK(expected.compare(0, bytes.size(), bytes) == 0);  // the first records, each whole
    }
  }
}

TEST_CASE("embed: a reader that closes stdout early ends the program quietly") {
  bktest::TempDir dir;
  bktest::write_file(dir / "in.txt", join(corpus(500), 10));
  auto r = bktest::run_bertkit_reading_one_line("embed -m '" + bktest::minilm() + "' -i '" + (dir / "in.txt").string() + "'", dir.path());
  CHECK(r.first_line.rfind("{\"text\":", 0) == 0);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("embed: the encoder of any supported checkpoint embeds, whatever its head (token classification, NSP)") {
  for (const char* name : {"bert-cased-ner", "distilbert-uncased-ner", "electra-ner", "bert-uncased-nsp"}) {
    CAPTURE(name);
    const auto folder = bktest::shared(std::string("fixtures/models2/") + name).string();
    auto r = run_bertkit({"embed", "-m", folder, "--pooling", "cls", "Paris is in France."});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());  // every tensor of the checkpoint is the model's: no "not used" warning
    auto j = nlohmann::json::parse(r.out);
    auto info = nlohmann::json::parse(run_bertkit({"info", "--json", folder}).out);
    CHECK(j["embedding"].size() == info["hidden_size"].get<std::size_t>());
    // A command that needs another head says which head the checkpoint has; classify takes the
    // next-sentence head.
    auto classify = run_bertkit({"classify", "-m", folder, "x"});
    if (std::string(name) == "bert-uncased-nsp") {
      CHECK(classify.exit_code == 0);
      continue;
    }
    CHECK(classify.exit_code == 2);
    CHECK(classify.err.find("classify needs a sequence-classification or next-sentence-prediction model; ") !=
          std::string::npos);
  }
}
