#include "tokenizer/bert_normalizer.h"

#include "tokenizer/byte_vectors.h"

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
  upper_delta_ = static_cast<unsigned char>(ascii_map_[static_cast<unsigned char>('A')] - 'A');
  printable_simple_ = true;
  for (unsigned c = 0x20; c <= 0x7E; ++c) {
    unsigned delta = c >= 'A' && c <= 'Z' ? upper_delta_ : 0;
    printable_simple_ = printable_simple_ && ascii_map_[c] == c + delta;
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

namespace {
const ByteRange16 kPrintable(0x20, 0x7E), kUpper('A', 'Z');
}  // namespace

void BertNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  std::size_t i = 0;
  const std::size_t n = original.size();
  while (i < n) {
    if (static_cast<unsigned char>(original[i]) < 0x80) {
      // A run of ASCII maps byte for byte (sixteen printable bytes at a time, else through the table),
      // with no alignment to store; a byte that clean_text deletes (rare) sends the run down a
      // byte-at-a-time path that records the gap.
      const std::size_t run = i + ascii_prefix(original.substr(i));
      const std::size_t at = out.text.size();
      char* text = out.append_one_to_one(run - i, base + static_cast<std::uint32_t>(i));
      std::size_t k = i;
      if (printable_simple_) {
        for (; k + 16 <= run; k += 16) {
          const Bytes16 v = load16(original.data() + k);
          if (lane_bits(~in_range(v, kPrintable))) break;  // a control byte: the table below
          store16(text + (k - i), v + (in_range(v, kUpper) & upper_delta_));
        }
      }
      unsigned char high_bits = 0;  // kDropped is the only mapped value with the high bit set
      for (; k < run; ++k) {
        unsigned char mapped = ascii_map_[static_cast<unsigned char>(original[k])];
        text[k - i] = static_cast<char>(mapped);
        high_bits |= mapped;
      }
      if (high_bits & 0x80) {
        out.truncate(at);
        for (std::size_t j = i; j < run; ++j) {
          unsigned char mapped = ascii_map_[static_cast<unsigned char>(original[j])];
          auto b = base + static_cast<std::uint32_t>(j);
          if (mapped != kDropped) out.push_ascii(static_cast<char>(mapped), b, b + 1);
        }
      }
      i = run;
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
