#include "commands/token_texts.h"

#include "records/json_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace bertkit::cmd {

namespace {

struct LongText {
  std::uint32_t start, size;
};

}  // namespace

TokenTexts::TokenTexts(const tok::Tokenizer& tokenizer, Style style, char separator) {
  count_ = tokenizer.vocab_size();
  // Ids fit 8 bytes (vocabularies under 10 million); texts mostly fit 16, and a wider slot would
  // double the table the cache holds.
  width_ = style == Style::Id && fmt::format_int(count_).size() < 8 ? 8 : 16;
  slots_.assign(count_ * width_, '\0');
  std::string text;  // reused: a vocabulary is built at every start, one-sentence calls included
  for (std::size_t id = 0; id < count_; ++id) {
    text.clear();
    if (style == Style::Id) text.append(fmt::format_int(id).c_str());
    else if (style == Style::Json) records::append_json_string(text, tokenizer.token(static_cast<std::int32_t>(id)));
    else text += tokenizer.token(static_cast<std::int32_t>(id));
    text += separator;
    longest_ = std::max(longest_, text.size());
    char* slot = slots_.data() + id * width_;
    if (text.size() < width_) {
      std::memcpy(slot, text.data(), text.size());
      slot[width_ - 1] = static_cast<char>(text.size());
    } else {
      const LongText where{static_cast<std::uint32_t>(long_.size()), static_cast<std::uint32_t>(text.size())};
      std::memcpy(slot, &where, sizeof where);
      long_ += text;
    }
  }
}

std::size_t TokenTexts::room(std::span<const std::int32_t> ids) const {
  if (longest_ <= kShortTexts) return ids.size() * std::max(width_, longest_) + width_;
  // Some text is long (byte-level BPE has 256-byte tokens): the texts' own lengths, added up.
  std::size_t room = width_;
  for (auto id : ids) {
    check(id);
    const char* slot = slots_.data() + static_cast<std::size_t>(id) * width_;
    if (slot[width_ - 1]) {
      room += width_;
    } else {
      LongText where;
      std::memcpy(&where, slot, sizeof where);
      room += where.size;
    }
  }
  return room;
}

template <std::size_t Width>
char* TokenTexts::write_slots(char* out, std::span<const std::int32_t> ids) const {
  // Locals: through `out` the compiler would otherwise reload the tables for every token.
  const char* slots = slots_.data();
  const std::size_t count = count_;
  const char* const start = out;
  for (const std::int32_t id : ids) {
    const auto i = static_cast<std::size_t>(id);
    if (i >= count) check(id);
    const char* slot = slots + i * Width;
    std::memcpy(out, slot, Width);  // a fixed size: one move, not a call
    const auto size = static_cast<unsigned char>(slot[Width - 1]);
    if (size) {
      out += size;
    } else {
      LongText where;
      std::memcpy(&where, slot, sizeof where);
      std::memcpy(out, long_.data() + where.start, where.size);
      out += where.size;
    }
  }
  return out == start ? out : out - 1;  // no separator after the last
}

char* TokenTexts::write_joined(char* out, std::span<const std::int32_t> ids) const {
  return width_ == 8 ? write_slots<8>(out, ids) : write_slots<16>(out, ids);
}

}  // namespace bertkit::cmd
