#include "variant_goldens.h"

#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <memory>

namespace bktest {

using namespace bertkit::tok;
using nlohmann::json;

void check_variant_goldens(const std::string& goldens, const std::string& base_tokenizer_json, std::size_t min_records) {
  const auto lines = read_lines(goldens);
  REQUIRE(lines.size() > 1);
  const json head = json::parse(lines[0]);
  std::ifstream in(base_tokenizer_json);
  json base = json::parse(in);
  base["truncation"] = nullptr;
  base["padding"] = nullptr;
  for (const auto& [key, value] : head["common"].items()) base[key] = value;
  std::map<std::string, std::unique_ptr<Tokenizer>> tokenizers;
  for (const auto& [name, keys] : head["variants"].items()) {
    json j = base;
    for (const auto& [key, value] : keys.items()) j[key] = value;
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
    if (n % kSweepStride != 0) continue;
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
  CHECK(records >= min_records / kSweepStride);
  CHECK(failures.empty());
}

}  // namespace bktest
