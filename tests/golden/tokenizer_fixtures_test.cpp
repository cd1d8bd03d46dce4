// The tokenizer of every model fixture under ../shared/fixtures/models, loaded from the folder as a user
// would point at it (tokenizer.json + tokenizer_config.json + special_tokens_map.json), against the
// goldens of transformers' slow tokenizers (input_ids, --compat python) and of the Rust fast tokenizer
// (fast_input_ids where they differ, the newformat folder, the QA pipeline's fast windows).
#include "golden/char_offsets.h"
#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>

using bertkit::tok::Encoding;
using bertkit::tok::Tokenizer;
using bertkit::tok::UnicodeProfile;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::unique_ptr<Tokenizer> load(const fs::path& folder, UnicodeProfile profile) {
  auto spec = bertkit::tok::build_tokenizer_spec(bertkit::tok::read_tokenizer_files(folder));
  spec.profile = profile;
  return std::make_unique<Tokenizer>(std::move(spec));
}

std::vector<fs::path> tokenizer_fixture_folders() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(bktest::shared("fixtures/models")))
    if (fs::exists(entry.path() / "goldens.json")) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string show(const std::vector<int>& v) { return fmt::format("[{}]", fmt::join(v, " ")); }

template <typename T>
std::vector<int> ints(const std::vector<T>& v) {
  return std::vector<int>(v.begin(), v.end());
}

Encoding encode_case(const Tokenizer& tok, const json& c, std::size_t max_length) {
  bertkit::tok::EncodeOptions o;
  o.truncation = bertkit::tok::TruncationParams{max_length};
  std::string a = c["text"].get<std::string>();
  std::optional<std::string> b;
  if (c.contains("text_pair") && !c["text_pair"].is_null()) b = c["text_pair"].get<std::string>();
  std::optional<std::string_view> bv;
  if (b) bv = *b;
  return tok.encode(a, bv, o);
}

}  // namespace

TEST_CASE("fixture tokenizers: every case, fast and --compat python, ids, type ids and decoded text") {
  std::size_t cases = 0;
  for (const fs::path& folder : tokenizer_fixture_folders()) {
    const std::string name = folder.filename().string();
    json g = bktest::read_json(folder / "goldens.json");
    const auto max_length = g["encode"]["max_length"].get<std::size_t>();
    auto fast = load(folder, UnicodeProfile::Rust);
    auto python = load(folder, UnicodeProfile::Python);
    // transformers 4.33 decoded these with the slow tokenizer, except in the newformat folder, whose
    // goldens are all the fast tokenizer's (the Rust decoder, then clean_up_tokenization).
    const bool fast_goldens = !g["cases"].empty() && g.contains("newformat_notes");
    for (const json& c : g["cases"]) {
      ++cases;
      INFO(name << " " << c["id"].get<std::string>() << ": " << c["text"].get<std::string>());
      const json& want_fast = c.contains("fast_input_ids") ? c["fast_input_ids"] : c["input_ids"];
      Encoding e = encode_case(*fast, c, max_length);
      CHECK(show(e.ids) == show(want_fast.get<std::vector<int>>()));
      if (c.contains("token_type_ids")) {
        const json& want_types = c.contains("fast_token_type_ids") ? c["fast_token_type_ids"] : c["token_type_ids"];
        CHECK(show(ints(e.type_ids)) == show(want_types.get<std::vector<int>>()));
      }
      CHECK(show(ints(e.attention_mask)) == show(c["attention_mask"].get<std::vector<int>>()));

      Encoding p = encode_case(*python, c, max_length);
      CHECK(show(p.ids) == show(c["input_ids"].get<std::vector<int>>()));
      if (c.contains("token_type_ids"))
        CHECK(show(ints(p.type_ids)) == show(c["token_type_ids"].get<std::vector<int>>()));

      const auto ids = c["input_ids"].get<std::vector<std::int32_t>>();
      const Tokenizer& decoder = fast_goldens ? *fast : *python;
      CHECK(decoder.decode(ids, true) == c["decoded"].get<std::string>());
    }
  }
  CHECK(cases > 150);
}

TEST_CASE("fixture tokenizers: the newformat folder's added special token [unused0]") {
  const fs::path folder = bktest::shared("fixtures/models/bert-uncased-mlm-newformat");
  auto tok = load(folder, UnicodeProfile::Rust);
  auto unused0 = tok->token_id("[unused0]");
  REQUIRE(unused0);
  CHECK(tok->is_special_id(*unused0));
  json g = bktest::read_json(folder / "goldens.json");
  std::size_t added = 0;
  for (const json& c : g["cases"]) {
    if (c["id"].get<std::string>().rfind("added-", 0) != 0) continue;
    ++added;
    INFO(c["text"].get<std::string>());
    Encoding e = encode_case(*tok, c, g["encode"]["max_length"].get<std::size_t>());
    CHECK(show(e.ids) == show(c["input_ids"].get<std::vector<int>>()));
    // The added token is matched in the raw text only where it is written exactly.
    const std::string text = c["text"].get<std::string>();
    std::size_t occurrences = 0;
    for (std::size_t pos = text.find("[unused0]"); pos != std::string::npos; pos = text.find("[unused0]", pos + 1)) ++occurrences;
    CHECK(static_cast<std::size_t>(std::count(e.ids.begin(), e.ids.end(), *unused0)) == occurrences);
  }
  CHECK(added == 4);
}

TEST_CASE("fixture tokenizers: the QA pipeline's fast windows (only_second, stride = doc_stride)") {
  std::size_t records = 0, windows = 0;
  for (const fs::path& folder : tokenizer_fixture_folders()) {
    json g = bktest::read_json(folder / "goldens.json");
    if (!g.contains("pipelines_fast")) continue;
    auto tok = load(folder, UnicodeProfile::Rust);
    for (const json& r : g["pipelines_fast"]) {
      ++records;
      const std::string question = r["input"]["question"].get<std::string>();
      const std::string context = r["input"]["context"].get<std::string>();
      INFO(folder.filename().string() << " " << r["tag"].get<std::string>() << ": " << question);
      bertkit::tok::EncodeOptions o;
      o.truncation = bertkit::tok::TruncationParams{r["call"]["max_seq_len"].get<std::size_t>(),
                                                    bertkit::tok::TruncationStrategy::OnlySecond,
                                                    r["call"]["doc_stride"].get<std::size_t>()};
      Encoding e = tok->encode(question, std::string_view(context), o);
      std::vector<const Encoding*> got{&e};
      for (const Encoding& w : e.overflowing) got.push_back(&w);
      const json& want = r["windows"];
      REQUIRE(got.size() == want.size());
      // [CLS] question [SEP] is type 0, the rest type 1, in every window.
      const auto first_types = want[0]["token_type_ids"].get<std::vector<int>>();
      const auto question_part = static_cast<std::size_t>(std::count(first_types.begin(), first_types.end(), 0));
      for (std::size_t k = 0; k < got.size(); ++k) {
        ++windows;
        INFO("window " << k);
        CHECK(show(got[k]->ids) == show(want[k]["input_ids"].get<std::vector<int>>()));
        if (k == 0) {
          CHECK(show(ints(got[k]->type_ids)) == show(first_types));
        } else {
          // The goldens' later windows give the context type 0 (only the final [SEP] 1): the old
          // behaviour of tokenizers' template on overflowing encodings. Their README says 1, and the
          // library they name (npm tokenizers 0.23.2) gives 1, as bertkit does.
          std::vector<int> expected(got[k]->size(), 1);
          std::fill_n(expected.begin(), std::min(question_part, expected.size()), 0);
          CHECK(show(ints(got[k]->type_ids)) == show(expected));
        }
        CHECK(bktest::char_offsets(*got[k], question, context) == want[k]["offsets"].get<std::vector<std::vector<std::uint32_t>>>());
        std::vector<int> words;
        for (const json& w : want[k]["word_ids"]) words.push_back(w.is_null() ? -1 : w.get<int>());
        CHECK(show(got[k]->words) == show(words));
      }
    }
  }
  CHECK(records > 20);
  CHECK(windows > records);
}
