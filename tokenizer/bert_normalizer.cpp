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
    auto byte = static_cast<unsigned char>(original[i]);
    auto b = base + static_cast<std::uint32_t>(i);
    if (byte < 0x80) {
      std::uint8_t f = table_.flags(byte) & transform_mask_;
      ++i;
      if (f == 0) {
        out.push_ascii(static_cast<char>(byte), b, b + 1);
      } else if (f & kDelete) {
      } else if (f & kCleanSpace) {
        out.push_ascii(' ', b, b + 1);
      } else {
        // ASCII only changes by lower-casing.
        out.push_ascii(static_cast<char>(byte + 32), b, b + 1);
      }
      continue;
    }
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
