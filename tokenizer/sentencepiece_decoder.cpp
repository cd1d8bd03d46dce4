#include "tokenizer/sentencepiece_decoder.h"

#include "tokenizer/unicode.h"
#include "tokenizer/utf8.h"

#include <algorithm>
#include <optional>

namespace bertkit::tok {

namespace {

// The byte of a piece "<0xNN>".
std::optional<unsigned char> byte_of(std::string_view piece) {
  if (piece.size() != 6 || !piece.starts_with("<0x") || piece.back() != '>') return std::nullopt;
  unsigned value = 0;
  for (char c : piece.substr(3, 2)) {
    value <<= 4;
    if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
    else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;
  }
  return static_cast<unsigned char>(value);
}

// Bytes as UTF-8, each byte that starts no valid character written as U+FFFD.
void append_bytes(std::string_view bytes, std::string& out) {
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t valid = valid_utf8_prefix(bytes.substr(at, std::min<std::size_t>(4, bytes.size() - at)));
    std::size_t one = at;
    if (valid > 0) {
      next_code_point(bytes, one);
      out.append(bytes.substr(at, one - at));
      at = one;
    } else {
      out.append(kReplacementCharacter);
      ++at;
    }
  }
}

// Python's str.isspace(): Unicode's White_Space and the separators U+001C..U+001F.
bool python_space(char32_t c) { return is_white_space(c) || (c >= 0x1C && c <= 0x1F); }

// Python's str.strip().
void strip(std::string& s) {
  const auto [begin, end] = trimmed_span(s, true, true, python_space);
  s = s.substr(begin, end - begin);
}

}  // namespace

bool SentencePieceDecoder::contains(const std::vector<std::string>& list, const std::string& token) {
  return std::find(list.begin(), list.end(), token) != list.end();
}

std::string SentencePieceDecoder::decode_pieces(const std::vector<std::string>& pieces) const {
  std::string text, bytes;
  bool bos = true;  // still before the first visible text: a leading "▁" is dropped
  for (const std::string& piece : pieces) {
    const auto id = spec_.vocab->find(piece);
    const PieceType type = id ? (*spec_.types)[static_cast<std::size_t>(*id)] : PieceType::Unknown;
    if (type == PieceType::Byte)
      if (auto b = byte_of(piece)) {
        bytes.push_back(static_cast<char>(*b));
        continue;
      }
    append_bytes(bytes, text);
    bytes.clear();
    if (!text.empty()) bos = false;
    if (type == PieceType::Control) continue;
    if (type == PieceType::Unknown) {
      text += id ? spec_.unk_surface : piece;
      continue;
    }
    std::string_view rest = piece;
    bool dropped = false;
    if (bos && (spec_.add_dummy_prefix || spec_.remove_extra_whitespaces) && rest.starts_with(kSentencePieceSpace)) {
      rest.remove_prefix(kSentencePieceSpace.size());
      dropped = !spec_.remove_extra_whitespaces;
    }
    if (dropped) bos = false;
    for (std::size_t at = 0; at < rest.size();) {
      const std::size_t next = rest.find(kSentencePieceSpace, at);
      text.append(rest.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
      if (next == std::string_view::npos) break;
      text.push_back(' ');
      at = next + kSentencePieceSpace.size();
    }
  }
  append_bytes(bytes, text);
  return text;
}

std::string SentencePieceDecoder::join(const std::vector<std::string>& tokens) const {
  std::string out;
  std::vector<std::string> run;
  bool prev_special = false;
  for (const std::string& token : tokens) {
    if (!contains(spec_.special, token)) {
      run.push_back(token);
      prev_special = false;
      continue;
    }
    if (!prev_special) out.push_back(' ');
    out += decode_pieces(run);
    out += token;
    prev_special = true;
    run.clear();
  }
  out += decode_pieces(run);
  strip(out);
  return out;
}

std::string SentencePieceDecoder::decode(const std::vector<std::string>& tokens) const {
  std::vector<std::string> parts, run;
  for (const std::string& token : tokens) {
    if (!contains(spec_.added, token)) {
      run.push_back(token);
      continue;
    }
    if (!run.empty()) parts.push_back(join(run));
    run.clear();
    parts.push_back(token);
  }
  if (!run.empty()) parts.push_back(join(run));
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? " " : "") + parts[i];
  if (spec_.clean_up_tokenization_spaces) clean_up_tokenization(text);
  return text;
}

}  // namespace bertkit::tok
