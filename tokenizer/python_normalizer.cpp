#include "tokenizer/python_normalizer.h"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>

namespace bertkit::tok {

using namespace charflag;

namespace {

NormalizerOptions strip_only(const NormalizerOptions& o) {
  NormalizerOptions s;
  s.clean_text = false;
  s.handle_chinese_chars = false;
  s.lowercase = false;
  s.strip_accents = o.strips_accents();
  return s;
}

// A composition can join a character to what precedes it only if it is a non-starter or can be the
// second half of a canonical pair; NFC may run on the pieces between the other characters separately.
bool starts_nfc_cluster(char32_t c) {
  if (c < 0x80) return true;
  const utf8proc_property_t* p = utf8proc_get_property(static_cast<utf8proc_int32_t>(c));
  bool hangul_jamo_tail = (c >= 0x1161 && c <= 0x1175) || (c >= 0x11A8 && c <= 0x11C2);
  bool can_be_second = p->comb_index != 0xFFFF && p->comb_index >= 0x8000;  // utf8proc 2.8 encoding
  return p->combining_class == 0 && !can_be_second && !hangul_jamo_tail;
}

}  // namespace

PythonBertNormalizer::PythonBertNormalizer(NormalizerOptions options)
    : options_(options),
      table_(CharTable::get(UnicodeProfile::Python)),
      strip_(strip_only(options), UnicodeProfile::Python) {}

void PythonBertNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  // 1. lower-case each character on its own (transformers lower-cases the text one character at a time
  //    before splitting off special tokens, so Greek final sigma never applies), clean, space CJK.
  NormalizedText cleaned;
  std::u32string lowered;
  std::size_t i = 0;
  while (i < original.size()) {
    auto b = base + static_cast<std::uint32_t>(i);
    char32_t c = next_code_point(original, i);
    auto e = base + static_cast<std::uint32_t>(i);
    lowered.clear();
    if (options_.lowercase && c != '\n' && (table_.flags(c) & kLowerChange))
      table_.lower(c, lowered);
    else
      lowered.push_back(c);
    for (char32_t l : lowered) {
      std::uint8_t f = table_.flags(l);
      if (options_.clean_text && (f & kDelete)) continue;
      if (options_.clean_text && (f & kCleanSpace)) {
        cleaned.push_ascii(' ', b, e);
      } else if (options_.handle_chinese_chars && (f & kChinese)) {
        cleaned.push_ascii(' ', b, e);
        cleaned.push(l, b, e);
        cleaned.push_ascii(' ', b, e);
      } else {
        cleaned.push(l, b, e);
      }
    }
  }
  // 2. NFC, 3. strip accents (NFD, drop Mn) when lower-casing or asked to.
  if (!options_.strips_accents()) {
    compose(cleaned, out);
    return;
  }
  NormalizedText composed;
  compose(cleaned, composed);
  std::size_t k = 0;
  while (k < composed.text.size()) {
    std::size_t start = k;
    next_code_point(composed.text, k);
    std::size_t before = out.text.size();
    strip_.normalize(std::string_view(composed.text).substr(start, k - start), 0, out);
    out.realign(before, composed.begin_of(start), composed.end_of(k - 1));
  }
}

void PythonBertNormalizer::compose(const NormalizedText& in, NormalizedText& out) const {
  std::string_view text = in.text;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t start = i;
    next_code_point(text, i);
    while (i < text.size()) {
      std::size_t k = i;
      if (starts_nfc_cluster(next_code_point(text, k))) break;
      i = k;
    }
    std::string_view cluster = text.substr(start, i - start);
    if (cluster.size() == 1) {
      out.push_ascii(cluster[0], in.begin_of(start), in.end_of(start));
      continue;
    }
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> nfc(
        utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(std::string(cluster).c_str())), &std::free);
    std::string_view composed = nfc ? reinterpret_cast<const char*>(nfc.get()) : cluster;
    if (composed == cluster) {
      out.append_from(in, start, i);
    } else {
      // The composed characters stand for the whole cluster.
      out.append_aligned(composed, in.begin_of(start), in.end_of(i - 1));
    }
  }
}

}  // namespace bertkit::tok
