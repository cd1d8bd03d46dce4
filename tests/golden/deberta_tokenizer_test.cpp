// The DeBERTa-v3 fixtures' tokenizer, read from spm.model in each of the three file layouts the Hub has
// (microsoft/deberta-v3-base's, protectai's transformers >= 4.34 layout, what save_pretrained writes in
// 4.33): every case's ids, pieces, type ids and decoded text, and the special tokens' ids, as the slow
// DebertaV2Tokenizer gave them (goldens.json).
#include "support.h"
#include "golden/token_strings.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

using bertkit::tok::Encoding;
using bertkit::tok::Tokenizer;
using nlohmann::json;

namespace {

std::unique_ptr<Tokenizer> folder_tokenizer(const std::string& folder) {
  const auto files = bertkit::tok::read_tokenizer_files(bktest::shared("fixtures/models3/" + folder));
  return std::make_unique<Tokenizer>(bertkit::tok::build_tokenizer_spec(files));
}

}  // namespace

TEST_CASE("deberta-v3 fixtures: spm.model in every layout gives the slow tokenizer's ids, pieces and decoding") {
  for (const char* folder : {"deberta-v3-nli", "deberta-v3-rerank", "deberta-v3-ner", "deberta-v3-mlm"}) {
    CAPTURE(folder);
    const json goldens = bktest::read_json(bktest::shared(std::string("fixtures/models3/") + folder + "/goldens.json"));
    const auto tok = folder_tokenizer(folder);
    for (const auto& item : goldens["encode"]["special_ids"].items()) {
      const std::string token = item.key();  // not a structured binding: CAPTURE's lambda captures it (clang)
      const json& id = item.value();
      CAPTURE(token);
      CHECK(tok->token_id(token) == id.get<std::int32_t>());
      CHECK(tok->is_special_id(id.get<std::int32_t>()));
    }
    CHECK(tok->mask_id() == goldens["encode"]["special_ids"]["[MASK]"].get<std::int32_t>());
    std::size_t cases = 0;
    for (const json& c : goldens["cases"]) {
      const std::string text = c["text"];
      CAPTURE(text);
      const std::string pair = c.value("text_pair", "");
      const Encoding e = tok->encode(text, c.contains("text_pair") ? std::optional<std::string_view>(pair) : std::nullopt, {});
      CHECK(e.ids == c["input_ids"].get<std::vector<std::int32_t>>());
      CHECK(bktest::token_strings(e, *tok) == c["tokens"].get<std::vector<std::string>>());
      CHECK(e.type_ids == c["token_type_ids"].get<std::vector<std::int32_t>>());
      CHECK(tok->decode(e.ids, true) == c["decoded"].get<std::string>());
      // bertkit gives offsets the slow tokenizer lacks: each inside the text its token came from.
      const std::size_t first_b = std::find(e.type_ids.begin(), e.type_ids.end(), 1) - e.type_ids.begin();
      for (std::size_t i = 0; i < e.offsets.size(); ++i)
        CHECK(e.offsets[i].end <= (i < first_b ? text.size() : pair.size()));
      ++cases;
    }
    CHECK(cases >= 10);
  }
}

TEST_CASE("deberta-v3 fixtures: what info says of the spm.model tokenizer") {
  const auto files = bertkit::tok::read_tokenizer_files(bktest::shared("vocab/deberta-v3-base"));
  const auto spec = bertkit::tok::build_tokenizer_spec(files);
  // [MASK] is added right after the pieces.
  const json goldens = bktest::read_json(bktest::shared("fixtures/models3/deberta-v3-rerank/goldens.json"));
  const int pieces = goldens["encode"]["special_ids"]["[MASK]"];
  CHECK(bertkit::tok::model_summary(spec) == fmt::format("Unigram (SentencePiece spm.model, {} pieces, byte fallback)", pieces));
  CHECK(bertkit::tok::normalizer_summary(spec) ==
        "SentencePiece(precompiled charsmap, remove_extra_whitespaces, add_dummy_prefix)");
}
