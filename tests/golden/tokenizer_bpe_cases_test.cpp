// Byte-level BPE (RoBERTa) beyond the shared corpora: <mask> with lstrip after various spaces,
// add_prefix_space on the pre-tokenizer and RobertaProcessing, pairs and decoding, against what the Rust
// tokenizer gives (tests/golden/data/roberta_cases.jsonl, made by make_roberta_cases.mjs there); and the
// cardiffnlp folder (vocab.json, merges.txt, special_tokens_map.json, no tokenizer.json) against the
// fast tokenizer transformers builds from it (../shared/fixtures/models2/roberta-cls/goldens.json).
#include "golden/char_offsets.h"
#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using bertkit::tok::Encoding;
using bertkit::tok::Tokenizer;
using nlohmann::json;

namespace {

std::unique_ptr<Tokenizer> roberta(bool add_prefix_space) {
  json j = json::parse(bktest::read_file(bktest::shared("vocab/roberta-base/tokenizer.json")));
  j["pre_tokenizer"]["add_prefix_space"] = add_prefix_space;
  j["post_processor"]["add_prefix_space"] = add_prefix_space;
  bertkit::tok::TokenizerFiles files;
  files.origin = "roberta-base";
  files.tokenizer_json = j.dump();
  return std::make_unique<Tokenizer>(bertkit::tok::build_tokenizer_spec(files));
}

}  // namespace

TEST_CASE("byte-level BPE: <mask>, add_prefix_space, pairs and decoding as the Rust tokenizer gives them") {
  const auto plain = roberta(false), prefixed = roberta(true);
  const auto lines = bktest::read_lines(std::string(BERTKIT_SOURCE_DIR) + "/tests/golden/data/roberta_cases.jsonl");
  REQUIRE(lines.size() > 30);
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    const json rec = json::parse(line);
    if (rec.contains("decode")) {
      const auto ids = rec["decode"].get<std::vector<std::int32_t>>();
      std::vector<std::string> tokens;
      for (std::int32_t id : ids)
        if (!plain->is_special_id(id)) tokens.emplace_back(plain->token(id));
      CHECK(plain->tokens_to_string(tokens) == rec["text"].get<std::string>());
      continue;
    }
    const Tokenizer& tok = rec["variant"] == "prefix" ? *prefixed : *plain;
    const bool pair = rec.contains("text_a");
    const std::string a = pair ? rec["text_a"].get<std::string>() : rec["text"].get<std::string>();
    const std::string b = pair ? rec["text_b"].get<std::string>() : "";
    INFO(rec["variant"].get<std::string>() << ": '" << a << "' '" << b << "'");
    const Encoding e = tok.encode(a, pair ? std::optional<std::string_view>(b) : std::nullopt, {});
    CHECK(e.ids == rec["ids"].get<std::vector<std::int32_t>>());
    CHECK(bktest::char_offsets(e, a, b) == rec["offsets"].get<std::vector<std::vector<std::uint32_t>>>());
  }
}

TEST_CASE("byte-level BPE: a folder of vocab.json + merges.txt + special_tokens_map.json (cardiffnlp layout)") {
  const auto dir = bktest::shared("fixtures/models2/roberta-cls");
  const auto tok = std::make_unique<Tokenizer>(bertkit::tok::build_tokenizer_spec(bertkit::tok::read_tokenizer_files(dir)));
  const json goldens = bktest::read_json(dir / "goldens.json");
  const auto max_length = goldens["encode"]["max_length"].get<std::size_t>();
  std::size_t cases = 0;
  for (const json& c : goldens["cases"]) {
    INFO(c["id"].get<std::string>());
    const std::string a = c["text"].get<std::string>();
    const std::string b = c.value("text_pair", "");
    bertkit::tok::EncodeOptions options;
    options.truncation = bertkit::tok::TruncationParams{max_length};
    const Encoding e = tok->encode(a, c.contains("text_pair") ? std::optional<std::string_view>(b) : std::nullopt, options);
    // The fast tokenizer's ids where the slow one differs.
    const json& ids = c.contains("fast_input_ids") ? c["fast_input_ids"] : c["input_ids"];
    CHECK(e.ids == ids.get<std::vector<std::int32_t>>());
    if (!c.contains("fast_input_ids")) CHECK(tok->decode(e.ids, true) == c["decoded"].get<std::string>());
    ++cases;
  }
  CHECK(cases > 20);
  CHECK(tok->pad_id() == 1);
  CHECK(tok->mask_id() == 50264);
}
