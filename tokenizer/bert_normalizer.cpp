#include "tokenizer/bert_normalizer.h"

namespace bertkit::tok {

using namespace charflag;

BertNormalizer::BertNormalizer(NormalizerOptions options, UnicodeProfile profile)
    : options_(options), strip_(options.strips_accents()), table_(CharTable::get(profile)) {
  transform_mask_ = 0;
  if (options_.clean_text) transform_mask_ |= kDelete | kCleanSpace;
  if (options_.handle_chinese_chars) transform_mask_ |= kChinese;
  if (strip_) transform_mask_ |= kAccent;
  if (options_.lowercase) transform_mask_ |= kLowerChange;
  for (unsigned c = 0; c < 128; ++c) {
    std::uint8_t f = table_.flags(c) & transform_mask_;
    ascii_map_[c] = (f & kDelete)        ? kDropped
                    : (f & kCleanSpace)  ? ' '
                    : (f & kLowerChange) ? static_cast<unsigned char>(c + 32)
                                         : static_cast<unsigned char>(c);
  }
}

void BertNormalizer::push_transformed(char32_t c, std::uint32_t b, std::uint32_t e, NormalizedText& out) const {
  // Every character that c turns into keeps c's original span, as Hugging Face's alignments do.
  std::u32string decomposed;
  if (strip_ && (table_.flags(c) & kAccent)) {
    std::u32string nfd;
    table_.decompose(c, nfd);
    for (char32_t d : nfd)
      if (!(table_.flags(d) & kMn)) decomposed.push_back(d);
  } else {
    decomposed.push_back(c);
  }
  for (char32_t d : decomposed) {
    if (options_.lowercase && (table_.flags(d) & kLowerChange)) {
      std::u32string lowered;
      table_.lower(d, lowered);
      for (char32_t l : lowered) out.push(l, b, e);
    } else {
      out.push(d, b, e);
    }
  }
}

void BertNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  std::size_t i = 0;
  const std::size_t n = original.size();
  while (i < n) {
    if (static_cast<unsigned char>(original[i]) < 0x80) {
      // A run of ASCII: one table lookup and three stores per byte.
      std::size_t run = i;
      while (run < n && static_cast<unsigned char>(original[run]) < 0x80) ++run;
      std::size_t at = out.text.size();
      out.text.resize(at + (run - i));
      out.begin.resize(at + (run - i));
      out.end.resize(at + (run - i));
      char* text = out.text.data() + at;
      std::uint32_t* begin = out.begin.data() + at;
      std::uint32_t* end = out.end.data() + at;
      std::size_t k = 0;
      for (; i < run; ++i) {
        unsigned char mapped = ascii_map_[static_cast<unsigned char>(original[i])];
        if (mapped == kDropped) continue;
        auto b = base + static_cast<std::uint32_t>(i);
        text[k] = static_cast<char>(mapped);
        begin[k] = b;
        end[k] = b + 1;
        ++k;
      }
      out.text.resize(at + k);
      out.begin.resize(at + k);
      out.end.resize(at + k);
      continue;
    }
    auto b = base + static_cast<std::uint32_t>(i);
    char32_t c = next_code_point(original, i);
    auto e = base + static_cast<std::uint32_t>(i);
    std::uint8_t f = table_.flags(c) & transform_mask_;
    if (f == 0) {
      out.push(c, b, e);
    } else if (f & kDelete) {
    } else if (f & kCleanSpace) {
      out.push_ascii(' ', b, e);
    } else if (f & kChinese) {
      out.push_ascii(' ', b, e);
      push_transformed(c, b, e, out);
      out.push_ascii(' ', b, e);
    } else {
      push_transformed(c, b, e, out);
    }
  }
}

}  // namespace bertkit::tok
