#include "tokenizer/byte_level.h"

#include "tokenizer/unicode.h"
#include "tokenizer/unicode_category.h"
#include "tokenizer/utf8.h"


#include <algorithm>
#include <array>

namespace bertkit::tok {

namespace {

// GPT-2's bytes_to_unicode: printable Latin-1 bytes stand for themselves, the others (controls, space,
// soft hyphen...) for U+0100 on, in byte order.
constexpr std::array<char32_t, 256> make_byte_chars() {
  std::array<char32_t, 256> chars{};
  char32_t next = 0x100;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    chars[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
  }
  return chars;
}
constexpr std::array<char32_t, 256> kByteChars = make_byte_chars();

// The byte a character of the alphabet stands for, or -1 (the alphabet lies below U+0144).
int byte_of_char(char32_t c) {
  if (c < 0x100) {
    const bool printable = (c >= 0x21 && c <= 0x7E) || (c >= 0xA1 && c <= 0xAC) || (c >= 0xAE && c <= 0xFF);
    return printable ? static_cast<int>(c) : -1;
  }
  if (c >= 0x100 + 68) return -1;
  for (int b = 0; b < 256; ++b)
    if (kByteChars[static_cast<std::size_t>(b)] == c) return b;
  return -1;
}

// The classes GPT-2's pattern tells apart.
enum class Kind : std::uint8_t { Letter, Number, Space, Other };

constexpr std::array<Kind, 128> make_ascii_kinds() {
  std::array<Kind, 128> kinds{};
  for (int c = 0; c < 128; ++c) {
    Kind k = Kind::Other;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) k = Kind::Letter;
    else if (c >= '0' && c <= '9') k = Kind::Number;
    else if ((c >= 0x09 && c <= 0x0D) || c == ' ') k = Kind::Space;
    kinds[static_cast<std::size_t>(c)] = k;
  }
  return kinds;
}
constexpr std::array<Kind, 128> kAsciiKinds = make_ascii_kinds();

// The kind of the character at text[i], and where the next one starts.
Kind kind_at(std::string_view text, std::size_t i, std::size_t& next) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x80) {
    next = i + 1;
    return kAsciiKinds[byte];
  }
  next = i;
  const char32_t c = next_code_point(text, next);
  if (is_white_space(c)) return Kind::Space;
  switch (unicode_category(c)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      return Kind::Letter;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return Kind::Number;
    default:
      return Kind::Other;
  }
}

// The end of the run of characters of `kind` from i.
std::size_t run_end(std::string_view text, std::size_t i, std::size_t to, Kind kind) {
  while (i < to) {
    std::size_t next;
    if (kind_at(text, i, next) != kind) break;
    i = next;
  }
  return i;
}

// The length of a contraction ('s 't 're 've 'm 'll 'd) at text[i], or 0.
std::size_t contraction(std::string_view text, std::size_t i, std::size_t to) {
  if (text[i] != '\'' || i + 1 >= to) return 0;
  const char a = text[i + 1];
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
  if (i + 2 >= to) return 0;
  const char b = text[i + 2];
  if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
  return 0;
}

}  // namespace

char32_t byte_level_char(std::uint8_t b) { return kByteChars[b]; }

std::optional<std::string> byte_level_bytes(std::string_view token) {
  std::string bytes;
  bytes.reserve(token.size());
  for (std::size_t i = 0; i < token.size();) {
    const int b = byte_of_char(next_code_point(token, i));
    if (b < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(b));
  }
  return bytes;
}

void split_gpt2(std::string_view text, std::uint32_t from, std::uint32_t to, std::vector<ByteSpan>& words) {
  std::size_t i = from;
  while (i < to) {
    std::size_t end;
    if (const std::size_t n = contraction(text, i, to)) {
      end = i + n;
    } else {
      // " ?X+" for X letters, numbers or the rest (not white space): the space belongs to the word.
      const std::size_t start = text[i] == ' ' && i + 1 < to ? i + 1 : i;
      std::size_t next;
      const Kind kind = kind_at(text, start, next);
      if (kind != Kind::Space) {
        end = run_end(text, next, to, kind);
      } else {
        // White space: all of it at the end of the text, else all but its last character (which then
        // starts the next word: " ?X+" or a lone white space), else that one character.
        end = run_end(text, i, to, Kind::Space);
        if (end < to) {
          std::size_t last = end - 1;
          while ((static_cast<unsigned char>(text[last]) & 0xC0) == 0x80) --last;
          if (last > i) end = last;
          else end = next;
        }
      }
    }
    words.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end)});
    i = end;
  }
}

const NormalizedText& ByteLevelPreTokenizer::pre_tokenize(const NormalizedText& text, std::uint32_t from,
                                                          std::uint32_t to, std::vector<ByteSpan>& words,
                                                          NormalizedText& rewritten) const {
  const NormalizedText* source = &text;
  if (options_.add_prefix_space && from < to && text.text[from] != ' ') {
    // The space stands for the first character: Hugging Face's prepend aligns it so.
    std::size_t next = from;
    next_code_point(text.text, next);
    rewritten.clear();
    rewritten.append_aligned(" ", text.begin_of(from), text.end_of(next - 1));
    rewritten.append_from(text, from, to);
    source = &rewritten;
    from = 0;
    to = static_cast<std::uint32_t>(rewritten.text.size());
  }
  if (options_.use_regex) split_gpt2(source->text, from, to, words);
  else if (from < to) words.push_back({from, to});
  return *source;
}

std::string ByteLevelDecoder::join(const std::vector<std::string>& tokens) const {
  std::string bytes;
  for (const std::string& token : tokens) {
    if (auto b = byte_level_bytes(token)) bytes += *b;
    else bytes += token;
  }
  std::string out;
  repair_utf8(bytes, out);
  return out;
}

std::string ByteLevelDecoder::decode(const std::vector<std::string>& tokens) const {
  std::string out = join(tokens);
  if (options_.clean_up_tokenization_spaces) clean_up_tokenization(out);
  return out;
}

SpaceEnds space_ends(std::string_view token) {
  // The bytes of the text a character stands for if it is a space, else 0.
  auto space_bytes = [](char32_t c, std::size_t length) -> std::uint32_t {
    if (c == byte_level_char(' ')) return 1;
    return is_white_space(c) ? static_cast<std::uint32_t>(length) : 0;
  };
  struct Char {
    char32_t c;
    std::size_t length;
  };
  std::vector<Char> chars;
  for (std::size_t i = 0; i < token.size();) {
    const std::size_t start = i;
    const char32_t c = next_code_point(token, i);
    chars.push_back({c, i - start});
  }
  SpaceEnds ends;
  for (std::size_t k = 0; k < chars.size(); ++k) {
    const std::uint32_t bytes = space_bytes(chars[k].c, chars[k].length);
    if (!bytes) break;
    ends.leading += bytes;
  }
  for (std::size_t j = chars.size(); j > 0; --j) {  // over the leading ones too, as Hugging Face counts
    const std::uint32_t bytes = space_bytes(chars[j - 1].c, chars[j - 1].length);
    if (!bytes) break;
    ends.trailing += bytes;
  }
  return ends;
}

void trim_offsets(SpaceEnds ends, bool first, bool add_prefix_space, std::uint32_t& begin, std::uint32_t& end) {
  std::uint32_t leading = ends.leading;
  if (leading > 0) {
    // More than one leading space was not added by the pre-tokenizer: those go.
    if (first && add_prefix_space && leading == 1) leading = 0;
    begin = std::min(begin + leading, end);
  }
  if (ends.trailing > 0 && end >= ends.trailing) end = std::max(end - ends.trailing, begin);
}

}  // namespace bertkit::tok
