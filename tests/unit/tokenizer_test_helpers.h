#pragma once
// Helpers for the tokenizer tests: tokenizers over a made-up vocabulary or a real one from ../shared,
// and encodings rendered as short strings so a failing CHECK shows what differs.
#include "support.h"

#include "tokenizer/loader.h"
#include "tokenizer/tokenizer.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace bktest {

// vocab.txt text from a list of tokens (id = position).
inline std::string vocab_text(const std::vector<std::string>& tokens) {
  std::string text;
  for (const auto& t : tokens) text += t + "\n";
  return text;
}

// A tokenizer over a made-up vocabulary with BERT's defaults (the spec can be adjusted by `tweak`).
template <typename Tweak>
std::unique_ptr<bertkit::tok::Tokenizer> tokenizer_from_vocab(const std::vector<std::string>& tokens, Tweak tweak) {
  bertkit::tok::TokenizerFiles files;
  files.vocab_txt = vocab_text(tokens);
  files.origin = "test vocab";
  bertkit::tok::TokenizerSpec spec = bertkit::tok::build_tokenizer_spec(files);
  tweak(spec);
  return std::make_unique<bertkit::tok::Tokenizer>(std::move(spec));
}
inline std::unique_ptr<bertkit::tok::Tokenizer> tokenizer_from_vocab(const std::vector<std::string>& tokens) {
  return tokenizer_from_vocab(tokens, [](bertkit::tok::TokenizerSpec&) {});
}

// The fast tokenizer of ../shared/vocab/<model>/tokenizer.json (built once per model and profile).
BKTEST_NO_DANGLING inline const bertkit::tok::Tokenizer& shared_tokenizer(const std::string& model,
                                                       bertkit::tok::UnicodeProfile profile = bertkit::tok::UnicodeProfile::Rust) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<bertkit::tok::Tokenizer>> cache;
  auto& slot = cache[{model, static_cast<int>(profile)}];
  if (!slot) {
    auto spec = bertkit::tok::build_tokenizer_spec(bertkit::tok::read_tokenizer_files(shared("vocab/" + model + "/tokenizer.json")));
    spec.profile = profile;
    slot = std::make_unique<bertkit::tok::Tokenizer>(std::move(spec));
  }
  return *slot;
}

// "[CLS] hello [SEP]"
inline std::string tokens_str(const bertkit::tok::Encoding& e, const bertkit::tok::Tokenizer& tok) {
  std::string s;
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    if (i) s += ' ';
    s += tok.token(e.ids[i]);
  }
  return s;
}

template <typename T>
std::string join(const std::vector<T>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{}", i ? " " : "", static_cast<long long>(v[i]));
  return s;
}

// "0:0 0:5 5:6 0:0", in code points of the text each token came from (a, or b for the second sequence).
inline std::string char_offsets_str(const bertkit::tok::Encoding& e, std::string_view a, std::string_view b = {}) {
  std::vector<bertkit::tok::Offsets> first, second;
  for (std::size_t i = 0; i < e.offsets.size(); ++i) (e.sequence[i] == 1 ? second : first).push_back(e.offsets[i]);
  bertkit::tok::to_char_offsets(a, first);
  bertkit::tok::to_char_offsets(b, second);
  std::string s;
  std::size_t fi = 0, si = 0;
  for (std::size_t i = 0; i < e.offsets.size(); ++i) {
    const auto& o = e.sequence[i] == 1 ? second[si++] : first[fi++];
    s += fmt::format("{}{}:{}", i ? " " : "", o.begin, o.end);
  }
  return s;
}

// Byte offsets as they are stored.
inline std::string byte_offsets_str(const bertkit::tok::Encoding& e) {
  std::string s;
  for (std::size_t i = 0; i < e.offsets.size(); ++i) s += fmt::format("{}{}:{}", i ? " " : "", e.offsets[i].begin, e.offsets[i].end);
  return s;
}

}  // namespace bktest
