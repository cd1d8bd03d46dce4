#include "tokenizer/precompiled_charsmap.h"

#include "core/error.h"
#include "tokenizer/utf8.h"


namespace bertkit::tok {

namespace {

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// darts-clone's unit layout: the label a unit is reached by, whether a leaf hangs below it, and the
// offset (XORed into the position) to its children.
std::uint32_t unit_label(std::uint32_t unit) { return unit & ((1u << 31) | 0xFFu); }
bool unit_has_leaf(std::uint32_t unit) { return (unit >> 8) & 1u; }
std::uint32_t unit_value(std::uint32_t unit) { return unit & ((1u << 31) - 1); }
std::uint32_t unit_offset(std::uint32_t unit) { return (unit >> 10) << ((unit & (1u << 9)) >> 6); }

}  // namespace

PrecompiledCharsmap PrecompiledCharsmap::from_base64(std::string_view base64, const std::string& where) {
  std::string bytes;
  bytes.reserve(base64.size() / 4 * 3);
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t i = 0;
  for (; i < base64.size() && base64[i] != '='; ++i) {
    const int d = base64_digit(base64[i]);
    if (d < 0) bad_input("{}: precompiled_charsmap is not base64 (byte {})", where, i);
    acc = (acc << 6) | static_cast<std::uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  for (; i < base64.size(); ++i)
    if (base64[i] != '=') bad_input("{}: precompiled_charsmap is not base64 (byte {})", where, i);
  return from_bytes(bytes, where);
}

PrecompiledCharsmap PrecompiledCharsmap::from_bytes(std::string_view bytes, const std::string& where) {
  if (bytes.size() < 4) bad_input("{}: precompiled_charsmap is too short ({} bytes)", where, bytes.size());
  std::uint32_t trie_bytes = 0;
  for (int k = 3; k >= 0; --k) trie_bytes = (trie_bytes << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(k)]);
  if (trie_bytes % 4 != 0 || trie_bytes > bytes.size() - 4)
    bad_input("{}: precompiled_charsmap's trie size {} does not fit its {} bytes", where, trie_bytes, bytes.size());
  PrecompiledCharsmap map;
  map.units_.resize(trie_bytes / 4);
  for (std::size_t u = 0; u < map.units_.size(); ++u) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data()) + 4 + 4 * u;
    map.units_[u] = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
  }
  map.normalized_ = std::string(bytes.substr(4 + trie_bytes));
  if (valid_utf8_prefix(map.normalized_) != map.normalized_.size())
    bad_input("{}: precompiled_charsmap's replacement strings are not valid UTF-8", where);
  return map;
}

std::optional<std::string_view> PrecompiledCharsmap::replacement_at(std::size_t node) const {
  if (node >= units_.size()) return std::nullopt;
  const std::size_t start = unit_value(units_[node]);
  if (start >= normalized_.size()) return std::nullopt;
  const std::size_t end = normalized_.find('\0', start);
  std::string_view replacement(normalized_.data() + start, (end == std::string::npos ? normalized_.size() : end) - start);
  // An offset into the middle of a character would hand on broken UTF-8.
  if ((static_cast<unsigned char>(replacement.empty() ? 'a' : replacement[0]) & 0xC0) == 0x80) return std::nullopt;
  return replacement;
}

template <typename OnMatch>
void PrecompiledCharsmap::for_each_match(std::string_view text, OnMatch&& on_match) const {
  if (units_.empty()) return;
  std::size_t node = unit_offset(units_[0]);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0) return;
    node ^= c;
    if (node >= units_.size()) return;
    const std::uint32_t unit = units_[node];
    if (unit_label(unit) != c) return;
    node ^= unit_offset(unit);
    if (!unit_has_leaf(unit)) continue;
    if (!on_match(i + 1, replacement_at(node))) return;
  }
}

std::optional<std::string_view> PrecompiledCharsmap::transform(std::string_view chunk) const {
  std::optional<std::string_view> out;
  // The first key found decides, even one whose replacement is unreadable (no match then).
  for_each_match(chunk, [&](std::size_t, std::optional<std::string_view> replacement) {
    out = replacement;
    return false;
  });
  return out;
}

std::optional<PrecompiledCharsmap::Match> PrecompiledCharsmap::longest_prefix(std::string_view text) const {
  std::optional<Match> out;
  for_each_match(text, [&](std::size_t length, std::optional<std::string_view> replacement) {
    if (replacement) out = Match{*replacement, length};
    return true;
  });
  return out;
}

}  // namespace bertkit::tok
