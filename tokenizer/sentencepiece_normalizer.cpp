#include "tokenizer/sentencepiece_normalizer.h"

#include "tokenizer/sentencepiece_model.h"

namespace bertkit::tok {

SentencePieceNormalizer::Step SentencePieceNormalizer::prefix(std::string_view text) const {
  if (rules_.user_defined) {
    const PrefixTrie::Match m = rules_.user_defined->longest_prefix(text);
    if (m.length > 0) return {text.substr(0, m.length), m.length};
  }
  if (rules_.charsmap)
    if (auto m = rules_.charsmap->longest_prefix(text)) return {m->replacement, m->length};
  std::size_t end = 0;
  next_code_point(text, end);
  return {text.substr(0, end), end};
}

void SentencePieceNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  const std::size_t start = out.text.size();
  std::size_t pos = 0;
  if (rules_.remove_extra_whitespaces) {
    while (pos < original.size()) {
      const Step s = prefix(original.substr(pos));
      if (s.replacement != " ") break;
      pos += s.consumed;
    }
  }
  if (pos == original.size()) return;
  const auto at = [&](std::size_t p) { return base + static_cast<std::uint32_t>(p); };
  if (rules_.add_dummy_prefix) out.append_aligned(kSentencePieceSpace, at(pos), at(pos));
  bool prev_space = rules_.remove_extra_whitespaces;
  while (pos < original.size()) {
    const Step s = prefix(original.substr(pos));
    std::string_view piece = s.replacement;
    if (prev_space)
      while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
    if (!piece.empty()) {
      for (std::size_t from = 0; from < piece.size();) {
        std::size_t to = piece.find(' ', from);
        if (to == std::string_view::npos || !rules_.escape_whitespaces) to = piece.size();
        out.append_aligned(piece.substr(from, to - from), at(pos), at(pos + s.consumed));
        if (to < piece.size()) out.append_aligned(kSentencePieceSpace, at(pos), at(pos + s.consumed));
        from = to + (to < piece.size() ? 1 : 0);
      }
      prev_space = piece.back() == ' ';
    }
    pos += s.consumed;
    if (!rules_.remove_extra_whitespaces) prev_space = false;
  }
  if (rules_.remove_extra_whitespaces) {
    const std::string_view space = rules_.escape_whitespaces ? kSentencePieceSpace : " ";
    while (out.text.size() >= start + space.size() && std::string_view(out.text).substr(out.text.size() - space.size()) == space)
      out.truncate(out.text.size() - space.size());
  }
}

}  // namespace bertkit::tok
