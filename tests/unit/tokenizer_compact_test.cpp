// Converted files carry tokenizer.json with its vocabulary moved into vocab.txt: the tokenizer built from
// the compacted files encodes and decodes every corpus line exactly as the one from the model's own files,
// for every fixture with a tokenizer.json; vocabularies that lines cannot hold stay as they are.
#include "support.h"
#include "tokenizer/loader.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using bertkit::tok::build_tokenizer_spec;
using bertkit::tok::compact_tokenizer_files;
using bertkit::tok::Tokenizer;
using bertkit::tok::TokenizerFiles;

TEST_CASE("compacted tokenizer files: tokenizer.json's vocabulary in vocab.txt, the same tokens for every text") {
  std::vector<std::string> texts;
  for (const char* corpus : {"corpora/en_agnews.txt", "corpora/udhr.txt", "corpora/blns.txt", "corpora/man_ja.txt"}) {
    auto lines = bktest::read_lines(bktest::shared(corpus));
    texts.insert(texts.end(), lines.begin(), lines.begin() + std::min<std::size_t>(lines.size(), 150));
  }
  int models = 0;
  for (const auto& entry : std::filesystem::directory_iterator(bktest::shared("fixtures/models"))) {
    if (!std::filesystem::exists(entry.path() / "tokenizer.json")) continue;
    const TokenizerFiles files = bertkit::tok::read_tokenizer_files(entry.path());
    const TokenizerFiles compact = compact_tokenizer_files(files);
    const std::string where = entry.path().string();
    REQUIRE_MESSAGE(compact.vocab_txt.has_value(), where);
    CHECK_MESSAGE(!nlohmann::json::parse(*compact.tokenizer_json)["model"].contains("vocab"), where);
    CHECK(compact.tokenizer_json->size() * 20 < files.tokenizer_json->size());
    const Tokenizer original(build_tokenizer_spec(files)), compacted(build_tokenizer_spec(compact));
    REQUIRE(compacted.vocab_size() == original.vocab_size());
    // One assertion for the whole vocabulary: one per token costs minutes under the sanitizers.
    std::vector<std::string_view> original_tokens, compacted_tokens;
    for (std::int32_t id = 0; id < static_cast<std::int32_t>(original.vocab_size()); ++id) {
      original_tokens.push_back(original.token(id));
      compacted_tokens.push_back(compacted.token(id));
    }
    CHECK_MESSAGE(compacted_tokens == original_tokens, where);
    CHECK(compacted.pad_id() == original.pad_id());
    CHECK(compacted.mask_id() == original.mask_id());
    bertkit::tok::EncodeOptions options;
    for (const std::string& text : texts) {
      auto a = original.encode(text, std::nullopt, options), b = compacted.encode(text, std::nullopt, options);
      REQUIRE_MESSAGE(a.ids == b.ids, where);
      CHECK(a.offsets == b.offsets);
      CHECK(original.decode(a.ids, true) == compacted.decode(b.ids, true));
    }
    ++models;
  }
  CHECK(models >= 5);
}

TEST_CASE("compacted tokenizer files: left as they are when vocab.txt cannot hold the vocabulary") {
  auto files_with = [](const std::string& vocab) {
    TokenizerFiles f;
    f.origin = "m";
    f.tokenizer_json = R"({"model": {"type": "WordPiece", "vocab": )" + vocab + "}}";
    return f;
  };
  for (const char* vocab : {R"({"[UNK]": 0, "a\nb": 1})", R"({"[UNK]": 0, "b": 2})", R"({"[UNK]": 0, "": 1})",
                            R"({"[UNK]": 1, "b": 1})", R"({"\ufeffx": 0, "[UNK]": 1})"}) {
    const TokenizerFiles f = files_with(vocab);
    const TokenizerFiles compact = compact_tokenizer_files(f);
    CHECK_MESSAGE(compact.tokenizer_json == f.tokenizer_json, vocab);
    CHECK_FALSE(compact.vocab_txt.has_value());
  }
  const TokenizerFiles compact = compact_tokenizer_files(files_with(R"({"b": 1, "[UNK]": 0, "##c": 2})"));
  CHECK(compact.vocab_txt == "[UNK]\nb\n##c\n");
  TokenizerFiles no_json;
  no_json.vocab_txt = "[UNK]\n";
  CHECK(compact_tokenizer_files(no_json).vocab_txt == no_json.vocab_txt);
}
