#include "tokenizer/added_vocabulary.h"

#include "tokenizer/unicode.h"
#include "tokenizer/unicode_category.h"
#include "tokenizer/utf8.h"


#include <algorithm>
#include <cstring>

namespace bertkit::tok {

namespace {

// The Rust library's regex \w (Unicode, UTS #18): Alphabetic, marks, decimal digits, connector
// punctuation and the joiners. So a combining mark or "Ⓐ" touches a word, "²" or "½" does not.
bool is_word_char(char32_t c) {
  if (c == 0x200C || c == 0x200D) return true;  // Join_Control
  // The only Alphabetic code points outside L*, Nl and M*: circled and squared Latin letters (So).
  if ((c >= 0x24B6 && c <= 0x24E9) || (c >= 0x1F130 && c <= 0x1F149) || (c >= 0x1F150 && c <= 0x1F169) ||
      (c >= 0x1F170 && c <= 0x1F189))
    return true;
  auto cat = unicode_category(c);
  return (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_ME) || cat == UTF8PROC_CATEGORY_ND ||
         cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_PC;
}

// The code point that ends text[0, pos).
char32_t last_char_before(std::string_view text, std::size_t pos) {
  std::size_t i = pos;
  do --i;
  while (i > 0 && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80);
  return next_code_point(text, i);
}

}  // namespace

AddedVocabulary::AddedVocabulary(std::vector<AddedToken> tokens, std::vector<std::string> normalized_contents)
    : tokens_(std::move(tokens)) {
  for (auto& table : by_first_byte_) table.assign(256, {});
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    const AddedToken& t = tokens_[i];
    std::string pattern = t.normalized ? normalized_contents.at(i) : t.content;
    if (pattern.empty()) continue;
    starts_[t.normalized ? 1 : 0][static_cast<unsigned char>(pattern[0])] = true;
    auto& bucket = by_first_byte_[t.normalized ? 1 : 0][static_cast<unsigned char>(pattern[0])];
    bucket.push_back({std::move(pattern), static_cast<std::int32_t>(i)});
  }
  for (int kind = 0; kind < 2; ++kind) {
    int count = 0;
    for (int byte = 0; byte < 256; ++byte)
      if (starts_[kind][byte]) {
        ++count;
        only_start_[kind] = byte;
      }
    if (count != 1) only_start_[kind] = -1;
  }
  for (auto& table : by_first_byte_) {
    bool any = false;
    for (auto& bucket : table) {
      std::stable_sort(bucket.begin(), bucket.end(),
                       [](const Pattern& a, const Pattern& b) { return a.text.size() > b.text.size(); });
      any = any || !bucket.empty();
    }
    if (!any) table.clear();
  }
}

void AddedVocabulary::split(std::string_view text, std::uint32_t from, std::uint32_t to, bool normalized,
                            std::vector<Segment>& out) const {
  const auto& table = by_first_byte_[normalized ? 1 : 0];
  if (table.empty()) {
    if (from < to) out.push_back({from, to, -1});
    return;
  }
  std::uint32_t emitted = from;  // text before this is already in `out`
  std::uint32_t i = from;
  const bool* starts = starts_[normalized ? 1 : 0];
  const int only_start = only_start_[normalized ? 1 : 0];
  while (i < to) {
    if (only_start >= 0) {
      // One possible first byte (BERT's '['): let memchr find the candidates.
      const void* hit = std::memchr(text.data() + i, only_start, to - i);
      if (!hit) break;
      i = static_cast<std::uint32_t>(static_cast<const char*>(hit) - text.data());
    } else if (!starts[static_cast<unsigned char>(text[i])]) {
      ++i;
      continue;
    }
    const auto& bucket = table[static_cast<unsigned char>(text[i])];
    const Pattern* match = nullptr;
    for (const Pattern& p : bucket) {
      if (p.text.size() <= to - i && text.compare(i, p.text.size(), p.text) == 0) {
        match = &p;
        break;
      }
    }
    if (!match) {
      ++i;
      continue;
    }
    std::uint32_t start = i, stop = i + static_cast<std::uint32_t>(match->text.size());
    i = stop;
    const AddedToken& token = tokens_[static_cast<std::size_t>(match->token)];
    if (token.single_word) {
      bool word_before = start > from && is_word_char(last_char_before(text, start));
      std::size_t k = stop;
      bool word_after = stop < to && is_word_char(next_code_point(text, k));
      if (word_before || word_after) continue;
    }
    if (token.lstrip) {
      while (start > emitted && is_white_space(last_char_before(text, start))) {
        std::size_t k = start;
        do --k;
        while ((static_cast<unsigned char>(text[k]) & 0xC0) == 0x80);
        start = static_cast<std::uint32_t>(k);
      }
    }
    if (token.rstrip) {
      while (stop < to) {
        std::size_t k = stop;
        char32_t c = next_code_point(text, k);
        if (!is_white_space(c)) break;
        stop = static_cast<std::uint32_t>(k);
      }
      i = stop;
    }
    if (emitted < start) out.push_back({emitted, start, -1});
    out.push_back({start, stop, match->token});
    emitted = stop;
  }
  if (emitted < to) out.push_back({emitted, to, -1});
}

const AddedToken* AddedVocabulary::find_by_id(std::int32_t id) const {
  for (const auto& t : tokens_)
    if (t.id == id) return &t;
  return nullptr;
}

bool AddedVocabulary::is_special_id(std::int32_t id) const {
  const AddedToken* t = find_by_id(id);
  return t && t->special;
}

}  // namespace bertkit::tok
