// tokenizer.json's NFC, NFD, NFKC, NFKD and StripAccents normalizers, alone and in sequences, against
// the Rust library's ids and offsets recorded by tests/golden/make_unicode_forms_golden.mjs
// (tests/golden/data/unicode_forms.jsonl.gz). Its WordPiece vocabulary is every single character, so
// the offsets show each normalised character's alignment. Texts: the Unicode normalization test's
// columns, a sweep of every assigned code point, messy corpus lines and random runs of marks.
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

TEST_CASE("golden: NFC, NFD, NFKC, NFKD and StripAccents normalizers, offsets included") {
  const auto lines = bktest::read_lines(std::string(BERTKIT_SOURCE_DIR) + "/tests/golden/data/unicode_forms.jsonl.gz");
  REQUIRE(lines.size() > 1000);
  const json head = json::parse(lines[0]);
  std::ifstream in(bktest::shared("vocab/bert-base-multilingual-cased/tokenizer.json"));
  json base = json::parse(in);
  base["truncation"] = nullptr;
  base["padding"] = nullptr;
  json vocab = json::object();
  for (std::size_t i = 0; i < head["vocab"].size(); ++i) vocab[head["vocab"][i].get<std::string>()] = i;
  base["model"]["vocab"] = vocab;
  base["model"]["max_input_chars_per_word"] = 100000;
  std::map<std::string, std::unique_ptr<Tokenizer>> tokenizers;
  for (const auto& [name, normalizer] : head["variants"].items()) {
    json j = base;
    j["normalizer"] = normalizer;
    TokenizerFiles files;
    files.tokenizer_json = j.dump();
    files.origin = name;
    tokenizers[name] = std::make_unique<Tokenizer>(build_tokenizer_spec(files));
  }
  EncodeOptions plain;
  plain.add_special_tokens = false;
  std::vector<std::string> failures;
  std::size_t records = 0;
  for (std::size_t n = 1; n < lines.size() && failures.size() <= 20; ++n) {
    const json r = json::parse(lines[n]);
    const std::string text = r["text"];
    for (const auto& [name, result] : r["results"].items()) {
      ++records;
      Encoding e = tokenizers.at(name)->encode(text, std::nullopt, plain);
      to_char_offsets(text, e.offsets);
      std::vector<std::uint32_t> offsets;
      for (const Offsets& o : e.offsets) offsets.insert(offsets.end(), {o.begin, o.end});
      const std::string where = fmt::format("{} line {} {}", name, n + 1, json(text).dump());
      if (e.ids != result[0].get<std::vector<std::int32_t>>())
        failures.push_back(where + fmt::format(": ids {} expected {}", json(e.ids).dump(), result[0].dump()));
      else if (offsets != result[1].get<std::vector<std::uint32_t>>())
        failures.push_back(where + fmt::format(": offsets {} expected {}", json(offsets).dump(), result[1].dump()));
    }
  }
  INFO(failures.size() << " mismatches over " << records << " records");
  for (const std::string& f : failures) MESSAGE(f);
  CHECK(records > 40000);
  CHECK(failures.empty());
}
