// `embed --precision` end to end: bertkit's quantised output (npy with its integer dtype, JSONL
// integers) against the quantisation, computed here the numpy way, of bertkit's own float32 output.
#include "cli/task_cli_helpers.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

using bktest::run_bertkit;

namespace {

const std::string kPrecisionTexts =
    "A man is eating food.\nA man is eating a piece of bread.\nThe girl is carrying a baby.\n"
    "A man is riding a horse.\nStocks fell sharply on Monday\na\n";
constexpr std::size_t kRows = 6;

struct NpyFile {
  std::string descr;
  std::size_t rows = 0, cols = 0;
  std::string data;
};

NpyFile read_npy(const std::filesystem::path& path) {
  const std::string bytes = bktest::read_file(path);
  REQUIRE(bytes.size() >= 10);
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  const std::string header = bytes.substr(10, header_len);
  std::smatch descr, shape;
  REQUIRE(std::regex_search(header, descr, std::regex(R"('descr':\s*'([^']*)')")));
  REQUIRE(std::regex_search(header, shape, std::regex(R"('shape':\s*\((\d+),\s*(\d+)\))")));
  NpyFile npy{descr[1], std::stoul(shape[1]), std::stoul(shape[2]), bytes.substr(10 + header_len)};
  return npy;
}

std::vector<float> floats(const NpyFile& npy) {
  REQUIRE(npy.descr == "<f4");
  std::vector<float> v(npy.rows * npy.cols);
  REQUIRE(npy.data.size() == v.size() * sizeof(float));
  std::memcpy(v.data(), npy.data.data(), npy.data.size());
  return v;
}

// numpy: starts = min, steps = (max - min) / 255 in float32, then the float32 -> byte cast (in range here).
std::vector<int> expected_int8(const std::vector<float>& rows, const std::vector<float>& ranges_from, std::size_t dim,
                               bool int8) {
  std::vector<float> mins(dim, INFINITY), maxs(dim, -INFINITY);
  for (std::size_t i = 0; i < ranges_from.size(); ++i) {
    mins[i % dim] = std::min(mins[i % dim], ranges_from[i]);
    maxs[i % dim] = std::max(maxs[i % dim], ranges_from[i]);
  }
  std::vector<int> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const float step = (maxs[i % dim] - mins[i % dim]) / 255.0f;
    float v = (rows[i] - mins[i % dim]) / step;
    if (int8) v -= 128.0f;
    const auto whole = static_cast<std::int32_t>(v);
    out.push_back(int8 ? int(static_cast<std::int8_t>(whole)) : int(static_cast<std::uint8_t>(whole)));
  }
  return out;
}

std::vector<int> expected_binary(const std::vector<float>& rows, std::size_t dim, bool signed_bytes) {
  std::vector<int> out;
  for (std::size_t r = 0; r * dim < rows.size(); ++r)
    for (std::size_t byte = 0; byte < (dim + 7) / 8; ++byte) {
      int b = 0;
      for (std::size_t bit = 0; bit < 8; ++bit) {
        const std::size_t d = byte * 8 + bit;
        if (d < dim && rows[r * dim + d] > 0) b |= 0x80 >> bit;
      }
      out.push_back(signed_bytes ? b - 128 : b);
    }
  return out;
}

std::vector<int> bytes_of(const NpyFile& npy) {
  std::vector<int> out;
  for (char c : npy.data) out.push_back(npy.descr == "|i1" ? int(static_cast<std::int8_t>(c)) : int(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

TEST_CASE("precision: embed's quantised npy and jsonl are the quantisation of its float32 output") {
  bktest::TempDir dir;
  const auto m = bktest::fixture_path("minilm-embed");
  const auto input = dir / "texts.txt";
  bktest::write_file(input, kPrecisionTexts);
  auto embed = [&](const std::vector<std::string>& extra, const std::string& out) {
    std::vector<std::string> args{"embed", "-m", m, "-i", input.string(), "--batch-size", "2", "-o", (dir / out).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_bertkit(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return dir / out;
  };
  // A truncated dimension not divisible by 8 exercises the padding of the last packed byte.
  for (const std::string dim_text : {"32", "13"}) {
    CAPTURE(dim_text);
    const std::size_t dim = std::stoul(dim_text);
    const std::vector<std::string> truncate{"--truncate-dim", dim_text};
    const NpyFile f32 = read_npy(embed(truncate, "f.npy"));
    REQUIRE(f32.rows == kRows);
    REQUIRE(f32.cols == dim);
    const std::vector<float> rows = floats(f32);
    for (const std::string precision : {"int8", "uint8", "binary", "ubinary"}) {
      CAPTURE(precision);
      auto args = truncate;
      args.insert(args.end(), {"--precision", precision});
      const NpyFile q = read_npy(embed(args, "q.npy"));
      const bool binary = precision.find("binary") != std::string::npos;
      CHECK(q.descr == (precision == "int8" || precision == "binary" ? "|i1" : "|u1"));
      CHECK(q.rows == kRows);
      CHECK(q.cols == (binary ? (dim + 7) / 8 : dim));
      const std::vector<int> expected = binary ? expected_binary(rows, dim, precision == "binary")
                                               : expected_int8(rows, rows, dim, precision == "int8");
      CHECK(bytes_of(q) == expected);
      // JSONL: the same integers, one list per record.
      const auto lines = bktest::json_lines(bktest::read_file(embed(args, "q.jsonl")));
      REQUIRE(lines.size() == kRows);
      std::vector<int> from_json;
      for (const auto& line : lines)
        for (int v : line["embedding"].get<std::vector<int>>()) from_json.push_back(v);
      CHECK(from_json == expected);
    }
  }
}

TEST_CASE("precision: --calibration ranges come from the file, and the rows stream") {
  bktest::TempDir dir;
  const auto m = bktest::fixture_path("minilm-embed");
  // Calibration: the float32 embeddings of three other texts.
  const auto calibration = dir / "cal.npy";
  auto r = run_bertkit({"embed", "-m", m, "-o", calibration.string(), "The cat sat on the mat.", "Rain is wet.", "x"});
  REQUIRE(r.exit_code == 0);
  const std::vector<float> cal = floats(read_npy(calibration));
  const auto f32 = dir / "f.npy", q = dir / "q.npy";
  REQUIRE(run_bertkit({"embed", "-m", m, "-o", f32.string(), "A man is eating food.", "The girl is carrying a baby."}).exit_code == 0);
  r = run_bertkit({"embed", "-m", m, "-o", q.string(), "--precision", "uint8", "--calibration", calibration.string(),
                   "A man is eating food.", "The girl is carrying a baby."});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(bytes_of(read_npy(q)) == expected_int8(floats(read_npy(f32)), cal, 32, false));

  // Mismatched dimension is bad input; calibration with binary is a usage error.
  auto bad = run_bertkit({"embed", "-m", m, "--truncate-dim", "16", "--precision", "int8", "--calibration",
                          calibration.string(), "a"});
  CHECK(bad.exit_code == 3);
  CHECK(run_bertkit({"embed", "-m", m, "--precision", "binary", "--calibration", calibration.string(), "a"}).exit_code == 2);
}

TEST_CASE("precision: refused combinations are usage errors") {
  const auto m = bktest::fixture_path("minilm-embed");
  auto r = run_bertkit({"embed", "-m", m, "--precision", "int4", "a"});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "bertkit: error: --precision must be float32, int8, uint8, binary or ubinary, not 'int4'\n");
  CHECK(run_bertkit({"embed", "-m", m, "--precision", "binary", "--token-embeddings", "a"}).exit_code == 2);
  CHECK(run_bertkit({"embed", "-m", m, "--precision", "binary", "--format", "f32", "-o", "/dev/null", "a"}).exit_code == 2);
  auto dry = run_bertkit({"embed", "-m", m, "--precision", "int8", "--dry-run"});
  CHECK(dry.out.find("int8 (ranges of all the embeddings") != std::string::npos);
}

// similarity --corpus --precision: the hits are those of embed's quantised rows compared here — the
// negated Hamming distance of the bits, or cosine over the int8 values — best first, earlier on ties.
TEST_CASE("precision: a search over quantised embeddings scores as their quantised rows compare") {
  bktest::TempDir dir;
  const std::string model = bktest::fixture_path("minilm-embed");
  const auto corpus = (dir / "corpus.txt").string();
  bktest::write_file(corpus, kPrecisionTexts);
  const std::vector<std::string> queries = {"a person eats", "horse riding"};
  auto rows_of = [&](const std::vector<std::string>& extra, const std::string& input) {
    std::vector<std::string> args{"embed", "-m", model};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<std::vector<double>> rows;
    for (const auto& line : bktest::run_jsonl(args, input)) rows.push_back(line.at("embedding").get<std::vector<double>>());
    return rows;
  };
  const auto calibration = (dir / "calibration.npy").string();
  REQUIRE(run_bertkit({"embed", "-m", model, "-i", corpus, "--format", "npy", "-o", calibration}).exit_code == 0);
  const std::string query_lines = queries[0] + "\n" + queries[1] + "\n";

  for (const char* precision : {"binary", "ubinary", "int8"}) {
    INFO(precision);
    const bool bits = std::string(precision) != "int8";
    std::vector<std::string> quantise{"--precision", precision};
    if (!bits) quantise.insert(quantise.end(), {"--calibration", calibration});
    const auto corpus_rows = rows_of(quantise, kPrecisionTexts);
    const auto query_rows = rows_of(quantise, query_lines);
    REQUIRE(corpus_rows.size() == kRows);
    std::vector<std::string> args{"similarity", "-m", model, "--corpus", corpus, "--query", queries[0], "--query",
                                  queries[1], "--top-k", "4"};
    args.insert(args.end(), quantise.begin(), quantise.end());
    const auto lines = bktest::run_jsonl(args);
    REQUIRE(lines.size() == 2);
    for (std::size_t q = 0; q < 2; ++q) {
      std::vector<std::pair<double, std::size_t>> expected;
      for (std::size_t i = 0; i < kRows; ++i) {
        double score = 0;
        if (bits) {
          for (std::size_t b = 0; b < corpus_rows[i].size(); ++b)
            score -= std::popcount(static_cast<unsigned>(static_cast<std::uint8_t>(static_cast<int>(corpus_rows[i][b])) ^
                                                         static_cast<std::uint8_t>(static_cast<int>(query_rows[q][b]))));
        } else {
          double dot = 0, na = 0, nb = 0;
          for (std::size_t d = 0; d < corpus_rows[i].size(); ++d) {
            dot += corpus_rows[i][d] * query_rows[q][d];
            na += query_rows[q][d] * query_rows[q][d];
            nb += corpus_rows[i][d] * corpus_rows[i][d];
          }
          score = dot / std::sqrt(na * nb);
        }
        expected.emplace_back(score, i);
      }
      std::stable_sort(expected.begin(), expected.end(), [](auto& a, auto& b) { return a.first > b.first; });
      const auto& results = lines[q].at("results");
      REQUIRE(results.size() == 4);
      for (std::size_t r = 0; r < 4; ++r) {
        CHECK(results[r].at("score").get<double>() == doctest::Approx(expected[r].first).epsilon(1e-5));
        // Equal scores may come in either order only if they are equal here too.
        if (results[r].at("index").get<std::size_t>() != expected[r].second)
          CHECK(std::abs(expected[r].first - results[r].at("score").get<double>()) < 1e-6);
      }
    }
  }
  auto no_ranges = run_bertkit({"similarity", "-m", model, "--corpus", corpus, "--query", "q", "--precision", "int8"});
  CHECK(no_ranges.exit_code == 2);
  CHECK(no_ranges.err.find("--precision int8 needs --calibration") != std::string::npos);
  auto pairs = run_bertkit({"similarity", "-m", model, "--precision", "binary", "a", "b"});
  CHECK(pairs.exit_code == 2);
  CHECK(pairs.err.find("--precision applies to a search") != std::string::npos);
}

// quantize_embeddings takes each dimension's range from the embeddings given: one embedding (or
// identical ones) gives none, and every value would be 0. Refused, naming --calibration; a calibration
// file of one row likewise (issue 30).
TEST_CASE("precision: int8/uint8 ranges from one embedding are refused, not written as zeros") {
  bktest::TempDir dir;
  const auto m = bktest::fixture_path("minilm-embed");
  for (const char* precision : {"int8", "uint8"}) {
    CAPTURE(precision);
    for (const auto& input : {std::vector<std::string>{"A man is eating food."}, std::vector<std::string>{"a", "a"}}) {
      std::vector<std::string> args{"embed", "-m", m, "--precision", precision};
      args.insert(args.end(), input.begin(), input.end());
      auto r = run_bertkit(args);
      INFO(r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.out.empty());
      CHECK(bktest::count_lines(r.err) == 1);
      CHECK(r.err.find("--calibration") != std::string::npos);
    }
    // A stream of one record is one embedding too.
    auto streamed = run_bertkit({"embed", "-m", m, "--precision", precision}, "A man is eating food.\n");
    CHECK(streamed.exit_code == 2);
    CHECK(streamed.err.find("--calibration") != std::string::npos);
  }
  // A calibration file of one row gives no range either: bad input naming the file.
  const auto one_row = dir / "one.npy";
  REQUIRE(run_bertkit({"embed", "-m", m, "-o", one_row.string(), "Rain is wet."}).exit_code == 0);
  auto r = run_bertkit({"embed", "-m", m, "--precision", "int8", "--calibration", one_row.string(), "a", "b"});
  CHECK(r.exit_code == 3);
  CHECK(bktest::count_lines(r.err) == 1);
  CHECK(r.err.find(one_row.string()) != std::string::npos);
  // Two different embeddings give every dimension a range: no warning, and not all zeros.
  auto two = run_bertkit({"embed", "-m", m, "--precision", "int8", "A man is eating food.", "Stocks fell sharply."});
  REQUIRE(two.exit_code == 0);
  CHECK(two.err.empty());
  const auto rows = bktest::json_lines(two.out);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["embedding"] != rows[1]["embedding"]);
}
