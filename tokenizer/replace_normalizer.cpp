#include "tokenizer/replace_normalizer.h"

#include "core/error.h"
#include "tokenizer/unicode.h"
#include "tokenizer/utf8.h"

#include <charconv>

namespace bertkit::tok {

namespace {

// A regex character that stands for itself, or "\x" for one escaped; its length in the pattern, 0 if
// it is neither.
std::size_t literal_char(std::string_view p, std::string& out) {
  if (p.empty()) return 0;
  if (p[0] == '\\') {
    if (p.size() < 2 || std::string_view("\\.^$|?*+()[]{} /-").find(p[1]) == std::string_view::npos) return 0;
    out = p.substr(1, 1);
    return 2;
  }
  if (std::string_view(".^$|?*+()[]{}").find(p[0]) != std::string_view::npos) return 0;
  std::size_t i = 0;
  next_code_point(p, i);
  out = p.substr(0, i);
  return i;
}

bool read_number(std::string_view s, std::uint32_t& value) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

ReplaceSpec read_replace_pattern(bool regex, const std::string& pattern, std::string content, const std::string& where) {
  ReplaceSpec spec;
  spec.content = std::move(content);
  if (valid_utf8_prefix(pattern) != pattern.size() || valid_utf8_prefix(spec.content) != spec.content.size())
    bad_input("{}: Replace normalizer's pattern or content is not valid UTF-8", where);
  if (!regex) {
    if (pattern.empty()) bad_input("{}: Replace normalizer with an empty pattern", where);
    spec.pattern = pattern;
    return spec;
  }
  std::string_view p = pattern;
  const std::size_t len = literal_char(p, spec.pattern);
  std::string_view quantifier = len ? p.substr(len) : std::string_view();
  bool ok = len > 0;
  spec.repeated = true;
  if (!ok) {
  } else if (quantifier.empty()) {
    spec.max_repeats = 1;
  } else if (quantifier == "+") {
  } else if (quantifier.size() >= 3 && quantifier.front() == '{' && quantifier.back() == '}') {
    std::string_view inner = quantifier.substr(1, quantifier.size() - 2);
    const std::size_t comma = inner.find(',');
    if (comma == std::string_view::npos) {
      ok = read_number(inner, spec.min_repeats);
      spec.max_repeats = spec.min_repeats;
    } else {
      ok = read_number(inner.substr(0, comma), spec.min_repeats) &&
           (comma + 1 == inner.size() || read_number(inner.substr(comma + 1), spec.max_repeats));
    }
    ok = ok && spec.min_repeats >= 1 && spec.min_repeats <= spec.max_repeats;
  } else {
    ok = false;
  }
  if (!ok)
    bad_input("{}: Replace normalizer regex '{}' is not supported (only one character repeated, as ' {{2,}}')", where,
              pattern);
  return spec;
}

namespace {

enum class Spaces { None, All, Some };

Spaces spaces_in(std::string_view s) {
  std::size_t white = 0, count = 0;
  for (std::size_t i = 0; i < s.size(); ++count) white += is_white_space(next_code_point(s, i));
  return white == 0 ? Spaces::None : white == count ? Spaces::All : Spaces::Some;
}

}  // namespace

bool ReplaceNormalizer::independent_across_spaces() const {
  // The content must keep a cut's two sides as they were, a visible character before white space, for
  // the steps after this one; an empty one would join the text around a match.
  const Spaces pattern = spaces_in(spec_.pattern), content = spaces_in(spec_.content);
  return !spec_.content.empty() && pattern != Spaces::Some && pattern == content;
}

std::size_t ReplaceNormalizer::match_end(std::string_view text, std::size_t at) const {
  const std::string_view p = spec_.pattern;
  if (!spec_.repeated) return text.substr(at).starts_with(p) ? at + p.size() : at;
  std::size_t end = at;
  std::uint32_t count = 0;
  while (count < spec_.max_repeats && text.substr(end).starts_with(p)) {
    end += p.size();
    ++count;
  }
  return count >= spec_.min_repeats ? end : at;
}

void ReplaceNormalizer::normalize(std::string_view original, std::uint32_t base, NormalizedText& out) const {
  const char first = spec_.pattern[0];
  std::size_t copied = 0;  // original[0, copied) is in `out`
  auto copy_to = [&](std::size_t to) {
    while (copied < to) {
      // ASCII one for one; other characters with their own span.
      const std::size_t ascii = ascii_prefix(original.substr(copied, to - copied));
      if (ascii) {
        char* dst = out.append_one_to_one(ascii, base + static_cast<std::uint32_t>(copied));
        for (std::size_t k = 0; k < ascii; ++k) dst[k] = original[copied + k];
        copied += ascii;
        continue;
      }
      const std::size_t b = copied;
      const char32_t c = next_code_point(original, copied);
      out.push(c, base + static_cast<std::uint32_t>(b), base + static_cast<std::uint32_t>(copied));
    }
  };
  std::size_t at = 0;
  while ((at = original.find(first, at)) != std::string_view::npos) {
    const std::size_t end = match_end(original, at);
    if (end == at) {
      ++at;
      continue;
    }
    copy_to(at);
    // The content is aligned to the last character matched.
    std::size_t last = end - 1;
    while (last > at && (static_cast<unsigned char>(original[last]) & 0xC0) == 0x80) --last;
    const auto b = base + static_cast<std::uint32_t>(last), e = base + static_cast<std::uint32_t>(end);
    for (std::size_t i = 0; i < spec_.content.size();) out.push(next_code_point(spec_.content, i), b, e);
    copied = at = end;
  }
  copy_to(original.size());
}

}  // namespace bertkit::tok
