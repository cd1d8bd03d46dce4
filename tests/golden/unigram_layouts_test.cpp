// Two more layouts of a SentencePiece Unigram tokenizer.json (as XLM-R's is written by newer and older
// conversions: Metaspace with prepend_scheme, and [WhitespaceSplit, Metaspace] behind a lone
// Precompiled normalizer), built from ../shared's sentence-camembert-base pieces, against the Rust
// library's ids and offsets recorded by tests/golden/make_unigram_layouts_golden.mjs
// (tests/golden/data/unigram_layouts.jsonl.gz).
#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

using namespace bertkit::tok;
using nlohmann::json;

namespace {

std::unique_ptr<Tokenizer> layout(const std::string& name) {
  std::ifstream in(bktest::shared("vocab/sentence-camembert-base/tokenizer.json"));
  json j = json::parse(in);
  json precompiled;
  for (const json& n : j["normalizer"]["normalizers"])
    if (n["type"] == "Precompiled") precompiled = n;
  if (name == "metaspace") {
    j["normalizer"] = {{"type", "Sequence"}, {"normalizers", json::array({precompiled})}};
    j["pre_tokenizer"] = {{"type", "Metaspace"}, {"replacement", "\u2581"}, {"prepend_scheme", "always"}, {"split", true}};
  } else {
    j["normalizer"] = precompiled;
    j["pre_tokenizer"] = {{"type", "Sequence"},
                          {"pretokenizers", json::array({{{"type", "WhitespaceSplit"}},
                                                         {{"type", "Metaspace"}, {"replacement", "\u2581"}, {"add_prefix_space", true}}})}};
  }
  TokenizerFiles files;
  files.tokenizer_json = j.dump();
  files.origin = name + " layout";
  return std::make_unique<Tokenizer>(build_tokenizer_spec(files));
}

}  // namespace

TEST_CASE("golden: Unigram tokenizer.json layouts (Metaspace prepend_scheme, WhitespaceSplit + Metaspace)") {
  std::map<std::string, std::unique_ptr<Tokenizer>> tokenizers;
  std::vector<std::string> failures;
  std::size_t records = 0;
  for (const std::string& line : bktest::read_lines(std::string(BERTKIT_SOURCE_DIR) + "/tests/golden/data/unigram_layouts.jsonl.gz")) {
    const json r = json::parse(line);
    const std::string name = r["layout"];
    auto& tok = tokenizers[name];
    if (!tok) tok = layout(name);
    ++records;
    const std::string a = r["text"], b = r.value("text_b", "");
    const bool pair = r.contains("text_b");
    const Encoding e = tok->encode(a, pair ? std::optional<std::string_view>(b) : std::nullopt, {});
    std::vector<Offsets> first, second;
    for (std::size_t i = 0; i < e.size(); ++i) (e.sequence[i] == 1 ? second : first).push_back(e.offsets[i]);
    to_char_offsets(a, first);
    to_char_offsets(b, second);
    std::vector<std::vector<std::uint32_t>> offsets;
    std::size_t fi = 0, si = 0;
    for (std::size_t i = 0; i < e.size(); ++i) {
      const Offsets o = e.sequence[i] == 1 ? second[si++] : first[fi++];
      offsets.push_back({o.begin, o.end});
    }
    const std::string where = fmt::format("{} {}:{}{}", name, r["corpus"].get<std::string>(), r["line"].get<int>(), pair ? " (pair)" : "");
    if (e.ids != r["ids"].get<std::vector<std::int32_t>>()) failures.push_back(where + ": ids differ");
    else if (offsets != r["offsets"].get<std::vector<std::vector<std::uint32_t>>>()) failures.push_back(where + ": offsets differ");
    if (failures.size() > 20) break;
  }
  INFO(failures.size() << " mismatches over " << records << " records");
  for (const std::string& f : failures) MESSAGE(f);
  CHECK(records > 1000);
  CHECK(failures.empty());
}
