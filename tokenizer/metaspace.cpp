#include "tokenizer/metaspace.h"

#include "tokenizer/unicode.h"
#include "tokenizer/utf8.h"

#include <cstring>

namespace bertkit::tok {

namespace {

std::string metaspace_utf8(char32_t c) {
  std::string s;
  append_utf8(s, c);
  return s;
}

}  // namespace

MetaspacePreTokenizer::MetaspacePreTokenizer(MetaspaceSpec spec) : spec_(spec), replacement_(metaspace_utf8(spec.replacement)) {}

const NormalizedText& MetaspacePreTokenizer::pre_tokenize(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                                          std::vector<ByteSpan>& words, NormalizedText& rewritten) const {
  rewritten.clear();
  if (!spec_.whitespace_split) {
    rewrite(text, from, to, words, rewritten);
    return rewritten;
  }
  const std::string_view t = text.text;
  for (std::size_t at = from; at < to;) {
    // The next run of non-white-space characters.
    std::size_t begin = at, end = at;
    while (begin < to) {
      std::size_t next = begin;
      if (!is_white_space(next_code_point(t, next))) break;
      begin = next;
    }
    end = begin;
    while (end < to) {
      std::size_t next = end;
      if (is_white_space(next_code_point(t, next))) break;
      end = next;
    }
    if (begin < end) rewrite(text, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), words, rewritten);
    at = end;
  }
  return rewritten;
}

void MetaspacePreTokenizer::rewrite(const NormalizedText& text, std::uint32_t from, std::uint32_t to,
                                    std::vector<ByteSpan>& words, NormalizedText& rewritten) const {
  if (from >= to) return;
  const std::size_t start_size = rewritten.text.size();
  const std::string_view t = text.text;
  const bool starts_with_replacement = t[from] == ' ' || t.substr(from, to - from).starts_with(replacement_);
  // "first": only the piece that starts the text (its first character comes from original offset 0).
  const bool prepend = !starts_with_replacement && (spec_.prepend_scheme == PrependScheme::Always ||
                                                    (spec_.prepend_scheme == PrependScheme::First && text.begin_of(from) == 0));
  if (prepend) {
    // Hugging Face's prepend aligns the new character to the first one.
    std::size_t first_end = from;
    next_code_point(t, first_end);
    rewritten.append_aligned(replacement_, text.begin_of(from), text.end_of(first_end - 1));
  }
  for (std::size_t at = from; at < to;) {
    const void* space = std::memchr(t.data() + at, ' ', to - at);
    const std::size_t end = space ? static_cast<std::size_t>(static_cast<const char*>(space) - t.data()) : to;
    rewritten.append_from(text, at, end);
    if (end == to) break;
    rewritten.append_aligned(replacement_, text.begin_of(end), text.end_of(end));
    at = end + 1;
  }
  const std::string_view r = rewritten.text;
  if (!spec_.split) {
    words.push_back({static_cast<std::uint32_t>(start_size), static_cast<std::uint32_t>(r.size())});
    return;
  }
  // Merged with next: every replacement character starts a word.
  std::size_t word = start_size;
  for (std::size_t at = r.find(replacement_, start_size + 1); at != std::string_view::npos; at = r.find(replacement_, at + 1)) {
    words.push_back({static_cast<std::uint32_t>(word), static_cast<std::uint32_t>(at)});
    word = at;
  }
  words.push_back({static_cast<std::uint32_t>(word), static_cast<std::uint32_t>(r.size())});
}

MetaspaceDecoder::MetaspaceDecoder(MetaspaceDecoderSpec spec)
    : spec_(spec), replacement_(metaspace_utf8(spec.metaspace.replacement)) {}

std::string MetaspaceDecoder::join(const std::vector<std::string>& tokens) const {
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    const bool drop = i == 0 && spec_.metaspace.prepend_scheme != PrependScheme::Never;
    for (std::size_t at = 0; at < token.size();) {
      const std::size_t found = token.find(replacement_, at);
      const std::size_t end = found == std::string::npos ? token.size() : found;
      out.append(token, at, end - at);
      if (found == std::string::npos) break;
      if (!drop) out.push_back(' ');
      at = found + replacement_.size();
    }
  }
  return out;
}

std::string MetaspaceDecoder::decode(const std::vector<std::string>& tokens) const {
  std::string out = join(tokens);
  if (spec_.clean_up_tokenization_spaces) clean_up_tokenization(out);
  return out;
}

}  // namespace bertkit::tok
